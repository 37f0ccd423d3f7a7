/* SPDX-License-Identifier: MIT */
/* Histogram output order: sort-key comparison, perf's merge and output trees, trace_fields widths. */
#include "session/hists.h"
#include "session/hists-internal.h"

#include "lib/rbtree.h"
#include "lib/xalloc.h"

#include <stdlib.h>
#include <string.h>

/*
 * trace_fields widths. perf sizes a __data_loc field's column by the
 * length (its NUL counted) of the values it compared, and it compares
 * while inserting each sample into its input tree (and re-inserting the
 * entries into the collapse tree when comm is a key), reading only the
 * node in the tree. Replay those trees to know which values perf read.
 */
RBTREE_GENERATE_LINKED(tf_tree, tf_node, rb)

static int merge_cmp(const void *pa, const void *pb, void *arg);
static int key_cmp(const struct hists *hists, enum sort_key key, const struct hist_entry *a,
		   const struct hist_entry *b);

static bool is_fields_key(enum sort_key k)
{
	return k == SORT_TRACE_FIELDS || k == SORT_TRACE_FIELDS_RAW;
}

bool hists_has_fields_key(const struct hists *hists)
{
	for (int i = 0; i < hists->opts.nr_keys; i++)
		if (is_fields_key(hists->opts.keys[i]))
			return true;
	return false;
}

/* fields_reached - the fields perf reads comparing @a with @b: up to the first that differs */
static u64 fields_reached(const struct hists *hists, const struct hist_entry *a,
			  const struct hist_entry *b)
{
	const char *x, *y;
	u64 bits = 0;

	for (int i = 0; i < hists->opts.nr_keys; i++) {
		if (is_fields_key(hists->opts.keys[i]))
			break;
		if (key_cmp(hists, hists->opts.keys[i], a, b))
			return 0;
	}
	if (!a->tfields || !b->tfields)
		return 0;
	x = a->tfields;
	y = b->tfields;
	for (int f = 0; f < 64 && *x && *y; f++) {
		size_t nx = strcspn(x, " "), ny = strcspn(y, " ");

		bits |= 1ULL << f;
		if (nx != ny || memcmp(x, y, nx))
			break;
		x += nx + (x[nx] == ' ');
		y += ny + (y[ny] == ' ');
	}
	return bits;
}

/* hists_tf_insert - walk @t as perf inserts @e (or a sample of it), marking what it reads; link @n */
void hists_tf_insert(const struct hists *hists, struct tf_tree *t, struct hist_entry *e,
		     struct tf_node *n)
{
	struct tf_node *x, *parent = NULL;
	bool left = false;

	for (x = RB_ROOT(t); x; x = left ? RB_LEFT(x, rb) : RB_RIGHT(x, rb)) {
		int c = merge_cmp(&e, &x->e, (void *)hists);

		x->e->tf_met |= fields_reached(hists, e, x->e);
		if (!c && x->e == e)
			return;
		parent = x;
		left = c < 0;
	}
	if (n) {
		n->e = e;
		RBTREE_LINK(tf_tree, t, n, parent, left);
	}
}

void hists_tf_release(struct tf_tree *t)
{
	struct tf_node *x, **v = NULL;
	size_t n = 0, alloc = 0;

	if (!t)
		return;
	/* collected first: the walk climbs through parents */
	RB_FOREACH(x, tf_tree, t) {
		v = xgrow(v, n + 1, &alloc, sizeof(*v));
		v[n++] = x;
	}
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
	free(t);
}

/* tf_collapse - perf's second tree when comm is a key: the entries again, in order */
static void tf_collapse(struct hists *hists)
{
	struct tf_tree fresh = RB_INITIALIZER(&fresh);
	struct tf_node *x, *v;
	size_t n = 0, k = 0;
	bool has_comm = false;

	for (int i = 0; i < hists->opts.nr_keys; i++)
		has_comm |= hists->opts.keys[i] == SORT_COMM;
	if (!hists->tf_tree || !has_comm)
		return;
	RB_FOREACH(x, tf_tree, hists->tf_tree)
		n++;
	v = xmalloc((n ? n : 1) * sizeof(*v));
	RB_FOREACH(x, tf_tree, hists->tf_tree)
		hists_tf_insert(hists, &fresh, x->e, &v[k++]);
	free(v);
}

