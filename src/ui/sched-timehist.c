/* SPDX-License-Identifier: MIT */
/* perf sched timehist: one line per context switch (wait, delay, run), wakeups, migrations, and the per-task summary. */
#include "ui/sched.h"

#include "core/evlist.h"
#include "core/evsel.h"
#include "data/reader.h"
#include "lib/xalloc.h"
#include "session/sched.h"
#include "session/resolve.h"
#include "session/session.h"
#include "ui/header.h"
#include "ui/linebuf.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* struct th_task - what timehist knows of one task (thread->priv, or a cpu's idle task) */
/* struct th_stats - a count, sum, extremes and running mean/variance (Welford) */
struct th_stats {
	u64 n, total, min, max;
	double mean, m2;
};

static void stats_add(struct th_stats *st, u64 v)
{
	double d;

	st->n++;
	st->total += v;
	if (st->n == 1 || v < st->min)
		st->min = v;
	if (v > st->max)
		st->max = v;
	d = (double)v - st->mean;
	st->mean += d / (double)st->n;
	st->m2 += d * ((double)v - st->mean);
}

struct th_task {
	struct th_stats idle; /* -I: the idle periods that followed it */
	u64 last_out;	  /* when it was last switched out, 0: never seen */
	u64 woken;	  /* its last wakeup, 0: none since it last ran */
	u64 total_run;
	u64 nr_runs;	  /* switch-outs counted */
	double mean, m2;  /* running mean and sum of squares of run times (Welford) */
	u64 min_run, max_run;
	u32 migrations;
	bool pid_unknown; /* only a tracepoint's pid named it: perf shows the bare comm */
	int parent;	  /* the creating thread (FORK's ptid), 0: from the model's ppid */
};

struct th_run {
	struct tool tool;
	const struct sched_timehist_opts *o;
	struct sched_decoder dec;
	struct session *session;
	u64 *cpu_last;	      /* per cpu: time of its last switch */
	struct th_task *idle; /* per cpu */
	bool *cpu_idle;	      /* per cpu: its last switch went to the idle task */
	struct thread **idle_after; /* per cpu: -I, the task the idle task followed */
	u64 nr_idle_lines;	      /* -I: the lines shown */
	int nr_cpus;	      /* cpus allocated */
	int vis_cols;	      /* -V: columns */
	u64 first_time, last_time;
	u64 nr_switch_events;
	bool show_chain;	/* -g and the file has callchains */
	struct resolver res;
	struct resolved_chain chain;
	bool print_events;
};

static struct th_run *run_of(struct tool *tool)
{
	return (struct th_run *)tool;
}

static void grow_cpus(struct th_run *r, int cpu)
{
	int n;

	if (cpu < r->nr_cpus)
		return;
	n = cpu + 16;
	r->cpu_last = xreallocarray(r->cpu_last, (size_t)n, sizeof(*r->cpu_last));
	r->idle = xreallocarray(r->idle, (size_t)n, sizeof(*r->idle));
	memset(r->cpu_last + r->nr_cpus, 0, (size_t)(n - r->nr_cpus) * sizeof(*r->cpu_last));
	memset(r->idle + r->nr_cpus, 0, (size_t)(n - r->nr_cpus) * sizeof(*r->idle));
	r->idle_after = xreallocarray(r->idle_after, (size_t)n, sizeof(*r->idle_after));
	memset(r->idle_after + r->nr_cpus, 0, (size_t)(n - r->nr_cpus) * sizeof(*r->idle_after));
	r->cpu_idle = xreallocarray(r->cpu_idle, (size_t)n, sizeof(*r->cpu_idle));
	memset(r->cpu_idle + r->nr_cpus, 0, (size_t)(n - r->nr_cpus) * sizeof(*r->cpu_idle));
	r->nr_cpus = n;
}

static struct th_task *task_of(struct thread *t)
{
	if (!t->priv)
		t->priv = xcalloc(1, sizeof(struct th_task));
	return t->priv;
}

