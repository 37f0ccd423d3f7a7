/* SPDX-License-Identifier: MIT */
/* Ordered events: records queued as ascending runs, delivered by (time, arrival) through a merge of the runs' heads. */
#include "session/ordered-events.h"

#include "lib/xalloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/*
 * A record is queued in place when the caller says it stays readable (the
 * file's mapping), else copied into a 1 MiB chunk. A chunk goes back to a
 * small spare list once every record in it has been delivered, so a long
 * file reuses the same few megabytes instead of faulting in fresh pages.
 * A copy is laid out [record_pos, when kept][chunk pointer][record].
 */
#define CHUNK_BYTES (1u << 20)
#define MAX_SPARE 8

struct chunk {
	size_t used;
	size_t live; /* records not yet delivered */
	struct chunk *next;
	u8 data[];
};

/*
 * one queued record: 16 bytes, as the queue can hold a whole file's worth
 * (perf's rounds may span most of it). @ref is the record's address, its
 * low bit set when the record is a copy in a chunk (records are 8-aligned).
 */
struct entry {
	u64 time;
	uintptr_t ref;
};

#define REF_COPY ((uintptr_t)1)

/*
 * Records arrive as ascending runs (one per ring buffer and round), so the
 * queue keeps them as runs: entries[start..end), in arrival order, each
 * in (time, arrival) order. Delivery merges the runs' heads through a
 * binary heap, so nothing is sorted or moved: a record costs log2(runs)
 * comparisons. Delivered entries leave holes between the runs' remaining
 * tails until a compaction moves the tails to the front, in order, so an
 * entry's index keeps telling arrival order (the tie-break).
 */
struct run {
	size_t start, end;
};

struct head;

struct ordered_events {
	struct entry *entries;
	size_t hi, alloc;	/* entries[0..hi) are used, holes included */
	size_t nr;		/* records queued, not yet delivered */
	struct run *runs;	/* by start: arrival order */
	size_t nr_runs, runs_alloc;
	struct head *heap;	/* the runs' heads, during a flush */
	size_t heap_alloc;
	u64 max_time;
	u64 last_delivered;
	size_t bytes, max_bytes;
	bool keep_pos;
	struct chunk *cur;
	struct chunk *full;  /* chunks with live records, not current */
	struct chunk *spare; /* emptied chunks kept for reuse */
	int nr_spare;
};

struct ordered_events *ordered_events_new(size_t max_bytes, bool keep_pos)
{
	struct ordered_events *oe = xzalloc(sizeof(*oe));

	oe->max_bytes = max_bytes;
	oe->keep_pos = keep_pos;
	return oe;
}

static void free_list(struct chunk *c)
{
	while (c) {
		struct chunk *next = c->next;

		free(c);
		c = next;
	}
}

void ordered_events_free(struct ordered_events *oe)
{
	if (!oe)
		return;
	free(oe->entries);
	free(oe->runs);
	free(oe->heap);
	free(oe->cur);
	free_list(oe->spare);
	free_list(oe->full);
	free(oe);
}

static inline union perf_event *entry_event(const struct entry *e)
{
	return (union perf_event *)(e->ref & ~REF_COPY);
}

static void chunk_recycle(struct ordered_events *oe, struct chunk *c)
{
	if (oe->nr_spare >= MAX_SPARE) {
		free(c);
		return;
	}
	c->next = oe->spare;
	oe->spare = c;
	oe->nr_spare++;
}

/* a chunk with room for @need more bytes becomes current (a record is at most 64 KiB) */
static void chunk_make_room(struct ordered_events *oe, size_t need)
{
	struct chunk *c = oe->cur;

	if (c && c->used + need <= CHUNK_BYTES)
		return;
	if (c) {
		if (c->live) {
			c->next = oe->full;
			oe->full = c;
		} else {
			chunk_recycle(oe, c);
		}
	}
	if (oe->spare) {
		c = oe->spare;
		oe->spare = c->next;
		oe->nr_spare--;
	} else {
		c = xmalloc(sizeof(*c) + CHUNK_BYTES);
	}
	c->used = c->live = 0;
	c->next = NULL;
	oe->cur = c;
}

/* move the runs' remaining tails to the front of the array, in order */
static void compact(struct ordered_events *oe)
{
	size_t to = 0;

	for (size_t i = 0; i < oe->nr_runs; i++) {
		struct run *r = &oe->runs[i];
		size_t n = r->end - r->start;

		if (r->start != to)
			memmove(oe->entries + to, oe->entries + r->start, n * sizeof(*oe->entries));
		r->start = to;
		r->end = to + n;
		to += n;
	}
	oe->hi = to;
}

static inline bool entry_before(const struct entry *a, const struct entry *b)
{
	return a->time < b->time;
}

/* a new entry at the queue's end, extending the last run when it is in order */
static void entry_append(struct ordered_events *oe, uintptr_t ref, u64 time, size_t bytes)
{
	struct entry *e;
	struct run *last = oe->nr_runs ? &oe->runs[oe->nr_runs - 1] : NULL;

	/* reuse the holes once they are at least as many as the queued records */
	if (oe->hi == oe->alloc && oe->hi - oe->nr >= oe->nr && oe->hi) {
		compact(oe);
		last = oe->nr_runs ? &oe->runs[oe->nr_runs - 1] : NULL;
	}
	if (oe->hi == oe->alloc)
		oe->entries = xgrow(oe->entries, oe->hi + 1, &oe->alloc, sizeof(*oe->entries));
	e = &oe->entries[oe->hi];
	e->time = time;
	e->ref = ref;
	if (last && last->end == oe->hi && !entry_before(e, &oe->entries[oe->hi - 1])) {
		last->end++;
	} else {
		if (oe->nr_runs == oe->runs_alloc)
			oe->runs = xgrow(oe->runs, oe->nr_runs + 1, &oe->runs_alloc, sizeof(*oe->runs));
		oe->runs[oe->nr_runs++] = (struct run){ oe->hi, oe->hi + 1 };
	}
	oe->hi++;
	oe->nr++;
	oe->bytes += bytes;
	if (time > oe->max_time)
		oe->max_time = time;
}

static size_t copy_bytes(const struct ordered_events *oe, size_t size)
{
	size_t prefix = (oe->keep_pos ? sizeof(struct record_pos) : 0) + sizeof(struct chunk *);

	return (prefix + size + 7) & ~(size_t)7;
}

void ordered_events_queue(struct ordered_events *oe, const union perf_event *ev, u64 time,
			  const struct record_pos *pos)
{
	size_t size = ev->header.size;
	size_t need = copy_bytes(oe, size);
	u8 *at;

	chunk_make_room(oe, need);
	at = oe->cur->data + oe->cur->used;
	if (oe->keep_pos) {
		static const struct record_pos none = { 0, ~0ULL, NULL };

		memcpy(at, pos ? pos : &none, sizeof(*pos));
		at += sizeof(*pos);
	}
	memcpy(at, &oe->cur, sizeof(oe->cur));
	at += sizeof(oe->cur);
	memcpy(at, ev, size);
	oe->cur->used += need;
	oe->cur->live++;
	entry_append(oe, (uintptr_t)at | REF_COPY, time, need);
}

void ordered_events_queue_kept(struct ordered_events *oe, const union perf_event *ev, u64 time)
{
	/* the low bit tags copies: an odd address (never a record read in place) is copied */
	if (oe->keep_pos || ((uintptr_t)ev & REF_COPY)) {
		ordered_events_queue(oe, ev, time, NULL);
		return;
	}
	entry_append(oe, (uintptr_t)ev, time, ev->header.size);
}

const union perf_event *ordered_events_oldest_kept(const struct ordered_events *oe)
{
	/* runs are in arrival order, but a run's kept records may follow copies */
	const struct entry *best = NULL;

	for (size_t i = 0; i < oe->nr_runs; i++) {
		const struct run *r = &oe->runs[i];

		if (best && best < &oe->entries[r->start])
			break;
		for (size_t j = r->start; j < r->end; j++) {
			if (!(oe->entries[j].ref & REF_COPY)) {
				if (!best || &oe->entries[j] < best)
					best = &oe->entries[j];
				break;
			}
		}
	}
	return best ? entry_event(best) : NULL;
}

/* the copy (or the kept record) is done with: its chunk may go back to the spares */
static void entry_release(struct ordered_events *oe, const struct entry *e)
{
	const union perf_event *ev = entry_event(e);
	struct chunk *c;

	if (!(e->ref & REF_COPY)) {
		oe->bytes -= ev->header.size;
		return;
	}
	oe->bytes -= copy_bytes(oe, ev->header.size);
	memcpy(&c, (const u8 *)ev - sizeof(c), sizeof(c));
	if (--c->live || c == oe->cur)
		return;
	for (struct chunk **pp = &oe->full; *pp; pp = &(*pp)->next) {
		if (*pp == c) {
			*pp = c->next;
			chunk_recycle(oe, c);
			return;
		}
	}
}

/* a run's head in the merge: its time and index (arrival order breaks ties) */
struct head {
	u64 time;
	size_t at;
	size_t run;
};

static inline bool head_before(const struct head *a, const struct head *b)
{
	return a->time < b->time || (a->time == b->time && a->at < b->at);
}

static void heap_down(struct head *h, size_t n, size_t i)
{
	struct head v = h[i];

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= n)
			break;
		if (c + 1 < n && head_before(&h[c + 1], &h[c]))
			c++;
		if (!head_before(&h[c], &v))
			break;
		h[i] = h[c];
		i = c;
	}
	h[i] = v;
}

