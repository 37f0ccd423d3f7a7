/* SPDX-License-Identifier: MIT */
/* perf sched map: one line per context switch, a column per cpu with the two-letter name of the task it runs. */
#include "ui/sched.h"

#include "core/cpumap.h"
#include "data/reader.h"
#include "lib/xalloc.h"
#include "session/sched.h"
#include "session/session.h"
#include "ui/header.h"
#include "ui/linebuf.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* struct map_task - a task's short name and the comm it was last announced with */
struct map_task {
	char shortname[3];	/* "" until it first runs */
	bool comm_changed;	/* a COMM record since its name was last shown */
};

struct map_run {
	struct tool tool;
	const struct sched_map_opts *o;
	struct sched_decoder dec;
	struct session *session;
	struct thread **curr; /* per cpu: the task it runs, NULL: none seen */
	struct map_task **curr_task; /* per cpu: its map_task */
	struct map_task *idle;	     /* per cpu: its idle task */
	struct map_task idle_task; /* the idle tasks share one name */
	int nr_cpus;	      /* columns without --compact */
	int *cols, nr_cols;   /* --compact: the cpus shown, in order of first activity */
	bool *shown_cpu;      /* --cpus */
	int nr_shown_cpu;
	int next_letter, next_digit;
	bool any_trace;
};

static void map_grow(struct map_run *r, int cpu)
{
	int n;

	if (cpu < r->nr_cpus)
		return;
	n = cpu + 1;
	r->curr = xreallocarray(r->curr, (size_t)n, sizeof(*r->curr));
	memset(r->curr + r->nr_cpus, 0, (size_t)(n - r->nr_cpus) * sizeof(*r->curr));
	r->curr_task = xreallocarray(r->curr_task, (size_t)n, sizeof(*r->curr_task));
	memset(r->curr_task + r->nr_cpus, 0, (size_t)(n - r->nr_cpus) * sizeof(*r->curr_task));
	r->idle = xreallocarray(r->idle, (size_t)n, sizeof(*r->idle));
	memset(r->idle + r->nr_cpus, 0, (size_t)(n - r->nr_cpus) * sizeof(*r->idle));
	r->nr_cpus = n;
}

static struct map_task *map_task_of(struct map_run *r, struct thread *t, int idle_cpu, bool *is_new)
{
	bool idle = idle_cpu >= 0;
	struct map_task *k = idle ? &r->idle_task : t->priv;

	if (!k) {
		k = xcalloc(1, sizeof(*k));
		t->priv = k;
	}
	*is_new = !k->shortname[0];
	if (!*is_new)
		return k;
	if (idle) {
		strcpy(k->shortname, ". ");
	} else {
		k->shortname[0] = (char)('A' + r->next_letter);
		k->shortname[1] = (char)('0' + r->next_digit);
		if (++r->next_letter == 26) {
			r->next_letter = 0;
			if (++r->next_digit == 10)
				r->next_digit = 0;
		}
	}
	return k;
}

/* a COMM record names the task anew (perf announces it again, same name or not) */
static int map_other(struct tool *tool, struct session *session, const union perf_event *ev,
		     const struct perf_sample *s)
{
	struct thread *t;
	struct map_task *k;
	bool is_comm = ev->header.type == PERF_RECORD_COMM;

	if (!is_comm)
		return 0;

	(void)tool;
	(void)s;
	t = machine_find_thread(&session->machine, (int)ev->comm.tid);
	if (!t)
		return 0;
	if (!t->priv)
		t->priv = xcalloc(1, sizeof(struct map_task));
	k = t->priv;
	/* a comm set while recording (exec, prctl) names it anew; the synthesized ones do not */
	if (s && s->time)
		k->comm_changed = true;
	return 0;
}

static bool cpu_listed(const struct map_run *r, int cpu)
{
	return !r->shown_cpu || (cpu < r->nr_shown_cpu && r->shown_cpu[cpu]);
}

static void print_col(struct map_run *r, struct lbuf *l, int cpu, int this_cpu)
{
	struct map_task *k = cpu < r->nr_cpus ? r->curr_task[cpu] : NULL;
	int len;

	lb_need(l, 8);
	lb_char(l, cpu == this_cpu ? '*' : ' ');
	if (!k) {
		lb_mem(l, "   ", 3);
		return;
	}
	/* "%2s " */
	len = (int)strnlen(k->shortname, sizeof(k->shortname));
	lb_spaces(l, 2 - len);
	lb_mem(l, k->shortname, len);
	lb_char(l, ' ');
}

