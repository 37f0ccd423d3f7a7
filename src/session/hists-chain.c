/* SPDX-License-Identifier: MIT */
/* Histogram callchain tries: perf's child walk, cumulative periods, children in output order. */
#include "session/hists.h"
#include "session/hists-internal.h"

#include "lib/rbtree.h"
#include "lib/xalloc.h"
#include "session/resolve.h"

#include <stdlib.h>
#include <string.h>

/*
 * struct cc_link - the tree side of callchain node @node (same index): its
 * place in its parent's children tree, the root of its own, and the key
 * the walk compares. Links live in chunks that never move (the nodes'
 * array moves as it grows), and a walk down a chain reads only links.
 */
RB_HEAD(cc_kids, cc_link);

struct cc_link {
	RB_ENTRY(cc_link) rb;
	struct cc_kids kids;
	const struct frame *frame; /* the node's */
	u64 ip;			   /* the raw ip of the chain that made the node */
	u32 node;
	/*
	 * the child the last walk from here found for a frame, the child's
	 * own, when no compare on that walk's path looked at the raw ip:
	 * while no child is added here, the same frame walks the same path
	 * to the same child (0: none)
	 */
	u32 hint;
};

RBTREE_GENERATE_LINKED(cc_kids, cc_link, rb)

/* a link is one cache line, its chunk line-aligned: a walk reads one line per node */
_Static_assert(sizeof(struct cc_link) == 64, "struct cc_link is one cache line");
#define LINKS_PER_CHUNK 4096u
/* past the first 2 MiB of links, chunks come in blocks of a huge page */
#define HUGE_BYTES ((size_t)2 << 20)
#define LINK_CHUNKS_PER_BLOCK ((u32)(HUGE_BYTES / (LINKS_PER_CHUNK * sizeof(struct cc_link))))
_Static_assert(LINK_CHUNKS_PER_BLOCK == 8, "eight chunks of links make a huge page");

/* link_at - the link of node @idx */
static inline struct cc_link *link_at(const struct hists *hists, u32 idx)
{
	return &hists->link_chunks[idx / LINKS_PER_CHUNK][idx % LINKS_PER_CHUNK];
}

/* node_new - a node (and its link) for @frame at raw ip @ip, in no tree yet */
static u32 node_new(struct hists *hists, const struct frame *frame, u64 ip)
{
	u32 idx = hists->nr_nodes;
	struct cc_link *l;

	if (idx == hists->alloc_nodes) {
		size_t bytes;

		hists->alloc_nodes *= 2;
		hists->nodes = xreallocarray(hists->nodes, hists->alloc_nodes, sizeof(*hists->nodes));
		/* a big pool is faulted in page by page as it fills: huge pages fault 512x less */
		bytes = (size_t)hists->alloc_nodes * sizeof(*hists->nodes);
		if (bytes >= 4 * HUGE_BYTES)
			madvise_huge(hists->nodes, bytes);
	}
	if (idx / LINKS_PER_CHUNK == hists->nr_link_chunks) {
		u32 k = hists->nr_link_chunks;

		hists->link_chunks = xreallocarray(hists->link_chunks, (k + LINK_CHUNKS_PER_BLOCK),
						   sizeof(*hists->link_chunks));
		if (k < LINK_CHUNKS_PER_BLOCK) {
			/* a small trie: chunk by chunk, in small pages */
			hists->link_chunks[hists->nr_link_chunks++] =
				xaligned_alloc(64, LINKS_PER_CHUNK * sizeof(**hists->link_chunks));
		} else {
			/* a big one: a huge page's block of chunks (hists_release frees blocks) */
			struct cc_link *block = xhuge_alloc(HUGE_BYTES);

			for (u32 j = 0; j < LINK_CHUNKS_PER_BLOCK; j++)
				hists->link_chunks[hists->nr_link_chunks++] = block + j * LINKS_PER_CHUNK;
		}
	}
	memset(&hists->nodes[idx], 0, sizeof(*hists->nodes));
	hists->nodes[idx].frame = frame;
	l = link_at(hists, idx);
	RB_INIT(&l->kids);
	l->frame = frame;
	l->ip = ip;
	l->node = idx;
	l->hint = 0;
	return hists->nr_nodes++;
}

/*
 * chain_match - perf's match of an existing child @c against the frame @f
 * at raw ip @ip: 0 equal, <0 (MATCH_LT: the walk goes left) when @c sorts
 * before. Dsos by creation (perf: by heap address), then symbol starts when
 * both have a symbol (names for inlined ones), else the raw ips; this
 * mixed order is not total, as in perf.
 */
