/* SPDX-License-Identifier: MIT */
/* Aggregation on a second thread: batches of hist samples through lib/handoff, added in order. */
#include "session/hists-queue.h"

#include "lib/handoff.h"
#include "lib/xalloc.h"

#include <stdint.h>
#include <stdlib.h>

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
};

struct hists_queue {
	struct handoff *handoff;
	struct hq_batch *cur;
};

static void *batch_new(void *arg)
{
	return xzalloc(sizeof(struct hq_batch));
}

static void batch_free(void *batch, void *arg)
{
	struct hq_batch *b = batch;

	free(b->frames);
	free(b->ips);
	free(b);
}

/* batch_add_all - on the thread: each sample into its hists, in order */
static void batch_add_all(void *batch, void *arg)
{
	struct hq_batch *b = batch;

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

static const struct handoff_ops hq_ops = {
	.batch_new = batch_new,
	.consume = batch_add_all,
	.batch_free = batch_free,
};

struct hists_queue *hists_queue_new(void)
{
	struct hists_queue *q = xzalloc(sizeof(*q));

	q->handoff = handoff_new(&hq_ops, q, MAX_BATCHES);
	if (!q->handoff) {
		free(q);
		return NULL;
	}
	q->cur = handoff_batch(q->handoff);
	return q;
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
		q->cur = handoff_submit(q->handoff);
}

void hists_queue_finish(struct hists_queue *q)
{
	if (!q)
		return;
	handoff_finish(q->handoff, q->cur->nr != 0);
	free(q);
}