static void task_add_run(struct th_task *k, u64 run)
{
	double d;

	k->nr_runs++;
	k->total_run += run;
	if (k->nr_runs == 1 || run < k->min_run)
		k->min_run = run;
	if (run > k->max_run)
		k->max_run = run;
	d = (double)run - k->mean;
	k->mean += d / (double)k->nr_runs;
	k->m2 += d * ((double)run - k->mean);
}



/* the thread a sample ran in (its pid and tid known) */
static struct thread *sample_thread(struct th_run *r, const struct perf_sample *s)
{
	struct thread *t = machine_findnew_thread(&r->session->machine, (int)s->pid, (int)s->tid);

	task_of(t)->pid_unknown = false;
	return t;
}

/* the thread of a tracepoint's pid field (a tid; its process unknown when new) */
static struct thread *tid_thread(struct th_run *r, int tid)
{
	struct machine *m = &r->session->machine;
	struct thread *t = machine_find_thread(m, tid);

	if (t)
		return t;
	t = machine_findnew_thread(m, -1, tid);
	task_of(t)->pid_unknown = true;
	return t;
}

static void task_name(const struct thread *t, bool idle, char *buf, size_t len)
{
	const struct th_task *k = t ? t->priv : NULL;

	if (idle)
		snprintf(buf, len, "<idle>");
	else if (t->pid == 0 || (k && k->pid_unknown))
		snprintf(buf, len, "%s", t->comm);
	else if (t->pid == t->tid)
		snprintf(buf, len, "%s[%d]", t->comm, t->tid);
	else
		snprintf(buf, len, "%s[%d/%d]", t->comm, t->tid, t->pid);
}

static bool shown(struct th_run *r, const struct perf_sample *s, const struct thread *t)
{
	const struct sched_timehist_opts *o = r->o;
	bool ok;

	if (!cpu_bitmap_has(&o->cpus, s->cpu))
		return false;
	if (o->nr_pids) {
		ok = false;
		for (int i = 0; i < o->nr_pids; i++)
			ok |= t && o->pids[i] == t->pid;
		if (!ok)
			return false;
	}
	if (o->nr_tids) {
		ok = false;
		for (int i = 0; i < o->nr_tids; i++)
			ok |= t && o->tids[i] == t->tid;
		if (!ok)
			return false;
	}
	return true;
}

/* ---- lines (ui/linebuf) ---- */

/* @ns as msec.usec (truncated), right-aligned in @width */
static void lb_ms(struct lbuf *l, u64 ns, int width)
{
	lb_fixed(l, ns / 1000000ULL, (ns % 1000000ULL) / 1000ULL, 3, width);
}

/* perf's name of a task: "<idle>", "comm", "comm[tid]" or "comm[tid/pid]" */
static void lb_task(struct lbuf *l, const struct thread *t, bool idle)
{
	const struct th_task *k = t ? t->priv : NULL;

	if (idle) {
		lb_str(l, "<idle>");
		return;
	}
	lb_str(l, t->comm);
	if (t->pid == 0 || (k && k->pid_unknown))
		return;
	lb_mem(l, "[", 1);
	lb_s64(l, t->tid);
	if (t->pid != t->tid) {
		lb_mem(l, "/", 1);
		lb_s64(l, t->pid);
	}
	lb_mem(l, "]", 1);
}

/* the task name column: " %-30s" */
static void lb_task_col(struct lbuf *l, const struct thread *t, bool idle)
{
	int start;

	lb_mem(l, " ", 1);
	start = l->n;
	lb_task(l, t, idle);
	lb_spaces(l, 30 - (l->n - start));
}

/* the switch's callchain as perf shows it: the scheduler's own frames left out */
static void lb_chain(struct th_run *r, struct lbuf *l, const struct perf_sample *s,
		     struct evsel *evsel, struct thread *t)
{
	struct chain_opts co = { .max_stack = (u32)(r->o->max_stack > 0 ? r->o->max_stack : 0) + 2 };
	bool first = true;
	u32 n;

