/* SPDX-License-Identifier: MIT */
/* DWARF for sonde probe: functions, their inlined copies, probe-able lines and line addresses. */
#include "symbol/probe-dwarf.h"
#include "symbol/probe-dwarf-internal.h"

#include "lib/xalloc.h"

#include <ctype.h>
#include <dwarf.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Functions */

/* the CU's producer names an optimization level other than -O0 */
static bool cu_is_optimized(Dwarf_Die *cu)
{
	Dwarf_Attribute attr;
	const char *prod = dwarf_formstring(dwarf_attr(cu, DW_AT_producer, &attr));
	const char *p, *last = NULL;

	if (!prod)
		return false;
	for (p = strstr(prod, " -O"); p; p = strstr(p + 1, " -O"))
		last = p + 3;
	return last && !(last[0] == '0' && (!last[1] || last[1] == ' '));
}

/* @path ends in @suffix, at a '/' boundary (or is it) */
static bool path_ends_with(const char *path, const char *suffix)
{
	size_t pl = strlen(path), sl = strlen(suffix);

	if (sl > pl)
		return false;
	if (strcmp(path + pl - sl, suffix))
		return false;
	return sl == pl || path[pl - sl - 1] == '/' || suffix[0] == '/';
}

/*
 * The concrete scopes at @addr, innermost first, down from @root (a
 * subprogram or inlined copy) through the blocks and inlined copies that
 * hold @addr. libdw's dwarf_getscopes() gives the abstract scopes of
 * inlined code instead of the caller's. *@out malloc'ed; returns the count.
 */
int probe_dwarf_scope_chain(Dwarf_Die *root, u64 addr, Dwarf_Die **out)
{
	Dwarf_Die *v = xmalloc(sizeof(*v));
	int nr = 1;
	Dwarf_Die cur = *root, child;

	v[0] = *root;
	while (nr < 64 && !dwarf_child(&cur, &child)) {
		bool down = false;

		do {
			int tag = dwarf_tag(&child);

			if ((tag == DW_TAG_lexical_block || tag == DW_TAG_inlined_subroutine) &&
			    dwarf_haspc(&child, addr) > 0) {
				v = xrealloc(v, (size_t)(nr + 1) * sizeof(*v));
				v[nr++] = child;
				cur = child;
				down = true;
				break;
			}
		} while (!dwarf_siblingof(&child, &child));
		if (!down)
			break;
	}
	/* innermost first */
	for (int i = 0; i < nr / 2; i++) {
		Dwarf_Die t = v[i];

		v[i] = v[nr - 1 - i];
		v[nr - 1 - i] = t;
	}
	*out = v;
	return nr;
}

/* the concrete subprogram of @cu holding @addr */
static bool subprogram_at(Dwarf_Die *cu, u64 addr, Dwarf_Die *fn)
{
	Dwarf_Die child;

	if (dwarf_child(cu, &child))
		return false;
	do {
		int tag = dwarf_tag(&child);

		if (tag == DW_TAG_subprogram && dwarf_haspc(&child, addr) > 0) {
			*fn = child;
			return true;
		}
		if (tag == DW_TAG_namespace && subprogram_at(&child, addr, fn))
			return true;
	} while (!dwarf_siblingof(&child, &child));
	return false;
}

static void fill_func(struct probe_dwarf_func *fn, Dwarf_Die *die, Dwarf_Die *cu,
		      Dwarf_Die *caller, bool optimized)
{
	Dwarf_Addr a = 0;

	memset(fn, 0, sizeof(*fn));
	fn->die = *die;
	fn->cu = *cu;
	fn->name = dwarf_diename(die);
	fn->file = dwarf_decl_file(die);
	if (dwarf_decl_line(die, &fn->decl_line))
		fn->decl_line = 0;
	if (!dwarf_entrypc(die, &a))
		fn->entry = a;
	fn->is_inlined = dwarf_tag(die) == DW_TAG_inlined_subroutine;
	fn->caller = *caller;
	fn->caller_name = dwarf_diename(caller);
	fn->caller_entry = fn->entry;
	if (fn->is_inlined && !dwarf_entrypc(caller, &a))
		fn->caller_entry = a;
	fn->is_optimized = optimized;
}

