/* SPDX-License-Identifier: MIT */
/* Ordered events: records (or their copies) queued by timestamp, delivered in time order with bounded memory. */
#ifndef SONDE_SESSION_ORDERED_EVENTS_H
#define SONDE_SESSION_ORDERED_EVENTS_H

#include "data/event.h"

#include <stdbool.h>
#include <stddef.h>

/*
 * struct record_pos - where a record was read: its file offset, the offset
 * of the COMPRESSED record it came out of (~0 when none), and the file's path
 * (directory mode: "dir/data.N"; a string the reader keeps alive).
 */
struct record_pos {
	u64 offset;
	u64 compressed_offset;
	const char *file;
};

struct ordered_events;

/*
 * ordered_events_deliver_fn - called for each record in time order; @pos is
 * NULL unless the queue keeps positions. A non-zero return stops the flush.
 */
typedef int ordered_events_deliver_fn(void *arg, const union perf_event *ev, u64 time,
				      const struct record_pos *pos);

/*
 * ordered_events_new - an empty queue that holds at most about @max_bytes of
 * record copies (0: no limit) before ordered_events_over_limit() says so.
 * With @keep_pos each record keeps its struct record_pos. Never NULL; free
 * with ordered_events_free().
 */
struct ordered_events *ordered_events_new(size_t max_bytes, bool keep_pos);
void ordered_events_free(struct ordered_events *oe);

/* ordered_events_queue - copy @ev (timestamp @time) into the queue; @pos may be NULL. */
void ordered_events_queue(struct ordered_events *oe, const union perf_event *ev, u64 time,
			  const struct record_pos *pos);
/*
 * ordered_events_queue_kept - queue @ev itself, no copy: the caller
 * guarantees it stays readable until delivered (a record in the file's
 * mapping, data_reader_record_kept). Not for a queue that keeps positions.
 */
void ordered_events_queue_kept(struct ordered_events *oe, const union perf_event *ev, u64 time);
/*
 * ordered_events_oldest_kept - of the records queued with
 * ordered_events_queue_kept() and not yet delivered, the one queued first
 * (so the lowest in the file); NULL when none. A scan of the queue.
 */
const union perf_event *ordered_events_oldest_kept(const struct ordered_events *oe);

/*
 * ordered_events_flush - deliver, oldest first (ties in arrival order), every
 * queued record with a timestamp <= @limit, or all of them with @all.
 * Returns 0 or the first non-zero @fn result (the records after it stay).
 */
int ordered_events_flush(struct ordered_events *oe, u64 limit, bool all,
			 ordered_events_deliver_fn *fn, void *arg);

/*
 * ordered_events_flush_half - deliver the older half of the queue: what a
 * reader does when the queue is over its memory limit and no round marker
 * came (pipes, files without FINISHED_ROUND). Returns as flush does.
 */
int ordered_events_flush_half(struct ordered_events *oe, ordered_events_deliver_fn *fn, void *arg);

/* ordered_events_over_limit - the copies held exceed the limit given at creation */
bool ordered_events_over_limit(const struct ordered_events *oe);

/* ordered_events_max_time - the newest timestamp queued so far (0: none) */
u64 ordered_events_max_time(const struct ordered_events *oe);

/* ordered_events_last_delivered - the timestamp of the last record delivered (0: none) */
u64 ordered_events_last_delivered(const struct ordered_events *oe);

#endif
