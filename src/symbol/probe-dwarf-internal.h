/* SPDX-License-Identifier: MIT */
/* Shared between probe-dwarf.c (functions, lines) and probe-dwarf-vars.c (variables, fetch arguments). */
#ifndef SONDE_SYMBOL_PROBE_DWARF_INTERNAL_H
#define SONDE_SYMBOL_PROBE_DWARF_INTERNAL_H

#include "lib/util.h"

#include <elfutils/libdw.h>

/*
 * probe_dwarf_scope_chain - the concrete scopes at @addr, innermost first,
 * down from @root (a subprogram or inlined copy) through the blocks and
 * inlined copies that hold @addr. *@out malloc'ed; returns the count.
 */
int probe_dwarf_scope_chain(Dwarf_Die *root, u64 addr, Dwarf_Die **out);

#endif
