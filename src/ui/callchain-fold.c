/* SPDX-License-Identifier: MIT */
/* The report TUI's callchain lines: perf's tree folded node by node, and the fold state. */
#include "ui/callchain-fold.h"

#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "ui/callchain.h"

#include <stdlib.h>
#include <string.h>

/*
 * What perf 6.1's hist browser shows, as seen on its screens (graph and
 * fractal):
 *
 *	-   48.27%  ...  [.] start_thread     the entry's row
 *	     start_thread                     an only child at the top: its frames,
 *	     worker                           no percent, its last line folds its
 *	   - spin                             children
 *	      - 42.77% path_c                 a branch: the percent, the marker of
 *	           38.15% hot                 its children; theirs 3 columns right
 *	         - 4.62% path_b               a branch with more frames: the first
 *	              hot                     line folds the others, 3 columns right
 *	        4.62% hot                     a leaf: no marker
 *
 * An only child deeper down shows no percent and keeps its frames in one
 * column (its first line still folds the others). On the first level, a
 * node shown alone has no marker on its first line: the entry's own marker
 * stands for it. Percent lines below the threshold are not shown, and
 * print_limit is not applied (perf's browser ignores it).
 */

#define COL_FIRST 5	/* where the first level's frames start */
#define COL_STEP 3	/* one level deeper */

/* marker kinds, the key's high half: the node's other frames, its children, a flat path */
enum { KEY_RUN = 1, KEY_KIDS, KEY_PATH };

static u64 fold_key(int kind, u32 node)
{
	return (u64)kind << 32 | node;
}

void chain_fold_init(struct chain_fold *f)
{
	u64map_init(&f->flipped);
	u64map_init(&f->paths);
	f->all_open = false;
}

void chain_fold_release(struct chain_fold *f)
{
	u64map_release(&f->flipped);
	u64map_release(&f->paths);
}

void chain_fold_reset(struct chain_fold *f, bool open)
{
	u64map_release(&f->flipped);
	u64map_init(&f->flipped);
	f->all_open = open;
}

void chain_fold_toggle(struct chain_fold *f, u64 key)
{
	struct u64map *m = key >> 32 == KEY_PATH ? &f->paths : &f->flipped;

	if (!u64map_remove(m, key))
		u64map_set(m, key, (void *)1);
}

/* is_open - @key's marker shows '-' */
static bool is_open(const struct chain_fold *f, u64 key)
{
	if (key >> 32 == KEY_PATH)
		return u64map_find(&f->paths, key) != NULL;
	return f->all_open != (u64map_find(&f->flipped, key) != NULL);
}

void fold_lines_release(struct fold_lines *fl)
{
	for (int i = 0; i < fl->nr; i++)
		free(fl->v[i].text);
	free(fl->v);
	memset(fl, 0, sizeof(*fl));
}

/* struct fold_build - one entry's lines being made */
struct fold_build {
	const struct hists *h;
	const struct hists_print_opts *o;
	const struct chain_fold *f;
	struct fold_lines *out;
	struct strbuf sb;
	bool fractal;
	u64 entry_whole;	/* the entry's period: the 100% of fractal's first level */
	struct { u32 *idx; size_t alloc; } *kids; /* the children picked, per depth */
	size_t kids_alloc;
};