/* ---- output order ----------------------------------------------------- */

static int cmp_str(const char *a, const char *b)
{
	if (a == b)
		return 0;
	if (!a)
		return -1;
	if (!b)
		return 1;
	return strcmp(a, b);
}

/* frame_dso_name - the name dsos sort by: perf -v compares the long names */
static const char *frame_dso_name(const struct frame *f, bool long_names)
{
	return f->dso ? (long_names ? f->dso->long_name : f->dso->short_name) : NULL;
}

/* key_cmp - one sort key in output order: <0 when @a goes first */
static int key_cmp(const struct hists *hists, enum sort_key key, const struct hist_entry *a,
		   const struct hist_entry *b)
{
	switch (key) {
	case SORT_COMM:
		return cmp_str(a->comm, b->comm);
	case SORT_PID:
		return a->thread->tid - b->thread->tid;
	case SORT_DSO:
		/* perf puts entries without a dso after the others */
		if (!a->frame->dso || !b->frame->dso)
			return !a->frame->dso - !b->frame->dso;
		return cmp_str(frame_dso_name(a->frame, hists->opts.long_dso_names),
			       frame_dso_name(b->frame, hists->opts.long_dso_names));
	case SORT_SYM:
		if (a->frame->sym && b->frame->sym)
			return cmp_str(a->frame->sym->name, b->frame->sym->name);
		if (!a->frame->sym && !b->frame->sym)
			return 0; /* perf's sort sees two unknowns as equal */
		return a->frame->sym ? -1 : 1; /* unresolved last */
	case SORT_PARENT:
		return cmp_str(a->parent && a->parent->sym ? a->parent->sym->name : NULL,
			       b->parent && b->parent->sym ? b->parent->sym->name : NULL);
	case SORT_CPU:
		return a->cpu - b->cpu;
	case SORT_SOCKET:
		return a->socket - b->socket;
	case SORT_SRCLINE:
		return cmp_str(a->srcline, b->srcline);
	case SORT_SRCFILE:
		return cmp_str(a->srcfile, b->srcfile);
	case SORT_TRACE:
		return cmp_str(a->trace, b->trace);
	case SORT_TRACE_FIELDS:
	case SORT_TRACE_FIELDS_RAW:
		/* perf compares the fields' bytes the other way round */
		return cmp_str(b->tfields, a->tfields);
	default:
		return hists_sample_key_cmp(key, a, b);
	}
}

int hists_entry_cmp_keys(const struct hists *hists, const struct hist_entry *a,
			 const struct hist_entry *b)
{
	int c = 0;

	for (int i = 0; i < hists->opts.nr_keys && !c; i++)
		c = key_cmp(hists, hists->opts.keys[i], a, b);
	return c;
}

/*
 * Output order, as perf builds it: the entries are taken in the order of
 * perf's merge tree (ascending by the sort keys' compare functions) and
 * inserted one by one into a red-black tree with the output comparator,
 * equal ones going right. The comparator is not a total order (the
 * caller-above-callee rule applies only within one thread), so the result
 * depends on the insertion order and the tree's shape: both are reproduced
 * here rather than approximated with a sort.
 */

static int cmp_null(const void *l, const void *r)
{
	if (!l && !r)
		return 0;
	return !l ? -1 : 1;
}

static int sign64(s64 v)
{
	return v < 0 ? -1 : v > 0;
}

