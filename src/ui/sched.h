/* SPDX-License-Identifier: MIT */
/* perf sched's analyses over a session: latency, map and timehist tables. */
#ifndef SONDE_UI_SCHED_H
#define SONDE_UI_SCHED_H

#include "lib/util.h"
#include "session/sample-filter.h"

#include <stdbool.h>

struct session;
struct sched_replay;

/* struct sched_timehist_opts - perf sched timehist's options */
struct sched_timehist_opts {
	bool summary_only;  /* -s */
	bool with_summary;  /* -S */
	bool wakeups;	    /* -w */
	bool migrations;    /* -M */
	bool cpu_visual;    /* -V */
	bool next;	    /* -n */
	bool state;	    /* --state */
	bool idle_hist;	    /* -I */
	bool callchain;	    /* -g (default on) */
	int max_stack;	    /* --max-stack */
	struct time_span *spans; /* --time */
	int nr_spans;
	struct cpu_bitmap cpus; /* -C */
	int *pids, nr_pids;	/* -p */
	int *tids, nr_tids;	/* -t */
};

/*
 * sched_timehist - perf sched timehist on @session: the event lines and/or
 * the summary to stdout. Returns 0, 1 when the file has no sched_switch
 * (message printed), or the session's -errno.
 */
int sched_timehist(struct session *session, const struct sched_timehist_opts *opts);

/* struct sched_latency_opts - perf sched latency's options */
struct sched_latency_opts {
	bool per_pid;	   /* -p */
	const char *sort;  /* -s: "avg,max,switch,runtime" by default */
	int cpu;	   /* -C, -1: all */
};

/*
 * sched_latency_sort_valid - whether every key of @sort is known; *@bad
 * names the first unknown one.
 */
bool sched_latency_sort_valid(const char *sort, const char **bad, size_t *bad_len);

/* sched_latency - perf sched latency's table. Returns 0, 1 or -errno as sched_timehist. */
int sched_latency(struct session *session, const struct sched_latency_opts *opts);

/* struct sched_map_opts - perf sched map's options */
struct sched_map_opts {
	bool compact;		  /* --compact */
	const char *cpus;	  /* --cpus */
	const char *color_pids;	  /* --color-pids */
	const char *color_cpus;	  /* --color-cpus */
};

/* sched_map - perf sched map's letter map. Returns 0, 1 or -errno as sched_timehist. */
int sched_map(struct session *session, const struct sched_map_opts *opts);

/*
 * sched_replay_calibrate_print - measure the run and sleep costs into @rp and
 * print perf's four calibration lines.
 */
void sched_replay_calibrate_print(struct sched_replay *rp);

/*
 * sched_replay - perf sched replay on @session with calibrated @rp: build the
 * model, list its tasks, replay it @repeat times, a line each.
 * Returns 0 or -errno.
 */
int sched_replay(struct sched_replay *rp, struct session *session, unsigned int repeat);

#endif
