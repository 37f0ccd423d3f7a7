/* SPDX-License-Identifier: MIT */
/* perf lock contention's table from the lock:contention_begin/end tracepoints. */
#ifndef SONDE_UI_LOCK_H
#define SONDE_UI_LOCK_H

#include <stdbool.h>

struct session;

enum lock_key { LOCK_KEY_CONTENDED, LOCK_KEY_WAIT_TOTAL, LOCK_KEY_WAIT_MAX, LOCK_KEY_WAIT_MIN,
		LOCK_KEY_AVG_WAIT };

/* struct lock_contention_opts - perf lock contention's options */
struct lock_contention_opts {
	enum lock_key key; /* -k */
	int entries;	   /* -E, 0: all */
	bool threads;	   /* -t: per thread, not per call stack */
	int max_stack;	   /* --max-stack (8) */
	int stack_skip;	   /* --stack-skip (3) */
	/*
	 * perf lock report's layout instead (Name, then these columns: 0
	 * acquired, 1 contended, 2 avg wait, 3 total wait, 4 max wait, 5 min
	 * wait); rows merged by name with @combine (-c)
	 */
	bool report;
	bool combine;
	char info;	   /* perf lock info instead: 't' the threads, 'm' the lock instances */
	int cols[7], nr_cols;
};

/*
 * lock_contention - the table on stderr (where perf 6.1 prints it). Returns
 * 0, 1 when the file has no contention tracepoints, 2 when it has no
 * tracepoint at all, or -errno.
 */
int lock_contention(struct session *session, const struct lock_contention_opts *o);

#endif
