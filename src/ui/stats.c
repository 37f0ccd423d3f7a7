/* SPDX-License-Identifier: MIT */
/* Record counting and the "Aggregated stats" layout of perf report --stats / -D. */
#include "ui/stats.h"
#include "ui/header.h"
#include "core/evlist.h"
#include "lib/xalloc.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

void record_stats_init(struct record_stats *st, struct data_reader *reader)
{
	memset(st, 0, sizeof(*st));
	st->nr_evsels = data_reader_evlist(reader)->nr_entries;
	st->nr_samples = xcalloc(st->nr_evsels + 1, sizeof(u64));
	st->nr_lost_samples = xcalloc(st->nr_evsels + 1, sizeof(u64));
}

void record_stats_release(struct record_stats *st)
{
	free(st->nr_samples);
	free(st->nr_lost_samples);
	memset(st, 0, sizeof(*st));
}

static void grow(struct record_stats *st, int idx)
{
	if (idx < st->nr_evsels)
		return;
	st->nr_samples = xreallocarray(st->nr_samples, idx + 1, sizeof(u64));
	st->nr_lost_samples = xreallocarray(st->nr_lost_samples, idx + 1, sizeof(u64));
	for (int i = st->nr_evsels; i <= idx; i++)
		st->nr_samples[i] = st->nr_lost_samples[i] = 0;
	st->nr_evsels = idx + 1;
}

void record_stats_add(struct record_stats *st, const union perf_event *ev, int idx)
{
	u32 type = ev->header.type;

	if (type < PERF_RECORD_HEADER_MAX)
		st->nr_events[type]++;
	st->nr_events[0]++;
	if (type == PERF_RECORD_LOST_SAMPLES)
		st->total_lost_samples += ev->lost_samples.lost;
	if (idx < 0)
		return;
	grow(st, idx);
	if (type == PERF_RECORD_SAMPLE)
		st->nr_samples[idx]++;
	else if (type == PERF_RECORD_LOST_SAMPLES && !st->no_evsel_lost)
		st->nr_lost_samples[idx] += ev->lost_samples.lost;
}

void stats_warn_lost(const struct record_stats *st)
{
	u64 nr_samples = st->nr_events[PERF_RECORD_SAMPLE] + st->total_lost_samples;

	if (st->nr_events[PERF_RECORD_LOST])
		fprintf(stderr, "Warning:\nProcessed %d events and lost %d chunks!\n\n"
				"Check IO/CPU overload!\n\n",
			(int)st->nr_events[0], (int)st->nr_events[PERF_RECORD_LOST]);
	if (nr_samples && (double)st->total_lost_samples / nr_samples > 0.05)
		fprintf(stderr, "Warning:\nProcessed %" PRIu64 " samples and lost %3.2f%%!\n\n",
			nr_samples, (double)st->total_lost_samples / nr_samples * 100.0);
}

void stats_fprintf(FILE *fp, const struct record_stats *st, struct data_reader *reader)
{
	struct evsel *evsel;
	u64 total = st->nr_events[0];

	fprintf(fp, "\nAggregated stats:\n");
	for (u32 i = 0; i < PERF_RECORD_HEADER_MAX; i++) {
		const char *name = perf_event_name(i);

		if (!strcmp(name, "UNKNOWN") || !st->nr_events[i])
			continue;
		if (i && total)
			fprintf(fp, "%16s events: %10" PRIu64 "  (%4.1f%%)\n", name, st->nr_events[i],
				(double)st->nr_events[i] / total * 100.0);
		else
			fprintf(fp, "%16s events: %10" PRIu64 "\n", name, st->nr_events[i]);
	}
	evlist_for_each_entry(data_reader_evlist(reader), evsel) {
		int i = evsel->idx;

		if (i >= st->nr_evsels || (!st->nr_samples[i] && !st->nr_lost_samples[i]))
			continue;
		fprintf(fp, "%s stats:\n", evsel->name);
		if (st->nr_samples[i])
			fprintf(fp, "%16s events: %10" PRIu64 "\n", "SAMPLE", st->nr_samples[i]);
		if (st->nr_lost_samples[i])
			fprintf(fp, "%16s events: %10" PRIu64 "\n", "LOST_SAMPLES",
				st->nr_lost_samples[i]);
	}
}

/* the counting tool: every record as read, nothing delivered */
struct stats_tool {
	struct tool tool; /* first: the session's callbacks get this back */
	struct record_stats st;
	struct data_reader *reader;
};

static int stats_read(struct tool *tool, struct session *session, const union perf_event *ev,
		      const struct record_pos *pos)
{
	struct stats_tool *t = (struct stats_tool *)tool;
	int idx = -1;

	(void)session;
	(void)pos;
	if (ev->header.type == PERF_RECORD_SAMPLE || ev->header.type == PERF_RECORD_LOST_SAMPLES) {
		struct evsel *evsel = data_reader_evsel_for_event(t->reader, ev);

		idx = evsel ? evsel->idx : -1;
	}
	record_stats_add(&t->st, ev, idx);
	return 0;
}

int report_stats(FILE *fp, struct session *session, struct data_error *err)
{
	struct stats_tool t = { .tool = { .read = stats_read }, .reader = session->reader };
	int ret;

	record_stats_init(&t.st, t.reader);
	ret = session_process(session, &t.tool, err);
	if (ret >= 0)
		stats_fprintf(fp, &t.st, t.reader);
	record_stats_release(&t.st);
	return ret < 0 ? ret : 0;
}
