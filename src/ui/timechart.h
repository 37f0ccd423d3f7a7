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

/* the IO call classes of perf's IO mode */
enum tc_io_type { TC_IO_READ, TC_IO_WRITE, TC_IO_SYNC, TC_IO_TX, TC_IO_RX, TC_IO_POLL };

/*
 * struct tc_io - one IO box: a call, or calls merged (same class and fd,
 * close enough); end 0 while the call is pending
 */
struct tc_io {
	u64 start, end;	 /* drawn extent (start may be pushed past an error box) */
	u64 enter;	 /* the (first) call's entry time */
	u64 bytes;	 /* transferred (read/write/send/receive calls that succeeded) */
	s64 err;	 /* the return value when negative, else 0 */
	int fd;		 /* the call's fd argument, 0 when it has none (poll, sync) */
	int merges;	 /* calls merged into this box */
	u8 type;	 /* enum tc_io_type */
};

/* struct tc_task - one task (thread) row. */
struct tc_task {
	int pid, tid;
	char comm[17];
	u64 first, last;  /* its first and last event */
	u64 runtime;	  /* ns on a cpu */
	int state;	  /* enum tc_kind it is in now, -1 unknown */
	u64 state_since;
	int run_cpu;	  /* the cpu of the current run */
	bool exited;	  /* an EXIT record: the row ends at its last event */
	bool comm_from_record; /* the name came from a COMM record (tracepoint names do not override it) */
	struct tc_spans spans;
	/* IO mode: a row per thread and name, as perf keeps them */
	struct tc_io *ios;
	int nr_ios, alloc_ios;
	u64 io_bytes;	  /* the label's total */
	u64 io_start;	  /* the bar: from the fork or the first call, 0 unset */
	u64 io_end;	  /* to the exit, 0: the end of the trace */
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
	bool io_skip_eagain;	/* --io-skip-eagain: EAGAIN boxes are not drawn */
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