/* frame_merge_cmp - the dso key, or with @sym the symbol key, in perf's merge order */
static int frame_merge_cmp(const struct hists *hists, const struct hist_entry *a,
			   const struct hist_entry *b, bool sym)
{
	const struct frame *fa = a->frame, *fb = b->frame;
	int c;

	if (sym && !fa->sym && !fb->sym)
		return sign64((s64)(a->addr - b->addr));
	/* symbols compare their dso first */
	if (!fa->dso || !fb->dso)
		c = -cmp_null(fa->dso, fb->dso);
	else
		c = cmp_str(frame_dso_name(fa, hists->opts.long_dso_names),
			    frame_dso_name(fb, hists->opts.long_dso_names));
	if (c || !sym)
		return c;
	if (!fa->sym || !fb->sym)
		return -cmp_null(fa->sym, fb->sym);
	if (fa->sym == fb->sym)
		return 0;
	return fa->sym->start != fb->sym->start ? sign64((s64)(fa->sym->start - fb->sym->start))
						 : sign64((s64)(fa->sym->end - fb->sym->end));
}

/* merge_cmp - perf's merge tree order (<0: @a first) */
static int merge_cmp(const void *pa, const void *pb, void *arg)
{
	const struct hist_entry *a = *(const struct hist_entry *const *)pa;
	const struct hist_entry *b = *(const struct hist_entry *const *)pb;
	const struct hists *hists = arg;
	int c = 0;

	for (int i = 0; i < hists->opts.nr_keys && !c; i++) {
		switch (hists->opts.keys[i]) {
		case SORT_COMM:
			c = cmp_str(a->comm, b->comm);
			break;
		case SORT_PID:
			c = a->thread->tid - b->thread->tid;
			break;
		case SORT_SYM:
			c = frame_merge_cmp(hists, a, b, true);
			break;
		case SORT_DSO:
			c = frame_merge_cmp(hists, a, b, false);
			break;
		case SORT_SYM_SIZE:
			/* one row per symbol: sizes, then as the symbol key */
			c = hists_sample_key_cmp(SORT_SYM_SIZE, a, b);
			if (!c)
				c = frame_merge_cmp(hists, a, b, true);
			break;
		case SORT_PARENT:
			c = cmp_str(a->parent && a->parent->sym ? a->parent->sym->name : NULL,
				    b->parent && b->parent->sym ? b->parent->sym->name : NULL);
			break;
		case SORT_CPU:
			c = a->cpu - b->cpu;
			break;
		case SORT_SOCKET:
			c = a->socket - b->socket;
			break;
		case SORT_SRCLINE:
			c = cmp_str(a->srcline, b->srcline);
			break;
		case SORT_SRCFILE:
			c = cmp_str(a->srcfile, b->srcfile);
			break;
		case SORT_TRACE:
			c = cmp_str(a->trace, b->trace);
			break;
		case SORT_TRACE_FIELDS:
		case SORT_TRACE_FIELDS_RAW:
			c = cmp_str(b->tfields, a->tfields);
			break;
		default:
			c = hists_sample_key_cmp(hists->opts.keys[i], a, b);
			break;
		}
	}
	return c;
}

/*
 * group_cmp - the members' self values after the leader's, as perf's group
 * sort does (the Children column compares the leader's value alone)
 */
static int group_cmp(const struct hists *hists, const struct hist_entry *a,
		     const struct hist_entry *b)
{
	if (!a->grp || !b->grp)
		return 0;
	for (int m = 1; m < hists->nr_group; m++) {
		u64 va = a->grp[m].period;
		u64 vb = b->grp[m].period;

		if (va != vb)
			return va > vb ? 1 : -1;
	}
	return 0;
}

static int children_cmp(const struct hists *hists, const struct hist_entry *a,
			const struct hist_entry *b)
{
	if (a->acc_period != b->acc_period)
		return a->acc_period > b->acc_period ? 1 : -1;
	/* caller above callee, within one thread */
	if (hists->opts.use_callchain && a->thread == b->thread) {
		long r = (long)b->max_depth - (long)a->max_depth;

		if (hists->opts.cc.order == ORDER_CALLER)
			r = -r;
		if (r)
			return r > 0 ? 1 : -1;
	}
	return 0;
}

static int cmp_desc(u64 a, u64 b)
{
	return a != b ? (a > b ? 1 : -1) : 0;
}

