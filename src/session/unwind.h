/* SPDX-License-Identifier: MIT */
/*
 * User-stack unwinding of `perf record --call-graph dwarf` samples: the
 * sampled user registers and stack copy, walked with the DSOs' CFI
 * through libdw's unwinder, as perf does.
 */
#ifndef SONDE_SESSION_UNWIND_H
#define SONDE_SESSION_UNWIND_H

#include "data/event.h"
#include "lib/util.h"

#include <stdbool.h>

struct machine;
struct thread;

/* unwind_possible - true when @sample_type carries what unwinding needs (REGS_USER and STACK_USER). */
static inline bool unwind_possible(u64 sample_type)
{
	return (sample_type & PERF_SAMPLE_REGS_USER) && (sample_type & PERF_SAMPLE_STACK_USER);
}

/*
 * unwind_user - unwind @sample's user stack in @thread's address space.
 * Writes at most @max addresses into @ips in callee order: the sampled user
 * IP first, then each caller's return address minus one (perf's "pc - 1"
 * for non-activation frames). Returns the number written: 0 when the
 * sample has no user registers/stack (x86-64 ABI only) or nothing unwinds.
 */
int unwind_user(struct machine *machine, struct thread *thread, const struct perf_sample *sample,
		u64 *ips, int max);

/*
 * struct unwind_cache - libdw sessions kept per address space between
 * samples (modules are reported once while the maps stay the same): much
 * faster on big files. unwind_user_cached() is unwind_user() with one.
 */
struct unwind_cache;
struct unwind_cache *unwind_cache_new(void);
void unwind_cache_free(struct unwind_cache *uc);
int unwind_user_cached(struct unwind_cache *uc, struct machine *machine, struct thread *thread,
		       const struct perf_sample *sample, u64 *ips, int max);

#endif
