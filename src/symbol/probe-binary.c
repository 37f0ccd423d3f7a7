/* SPDX-License-Identifier: MIT */
/* Symbols, file offsets and DWARF declaring files of one binary for sonde probe (libelf, libdw). */
#include "symbol/probe-binary.h"
#include "symbol/debug-inflate.h"

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

static int load(struct probe_binary *pb, const char *path, bool finish)
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
	if (finish)
		symtab_finish(&pb->st, false);
	return 0;
}

int probe_binary_load(struct probe_binary *pb, const char *path)
{
	return load(pb, path, true);
}

int probe_binary_load_names(struct probe_binary *pb, const char *path)
{
	return load(pb, path, false);
}

void probe_binary_finish(struct probe_binary *pb)
{
	if (!pb->st.is_finished)
		symtab_finish(&pb->st, false);
}

int probe_binary_load_kallsyms(struct probe_binary *pb, const char *path)
{
	struct strbuf text = STRBUF_INIT;
	bool any_addr = false;
	long n;
	char *line, *next;

	memset(pb, 0, sizeof(*pb));
	strpool_init(&pb->pool);
	symtab_init(&pb->st, &pb->pool);
	pb->st.allow_aliases = true;
	pb->is_loaded = true;
	pb->path = xstrdup(path ? path : "/proc/kallsyms");
	n = strbuf_read_file(&text, pb->path, 1 << 20);
	if (n < 0) {
		strbuf_release(&text);
		return (int)n;
	}
	for (line = text.buf; line && *line; line = next) {
		char *end, *name, type;
		unsigned long long addr;

		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		addr = strtoull(line, &end, 16);
		if (end == line || end[0] != ' ' || !end[1] || end[2] != ' ')
			continue;
		type = end[1];
		if (type != 'T' && type != 't' && type != 'W' && type != 'w')
			continue;
		name = end + 3;
		name[strcspn(name, "\t ")] = 0;
		any_addr |= addr != 0;
		symtab_add(&pb->st, addr, 0,
			   type == 'W' || type == 'w' ? STB_WEAK
			   : type == 'T'		? STB_GLOBAL
						: STB_LOCAL,
			   STT_FUNC, name);
	}
	strbuf_release(&text);
	symtab_finish(&pb->st, true);
	return pb->st.nr_syms && !any_addr ? -EPERM : 0;
}

void probe_binary_release(struct probe_binary *pb)
{
	if (pb->dw)
		dwarf_end(pb->dw);
	if (pb->dw_fd > 0)
		close(pb->dw_fd);
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

static int sym_addr_cmp(const void *a, const void *b)
{
	const struct symbol *x = *(const struct symbol *const *)a;
	const struct symbol *y = *(const struct symbol *const *)b;

	return x->start < y->start ? -1 : x->start > y->start;
}

size_t probe_binary_find_func(const struct probe_binary *pb, const char *name, bool with_plt,
			      const struct symbol **hits, size_t max)
{
	size_t nr = 0;

	/* functions first, then PLT entries: @max keeps the real ones (perf) */
	for (int plt = 0; plt < 1 + with_plt; plt++) {
		for (size_t i = 0; i < pb->st.nr_syms && nr < max; i++) {
			const struct symbol *s = &pb->st.syms[i];
			bool dup = false;

			if (!!(s->flags & SYMBOL_PLT) != plt || !names_func(s, name))
				continue;
			for (size_t j = 0; j < nr && !dup; j++)
				dup = hits[j]->start == s->start;
			if (!dup)
				hits[nr++] = s;
		}
	}
	qsort(hits, nr, sizeof(*hits), sym_addr_cmp);
	return nr;
}

int probe_binary_file_offset(const struct probe_binary *pb, u64 vaddr, u64 *off)
{
	return elf_vaddr_to_offset(pb->segs, pb->nr_segs, vaddr, off) ? 0 : -ENOENT;
}

static int open_dwarf(struct probe_binary *pb)
{
	if (!pb->dw) {
		const char *path = pb->debug_path ? pb->debug_path : pb->path;

		/* a separate debug file (libc's) is often compressed: its cached
		   inflated copy spares libdw the inflating on every run */
		if (pb->dw_fd <= 0 && pb->debug_path)
			pb->dw_fd = debug_inflated_open(path);
		if (pb->dw_fd <= 0)
			pb->dw_fd = open(path, O_RDONLY | O_CLOEXEC);
		if (pb->dw_fd < 0)
			return -errno;
		pb->dw = dwarf_begin(pb->dw_fd, DWARF_C_READ);
	}
	return pb->dw ? 0 : -ENOENT;
}

struct Dwarf *probe_binary_dwarf(struct probe_binary *pb)
{
	return pb->has_dwarf && !open_dwarf(pb) ? pb->dw : NULL;
}

struct dwarf_search {
	const char *name;
	u64 *addrs;
	size_t nr, max;
};

/* every concrete or inlined instance named @ds->name under @die, in DIE order */
static void search_dies(Dwarf_Die *die, struct dwarf_search *ds, int depth)
{
	Dwarf_Die child;

	if (depth > 64 || dwarf_child(die, &child))
		return;
	do {
		int tag = dwarf_tag(&child);
		const char *name;
		Dwarf_Addr entry;

		if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine) {
			name = dwarf_diename(&child);
			if (name && !strcmp(name, ds->name) && !dwarf_entrypc(&child, &entry) &&
			    ds->nr < ds->max)
				ds->addrs[ds->nr++] = entry;
		}
		if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine ||
		    tag == DW_TAG_lexical_block || tag == DW_TAG_namespace)
			search_dies(&child, ds, depth + 1);
	} while (!dwarf_siblingof(&child, &child));
}