static int chain_match(const struct cc_link *c, const struct frame *f, u64 ip, bool *used_ip)
{
	const struct frame *cf = c->frame;
	long dc, df;

	if (cf == f)
		return 0;
	dc = cf->dso ? (long)cf->dso->id : -1;
	df = f->dso ? (long)f->dso->id : -1;
	if (dc != df)
		return dc < df ? -1 : 1;
	if (cf->sym && f->sym) {
		if (cf->inlined || f->inlined) {
			int r = strcmp(cf->sym->name, f->sym->name);

			return r < 0 ? -1 : r > 0;
		}
		return cf->sym->start < f->sym->start ? -1 : cf->sym->start > f->sym->start;
	}
	*used_ip = true;
	return c->ip < ip ? -1 : c->ip > ip;
}

/*
 * struct chain_memo - an entry's last appended chain and the node it ended
 * at, when that append added no node and no compare on its walk looked at
 * a raw ip: the entry's trie has not changed since (only its own appends
 * change it), so the same frames walk to the same end. A sample stream
 * repeats chains (the same suffixes in --children), and comparing an
 * array beats chasing the trie's nodes.
 */
struct chain_memo {
	const struct frame **frames;
	u32 n, alloc;
	u32 end; /* the end node, 0: the memo holds nothing */
};

void hists_links_release(struct hists *hists)
{
	/* chunks past the first block's worth were allocated a block at a time */
	for (u32 i = 0; i < hists->nr_link_chunks; i++)
		if (i < LINK_CHUNKS_PER_BLOCK || i % LINK_CHUNKS_PER_BLOCK == 0)
			free(hists->link_chunks[i]);
	free(hists->link_chunks);
	hists->link_chunks = NULL;
	hists->nr_link_chunks = 0;
}

void hists_chain_memos_release(struct hists *hists)
{
	for (u32 i = 0; i < hists->nr_chain_memos; i++)
		free(hists->chain_memos[i].frames);
	free(hists->chain_memos);
	hists->chain_memos = NULL;
	hists->nr_chain_memos = hists->alloc_chain_memos = 0;
}

/* entry_memo - @e's memo, made empty on first use */
static struct chain_memo *entry_memo(struct hists *hists, struct hist_entry *e)
{
	if (!e->chain_memo) {
		if (hists->nr_chain_memos == hists->alloc_chain_memos) {
			hists->alloc_chain_memos = hists->alloc_chain_memos ? 2 * hists->alloc_chain_memos : 256;
			hists->chain_memos = xreallocarray(hists->chain_memos, hists->alloc_chain_memos,
							   sizeof(*hists->chain_memos));
		}
		memset(&hists->chain_memos[hists->nr_chain_memos], 0, sizeof(struct chain_memo));
		e->chain_memo = ++hists->nr_chain_memos;
	}
	return &hists->chain_memos[e->chain_memo - 1];
}

/*
 * hists_chain_append - add the path @cur[0..n) (raw ips @ips) to @e's trie with @period, finding children as perf's
 * red-black walk does: it stops at the first match on its path, and a
 * miss links a new child where it ended. Only the end node's hit grows:
 * hists_chains_sum() makes the cumulative periods once, before output.
 */
