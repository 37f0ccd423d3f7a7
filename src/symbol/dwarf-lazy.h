/* SPDX-License-Identifier: MIT */
/* libdw on a file with compressed DWARF, inflating only the units looked at. */
#ifndef SONDE_SYMBOL_DWARF_LAZY_H
#define SONDE_SYMBOL_DWARF_LAZY_H

#include "lib/util.h"

#include <elfutils/libdw.h>

/*
 * libdw inflates every compressed .debug_* section when it opens a file
 * (libc's debug file: 10 MB, most of a one-symbol annotate's time). A
 * struct dwarf_lazy hands libdw the same file with its compressed sections
 * replaced by buffers of their full size that fill on demand: the small
 * ones (strings, ranges, aranges) at once, .debug_info, .debug_abbrev and
 * .debug_line up to the end of each unit dwarf_lazy_addrdie() returns
 * (a stream inflates from its start, so what precedes comes too), and the
 * sections libdw would inflate but sonde never reads (location lists,
 * macros, names) not at all. A unit that could refer to another one
 * (DW_FORM_ref_addr and the like) has the whole of .debug_info inflated.
 */
struct dwarf_lazy;

/*
 * dwarf_lazy_open - libdw's view of the ELF file open on @fd (borrowed: it
 * must stay open until dwarf_lazy_close()). NULL when nothing is to be
 * gained or the file is one this does not handle (no compressed sections,
 * no .debug_aranges, a dwz alt file, zstd, ET_REL): open it with libdw.
 */
struct dwarf_lazy *dwarf_lazy_open(int fd);

/* dwarf_lazy_dwarf - the Dwarf handle (owned by @dl) */
Dwarf *dwarf_lazy_dwarf(struct dwarf_lazy *dl);

/*
 * dwarf_lazy_addrdie - dwarf_addrdie(): the compile unit DIE whose
 * .debug_aranges entry holds @addr, in @out, with that unit's DIEs,
 * abbreviations and line program inflated. NULL when no unit has @addr.
 */
Dwarf_Die *dwarf_lazy_addrdie(struct dwarf_lazy *dl, u64 addr, Dwarf_Die *out);

/* dwarf_lazy_close - end the Dwarf handle and free the buffers */
void dwarf_lazy_close(struct dwarf_lazy *dl);

#endif