	if (!s->callchain)
		return;
	n = resolve_sample_callchain(&r->res, t, s, evsel->attr.sample_type, &co, &r->chain);
	lb_spaces(l, 3);
	for (u32 i = 0; i < n; i++) {
		const struct resolved_frame *rf = &r->chain.frames[i];
		const struct dso *dso = resolved_frame_dso(rf);
		/* perf resolves only the kernel's frames here */
		const struct symbol *sym = dso && dso->is_kernel ? resolved_frame_sym(rf) : NULL;
		const char *name = sym ? sym->name : "[unknown]";

		if (sym && (!strcmp(name, "__schedule") || !strcmp(name, "schedule")))
			continue;
		if (!first)
			lb_str(l, " <- ");
		lb_str(l, name);
		first = false;
	}
}

/* the time and cpu columns, and the -V visual with @mark at @col (-1: none) */
static void line_start(struct th_run *r, struct lbuf *l, u64 t, int cpu, int col, char mark,
		       bool wide)
{
	lb_fixed(l, t / 1000000000ULL, (t % 1000000000ULL) / 1000ULL, 6, 15);
	lb_str(l, " [");
	/* "%04d" */
	if (cpu >= 0 && cpu < 1000)
		lb_mem(l, "000", cpu < 10 ? 3 : cpu < 100 ? 2 : 1);
	lb_s64(l, cpu);
	lb_str(l, "] ");
	if (r->o->cpu_visual) {
		lb_mem(l, " ", 1);
		if (wide)
			lb_mem(l, " ", 1);
		for (int i = 0; i < r->vis_cols; i++)
			lb_mem(l, i == col ? &mark : " ", 1);
		if (wide)
			lb_mem(l, " ", 1);
		lb_mem(l, " ", 1);
	}
}

static void print_header(struct th_run *r)
{
	const struct sched_timehist_opts *o = r->o;

	printf("%15s %6s ", "time", "cpu");
	if (o->cpu_visual) {
		printf(" ");
		for (int i = 0; i < r->vis_cols; i++)
			printf("%d", i % 10);
		printf(" ");
	}
	printf(" %-30s  %9s  %9s  %9s", "task name", "wait time", "sch delay", "run time");
	if (o->state)
		printf("  %s", "state");
	printf("\n");

	printf("%15s %-6s ", "", "");
	if (o->cpu_visual)
		printf(" %*s ", r->vis_cols, "");
	printf(" %-30s  %9s  %9s  %9s", "[tid/pid]", "(msec)", "(msec)", "(msec)");
	if (o->state)
		printf("  %5s", "");
	printf("\n");

	printf("%.15s %.6s ", "-----------------------------------", "-------");
	if (o->cpu_visual) {
		printf(" ");
		for (int i = 0; i < r->vis_cols; i++)
			putchar('-');
		printf(" ");
	}
	printf(" %.30s  %.9s  %.9s  %.9s", "------------------------------------------",
	       "-----------", "-----------", "-----------");
	if (o->state)
		printf("  %.5s", "-------");
	printf("\n");
}

/* msec with three decimals, truncated (not rounded) as perf prints them */

static struct thread *idle_thread(struct th_run *r)
{
	return machine_findnew_thread(&r->session->machine, 0, 0);
}