/* field_cmp - one -F field or --sort entry in output order: >0 when @a goes first */
static int field_cmp(const struct hists *hists, const struct hist_field *f,
		     const struct hist_entry *a, const struct hist_entry *b)
{
	int c;

	switch (f->type) {
	case COL_CHILDREN:
		return hists->opts.children ? children_cmp(hists, a, b) : 0;
	case COL_OVERHEAD:
	case COL_PERIOD:
		c = cmp_desc(a->period, b->period);
		return c ? c : group_cmp(hists, a, b);
	case COL_SAMPLE:
		return cmp_desc(a->nr_events, b->nr_events);
	case COL_OVERHEAD_SYS:
	case COL_OVERHEAD_US:
	case COL_OVERHEAD_GUEST_SYS:
	case COL_OVERHEAD_GUEST_US: {
		int m = (int)f->type - COL_OVERHEAD_SYS;

		return cmp_desc(a->period_mode[m], b->period_mode[m]);
	}
	default:
		return -key_cmp(hists, f->key, a, b);
	}
}

/* output_cmp - perf's output comparator: >0 when @a goes before @b */
static int output_cmp(const struct hists *hists, const struct hist_entry *a,
		      const struct hist_entry *b)
{
	int c;

	if (hists->opts.nr_fields) {
		/* -F with --sort: the --sort keys order the rows first */
		for (int i = 0; i < hists->opts.nr_sort_first; i++) {
			c = -key_cmp(hists, hists->opts.keys[i], a, b);
			if (c)
				return c;
			/*
			 * Here, and only here, perf orders two unresolved
			 * symbols by the address it prints ("[.] 0x..."),
			 * lowest first; elsewhere they tie.
			 */
			if (hists->opts.keys[i] == SORT_SYM && !a->frame->sym &&
			    !b->frame->sym && a->addr != b->addr)
				return a->addr < b->addr ? 1 : -1;
		}
		/* -F: the fields in their order are the sort list */
		for (int i = 0; i < hists->opts.nr_fields; i++) {
			c = field_cmp(hists, &hists->opts.fields[i], a, b);
			if (c)
				return c;
		}
		return 0;
	}
	if (hists->opts.children && !hists->opts.hide_children) {
		c = children_cmp(hists, a, b);
		if (c)
			return c;
	}
	if (hists->opts.nr_sort_list) {
		/* --sort naming output fields: that list in its order */
		for (int i = 0; i < hists->opts.nr_sort_list; i++) {
			c = field_cmp(hists, &hists->opts.sort_list[i], a, b);
			if (c)
				return c;
		}
		return 0;
	}
	if (a->period != b->period)
		return a->period > b->period ? 1 : -1;
	c = group_cmp(hists, a, b);
	if (c)
		return c;
	c = hists_entry_cmp_keys(hists, a, b);
	return -c;
}

/* the keys formatted lazily by perf (see mark_compared_lazy()) and their bits */
static const enum sort_key lazy_keys[] = { SORT_TRACE, SORT_SRCLINE, SORT_SRCFILE };

/* struct prefix_arg - the keys before one lazy key, for prefix_cmp() */
struct prefix_arg {
	const struct hists *hists;
	int nr_keys;
};

static int prefix_cmp(const void *pa, const void *pb, void *arg)
{
	const struct hist_entry *a = *(const struct hist_entry *const *)pa;
	const struct hist_entry *b = *(const struct hist_entry *const *)pb;
	const struct prefix_arg *pf = arg;
	int c = 0;

	for (int i = 0; i < pf->nr_keys && !c; i++)
		c = key_cmp(pf->hists, pf->hists->opts.keys[i], a, b);
	return c;
}

/*
 * mark_compared_lazy - perf formats a tracepoint payload, a srcline and a
 * srcfile lazily, when two entries equal on the keys before that key are
 * compared (or a sample meets its entry again, see entry_findnew()); only
 * those count for the column's width, the others are cut to it. Mark them.
 */