struct func_search {
	const char *name;
	const char *file;
	bool inlines;
	bool deep; /* this CU may hold inlined copies: walk into functions */
	bool optimized;
	Dwarf_Die cu;
	struct probe_dwarf_func *v;
	size_t nr, alloc;
};

static void func_push(struct func_search *fs, Dwarf_Die *die, Dwarf_Die *caller)
{
	const char *file = dwarf_decl_file(die);

	if (fs->file && (!file || !path_ends_with(file, fs->file)))
		return;
	if (fs->nr == fs->alloc) {
		fs->alloc = fs->alloc ? fs->alloc * 2 : 8;
		fs->v = xrealloc(fs->v, fs->alloc * sizeof(*fs->v));
	}
	fill_func(&fs->v[fs->nr++], die, &fs->cu, caller, fs->optimized);
}

static void walk_funcs(struct func_search *fs, Dwarf_Die *parent, Dwarf_Die *caller, int depth)
{
	Dwarf_Die child;

	if (depth > 64 || dwarf_child(parent, &child))
		return;
	do {
		int tag = dwarf_tag(&child);
		Dwarf_Addr a;

		if (tag == DW_TAG_subprogram) {
			const char *name = dwarf_diename(&child);

			if (dwarf_entrypc(&child, &a))
				continue; /* abstract or declaration: no code */
			if (name && !strcmp(name, fs->name))
				func_push(fs, &child, &child);
			if (fs->deep)
				walk_funcs(fs, &child, &child, depth + 1);
		} else if (tag == DW_TAG_inlined_subroutine) {
			const char *name = dwarf_diename(&child);

			if (name && !strcmp(name, fs->name) && !dwarf_entrypc(&child, &a))
				func_push(fs, &child, caller);
			walk_funcs(fs, &child, caller, depth + 1);
		} else if (tag == DW_TAG_lexical_block || tag == DW_TAG_namespace) {
			walk_funcs(fs, &child, caller, depth + 1);
		}
	} while (!dwarf_siblingof(&child, &child));
}

/*
 * A CU can hold the function or inlined copies of it only if one of its
 * top-level subprograms (concrete, abstract or declared) has the name:
 * inlined copies refer to an abstract DIE of their own CU. The walk goes
 * into functions only when the name was declared inline (DW_AT_inline on
 * it or its origin). Namespaces and partial units are searched in full.
 */
enum cu_search { CU_SKIP, CU_TOP, CU_DEEP };

static enum cu_search cu_may_have(Dwarf_Die *cu, const char *name)
{
	enum cu_search ret = CU_SKIP;
	Dwarf_Die child;

	if (dwarf_tag(cu) != DW_TAG_compile_unit || dwarf_child(cu, &child))
		return CU_DEEP;
	do {
		int tag = dwarf_tag(&child);
		const char *n;

		if (tag == DW_TAG_namespace || tag == DW_TAG_imported_unit)
			return CU_DEEP;
		if (tag != DW_TAG_subprogram)
			continue;
		n = dwarf_diename(&child);
		if (!n || strcmp(n, name))
			continue;
		/* only a function declared inline can have inlined copies */
		if (dwarf_hasattr_integrate(&child, DW_AT_inline))
			return CU_DEEP;
		ret = CU_TOP;
	} while (!dwarf_siblingof(&child, &child));
	return ret;
}

