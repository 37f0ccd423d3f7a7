/* SPDX-License-Identifier: MIT */
/* perf sched replay's model: the recorded tasks' run/sleep/wakeup steps, and their replay with one thread per task. */
#ifndef SONDE_SESSION_SCHED_REPLAY_H
#define SONDE_SESSION_SCHED_REPLAY_H

#include "lib/hashmap.h"
#include "lib/util.h"

#include <stdbool.h>

struct session;

enum replay_step_kind {
	REPLAY_RUN,    /* burn the cpu for ns */
	REPLAY_SLEEP,  /* wait for the wakeup that claimed this step, if any */
	REPLAY_WAKEUP, /* post the claimed sleep step of another task */
};

struct replay_step;

/* struct replay_task - one recorded task (by pid), numbered in order of first sight */
struct replay_task {
	int nr;			 /* its number, from 0 */
	int pid;
	char comm[32];		 /* the name it was first seen with */
	struct replay_step **steps;
	int nr_steps, alloc_steps;
	struct replay_step *last_sleep; /* the latest sleep step, a wakeup's target */
};

/* struct sched_replay - the model and the calibration */
struct sched_replay {
	struct replay_task **tasks; /* by nr */
	int nr_tasks, alloc_tasks;
	struct u64map by_pid;	    /* pid -> task */
	u64 *cpu_last;		    /* per cpu: time of its last switch (0: none) */
	int nr_cpus;
	u64 nr_run, nr_sleep, nr_wakeup;
	u64 nr_multi_target;	    /* wakeups of a sleep another wakeup ended already */
	bool any_trace;		    /* a sample with raw data was seen */
	u64 run_overhead, sleep_overhead; /* ns, from sched_replay_calibrate() */
};

/* struct replay_result - one replay's cost */
struct replay_result {
	u64 wall_ns; /* from the start of the tasks to the end of the last */
	u64 cpu_ns;  /* the cpu time the task threads used */
};

/* sched_replay_init - an empty model. */
void sched_replay_init(struct sched_replay *rp);
/* sched_replay_release - free the model. */
void sched_replay_release(struct sched_replay *rp);

/*
 * sched_replay_calibrate - measure the cost of a zero-length run and of the
 * shortest sleep (kept in @rp), then of a 1 ms run and a 1 ms sleep
 * (*@run_ns, *@sleep_ns).
 */
void sched_replay_calibrate(struct sched_replay *rp, u64 *run_ns, u64 *sleep_ns);

/*
 * sched_replay_load - build the model from @session's records: FORK records
 * register parent and child, sched_switch gives its prev task a run step (the
 * time since the cpu's previous switch) and a sleep step, sched_wakeup and
 * sched_wakeup_new give the waker a wakeup step. Returns 0 or -errno.
 */
int sched_replay_load(struct sched_replay *rp, struct session *session);

/*
 * sched_replay_run - replay the model once: a thread per task runs its steps.
 * Returns 0 with @res filled, or -errno (threads could not be made).
 */
int sched_replay_run(struct sched_replay *rp, struct replay_result *res);

#endif