/* deliver in order while the oldest is <= @limit (or @all), at most @max records */
static int deliver_front(struct ordered_events *oe, u64 limit, bool all, size_t max,
			 ordered_events_deliver_fn *fn, void *arg)
{
	size_t done = 0, n = oe->nr_runs, kept = 0;
	struct head *h;
	int err = 0;

	if (!oe->nr)
		return 0;
	oe->heap = xgrow(oe->heap, n, &oe->heap_alloc, sizeof(*oe->heap));
	h = oe->heap;
	for (size_t i = 0; i < n; i++) {
		h[i].at = oe->runs[i].start;
		h[i].time = oe->entries[h[i].at].time;
		h[i].run = i;
	}
	for (size_t i = n / 2; i-- > 0;)
		heap_down(h, n, i);
	while (n && done < max) {
		struct run *r = &oe->runs[h[0].run];
		struct entry e = oe->entries[h[0].at];
		const union perf_event *ev = entry_event(&e);
		const struct record_pos *pos = NULL;

		if (!all && e.time > limit)
			break;
		if (oe->keep_pos && (e.ref & REF_COPY))
			pos = (const struct record_pos *)((const u8 *)ev - sizeof(struct chunk *) -
							  sizeof(*pos));
		if (++r->start == r->end) {
			h[0] = h[--n];
		} else {
			h[0].at = r->start;
			h[0].time = oe->entries[r->start].time;
		}
		heap_down(h, n, 0);
		done++;
		oe->last_delivered = e.time;
		err = fn(arg, ev, e.time, pos);
		entry_release(oe, &e);
		if (err)
			break;
	}
	oe->nr -= done;
	/* drop the emptied runs, keeping the others in arrival order */
	for (size_t i = 0; i < oe->nr_runs; i++)
		if (oe->runs[i].start != oe->runs[i].end)
			oe->runs[kept++] = oe->runs[i];
	oe->nr_runs = kept;
	if (!oe->nr)
		oe->hi = 0;
	return err;
}

int ordered_events_flush(struct ordered_events *oe, u64 limit, bool all,
			 ordered_events_deliver_fn *fn, void *arg)
{
	return deliver_front(oe, limit, all, oe->nr, fn, arg);
}

int ordered_events_flush_half(struct ordered_events *oe, ordered_events_deliver_fn *fn, void *arg)
{
	return deliver_front(oe, 0, true, oe->nr / 2, fn, arg);
}

bool ordered_events_over_limit(const struct ordered_events *oe)
{
	return oe->max_bytes && oe->bytes > oe->max_bytes;
}

u64 ordered_events_max_time(const struct ordered_events *oe)
{
	return oe->max_time;
}

u64 ordered_events_last_delivered(const struct ordered_events *oe)
{
	return oe->last_delivered;
}