int probe_dwarf_find_funcs(struct probe_binary *pb, const char *name, const char *file,
			   bool inlines, struct probe_dwarf_func **out)
{
	struct func_search fs = { .name = name, .file = file, .inlines = inlines };
	Dwarf *dw = probe_binary_dwarf(pb);
	Dwarf_Off off = 0, next;
	size_t hsize;

	*out = NULL;
	if (!dw)
		return -ENOENT;
	while (!dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL)) {
		enum cu_search how = dwarf_offdie(dw, off + hsize, &fs.cu) ? cu_may_have(&fs.cu, name)
									  : CU_SKIP;

		if (how != CU_SKIP) {
			fs.optimized = cu_is_optimized(&fs.cu);
			fs.deep = inlines && how == CU_DEEP;
			walk_funcs(&fs, &fs.cu, &fs.cu, 0);
		}
		off = next;
	}
	*out = fs.v;
	return (int)fs.nr;
}

int probe_dwarf_func_at(struct probe_binary *pb, u64 addr, struct probe_dwarf_func *fn)
{
	Dwarf *dw = probe_binary_dwarf(pb);
	Dwarf_Die cu, sub;

	if (!dw || !dwarf_addrdie(dw, addr, &cu) || !subprogram_at(&cu, addr, &sub))
		return -ENOENT;
	fill_func(fn, &sub, &cu, &sub, cu_is_optimized(&cu));
	return 0;
}

/* ------------------------------------------------------------------ */
/* Lines */

/*
 * The line a statement at @addr counts for in a listing: the declaration
 * line at a function's entry; in a function's listing (@in_func) the call
 * line at the entry of inlined code, and nothing elsewhere in it.
 */
static int listed_line(Dwarf_Die *cu, u64 addr, int line, bool in_func)
{
	Dwarf_Die sub, *scopes = NULL;
	Dwarf_Addr entry;
	int decl, n, ret = line;

	if (!subprogram_at(cu, addr, &sub))
		return line;
	if (!dwarf_entrypc(&sub, &entry) && entry == addr && !dwarf_decl_line(&sub, &decl))
		return decl;
	if (!in_func)
		return line;
	n = probe_dwarf_scope_chain(&sub, addr, &scopes);
	/* inlined code counts at its entry only, on the call's line */
	for (int j = n - 2; j >= 0; j--) {
		Dwarf_Attribute attr;
		Dwarf_Word call;

		if (dwarf_tag(&scopes[j]) != DW_TAG_inlined_subroutine)
			continue;
		if (dwarf_entrypc(&scopes[j], &entry) || entry != addr ||
		    dwarf_formudata(dwarf_attr(&scopes[j], DW_AT_call_line, &attr), &call))
			ret = -1;
		else
			ret = (int)call;
		break;
	}
	free(scopes);
	return ret;
}

static void lines_mark(struct probe_lines *pl, int line)
{
	if (line <= 0)
		return;
	if (line >= pl->nr_lines) {
		int nr = line * 2 + 64;

		pl->is_probe = xrealloc(pl->is_probe, (size_t)nr * sizeof(*pl->is_probe));
		memset(pl->is_probe + pl->nr_lines, 0, (size_t)(nr - pl->nr_lines) * sizeof(bool));
		pl->nr_lines = nr;
	}
	pl->is_probe[line] = true;
	if (line > pl->last)
		pl->last = line;
}

/* every statement row of @path in @cu, inside @fn when not NULL */
static void cu_lines(Dwarf_Die *cu, const char *path, const struct probe_dwarf_func *fn,
		     struct probe_lines *pl)
{
	Dwarf_Lines *lines;
	size_t nr;

	u64 prev = 0;
	bool has_prev = false;

	if (dwarf_getsrclines(cu, &lines, &nr))
		return;
	for (size_t i = 0; i < nr; i++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i);
		const char *src;
		Dwarf_Addr a;
		bool stmt = false, same;
		int line;

		if (dwarf_linebeginstatement(l, &stmt) || !stmt || dwarf_lineaddr(l, &a))
			continue;
		/* of the statements at one address only the first counts */
		same = has_prev && a == prev;
		prev = a;
		has_prev = true;
		src = dwarf_linesrc(l, NULL, NULL);
		if (same || !src || strcmp(src, path) || dwarf_lineno(l, &line) || line <= 0)
			continue;
		if (fn && dwarf_haspc((Dwarf_Die *)&fn->die, a) <= 0)
			continue;
		lines_mark(pl, listed_line(cu, a, line, fn != NULL));
	}
}

