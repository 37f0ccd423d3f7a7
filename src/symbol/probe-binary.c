/* SPDX-License-Identifier: MIT */
/* Symbols, file offsets and DWARF declaring files of one binary for sonde probe (libelf, libdw). */
#include "symbol/probe-binary.h"

#include "lib/xalloc.h"
#include "symbol/elf.h"

#include <dwarf.h>
#include <elf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int probe_binary_load(struct probe_binary *pb, const char *path)
{
	struct elf_syms_info info = { 0 };
	struct strbuf dbg = STRBUF_INIT;
	int n;

	memset(pb, 0, sizeof(*pb));
	strpool_init(&pb->pool);
	symtab_init(&pb->st, &pb->pool);
	pb->st.allow_aliases = true;
	pb->is_loaded = true;
	pb->path = xstrdup(path);
	n = elf_load_symbols(&pb->st, path, NULL, &info);
	if (n < 0)
		return n;
	pb->segs = info.segs;
	pb->nr_segs = info.nr_segs;
	pb->has_dwarf = info.has_debug_info;
	if (!info.has_symtab &&
	    !debugfile_find(&dbg, path, NULL, info.build_id, info.build_id_size, NULL)) {
		/* the debug file's .symtab replaces .dynsym; the PLT stays the binary's */
		struct elf_syms_info dinfo = { 0 };
		struct symtab full;

		symtab_init(&full, &pb->pool);
		full.allow_aliases = true;
		n = elf_load_symbols(&full, dbg.buf, NULL, &dinfo);
		free(dinfo.segs);
		if (n > 0 && dinfo.has_symtab) {
			symtab_release(&pb->st);
			pb->st = full;
			elf_load_plt(&pb->st, path, NULL);
			pb->debug_path = strbuf_detach(&dbg, NULL);
			pb->has_dwarf |= dinfo.has_debug_info;
		} else {
			symtab_release(&full);
		}
	}
	strbuf_release(&dbg);
	symtab_finish(&pb->st, false);
	return 0;
}

void probe_binary_release(struct probe_binary *pb)
{
	if (pb->is_loaded) {
		symtab_release(&pb->st);
		strpool_release(&pb->pool);
	}
	free(pb->segs);
	free(pb->path);
	free(pb->debug_path);
	memset(pb, 0, sizeof(*pb));
}

/* @sym is @name itself, or its PLT entry "@name@plt" */
static bool names_func(const struct symbol *sym, const char *name)
{
	size_t n = strlen(name);

	if (sym->flags & SYMBOL_PLT)
		return !strncmp(sym->name, name, n) && !strcmp(sym->name + n, "@plt");
	return (sym->type == STT_FUNC || sym->type == STT_GNU_IFUNC) && !strcmp(sym->name, name);
}

size_t probe_binary_find_func(const struct probe_binary *pb, const char *name,
			      const struct symbol **hits, size_t max)
{
	size_t nr = 0;

	for (size_t i = 0; i < pb->st.nr_syms && nr < max; i++) {
		const struct symbol *s = &pb->st.syms[i];

		if (!names_func(s, name) || (nr && hits[nr - 1]->start == s->start))
			continue;
		hits[nr++] = s;
	}
	return nr;
}

int probe_binary_file_offset(const struct probe_binary *pb, u64 vaddr, u64 *off)
{
	return elf_vaddr_to_offset(pb->segs, pb->nr_segs, vaddr, off) ? 0 : -ENOENT;
}

/*
 * The file that declares the function containing @vaddr (DW_AT_decl_file
 * of the outermost subprogram as libdw names it; the line table's file
 * when there is none). Returns 0 or -ENOENT / -errno.
 */
static int decl_file(struct strbuf *out, const char *path, u64 vaddr)
{
	Dwarf_Die cu, *scopes = NULL;
	const char *file = NULL;
	Dwarf *dw;
	int fd, n, ret = -ENOENT;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	dw = dwarf_begin(fd, DWARF_C_READ);
	if (!dw)
		goto out_close;
	if (!dwarf_addrdie(dw, vaddr, &cu))
		goto out_end;
	n = dwarf_getscopes(&cu, vaddr, &scopes);
	for (int i = n - 1; i >= 0 && !file; i--)
		if (dwarf_tag(&scopes[i]) == DW_TAG_subprogram)
			file = dwarf_decl_file(&scopes[i]);
	if (!file) {
		Dwarf_Line *line = dwarf_getsrc_die(&cu, vaddr);

		if (line)
			file = dwarf_linesrc(line, NULL, NULL);
	}
	if (file) {
		strbuf_addstr(out, file);
		ret = 0;
	}
	free(scopes);
out_end:
	dwarf_end(dw);
out_close:
	close(fd);
	return ret;
}

int probe_binary_describe(struct probe_binary *pb, u64 off, bool is_return, struct strbuf *out)
{
	struct strbuf file = STRBUF_INIT;
	const struct symbol *s;
	u64 vaddr;

	if (!elf_offset_to_vaddr(pb->segs, pb->nr_segs, off, &vaddr) ||
	    !(s = symtab_find(&pb->st, vaddr)))
		return -ENOENT;
	/* of aliases, the first one in the file's symbol table */
	while (s > pb->st.syms && s[-1].start == s->start)
		s--;
	strbuf_addstr(out, s->name);
	if (vaddr != s->start)
		strbuf_addf(out, "+%llu", (unsigned long long)(vaddr - s->start));
	if (is_return)
		strbuf_addstr(out, "%return");
	if (pb->has_dwarf &&
	    !decl_file(&file, pb->debug_path ? pb->debug_path : pb->path, s->start))
		strbuf_addf(out, "@%s", file.buf);
	strbuf_release(&file);
	return 0;
}
