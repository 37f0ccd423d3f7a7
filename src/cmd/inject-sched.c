/* SPDX-License-Identifier: MIT */
/* inject -s: merging sched_stat_* samples with the sched_switch sample where the task went to sleep. */
#include "cmd/inject-sched.h"

#include "core/evsel.h"
#include "data/reader.h"
#include "lib/xalloc.h"
#include "session/session.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* a task's last sched_switch sample and its event */
struct kept_switch {
	const struct evsel *evsel;
	union perf_event ev; /* header.size bytes follow */
};

int inject_sched_init(struct inject_sched *is, struct session *session)
{
	memset(is, 0, sizeof(*is));
	u64map_init(&is->last_switch);
	return sched_decoder_init(&is->dec, session);
}

void inject_sched_release(struct inject_sched *is)
{
	for (size_t i = 0; is->last_switch.vals && i <= is->last_switch.mask; i++)
		free(is->last_switch.vals[i]);
	u64map_release(&is->last_switch);
	sched_decoder_release(&is->dec);
	free(is->out);
	memset(is, 0, sizeof(*is));
}

/*
 * where a sample of @type holds its time and period: both come before any
 * field of variable size (perf_event_open(2) lists the order). -1: absent.
 */
static void sample_time_period_at(u64 type, int *time_off, int *period_off)
{
	int off = (int)sizeof(struct perf_event_header);

	off += type & PERF_SAMPLE_IDENTIFIER ? 8 : 0;
	off += type & PERF_SAMPLE_IP ? 8 : 0;
	off += type & PERF_SAMPLE_TID ? 8 : 0;
	*time_off = type & PERF_SAMPLE_TIME ? off : -1;
	off += type & PERF_SAMPLE_TIME ? 8 : 0;
	off += type & PERF_SAMPLE_ADDR ? 8 : 0;
	off += type & PERF_SAMPLE_ID ? 8 : 0;
	off += type & PERF_SAMPLE_STREAM_ID ? 8 : 0;
	off += type & PERF_SAMPLE_CPU ? 8 : 0;
	*period_off = type & PERF_SAMPLE_PERIOD ? off : -1;
}

const union perf_event *inject_sched_record(struct inject_sched *is, struct session *session,
					    const union perf_event *ev)
{
	struct kept_switch *kept, *old;
	struct evsel *evsel = NULL;
	struct perf_sample s;
	struct sched_rec rec;
	int time_off, period_off;
	u16 size;

	if (ev->header.type != PERF_RECORD_SAMPLE ||
	    data_reader_parse_sample(session->reader, ev, &s, &evsel) < 0 || !evsel)
		return ev;
	switch (sched_decode(&is->dec, evsel, &s, &rec)) {
	case SCHED_SWITCH:
		kept = xmalloc(offsetof(struct kept_switch, ev) + ev->header.size);
		kept->evsel = evsel;
		memcpy(&kept->ev, ev, ev->header.size);
		old = u64map_set(&is->last_switch, (u64)s.tid, kept);
		free(old);
		return NULL;
	case SCHED_STAT:
	case SCHED_RUNTIME:
		break;
	default:
		return ev;
	}
	kept = u64map_find(&is->last_switch, (u64)(u32)rec.pid);
	if (!kept)
		return NULL;
	size = kept->ev.header.size;
	if (is->out_size < size) {
		free(is->out);
		is->out_size = size;
		is->out = xmalloc(size);
	}
	memcpy(is->out, &kept->ev, size);
	sample_time_period_at(kept->evsel->attr.sample_type, &time_off, &period_off);
	if (time_off >= 0 && time_off + 8 <= size)
		memcpy((u8 *)is->out + time_off, &s.time, 8);
	if (period_off >= 0 && period_off + 8 <= size)
		memcpy((u8 *)is->out + period_off, &s.period, 8);
	return is->out;
}
