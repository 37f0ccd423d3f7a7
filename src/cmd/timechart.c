/* SPDX-License-Identifier: MIT */
/* sonde timechart: record scheduler, power or IO tracepoints system-wide; draw them as an SVG. */
#include "builtin.h"
#include "cmd/open.h"
#include "core/cpumap.h"
#include "core/evlist.h"
#include "core/evsel.h"
#include "data/reader.h"
#include "lib/debug.h"
#include "lib/optspec.h"
#include "lib/strvec.h"
#include "lib/xalloc.h"
#include "session/session.h"
#include "trace/tep.h"
#include "ui/header.h"
#include "ui/timechart.h"
#include "cmd/timechart.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the model, from the samples ---- */


struct tc_task *tc_task_new(struct tc_tool *t, int pid, int tid, u64 time)
{
	struct timechart *tc = &t->tc;
	struct tc_task *task;

	if (tc->nr_tasks == tc->alloc_tasks) {
		tc->alloc_tasks = tc->alloc_tasks ? 2 * tc->alloc_tasks : 64;
		tc->tasks = xrealloc(tc->tasks, tc->alloc_tasks * sizeof(*tc->tasks));
	}
	task = xcalloc(1, sizeof(*task));
	task->pid = pid;
	task->tid = tid;
	task->first = time;
	task->state = -1;
	snprintf(task->comm, sizeof(task->comm), ":%d", tid);
	tc->tasks[tc->nr_tasks++] = task;
	return task;
}

/*
 * The earlier entry of @old's tid named @comm, made the newest (the one
 * task_findnew() finds), or NULL.
 */
static struct tc_task *exec_entry(struct tc_tool *t, struct tc_task *old, const char *comm)
{
	struct timechart *tc = &t->tc;

	for (int i = 0; i < tc->nr_tasks; i++) {
		struct tc_task *task = tc->tasks[i];

		if (task->tid != old->tid || task == old || strcmp(task->comm, comm))
			continue;
		memmove(&tc->tasks[i], &tc->tasks[i + 1], (tc->nr_tasks - i - 1) * sizeof(task));
		tc->tasks[tc->nr_tasks - 1] = task;
		return task;
	}
	return NULL;
}

/* the newest entry of a tid (an exec starts a new one) */
static struct tc_task *task_findnew(struct tc_tool *t, int pid, int tid, u64 time)
{
	struct timechart *tc = &t->tc;

	for (int i = tc->nr_tasks - 1; i >= 0; i--) {
		struct tc_task *task = tc->tasks[i];

		if (task->tid != tid)
			continue;
		/* a task named by a synthesized record (time 0) starts at its first event */
		if (!task->first)
			task->first = time;
		return task;
	}
	return tc_task_new(t, pid, tid, time);
}

static struct tc_cpu *cpu_find(struct tc_tool *t, int cpu)
{
	struct timechart *tc = &t->tc;

	for (int i = 0; i < tc->nr_cpus; i++)
		if (tc->cpus[i].cpu == cpu)
			return &tc->cpus[i];
	tc->cpus = xrealloc(tc->cpus, (tc->nr_cpus + 1) * sizeof(*tc->cpus));
	memset(&tc->cpus[tc->nr_cpus], 0, sizeof(*tc->cpus));
	tc->cpus[tc->nr_cpus].cpu = cpu;
	tc->cpus[tc->nr_cpus].cur_pid = -1;
	tc->cpus[tc->nr_cpus].idle_state = -1;
	return &tc->cpus[tc->nr_cpus++];
}

static void set_comm(struct tc_task *task, const char *comm, size_t len)
{
	if (!comm || !*comm || task->comm_from_record)
		return;
	if (len > 16)
		len = 16;
	memcpy(task->comm, comm, len);
	task->comm[len] = '\0';
	task->comm[strcspn(task->comm, "\0")] = '\0';
}

/* close the task's current state at @time with a box (sleeping draws none) */
static void task_leave_state(struct tc_tool *t, struct tc_task *task, u64 time)
{
	if (task->state >= 0 && task->state != TC_RUN && time > task->state_since)
		tc_spans_add(&task->spans, task->state_since, time, (u8)task->state);
	(void)t;
}

static bool highlighted(const struct tc_tool *t, const struct tc_task *task, u64 dur)
{
	if (t->highlight_name)
		return !strcmp(task->comm, t->highlight_name);
	return t->highlight_ns && dur > t->highlight_ns;
}

