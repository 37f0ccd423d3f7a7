/* SPDX-License-Identifier: MIT */
/*
 * Source lines through libdw, in-process: address -> file:line and the
 * inline chain, cached per DSO (no addr2line processes).
 */
#ifndef SONDE_SYMBOL_SRCLINE_H
#define SONDE_SYMBOL_SRCLINE_H

#include "lib/hashmap.h"
#include "lib/util.h"
#include "symbol/symtab.h"

#include <elfutils/libdw.h>
#include <stdbool.h>
#include <stddef.h>

/* struct inline_frame - one function inlined at an address (innermost first). */
struct inline_frame {
	const char *func; /* interned; demangled like symbols */
	const char *file; /* interned: the call site's file (for the next outer frame) */
	unsigned int line;
};

/* struct srcline - what an address maps to. Strings are interned in the srcline's pool. */
struct srcline {
	const char *file;	    /* full path from DWARF, NULL when unknown */
	unsigned int line;	    /* 0 when unknown */
	const struct inline_frame *inlines; /* innermost first; borrowed from the cache */
	size_t nr_inlines;
	const char *func;	    /* with inlines asked: the enclosing function's DWARF name
				       (interned, demangled like symbols), NULL when unknown */
};

/*
 * struct srcline_cache - the DWARF of one DSO, opened on first use, and a
 * cache of the addresses already asked. Opaque.
 */
struct srcline_cache;

/*
 * srcline_cache_new - for the binary @path (its debug file is found the
 * way symsrc_load() does; @debug_path overrides, may be NULL). Names go
 * into @pool (borrowed). Never NULL; a DSO without DWARF just answers
 * -ENOENT.
 */
struct srcline_cache *srcline_cache_new(const char *path, const char *debug_path,
					 const struct symbol_opts *opts, struct strpool *pool);
void srcline_cache_free(struct srcline_cache *sc);

/*
 * srcline_find - the source line of @addr (an ELF vaddr, see
 * symsrc_map_ip()). With @want_inlines, also the inline chain. Returns 0,
 * -ENODATA (the DSO has no DWARF at all) or -ENOENT (no line for it). The
 * result's pointers live as long as @sc.
 */
int srcline_find(struct srcline_cache *sc, u64 addr, bool want_inlines, struct srcline *out);

/*
 * srcline_format - perf's "file:line" text (basename unless @full_path),
 * or "??:0" when unknown. Writes into @buf and returns it.
 */
const char *srcline_format(const struct srcline *sl, bool full_path, char *buf, size_t size);

/*
 * srcline_format_unknown - perf's text when an address has no line:
 * "sym+<decimal offset>" ("@plt+0", "finish_task_switch.isra.0+147"),
 * or "<dso short name>[<hex addr>]" without a symbol. Returns @buf.
 */
const char *srcline_format_unknown(char *buf, size_t size, const char *sym_name, u64 sym_off,
				   const char *dso_short_name, u64 addr);

/*
 * srcline_line_src - the file of line-table row @line (of the unit
 * @cudie) as binutils' addr2line and objdump -S name it, which perf shows.
 * They differ from the DWARF in one place: in a DWARF 5 table, the rows
 * of a sequence before its first DW_LNS_set_file (file register still 1,
 * its initial value) are named after file entry 0, the unit's primary
 * file, even where entry 1 is another file (gcc puts a header there when
 * the unit's first code comes from it). Returns libdw's string (lives as
 * long as the Dwarf), NULL when unknown.
 */
const char *srcline_line_src(Dwarf_Die *cudie, Dwarf_Line *line);

#endif