static int on_switch(struct th_run *r, const struct perf_sample *s, struct evsel *evsel,
		     const struct sched_rec *rec)
{
	const struct sched_timehist_opts *o = r->o;
	int cpu = (int)s->cpu;
	bool prev_idle = s->tid == 0 && s->pid == 0;
	bool next_idle = rec->next_pid == 0;
	struct thread *prev = prev_idle ? idle_thread(r) : sample_thread(r, s);
	struct th_task *pk;
	u64 t = s->time, tprev, run = 0, wait = 0, delay = 0;
	bool idle_line = false;

	grow_cpus(r, cpu);
	pk = prev_idle ? &r->idle[cpu] : task_of(prev);
	tprev = r->cpu_last[cpu];
	if (tprev && tprev <= t) {
		run = t - tprev;
		if (pk->last_out && pk->last_out <= tprev)
			wait = tprev - pk->last_out;
		if (pk->woken && pk->woken <= tprev)
			delay = tprev - pk->woken;
	}
	task_add_run(pk, run);
	/*
	 * -I: an idle period belongs to the task the cpu's previous switch took
	 * off it (none after an idle one); those and the switches into idle are
	 * the lines shown
	 */
	if (o->idle_hist) {
		struct thread *before = r->idle_after[cpu];

		idle_line = (prev_idle && before) || next_idle;
		if (prev_idle && before && tprev && tprev <= t)
			stats_add(&task_of(before)->idle, run);
		r->idle_after[cpu] = prev_idle ? NULL : prev;
		if (idle_line && shown(r, s, prev))
			r->nr_idle_lines++;
	}

	if (r->print_events && shown(r, s, prev) && (!o->idle_hist || idle_line)) {
		struct lbuf l;

		if (o->idle_hist && !prev_idle)
			run = wait = delay = 0;

		l.n = 0;
		line_start(r, &l, t, cpu, cpu, prev_idle ? 'i' : 's', false);
		lb_task_col(&l, prev, prev_idle);
		lb_str(&l, "  ");
		lb_ms(&l, wait, 9);
		lb_str(&l, "  ");
		lb_ms(&l, delay, 9);
		lb_str(&l, "  ");
		lb_ms(&l, run, 9);
		if (o->state) {
			char c = prev_idle ? 'I' : sched_state_char(rec->state);

			lb_spaces(&l, 6);
			lb_mem(&l, &c, 1);
		}
		lb_mem(&l, " ", 1);
		if (o->next) {
			int start;

			lb_str(&l, " next: ");
			start = l.n;
			lb_mem(&l, rec->next_comm, rec->next_comm_len);
			lb_mem(&l, "[", 1);
			lb_s64(&l, rec->next_pid);
			lb_mem(&l, "]", 1);
			lb_spaces(&l, 24 - (l.n - start));
		} else if (o->wakeups && !o->idle_hist) {
			lb_spaces(&l, 32);
		}
		if (r->show_chain && !prev_idle) /* perf shows no chain for the idle task */
			lb_chain(r, &l, s, evsel, prev);
		lb_mem(&l, "\n", 1);
		lb_flush(&l);
	}
	pk->last_out = t;
	pk->woken = 0;
	r->cpu_last[cpu] = t;
	r->cpu_idle[cpu] = next_idle;
	return 0;
}

static int on_wakeup(struct th_run *r, const struct perf_sample *s, const struct sched_rec *rec)
{
	struct thread *woken, *waker;
	struct th_task *wk;
	struct lbuf l;

	if (rec->pid == 0)
		return 0;
	woken = tid_thread(r, rec->pid);
	wk = task_of(woken);
	if (!wk->woken) /* a wakeup while it waits or runs keeps the first one */
		wk->woken = s->time;
	if (!r->print_events || !r->o->wakeups || r->o->idle_hist)
		return 0;
	waker = sample_thread(r, s);
	if (!shown(r, s, woken))
		return 0;
	l.n = 0;
	line_start(r, &l, s->time, (int)s->cpu, -1, ' ', false);
	lb_task_col(&l, waker, false);
	lb_spaces(&l, 35);
	lb_str(&l, "awakened: ");
	lb_task(&l, woken, false);
	lb_mem(&l, "\n", 1);
	lb_flush(&l);
	return 0;
}

static int on_migrate(struct th_run *r, const struct perf_sample *s, const struct sched_rec *rec)
{
	struct thread *task, *by;
	struct lbuf l;

	if (rec->pid == 0)
		return 0;
	task = tid_thread(r, rec->pid);
	if (r->o->migrations) /* perf counts them only when it shows them */
		task_of(task)->migrations++;
	if (!r->print_events || !r->o->migrations || r->o->idle_hist)
		return 0;
	by = sample_thread(r, s);
	if (!shown(r, s, task))
		return 0;
	l.n = 0;
	line_start(r, &l, s->time, (int)s->cpu, (int)s->cpu, 'm', true);
	lb_task_col(&l, by, false);
	lb_spaces(&l, 35);
	lb_str(&l, "migrated: ");
	lb_task(&l, task, false);
	lb_flush(&l);
	printf(" cpu %d => %d\n", rec->cpu, rec->dest_cpu);
	return 0;
}

