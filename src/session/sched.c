/* SPDX-License-Identifier: MIT */
/* Decoding the scheduler tracepoints of a perf.data into struct sched_rec (field offsets learnt once per event). */
#include "session/sched.h"

#include "core/evlist.h"
#include "core/evsel.h"
#include "data/reader.h"
#include "lib/xalloc.h"
#include "session/session.h"
#include "trace/tep.h"

#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>

static const struct {
	const char *name;
	enum sched_kind kind;
} sched_names[] = {
	{ "sched:sched_switch", SCHED_SWITCH },
	{ "sched:sched_wakeup", SCHED_WAKEUP },
	{ "sched:sched_waking", SCHED_WAKING },
	{ "sched:sched_wakeup_new", SCHED_WAKEUP_NEW },
	{ "sched:sched_migrate_task", SCHED_MIGRATE },
	{ "sched:sched_stat_runtime", SCHED_RUNTIME },
	{ "sched:sched_process_fork", SCHED_FORK },
	{ "sched:sched_process_exit", SCHED_EXIT },
	{ "sched:sched_stat_wait", SCHED_STAT },
	{ "sched:sched_stat_sleep", SCHED_STAT },
	{ "sched:sched_stat_iowait", SCHED_STAT },
	{ "sched:sched_stat_blocked", SCHED_STAT },
};

/* the tracepoint field behind each slot, per kind (NULL: unused) */
static const char *field_name(enum sched_kind kind, enum sched_fid fid)
{
	static const char *const sw[SF_NR] = {
		[SF_COMM] = "prev_comm", [SF_PID] = "prev_pid", [SF_PRIO] = "prev_prio",
		[SF_STATE] = "prev_state", [SF_NEXT_COMM] = "next_comm",
		[SF_NEXT_PID] = "next_pid", [SF_NEXT_PRIO] = "next_prio",
	};
	static const char *const wk[SF_NR] = {
		[SF_COMM] = "comm", [SF_PID] = "pid", [SF_PRIO] = "prio", [SF_CPU] = "target_cpu",
	};
	static const char *const mg[SF_NR] = {
		[SF_COMM] = "comm", [SF_PID] = "pid", [SF_PRIO] = "prio",
		[SF_CPU] = "orig_cpu", [SF_DEST_CPU] = "dest_cpu",
	};
	static const char *const rt[SF_NR] = {
		[SF_COMM] = "comm", [SF_PID] = "pid", [SF_RUNTIME] = "runtime",
	};
	static const char *const fk[SF_NR] = {
		[SF_COMM] = "parent_comm", [SF_PID] = "parent_pid",
		[SF_NEXT_COMM] = "child_comm", [SF_NEXT_PID] = "child_pid",
	};
	static const char *const ex[SF_NR] = {
		[SF_COMM] = "comm", [SF_PID] = "pid", [SF_PRIO] = "prio",
	};
	static const char *const st[SF_NR] = {
		[SF_COMM] = "comm", [SF_PID] = "pid", [SF_RUNTIME] = "delay",
	};

	switch (kind) {
	case SCHED_SWITCH:
		return sw[fid];
	case SCHED_WAKEUP:
	case SCHED_WAKING:
	case SCHED_WAKEUP_NEW:
		return wk[fid];
	case SCHED_MIGRATE:
		return mg[fid];
	case SCHED_RUNTIME:
		return rt[fid];
	case SCHED_FORK:
		return fk[fid];
	case SCHED_EXIT:
		return ex[fid];
	case SCHED_STAT:
		return st[fid];
	default:
		return NULL;
	}
}

int sched_decoder_init(struct sched_decoder *dec, struct session *session)
{
	const struct perf_header *h = data_reader_header(session->reader);
	struct evsel *evsel;

	memset(dec, 0, sizeof(*dec));
	dec->nr = session->evlist->nr_entries;
	dec->ev = xcalloc((size_t)dec->nr + 1, sizeof(*dec->ev));
	if (h->tracing_data && trace_tep_from_data(h->tracing_data, h->tracing_data_size, &dec->tep))
		dec->tep = NULL;
	evlist_for_each_entry(session->evlist, evsel) {
		struct sched_evinfo *info;
		struct tep_event *te;

		if (evsel->idx < 0 || evsel->idx >= dec->nr || !evsel->name ||
		    evsel->attr.type != PERF_TYPE_TRACEPOINT)
			continue;
		info = &dec->ev[evsel->idx];
		for (size_t i = 0; i < ARRAY_SIZE(sched_names); i++)
			if (!strcmp(evsel->name, sched_names[i].name))
				info->kind = sched_names[i].kind;
		te = dec->tep ? trace_tep_find_event(dec->tep, (int)evsel->attr.config) : NULL;
		if (!te) {
			info->kind = SCHED_NONE;
			continue;
		}
		for (int f = 0; f < SF_NR; f++) {
			const char *name = field_name(info->kind, f);
			struct tep_format_field *ff = name ? tep_find_field(te, name) : NULL;

			if (!ff)
				continue;
			info->f[f].offset = ff->offset;
			info->f[f].size = ff->size;
			info->f[f].is_dynamic = ff->flags & TEP_FIELD_IS_DYNAMIC;
			info->f[f].is_signed = ff->flags & TEP_FIELD_IS_SIGNED;
		}
	}
	return 0;
}

