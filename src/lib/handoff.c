/* SPDX-License-Identifier: MIT */
/* The batch handoff: a FIFO of filled batches and a free list, under one lock. */
#include "lib/handoff.h"

#include "lib/xalloc.h"

#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

struct hnode {
	void *batch;
	struct hnode *next;
};

struct handoff {
	const struct handoff_ops *ops;
	void *arg;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t filled;	 /* a batch was queued, or done */
	pthread_cond_t emptied;	 /* a batch was consumed */
	struct hnode *head, *tail; /* queued, oldest first */
	struct hnode *free;	 /* consumed, for reuse */
	int nr_batches, max_batches;
	bool done;
	struct hnode *cur;	 /* being filled */
};

static void *consumer(void *arg)
{
	struct handoff *h = arg;
	struct hnode *n;

	for (;;) {
		pthread_mutex_lock(&h->lock);
		while (!h->head && !h->done)
			pthread_cond_wait(&h->filled, &h->lock);
		n = h->head;
		if (n) {
			h->head = n->next;
			if (!h->head)
				h->tail = NULL;
		}
		pthread_mutex_unlock(&h->lock);
		if (!n)
			return NULL;
		h->ops->consume(n->batch, h->arg);
		pthread_mutex_lock(&h->lock);
		n->next = h->free;
		h->free = n;
		pthread_cond_signal(&h->emptied);
		pthread_mutex_unlock(&h->lock);
	}
}

static struct hnode *node_new(struct handoff *h)
{
	struct hnode *n = xzalloc(sizeof(*n));

	n->batch = h->ops->batch_new(h->arg);
	return n;
}

struct handoff *handoff_new(const struct handoff_ops *ops, void *arg, int max_batches)
{
	struct handoff *h;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2 || getenv("SONDE_ONE_THREAD"))
		return NULL;
	h = xzalloc(sizeof(*h));
	h->ops = ops;
	h->arg = arg;
	h->max_batches = max_batches < 2 ? 2 : max_batches;
	pthread_mutex_init(&h->lock, NULL);
	pthread_cond_init(&h->filled, NULL);
	pthread_cond_init(&h->emptied, NULL);
	h->cur = node_new(h);
	h->nr_batches = 1;
	if (pthread_create(&h->thread, NULL, consumer, h)) {
		ops->batch_free(h->cur->batch, arg);
		free(h->cur);
		pthread_mutex_destroy(&h->lock);
		pthread_cond_destroy(&h->filled);
		pthread_cond_destroy(&h->emptied);
		free(h);
		return NULL;
	}
	return h;
}

void *handoff_batch(struct handoff *h)
{
	return h->cur->batch;
}

void *handoff_submit(struct handoff *h)
{
	struct hnode *n = h->cur;

	pthread_mutex_lock(&h->lock);
	n->next = NULL;
	if (h->tail)
		h->tail->next = n;
	else
		h->head = n;
	h->tail = n;
	pthread_cond_signal(&h->filled);
	if (!h->free && h->nr_batches < h->max_batches) {
		h->nr_batches++;
		pthread_mutex_unlock(&h->lock);
		h->cur = node_new(h);
		return h->cur->batch;
	}
	while (!h->free)
		pthread_cond_wait(&h->emptied, &h->lock);
	h->cur = h->free;
	h->free = h->cur->next;
	pthread_mutex_unlock(&h->lock);
	return h->cur->batch;
}

void handoff_finish(struct handoff *h, bool submit_last)
{
	struct hnode *n;

	if (!h)
		return;
	if (submit_last)
		handoff_submit(h);
	pthread_mutex_lock(&h->lock);
	h->done = true;
	pthread_cond_signal(&h->filled);
	pthread_mutex_unlock(&h->lock);
	pthread_join(h->thread, NULL);
	h->cur->next = h->free;
	while ((n = h->cur)) {
		h->cur = n->next;
		h->ops->batch_free(n->batch, h->arg);
		free(n);
	}
	pthread_mutex_destroy(&h->lock);
	pthread_cond_destroy(&h->filled);
	pthread_cond_destroy(&h->emptied);
	free(h);
}