size_t probe_binary_find_dwarf(struct probe_binary *pb, const char *name, u64 *addrs, size_t max)
{
	struct dwarf_search ds = { name, addrs, 0, max };
	Dwarf_Off off = 0, next;
	size_t hsize;

	if (!pb->has_dwarf || open_dwarf(pb))
		return 0;
	while (!dwarf_nextcu(pb->dw, off, &next, &hsize, NULL, NULL, NULL)) {
		Dwarf_Die cu;

		if (dwarf_offdie(pb->dw, off + hsize, &cu))
			search_dies(&cu, &ds, 0);
		off = next;
	}
	return ds.nr;
}

/* struct dwarf_func - the function DWARF places at an address */
struct dwarf_func {
	const char *name; /* DW_AT_linkage_name, else DW_AT_name (borrowed from libdw) */
	const char *file; /* DW_AT_decl_file as libdw names it, or NULL */
	u64 entry;	  /* its entry address */
	int decl_line;	  /* DW_AT_decl_line, 0 when unknown */
	u64 first_row_end; /* where the line table's row at the entry ends (0: unknown) */
	bool is_cu_first;  /* the entry is the CU's lowest address */
	int line;	  /* the line of the address (an inlined body: its call line), 0 unknown */
};

/* the first line-table address after @entry in @cu, or 0 */
static u64 row_end(Dwarf_Die *cu, u64 entry)
{
	Dwarf_Lines *lines;
	size_t nr;
	u64 best = 0;

	if (dwarf_getsrclines(cu, &lines, &nr))
		return 0;
	for (size_t i = 0; i < nr; i++) {
		Dwarf_Addr a;

		if (!dwarf_lineaddr(dwarf_onesrcline(lines, i), &a) && a > entry && (!best || a < best))
			best = a;
	}
	return best;
}

static int line_at(Dwarf_Die *cu, u64 addr)
{
	Dwarf_Lines *lines;
	Dwarf_Line *l;
	size_t nr;
	int line = 0;

	/* the first statement at the address (perf's line where several share it) */
	if (!dwarf_getsrclines(cu, &lines, &nr)) {
		for (size_t i = 0; i < nr; i++) {
			Dwarf_Addr a;
			bool stmt = false;

			l = dwarf_onesrcline(lines, i);
			if (!dwarf_lineaddr(l, &a) && a == addr && !dwarf_linebeginstatement(l, &stmt) &&
			    stmt && !dwarf_lineno(l, &line))
				return line;
		}
	}
	l = dwarf_getsrc_die(cu, addr);
	if (l && dwarf_lineno(l, &line))
		line = 0;
	return line;
}

/* fill @df from the concrete function DIE @fn */
static int take_func(Dwarf_Die *cu, Dwarf_Die *fn, u64 vaddr, struct dwarf_func *df)
{
	Dwarf_Attribute attr;
	Dwarf_Addr entry;

	df->name = dwarf_formstring(dwarf_attr_integrate(fn, DW_AT_linkage_name, &attr));
	if (!df->name)
		df->name = dwarf_diename(fn);
	df->file = dwarf_decl_file(fn);
	df->entry = dwarf_entrypc(fn, &entry) ? vaddr : entry;
	if (dwarf_decl_line(fn, &df->decl_line))
		df->decl_line = 0;
	df->first_row_end = row_end(cu, df->entry);
	df->is_cu_first = !dwarf_lowpc(cu, &entry) && entry == df->entry;
	return df->name ? 0 : -ENOENT;
}

