/* SPDX-License-Identifier: MIT */
/*
 * Source lines through libdw, in-process: one Dwarf handle per DSO (the
 * binary or its debug file), a cache of answers per address.
 */
#define PR_PREFIX "srcline"
#include "symbol/srcline.h"

#include "lib/debug.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "symbol/demangle.h"
#include "symbol/elf.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct srcline_entry {
	struct srcline sl;
	int err;
};

struct srcline_cache {
	char *path;	  /* owned: the binary */
	char *debug_path; /* owned: the file with DWARF, once found (may equal path) */
	struct symbol_opts opts;
	struct strpool *pool; /* borrowed */
	int fd;
	Dwarf *dwarf;
	bool tried;
	struct u64map cache;   /* addr -> struct srcline_entry (owned) */
	struct u64map cache_inl; /* addr -> entry with inlines (owned) */
	struct u64map cus;	 /* CU DIE offset -> struct cu_funcs (owned) */
};

/*
 * The functions of one CU by address, built once: finding the function of
 * an address is then a binary search, and only its own DIE subtree is
 * walked for inlined calls (dwarf_getscopes walks the whole CU each time).
 */
struct cu_func {
	u64 lo, hi;
	Dwarf_Off off; /* the DW_TAG_subprogram DIE */
};

struct cu_funcs {
	struct cu_func *f;
	size_t nr, alloc;
};

struct srcline_cache *srcline_cache_new(const char *path, const char *debug_path,
					 const struct symbol_opts *opts, struct strpool *pool)
{
	struct srcline_cache *sc = xzalloc(sizeof(*sc));

	sc->path = xstrdup(path);
	sc->debug_path = debug_path ? xstrdup(debug_path) : NULL;
	if (opts)
		sc->opts = *opts;
	sc->opts.symfs = NULL;
	sc->opts.buildid_dir = NULL;
	sc->opts.kallsyms = NULL;
	sc->pool = pool;
	sc->fd = -1;
	u64map_init(&sc->cache);
	u64map_init(&sc->cache_inl);
	u64map_init(&sc->cus);
	return sc;
}

static int free_entry(u64 key, void *val, void *arg)
{
	struct srcline_entry *e = val;

	free((void *)e->sl.inlines);
	free(e);
	return 0;
}

static int free_cu(u64 key, void *val, void *arg)
{
	struct cu_funcs *cf = val;

	free(cf->f);
	free(cf);
	return 0;
}

void srcline_cache_free(struct srcline_cache *sc)
{
	if (!sc)
		return;
	u64map_for_each(&sc->cache, free_entry, NULL);
	u64map_for_each(&sc->cache_inl, free_entry, NULL);
	u64map_release(&sc->cache);
	u64map_release(&sc->cache_inl);
	u64map_for_each(&sc->cus, free_cu, NULL);
	u64map_release(&sc->cus);
	if (sc->dwarf)
		dwarf_end(sc->dwarf);
	if (sc->fd >= 0)
		close(sc->fd);
	free(sc->path);
	free(sc->debug_path);
	free(sc);
}

static Dwarf *try_open(struct srcline_cache *sc, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	Dwarf *dw;

	if (fd < 0)
		return NULL;
	dw = dwarf_begin(fd, DWARF_C_READ);
	if (!dw) {
		close(fd);
		return NULL;
	}
	sc->fd = fd;
	return dw;
}

static Dwarf *get_dwarf(struct srcline_cache *sc)
{
	struct strbuf dbg = STRBUF_INIT;
	u8 bid[BUILD_ID_SIZE];
	int bl;

	if (sc->tried)
		return sc->dwarf;
	sc->tried = true;
	if (sc->debug_path)
		sc->dwarf = try_open(sc, sc->debug_path);
	if (!sc->dwarf)
		sc->dwarf = try_open(sc, sc->path);
	if (!sc->dwarf) {
		bl = buildid_read_path(sc->path, bid, sizeof(bid));
		if (!debugfile_find(&dbg, sc->path, NULL, bl > 0 ? bid : NULL, bl > 0 ? bl : 0,
				    &sc->opts))
			sc->dwarf = try_open(sc, dbg.buf);
	}
	strbuf_release(&dbg);
	pr_debug("%s: %s\n", sc->path, sc->dwarf ? "DWARF found" : "no DWARF");
	return sc->dwarf;
}

static const char *intern(struct srcline_cache *sc, const char *s)
{
	return s ? strpool_intern(sc->pool, s) : NULL;
}

static const char *func_name(struct srcline_cache *sc, Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	const char *name = NULL;
	char *d = NULL;
	const char *r;

	if (dwarf_attr_integrate(die, DW_AT_linkage_name, &attr) ||
	    dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &attr))
		name = dwarf_formstring(&attr);
	if (name && !sc->opts.no_demangle)
		d = demangle(name, sc->opts.demangle_params ? DEMANGLE_PARAMS : 0);
	/*
	 * a linkage name that is no mangled one (C's asm-label aliases, ld.so's
	 * "__GI___open64_nocancel" for "__open64_nocancel") is what addr2line,
	 * and so perf, names the function by
	 */
	if (!d && !name)
		name = dwarf_diename(die);
	r = intern(sc, d ? d : (name ? name : "??"));
	free(d);
	return r;
}

