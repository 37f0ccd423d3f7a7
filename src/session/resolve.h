/* SPDX-License-Identifier: MIT */
/*
 * One sample pipeline: a sample's address and its callchain (recorded
 * frames, the DWARF-unwound user part, inlined functions) resolved once,
 * the same way for every command, with per-address-space and per-dso caches.
 */
#ifndef SONDE_SESSION_RESOLVE_H
#define SONDE_SESSION_RESOLVE_H

#include "data/event.h"
#include "lib/hashmap.h"
#include "lib/util.h"
#include "session/machine.h"

#include <stdbool.h>
#include <stddef.h>

struct srcline;

/*
 * struct resolved_frame - one address as the commands show it. Cached
 * frames are owned by the resolver; chains hold copies.
 */
struct resolved_frame {
	u64 ip;			   /* raw: as recorded, or unwound (callers: return address - 1) */
	u64 addr;		   /* the dso's own address (ELF vaddr; @ip for the kernel): symbols, DWARF */
	u64 symoff;		   /* @addr's offset in the (ELF) symbol, 0 without one */
	const struct frame *frame; /* the machine's interned frame (hists key), never NULL; an
				      inlined function's own frame (frame->inlined) */
	const struct map *map;	   /* the map covering @ip in the cpumode's address space, or NULL */
	const char *srcline;	   /* interned, with resolver_opts.srcline: "file:line" or "dso[addr]" */
};

/* resolved_frame_dso - the dso shown for @rf, or NULL ("[unknown]") */
static inline struct dso *resolved_frame_dso(const struct resolved_frame *rf)
{
	return rf->map ? rf->map->dso : NULL;
}

/*
 * resolved_frame_sym - the symbol shown for @rf, NULL for "[unknown]": perf
 * looks only in the cpumode's address space (the machine's frame may come
 * from the kernel's for a user address); an inlined function's own symbol
 */
static inline const struct symbol *resolved_frame_sym(const struct resolved_frame *rf)
{
	return rf->map && rf->frame->dso == rf->map->dso ? rf->frame->sym : NULL;
}

/*
 * resolved_frame_map_ip - the address perf script prints for a callchain
 * entry: map-relative in a file-backed user dso, raw for the kernel, a JIT
 * map (dso_absolute()) or no map
 */
static inline u64 resolved_frame_map_ip(const struct resolved_frame *rf)
{
	if (!rf->map || dso_absolute(rf->map->dso))
		return rf->ip;
	return rf->ip - rf->map->start + rf->map->pgoff;
}

/* struct resolved_chain - a callchain resolved, callee first; reused between samples */
struct resolved_chain {
	struct resolved_frame *frames; /* owned */
	u32 nr;
	size_t alloc;
};

/* resolved_chain_release - free @rc's frames */
void resolved_chain_release(struct resolved_chain *rc);

/* struct resolver_opts - what every resolved frame carries */
struct resolver_opts {
	bool srcline;		/* fill resolved_frame.srcline */
	bool full_source_path;	/* ... with the whole DWARF path, not the basename */
};

/* struct chain_opts - how one callchain is walked (per command) */
struct chain_opts {
	u32 max_stack;		/* frames kept (recorded ones counted in the walk's direction;
				   the unwound ones fill up to it); 0: no limit */
	bool caller_order;	/* --max-stack keeps the outermost recorded frames */
	bool bad_context_empties; /* an unknown context marker drops the recorded frames
				     (perf script); else it is skipped (perf report) */
	bool unwind;		/* unwind a --call-graph dwarf user stack copy */
};

struct resolver_space;
struct resolver_dso;
struct unwind_cache;

/*
 * struct resolver - the caches: resolved frames per (address space, ip),
 * dropped when the space's maps change; source lines per dso; libdw
 * unwinding sessions. Borrows the machine.
 */
struct resolver {
	struct machine *machine;
	struct resolver_opts opts;
	struct u64map spaces;		/* (maps pointer | cpumode) -> struct resolver_space * */
	struct resolver_space *last_space;
	struct resolver_slot {		/* direct-mapped front of the spaces' maps */
		u64 key;		/* the space's */
		u64 ip;
		u32 gen;
		const struct resolved_frame *rf;
	} *slots;
	struct resolved_frame *chunk;	/* frames are allocated in chunks that never move */
	size_t chunk_left;
	void **chunks;
	size_t nr_chunks, alloc_chunks;
	struct resolved_frame **free_frames; /* of forgotten spaces, for reuse */
#define RESOLVER_SCRATCH 16
	struct resolved_frame scratch[RESOLVER_SCRATCH]; /* frames not kept (lazy symbols):
							    each valid for the next 15 lookups */
	unsigned scratch_next;
	size_t nr_free_frames, alloc_free_frames;
	struct resolver_dso **dsos;	/* by dso id, NULL until asked */
	u32 nr_dsos;
	struct unwind_cache *unwind;	/* made on the first dwarf sample */
};

/* resolver_init - empty caches over @machine (borrowed), @opts copied (NULL: defaults) */
void resolver_init(struct resolver *res, struct machine *machine, const struct resolver_opts *opts);
/* resolver_release - free the caches */
void resolver_release(struct resolver *res);
/*
 * resolver_forget_maps - drop the caches of address space @maps, about to be
 * freed (machine_reap); its resolved frames are reused
 */
void resolver_forget_maps(struct resolver *res, const struct maps *maps);

/*
 * resolver_frame - @ip seen in @thread with @cpumode, resolved and cached.
 * Never NULL; valid until resolver_release().
 */
const struct resolved_frame *resolver_frame(struct resolver *res, struct thread *thread,
					    int cpumode, u64 ip);

/*
 * resolver_frame_fb - resolver_frame(), falling back to the other address
 * space (kernel or user) when @cpumode's has no map: perf's rule for data
 * and branch addresses.
 */
const struct resolved_frame *resolver_frame_fb(struct resolver *res, struct thread *thread,
					       int cpumode, u64 ip);

/*
 * resolve_sample - the thread and address of @sample: @loc as
 * machine_resolve() fills it, and the resolved frame of sample->ip.
 */
const struct resolved_frame *resolve_sample(struct resolver *res, const struct perf_sample *sample,
					    struct addr_location *loc);

/*
 * resolve_sample_callchain - @sample's callchain into @out, callee first:
 * the recorded frames (context markers applied, cut to @opts->max_stack),
 * then, with @opts->unwind and a user stack copy in @sample_type, the
 * unwound user frames, an address inside inlined calls giving one frame
 * per function (innermost first). Returns the number of frames.
 */
u32 resolve_sample_callchain(struct resolver *res, struct thread *thread,
			     const struct perf_sample *sample, u64 sample_type,
			     const struct chain_opts *opts, struct resolved_chain *out);

/*
 * resolver_srcline_find - srcline_find() on @dso's DWARF (opened once per
 * dso) at @addr (a resolved_frame's addr). Returns 0 or -ENOENT.
 */
int resolver_srcline_find(struct resolver *res, struct dso *dso, u64 addr, bool want_inlines,
			  struct srcline *out);

#endif