int probe_dwarf_func_lines(struct probe_binary *pb, const struct probe_dwarf_func *fn,
			   struct probe_lines *pl)
{
	memset(pl, 0, sizeof(*pl));
	if (!fn->file)
		return -ENOENT;
	pl->path = xstrdup(fn->file);
	cu_lines((Dwarf_Die *)&fn->cu, fn->file, fn, pl);
	return 0;
}

/* the line of the first statement at @addr in @cu's line table, or 0 */
static int stmt_line_at(Dwarf_Die *cu, u64 addr)
{
	Dwarf_Lines *lines;
	size_t nr;

	if (dwarf_getsrclines(cu, &lines, &nr))
		return 0;
	for (size_t i = 0; i < nr; i++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i);
		Dwarf_Addr a;
		bool stmt = false;
		int line;

		if (!dwarf_lineaddr(l, &a) && a == addr && !dwarf_linebeginstatement(l, &stmt) &&
		    stmt && !dwarf_lineno(l, &line))
			return line;
	}
	return 0;
}

int probe_dwarf_inlined_lines(struct probe_binary *pb, const struct probe_dwarf_func *fns,
			      size_t nr, struct probe_lines *pl)
{
	memset(pl, 0, sizeof(*pl));
	if (!nr || !fns[0].file)
		return -ENOENT;
	pl->path = xstrdup(fns[0].file);
	for (size_t i = 0; i < nr; i++) {
		Dwarf_Addr base, start, end, low = 0;
		ptrdiff_t off = 0;
		bool any = false;

		while ((off = dwarf_ranges((Dwarf_Die *)&fns[i].die, off, &base, &start, &end)) > 0) {
			if (!any || start < low)
				low = start;
			any = true;
		}
		if (any)
			lines_mark(pl, stmt_line_at((Dwarf_Die *)&fns[i].cu, low));
	}
	(void)pb;
	return 0;
}

/* calls @fn for each CU; stops when it returns non-zero */
static int each_cu(Dwarf *dw, int (*fn)(Dwarf_Die *cu, void *arg), void *arg)
{
	Dwarf_Off off = 0, next;
	size_t hsize;
	int ret = 0;

	while (!ret && !dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL)) {
		Dwarf_Die cu;

		if (dwarf_offdie(dw, off + hsize, &cu))
			ret = fn(&cu, arg);
		off = next;
	}
	return ret;
}

struct file_find {
	const char *suffix;
	const char *found;
};

static int cu_find_file(Dwarf_Die *cu, void *arg)
{
	struct file_find *ff = arg;
	Dwarf_Files *files;
	size_t nr;

	if (dwarf_getsrcfiles(cu, &files, &nr))
		return 0;
	for (size_t i = 0; i < nr; i++) {
		const char *name = dwarf_filesrc(files, i, NULL, NULL);

		if (name && path_ends_with(name, ff->suffix)) {
			ff->found = name;
			return 1;
		}
	}
	return 0;
}

const char *probe_dwarf_find_file(struct probe_binary *pb, const char *file)
{
	struct file_find ff = { file, NULL };
	Dwarf *dw = probe_binary_dwarf(pb);

	if (dw)
		each_cu(dw, cu_find_file, &ff);
	return ff.found;
}

struct file_lines {
	const char *path;
	struct probe_lines *pl;
};

static int cu_file_lines(Dwarf_Die *cu, void *arg)
{
	struct file_lines *fl = arg;

	cu_lines(cu, fl->path, NULL, fl->pl);
	return 0;
}

int probe_dwarf_file_lines(struct probe_binary *pb, const char *file, struct probe_lines *pl)
{
	const char *path = probe_dwarf_find_file(pb, file);
	struct file_lines fl = { path, pl };

	memset(pl, 0, sizeof(*pl));
	if (!path)
		return -ENOENT;
	pl->path = xstrdup(path);
	each_cu(probe_binary_dwarf(pb), cu_file_lines, &fl);
	return 0;
}