static int map_sample(struct tool *tool, struct session *session, const union perf_event *ev,
		      const struct perf_sample *s, struct evsel *evsel)
{
	struct map_run *r = (struct map_run *)tool;
	struct sched_rec rec;
	struct thread *next;
	struct map_task *k;
	int cpu = (int)s->cpu;
	bool announce, new_col = false;
	struct lbuf l;

	(void)ev;
	if (s->raw_data)
		r->any_trace = true;
	if (sched_decode(&r->dec, evsel, s, &rec) != SCHED_SWITCH)
		return 0;
	map_grow(r, cpu);
	next = machine_findnew_thread(&session->machine, rec.next_pid ? -1 : 0, rec.next_pid);
	k = map_task_of(r, next, rec.next_pid == 0 ? cpu : -1, &announce);
	announce |= k->comm_changed;
	r->curr[cpu] = next;
	r->curr_task[cpu] = k;
	if (r->o->compact) {
		bool found = false;

		for (int i = 0; i < r->nr_cols; i++)
			found |= r->cols[i] == cpu;
		if (!found) {
			r->cols = xreallocarray(r->cols, (size_t)r->nr_cols + 1, sizeof(*r->cols));
			r->cols[r->nr_cols++] = cpu;
			new_col = true;
		}
	}

	l.n = 0;
	lb_mem(&l, "  ", 2);
	if (r->o->compact) {
		for (int i = 0; i < r->nr_cols; i++)
			if (cpu_listed(r, r->cols[i]))
				print_col(r, &l, r->cols[i], cpu);
	} else {
		for (int c = 0; c < r->nr_cpus; c++)
			if (cpu_listed(r, c))
				print_col(r, &l, c, cpu);
	}
	if (!cpu_listed(r, cpu)) {
		lb_char(&l, '\n');
		lb_flush(&l);
		return 0;
	}
	/* "  %lu.%06lu secs " */
	lb_need(&l, 64);
	lb_mem(&l, "  ", 2);
	lb_fixed(&l, s->time / 1000000000ULL, (s->time % 1000000000ULL) / 1000ULL, 6, 0);
	lb_mem(&l, " secs ", 6);
	if (announce) {
		/* "%s => %s:%d" */
		lb_need(&l, (int)strlen(next->comm) + 48);
		lb_str(&l, k->shortname);
		lb_mem(&l, " => ", 4);
		lb_str(&l, next->comm);
		lb_char(&l, ':');
		lb_s64(&l, rec.next_pid);
		k->comm_changed = false;
	}
	if (new_col) {
		lb_need(&l, 32);
		lb_mem(&l, " (CPU ", 6);
		lb_s64(&l, cpu);
		lb_char(&l, ')');
	}
	lb_char(&l, '\n');
	lb_flush(&l);
	return 0;
}

int sched_map(struct session *session, const struct sched_map_opts *opts)
{
	const struct perf_header *h = data_reader_header(session->reader);
	struct map_run r = { .o = opts, .session = session };
	struct data_error err = { 0 };
	int ret;

	sched_decoder_init(&r.dec, session);
	r.dec.comms = false; /* names come from the threads */
	if (h->nr_cpus_avail)
		map_grow(&r, (int)h->nr_cpus_avail - 1);
	if (opts->cpus) {
		struct cpu_map *cm = cpu_map_parse(opts->cpus);

		if (!cm) {
			sched_decoder_release(&r.dec);
			return -EINVAL;
		}
		for (int i = 0; i < cm->nr; i++)
			map_grow(&r, cm->map[i]);
		r.shown_cpu = xcalloc((size_t)r.nr_cpus, sizeof(bool));
		r.nr_shown_cpu = r.nr_cpus;
		for (int i = 0; i < cm->nr; i++)
			if (cm->map[i] >= 0)
				r.shown_cpu[cm->map[i]] = true;
		cpu_map_free(cm);
	}
	r.idle_task.comm_changed = true; /* perf names its idle task once it runs */
	r.tool.sample = map_sample;
	r.tool.other = map_other;
	r.tool.ordered = true;
	ret = session_process(session, &r.tool, &err);
	if (ret < 0)
		data_error_print(data_reader_path(session->reader), &err);
	else if (!r.any_trace)
		fprintf(stderr, "No trace sample to read. Did you call 'perf record -R'?\n");
	for (struct thread *t = session->machine.all_threads; t; t = t->next_all) {
		free(t->priv);
		t->priv = NULL;
	}
	free(r.curr);
	free(r.curr_task);
	free(r.idle);
	free(r.cols);
	free(r.shown_cpu);
	sched_decoder_release(&r.dec);
	return ret < 0 ? ret : 0;
}
