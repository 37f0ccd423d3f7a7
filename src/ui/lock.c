/* SPDX-License-Identifier: MIT */
/* perf lock contention: waits from contention_begin to _end, by call stack (the first caller past the lock code) or thread. */
#include "ui/lock.h"

#include "core/evlist.h"
#include "core/evsel.h"
#include "data/reader.h"
#include "lib/hashmap.h"
#include "lib/xalloc.h"
#include "session/resolve.h"
#include "session/session.h"
#include "symbol/symtab.h"
#include "trace/tep.h"
#include "ui/header.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* struct lock_stat - one row: a call stack (or a thread) and its waits */
struct lock_stat {
	u64 key;
	u64 nr, total, max, min;
	u32 flags;	    /* of the first contention */
	char *caller;	    /* owned: "sym+0xoff", or the thread's name with -t */
	int tid;
	u32 order;
};

/* struct lock_wait - a thread waiting since a contention_begin */
struct lock_wait {
	u64 time;
	struct lock_stat *stat;
};

struct lock_run {
	struct tool tool;
	const struct lock_contention_opts *o;
	struct session *session;
	struct tep_handle *tep;
	struct evsel *begin, *end;
	struct resolver res;
	struct u64map stats;  /* key -> struct lock_stat * */
	struct lock_stat **list;
	size_t nr, alloc;
	struct u64map waits;  /* tid -> struct lock_wait * */
	struct u64map named;  /* tids a COMM record named */
	u64 lock_text_start, lock_text_end, sched_text_start, sched_text_end;
	bool lock_text_tried;
};

/* the lock and scheduler code (the kernel's __lock_text and __sched_text) */
static bool is_lock_function(struct lock_run *r, u64 ip)
{
	return (ip >= r->lock_text_start && ip < r->lock_text_end) ||
	       (ip >= r->sched_text_start && ip < r->sched_text_end);
}

/* the kernel's __lock_text bounds, from the symbols of the kernel dso @rf resolved in */
static void find_lock_text(struct lock_run *r, const struct resolved_frame *rf)
{
	struct dso *dso = resolved_frame_dso(rf);
	const struct symbol *s;

	r->lock_text_tried = true;
	if (!dso || !dso->is_kernel || !dso->ss)
		return;
	s = symtab_find_by_name(&dso->ss->symtab, "__lock_text_start");
	if (s)
		r->lock_text_start = s->start;
	s = symtab_find_by_name(&dso->ss->symtab, "__lock_text_end");
	if (s)
		r->lock_text_end = s->start;
	s = symtab_find_by_name(&dso->ss->symtab, "__sched_text_start");
	if (s)
		r->sched_text_start = s->start;
	s = symtab_find_by_name(&dso->ss->symtab, "__sched_text_end");
	if (s)
		r->sched_text_end = s->start;
}

static u64 hash_chain(const u64 *ips, u32 n)
{
	return hash_bytes(ips, n * sizeof(*ips)) | 1;
}

static struct lock_stat *stat_findnew(struct lock_run *r, u64 key)
{
	struct lock_stat *st = u64map_find(&r->stats, key);

	if (st)
		return st;
	st = xcalloc(1, sizeof(*st));
	st->key = key;
	st->order = (u32)r->nr;
	u64map_set(&r->stats, key, st);
	if (r->nr == r->alloc) {
		r->alloc = r->alloc ? 2 * r->alloc : 64;
		r->list = xreallocarray(r->list, r->alloc, sizeof(*r->list));
	}
	r->list[r->nr++] = st;
	return st;
}

/* the caller of a contention: past --stack-skip frames, the first outside the lock code */
static char *caller_of(struct lock_run *r, struct thread *t, const struct perf_sample *s,
		       u64 *ips, u32 *nr_ips)
{
	const struct ip_callchain *cc = s->callchain;
	char buf[512];
	u32 n = 0, depth = 0;
	char *caller = NULL;

	for (u64 i = 0; cc && i < cc->nr; i++) {
		u64 ip = cc->ips[i];

		if (ip >= PERF_CONTEXT_MAX)
			continue;
		if (!r->lock_text_tried)
			find_lock_text(r, resolver_frame(&r->res, t, PERF_RECORD_MISC_KERNEL, ip));
		if ((int)n >= r->o->max_stack)
			break;
		ips[n++] = ip;
		if (!caller && depth++ >= (u32)r->o->stack_skip && !is_lock_function(r, ip)) {
			const struct resolved_frame *rf =
				resolver_frame(&r->res, t, PERF_RECORD_MISC_KERNEL, ip);
			const struct symbol *sym = resolved_frame_sym(rf);

			if (sym)
				snprintf(buf, sizeof(buf), "%s+%#" PRIx64, sym->name, rf->symoff);
			else
				snprintf(buf, sizeof(buf), "%#" PRIx64, ip);
			caller = xstrdup(buf);
		}
	}
	*nr_ips = n;
	return caller ? caller : xstrdup("Unknown");
}

