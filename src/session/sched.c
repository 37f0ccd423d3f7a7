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

static bool is_string(enum sched_fid fid)
{
	return fid == SF_COMM || fid == SF_NEXT_COMM;
}

/* how to read each numeric field per sample */
static void plan_numbers(struct sched_evinfo *info)
{
	for (int f = 0; f < SF_NR; f++) {
		const struct sched_field *sf = &info->f[f];
		struct sched_num *n = &info->num[f];

		*n = (struct sched_num){ .width = 8 };
		if (!sf->size || is_string(f))
			continue;
		if (sf->offset < 0 || sf->offset > 0xffff) {
			/* never met in a tracepoint: read nothing rather than guess */
			info->kind = SCHED_NONE;
			return;
		}
		n->offset = (u16)sf->offset;
		/* other sizes never occur here; 8 bytes are read as before */
		n->width = sf->size == 1 || sf->size == 2 || sf->size == 4 ? (u8)sf->size : 8;
		n->shift = (u8)(64 - 8 * n->width);
		n->is_signed = sf->is_signed && n->width < 8;
		n->mask = ~0ULL;
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
		plan_numbers(info);
	}
	dec->comms = true;
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

/*
 * a numeric field: 8 bytes loaded and shifted into place, its width and
 * sign folded into the shifts, so no branch depends on the field's type;
 * absent, or past the end of a short payload, it reads as 0
 */
static inline s64 num_at(const struct sched_num *n, const u8 *raw, u32 size)
{
	u64 x = 0;
	s64 v;

	if ((u32)n->offset + 8 <= size)
		memcpy(&x, raw + n->offset, 8);
	else if ((u32)n->offset + n->width <= size)
		memcpy(&x, raw + n->offset, n->width);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	x <<= n->shift; /* the field's bytes come first: to the top */
#endif
	v = n->is_signed ? (s64)x >> n->shift : (s64)(x >> n->shift);
	return (s64)((u64)v & n->mask);
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
	rec->pid = (int)num_at(&info->num[SF_PID], raw, size);
	rec->prio = (int)num_at(&info->num[SF_PRIO], raw, size);
	rec->state = num_at(&info->num[SF_STATE], raw, size);
	rec->next_pid = (int)num_at(&info->num[SF_NEXT_PID], raw, size);
	rec->next_prio = (int)num_at(&info->num[SF_NEXT_PRIO], raw, size);
	rec->cpu = (int)num_at(&info->num[SF_CPU], raw, size);
	rec->dest_cpu = (int)num_at(&info->num[SF_DEST_CPU], raw, size);
	rec->runtime = (u64)num_at(&info->num[SF_RUNTIME], raw, size);
	if (dec->comms) {
		field_str(&info->f[SF_COMM], raw, size, &rec->comm, &rec->comm_len);
		field_str(&info->f[SF_NEXT_COMM], raw, size, &rec->next_comm, &rec->next_comm_len);
	} else {
		rec->comm = rec->next_comm = "";
		rec->comm_len = rec->next_comm_len = 0;
	}
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
