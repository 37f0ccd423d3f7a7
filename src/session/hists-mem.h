/* SPDX-License-Identifier: MIT */
/* The memory sort keys (mem, snoop, tlb, locked, blocked) from a sample's data_src. */
#ifndef SONDE_SESSION_HISTS_MEM_H
#define SONDE_SESSION_HISTS_MEM_H

#include "session/hists.h"

#include <stdbool.h>
#include <stddef.h>

/* sort_key_is_mem - @key is one of the data_src keys */
bool sort_key_is_mem(enum sort_key key);

/* sort_key_needs_mem_mode - perf takes @key only in --mem-mode (data_src and data address keys) */
bool sort_key_needs_mem_mode(enum sort_key key);

/* mem_key_field - the data_src field that @key compares (mem: the level bits, ...) */
u64 mem_key_field(enum sort_key key, u64 data_src);

/* mem_key_daddr - what symbol_daddr / dso_daddr compare for the data address frame @f */
u64 mem_key_daddr(enum sort_key key, const struct frame *f);

/*
 * mem_key_text - @key's column text for @data_src as perf prints it
 * ("L1 hit", "Remote Cache (1 hop) hit", "HitM", "Walker miss", "Yes", " Data"),
 * written into @buf. Returns @buf.
 */
const char *mem_key_text(enum sort_key key, u64 data_src, char *buf, size_t size);

#endif