static int th_sample(struct tool *tool, struct session *session, const union perf_event *ev,
		     const struct perf_sample *s, struct evsel *evsel)
{
	struct th_run *r = run_of(tool);
	struct sched_rec rec;

	(void)session;
	(void)ev;
	if (r->o->nr_spans && !time_spans_include(r->o->spans, r->o->nr_spans, s->time))
		return 0;
	switch (sched_decode(&r->dec, evsel, s, &rec)) {
	case SCHED_SWITCH:
		break;
	case SCHED_WAKEUP:
	case SCHED_WAKING:
	case SCHED_WAKEUP_NEW:
		return on_wakeup(r, s, &rec);
	case SCHED_MIGRATE:
		return on_migrate(r, s, &rec);
	default:
		return 0;
	}
	if (!r->first_time)
		r->first_time = s->time;
	r->last_time = s->time;
	r->nr_switch_events++;
	return on_switch(r, s, evsel, &rec);
}

/* FORK records name the creating thread, which perf shows as the parent */
static int th_other(struct tool *tool, struct session *session, const union perf_event *ev,
		    const struct perf_sample *s)
{
	struct thread *t;

	(void)tool;
	(void)s;
	if (ev->header.type != PERF_RECORD_FORK)
		return 0;
	t = machine_find_thread(&session->machine, (int)ev->fork.tid);
	if (t)
		task_of(t)->parent = (int)ev->fork.ptid;
	return 0;
}

/* ---- summary ---- */

/* @ns as msec with three decimals, truncated */
static const char *fmt_ms(char *buf, size_t len, u64 ns)
{
	snprintf(buf, len, "%" PRIu64 ".%03" PRIu64, (u64)(ns / 1000000ULL),
		 (u64)((ns % 1000000ULL) / 1000ULL));
	return buf;
}

static double stats_rel_stddev(const struct th_stats *st)
{
	if (st->n < 2 || st->mean == 0)
		return 0;
	return 100.0 * sqrt(st->m2 / (double)(st->n - 1) / (double)st->n) / st->mean;
}

static void print_task_row(const struct thread *t, const struct th_task *k, bool idle)
{
	char name[64], a[32], b[32], c[32], d[32];
	struct th_stats run = { k->nr_runs, k->total_run, k->min_run, k->max_run, k->mean, k->m2 };
	const struct th_stats *st = idle ? &k->idle : &run;

	task_name(t, false, name, sizeof(name));
	printf("%30s %7d %10" PRIu64 " %12s %10s %11s %11s   %5.2f %7u\n", name,
	       k->parent ? k->parent : t->ppid, st->n, fmt_ms(a, sizeof(a), st->total),
	       fmt_ms(b, sizeof(b), st->min), fmt_ms(c, sizeof(c), (u64)st->mean),
	       fmt_ms(d, sizeof(d), st->max), stats_rel_stddev(st), k->migrations);
}