void probe_lines_release(struct probe_lines *pl)
{
	free(pl->path);
	free(pl->is_probe);
	memset(pl, 0, sizeof(*pl));
}

struct line_addrs {
	const char *path;
	int line;
	const struct probe_dwarf_func *fn;
	u64 *v;
	size_t nr, alloc;
};

int probe_dwarf_stmt_line_at(const struct probe_dwarf_func *fn, u64 addr)
{
	return stmt_line_at((Dwarf_Die *)&fn->cu, addr);
}

static int cu_line_addrs(Dwarf_Die *cu, void *arg)
{
	struct line_addrs *la = arg;
	Dwarf_Lines *lines;
	size_t nr;

	if (dwarf_getsrclines(cu, &lines, &nr))
		return 0;
	for (size_t i = 0; i < nr; i++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i);
		const char *src;
		Dwarf_Addr a;
		bool stmt = false, seen = false;
		int line;

		if (dwarf_lineno(l, &line) || line != la->line || dwarf_linebeginstatement(l, &stmt) ||
		    !stmt || dwarf_lineaddr(l, &a))
			continue;
		src = dwarf_linesrc(l, NULL, NULL);
		if (!src || strcmp(src, la->path))
			continue;
		if (la->fn && dwarf_haspc((Dwarf_Die *)&la->fn->die, a) <= 0)
			continue;
		for (size_t j = 0; j < la->nr && !seen; j++)
			seen = la->v[j] == a;
		if (seen)
			continue;
		if (la->nr == la->alloc) {
			la->alloc = la->alloc ? la->alloc * 2 : 8;
			la->v = xrealloc(la->v, la->alloc * sizeof(*la->v));
		}
		la->v[la->nr++] = a;
	}
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

int probe_dwarf_line_addrs(struct probe_binary *pb, const char *path, int line,
			   const struct probe_dwarf_func *fn, u64 **addrs)
{
	struct line_addrs la = { .path = path, .line = line, .fn = fn };
	Dwarf *dw = probe_binary_dwarf(pb);

	*addrs = NULL;
	if (!dw)
		return -ENOENT;
	if (fn)
		cu_line_addrs((Dwarf_Die *)&fn->cu, &la);
	else
		each_cu(dw, cu_line_addrs, &la);
	if (la.nr > 1)
		qsort(la.v, la.nr, sizeof(*la.v), cmp_u64);
	*addrs = la.v;
	return (int)la.nr;
}

/* the lines of @path whose text, blanks removed, matches @pattern (blanks removed) */
static bool *lazy_lines(const char *path, const char *pattern, int *nr_lines)
{
	FILE *f = fopen(path, "r");
	char *pat = xstrdup(pattern), *q = pat;
	char *line = NULL;
	size_t cap = 0;
	bool *hit = NULL;
	int nr = 0;

	*nr_lines = 0;
	for (const char *p = pattern; *p; p++)
		if (!isspace((unsigned char)*p))
			*q++ = *p;
	*q = 0;
	if (!f) {
		free(pat);
		return NULL;
	}
	while (getline(&line, &cap, f) > 0) {
		char *w = line;

		for (const char *p = line; *p; p++)
			if (!isspace((unsigned char)*p))
				*w++ = *p;
		*w = 0;
		hit = xrealloc(hit, (size_t)(nr + 2) * sizeof(*hit));
		hit[0] = false;
		hit[++nr] = !fnmatch(pat, line, 0);
	}
	free(line);
	free(pat);
	fclose(f);
	*nr_lines = nr;
	return hit;
}

/* @addr is in code inlined into @fn's concrete function */
static bool in_inlined(const struct probe_dwarf_func *fn, u64 addr)
{
	Dwarf_Die *scopes = NULL;
	int n = probe_dwarf_scope_chain((Dwarf_Die *)&fn->caller, addr, &scopes);
	bool ret = false;

	for (int i = 0; i < n - 1 && !ret; i++)
		ret = dwarf_tag(&scopes[i]) == DW_TAG_inlined_subroutine;
	free(scopes);
	return ret;
}