static int lock_sample(struct tool *tool, struct session *session, const union perf_event *ev,
		       const struct perf_sample *s, struct evsel *evsel)
{
	struct lock_run *r = (struct lock_run *)tool;
	struct lock_wait *w;

	(void)ev;
	if (evsel == r->begin) {
		struct tep_event *te = trace_tep_find_event(r->tep, (int)evsel->attr.config);
		struct thread *t = machine_findnew_thread(&session->machine, (int)s->pid, (int)s->tid);
		u64 ips[128], flags = 0, key;
		u32 n;
		char *caller;
		struct lock_stat *st;

		if (te)
			trace_tep_field_u64(te, s->raw_data, s->raw_size, "flags", &flags);
		caller = caller_of(r, t, s, ips, &n);
		/*
		 * a call stack is its frames past the skipped ones (perf puts every stack
		 * without a caller in one "Unknown" row); report keys by lock address
		 */
		if (r->o->threads)
			key = (u64)s->tid;
		else if (r->o->report && te &&
			 !trace_tep_field_u64(te, s->raw_data, s->raw_size, "lock_addr", &key))
			;
		else if (n > (u32)r->o->stack_skip && strcmp(caller, "Unknown"))
			key = hash_chain(ips + r->o->stack_skip, n - (u32)r->o->stack_skip);
		else
			key = 1;
		st = stat_findnew(r, key);
		if (!st->caller) {
			st->caller = caller;
			st->flags = (u32)flags;
			st->tid = (int)s->tid;
		} else {
			free(caller);
		}
		w = u64map_find(&r->waits, s->tid);
		if (!w) {
			w = xcalloc(1, sizeof(*w));
			u64map_set(&r->waits, s->tid, w);
		}
		if (!w->stat) { /* a second begin before the end (a mutex spins, then sleeps) keeps the first */
			w->time = s->time;
			w->stat = st;
		}
	} else if (evsel == r->end) {
		struct lock_stat *st;
		u64 d;

		w = u64map_find(&r->waits, s->tid);
		if (!w || !w->stat)
			return 0;
		st = w->stat;
		d = s->time >= w->time ? s->time - w->time : 0;
		if (!st->nr || d < st->min)
			st->min = d;
		if (d > st->max)
			st->max = d;
		st->total += d;
		st->nr++;
		w->stat = NULL;
	}
	return 0;
}

static int lock_other(struct tool *tool, struct session *session, const union perf_event *ev,
		      const struct perf_sample *s)
{
	struct lock_run *r = (struct lock_run *)tool;

	(void)session;
	(void)s;
	if (ev->header.type == PERF_RECORD_COMM)
		u64map_set(&r->named, ev->comm.tid, (void *)1);
	return 0;
}

static int free_wait(uint64_t key, void *val, void *arg)
{
	(void)key;
	(void)arg;
	free(val);
	return 0;
}

static const struct lock_run *sort_run;

static u64 stat_value(const struct lock_stat *st, enum lock_key k)
{
	switch (k) {
	case LOCK_KEY_CONTENDED:
		return st->nr;
	case LOCK_KEY_WAIT_TOTAL:
		return st->total;
	case LOCK_KEY_WAIT_MAX:
		return st->max;
	case LOCK_KEY_WAIT_MIN:
		return st->min;
	case LOCK_KEY_AVG_WAIT:
		return st->nr ? st->total / st->nr : 0;
	}
	return 0;
}

