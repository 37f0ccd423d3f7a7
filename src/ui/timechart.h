/* SPDX-License-Identifier: MIT */
/* timechart's model (cpus, tasks and their state spans over time) and its SVG writer. */
#ifndef SONDE_UI_TIMECHART_H
#define SONDE_UI_TIMECHART_H

#include "lib/util.h"

#include <stdbool.h>
#include <stdio.h>

enum tc_kind {
	TC_RUN,	    /* on a cpu */
	TC_WAIT,    /* runnable, waiting for a cpu */
	TC_BLOCKED, /* uninterruptible sleep (IO) */
	TC_SLEEP,   /* interruptible sleep */
	TC_IDLE,    /* cpu rows: a C-state */
	TC_DISK,    /* IO rows: read/write */
	TC_NET,	    /* IO rows: send/recv */
	TC_POLL,    /* IO rows: poll/select/epoll */
	TC_SYNC,    /* IO rows: sync/fsync/msync */
	TC_ERROR,   /* IO rows: a call that failed */
};

/* struct tc_span - one box: [start, end) in one state. */
struct tc_span {
	u64 start, end;
	int cpu;	 /* the cpu (runs), the C-state (idle), 1 for IO writes (lower half) */
	u8 kind;	 /* enum tc_kind */
	bool highlight;	 /* --highlight matched: drawn as sample_hi */
	int pid;	 /* cpu rows: the task that ran */
};

struct tc_spans {
	struct tc_span *v;
	int nr, alloc;
};

/* struct tc_task - one task (thread) row. */
struct tc_task {
	int pid, tid;
	char comm[17];
	u64 first, last;  /* its first and last event */
	u64 runtime;	  /* ns on a cpu */
	u64 io_time;	  /* ns in IO calls */
	int state;	  /* enum tc_kind it is in now, -1 unknown */
	u64 state_since;
	int run_cpu;	  /* the cpu of the current run */
	u64 io_enter;	  /* IO mode: time of the pending sys_enter, 0 none */
	u8 io_kind;
	bool io_write;
	bool exited;	  /* an EXIT record: the row ends at its last event */
	bool comm_from_record; /* the name came from a COMM record (tracepoint names do not override it) */
	struct tc_spans spans;
};

/* struct tc_cpu - one cpu row. */
struct tc_cpu {
	int cpu;
	int cur_pid;	  /* running task, -1 unknown */
	u64 run_since;
	int idle_state;	  /* -1: not idle */
	u64 idle_since;
	struct tc_spans spans;
	int order;	  /* row index (-t sorts by topology) */
};

/* struct timechart - everything drawn, with the drawing options. */
struct timechart {
	u64 first, last;	/* trace time bounds */
	struct tc_task **tasks;
	int nr_tasks, alloc_tasks;
	struct tc_cpu *cpus;
	int nr_cpus;
	bool io_mode;		/* the file has IO syscalls and no scheduler events */
	bool has_power;
	/* options */
	int width;		/* -w, 1000 */
	bool tasks_only;	/* -T: no cpu rows */
	bool power_only;	/* -P: no task rows */
	int proc_num;		/* -n: at least this many tasks */
	const char *const *procs; /* -p names or pids, NULL-terminated; NULL: all */
	const char *cpu_desc;	/* the cpu rows' caption */
};

/* tc_spans_add - append a box. */
struct tc_span *tc_spans_add(struct tc_spans *s, u64 start, u64 end, u8 kind);

/* timechart_task_shown - whether the task gets a row (runtime, -p, -n). */
bool timechart_task_shown(const struct timechart *tc, const struct tc_task *t, u64 threshold);

/*
 * timechart_write_svg - the SVG: legend, cpu rows, task rows. Returns the
 * number of task rows drawn.
 */
int timechart_write_svg(struct timechart *tc, FILE *out);

#endif
