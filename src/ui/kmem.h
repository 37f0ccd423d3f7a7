/* SPDX-License-Identifier: MIT */
/* perf kmem stat's summaries of the slab (kmalloc/kfree) and page allocator tracepoints. */
#ifndef SONDE_UI_KMEM_H
#define SONDE_UI_KMEM_H

#include <stdbool.h>

struct session;

/* struct kmem_opts - what perf kmem stat analyses */
struct kmem_opts {
	bool slab, page;
	bool live;	/* --live: the order table counts only pages never freed */
};

/*
 * kmem_stat - the summaries on stdout. Returns 0, 1 when the file has no
 * slab events (with @o->slab), 2 when it has no page events (with
 * @o->page), or -errno.
 */
int kmem_stat(struct session *session, const struct kmem_opts *o);

#endif
