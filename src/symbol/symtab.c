/* SPDX-License-Identifier: MIT */
/*
 * Sorted symbol tables: alias resolution, end fix-up, binary-search lookup,
 * and perf's search-tree shape where symbols overlap.
 */
#define PR_PREFIX "symbol"
#include "symbol/symtab.h"

#include "lib/debug.h"
#include "lib/rbtree.h"
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
 * range holds the address. The same shape comes from any classic red-black
 * tree given the same operations: the same insertions (table order, equal
 * keys to the right), the same removals of aliases, then the PLT entries.
 * The tree is the project's (lib/rbtree.h), nodes kept in one array sized once.
 */
struct tree_node {
	RB_ENTRY(tree_node) link;
	u64 start, end; /* the symbol's range (ends after fix-up) */
	u32 sym;	/* index into symtab.syms, UINT32_MAX while unknown */
};

RB_HEAD(sym_rb, tree_node);

/* orders by start; never "equal", so a repeated start goes to the right */
static int node_order(const struct tree_node *a, const struct tree_node *b)
{
	return a->start < b->start ? -1 : 1;
}

RBTREE_GENERATE(sym_rb, tree_node, link, node_order)

struct symtab_tree {
	struct sym_rb root;
	struct tree_node *nodes; /* one per symbol ever inserted, by insertion id */
	bool always; /* zero-sized symbols present: every lookup walks the tree */
};

static void tree_free(struct symtab_tree *t)
{
	if (!t)
		return;
	free(t->nodes);
	free(t);
}

static struct symtab_tree *tree_new(size_t n)
{
	struct symtab_tree *t = xzalloc(sizeof(*t));

	t->nodes = xcalloc(n ? n : 1, sizeof(*t->nodes));
	RB_INIT(&t->root);
	return t;
}

/* tree_add - insert node @id with @start; its symbol is filled in later */
static void tree_add(struct symtab_tree *t, u32 id, u64 start)
{
	struct tree_node *x = &t->nodes[id];

	x->start = start;
	x->sym = UINT32_MAX;
	RB_INSERT(sym_rb, &t->root, x);
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

/*
 * radix_sort_ents - @ents by start, ties in their present order (the
 * order cmp_sort_ent gives, as idx rises along the array): a stable
 * byte-wise sort from the low byte, skipping bytes all starts share
 */
static void radix_sort_ents(struct sort_ent *ents, size_t n)
{
	struct sort_ent *tmp, *src = ents, *dst;
	u64 diff = 0;

	if (n < 64) {
		qsort(ents, n, sizeof(*ents), cmp_sort_ent);
		return;
	}
	for (size_t i = 1; i < n; i++)
		diff |= ents[i].start ^ ents[0].start;
	tmp = xmalloc(n * sizeof(*tmp));
	dst = tmp;
	for (int shift = 0; shift < 64; shift += 8) {
		size_t count[257] = { 0 };

		if (!((diff >> shift) & 0xff))
			continue;
		for (size_t i = 0; i < n; i++)
			count[((src[i].start >> shift) & 0xff) + 1]++;
		for (int b = 0; b < 256; b++)
			count[b + 1] += count[b];
		for (size_t i = 0; i < n; i++)
			dst[count[(src[i].start >> shift) & 0xff]++] = src[i];
		struct sort_ent *t = src;

		src = dst;
		dst = t;
	}
	if (src != ents)
		memcpy(ents, src, n * sizeof(*ents));
	free(tmp);
}

static void sort_stable(struct symbol *in, size_t n, struct symbol *out, u32 *order)
{
	struct sort_ent *ents = xmalloc((n ? n : 1) * sizeof(*ents));
	size_t i;

	for (i = 0; i < n; i++) {
		ents[i].start = in[i].start;
		ents[i].idx = i;
	}
	radix_sort_ents(ents, n);
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
		for (i = 0; i < nr_reg; i++)
			tree_add(t, (u32)i, reg[i].start);
		for (i = 0; i < nr_erased; i++)
			RB_REMOVE(sym_rb, &t->root, &t->nodes[erased[i]]);
		for (i = 0; i < nr_late; i++)
			tree_add(t, (u32)(nr_reg + i), late[i].start);
		for (i = 0; i < st->nr_syms; i++) {
			t->nodes[final_node[i]].sym = (u32)i;
			t->nodes[final_node[i]].end = st->syms[i].end;
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
	const struct tree_node *x = RB_ROOT(&st->tree->root);

	while (x) {
		if (addr < x->start)
			x = RB_LEFT(x, link);
		else if (addr > x->end || (addr == x->end && addr != x->start))
			x = RB_RIGHT(x, link);
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

static bool node_is_red(const struct tree_node *x)
{
	return x && RB_COLOR(x, link) == RB_RED;
}

/* black height of the subtree at @x, or -1 when a rule is broken */
static int check_node(const struct tree_node *x, const struct tree_node *parent, u64 lo,
		      u64 hi, size_t *count, size_t limit)
{
	int l, r;

	if (!x)
		return 1;
	if (++*count > limit || RB_PARENT(x, link) != parent || x->start < lo || x->start > hi)
		return -1;
	if (node_is_red(x) && (node_is_red(RB_LEFT(x, link)) || node_is_red(RB_RIGHT(x, link))))
		return -1;
	/* in-order is non-decreasing (rotations may move an equal key left) */
	l = check_node(RB_LEFT(x, link), x, lo, x->start, count, limit);
	r = check_node(RB_RIGHT(x, link), x, x->start, hi, count, limit);
	if (l < 0 || r < 0 || l != r)
		return -1;
	return l + !node_is_red(x);
}

int symtab_check_tree(const struct symtab *st)
{
	const struct symtab_tree *t = st->tree;
	size_t count = 0;

	if (!t)
		return 0;
	if (node_is_red(RB_ROOT(&t->root)))
		return -EINVAL;
	if (check_node(RB_ROOT(&t->root), NULL, 0, UINT64_MAX, &count, st->nr_syms) < 0)
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