void hists_chain_append(struct hists *hists, struct hist_entry *e, const struct frame *const *cur,
			const u64 *ips, u32 n, u64 period)
{
	struct chain_memo *m = entry_memo(hists, e);
	bool changed = false, used_ip = false;
	struct cc_link *l;
	u32 idx;

	bool shortcuts = !hists->opts.chain_walk_all;

	if (shortcuts && m->end && m->n == n && !memcmp(m->frames, cur, n * sizeof(*cur))) {
		hists->nodes[m->end].hit += period;
		hists->nodes[m->end].count++;
		return;
	}
	if (!e->chain)
		e->chain = node_new(hists, NULL, 0);
	if (n > e->max_depth)
		e->max_depth = n;
	l = link_at(hists, e->chain);
	for (u32 i = 0; i < n; i++) {
		const struct frame *f = cur[i];
		u64 ip = ips[i];
		struct cc_link *x, *parent = NULL;
		bool walk_ip = false;
		int r = 1;

		/* consecutive samples mostly share their chains: the last walk's answer */
		if (l->hint && shortcuts) {
			x = link_at(hists, l->hint);
			if (x->frame == f) {
				l = x;
				continue;
			}
		}
		x = RB_ROOT(&l->kids);
		while (x) {
			r = chain_match(x, f, ip, &walk_ip);
			if (!r)
				break;
			parent = x;
			x = r < 0 ? RB_LEFT(x, rb) : RB_RIGHT(x, rb);
		}
		if (x) {
			/* a hint is the same frame's answer, so its match was by identity */
			l->hint = walk_ip || x->frame != f ? 0 : x->node;
			used_ip |= walk_ip;
		} else {
			u32 c = node_new(hists, f, ip);
			struct cc_node *N = hists->nodes;

			x = link_at(hists, c);
			N[c].next_sibling = N[l->node].first_child;
			N[l->node].first_child = c;
			N[l->node].nr_children++;
			RBTREE_LINK(cc_kids, &l->kids, x, parent, r < 0);
			/* the new child may reshape the walks: none is known now */
			l->hint = 0;
			changed = true;
		}
		l = x;
	}
	idx = l->node;
	hists->nodes[idx].hit += period;
	hists->nodes[idx].count++;
	m->end = 0;
	if (!changed && !used_ip) {
		if (n > m->alloc) {
			m->alloc = n;
			m->frames = xreallocarray(m->frames, n, sizeof(*m->frames));
		}
		memcpy(m->frames, cur, n * sizeof(*cur));
		m->n = n;
		m->end = idx;
	}
}

void hists_chain_cursor(const struct hists *hists, const struct resolved_frame *chain, u32 n,
			const struct frame **frames, u64 *ips)
{
	bool caller = hists->opts.cc.order == ORDER_CALLER;

	for (u32 i = 0; i < n; i++) {
		const struct resolved_frame *rf = &chain[caller ? n - 1 - i : i];

		frames[i] = rf->frame;
		ips[i] = rf->ip;
	}
}

static int cmp_u64(u64 a, u64 b)
{
	return a < b ? -1 : a > b;
}

/*
 * hists_chains_sum - every node's cumul: its hit plus its children's cumul. A
 * child is made after its parent, so a walk down the indexes meets the
 * children first.
 */
void hists_chains_sum(struct hists *hists)
{
	struct cc_node *N = hists->nodes;

	for (u32 i = hists->nr_nodes; i-- > 1;) {
		u64 sum = N[i].hit;

		for (u32 c = N[i].first_child; c; c = N[c].next_sibling)
			sum += N[c].cumul;
		N[i].cumul = sum;
	}
}

int hists_frame_order(const struct frame *a, const struct frame *b)
{
	long da = a->dso ? (long)a->dso->id : -1, db = b->dso ? (long)b->dso->id : -1;
	u64 xa, xb;

	/* perf's callchain children tree keeps equal siblings highest address first */
	if (da != db)
		return da > db ? -1 : 1;
	/* perf compares symbol starts when both frames have one, else the raw addresses */
	xa = a->sym && b->sym ? a->sym->start : a->ip;
	xb = a->sym && b->sym ? b->sym->start : b->ip;
	return cmp_u64(xb, xa);
}


struct kid_rank {
	u64 cumul;
	u32 pos, node;
};

/* by cumul descending, ties in the tree's order */
static int kid_rank_cmp(const void *pa, const void *pb)
{
	const struct kid_rank *a = pa, *b = pb;

	if (a->cumul != b->cumul)
		return a->cumul > b->cumul ? -1 : 1;
	return a->pos < b->pos ? -1 : a->pos > b->pos;
}

u32 hists_sorted_children(const struct hists *hists, u32 node_idx, u32 **out, size_t *alloc)
{
	const struct cc_node *N = hists->nodes;
	struct cc_link *x;
	u32 nr = 0;

	*out = xgrow(*out, N[node_idx].nr_children, alloc, sizeof(**out));
	/* perf walks its children tree in order, then sorts by cumul (ties keep that order) */
	RB_FOREACH(x, cc_kids, &link_at(hists, node_idx)->kids)
		(*out)[nr++] = x->node;
	if (nr > 1) {
		struct kid_rank *k = xmalloc(nr * sizeof(*k));

		for (u32 i = 0; i < nr; i++)
			k[i] = (struct kid_rank){ N[(*out)[i]].cumul, i, (*out)[i] };
		qsort(k, nr, sizeof(*k), kid_rank_cmp);
		for (u32 i = 0; i < nr; i++)
			(*out)[i] = k[i].node;
		free(k);
	}
	return nr;
}
