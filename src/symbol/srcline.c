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
	return sc;
}

static int free_entry(u64 key, void *val, void *arg)
{
	struct srcline_entry *e = val;

	free((void *)e->sl.inlines);
	free(e);
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
	if (!d && (!name || !sc->opts.no_demangle))
		name = dwarf_diename(die) ? dwarf_diename(die) : name;
	r = intern(sc, d ? d : (name ? name : "??"));
	free(d);
	return r;
}

static void find_inlines(struct srcline_cache *sc, Dwarf_Die *cudie, u64 addr,
			 struct srcline *sl)
{
	Dwarf_Die *scopes = NULL;
	int n = dwarf_getscopes(cudie, addr, &scopes), i;
	struct inline_frame *fr = NULL;
	size_t nr = 0, alloc = 0;
	Dwarf_Files *files = NULL;
	size_t nfiles = 0;

	if (n <= 0) {
		free(scopes);
		return;
	}
	dwarf_getsrcfiles(cudie, &files, &nfiles);
	for (i = 0; i < n; i++) {
		Dwarf_Attribute attr;
		Dwarf_Word fidx = 0, line = 0;
		struct inline_frame *f;

		if (dwarf_tag(&scopes[i]) != DW_TAG_inlined_subroutine)
			continue;
		ALLOC_GROW(fr, nr + 1, alloc);
		f = &fr[nr++];
		f->func = func_name(sc, &scopes[i]);
		if (dwarf_attr(&scopes[i], DW_AT_call_file, &attr))
			dwarf_formudata(&attr, &fidx);
		if (dwarf_attr(&scopes[i], DW_AT_call_line, &attr))
			dwarf_formudata(&attr, &line);
		f->file = files && fidx < nfiles ? intern(sc, dwarf_filesrc(files, fidx, NULL, NULL))
						 : NULL;
		f->line = (unsigned int)line;
	}
	free(scopes);
	sl->inlines = fr;
	sl->nr_inlines = nr;
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
	if (dw && dwarf_addrdie(dw, addr, &cudie)) {
		line = dwarf_getsrc_die(&cudie, addr);
		if (line) {
			int lineno = 0;

			e->sl.file = intern(sc, dwarf_linesrc(line, NULL, NULL));
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