static void addrs_push(u64 **v, size_t *nr, u64 a)
{
	for (size_t i = 0; i < *nr; i++)
		if ((*v)[i] == a)
			return;
	*v = xrealloc(*v, (*nr + 1) * sizeof(**v));
	(*v)[(*nr)++] = a;
}

struct lazy_search {
	const char *path;
	const bool *hit;
	int nr_lines;
	const struct probe_dwarf_func *fn;
	u64 *v;
	size_t nr;
};

static int cu_lazy_rows(Dwarf_Die *cu, void *arg)
{
	struct lazy_search *ls = arg;
	Dwarf_Lines *lines;
	size_t nr;

	if (dwarf_getsrclines(cu, &lines, &nr))
		return 0;
	for (size_t i = 0; i < nr; i++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i);
		const char *src;
		Dwarf_Addr a;
		bool stmt = false;
		int line;

		if (dwarf_linebeginstatement(l, &stmt) || !stmt || dwarf_lineaddr(l, &a) ||
		    dwarf_lineno(l, &line) || line <= 0 || line > ls->nr_lines || !ls->hit[line])
			continue;
		src = dwarf_linesrc(l, NULL, NULL);
		if (!src || strcmp(src, ls->path))
			continue;
		if (ls->fn && (dwarf_haspc((Dwarf_Die *)&ls->fn->die, a) <= 0 || in_inlined(ls->fn, a)))
			continue;
		addrs_push(&ls->v, &ls->nr, a);
	}
	return 0;
}

/* functions declared on a matching line of the file: their entries */
static int cu_lazy_decls(Dwarf_Die *cu, void *arg)
{
	struct lazy_search *ls = arg;
	Dwarf_Die child;

	if (dwarf_child(cu, &child))
		return 0;
	do {
		const char *file;
		Dwarf_Addr a;
		int line;

		if (dwarf_tag(&child) != DW_TAG_subprogram || dwarf_entrypc(&child, &a) ||
		    dwarf_decl_line(&child, &line) || line <= 0 || line > ls->nr_lines ||
		    !ls->hit[line])
			continue;
		file = dwarf_decl_file(&child);
		if (file && !strcmp(file, ls->path))
			addrs_push(&ls->v, &ls->nr, a);
	} while (!dwarf_siblingof(&child, &child));
	return 0;
}

int probe_dwarf_lazy_addrs(struct probe_binary *pb, const char *path, const char *pattern,
			   const struct probe_dwarf_func *fn, u64 **addrs)
{
	struct lazy_search ls = { .path = path, .fn = fn };
	Dwarf *dw = probe_binary_dwarf(pb);
	bool *hit;

	*addrs = NULL;
	if (!dw)
		return -ENOENT;
	hit = lazy_lines(path, pattern, &ls.nr_lines);
	if (!hit)
		return -errno ? -errno : -ENOENT;
	ls.hit = hit;
	if (fn) {
		cu_lazy_rows((Dwarf_Die *)&fn->cu, &ls);
	} else {
		each_cu(dw, cu_lazy_rows, &ls);
		each_cu(dw, cu_lazy_decls, &ls);
	}
	free(hit);
	*addrs = ls.v;
	return (int)ls.nr;
}

u64 probe_dwarf_after_prologue(struct probe_binary *pb, const struct probe_dwarf_func *fn)
{
	Dwarf_Lines *lines;
	size_t nr;
	u64 best = 0;

	if (dwarf_getsrclines((Dwarf_Die *)&fn->cu, &lines, &nr))
		return fn->entry;
	for (size_t i = 0; i < nr; i++) {
		Dwarf_Addr a;

		if (dwarf_lineaddr(dwarf_onesrcline(lines, i), &a) || a <= fn->entry ||
		    (best && a >= best) || dwarf_haspc((Dwarf_Die *)&fn->die, a) <= 0)
			continue;
		best = a;
	}
	return best ? best : fn->entry;
}