static int stat_cmp(const void *a, const void *b)
{
	const struct lock_stat *x = *(const struct lock_stat *const *)a;
	const struct lock_stat *y = *(const struct lock_stat *const *)b;
	u64 vx = stat_value(x, sort_run->o->key), vy = stat_value(y, sort_run->o->key);

	if (vx != vy)
		return vx > vy ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* perf's time column: ns below a microsecond, else us, ms or s with two decimals */
static const char *fmt_time(char *buf, size_t len, u64 ns)
{
	char tmp[32];

	/* two decimals of a single-precision value, as perf computes it */
	float v = (float)ns;

	if (ns < 1000)
		snprintf(tmp, sizeof(tmp), "%" PRIu64 " ns", ns);
	else if (ns < 1000000)
		snprintf(tmp, sizeof(tmp), "%.2f us", (double)(v / 1000.0f));
	else if (ns < 1000000000)
		snprintf(tmp, sizeof(tmp), "%.2f ms", (double)(v / 1000000.0f));
	else
		snprintf(tmp, sizeof(tmp), "%.2f s", (double)(v / 1000000000.0f));
	snprintf(buf, len, "%12s", tmp);
	return buf;
}

/* the lock type from the contention flags (SPIN 1, READ 2, WRITE 4, RT 8, PERCPU 16, MUTEX 32) */
static const char *lock_type(u32 flags)
{
	bool rd = flags & 2, wr = flags & 4;

	if (flags & 32)
		return "mutex";
	if (flags & 16)
		return rd ? "pcpu-sem:R" : wr ? "pcpu-sem:W" : "pcpu-sem";
	if (flags & 8)
		return rd ? "rwlock-rt:R" : wr ? "rwlock-rt:W" : "rtmutex";
	if (flags & 1)
		return rd ? "rwlock:R" : wr ? "rwlock:W" : "spinlock";
	if (rd)
		return "rwsem:R";
	if (wr)
		return "rwsem:W";
	return flags ? "unknown" : "semaphore";
}

static int tid_cmp(const void *a, const void *b)
{
	const struct lock_stat *x = *(const struct lock_stat *const *)a;
	const struct lock_stat *y = *(const struct lock_stat *const *)b;

	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

/* perf lock info: the threads by tid (-t), or each lock address and its name (-m) */
static void info_print(struct lock_run *r)
{
	if (r->o->info == 't') {
		fprintf(stderr, " Thread ID: comm\n");
		if (r->nr > 1)
			qsort(r->list, r->nr, sizeof(*r->list), tid_cmp);
		for (size_t i = 0; i < r->nr; i++) {
			const struct lock_stat *st = r->list[i];
			struct thread *t = machine_find_thread(&r->session->machine, st->tid);

			if (t && u64map_find(&r->named, (u64)st->tid))
				fprintf(stderr, "%10d: %s\n", st->tid, t->comm);
			else
				fprintf(stderr, "%10d: :%d\n", st->tid, st->tid);
		}
		return;
	}
	fprintf(stderr, "Address of instance: name of class\n");
	for (size_t i = 0; i < r->nr; i++)
		fprintf(stderr, " %#" PRIx64 ": %s\n", r->list[i]->key, r->list[i]->caller);
}

/* perf lock report's table: Name (callers cut to 16 characters and "..."), then the -F columns */
static void report_print(struct lock_run *r)
{
	static const char *const titles[] = { "acquired", "contended", "avg wait", "total wait",
					      "max wait", "min wait" };
	const struct lock_contention_opts *o = r->o;
	char buf[32];
	size_t shown = 0;

	if (o->combine) /* one row per name: fold later rows into the first of that name */
		for (size_t i = 0; i < r->nr; i++)
			for (size_t j = 0; j < i && r->list[i]->nr; j++) {
				struct lock_stat *a = r->list[j], *b = r->list[i];

				if (!a->nr || strcmp(a->caller, b->caller))
					continue;
				a->total += b->total;
				a->max = b->max > a->max ? b->max : a->max;
				a->min = b->min < a->min ? b->min : a->min;
				a->nr += b->nr;
				b->nr = 0;
			}
	if (r->nr > 1)
		qsort(r->list, r->nr, sizeof(*r->list), stat_cmp);
	fprintf(stderr, "%20s ", "Name");
	for (int c = 0; c < o->nr_cols; c++)
		fprintf(stderr, "%*s ", o->cols[c] < 2 ? 10 : 12, titles[o->cols[c]]);
	fprintf(stderr, "\n\n");
	for (size_t i = 0; i < r->nr; i++) {
		const struct lock_stat *st = r->list[i];
		char name[32];

		if (!st->nr)
			continue;
		if (o->entries > 0 && shown >= (size_t)o->entries)
			break;
		shown++;
		const char *who = st->caller;
		char tidname[32];

		if (o->threads) { /* the thread's comm, or ":tid" for one no COMM named */
			struct thread *t = machine_find_thread(&r->session->machine, st->tid);

			snprintf(tidname, sizeof(tidname), ":%d", st->tid);
			who = t && u64map_find(&r->named, (u64)st->tid) ? t->comm : tidname;
		}
		if (strlen(who) >= 20)
			snprintf(name, sizeof(name), "%.16s...", who);
		else
			snprintf(name, sizeof(name), "%s", who);
		fprintf(stderr, "%20s ", name);
		for (int c = 0; c < o->nr_cols; c++) {
			switch (o->cols[c]) {
			case 0:
			case 1:
				fprintf(stderr, "%10" PRIu64 " ", st->nr);
				break;
			case 2:
				fprintf(stderr, "%s ", fmt_time(buf, sizeof(buf), st->total / st->nr));
				break;
			case 3:
				fprintf(stderr, "%s ", fmt_time(buf, sizeof(buf), st->total));
				break;
			case 4:
				fprintf(stderr, "%s ", fmt_time(buf, sizeof(buf), st->max));
				break;
			default:
				fprintf(stderr, "%s ", fmt_time(buf, sizeof(buf), st->min));
				break;
			}
		}
		fprintf(stderr, "\n");
	}
}

int lock_contention(struct session *session, const struct lock_contention_opts *o)
{
	const struct perf_header *h = data_reader_header(session->reader);
	struct lock_run r = { .o = o, .session = session };
	struct data_error err = { 0 };
	struct evsel *evsel;
	char a[32], b[32], c[32];
	size_t shown;
	int ret;

	evlist_for_each_entry(session->evlist, evsel) {
		if (evsel->name && !strcmp(evsel->name, "lock:contention_begin"))
			r.begin = evsel;
		else if (evsel->name && !strcmp(evsel->name, "lock:contention_end"))
			r.end = evsel;
	}
	if (!r.begin || !r.end) {
		bool any_tp = false;

		evlist_for_each_entry(session->evlist, evsel)
			any_tp |= evsel->attr.type == PERF_TYPE_TRACEPOINT;
		return any_tp ? 1 : 2;
	}
	if (h->tracing_data && trace_tep_from_data(h->tracing_data, h->tracing_data_size, &r.tep))
		r.tep = NULL;
	u64map_init(&r.stats);
	u64map_init(&r.waits);
	u64map_init(&r.named);
	resolver_init(&r.res, &session->machine, NULL);
	r.tool.sample = lock_sample;
	r.tool.other = lock_other;
	r.tool.ordered = true;
	ret = session_process(session, &r.tool, &err);
	if (ret < 0) {
		data_error_print(data_reader_path(session->reader), &err);
		goto out;
	}
	sort_run = &r;
	if (o->info) {
		info_print(&r);
		goto out;
	}
	if (o->report) {
		report_print(&r);
		goto out;
	}
	if (r.nr > 1)
		qsort(r.list, r.nr, sizeof(*r.list), stat_cmp);
	fprintf(stderr, "%10s %12s %12s %12s ", "contended", "total wait", "max wait", "avg wait");
	if (o->key == LOCK_KEY_WAIT_MIN) /* perf adds the column it sorts by */
		fprintf(stderr, "%12s ", "min wait");
	fprintf(stderr, "%12s   %s\n\n", o->threads ? "pid" : "type", o->threads ? "comm" : "caller");
	shown = 0;
	for (size_t i = 0; i < r.nr; i++) {
		struct lock_stat *st = r.list[i];

		if (!st->nr)
			continue;
		if (o->entries > 0 && shown >= (size_t)o->entries)
			break;
		shown++;
		fprintf(stderr, "%10" PRIu64 " %s %s %s ", st->nr, fmt_time(a, sizeof(a), st->total),
			fmt_time(b, sizeof(b), st->max), fmt_time(c, sizeof(c), st->total / st->nr));
		if (o->key == LOCK_KEY_WAIT_MIN)
			fprintf(stderr, "%s ", fmt_time(a, sizeof(a), st->min));
		if (o->threads) {
			struct thread *t = machine_find_thread(&session->machine, st->tid);

			if (t && u64map_find(&r.named, (u64)st->tid))
				fprintf(stderr, "%12d   %s\n", st->tid, t->comm);
			else
				fprintf(stderr, "%12d   :%d\n", st->tid, st->tid);
		} else {
			fprintf(stderr, "%12s   %s\n", lock_type(st->flags), st->caller);
		}
	}
out:
	for (size_t i = 0; i < r.nr; i++) {
		free(r.list[i]->caller);
		free(r.list[i]);
	}
	free(r.list);
	u64map_for_each(&r.waits, free_wait, NULL);
	u64map_release(&r.waits);
	u64map_release(&r.stats);
	u64map_release(&r.named);
	resolver_release(&r.res);
	trace_tep_free(r.tep);
	return ret < 0 ? ret : 0;
}