static void on_switch(struct tc_tool *t, struct tep_event *ev, const struct perf_sample *s)
{
	u64 prev_pid = 0, next_pid = 0, prev_state = 0;
	const char *pc = NULL, *nc = NULL;
	size_t pl = 0, nl = 0;
	struct tc_cpu *cpu = cpu_find(t, (int)s->cpu);

	if (trace_tep_field_u64(ev, s->raw_data, s->raw_size, "prev_pid", &prev_pid) ||
	    trace_tep_field_u64(ev, s->raw_data, s->raw_size, "next_pid", &next_pid))
		return;
	trace_tep_field_u64(ev, s->raw_data, s->raw_size, "prev_state", &prev_state);
	trace_tep_field_str(ev, s->raw_data, s->raw_size, "prev_comm", &pc, &pl);
	trace_tep_field_str(ev, s->raw_data, s->raw_size, "next_comm", &nc, &nl);
	t->nr_sched++;

	if (prev_pid) {
		struct tc_task *p = task_findnew(t, -1, (int)prev_pid, s->time);
		u64 since = 0;

		/*
		 * the run lasted since its switch-in, or (that switch-in
		 * missed) since it became runnable
		 */
		if (p->state == TC_RUN || p->state == TC_WAIT)
			since = p->state_since;

		set_comm(p, pc, pl);
		if (since && s->time > since) {
			struct tc_span *sp = tc_spans_add(&p->spans, since, s->time, TC_RUN);
			struct tc_span *cs = tc_spans_add(&cpu->spans, since, s->time, TC_RUN);

			sp->cpu = cpu->cpu;
			cs->pid = p->tid;
			sp->highlight = cs->highlight = highlighted(t, p, s->time - since);
			p->runtime += s->time - since;
		}
		/* preempted: waiting for a cpu; D: blocked (IO); else sleeping */
		p->state = (prev_state & 0xff) == 0 ? TC_WAIT
			   : (prev_state & 2)	     ? TC_BLOCKED
						     : TC_SLEEP;
		p->state_since = s->time;
		p->last = s->time;
	}
	cpu->cur_pid = (int)next_pid;
	cpu->run_since = s->time;
	if (next_pid) {
		struct tc_task *n = task_findnew(t, -1, (int)next_pid, s->time);

		set_comm(n, nc, nl);
		/* switched in again without a switch-out: the run ends here, as perf counts it */
		if (n->state == TC_RUN && s->time > n->state_since) {
			struct tc_span *sp = tc_spans_add(&n->spans, n->state_since, s->time, TC_RUN);

			sp->cpu = n->run_cpu;
			sp->highlight = highlighted(t, n, s->time - n->state_since);
			n->runtime += s->time - n->state_since;
		}
		task_leave_state(t, n, s->time);
		n->state = TC_RUN;
		n->run_cpu = cpu->cpu;
		n->state_since = s->time;
		n->last = s->time;
	}
}

static void on_wakeup(struct tc_tool *t, struct tep_event *ev, const struct perf_sample *s)
{
	u64 pid = 0;
	const char *c = NULL;
	size_t l = 0;
	struct tc_task *task;

	if (trace_tep_field_u64(ev, s->raw_data, s->raw_size, "pid", &pid) || !pid)
		return;
	task = task_findnew(t, -1, (int)pid, s->time);
	if (!trace_tep_field_str(ev, s->raw_data, s->raw_size, "comm", &c, &l))
		set_comm(task, c, l);
	if (task->state == TC_RUN || task->state == TC_WAIT)
		return;
	task_leave_state(t, task, s->time);
	task->state = TC_WAIT;
	task->state_since = s->time;
	task->last = s->time;
}

static void on_idle(struct tc_tool *t, struct tep_event *ev, const struct perf_sample *s)
{
	u64 state = 0, cpu_id = s->cpu;
	struct tc_cpu *cpu;

	if (trace_tep_field_u64(ev, s->raw_data, s->raw_size, "state", &state))
		return;
	trace_tep_field_u64(ev, s->raw_data, s->raw_size, "cpu_id", &cpu_id);
	cpu = cpu_find(t, (int)cpu_id);
	t->tc.has_power = true;
	if ((u32)state == 0xffffffffu) {
		if (cpu->idle_state >= 0 && s->time > cpu->idle_since) {
			struct tc_span *sp = tc_spans_add(&cpu->spans, cpu->idle_since, s->time, TC_IDLE);

			sp->cpu = cpu->idle_state;
		}
		cpu->idle_state = -1;
	} else {
		cpu->idle_state = (int)state;
		cpu->idle_since = s->time;
	}
}

