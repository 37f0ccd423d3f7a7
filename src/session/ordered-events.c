/* SPDX-License-Identifier: MIT */
/* Ordered events: record copies in 1 MiB chunks, sorted by (time, arrival) when flushed. */
#include "session/ordered-events.h"

#include "lib/xalloc.h"

#include <stdlib.h>
#include <string.h>

/*
 * Copies live in 1 MiB chunks; a chunk goes back to a small spare list once
 * every record in it has been delivered, so a long file reuses the same few
 * megabytes instead of faulting in fresh pages.
 */
#define CHUNK_BYTES (1u << 20)
#define MAX_SPARE 8

struct chunk {
	size_t used;
	size_t live; /* records not yet delivered */
	struct chunk *next;
	u8 data[];
};

/* one queued record: sort key (time, seq) and where its copy is */
struct entry {
	u64 time;
	u64 seq;
	union perf_event *ev;
	struct chunk *chunk;
};

struct ordered_events {
	struct entry *entries;
	size_t head;	  /* the queue is entries[head..head + nr): delivery moves head */
	size_t nr, alloc;
	size_t nr_sorted; /* the queue's first nr_sorted are in order */
	u64 seq;
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
	free(oe->cur);
	free_list(oe->spare);
	free_list(oe->full);
	free(oe);
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

/* a chunk with room for @need more bytes becomes current */
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
		/* a record bigger than a chunk gets a chunk of its own size */
		c = xmalloc(sizeof(*c) + (need > CHUNK_BYTES ? need : CHUNK_BYTES));
	}
	c->used = c->live = 0;
	c->next = NULL;
	oe->cur = c;
}

void ordered_events_queue(struct ordered_events *oe, const union perf_event *ev, u64 time,
			  const struct record_pos *pos)
{
	size_t size = ev->header.size;
	size_t prefix = oe->keep_pos ? sizeof(struct record_pos) : 0;
	size_t need = (prefix + size + 7) & ~(size_t)7;
	struct entry *e;
	u8 *at;

	/* a spare chunk may be smaller than an oversized record: never reuse it then */
	if (need > CHUNK_BYTES) {
		free_list(oe->spare);
		oe->spare = NULL;
		oe->nr_spare = 0;
	}
	chunk_make_room(oe, need);
	at = oe->cur->data + oe->cur->used;
	if (prefix) {
		static const struct record_pos none = { 0, ~0ULL, NULL };

		memcpy(at, pos ? pos : &none, prefix);
	}
	memcpy(at + prefix, ev, size);
	/* the delivered front is reused once it is at least as long as the queue */
	if (oe->head && oe->head + oe->nr == oe->alloc && oe->head >= oe->nr) {
		memmove(oe->entries, oe->entries + oe->head, oe->nr * sizeof(*oe->entries));
		oe->head = 0;
	}
	oe->entries = xgrow(oe->entries, oe->head + oe->nr + 1, &oe->alloc, sizeof(*oe->entries));
	e = &oe->entries[oe->head + oe->nr++];
	e->time = time;
	e->seq = oe->seq++;
	e->ev = (union perf_event *)(at + prefix);
	e->chunk = oe->cur;
	oe->cur->used += need;
	oe->cur->live++;
	oe->bytes += need;
	if (time > oe->max_time)
		oe->max_time = time;
}

static bool entry_before(const struct entry *a, const struct entry *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

static int entry_cmp(const void *pa, const void *pb)
{
	const struct entry *a = pa, *b = pb;

	return entry_before(a, b) ? -1 : entry_before(b, a);
}

/*
 * Records arrive as a few ascending runs (one per ring buffer and round).
 * Merging neighbouring runs pass after pass costs n * log2(runs); with many
 * runs plain qsort is as good.
 */
static size_t run_end(const struct entry *v, size_t from, size_t n)
{
	size_t i = from + 1;

	while (i < n && !entry_before(&v[i], &v[i - 1]))
		i++;
	return i;
}

static void sort_entries(struct ordered_events *oe)
{
	size_t n = oe->nr, runs = 0;
	struct entry *base = oe->entries + oe->head, *src = base, *dst, *swap;

	for (size_t i = 0; i < n; i = run_end(src, i, n))
		runs++;
	if (runs <= 1)
		return;
	if (runs > 64) {
		qsort(src, n, sizeof(*src), entry_cmp);
		return;
	}
	dst = xmalloc(n * sizeof(*dst));
	while (runs > 1) {
		size_t out = 0, i = 0;

		runs = 0;
		while (i < n) {
			size_t a = i, a_end = run_end(src, i, n);
			size_t b = a_end, b_end = b < n ? run_end(src, b, n) : n;

			while (a < a_end && b < b_end)
				dst[out++] = entry_before(&src[b], &src[a]) ? src[b++] : src[a++];
			memcpy(dst + out, src + a, (a_end - a) * sizeof(*src));
			out += a_end - a;
			memcpy(dst + out, src + b, (b_end - b) * sizeof(*src));
			out += b_end - b;
			i = b_end;
			runs++;
		}
		swap = src;
		src = dst;
		dst = swap;
	}
	if (src != base) {
		memcpy(base, src, n * sizeof(*src));
		dst = src;
	}
	free(dst);
}

/* the copy is done with: its chunk may go back to the spares */
static void entry_release(struct ordered_events *oe, const struct entry *e)
{
	struct chunk *c = e->chunk;

	oe->bytes -= (((oe->keep_pos ? sizeof(struct record_pos) : 0) + e->ev->header.size + 7) &
		      ~(size_t)7);
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

/* deliver sorted entries from the front while @keep_going says so, at most @max */
static int deliver_front(struct ordered_events *oe, u64 limit, bool all, size_t max,
			 ordered_events_deliver_fn *fn, void *arg)
{
	size_t done = 0;
	int err = 0;

	if (oe->nr_sorted < oe->nr)
		sort_entries(oe);
	while (done < oe->nr && done < max && (all || oe->entries[oe->head + done].time <= limit)) {
		struct entry *e = &oe->entries[oe->head + done++];
		const struct record_pos *pos =
			oe->keep_pos ? (const struct record_pos *)((const u8 *)e->ev - sizeof(*pos)) :
				       NULL;

		oe->last_delivered = e->time;
		err = fn(arg, e->ev, e->time, pos);
		entry_release(oe, e);
		if (err)
			break;
	}
	oe->nr -= done;
	oe->head = oe->nr ? oe->head + done : 0;
	oe->nr_sorted = oe->nr;
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