static double share_of(u64 part, u64 whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/*
 * add_line - a line naming @fr (or @label when set) at column @col, its
 * marker for @key (0: none) two columns left, @pct before the name unless
 * negative
 */
static void add_line(struct fold_build *b, int col, u64 key, bool open, double pct,
		     const struct frame *fr, const char *label)
{
	struct fold_line *l;

	strbuf_reset(&b->sb);
	strbuf_addchars(&b->sb, ' ', (size_t)col - 2);
	strbuf_addstr(&b->sb, !key ? "  " : open ? "- " : "+ ");
	if (pct >= 0)
		strbuf_addf(&b->sb, "%.2f%% ", pct);
	if (label)
		strbuf_addstr(&b->sb, label);
	else
		chain_frame_label(&b->sb, fr);
	b->out->v = xgrow(b->out->v, (size_t)b->out->nr + 1, &b->out->alloc, sizeof(*b->out->v));
	l = &b->out->v[b->out->nr++];
	l->text = xstrdup(b->sb.buf);
	l->key = key;
	l->open = key && open;
	l->frame = fr;
}

static u32 pick(struct fold_build *b, u32 parent, size_t depth)
{
	size_t had = b->kids_alloc;

	if (depth >= had) {
		b->kids = xgrow(b->kids, depth + 1, &b->kids_alloc, sizeof(*b->kids));
		memset(b->kids + had, 0, (b->kids_alloc - had) * sizeof(*b->kids));
	}
	return chain_pick_branches(b->h, b->o, parent, &b->kids[depth].idx, &b->kids[depth].alloc);
}

/*
 * emit_node - the node of perf's tree that starts at @x (the run of lone
 * children from @x), its name at column @col, and what of it is unfolded.
 * @bare: an only child (no percent, its frames in one column); @whole: the
 * 100% of a fractal percent; @top_alone: shown alone on the first level.
 */
static void emit_node(struct fold_build *b, u32 x, u64 whole, bool bare, bool top_alone, int col,
		      size_t depth)
{
	const struct hists *h = b->h;
	u32 last = chain_run_last(h, x), nr_frames = 1, nr_kids;
	const struct cc_node *ln = hists_node(h, last);
	bool run_mark, run_open, kids_open;
	int rest_col = bare ? col : col + COL_STEP;
	double pct = bare ? -1.0
			  : share_of(hists_node(h, x)->cumul, b->fractal ? whole : h->total_period);

	for (u32 y = x; y != last; y = chain_run_next(h, y))
		nr_frames++;
	nr_kids = pick(b, last, depth);
	run_mark = nr_frames > 1 && !top_alone;
	run_open = !run_mark || is_open(b->f, fold_key(KEY_RUN, x));
	kids_open = nr_kids && is_open(b->f, fold_key(KEY_KIDS, x));
	if (run_mark)
		add_line(b, col, fold_key(KEY_RUN, x), run_open, pct, hists_node(h, x)->frame, NULL);
	else
		add_line(b, col, nr_frames == 1 && nr_kids ? fold_key(KEY_KIDS, x) : 0, kids_open,
			 pct, hists_node(h, x)->frame, NULL);
	if (!run_open)
		return;
	for (u32 y = x; y != last;) {
		y = chain_run_next(h, y);
		add_line(b, rest_col, y == last && nr_kids ? fold_key(KEY_KIDS, x) : 0, kids_open,
			 -1.0, hists_node(h, y)->frame, NULL);
	}
	if (!kids_open)
		return;
	/*
	 * fractal: the shares of what goes on below the samples ending here
	 * (also under the top's lone node, where stdio takes the entry's)
	 */
	whole = ln->cumul - ln->hit;
	for (u32 i = 0; i < nr_kids; i++)
		emit_node(b, b->kids[depth].idx[i], whole, ln->nr_children == 1, false,
			  (nr_frames == 1 ? col : rest_col) + COL_STEP, depth + 1);
}

static void tree_lines(struct fold_build *b, const struct hist_entry *e)
{
	const struct hists *h = b->h;
	u32 nr = pick(b, e->chain, 0);
	bool bare = hists_node(h, e->chain)->nr_children == 1;

	for (u32 i = 0; i < nr; i++)
		emit_node(b, b->kids[0].idx[i], b->entry_whole, bare, nr == 1, COL_FIRST, 1);
}

/*
 * path_lines - -g flat and folded: a path is a node of the first level
 * (its first frame, or all joined by ';', then the rest of its frames). An
 * entry's only path shows its frames alone. A path that is one node of the
 * tree's first level folds as that node, the others on their own: perf's
 * E and C leave them as they are.
 */
static void path_lines(struct fold_build *b, const struct hist_entry *e, u64 whole, bool folded)
{
	const struct hists *h = b->h;
	struct chain_paths ps;
	struct strbuf label = STRBUF_INIT;
	bool alone;

	chain_paths_collect(h, e, whole, &ps);
	alone = ps.nr_all == 1;
	for (size_t i = 0; i < ps.nr; i++) {
		const struct chain_path *cp = &ps.paths[i];
		const struct frame *const *fr = ps.pool + cp->first;
		const struct cc_node *n = hists_node(h, cp->node);
		u64 key = fold_key(KEY_PATH, cp->node);
		bool mark = cp->len > 1 && ps.nr > 1 && !alone, open;
		double pct = alone ? -1.0 : share_of(folded ? n->hit : n->cumul, whole);

		/* a path that is a node of the first level folds with that node (E, C) */
		for (u32 c = hists_node(h, e->chain)->first_child; c; c = hists_node(h, c)->next_sibling)
			if (chain_run_last(h, c) == cp->node) {
				key = fold_key(KEY_RUN, c);
				break;
			}
		open = !mark || is_open(b->f, key);
		if (folded) {
			strbuf_reset(&label);
			for (u32 d = 0; d < cp->len; d++) {
				if (d)
					strbuf_addch(&label, ';');
				chain_frame_label(&label, fr[d]);
			}
			add_line(b, COL_FIRST, mark ? key : 0, open, pct, fr[0], label.buf);
			continue;
		}
		add_line(b, COL_FIRST, mark ? key : 0, open, pct, fr[0], NULL);
		for (u32 d = 1; open && d < cp->len; d++)
			add_line(b, alone ? COL_FIRST : COL_FIRST + COL_STEP, 0, false, -1.0, fr[d], NULL);
	}
	strbuf_release(&label);
	chain_paths_release(&ps);
}

void chain_fold_lines(const struct hists *h, const struct hist_entry *e,
		      const struct hists_print_opts *o, u64 whole, const struct chain_fold *f,
		      struct fold_lines *out)
{
	struct fold_build b = {
		.h = h,
		.o = o,
		.f = f,
		.out = out,
		.sb = STRBUF_INIT,
		.fractal = h->opts.cc.mode == CHAIN_GRAPH_REL,
		.entry_whole = h->opts.children ? e->acc_period : e->period,
	};

	fold_lines_release(out);
	if (!e->chain || !h->opts.use_callchain)
		return;
	switch (h->opts.cc.mode) {
	case CHAIN_GRAPH_ABS:
	case CHAIN_GRAPH_REL:
		tree_lines(&b, e);
		break;
	case CHAIN_FLAT:
	case CHAIN_FOLDED:
		path_lines(&b, e, whole, h->opts.cc.mode == CHAIN_FOLDED);
		break;
	case CHAIN_NONE:
		break;
	}
	for (size_t i = 0; i < b.kids_alloc; i++)
		free(b.kids[i].idx);
	free(b.kids);
	strbuf_release(&b.sb);
}