static void mark_compared_lazy(struct hists *hists)
{
	size_t n = hists->nr_entries;
	struct hist_entry **v = NULL;

	if (n < 2)
		return;
	for (size_t k = 0; k < ARRAY_SIZE(lazy_keys); k++) {
		struct prefix_arg pf = { hists, -1 };

		for (int i = 0; i < hists->opts.nr_keys && pf.nr_keys < 0; i++)
			if (hists->opts.keys[i] == lazy_keys[k])
				pf.nr_keys = i;
		if (pf.nr_keys < 0)
			continue;
		if (!v)
			v = xmemdup(hists->entries, n * sizeof(*v));
		qsort_r(v, n, sizeof(*v), prefix_cmp, &pf);
		for (size_t i = 0; i + 1 < n; i++) {
			if (!prefix_cmp(&v[i], &v[i + 1], &pf)) {
				v[i]->lazy_compared |= 1u << k;
				v[i + 1]->lazy_compared |= 1u << k;
			}
		}
	}
	free(v);
}

/* struct order_node - an entry in an ordering tree (an array sized once: nodes never move) */
struct order_node {
	RB_ENTRY(order_node) rb;
	struct hist_entry *e;
};

RB_HEAD(order_tree, order_node);
RBTREE_GENERATE_LINKED(order_tree, order_node, rb)

/*
 * tree_order - reorder @in[0..n) as a red-black tree orders it when the
 * entries go in one by one in that order, each walking left of a node
 * when @goes_left(hists, new, node). The order need not be total: the
 * result is the tree's in-order, as perf's rb insertion leaves it.
 */
static void tree_order(const struct hists *hists, struct hist_entry **in, size_t n,
		       bool (*goes_left)(const struct hists *, const struct hist_entry *,
					 const struct hist_entry *))
{
	struct order_node *v = xmalloc(n * sizeof(*v)), *x;
	struct order_tree root = RB_INITIALIZER(&root);
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		struct order_node *parent = NULL;
		bool left = false;

		for (x = RB_ROOT(&root); x; x = left ? RB_LEFT(x, rb) : RB_RIGHT(x, rb)) {
			parent = x;
			left = goes_left(hists, in[i], x->e);
		}
		v[i].e = in[i];
		RBTREE_LINK(order_tree, &root, &v[i], parent, left);
	}
	RB_FOREACH(x, order_tree, &root)
		in[k++] = x->e;
	free(v);
}

static bool merge_goes_left(const struct hists *hists, const struct hist_entry *a,
			    const struct hist_entry *b)
{
	return merge_cmp(&a, &b, (void *)hists) < 0;
}

static bool output_goes_left(const struct hists *hists, const struct hist_entry *a,
			     const struct hist_entry *b)
{
	return output_cmp(hists, a, b) > 0;
}

void hists_sort(struct hists *hists)
{
	hists_memo_forget(hists);
	hists_chains_sum(hists);
	mark_compared_lazy(hists);
	tf_collapse(hists);
	size_t n = hists->nr_entries;
	struct hist_entry **in = hists->entries;

	if (n < 2)
		return;
	/*
	 * perf's merge order: entries inserted in creation order into its
	 * entries_in tree, walked in order (and once more through the
	 * collapse tree when comm is a key). An rb-tree, not a sort: with
	 * raw addresses compared by signed difference the order is not total.
	 */
	bool has_comm = false, has_trace = false;

	for (int i = 0; i < hists->opts.nr_keys; i++) {
		has_comm |= hists->opts.keys[i] == SORT_COMM;
		has_trace |= hists->opts.keys[i] == SORT_TRACE;
	}
	if (has_trace) {
		/* merge_cmp does not see the payloads: keep the sorted order there */
		qsort_r(in, n, sizeof(*in), merge_cmp, hists);
	} else {
		tree_order(hists, in, n, merge_goes_left);
		if (has_comm)
			tree_order(hists, in, n, merge_goes_left);
	}
	/* perf's output tree, walked in order */
	tree_order(hists, in, n, output_goes_left);
}