static struct tep_event *tp_event(struct tc_tool *t, struct evsel *evsel)
{
	if (evsel->attr.type != PERF_TYPE_TRACEPOINT)
		return NULL;
	if (!t->tep && !t->tep_tried) {
		const struct perf_header *h = data_reader_header(t->reader);

		t->tep_tried = true;
		if (!h->tracing_data ||
		    trace_tep_from_data(h->tracing_data, h->tracing_data_size, &t->tep))
			t->tep = NULL;
	}
	return t->tep ? trace_tep_find_event(t->tep, (int)evsel->attr.config) : NULL;
}

static int tc_sample(struct tool *tool, struct session *session, const union perf_event *ev,
		     const struct perf_sample *sample, struct evsel *evsel)
{
	struct tc_tool *t = (struct tc_tool *)tool;
	struct tep_event *tp = tp_event(t, evsel);
	const char *name = evsel->name ? evsel->name : "";
	const char *colon = strchr(name, ':');

	(void)session;
	(void)ev;
	if (!tp)
		return 0;
	if (!t->tc.first || sample->time < t->tc.first)
		t->tc.first = sample->time;
	if (sample->time > t->tc.last)
		t->tc.last = sample->time;
	name = colon ? colon + 1 : name;
	if (!strcmp(name, "sched_switch"))
		on_switch(t, tp, sample);
	else if (!strcmp(name, "sched_wakeup"))
		on_wakeup(t, tp, sample);
	else if (!strcmp(name, "cpu_idle"))
		on_idle(t, tp, sample);
	else if (!strncmp(name, "sys_enter_", 10) || !strncmp(name, "sys_exit_", 9))
		tc_io_syscall(t, name, tp, sample);
	return 0;
}

static int tc_other(struct tool *tool, struct session *session, const union perf_event *ev,
		    const struct perf_sample *sample)
{
	struct tc_tool *t = (struct tc_tool *)tool;

	/*
	 * the chart spans the samples only; a task named by a side-band
	 * record starts at its first sample (time 0 here)
	 */
	const u64 time = 0;

	(void)session;
	(void)sample;
	if (t->io) {
		tc_io_side_band(t, ev);
		return 0;
	}
	if (ev->header.type == PERF_RECORD_EXIT) {
		struct tc_task *task = task_findnew(t, (int)ev->fork.pid, (int)ev->fork.tid,
						    time);

		task->exited = true;
		return 0;
	}
	if (ev->header.type == PERF_RECORD_FORK) {
		/* the child starts with its parent's name (when the parent's is known) */
		struct tc_task *parent = task_findnew(t, (int)ev->fork.ppid, (int)ev->fork.ptid,
						      time);
		struct tc_task *child = task_findnew(t, (int)ev->fork.pid, (int)ev->fork.tid,
						     time);

		child->pid = (int)ev->fork.pid;
		/* a new thread of a process gets no name from its fork (perf's rows) */
		if (ev->fork.pid == ev->fork.tid && parent->comm_from_record &&
		    !child->comm_from_record) {
			memcpy(child->comm, parent->comm, sizeof(child->comm));
			child->comm_from_record = true;
		}
		return 0;
	}
	if (ev->header.type == PERF_RECORD_COMM) {
		struct tc_task *task = task_findnew(t, (int)ev->comm.pid, (int)ev->comm.tid,
						    time);

		/*
		 * A new name (exec or prctl): perf keeps a row per pid and name. A name the task had
		 * before gets its row back, with that row's own state (a run begun
		 * under it still counts); a new name starts a row, unless the
		 * current one has nothing to show yet.
		 */
		if (strcmp(task->comm, ev->comm.comm)) {
			struct tc_task *old = task, *again = exec_entry(t, old, ev->comm.comm);

			if (again) {
				task = again;
			} else if (old->spans.nr || old->state == TC_RUN) {
				task = tc_task_new(t, old->pid, old->tid, time);
				/* the run the exec happened in is not this row's */
				task->state = old->state == TC_RUN ? -1 : old->state;
				task->state_since = time;
			}
			old->last = time;
		}
		task->comm_from_record = false;
		set_comm(task, ev->comm.comm, strlen(ev->comm.comm));
		task->comm_from_record = true;
		task->pid = (int)ev->comm.pid;
	}
	return 0;
}

