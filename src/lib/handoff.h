/* SPDX-License-Identifier: MIT */
/* A second thread that consumes batches in order while the caller fills the next ones. */
#ifndef SONDE_LIB_HANDOFF_H
#define SONDE_LIB_HANDOFF_H

#include <stdbool.h>

/* struct handoff_ops - the batches: made, consumed (on the thread, in order), freed */
struct handoff_ops {
	void *(*batch_new)(void *arg);
	void (*consume)(void *batch, void *arg); /* leaves the batch empty for reuse */
	void (*batch_free)(void *batch, void *arg);
};

struct handoff;

/*
 * handoff_new - start the consumer thread with at most @max_batches
 * batches in flight (the memory ahead of it). Returns NULL when the
 * machine has one cpu, SONDE_ONE_THREAD is set in the environment, or the
 * thread cannot start: the caller then does the work itself.
 */
struct handoff *handoff_new(const struct handoff_ops *ops, void *arg, int max_batches);

/* handoff_batch - the batch being filled (the caller's until handoff_submit()). */
void *handoff_batch(struct handoff *h);

/*
 * handoff_submit - queue the current batch for the thread; returns the
 * next one to fill (a consumed one, waiting for it when all are in flight).
 */
void *handoff_submit(struct handoff *h);

/*
 * handoff_finish - queue the current batch (when @submit_last), wait until
 * every queued batch is consumed, stop the thread and free everything.
 */
void handoff_finish(struct handoff *h, bool submit_last);

#endif