/*
 * The concrete function containing @vaddr and the line perf reports for
 * it. Returns 0 or -ENOENT / -errno.
 */
static int dwarf_func_at(struct probe_binary *pb, u64 vaddr, struct dwarf_func *df)
{
	Dwarf_Die cu, die, *scopes = NULL;
	Dwarf_Word call_line = 0;
	int n, ret = -ENOENT;

	memset(df, 0, sizeof(*df));
	if (open_dwarf(pb) || !dwarf_addrdie(pb->dw, vaddr, &cu))
		return -ENOENT;
	df->line = line_at(&cu, vaddr);
	n = dwarf_getscopes(&cu, vaddr, &scopes);
	for (int i = 0; i < n; i++) {
		Dwarf_Attribute attr;

		/* the outermost inlined body's call site is the line in the caller */
		if (dwarf_tag(&scopes[i]) == DW_TAG_inlined_subroutine &&
		    dwarf_formudata(dwarf_attr(&scopes[i], DW_AT_call_line, &attr), &call_line) == 0)
			df->line = (int)call_line;
	}
	for (int i = n - 1; i >= 0 && ret; i--)
		if (dwarf_tag(&scopes[i]) == DW_TAG_subprogram)
			ret = take_func(&cu, &scopes[i], vaddr, df);
	free(scopes);
	/* inside an inlined body libdw gives the inline's scopes: the
	   concrete function around it is a child of the CU */
	if (ret && !dwarf_child(&cu, &die)) {
		do {
			if (dwarf_tag(&die) == DW_TAG_subprogram && dwarf_haspc(&die, vaddr) == 1) {
				ret = take_func(&cu, &die, vaddr, df);
				break;
			}
		} while (!dwarf_siblingof(&die, &die));
	}
	return ret;
}

int probe_binary_describe(struct probe_binary *pb, u64 off, bool is_return, u64 *carry,
			  struct strbuf *out)
{
	const struct symbol *s;
	struct dwarf_func df;
	bool dwarf_missed;
	u64 vaddr;

	if (!elf_offset_to_vaddr(pb->segs, pb->nr_segs, off, &vaddr))
		return -ENOENT;
	if (pb->has_dwarf && !dwarf_func_at(pb, vaddr, &df)) {
		/*
		 * perf: the byte offset in the line table's row at the entry
		 * of a CU's first function (on the declaration's line too);
		 * on the declaration's line just the name; else the line
		 * relative to the declaration. An offset set by an earlier
		 * event is kept and wins over a line and over %return (perf
		 * 6.1 never clears it).
		 */
		bool in_first_row = df.is_cu_first && vaddr != df.entry &&
				    !(df.first_row_end && vaddr >= df.first_row_end);
		bool on_decl = !in_first_row && df.line && df.decl_line && df.line == df.decl_line;
		bool by_line = !in_first_row && !on_decl && df.line && df.decl_line &&
			       vaddr != df.entry;

		if (!on_decl && !by_line)
			*carry = vaddr - df.entry;
		strbuf_addstr(out, df.name);
		if (*carry)
			strbuf_addf(out, "+%llu", (unsigned long long)*carry);
		else if (by_line)
			strbuf_addf(out, ":%d", df.line - df.decl_line);
		else if (is_return) /* a carried offset hides it too (perf) */
			strbuf_addstr(out, "%return");
		if (df.file)
			strbuf_addf(out, "@%s", df.file);
		return 0;
	}
	s = symtab_find(&pb->st, vaddr);
	if (!s)
		return -ENOENT;
	dwarf_missed = pb->has_dwarf;
	/* of aliases, the first one in the file's symbol table */
	while (s > pb->st.syms && s[-1].start == s->start)
		s--;
	*carry = vaddr - s->start;
	strbuf_addstr(out, s->name);
	if (*carry)
		strbuf_addf(out, "+%llu", (unsigned long long)*carry);
	if (is_return)
		strbuf_addstr(out, "%return");
	return dwarf_missed;
}
