/* SPDX-License-Identifier: MIT */
/*
 * DWARF facts perf probe shows for a probe address: the declaring source
 * file of the function around it (libdw).
 */
#ifndef SONDE_SYMBOL_PROBE_DWARF_H
#define SONDE_SYMBOL_PROBE_DWARF_H

#include "lib/strbuf.h"
#include "lib/util.h"

/*
 * probe_dwarf_decl_file - append to @out the file that declares the
 * function containing @vaddr (its DW_AT_decl_file as libdw names it, the
 * line table's file when the function has none), reading the DWARF of
 * @path. Returns 0, or -ENOENT (no DWARF, or nothing at @vaddr), -errno.
 */
int probe_dwarf_decl_file(struct strbuf *out, const char *path, u64 vaddr);

#endif
