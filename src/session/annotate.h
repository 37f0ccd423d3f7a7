/* SPDX-License-Identifier: MIT */
/* Annotate's sample collector: per event, per (dso, symbol), hits and period per address. */
#ifndef SONDE_SESSION_ANNOTATE_H
#define SONDE_SESSION_ANNOTATE_H

#include "lib/hashmap.h"
#include "lib/util.h"
#include "session/machine.h"
#include "session/resolve.h"
#include "session/session.h"
#include "symbol/disasm.h"

#include <stdbool.h>
#include <stddef.h>

/* struct annotate_addr - the samples at one address of a symbol */
struct annotate_addr {
	u64 addr; /* ELF vaddr (the kernel's: absolute) */
	u64 hits;
	u64 period;
};

/*
 * struct annotate_sym - one symbol with samples, in one event. The address
 * histogram is sorted by address after annotate_collect().
 */
struct annotate_sym {
	const struct symbol *sym; /* borrowed from the session */
	struct dso *dso;	  /* borrowed from the session */
	u64 map_start, map_pgoff; /* the first sample's map (the TUI's full addresses) */
	bool has_map;
	int evsel_idx;
	u64 hits, period;	  /* the symbol's sums */
	struct annotate_addr *addrs; /* owned */
	size_t nr_addrs, alloc_addrs;
	struct u64map by_addr;	  /* addr -> index + 1 (while collecting) */
};

/*
 * annotate_sym_full_addr - the address @addr (an ELF vaddr of @as's dso)
 * had in the process, as perf's annotate browser shows it with 'f': the
 * file offset put back in the first sample's map; for an ET_EXEC file
 * perf shows the file offset itself. @addr when there is no map.
 */
u64 annotate_sym_full_addr(const struct annotate_sym *as, u64 addr);

/*
 * annotate_sym_file_offset - @addr's offset in @as's dso file (its load
 * segment's p_offset + the distance into it); @addr outside any segment.
 */
u64 annotate_sym_file_offset(const struct annotate_sym *as, u64 addr);

/* struct annotate_filter - which samples count (NULL/empty: all) */
struct annotate_filter {
	const char *dso;	  /* -d/--dsos: short or long names, comma-separated */
	const char *symbol;	  /* only this symbol (by name) */
};

/*
 * struct annotate_hists - the collector: a struct tool on the session.
 * After annotate_collect(), @syms is sorted by period (then hits), highest
 * first, and the per-event totals count every sample of the event.
 */
struct annotate_hists {
	struct tool tool;	  /* first: the session's callbacks */
	struct resolver res;
	struct annotate_filter filter;
	struct annotate_sym **syms; /* owned */
	size_t nr_syms, alloc_syms;
	struct u64map by_key;	  /* (sym pointer ^ evsel) -> index + 1 */
	u64 *total_hits;	  /* owned: per event index */
	u64 *total_period;
	int nr_events;
	int kernel_state;	  /* with a symbol named: 0 unknown, 1 the kernel may have it,
				     -1 its kallsyms has no such name */
	struct u64map dropped;	  /* with a symbol named: the symbols (pointers) whose samples
				     the name dropped, for perf's browser, which then finds
				     no branch target in them */
	struct annotate_name_hit *name_hits; /* owned, with a symbol named: the name's
						verdict for recent symbols */
	/*
	 * with a symbol named, called with the first symbol the name keeps,
	 * while the samples are still being read (annotate opens its code
	 * then, on a second thread); NULL for none
	 */
	void (*first_kept)(struct annotate_hists *ah, const struct annotate_sym *as, void *arg);
	void *first_kept_arg;
};

/* annotate_hists_init - an empty collector for @session's events; @filter copied (may be NULL) */
void annotate_hists_init(struct annotate_hists *ah, struct session *session,
			 const struct annotate_filter *filter);
/* annotate_hists_release - free everything the collector owns */
void annotate_hists_release(struct annotate_hists *ah);

/*
 * annotate_collect - run @session through the collector, then sort.
 * Returns 0 or the session's error (negative, @err filled).
 */
int annotate_collect(struct annotate_hists *ah, struct session *session, struct data_error *err);

/* annotate_sym_find_addr - the histogram entry of @addr in @as, or NULL */
const struct annotate_addr *annotate_sym_find_addr(const struct annotate_sym *as, u64 addr);

/*
 * annotate_hists_add - count one sample whose frame is @rf for event @idx
 * (live collection, as top's: the totals always, the symbol's address
 * histogram when it has a symbol). No sorting: see annotate_hists_snapshot().
 */
void annotate_hists_add(struct annotate_hists *ah, const struct resolved_frame *rf, int idx,
			u64 period);

/*
 * annotate_hists_snapshot - a copy of @sym's histogram in event @idx,
 * sorted by address for annotate_sym_find_addr(), or NULL when it has no
 * samples. Free with annotate_sym_free().
 */
struct annotate_sym *annotate_hists_snapshot(const struct annotate_hists *ah,
					     const struct symbol *sym, int idx);
void annotate_sym_free(struct annotate_sym *as);

/*
 * annotate_sym_fold - a copy of @as whose samples inside an instruction of
 * @insns (sorted by address) count at the instruction's first byte, as
 * perf counts them (a sample address that is no instruction start: code
 * that changed, a kcore). NULL when every sample is at an instruction
 * start (use @as). @part (objdump's --asm-raw: 7) splits longer
 * instructions into lines of that many bytes, each its own place, as
 * perf counts them then; 0 for whole instructions. Free with
 * annotate_sym_free().
 */
struct annotate_sym *annotate_sym_fold(const struct annotate_sym *as,
				       const struct disasm_insn *insns, size_t nr, size_t part);

#endif