static void collect_funcs(Dwarf_Die *parent, struct cu_funcs *cf, int depth)
{
	Dwarf_Die child;

	if (depth > 8 || dwarf_child(parent, &child))
		return;
	do {
		int tag = dwarf_tag(&child);

		if (tag == DW_TAG_subprogram) {
			Dwarf_Addr base, lo, hi;
			ptrdiff_t off = 0;

			while ((off = dwarf_ranges(&child, off, &base, &lo, &hi)) > 0) {
				cf->f = xgrow(cf->f, cf->nr + 1, &cf->alloc, sizeof(*cf->f));
				cf->f[cf->nr].lo = lo;
				cf->f[cf->nr].hi = hi;
				cf->f[cf->nr].off = dwarf_dieoffset(&child);
				cf->nr++;
			}
		} else if (tag == DW_TAG_namespace || tag == DW_TAG_class_type ||
			   tag == DW_TAG_structure_type || tag == DW_TAG_union_type) {
			collect_funcs(&child, cf, depth + 1);
		}
	} while (!dwarf_siblingof(&child, &child));
}

static int cmp_func(const void *a, const void *b)
{
	const struct cu_func *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

static struct cu_funcs *cu_funcs_of(struct srcline_cache *sc, Dwarf_Die *cudie)
{
	Dwarf_Off key = dwarf_dieoffset(cudie);
	struct cu_funcs *cf = u64map_find(&sc->cus, key);

	if (cf)
		return cf;
	cf = xzalloc(sizeof(*cf));
	collect_funcs(cudie, cf, 0);
	qsort(cf->f, cf->nr, sizeof(*cf->f), cmp_func);
	u64map_set(&sc->cus, key, cf);
	return cf;
}

static bool find_func(struct srcline_cache *sc, Dwarf_Die *cudie, u64 addr, Dwarf_Die *out)
{
	struct cu_funcs *cf = cu_funcs_of(sc, cudie);
	size_t lo = 0, hi = cf->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cf->f[mid].lo <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo-- > 0) {
		if (addr < cf->f[lo].hi)
			return dwarf_offdie(sc->dwarf, cf->f[lo].off, out) != NULL;
		if (lo && cf->f[lo - 1].hi <= cf->f[lo].lo)
			break; /* ranges do not nest further back */
	}
	return false;
}

static void find_inlines(struct srcline_cache *sc, Dwarf_Die *cudie, u64 addr,
			 struct srcline *sl)
{
	Dwarf_Die die, child;
	struct inline_frame *fr = NULL, tmp;
	size_t nr = 0, alloc = 0, i;
	Dwarf_Files *files = NULL;
	size_t nfiles = 0;
	int depth = 0;

	if (!find_func(sc, cudie, addr, &die))
		return;
	sl->func = func_name(sc, &die);
	dwarf_getsrcfiles(cudie, &files, &nfiles);
	/* descend through the blocks and inlined calls that hold addr: outermost first */
	while (depth++ < 64 && !dwarf_child(&die, &child)) {
		bool found = false;

		do {
			int tag = dwarf_tag(&child);
			Dwarf_Attribute attr;
			Dwarf_Word fidx = 0, line = 0;
			struct inline_frame *f;

			if (tag != DW_TAG_inlined_subroutine && tag != DW_TAG_lexical_block)
				continue;
			if (dwarf_haspc(&child, addr) != 1)
				continue;
			found = true;
			if (tag == DW_TAG_inlined_subroutine) {
				fr = xgrow(fr, nr + 1, &alloc, sizeof(*fr));
				f = &fr[nr++];
				f->func = func_name(sc, &child);
				if (dwarf_attr(&child, DW_AT_call_file, &attr))
					dwarf_formudata(&attr, &fidx);
				if (dwarf_attr(&child, DW_AT_call_line, &attr))
					dwarf_formudata(&attr, &line);
				f->file = files && fidx < nfiles
						  ? intern(sc, dwarf_filesrc(files, fidx, NULL, NULL))
						  : NULL;
				f->line = (unsigned int)line;
			}
			break;
		} while (!dwarf_siblingof(&child, &child));
		if (!found)
			break;
		die = child;
	}
	/* innermost first */
	for (i = 0; i < nr / 2; i++) {
		tmp = fr[i];
		fr[i] = fr[nr - 1 - i];
		fr[nr - 1 - i] = tmp;
	}
	sl->inlines = fr;
	sl->nr_inlines = nr;
}

