/* SPDX-License-Identifier: MIT */
/* perf report --stdio: the callchains under an entry (graph, fractal, flat, folded). */
#ifndef SONDE_UI_CALLCHAIN_H
#define SONDE_UI_CALLCHAIN_H

#include "lib/strbuf.h"
#include "ui/hists.h"

#include <stdio.h>

/*
 * hist_entry_fprintf_callchain - the callchain lines perf prints below the
 * row of @e, in the -g mode of @hists. @whole is the 100% of flat and folded
 * lines (the percent columns' total). Prints nothing without a callchain.
 */
void hist_entry_fprintf_callchain(const struct hists *hists, const struct hist_entry *e,
				  const struct hists_print_opts *o, u64 whole, FILE *fp);

/*
 * What the stdio printer and the TUI's folding view (ui/callchain-fold.c)
 * share: the names of frames, the runs of lone children, the threshold.
 */

/* chain_frame_label - a frame as callchain lines name it: symbol, " (inlined)", or the raw ip */
void chain_frame_label(struct strbuf *sb, const struct frame *f);

/*
 * chain_run_next - the node after @x on a run of lone children (one line
 * after another, as one node of perf's tree); 0 where the path forks or
 * samples end
 */
u32 chain_run_next(const struct hists *h, u32 x);
/* chain_run_last - the last node of the run @x starts */
u32 chain_run_last(const struct hists *h, u32 x);

/* chain_branch_min - the period a child of @parent needs to be drawn (-g's threshold) */
u64 chain_branch_min(const struct hists *h, const struct hists_print_opts *o, u32 parent);

/*
 * chain_pick_branches - the children of @parent heavy enough to draw,
 * heaviest first, into *@idx (grown as needed). Returns how many.
 */
u32 chain_pick_branches(const struct hists *h, const struct hists_print_opts *o, u32 parent,
			u32 **idx, size_t *alloc);

/* struct chain_path - one path of -g flat/folded: its frames are pool[first, first + len) */
struct chain_path {
	u32 node;	/* where its samples end */
	u32 rank;	/* when the walk finished it */
	size_t first;
	u32 len;
};

/* struct chain_paths - an entry's paths as -g flat and folded list them, in their order */
struct chain_paths {
	struct chain_path *paths;
	size_t nr;
	size_t nr_all;		    /* paths before the threshold and print_limit */
	const struct frame **pool;  /* frames of every path, end to end, outermost first */
	size_t nr_pool;
};

/* chain_paths_collect - @e's paths over the threshold (@whole is the 100%) into @out */
void chain_paths_collect(const struct hists *h, const struct hist_entry *e, u64 whole,
			 struct chain_paths *out);
void chain_paths_release(struct chain_paths *cp);

#endif
