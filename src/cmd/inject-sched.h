/* SPDX-License-Identifier: MIT */
/* inject -s: sched_stat samples turned into the sleeping task's last sched_switch sample, with the stat's time and period. */
#ifndef SONDE_CMD_INJECT_SCHED_H
#define SONDE_CMD_INJECT_SCHED_H

#include "data/event.h"
#include "lib/hashmap.h"
#include "session/sched.h"

struct session;

/* struct inject_sched - the last sched_switch sample of each task (by tid) */
struct inject_sched {
	struct sched_decoder dec;
	struct u64map last_switch; /* tid -> a copy of its record */
	union perf_event *out;	   /* the record handed back by inject_sched_record() */
	size_t out_size;
};

/* inject_sched_init - learn @session's sched events. Returns 0. */
int inject_sched_init(struct inject_sched *is, struct session *session);
/* inject_sched_release - free the kept records. */
void inject_sched_release(struct inject_sched *is);

/*
 * inject_sched_record - what perf inject -s writes for @ev (delivered in time
 * order): a sched_switch sample is kept (for its prev task) and not written;
 * a sched_stat_* sample (sched_stat_runtime too) becomes the kept switch of
 * the task in its "pid" field with the stat's time and period, or nothing
 * when that task has not switched out yet; anything else as it is.
 * Returns the record to write (@ev, or one owned by @is until the next
 * call), or NULL to write nothing.
 */
const union perf_event *inject_sched_record(struct inject_sched *is, struct session *session,
					    const union perf_event *ev);

#endif
