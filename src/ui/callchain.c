/* SPDX-License-Identifier: MIT */
/* perf report --stdio callchains: graph and fractal trees, flat and folded path lists. */
#include "ui/callchain.h"

#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <stdlib.h>
#include <string.h>

/*
 * The tree views (-g graph, -g fractal), as perf report --stdio draws them:
 *
 *	            |                       a stem: the entry's one path, when
 *	            ---hot                  it alone makes the whole entry
 *	               spin
 *	               |
 *	               |--16.14%--main      a branch: a spacer line, its head
 *	               |          start     with its share, then the rest of its
 *	               |                    run of lone children
 *	                --10.26%--path_b    the last branch: its column closes
 *	                          spin
 *
 * Branches of level L own the L-th 11-character column after the margin.
 * A column shows '|' while its level has more lines to come, ' ' after its
 * last branch. Fractal shares are of the parent's children only, and what
 * the shown branches leave out ends the level as "--N%--[...]".
 */

#define TREE_MARGIN 12	/* the tree starts under the row's first percent */
#define STEM_ARROW "---"
#define COLUMN_WIDTH 11 /* '|' or ' ', then room for "--NN.NN%--" */

/* struct kid_buf - children of one node, reused level by level */
struct kid_buf {
	u32 *idx;
	size_t alloc;
};

/* struct tree_level - what the drawing knows about one level of branches */
struct tree_level {
	struct kid_buf kids; /* the branches picked at this level */
};

/*
 * Which columns show '|' (more lines of their level follow). perf keeps
 * this in a 32-bit mask, so levels 32 apart share a bit: below level 32 a
 * deeper level's state shows in the column of the level 32 above it (found
 * on 127-frame recursions). sonde draws the same.
 */
#define OPEN_SLOTS 32

/* struct tree_draw - one entry's graph or fractal tree being printed */
struct tree_draw {
	const struct hists *hists;
	FILE *fp;
	bool fractal;
	double threshold;    /* -g's minimum percent */
	u64 graph_min;	     /* graph: the period a branch needs */
	u64 graph_whole;     /* graph: the 100% of every share */
	u32 limit;	     /* -g print_limit: branches per level, stem frames (0: all) */
	int margin;	     /* blanks before the first column (more under a stem) */
	struct tree_level *levels; /* [0] the root's pick, [L] level L */
	bool open[OPEN_SLOTS];	   /* level L's column shows '|': open[L % OPEN_SLOTS] */
	size_t levels_alloc;
	struct strbuf line;
	size_t nr_written;   /* frame and "[...]" lines */
};

