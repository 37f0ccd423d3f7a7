/* SPDX-License-Identifier: MIT */
/* Aggregation on a second thread: batches of hist samples handed over under one lock. */
#include "session/hists-queue.h"

#include "lib/xalloc.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BATCH_SAMPLES 1024u	/* samples per hand-over */
#define BATCH_FRAMES 32768u	/* ... or callchain frames, whichever fills first */
#define MAX_BATCHES 6		/* in flight: bounds the memory ahead of the aggregator */

/*
 * struct hq_batch - samples and their targets; a sample's chain is kept as
 * the cursor hists_add() walks (frames and raw ips in display order), its
 * chain_ips an offset into @frames and @ips until the batch is added
 */
struct hq_batch {
	struct hist_sample hs[BATCH_SAMPLES];
	struct hists *target[BATCH_SAMPLES];
	u32 nr;
	const struct frame **frames;
	u64 *ips;
	size_t nr_frames, alloc_frames;
	struct hq_batch *next;
};

struct hists_queue {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t filled;	/* a batch was queued, or done */
	pthread_cond_t emptied;	/* a batch came back free */
	struct hq_batch *head, *tail; /* queued, oldest first */
	struct hq_batch *free;	/* added, for reuse */
	int nr_batches;		/* allocated */
	bool done;
	struct hq_batch *cur;	/* being filled (the caller's) */
};

static struct hq_batch *batch_new(void)
{
	return xzalloc(sizeof(struct hq_batch));
}

static void batch_add_all(struct hq_batch *b)
{
	for (u32 i = 0; i < b->nr; i++) {
		struct hist_sample *hs = &b->hs[i];

		if (hs->nr_chain) {
			size_t off = (uintptr_t)hs->chain_ips;

			hs->chain_frames = b->frames + off;
			hs->chain_ips = b->ips + off;
		}
		hists_add(b->target[i], hs);
	}
	b->nr = 0;
	b->nr_frames = 0;
}

static void *aggregator(void *arg)
{
	struct hists_queue *q = arg;
	struct hq_batch *b;

	for (;;) {
		pthread_mutex_lock(&q->lock);
		while (!q->head && !q->done)
			pthread_cond_wait(&q->filled, &q->lock);
		b = q->head;
		if (b) {
			q->head = b->next;
			if (!q->head)
				q->tail = NULL;
		}
		pthread_mutex_unlock(&q->lock);
		if (!b)
			return NULL;
		batch_add_all(b);
		pthread_mutex_lock(&q->lock);
		b->next = q->free;
		q->free = b;
		pthread_cond_signal(&q->emptied);
		pthread_mutex_unlock(&q->lock);
	}
}

struct hists_queue *hists_queue_new(void)
{
	struct hists_queue *q;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2 || getenv("SONDE_ONE_THREAD"))
		return NULL;
	q = xzalloc(sizeof(*q));
	pthread_mutex_init(&q->lock, NULL);
	pthread_cond_init(&q->filled, NULL);
	pthread_cond_init(&q->emptied, NULL);
	q->cur = batch_new();
	q->nr_batches = 1;
	if (pthread_create(&q->thread, NULL, aggregator, q)) {
		free(q->cur);
		pthread_mutex_destroy(&q->lock);
		pthread_cond_destroy(&q->filled);
		pthread_cond_destroy(&q->emptied);
		free(q);
		return NULL;
	}
	return q;
}

/* submit - hand the current batch over and take a free one (waiting when all are in flight) */
static void submit(struct hists_queue *q)
{
	struct hq_batch *b = q->cur;

	pthread_mutex_lock(&q->lock);
	b->next = NULL;
	if (q->tail)
		q->tail->next = b;
	else
		q->head = b;
	q->tail = b;
	pthread_cond_signal(&q->filled);
	if (!q->free && q->nr_batches < MAX_BATCHES) {
		q->nr_batches++;
		pthread_mutex_unlock(&q->lock);
		q->cur = batch_new();
		return;
	}
	while (!q->free)
		pthread_cond_wait(&q->emptied, &q->lock);
	q->cur = q->free;
	q->free = q->cur->next;
	pthread_mutex_unlock(&q->lock);
}

void hists_queue_add(struct hists_queue *q, struct hists *hists, const struct hist_sample *hs)
{
	struct hq_batch *b = q->cur;
	struct hist_sample *slot;

	if (b->nr_frames + hs->nr_chain > b->alloc_frames) {
		size_t want = b->nr_frames + hs->nr_chain;

		b->alloc_frames = want > BATCH_FRAMES ? want : BATCH_FRAMES;
		b->frames = xreallocarray(b->frames, b->alloc_frames, sizeof(*b->frames));
		b->ips = xreallocarray(b->ips, b->alloc_frames, sizeof(*b->ips));
	}
	slot = &b->hs[b->nr];
	*slot = *hs;
	slot->chain = NULL;
	if (hs->nr_chain) {
		hists_chain_cursor(hists, hs->chain, hs->nr_chain, b->frames + b->nr_frames,
				   b->ips + b->nr_frames);
		slot->chain_ips = (const u64 *)(uintptr_t)b->nr_frames;
		b->nr_frames += hs->nr_chain;
	}
	b->target[b->nr++] = hists;
	if (b->nr == BATCH_SAMPLES || b->nr_frames >= BATCH_FRAMES)
		submit(q);
}

void hists_queue_finish(struct hists_queue *q)
{
	struct hq_batch *b;

	if (!q)
		return;
	if (q->cur->nr)
		submit(q);
	pthread_mutex_lock(&q->lock);
	q->done = true;
	pthread_cond_signal(&q->filled);
	pthread_mutex_unlock(&q->lock);
	pthread_join(q->thread, NULL);
	q->cur->next = q->free;
	while ((b = q->cur)) {
		q->cur = b->next;
		free(b->frames);
		free(b->ips);
		free(b);
	}
	pthread_mutex_destroy(&q->lock);
	pthread_cond_destroy(&q->filled);
	pthread_cond_destroy(&q->emptied);
	free(q);
}
