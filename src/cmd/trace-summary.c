/* SPDX-License-Identifier: MIT */
/* sonde trace -s / -S: perf trace's per-thread syscall summary tables. */
#include "cmd/trace.h"

#include "lib/util.h"
#include "lib/xalloc.h"
#include "trace/syscall-tbl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct thread_vec {
	struct trace_thread **v;
	int nr, alloc;
};

static int collect_thread(uint64_t key, void *val, void *arg)
{
	struct thread_vec *tv = arg;

	if (tv->nr == tv->alloc) {
		tv->alloc = tv->alloc ? 2 * tv->alloc : 16;
		tv->v = xrealloc(tv->v, tv->alloc * sizeof(*tv->v));
	}
	tv->v[tv->nr++] = val;
	return 0;
}

/*
 * cmp_threads - perf's order: its thread table, 256 buckets by tid, each
 * bucket in tid order
 */
static int cmp_threads(const void *a, const void *b)
{
	const struct trace_thread *x = *(struct trace_thread *const *)a;
	const struct trace_thread *y = *(struct trace_thread *const *)b;

	if ((x->tid & 255) != (y->tid & 255))
		return (x->tid & 255) - (y->tid & 255);
	return x->tid - y->tid;
}

static const struct syscall_stats *sort_base;

static int cmp_stats(const void *a, const void *b)
{
	const struct syscall_stats *x = &sort_base[*(const int *)a];
	const struct syscall_stats *y = &sort_base[*(const int *)b];

	if (x->total_ns != y->total_ns)
		return x->total_ns > y->total_ns ? -1 : 1;
	return *(const int *)a - *(const int *)b;
}

static void print_thread_summary(struct trace *trace, struct trace_thread *t)
{
	FILE *out = trace->out;
	int *order = xcalloc(t->nr_stats ? t->nr_stats : 1, sizeof(int)), nr = 0;

	fprintf(out, " %s (%d), %llu events, %.1f%%", t->comm, t->tid,
		(unsigned long long)t->nr_events,
		trace->nr_records ? 100.0 * t->nr_events / trace->nr_records : 0.0);
	if (t->nr_majfaults)
		fprintf(out, ", %llu majfaults", (unsigned long long)t->nr_majfaults);
	if (t->nr_minfaults)
		fprintf(out, ", %llu minfaults", (unsigned long long)t->nr_minfaults);
	if (trace->sched)
		fprintf(out, ", %.3f msec", t->runtime_ns / 1e6);
	fprintf(out, "\n\n");
	fprintf(out, "   syscall            calls  errors  total       min       avg       max       stddev\n");
	fprintf(out, "                                     (msec)    (msec)    (msec)    (msec)        (%%)\n");
	fprintf(out, "   --------------- --------  ------ -------- --------- --------- ---------     ------\n");
	for (int i = 0; i < t->nr_stats; i++)
		if (t->stats[i].calls)
			order[nr++] = i;
	sort_base = t->stats;
	qsort(order, nr, sizeof(int), cmp_stats);
	for (int k = 0; k < nr; k++) {
		const struct syscall_stats *s = &t->stats[order[k]];
		struct syscall_desc *d = trace_desc_get(trace, order[k]);
		double avg = s->mean / 1e6, rel = 0;
		char nbuf[16];

		if (s->calls > 1 && s->mean > 0)
			rel = 100.0 * sqrt(s->m2 / (s->calls - 1) / s->calls) / s->mean;
		fprintf(out, "   %-15s %8llu %6llu %9.3f %9.3f %9.3f %9.3f %9.2f%%\n",
			trace_desc_name(d, nbuf, sizeof(nbuf)), (unsigned long long)s->calls,
			(unsigned long long)s->errors, s->total_ns / 1e6, s->min_ns / 1e6, avg,
			s->max_ns / 1e6, rel);
		if (trace->errno_summary)
			for (int e = 0; e < s->nr_errnos; e++)
				if (s->errnos[e]) {
					const char *name = errno_name(e);

					if (name)
						fprintf(out, "\t\t\t\t%s: %llu\n", name,
							(unsigned long long)s->errnos[e]);
					else
						fprintf(out, "\t\t\t\t%d: %llu\n", e,
							(unsigned long long)s->errnos[e]);
				}
	}
	fprintf(out, "\n\n");
	free(order);
}

void trace_print_summary(struct trace *trace)
{
	struct thread_vec tv = { 0 };

	u64map_for_each(&trace->threads, collect_thread, &tv);
	qsort(tv.v, tv.nr, sizeof(*tv.v), cmp_threads);
	fprintf(trace->out, "\n Summary of events:\n\n");
	for (int i = 0; i < tv.nr; i++) {
		bool any = tv.v[i]->nr_majfaults || tv.v[i]->nr_minfaults;

		for (int k = 0; k < tv.v[i]->nr_stats && !any; k++)
			any = tv.v[i]->stats[k].calls;
		if (any)
			print_thread_summary(trace, tv.v[i]);
	}
	free(tv.v);
}