static double share_of(u64 part, u64 whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

void chain_frame_label(struct strbuf *sb, const struct frame *f)
{
	if (!f->sym) {
		strbuf_addf(sb, "%#llx", (unsigned long long)f->ip);
		return;
	}
	strbuf_addstr(sb, f->sym->name);
	if (f->inlined)
		strbuf_addstr(sb, " (inlined)");
}

u32 chain_run_next(const struct hists *h, u32 x)
{
	const struct cc_node *n = hists_node(h, x);

	return n->nr_children == 1 && !n->hit ? n->first_child : 0;
}

u32 chain_run_last(const struct hists *h, u32 x)
{
	for (u32 y = chain_run_next(h, x); y; y = chain_run_next(h, x))
		x = y;
	return x;
}

u64 chain_branch_min(const struct hists *h, const struct hists_print_opts *o, u32 parent)
{
	const struct callchain_opts *cc = &h->opts.cc;
	/* the threshold counts the samples filters dropped unless --percentage relative */
	u64 min_base = o->percent_absolute ? h->total_period : h->period_unfiltered;

	if (cc->mode == CHAIN_GRAPH_REL) {
		const struct cc_node *n = hists_node(h, parent);

		return (u64)((double)(n->cumul - n->hit) * cc->min_percent / 100.0);
	}
	return (u64)((double)min_base * cc->min_percent / 100.0);
}

u32 chain_pick_branches(const struct hists *h, const struct hists_print_opts *o, u32 parent,
			u32 **idx, size_t *alloc)
{
	u32 nr = hists_sorted_children(h, parent, idx, alloc), nr_kept = 0;
	u64 need = chain_branch_min(h, o, parent);

	for (u32 i = 0; i < nr; i++)
		if (hists_node(h, (*idx)[i])->cumul >= need)
			(*idx)[nr_kept++] = (*idx)[i];
	return nr_kept;
}

static struct tree_level *level_at(struct tree_draw *t, int lvl)
{
	size_t had = t->levels_alloc;

	if ((size_t)lvl >= had) {
		t->levels = xgrow(t->levels, (size_t)lvl + 1, &t->levels_alloc, sizeof(*t->levels));
		memset(t->levels + had, 0, (t->levels_alloc - had) * sizeof(*t->levels));
	}
	return &t->levels[lvl];
}

/*
 * pick_branches - the children of @parent heavy enough to draw, heaviest
 * first, into level @lvl's buffer. Returns how many.
 */
static u32 pick_branches(struct tree_draw *t, u32 parent, int lvl)
{
	const struct hists *h = t->hists;
	struct kid_buf *kb = &level_at(t, lvl)->kids;
	u32 nr = hists_sorted_children(h, parent, &kb->idx, &kb->alloc), nr_kept = 0;
	u64 need = t->graph_min;

	if (t->fractal) {
		const struct cc_node *n = hists_node(h, parent);

		need = (u64)((double)(n->cumul - n->hit) * t->threshold / 100.0);
	}
	for (u32 i = 0; i < nr; i++)
		if (hists_node(h, kb->idx[i])->cumul >= need)
			kb->idx[nr_kept++] = kb->idx[i];
	return nr_kept;
}

/* line_begin - a new line: the margin and the columns of the levels above @lvl */
static void line_begin(struct tree_draw *t, int lvl)
{
	strbuf_reset(&t->line);
	strbuf_addchars(&t->line, ' ', (size_t)t->margin);
	for (int k = 1; k < lvl; k++) {
		strbuf_addch(&t->line, t->open[k % OPEN_SLOTS] ? '|' : ' ');
		strbuf_addchars(&t->line, ' ', COLUMN_WIDTH - 1);
	}
}

static void line_end(struct tree_draw *t)
{
	strbuf_addch(&t->line, '\n');
	fwrite(t->line.buf, 1, t->line.len, t->fp);
}

/* frame_line - a frame of a branch's run below its head, in column @lvl */
static void frame_line(struct tree_draw *t, int lvl, const struct frame *f)
{
	line_begin(t, lvl);
	strbuf_addch(&t->line, t->open[lvl % OPEN_SLOTS] ? '|' : ' ');
	strbuf_addchars(&t->line, ' ', COLUMN_WIDTH - 1);
	chain_frame_label(&t->line, f);
	line_end(t);
	t->nr_written++;
}

/*
 * draw_level - the branches below @parent as level @lvl. @whole is the 100%
 * of fractal shares (graph shares are of every sample).
 */
static void draw_level(struct tree_draw *t, u32 parent, int lvl, u64 whole)
{
	const struct hists *h = t->hists;
	u32 nr = pick_branches(t, parent, lvl);
	const u32 *kids = t->levels[lvl].kids.idx; /* stays put while deeper levels grow */
	u32 nr_shown = t->limit && t->limit < nr ? t->limit : nr;
	u64 picked = 0, shown = 0;

	for (u32 i = 0; i < nr; i++) {
		picked += hists_node(h, kids[i])->cumul;
		if (i < nr_shown)
			shown += hists_node(h, kids[i])->cumul;
	}
	for (u32 i = 0; i < nr_shown; i++) {
		u32 x = kids[i], next;
		const struct cc_node *head = hists_node(h, x);
		/* a fractal level left incomplete by the threshold ends with "[...]" */
		bool more = i + 1 < nr || (t->fractal && picked != whole);

		/* the branch's own column is open on its lead-in line */
		t->open[lvl % OPEN_SLOTS] = true;
		line_begin(t, lvl);
		strbuf_addch(&t->line, '|');
		strbuf_addchars(&t->line, ' ', COLUMN_WIDTH - 1);
		line_end(t);

		t->open[lvl % OPEN_SLOTS] = more;
		line_begin(t, lvl);
		strbuf_addf(&t->line, "%c--%.2f%%--", more ? '|' : ' ',
			    share_of(head->cumul, t->fractal ? whole : t->graph_whole));
		chain_frame_label(&t->line, head->frame);
		line_end(t);
		t->nr_written++;

		while ((next = chain_run_next(h, x))) {
			x = next;
			frame_line(t, lvl, hists_node(h, x)->frame);
		}
		draw_level(t, x, lvl + 1, hists_node(h, x)->cumul - hists_node(h, x)->hit);
	}
	if (t->fractal && shown && whole != shown) {
		line_begin(t, lvl);
		strbuf_addf(&t->line, " --%.2f%%--[...]", share_of(whole - shown, whole));
		line_end(t);
		t->nr_written++;
	}
}

/*
 * draw_stem - the entry's single path from @top down to its first fork, after
 * "---" (the entry's own frame left out when the rows sort by symbol first).
 * Returns the node whose children come next.
 */
static u32 draw_stem(struct tree_draw *t, u32 top, bool hide_top)
{
	const struct hists *h = t->hists;
	u32 nr_drawn = 0;

	for (u32 x = top; x; x = chain_run_next(h, x)) {
		if (x == top && hide_top)
			continue;
		if (t->limit && nr_drawn == t->limit)
			break;
		strbuf_reset(&t->line);
		if (!nr_drawn) {
			fprintf(t->fp, "%*s|\n", t->margin, "");
			strbuf_addchars(&t->line, ' ', (size_t)t->margin);
			strbuf_addstr(&t->line, STEM_ARROW);
			t->margin += (int)strlen(STEM_ARROW);
		} else {
			strbuf_addchars(&t->line, ' ', (size_t)t->margin);
		}
		chain_frame_label(&t->line, hists_node(h, x)->frame);
		line_end(t);
		t->nr_written++;
		nr_drawn++;
	}
	return chain_run_last(h, top);
}

static void print_tree(const struct hists *h, const struct hist_entry *e,
		       const struct hists_print_opts *o, FILE *fp)
{
	const struct callchain_opts *cc = &h->opts.cc;
	u64 entry_whole = h->opts.children ? e->acc_period : e->period;
	/* the threshold counts the samples filters dropped unless --percentage relative */
	u64 min_base = o->percent_absolute ? h->total_period : h->period_unfiltered;
	struct tree_draw t = {
		.hists = h,
		.fp = fp,
		.fractal = cc->mode == CHAIN_GRAPH_REL,
		.threshold = cc->min_percent,
		.graph_min = (u64)((double)min_base * cc->min_percent / 100.0),
		.graph_whole = h->total_period,
		.limit = cc->print_limit,
		.margin = TREE_MARGIN,
		.line = STRBUF_INIT,
	};
	u32 from = e->chain;

	if (pick_branches(&t, e->chain, 0) == 1) {
		u32 top = t.levels[0].kids.idx[0];

		if (hists_node(h, top)->cumul == entry_whole)
			from = draw_stem(&t, top, o->sym_first);
	}
	draw_level(&t, from, 1, entry_whole);
	if (t.nr_written)
		fputc('\n', fp);
	for (size_t i = 0; i < t.levels_alloc; i++)
		free(t.levels[i].kids.idx);
	free(t.levels);
	strbuf_release(&t.line);
}

/*
 * The path views (-g flat, -g folded): one item per node where samples end,
 * its frames from the outermost down. Items go heaviest first; equal ones
 * in the order a walk meets them finishing (children before their parent,
 * siblings in the callchain tree's frame order).
 */

struct path_walk {
	const struct hists *hists;
	u64 min_hit;
	const struct frame **stack; /* frames from the root to the node walked */
	size_t stack_alloc;
	struct chain_paths *out;
	size_t pool_alloc, paths_alloc;
	struct kid_buf *kids;	    /* per depth */
	size_t kids_alloc;
};

/* siblings in the tree's order (stable: equal frames keep their order) */
static void frame_order_sort(const struct hists *h, u32 *v, u32 nr)
{
	for (u32 i = 1; i < nr; i++) {
		u32 x = v[i], j = i;

		for (; j && hists_frame_order(hists_node(h, x)->frame, hists_node(h, v[j - 1])->frame) < 0;
		     j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

static void walk_paths(struct path_walk *w, u32 x, u32 depth)
{
	const struct hists *h = w->hists;
	const struct cc_node *n = hists_node(h, x);
	struct chain_paths *out = w->out;
	size_t had = w->kids_alloc;
	struct kid_buf *kb;
	u32 nr;

	if (depth) {
		w->stack = xgrow(w->stack, depth, &w->stack_alloc, sizeof(*w->stack));
		w->stack[depth - 1] = n->frame;
	}
	if (depth >= had) {
		w->kids = xgrow(w->kids, (size_t)depth + 1, &w->kids_alloc, sizeof(*w->kids));
		memset(w->kids + had, 0, (w->kids_alloc - had) * sizeof(*w->kids));
	}
	kb = &w->kids[depth];
	nr = hists_sorted_children(h, x, &kb->idx, &kb->alloc);
	frame_order_sort(h, kb->idx, nr);
	for (u32 i = 0; i < nr; i++)
		walk_paths(w, w->kids[depth].idx[i], depth + 1); /* w->kids may move */
	if (depth && n->hit)
		out->nr_all++;
	if (depth && n->hit && n->hit >= w->min_hit) {
		struct chain_path *cp;

		out->pool = xgrow(out->pool, out->nr_pool + depth, &w->pool_alloc, sizeof(*out->pool));
		memcpy(out->pool + out->nr_pool, w->stack, depth * sizeof(*w->stack));
		out->paths = xgrow(out->paths, out->nr + 1, &w->paths_alloc, sizeof(*out->paths));
		cp = &out->paths[out->nr];
		*cp = (struct chain_path){ .node = x, .rank = (u32)out->nr, .first = out->nr_pool,
					   .len = depth };
		out->nr_pool += depth;
		out->nr++;
	}
}

static int heavier_path_first(const void *pa, const void *pb, void *arg)
{
	const struct hists *h = arg;
	const struct chain_path *a = pa, *b = pb;
	u64 wa = hists_node(h, a->node)->hit, wb = hists_node(h, b->node)->hit;

	if (wa != wb)
		return wa > wb ? -1 : 1;
	return a->rank < b->rank ? -1 : a->rank > b->rank;
}

void chain_paths_collect(const struct hists *h, const struct hist_entry *e, u64 whole,
			 struct chain_paths *out)
{
	struct path_walk w = {
		.hists = h,
		.min_hit = (u64)((double)whole * h->opts.cc.min_percent / 100.0),
		.out = out,
	};
	size_t limit = h->opts.cc.print_limit;

	memset(out, 0, sizeof(*out));
	walk_paths(&w, e->chain, 0);
	if (out->nr > 1)
		qsort_r(out->paths, out->nr, sizeof(*out->paths), heavier_path_first, (void *)h);
	if (limit && limit < out->nr) /* -g print_limit: the heaviest paths only */
		out->nr = limit;
	for (size_t i = 0; i < w.kids_alloc; i++)
		free(w.kids[i].idx);
	free(w.kids);
	free(w.stack);
}

void chain_paths_release(struct chain_paths *cp)
{
	free(cp->pool);
	free(cp->paths);
	memset(cp, 0, sizeof(*cp));
}

static void print_paths(const struct hists *h, const struct hist_entry *e, u64 whole, bool folded,
			FILE *fp)
{
	struct chain_paths ps;
	struct strbuf sb = STRBUF_INIT;

	chain_paths_collect(h, e, whole, &ps);
	for (size_t i = 0; i < ps.nr; i++) {
		const struct chain_path *cp = &ps.paths[i];
		const struct cc_node *n = hists_node(h, cp->node);

		strbuf_reset(&sb);
		if (folded) /* one line: the samples ending here, frames joined by ';' */
			strbuf_addf(&sb, "%.2f%% ", share_of(n->hit, whole));
		else /* a block: the share through here, a frame a line, a blank line */
			strbuf_addf(&sb, "%11s%.2f%%\n", "", share_of(n->cumul, whole));
		for (u32 d = 0; d < cp->len; d++) {
			if (!folded)
				strbuf_addchars(&sb, ' ', 16);
			else if (d)
				strbuf_addch(&sb, ';');
			chain_frame_label(&sb, ps.pool[cp->first + d]);
			if (!folded)
				strbuf_addch(&sb, '\n');
		}
		strbuf_addch(&sb, '\n');
		fwrite(sb.buf, 1, sb.len, fp);
	}
	strbuf_release(&sb);
	chain_paths_release(&ps);
}

void hist_entry_fprintf_callchain(const struct hists *hists, const struct hist_entry *e,
				  const struct hists_print_opts *o, u64 whole, FILE *fp)
{
	if (!e->chain || !hists->opts.use_callchain)
		return;
	switch (hists->opts.cc.mode) {
	case CHAIN_GRAPH_ABS:
	case CHAIN_GRAPH_REL:
		print_tree(hists, e, o, fp);
		break;
	case CHAIN_FLAT:
		print_paths(hists, e, whole, false, fp);
		break;
	case CHAIN_FOLDED:
		print_paths(hists, e, whole, true, fp);
		break;
	case CHAIN_NONE:
		break;
	}
}