/* close what is still open at the end of the trace */
static void finish_model(struct tc_tool *t)
{
	struct timechart *tc = &t->tc;

	for (int i = 0; i < tc->nr_tasks; i++) {
		struct tc_task *task = tc->tasks[i];

		/* a state still open at the end is not drawn, as perf */
		task->state = -1;
	}
	for (int i = 0; i < tc->nr_cpus; i++) {
		struct tc_cpu *c = &tc->cpus[i];

		if (c->idle_state >= 0 && tc->last > c->idle_since) {
			struct tc_span *sp = tc_spans_add(&c->spans, c->idle_since, tc->last, TC_IDLE);

			sp->cpu = c->idle_state;
		}
	}
}

static int cmp_cpu(const void *a, const void *b)
{
	const struct tc_cpu *x = a, *y = b;

	return x->cpu - y->cpu;
}

/* -t: cpus by package and core (siblings together), else by number */
static void order_cpus(struct timechart *tc, bool topology)
{
	int *key = xcalloc(tc->nr_cpus + 1, sizeof(int));

	if (tc->nr_cpus)
		qsort(tc->cpus, tc->nr_cpus, sizeof(*tc->cpus), cmp_cpu);
	for (int i = 0; i < tc->nr_cpus; i++) {
		struct cpu_topo topo;

		tc->cpus[i].order = i;
		if (!topology)
			continue;
		cpu_topo_read("/sys", tc->cpus[i].cpu, &topo);
		key[i] = topo.socket * 65536 + topo.core * 64 + (tc->cpus[i].cpu & 63);
	}
	if (topology) {
		for (int i = 0; i < tc->nr_cpus; i++) {
			int rank = 0;

			for (int j = 0; j < tc->nr_cpus; j++)
				if (key[j] < key[i] || (key[j] == key[i] && j < i))
					rank++;
			tc->cpus[i].order = rank;
		}
	}
	free(key);
}

static void model_free(struct timechart *tc)
{
	for (int i = 0; i < tc->nr_tasks; i++) {
		free(tc->tasks[i]->spans.v);
		free(tc->tasks[i]->ios);
		free(tc->tasks[i]);
	}
	free(tc->tasks);
	for (int i = 0; i < tc->nr_cpus; i++)
		free(tc->cpus[i].spans.v);
	free(tc->cpus);
}

/*
 * --io-min-time / --io-merge-dist: digits (none: 0) and a unit, "ns"
 * (or none), "us" or "ms", as perf takes them; -1 for anything else
 */
static int parse_io_time(const char *arg, u64 *ns)
{
	char *end;
	unsigned long long v = strtoull(arg, &end, 10);

	if (end == arg)
		v = 0;
	if (!*end || !strcmp(end, "ns"))
		*ns = v;
	else if (!strcmp(end, "us"))
		*ns = v * 1000;
	else if (!strcmp(end, "ms"))
		*ns = v * 1000000;
	else
		return end == arg ? (*ns = 0, 0) : -1;
	return 0;
}

/* a record -I file: syscall tracepoints and no scheduler events */
static bool is_io_file(struct evlist *evlist)
{
	struct evsel *evsel;
	bool sys = false;

	evlist_for_each_entry(evlist, evsel) {
		const char *n = evsel->name ? evsel->name : "";

		if (!strncmp(n, "syscalls:sys_", 13))
			sys = true;
		if (!strncmp(n, "sched:", 6))
			return false;
	}
	return sys;
}

static const char *const timechart_usage[] = {
	"perf timechart [<options>] {record}",
	NULL
};

/* -p NAME|PID: perf's is repeatable, each a name or pid (no comma lists) */
static int opt_process(const struct opt_spec *opt, const char *arg, int unset)
{
	struct strvec *procs = opt->dest;

	if (unset)
		strvec_clear(procs);
	else
		strvec_push(procs, arg);
	return 0;
}