void sched_decoder_release(struct sched_decoder *dec)
{
	trace_tep_free(dec->tep);
	free(dec->ev);
	memset(dec, 0, sizeof(*dec));
}

bool sched_decoder_has(const struct sched_decoder *dec, enum sched_kind kind)
{
	for (int i = 0; i < dec->nr; i++)
		if (dec->ev[i].kind == kind)
			return true;
	return false;
}

static s64 field_num(const struct sched_field *f, const u8 *raw, u32 size)
{
	if (!f->size || (u32)(f->offset + f->size) > size)
		return 0;
	switch (f->size) {
	case 1:
		return f->is_signed ? (s64)(int8_t)raw[f->offset] : (s64)raw[f->offset];
	case 2: {
		u16 v;

		memcpy(&v, raw + f->offset, 2);
		return f->is_signed ? (s64)(int16_t)v : (s64)v;
	}
	case 4: {
		u32 v;

		memcpy(&v, raw + f->offset, 4);
		return f->is_signed ? (s64)(s32)v : (s64)v;
	}
	default: {
		u64 v;

		memcpy(&v, raw + f->offset, 8);
		return (s64)v;
	}
	}
}

/* a string field: *@str into @raw, its length up to the first NUL */
static void field_str(const struct sched_field *f, const u8 *raw, u32 size, const char **str,
		      int *len)
{
	u32 off = (u32)f->offset, n = (u32)f->size;
	const u8 *nul;

	*str = "";
	*len = 0;
	if (!f->size || off + n > size)
		return;
	if (f->is_dynamic) {
		u32 loc;

		memcpy(&loc, raw + off, 4);
		off = loc & 0xffff;
		n = loc >> 16;
		if (off + n > size)
			return;
	}
	nul = memchr(raw + off, '\0', n);
	*str = (const char *)raw + off;
	*len = nul ? (int)(nul - (raw + off)) : (int)n;
}

enum sched_kind sched_decode(const struct sched_decoder *dec, const struct evsel *evsel,
			     const struct perf_sample *sample, struct sched_rec *rec)
{
	const struct sched_evinfo *info;
	const u8 *raw = sample->raw_data;
	u32 size = sample->raw_size;

	if (evsel->idx < 0 || evsel->idx >= dec->nr || !raw)
		return SCHED_NONE;
	info = &dec->ev[evsel->idx];
	rec->kind = info->kind;
	if (info->kind == SCHED_NONE)
		return SCHED_NONE;
	field_str(&info->f[SF_COMM], raw, size, &rec->comm, &rec->comm_len);
	rec->pid = (int)field_num(&info->f[SF_PID], raw, size);
	rec->prio = (int)field_num(&info->f[SF_PRIO], raw, size);
	rec->state = field_num(&info->f[SF_STATE], raw, size);
	field_str(&info->f[SF_NEXT_COMM], raw, size, &rec->next_comm, &rec->next_comm_len);
	rec->next_pid = (int)field_num(&info->f[SF_NEXT_PID], raw, size);
	rec->next_prio = (int)field_num(&info->f[SF_NEXT_PRIO], raw, size);
	rec->cpu = (int)field_num(&info->f[SF_CPU], raw, size);
	rec->dest_cpu = (int)field_num(&info->f[SF_DEST_CPU], raw, size);
	rec->runtime = (u64)field_num(&info->f[SF_RUNTIME], raw, size);
	return info->kind;
}

char sched_state_char(s64 state)
{
	static const char letters[] = "RSDTtZXxKWP";
	int bit;

	if (!state)
		return 'R';
	bit = __builtin_ctzll((u64)state) + 1;
	return bit < (int)sizeof(letters) - 1 ? letters[bit] : '?';
}
