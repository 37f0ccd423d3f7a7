/* SPDX-License-Identifier: MIT */
/*
 * A binary as perf probe sees it: every ELF symbol name (aliases kept, the
 * debug file's .symtab when the binary has only .dynsym), file offsets of
 * functions for uprobes, and the "func+off@file" text of a probe address.
 */
#ifndef SONDE_SYMBOL_PROBE_BINARY_H
#define SONDE_SYMBOL_PROBE_BINARY_H

#include "lib/hashmap.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include "symbol/symtab.h"

#include <stdbool.h>
#include <stddef.h>

struct Dwarf;

struct probe_binary {
	char *path;		   /* owned: the path given to probe_binary_load() */
	char *debug_path;	   /* owned: the debug file the symbols came from, or NULL */
	struct strpool pool;
	struct symtab st;	   /* finished, every alias kept, in file order at one address */
	struct load_segment *segs; /* owned: the binary's PT_LOAD headers */
	size_t nr_segs;
	bool is_loaded;
	bool has_dwarf;		   /* .debug_info in the binary or its debug file */
	struct Dwarf *dw;	   /* owned: opened on the first describe, with its fd */
	int dw_fd;
};

/*
 * probe_binary_load - read the symbols of @path. Returns 0 or -errno
 * (-ENOTSUP: not ELF, -ENOENT: no such file). Release @pb in any case.
 */
int probe_binary_load(struct probe_binary *pb, const char *path);
/*
 * probe_binary_load_names - the same symbols, not sorted nor indexed: for
 * listing names only (--funcs); no lookups on @pb->st then.
 */
int probe_binary_load_names(struct probe_binary *pb, const char *path);

/*
 * probe_binary_finish - sort and index the symbols of a binary loaded with
 * probe_binary_load_names(), for lookups (nothing when already done).
 */
void probe_binary_finish(struct probe_binary *pb);

/*
 * probe_binary_load_kallsyms - the running kernel as a probe_binary: every
 * text symbol of /proc/kallsyms (types T, t, W, w, modules included),
 * aliases kept, as perf probe lists and finds kernel functions. @path
 * names the file read (NULL: /proc/kallsyms). Returns 0 or -errno
 * (-EPERM: the addresses are hidden).
 */
int probe_binary_load_kallsyms(struct probe_binary *pb, const char *path);
/* probe_binary_release - free what @pb owns. */
void probe_binary_release(struct probe_binary *pb);

/*
 * probe_binary_find_func - the function symbols named @name, and with
 * @with_plt the PLT entries "@name@plt" too, one per address, sorted
 * by address. Fills up to @max into @hits, functions before PLT entries;
 * returns how many were kept.
 */
size_t probe_binary_find_func(const struct probe_binary *pb, const char *name, bool with_plt,
			      const struct symbol **hits, size_t max);

/*
 * probe_binary_find_dwarf - the entry addresses of every function DIE
 * named @name, concrete or inlined, in DWARF order (static functions the
 * compiler inlined have no symbol). Fills up to @max; returns how many.
 */
size_t probe_binary_find_dwarf(struct probe_binary *pb, const char *name, u64 *addrs, size_t max);

/*
 * probe_binary_dwarf - the binary's DWARF (or its debug file's), opened on
 * the first call; NULL without debug information.
 */
struct Dwarf *probe_binary_dwarf(struct probe_binary *pb);

/*
 * probe_binary_file_offset - the file offset of virtual address @vaddr.
 * Returns 0 or -ENOENT (not in a loaded segment).
 */
int probe_binary_file_offset(const struct probe_binary *pb, u64 vaddr, u64 *off);

/*
 * probe_binary_describe - append what perf probe --list says a uprobe at
 * file offset @off is on: the function, then nothing (an address on the
 * declaration's line), "+N" (in the line-table row at the entry of the
 * CU's first function) or ":L" (the line relative to the declaration), "%return", and
 * "@declaring/file.c". With DWARF the function is the concrete DIE's
 * (linkage name first; an inlined body counts at its call line), else the
 * first alias of the address in the symbol table. @carry is the offset
 * perf 6.1 carries from one listed event to the next (0 at the start):
 * once set it is shown instead of a line until an event sets another.
 * Returns 0, 1 when the binary has DWARF but not for this address (the
 * symbol's text was used), or -ENOENT (no symbol there: nothing appended).
 */
int probe_binary_describe(struct probe_binary *pb, u64 off, bool is_return, u64 *carry,
			  struct strbuf *out);

#endif
