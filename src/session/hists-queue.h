/* SPDX-License-Identifier: MIT */
/* Aggregation on a second thread: samples for hists_add() queued in batches, added in order. */
#ifndef SONDE_SESSION_HISTS_QUEUE_H
#define SONDE_SESSION_HISTS_QUEUE_H

#include "session/hists.h"

struct hists_queue;

/*
 * hists_queue_new - a thread that runs hists_add() for the samples queued,
 * in queue order, while the caller reads and resolves the next ones.
 * Returns NULL when the machine has one cpu or the thread cannot start
 * (the caller then adds directly).
 */
struct hists_queue *hists_queue_new(void);

/*
 * hists_queue_add - queue @hs (copied, with its chain) for @hists. Its
 * pointers must stay valid and unchanged until hists_queue_finish(): the
 * machine's frames, threads and interned strings do; set hs->comm (the
 * thread's comm may change before the sample is added).
 */
void hists_queue_add(struct hists_queue *q, struct hists *hists, const struct hist_sample *hs);

/* hists_queue_finish - wait until every queued sample is added; stop the thread, free @q. */
void hists_queue_finish(struct hists_queue *q);

#endif
