/* SPDX-License-Identifier: MIT */
/* The report TUI's callchain lines: perf's tree folded node by node, and the fold state. */
#ifndef SONDE_UI_CALLCHAIN_FOLD_H
#define SONDE_UI_CALLCHAIN_FOLD_H

#include "lib/hashmap.h"
#include "ui/hists.h"

#include <stdbool.h>

/*
 * struct chain_fold - which markers of the browser's callchain lines are
 * open ('-'). Everything starts folded; 'E' opens all, 'C' folds all, and
 * a key toggles one marker. A marker is named by a key (the node it folds
 * and what of it: the rest of its frames, its children, a flat path).
 */
struct chain_fold {
	struct u64map flipped;	/* keys toggled since the last E or C */
	bool all_open;		/* E came last: unflipped markers are open */
	struct u64map paths;	/* flat paths unfolded (E and C do not reach them) */
};

void chain_fold_init(struct chain_fold *f);
void chain_fold_release(struct chain_fold *f);
/* chain_fold_reset - every marker folded (C) or open (E), but for the flat paths' own */
void chain_fold_reset(struct chain_fold *f, bool open);
/* chain_fold_toggle - the marker @key the other way */
void chain_fold_toggle(struct chain_fold *f, u64 key);

/* struct fold_line - one callchain line of an expanded entry */
struct fold_line {
	char *text;		   /* the line: indentation, marker, percent, frame(s) */
	u64 key;		   /* what its marker folds; 0: the line has no marker */
	bool open;		   /* the marker shows '-' */
	const struct frame *frame; /* the frame it names (a folded line: the first) */
};

struct fold_lines {
	struct fold_line *v;
	int nr;
	size_t alloc;
};

/*
 * chain_fold_lines - the callchain lines perf's TUI shows under the row of
 * @e with the markers of @f, in the -g mode of @h: a node of perf's tree
 * (a run of lone children) has a '+'/'-' on its first line for the rest of
 * its frames, and on its last line for its children. @whole is the 100%
 * of flat and folded lines. Replaces what @out held.
 */
void chain_fold_lines(const struct hists *h, const struct hist_entry *e,
		      const struct hists_print_opts *o, u64 whole, const struct chain_fold *f,
		      struct fold_lines *out);
void fold_lines_release(struct fold_lines *fl);

#endif