/* perf lists threads by tid modulo 256, then tid */
static int cmp_thread(const void *a, const void *b)
{
	const struct thread *x = *(const struct thread *const *)a, *y = *(const struct thread *const *)b;
	int bx = x->tid & 255, by = y->tid & 255;

	if (bx != by)
		return bx < by ? -1 : 1;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

static void print_summary(struct th_run *r)
{
	struct machine *m = &r->session->machine;
	struct thread **arr = xcalloc(m->nr_threads + 1, sizeof(*arr));
	size_t n = 0;
	u64 nr_tasks = 0, total_run = 0, span;
	int ncpu = r->vis_cols > 0 ? r->vis_cols - 1 : 1;
	char buf[40];

	bool idle = r->o->idle_hist;

	for (struct thread *t = m->all_threads; t; t = t->next_all) {
		struct th_task *k = t->priv;

		if (k && (idle ? k->idle.n : k->nr_runs) && !(t->tid == 0 && t->pid == 0))
			arr[n++] = t;
	}
	if (n > 1)
		qsort(arr, n, sizeof(*arr), cmp_thread);

	if (idle) {
		printf("\nIdle-time summary\n");
		printf("%30s  parent  sched-out    idle-time   min-idle    avg-idle    max-idle  stddev  migrations\n",
		       "comm");
	} else {
		printf("\nRuntime summary\n");
		printf("%30s  parent   sched-in     run-time    min-run     avg-run     max-run  stddev  migrations\n",
		       "comm");
	}
	printf("%30s            (count)       (msec)     (msec)      (msec)      (msec)       %%\n", "");
	printf("---------------------------------------------------------------------------------------------------------------------\n");
	for (int pass = 0; pass < 2; pass++) {
		u64 shown_rows = 0;

		if (pass == 1)
			printf("\nTerminated tasks:\n");
		for (size_t i = 0; i < n; i++) {
			struct th_task *k = arr[i]->priv;

			if (arr[i]->is_dead != (pass == 1))
				continue;
			print_task_row(arr[i], k, idle);
			nr_tasks++;
			shown_rows++;
			total_run += idle ? k->idle.total : k->total_run;
		}
		if (!shown_rows)
			printf(pass ? "<no terminated tasks>\n" : "<no still running tasks>\n");
	}
	span = r->last_time - r->first_time;
	printf("\nIdle stats:\n");
	for (int c = 0; c < ncpu; c++) {
		struct th_task *k = c < r->nr_cpus ? &r->idle[c] : NULL;

		if (!k || !k->nr_runs) {
			printf("    CPU %2d idle entire time window\n", c);
			continue;
		}
		printf("    CPU %2d idle for %10s  msec  (%6.2f%%)\n", c,
		       fmt_ms(buf, sizeof(buf), k->total_run),
		       span ? 100.0 * (double)k->total_run / (double)span : 0.0);
	}
	printf("\n");
	printf("    Total number of unique tasks: %" PRIu64 "\n", nr_tasks);
	printf("Total number of context switches: %" PRIu64 "\n",
	       idle ? r->nr_idle_lines : r->nr_switch_events);
	printf("           Total run time (msec): %6s \n", fmt_ms(buf, sizeof(buf), total_run));
	printf("    Total scheduling time (msec): %s  (x %d)\n", fmt_ms(buf, sizeof(buf), span), ncpu);
	free(arr);
}

int sched_timehist(struct session *session, const struct sched_timehist_opts *opts)
{
	const struct perf_header *h = data_reader_header(session->reader);
	struct th_run r = { .o = opts, .session = session };
	struct data_error err = { 0 };
	struct evsel *evsel;
	bool has_chain = false;
	int ret;

	evlist_for_each_entry(session->evlist, evsel)
		has_chain |= !!(evsel->attr.sample_type & PERF_SAMPLE_CALLCHAIN);
	if (opts->callchain && !has_chain)
		fprintf(stderr, "Samples do not have callchains.\n");
	r.show_chain = opts->callchain && has_chain;
	resolver_init(&r.res, &session->machine, NULL);
	sched_decoder_init(&r.dec, session);
	if (!sched_decoder_has(&r.dec, SCHED_SWITCH)) {
		sched_decoder_release(&r.dec);
		resolver_release(&r.res);
		return 1;
	}
	r.dec.comms = opts->next; /* only -n prints a name from the payload */
	r.vis_cols = (h->nr_cpus_avail > 0 ? (int)h->nr_cpus_avail : 1) + 1;
	r.print_events = !opts->summary_only;
	r.tool.sample = th_sample;
	r.tool.other = th_other;
	r.tool.ordered = true;
	if (r.print_events)
		print_header(&r);
	ret = session_process(session, &r.tool, &err);
	if (ret < 0) {
		data_error_print(data_reader_path(session->reader), &err);
	} else if (opts->summary_only || opts->with_summary) {
		print_summary(&r);
	}
	for (struct thread *t = session->machine.all_threads; t; t = t->next_all) {
		free(t->priv);
		t->priv = NULL;
	}
	resolved_chain_release(&r.chain);
	resolver_release(&r.res);
	free(r.cpu_last);
	free(r.idle);
	free(r.cpu_idle);
	free(r.idle_after);
	sched_decoder_release(&r.dec);
	return ret < 0 ? ret : 0;
}
