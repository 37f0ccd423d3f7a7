/* SPDX-License-Identifier: MIT */
/* Shared between the histogram's entries (hists.c), output order (hists-sort.c) and callchain tries (hists-chain.c). */
#ifndef SONDE_SESSION_HISTS_INTERNAL_H
#define SONDE_SESSION_HISTS_INTERNAL_H

#include "lib/rbtree.h"
#include "session/hists.h"

#include <stdbool.h>

/*
 * trace_fields widths: perf's input tree of the entries, replayed
 * (hists-sort.c); hists_add() puts each new entry in.
 */
struct tf_node {
	RB_ENTRY(tf_node) rb;
	struct hist_entry *e;
};

RB_HEAD(tf_tree, tf_node);

/* hists.c */

/*
 * hists_sample_key_cmp - the keys that hold a value of the sample (time,
 * sizes, cgroup, weights): <0 when @a goes first (ascending)
 */
int hists_sample_key_cmp(enum sort_key key, const struct hist_entry *a,
			 const struct hist_entry *b);

/* hists_memo_forget - no slot of the --children memo is valid any more */
void hists_memo_forget(struct hists *hists);

/* hists-sort.c */

/* hists_has_fields_key - trace_fields (or trace_fields/raw) is a sort key */
bool hists_has_fields_key(const struct hists *hists);

/* hists_tf_insert - walk @t as perf inserts @e (or a sample of it), marking what it reads; link @n */
void hists_tf_insert(const struct hists *hists, struct tf_tree *t, struct hist_entry *e,
		     struct tf_node *n);

/* hists_tf_release - free the replayed trace_fields tree @t (NULL: nothing) */
void hists_tf_release(struct tf_tree *t);

/* hists-chain.c */

/* hists_links_release - free the callchain nodes' tree links (hists_release) */
void hists_links_release(struct hists *hists);

/* hists_chain_memos_release - free the entries' chain memos (hists_release) */
void hists_chain_memos_release(struct hists *hists);

/*
 * hists_chain_append - add the path @cur[0..n) (raw ips @ips) to @e's trie
 * with @period, as perf's red-black walk finds children; only the end
 * node's hit grows (hists_chains_sum() makes the cumulative periods)
 */
void hists_chain_append(struct hists *hists, struct hist_entry *e, const struct frame *const *cur,
			const u64 *ips, u32 n, u64 period);

/* hists_chains_sum - every callchain node's cumul: its hit plus its children's cumul */
void hists_chains_sum(struct hists *hists);

#endif
