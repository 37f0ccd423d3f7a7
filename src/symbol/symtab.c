/* Sorted symbol tables: alias resolution, end fix-up, binary-search lookup. */
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

void symtab_release(struct symtab *st)
{
	free(st->syms);
	free(st->max_end);
	st->syms = NULL;
	st->max_end = NULL;
	st->nr_syms = st->alloc_syms = 0;
	st->is_finished = false;
}

struct symbol *symtab_add(struct symtab *st, u64 start, u64 size, int binding, int type,
			  const char *name)
{
	struct symbol *sym;

	ALLOC_GROW(st->syms, st->nr_syms + 1, st->alloc_syms);
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
		if (is_kallsyms && (s->flags & SYMBOL_KERNEL) && (!strchr(s->name, '[')) !=
								   (!strchr(next->name, '[')))
			s->end = PERF_ALIGN(s->start + 4096, 4096ULL);
		else
			s->end = next->start;
	}
	if (n && syms[n - 1].end == syms[n - 1].start) {
		syms[n - 1].flags |= SYMBOL_SIZE_FIXED;
		syms[n - 1].end = PERF_ALIGN(syms[n - 1].start, 4096ULL) + 4096;
	}
}

void symtab_finish(struct symtab *st, bool is_kallsyms)
{
	struct sort_ent *ents;
	struct symbol *sorted;
	size_t i, n = st->nr_syms, out;

	if (st->is_finished)
		return;
	if (!n) {
		st->is_finished = true;
		return;
	}
	for (i = 1; i < n && st->syms[i - 1].start <= st->syms[i].start; i++)
		;
	if (i == n) {
		/* already in order (kallsyms mostly is): no sort, same stable order */
		sorted = st->syms;
	} else {
		ents = xmalloc(n * sizeof(*ents));
		for (i = 0; i < n; i++) {
			ents[i].start = st->syms[i].start;
			ents[i].idx = i;
		}
		qsort(ents, n, sizeof(*ents), cmp_sort_ent);
		sorted = xmalloc(n * sizeof(*sorted));
		for (i = 0; i < n; i++)
			sorted[i] = st->syms[ents[i].idx];
		free(ents);
		free(st->syms);
	}
	/*
	 * perf fixes the ends before it drops aliases: of several zero-sized
	 * names at one address only the last one reaches the next symbol, so
	 * it wins as "the one with a size" (__x64_sys_getppid over
	 * __ia32_sys_getppid in kallsyms).
	 */
	fixup_ends(sorted, n, is_kallsyms);
	out = 0;
	for (i = 0; i < n; i++) {
		const struct symbol *s = &sorted[i];

		if (!st->allow_aliases && out && sorted[out - 1].start == s->start) {
			if (!prefer_first(&sorted[out - 1], s))
				sorted[out - 1] = *s;
			continue;
		}
		sorted[out++] = *s;
	}
	st->syms = sorted;
	st->nr_syms = out;
	st->alloc_syms = n;
	free(st->max_end);
	st->max_end = xmalloc((out ? out : 1) * sizeof(*st->max_end));
	for (i = 0; i < out; i++) {
		u64 e = st->syms[i].end;

		st->max_end[i] = (i && st->max_end[i - 1] > e) ? st->max_end[i - 1] : e;
	}
	st->is_finished = true;
}

const struct symbol *symtab_find(const struct symtab *st, u64 addr)
{
	size_t lo = 0, hi = st->nr_syms;
	ssize_t i;

	if (!st->is_finished || !st->nr_syms)
		return NULL;
	/* last symbol with start <= addr */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (st->syms[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* walk back only while an earlier symbol can still contain addr */
	for (i = (ssize_t)lo - 1; i >= 0 && st->max_end[i] > addr; i--) {
		if (addr < st->syms[i].end)
			return &st->syms[i];
	}
	return NULL;
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