int cmd_timechart(int argc, const char **argv)
{
	const char *input = NULL, *output = "output.svg", *highlight = NULL, *symfs = NULL;
	const char *io_min = NULL, *io_merge = NULL;
	bool force = false, topology = false, skip_eagain = false;
	struct tc_tool t;
	struct data_reader *reader;
	struct session *session;
	struct machine_opts mopts = { .no_symbols = true };
	struct data_error err = { 0 };
	struct strvec procs = STRVEC_INIT;
	FILE *out;
	int ret = 0;

	memset(&t, 0, sizeof(t));
	t.tc.width = 1000;
	t.tc.proc_num = 15;
	struct opt_spec options[] = {
		SPEC_TEXT("input", 'i', &input, "file", "input file name"),
		SPEC_TEXT("output", 'o', &output, "file", "output file name"),
		SPEC_INT("width", 'w', &t.tc.width, "page width"),
		SPEC_TEXT("highlight", 0, &highlight, "duration or task name",
			  "highlight tasks. Pass duration in ns or process name."),
		/* -P and -T work but perf 6.1's help does not list them */
		{ .name = "power-only", .letter = 'P', .kind = OPTK_FLAG, .dest = &t.tc.power_only,
		  .desc = "output power data only", .traits = OPTT_HIDDEN },
		{ .name = "tasks-only", .letter = 'T', .kind = OPTK_FLAG, .dest = &t.tc.tasks_only,
		  .desc = "output processes data only", .traits = OPTT_HIDDEN },
		SPEC_FN("process", 'p', &procs, "process",
			"process selector. Pass a pid or process name.", opt_process),
		SPEC_TEXT("symfs", 0, &symfs, "directory",
			  "Look for files with symbols relative to this directory"),
		SPEC_INT("proc-num", 'n', &t.tc.proc_num, "min. number of tasks to print"),
		SPEC_FLAG("topology", 't', &topology, "sort CPUs according to topology"),
		SPEC_FLAG("io-skip-eagain", 0, &skip_eagain, "skip EAGAIN errors"),
		SPEC_TEXT("io-min-time", 0, &io_min, "time",
			  "all IO faster than min-time will visually appear longer"),
		SPEC_TEXT("io-merge-dist", 0, &io_merge, "time",
			  "merge events that are merge-dist us apart"),
		SPEC_FLAG("force", 'f', &force, "don't complain, do it"),
		SPEC_END()
	};

	argc = opts_parse(argc, argv, options, timechart_usage, OPTS_STOP_AT_ARG);
	if (argc && !strncmp(argv[0], "record", strlen(argv[0])) && strlen(argv[0]) >= 3)
		return timechart_record(argc, argv);
	if (argc) {
		opts_usage_print(timechart_usage, options);
		return 129;
	}
	if (t.tc.power_only && t.tc.tasks_only) {
		fprintf(stderr, "-P and -T options cannot be used at the same time.\n");
		return 255;
	}
	if (highlight) {
		char *end;
		unsigned long long v = strtoull(highlight, &end, 10);

		if (*end == '\0' && end != highlight)
			t.highlight_ns = v;
		else
			t.highlight_name = highlight;
	}
	if (procs.nr)
		t.tc.procs = (const char *const *)procs.v;
	t.io_min_time = 1000000;
	t.io_merge_dist = 1000;
	if ((io_min && parse_io_time(io_min, &t.io_min_time)) ||
	    (io_merge && parse_io_time(io_merge, &t.io_merge_dist))) {
		/* perf: the usage lines only */
		fprintf(stderr, "\n Usage: %s\n\n", timechart_usage[0]);
		strvec_clear(&procs);
		return 129;
	}
	t.tc.io_skip_eagain = skip_eagain;

	reader = data_open_for_read(input, force);
	if (!reader) {
		strvec_clear(&procs);
		return 255;
	}
	t.reader = reader;
	t.tc.cpu_desc = data_reader_header(reader)->cpudesc;
	t.io = is_io_file(data_reader_evlist(reader));
	session = session_new(reader, &mopts);
	t.tool.sample = tc_sample;
	t.tool.other = tc_other;
	t.tool.ordered = true;
	ret = session_process(session, &t.tool, &err);
	if (ret < 0) {
		data_error_print(data_reader_path(reader), &err);
		ret = 255;
		goto out;
	}
	if (!t.tc.first) {
		fprintf(stderr, "No trace sample to read. Did you call 'perf timechart record'?\n");
		ret = 234; /* perf: -EINVAL */
		goto out;
	}
	finish_model(&t);
	order_cpus(&t.tc, topology);
	out = fopen(output, "w");
	if (!out) {
		fprintf(stderr, "Error: cannot open %s: %s\n", output, strerror(errno));
		ret = 255;
		goto out;
	}
	timechart_write_svg(&t.tc, out);
	fclose(out);
	fprintf(stderr, "Written %2.1f seconds of trace to %s.\n",
		(t.tc.last - t.tc.first) / 1e9, output);
out:
	model_free(&t.tc);
	trace_tep_free(t.tep);
	session_free(session);
	strvec_clear(&procs);
	return ret;
}