/* line_index - where @line sits in @lines (libdw hands out pointers into one array) */
static bool line_index(Dwarf_Lines *lines, size_t nr, Dwarf_Line *line, size_t *idx)
{
	char *first = nr ? (char *)dwarf_onesrcline(lines, 0) : NULL;
	char *second = nr > 1 ? (char *)dwarf_onesrcline(lines, 1) : NULL;
	size_t stride, off;

	if (!first || (char *)line < first)
		return false;
	if (!second) {
		*idx = 0;
		return (char *)line == first;
	}
	if (second <= first)
		return false;
	stride = (size_t)(second - first);
	off = (size_t)((char *)line - first);
	if (off % stride || off / stride >= nr)
		return false;
	*idx = off / stride;
	return dwarf_onesrcline(lines, *idx) == line;
}

const char *srcline_line_src(Dwarf_Die *cudie, Dwarf_Line *line)
{
	const char *src = dwarf_linesrc(line, NULL, NULL);
	Dwarf_Files *files;
	Dwarf_Lines *lines;
	size_t fidx, nfiles, nr, i;
	Dwarf_Half version = 0;
	const char *f0, *f1;

	if (!src || dwarf_line_file(line, &files, &fidx) || fidx != 1)
		return src;
	if (dwarf_cu_info(cudie->cu, &version, NULL, NULL, NULL, NULL, NULL, NULL) || version < 5)
		return src;
	if (dwarf_getsrcfiles(cudie, &files, &nfiles) || nfiles < 2)
		return src;
	f0 = dwarf_filesrc(files, 0, NULL, NULL);
	f1 = dwarf_filesrc(files, 1, NULL, NULL);
	if (!f0 || !f1 || !strcmp(f0, f1))
		return src;
	if (dwarf_getsrclines(cudie, &lines, &nr) || !line_index(lines, nr, line, &i))
		return src;
	/* back to the sequence's first row (libdw keeps a sequence's rows together) */
	for (;;) {
		Dwarf_Files *lf;
		size_t li;
		bool end = false;

		if (dwarf_line_file(dwarf_onesrcline(lines, i), &lf, &li) || li != 1)
			return src; /* the file was set in this sequence */
		if (i == 0)
			break;
		dwarf_lineendsequence(dwarf_onesrcline(lines, i - 1), &end);
		if (end)
			break;
		i--;
	}
	return f0;
}

/*
 * intern_path - a line-table file name made absolute with the CU's
 * DW_AT_comp_dir when relative, as addr2line (and so perf) prints it.
 */
static const char *intern_path(struct srcline_cache *sc, Dwarf_Die *cudie, const char *file)
{
	Dwarf_Attribute attr;
	const char *dir;
	const char *r;
	char *joined;

	if (!file || file[0] == '/')
		return intern(sc, file);
	dir = dwarf_formstring(dwarf_attr(cudie, DW_AT_comp_dir, &attr));
	if (!dir || !*dir)
		return intern(sc, file);
	joined = xasprintf("%s/%s", dir, file);
	r = intern(sc, joined);
	free(joined);
	return r;
}

int srcline_find(struct srcline_cache *sc, u64 addr, bool want_inlines, struct srcline *out)
{
	struct u64map *map = want_inlines ? &sc->cache_inl : &sc->cache;
	struct srcline_entry *e = u64map_find(map, addr);
	Dwarf *dw;
	Dwarf_Die cudie;
	Dwarf_Line *line;

	if (e)
		goto done;
	e = xzalloc(sizeof(*e));
	e->err = -ENOENT;
	dw = get_dwarf(sc);
	if (!dw)
		e->err = -ENODATA;
	if (dw && dwarf_addrdie(dw, addr, &cudie)) {
		line = dwarf_getsrc_die(&cudie, addr);
		if (line) {
			int lineno = 0;

			e->sl.file = intern_path(sc, &cudie, srcline_line_src(&cudie, line));
			dwarf_lineno(line, &lineno);
			e->sl.line = lineno > 0 ? (unsigned int)lineno : 0;
			e->err = e->sl.file ? 0 : -ENOENT;
		}
		if (want_inlines)
			find_inlines(sc, &cudie, addr, &e->sl);
	}
	u64map_set(map, addr, e);
done:
	memset(out, 0, sizeof(*out));
	if (e->err)
		return e->err;
	*out = e->sl;
	return 0;
}

const char *srcline_format(const struct srcline *sl, bool full_path, char *buf, size_t size)
{
	const char *f;

	if (!sl || !sl->file || !sl->line) {
		snprintf(buf, size, "??:0");
		return buf;
	}
	f = sl->file;
	if (!full_path && strrchr(f, '/'))
		f = strrchr(f, '/') + 1;
	snprintf(buf, size, "%s:%u", f, sl->line);
	return buf;
}

const char *srcline_format_unknown(char *buf, size_t size, const char *sym_name, u64 sym_off,
				   const char *dso_short_name, u64 addr)
{
	if (sym_name)
		snprintf(buf, size, "%s+%llu", sym_name, (unsigned long long)sym_off);
	else
		snprintf(buf, size, "%s[%llx]", dso_short_name ? dso_short_name : "??",
			 (unsigned long long)addr);
	return buf;
}
