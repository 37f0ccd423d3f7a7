/*
 * Sorted symbol tables: alias resolution, end fix-up, binary-search lookup,
 * and perf's search-tree shape where symbols overlap.
 */
#define PR_PREFIX "symbol"
#include "symbol/symtab.h"

#include "lib/debug.h"
#include "lib/xalloc.h"

#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

void symtab_init(struct symtab *st, struct strpool *pool)
{
	memset(st, 0, sizeof(*st));
	st->pool = pool;
}

struct symbol *symtab_add(struct symtab *st, u64 start, u64 size, int binding, int type,
			  const char *name)
{
	struct symbol *sym;

	st->syms = xgrow(st->syms, st->nr_syms + 1, &st->alloc_syms, sizeof(*st->syms));
	sym = &st->syms[st->nr_syms++];
	memset(sym, 0, sizeof(*sym));
	sym->start = start;
	sym->end = start + size;
	sym->name = strpool_intern(st->pool, name);
	sym->binding = binding;
	sym->type = type;
	st->is_finished = false;
	return sym;
}

/*
 * Sort by start; equal starts keep their insertion order (perf inserts
 * equal keys to the right in its rbtree, so the first one added comes first).
 */
struct sort_ent {
	u64 start;
	size_t idx;
};

static int cmp_sort_ent(const void *a, const void *b)
{
	const struct sort_ent *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static size_t leading_underscores(const char *s)
{
	size_t n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

/* true when @a should be kept over @b (same start address): perf's preference order */
static bool prefer_first(const struct symbol *a, const struct symbol *b)
{
	u64 la = a->end - a->start, lb = b->end - b->start;
	size_t na, nb;

	if (la && !lb)
		return true;
	if (!la && lb)
		return false;
	if ((a->binding == STB_WEAK) != (b->binding == STB_WEAK))
		return b->binding == STB_WEAK;
	if ((a->binding == STB_GLOBAL) != (b->binding == STB_GLOBAL))
		return a->binding == STB_GLOBAL;
	na = leading_underscores(a->name);
	nb = leading_underscores(b->name);
	if (na != nb)
		return na < nb;
	na = strlen(a->name);
	nb = strlen(b->name);
	if (na != nb)
		return na > nb;
	return true;
}

/*
 * Zero-sized symbols extend to the next symbol. In kallsyms, the last kernel
 * symbol before the modules (and the last symbol of each module) is not
 * stretched over the gap: perf gives it the rest of its page instead, so
 * module space is not the kernel's.
 */
static void fixup_ends(struct symbol *syms, size_t n, bool is_kallsyms)
{
	size_t i;

	for (i = 0; i + 1 < n; i++) {
		struct symbol *s = &syms[i];
		const struct symbol *next = &syms[i + 1];

		if (s->end != s->start)
			continue;
		s->flags |= SYMBOL_SIZE_FIXED;
		/* module symbols carry their "[module]" only in a combined table */
		if (is_kallsyms && (!strchr(s->name, '[')) != (!strchr(next->name, '[')))
			s->end = PERF_ALIGN(s->start + 4096, 4096ULL);
		else
			s->end = next->start;
	}
	if (n && syms[n - 1].end == syms[n - 1].start) {
		syms[n - 1].flags |= SYMBOL_SIZE_FIXED;
		syms[n - 1].end = PERF_ALIGN(syms[n - 1].start, 4096ULL) + 4096;
	}
}

/* ---- perf's search tree ------------------------------------------------ */

/*
 * Where symbols overlap, which one perf finds depends on the shape of its
 * red-black tree: the search stops at the first node on the path whose
 * range holds the address. We rebuild the same shape: the same insertions
 * (table order, equal keys to the right), the same removals of aliases,
 * then the PLT entries, with the classic red-black insert and erase
 * rebalancing, and search it the same way.
 */
#define NIL UINT32_MAX

struct tree_node {
	u64 start, end; /* the symbol's range (ends after fix-up) */
	u32 left, right, parent;
	u32 sym;	/* index into symtab.syms, NIL when erased */
	bool red;
};

struct symtab_tree {
	struct tree_node *n;
	u32 root;
	bool always; /* zero-sized symbols present: every lookup walks the tree */
};

static void tree_set_child(struct symtab_tree *t, u32 parent, u32 old, u32 new_)
{
	if (parent == NIL)
		t->root = new_;
	else if (t->n[parent].left == old)
		t->n[parent].left = new_;
	else
		t->n[parent].right = new_;
}

/* @new_ takes @old's place and color; @old becomes @new_'s child with @red */
static void tree_rotate_parents(struct symtab_tree *t, u32 old, u32 new_, bool red)
{
	u32 parent = t->n[old].parent;

	t->n[new_].parent = parent;
	t->n[new_].red = t->n[old].red;
	t->n[old].parent = new_;
	t->n[old].red = red;
	tree_set_child(t, parent, old, new_);
}

static bool is_red(const struct symtab_tree *t, u32 n)
{
	return n != NIL && t->n[n].red;
}

static void tree_insert(struct symtab_tree *t, u32 node)
{
	u32 *link = &t->root, parent = NIL, gparent, tmp;
	u64 key = t->n[node].start;

	while (*link != NIL) {
		parent = *link;
		link = key < t->n[parent].start ? &t->n[parent].left : &t->n[parent].right;
	}
	*link = node;
	t->n[node].parent = parent;
	t->n[node].left = t->n[node].right = NIL;
	t->n[node].red = true;

	for (;;) {
		if (parent == NIL) {
			t->n[node].red = false;
			break;
		}
		if (!t->n[parent].red)
			break;
		gparent = t->n[parent].parent;
		if (parent == t->n[gparent].left) {
			tmp = t->n[gparent].right;
			if (is_red(t, tmp)) { /* uncle red: recolor and go up */
				t->n[tmp].red = t->n[parent].red = false;
				node = gparent;
				parent = t->n[node].parent;
				t->n[node].red = true;
				continue;
			}
			if (node == t->n[parent].right) { /* rotate left at parent */
				tmp = t->n[node].left;
				t->n[parent].right = tmp;
				t->n[node].left = parent;
				if (tmp != NIL)
					t->n[tmp].parent = parent, t->n[tmp].red = false;
				t->n[parent].parent = node;
				t->n[parent].red = true;
				parent = node;
			}
			/* rotate right at gparent */
			tmp = t->n[parent].right;
			t->n[gparent].left = tmp;
			t->n[parent].right = gparent;
			if (tmp != NIL)
				t->n[tmp].parent = gparent, t->n[tmp].red = false;
			tree_rotate_parents(t, gparent, parent, true);
			break;
		}
		tmp = t->n[gparent].left;
		if (is_red(t, tmp)) {
			t->n[tmp].red = t->n[parent].red = false;
			node = gparent;
			parent = t->n[node].parent;
			t->n[node].red = true;
			continue;
		}
		if (node == t->n[parent].left) { /* rotate right at parent */
			tmp = t->n[node].right;
			t->n[parent].left = tmp;
			t->n[node].right = parent;
			if (tmp != NIL)
				t->n[tmp].parent = parent, t->n[tmp].red = false;
			t->n[parent].parent = node;
			t->n[parent].red = true;
			parent = node;
		}
		/* rotate left at gparent */
		tmp = t->n[parent].left;
		t->n[gparent].right = tmp;
		t->n[parent].left = gparent;
		if (tmp != NIL)
			t->n[tmp].parent = gparent, t->n[tmp].red = false;
		tree_rotate_parents(t, gparent, parent, true);
		break;
	}
}

static void tree_erase_fixup(struct symtab_tree *t, u32 parent)
{
	u32 node = NIL, sibling, t1, t2;

	for (;;) {
		sibling = t->n[parent].right;
		if (node != sibling) { /* node is the left child */
			if (is_red(t, sibling)) {
				t1 = t->n[sibling].left;
				t->n[parent].right = t1;
				t->n[sibling].left = parent;
				if (t1 != NIL)
					t->n[t1].parent = parent, t->n[t1].red = false;
				tree_rotate_parents(t, parent, sibling, true);
				sibling = t1;
			}
			t1 = t->n[sibling].right;
			if (!is_red(t, t1)) {
				t2 = t->n[sibling].left;
				if (!is_red(t, t2)) {
					t->n[sibling].parent = parent, t->n[sibling].red = true;
					if (t->n[parent].red) {
						t->n[parent].red = false;
					} else {
						node = parent;
						parent = t->n[node].parent;
						if (parent != NIL)
							continue;
					}
					break;
				}
				t1 = t->n[t2].right;
				t->n[sibling].left = t1;
				t->n[t2].right = sibling;
				t->n[parent].right = t2;
				if (t1 != NIL)
					t->n[t1].parent = sibling, t->n[t1].red = false;
				t1 = sibling;
				sibling = t2;
			}
			t2 = t->n[sibling].left;
			t->n[parent].right = t2;
			t->n[sibling].left = parent;
			if (t1 != NIL)
				t->n[t1].parent = sibling, t->n[t1].red = false;
			if (t2 != NIL)
				t->n[t2].parent = parent;
			tree_rotate_parents(t, parent, sibling, false);
			break;
		}
		sibling = t->n[parent].left;
		if (is_red(t, sibling)) {
			t1 = t->n[sibling].right;
			t->n[parent].left = t1;
			t->n[sibling].right = parent;
			if (t1 != NIL)
					t->n[t1].parent = parent, t->n[t1].red = false;
			tree_rotate_parents(t, parent, sibling, true);
			sibling = t1;
		}
		t1 = t->n[sibling].left;
		if (!is_red(t, t1)) {
			t2 = t->n[sibling].right;
			if (!is_red(t, t2)) {
				t->n[sibling].parent = parent, t->n[sibling].red = true;
				if (t->n[parent].red) {
					t->n[parent].red = false;
				} else {
					node = parent;
					parent = t->n[node].parent;
					if (parent != NIL)
						continue;
				}
				break;
			}
			t1 = t->n[t2].left;
			t->n[sibling].right = t1;
			t->n[t2].left = sibling;
			t->n[parent].left = t2;
			if (t1 != NIL)
				t->n[t1].parent = sibling, t->n[t1].red = false;
			t1 = sibling;
			sibling = t2;
		}
		t2 = t->n[sibling].right;
		t->n[parent].left = t2;
		t->n[sibling].right = parent;
		if (t1 != NIL)
			t->n[t1].parent = sibling, t->n[t1].red = false;
		if (t2 != NIL)
			t->n[t2].parent = parent;
		tree_rotate_parents(t, parent, sibling, false);
		break;
	}
}

static void tree_erase(struct symtab_tree *t, u32 node)
{
	u32 child = t->n[node].right, tmp = t->n[node].left, parent, rebalance, succ, child2;
	bool red = t->n[node].red;

	if (tmp == NIL) {
		parent = t->n[node].parent;
		tree_set_child(t, parent, node, child);
		if (child != NIL) {
			t->n[child].parent = parent;
			t->n[child].red = red;
			rebalance = NIL;
		} else {
			rebalance = red ? NIL : parent;
		}
	} else if (child == NIL) {
		parent = t->n[node].parent;
		t->n[tmp].parent = parent;
		t->n[tmp].red = red;
		tree_set_child(t, parent, node, tmp);
		rebalance = NIL;
	} else {
		succ = child;
		tmp = t->n[child].left;
		if (tmp == NIL) {
			parent = succ;
			child2 = t->n[succ].right;
		} else {
			do {
				parent = succ;
				succ = tmp;
				tmp = t->n[tmp].left;
			} while (tmp != NIL);
			child2 = t->n[succ].right;
			t->n[parent].left = child2;
			t->n[succ].right = child;
			t->n[child].parent = succ;
		}
		tmp = t->n[node].left;
		t->n[succ].left = tmp;
		t->n[tmp].parent = succ;
		tree_set_child(t, t->n[node].parent, node, succ);
		if (child2 != NIL) {
			t->n[child2].parent = parent;
			t->n[child2].red = false;
			rebalance = NIL;
		} else {
			rebalance = t->n[succ].red ? NIL : parent;
		}
		t->n[succ].parent = t->n[node].parent;
		t->n[succ].red = red;
	}
	if (rebalance != NIL)
		tree_erase_fixup(t, rebalance);
}

static void tree_free(struct symtab_tree *t)
{
	if (!t)
		return;
	free(t->n);
	free(t);
}

static struct symtab_tree *tree_new(size_t n)
{
	struct symtab_tree *t = xzalloc(sizeof(*t));

	t->n = xcalloc(n ? n : 1, sizeof(*t->n));
	t->root = NIL;
	return t;
}

/* ---- finishing a table ------------------------------------------------- */

void symtab_release(struct symtab *st)
{
	free(st->syms);
	free(st->max_end);
	free(st->starts);
	st->starts = NULL;
	tree_free(st->tree);
	st->tree = NULL;
	st->syms = NULL;
	st->max_end = NULL;
	st->nr_syms = st->alloc_syms = 0;
	st->is_finished = false;
}

static void sort_stable(struct symbol *in, size_t n, struct symbol *out, u32 *order)
{
	struct sort_ent *ents = xmalloc((n ? n : 1) * sizeof(*ents));
	size_t i;

	for (i = 0; i < n; i++) {
		ents[i].start = in[i].start;
		ents[i].idx = i;
	}
	qsort(ents, n, sizeof(*ents), cmp_sort_ent);
	for (i = 0; i < n; i++) {
		out[i] = in[ents[i].idx];
		if (order)
			order[i] = (u32)ents[i].idx;
	}
	free(ents);
}

void symtab_finish(struct symtab *st, bool is_kallsyms)
{
	size_t n = st->nr_syms, nr_reg = 0, nr_late = 0, i, out, nr_erased = 0;
	struct symbol *reg, *late, *sorted, *final;
	u32 *order, *erased, *final_node;
	bool overlap = false, has_zero = false;

	if (st->is_finished)
		return;
	tree_free(st->tree);
	st->tree = NULL;
	free(st->max_end);
	st->max_end = NULL;
	free(st->starts);
	st->starts = NULL;
	if (!n) {
		st->is_finished = true;
		return;
	}
	/* regular symbols and late (PLT) ones, each in insertion order */
	reg = xmalloc(n * sizeof(*reg));
	late = xmalloc(n * sizeof(*late));
	for (i = 0; i < n; i++) {
		if (st->syms[i].flags & SYMBOL_PLT) {
			late[nr_late++] = st->syms[i];
		} else {
			reg[nr_reg++] = st->syms[i];
		}
	}
	sorted = xmalloc((nr_reg ? nr_reg : 1) * sizeof(*sorted));
	order = xmalloc((nr_reg ? nr_reg : 1) * sizeof(u32));
	for (i = 1; i < nr_reg && reg[i - 1].start <= reg[i].start; i++)
		;
	if (i >= nr_reg) {
		/* already in order (kallsyms mostly is): no sort, same stable order */
		memcpy(sorted, reg, nr_reg * sizeof(*sorted));
		for (i = 0; i < nr_reg; i++)
			order[i] = (u32)i;
	} else {
		sort_stable(reg, nr_reg, sorted, order);
	}
	/*
	 * perf fixes the ends before it drops aliases: of several zero-sized
	 * names at one address only the last one reaches the next symbol, so
	 * it wins as "the one with a size" (__x64_sys_getppid over
	 * __ia32_sys_getppid in kallsyms).
	 */
	if (!st->keep_sizes)
		fixup_ends(sorted, nr_reg, is_kallsyms);
	/* alias removal; the erased nodes are remembered in perf's order */
	erased = xmalloc((nr_reg ? nr_reg : 1) * sizeof(u32));
	out = 0;
	for (i = 0; i < nr_reg; i++) {
		if (!st->allow_aliases && out && sorted[out - 1].start == sorted[i].start) {
			if (prefer_first(&sorted[out - 1], &sorted[i])) {
				erased[nr_erased++] = order[i];
			} else {
				erased[nr_erased++] = order[out - 1];
				sorted[out - 1] = sorted[i];
				order[out - 1] = order[i];
			}
			continue;
		}
		sorted[out] = sorted[i];
		order[out++] = order[i];
	}
	/* the survivors and the late symbols, sorted; node ids: regular by order, late after */
	final = xmalloc((out + nr_late) * sizeof(*final));
	final_node = xmalloc((out + nr_late) * sizeof(u32));
	{
		struct symbol *all = xmalloc((out + nr_late) * sizeof(*all));
		u32 *pos = xmalloc((out + nr_late) * sizeof(u32));

		memcpy(all, sorted, out * sizeof(*all));
		memcpy(all + out, late, nr_late * sizeof(*all));
		sort_stable(all, out + nr_late, final, pos);
		for (i = 0; i < out + nr_late; i++)
			final_node[i] = pos[i] < out ? order[pos[i]] : (u32)(nr_reg + pos[i] - out);
		free(all);
		free(pos);
	}
	free(st->syms);
	st->syms = final;
	st->nr_syms = out + nr_late;
	st->alloc_syms = st->nr_syms;
	st->max_end = xmalloc((st->nr_syms ? st->nr_syms : 1) * sizeof(u64));
	free(st->starts);
	st->starts = xmalloc((st->nr_syms ? st->nr_syms : 1) * sizeof(u64));
	for (i = 0; i < st->nr_syms; i++)
		st->starts[i] = st->syms[i].start;
	for (i = 0; i < st->nr_syms; i++) {
		struct symbol *sym = &st->syms[i];
		u64 e = sym->end;

		sym->flags &= ~SYMBOL_TANGLED;
		if (i && st->max_end[i - 1] > sym->start) {
			overlap = true;
			sym->flags |= SYMBOL_TANGLED;
		}
		if (i + 1 < st->nr_syms && st->syms[i + 1].start < e)
			sym->flags |= SYMBOL_TANGLED;
		st->max_end[i] = (i && st->max_end[i - 1] > e) ? st->max_end[i - 1] : e;
	}
	/*
	 * perf's search also stops at a zero-sized symbol when the address is
	 * its start (perf maps, allow_aliases): such tables always use the tree.
	 */
	for (i = 0; i < st->nr_syms && !has_zero; i++)
		has_zero = st->syms[i].end == st->syms[i].start;
	if (overlap || has_zero) {
		struct symtab_tree *t = tree_new(nr_reg + nr_late);

		/* the regular symbols in insertion order, then the removals, then the PLT */
		for (i = 0; i < nr_reg; i++) {
			t->n[i].start = reg[i].start;
			t->n[i].sym = NIL;
			tree_insert(t, (u32)i);
		}
		for (i = 0; i < nr_erased; i++)
			tree_erase(t, erased[i]);
		for (i = 0; i < nr_late; i++) {
			u32 id = (u32)(nr_reg + i);

			t->n[id].start = late[i].start;
			t->n[id].sym = NIL;
			tree_insert(t, id);
		}
		for (i = 0; i < st->nr_syms; i++) {
			t->n[final_node[i]].sym = (u32)i;
			t->n[final_node[i]].end = st->syms[i].end;
		}
		t->always = has_zero;
		st->tree = t;
	}
	free(final_node);
	free(erased);
	free(order);
	free(sorted);
	free(late);
	free(reg);
	st->is_finished = true;
}

/*
 * perf's search: left below a start, right at or past an end, except that a
 * zero-sized symbol holds the address equal to its start.
 */
static const struct symbol *tree_find(const struct symtab *st, u64 addr)
{
	const struct symtab_tree *t = st->tree;
	u32 n = t->root;

	while (n != NIL) {
		const struct tree_node *x = &t->n[n];

		if (addr < x->start)
			n = x->left;
		else if (addr > x->end || (addr == x->end && addr != x->start))
			n = x->right;
		else
			return &st->syms[x->sym];
	}
	return NULL;
}

const struct symbol *symtab_find(const struct symtab *st, u64 addr)
{
	size_t lo = 0, hi = st->nr_syms;
	ssize_t i;

	if (!st->is_finished || !st->nr_syms)
		return NULL;
	if (st->tree && st->tree->always)
		return tree_find(st, addr);
	/* last symbol with start <= addr */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (st->starts[mid] <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* walk back only while an earlier symbol can still contain addr */
	for (i = (ssize_t)lo - 1; i >= 0 && st->max_end[i] > addr; i--) {
		if (addr < st->syms[i].end)
			break;
	}
	if (i < 0 || st->max_end[i] <= addr)
		return NULL; /* nothing holds addr: perf's search finds nothing either */
	/*
	 * A symbol that overlaps no other is the only one holding addr, and
	 * perf's search cannot miss it. Otherwise the answer is the tree's.
	 */
	if (!(st->syms[i].flags & SYMBOL_TANGLED) || !st->tree)
		return &st->syms[i];
	return tree_find(st, addr);
}

/* black height of the subtree at @n, or -1 when a rule is broken */
static int check_node(const struct symtab_tree *t, u32 n, u32 parent, u64 lo, u64 hi,
		      size_t *count, size_t limit)
{
	int l, r;

	if (n == NIL)
		return 1;
	if (++*count > limit || t->n[n].parent != parent || t->n[n].start < lo ||
	    t->n[n].start > hi)
		return -1;
	if (t->n[n].red && (is_red(t, t->n[n].left) || is_red(t, t->n[n].right)))
		return -1;
	/* in-order is non-decreasing (rotations may move an equal key left) */
	l = check_node(t, t->n[n].left, n, lo, t->n[n].start, count, limit);
	r = check_node(t, t->n[n].right, n, t->n[n].start, hi, count, limit);
	if (l < 0 || r < 0 || l != r)
		return -1;
	return l + !t->n[n].red;
}

int symtab_check_tree(const struct symtab *st)
{
	const struct symtab_tree *t = st->tree;
	size_t count = 0;

	if (!t)
		return 0;
	if (t->root != NIL && t->n[t->root].red)
		return -EINVAL;
	if (check_node(t, t->root, NIL, 0, UINT64_MAX, &count, st->nr_syms) < 0)
		return -EINVAL;
	return count == st->nr_syms ? 0 : -EINVAL;
}

const struct symbol *symtab_find_by_name(const struct symtab *st, const char *name)
{
	size_t i;

	for (i = 0; i < st->nr_syms; i++)
		if (!strcmp(st->syms[i].name, name))
			return &st->syms[i];
	return NULL;
}

const char *symbol_format_unknown(char *buf, size_t size, u64 addr, bool raw_hex)
{
	if (raw_hex)
		snprintf(buf, size, "0x%016" PRIx64, addr);
	else
		snprintf(buf, size, "[unknown]");
	return buf;
}

bool dso_name_is_perf_map(const char *name, int *pid)
{
	const char *p;
	char *end;
	long v;

	p = strrchr(name, '/');
	p = p ? p + 1 : name;
	if (strncmp(p, "perf-", 5))
		return false;
	v = strtol(p + 5, &end, 10);
	if (end == p + 5 || strcmp(end, ".map") || v <= 0)
		return false;
	if (pid)
		*pid = (int)v;
	return true;
}

bool dso_name_is_kernel(const char *name)
{
	size_t len = strlen(name);

	if (!strcmp(name, "[kernel.kallsyms]") || strstarts(name, "[guest.kernel.kallsyms"))
		return true;
	if (len > 2 && name[0] == '[' && name[len - 1] == ']')
		return !dso_name_is_special(name);
	return false;
}

bool dso_name_is_special(const char *name)
{
	static const char *const special[] = {
		"[vdso]", "[vdso32]", "[vdsox32]", "[vsyscall]", "[vvar]", "[heap]",
		"[stack]", "[uprobes]", "[anon]", "//anon", "/dev/zero", "/anon_hugepage",
		"/SYSV", "[unknown]",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(special); i++)
		if (!strncmp(name, special[i], strlen(special[i])))
			return true;
	return false;
}

const char *mmap_dso_name(const char *filename, int pid, u32 prot, u32 flags, char *buf,
			  size_t size)
{
	bool anon = !strcmp(filename, "//anon") || !strncmp(filename, "/dev/zero", 9) ||
		    !strncmp(filename, "/anon_hugepage", 14) || (flags & MAP_HUGETLB);
	bool no_dso = !strncmp(filename, "[stack", 6) || !strncmp(filename, "/SYSV", 5) ||
		      !strcmp(filename, "[heap]");

	if ((anon || no_dso) && (prot & PROT_EXEC) && pid > 0) {
		snprintf(buf, size, "/tmp/perf-%d.map", pid);
		return buf;
	}
	return filename;
}

const char *perf_map_short_name(const char *name, char *buf, size_t size)
{
	int pid;

	if (!dso_name_is_perf_map(name, &pid))
		return NULL;
	snprintf(buf, size, "[JIT] tid %d", pid);
	return buf;
}
