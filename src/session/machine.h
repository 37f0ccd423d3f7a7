/* SPDX-License-Identifier: MIT */
/*
 * The process/address-space model of one machine (the host): threads with
 * their comm history, per-process maps from MMAP/MMAP2 records, dsos shared
 * between processes, the kernel maps, and address resolution for samples
 * and callchain frames.
 *
 * Everything here is owned by the machine (and so by the session) until
 * machine_release(): objects replaced by later records are retired, never
 * freed, so pointers held by hist entries stay valid.
 */
#ifndef SONDE_SESSION_MACHINE_H
#define SONDE_SESSION_MACHINE_H

#include "data/event.h"
#include "data/header.h"
#include "lib/hashmap.h"
#include "lib/util.h"
#include "symbol/symtab.h"

#include <stdbool.h>

struct machine;

/*
 * struct dso - one binary (or "[kernel.kallsyms]", "[vdso]", a module, a JIT
 * map). Unique per machine by long name plus build-id. Symbols are loaded
 * on the first lookup through the machine's symbol loader.
 */
struct dso {
	const char *long_name;	/* interned: the path as the MMAP record gave it */
	const char *short_name; /* interned: what perf's "Shared Object" column shows */
	u32 id;			/* creation order, from 0 */
	u8 build_id[BUILD_ID_SIZE];
	u8 build_id_size;	/* 0 when unknown */
	bool is_kernel;		/* kernel image or module: absolute addresses, [k] */
	bool is_jit;		/* /tmp/perf-PID.map (a JIT's, or executable anon memory): absolute addresses */
	bool is_loaded;		/* the loader ran (whatever it found) */
	bool is_queued;		/* lazy symbols: waiting for the loader thread */
	u32 nr_pending_hits;	/* lazy symbols: addresses met while waiting (the queue's order) */
	bool is_hit;		/* a sample or frame resolved to it */
	int load_status;	/* the loader's result: 0 or -errno */
	struct symsrc *ss;	/* owned, NULL until loaded (or when the loader has none) */
	struct dso *next;	/* in machine->dsos */
};

/* dso_absolute - @dso's addresses are the process's own (kernel, JIT): perf prints them unrelocated */
static inline bool dso_absolute(const struct dso *dso)
{
	return dso->is_kernel || dso->is_jit;
}

/* struct map - [start, end) of an address space backed by @dso at file offset @pgoff. */
struct map {
	u64 start, end, pgoff;
	struct dso *dso; /* borrowed from the machine */
	u32 prot, flags;
	u32 refcnt;	      /* the address spaces whose arr holds it */
	bool has_frame;	      /* a frame points to it: kept until machine_release() */
	struct map *next_all; /* every map ever made, for machine_release() */
};

/*
 * struct maps - one address space (a process, or the kernel): maps sorted
 * by start, never overlapping, plus a cache of resolved addresses that is
 * dropped whenever the maps change.
 */
struct maps {
	struct map **arr; /* sorted by start */
	size_t nr, alloc;
	struct u64map cache; /* ip -> struct frame * */
	u32 gen;	     /* changes on every change, unique over the run */
	int pid;	     /* the process, -1 for the kernel's */
	u32 nr_live;	     /* threads using it that have not exited */
	size_t set_idx;	     /* its place in machine->all_maps_sets */
	bool is_dying;	     /* on the machine's dying list (machine_reap) */
	bool is_reaped;	     /* being freed by machine_reap */
};

/* struct thread - one task. Threads of a process share the process's maps. */
struct thread {
	int pid, tid, ppid;
	const char *comm;	 /* interned; ":<tid>" until a COMM or fork gives one */
	bool comm_set;		 /* a COMM record (or the parent at fork) named it */
	bool is_dead;		 /* EXIT seen */
	bool is_gone;		 /* exited or replaced: no longer counted in its maps' nr_live */
	u32 nr_entries;		 /* live hists' entries that point to it (top's reaping) */
	u32 id;			 /* creation order */
	struct maps *maps;	 /* borrowed from the machine (shared per process) */
	struct thread *next_all; /* every thread ever made */
	void *priv;		 /* for the command */
};

/*
 * struct frame - one resolved address: what a sample's ip or a callchain
 * entry resolves to. Frames are interned per address space: equal
 * (dso, symbol), or (map, ip) when there is no symbol, give the same frame,
 * so callchain trees and hist entries compare frames by pointer. Unresolved
 * frames are one per (dso, sample address).
 */
struct frame {
	const struct symbol *sym; /* NULL when unresolved */
	struct dso *dso;	  /* NULL when no map covers the address */
	struct map *map;	  /* the map the address fell in, or NULL */
	u64 ip;			  /* the sample address (the key of an unresolved frame) */
	u64 addr;		  /* map-relative address (ip when no map), for "[.] 0x..." */
	u32 id;			  /* interning order */
	char level;		  /* '.', 'k', 'g', 'u', 'H' */
	bool inlined;		  /* a function inlined there: shown "name (inlined)" */
};

/* struct addr_location - where a sample happened. */
struct addr_location {
	struct thread *thread;
	const struct frame *frame; /* never NULL after machine_resolve() */
	int cpumode;		   /* PERF_RECORD_MISC_* */
};

/* struct machine_opts - how to load symbols. */
struct machine_opts {
	const struct symbol_opts *symbol_opts; /* may be NULL */
	bool no_symbols;		       /* never load symbols (tests, --raw addresses) */
};

/*
 * dso_loader_fn - the hook that fills dso->ss: the default calls
 * symbol/symtab.h's symsrc_load(); tests install their own.
 * Returns 0 or -errno (kept in dso->load_status).
 */
typedef int dso_loader_fn(struct machine *machine, struct dso *dso, void *arg);

/*
 * struct machine - the host. Owns threads, maps, dsos and frames.
 */
struct machine {
	struct strpool *names; /* borrowed: the session's pool (dso/comm/symbol names) */
	struct u64map threads; /* tid -> struct thread * (current one per tid) */
	struct u64map procs;   /* pid -> struct maps * */
	struct thread *all_threads;
	u32 nr_threads;
	struct maps kmaps;     /* kernel image and modules */
	struct dso *dsos;      /* list, newest first */
	u32 nr_dsos;
	struct u64map dso_by_name; /* (interned long_name ptr) -> dso (first one) */
	struct map *all_maps;
	struct maps **all_maps_sets; /* every struct maps, for release */
	size_t nr_maps_sets, alloc_maps_sets;
	struct frame **frames; /* by id */
	u32 nr_frames;
	size_t alloc_frames;
	struct u64map frames_by_key; /* hash of (dso, sym) -> frame (for symbol frames) */
	dso_loader_fn *loader;
	void *loader_arg;
	struct machine_opts opts;
	struct dso *kernel_dso;	/* [kernel.kallsyms], created on demand */
	struct symbol_loader *lazy; /* owned: the loader thread (live sessions), or NULL */
	struct build_id_entry *build_ids; /* borrowed from the header */
	int nr_build_ids;
	struct thread *last_thread;
	struct maps **dying, **reapable; /* spaces whose threads all exited: freed in two reapings */
	size_t nr_dying, alloc_dying, nr_reapable, alloc_reapable;
	struct u64map exits[2]; /* tid -> EXIT time + 1, this reaping's and the last one's:
				   a live session's rings can give a task's EXIT before its FORK */
	struct u64map inline_frames; /* hash of (dso, name) -> frame of an inlined function */
	struct symbol **inline_syms; /* owned: their synthetic symbols */
	size_t nr_inline_syms, alloc_inline_syms;
	/* direct-mapped cache in front of the per-maps ones: (maps, gen, ip) -> frame */
	struct frame_cache_slot {
		const struct maps *maps;
		u64 ip;
		u32 gen;
		struct frame *frame;
	} *fcache;
};

/* machine_init - an empty host model using @names for strings. */
void machine_init(struct machine *machine, struct strpool *names, const struct machine_opts *opts);
/* machine_release - free every thread, map, dso, frame and symbol source. */
void machine_release(struct machine *machine);

/* machine_set_build_ids - build-ids recorded in perf.data (borrowed), used to match dsos. */
void machine_set_build_ids(struct machine *machine, struct build_id_entry *ids, int nr);

/*
 * machine_findnew_thread - the thread @tid of process @pid, created with comm
 * ":<tid>" when new. @pid -1 means unknown (take @tid's). Never NULL.
 */
struct thread *machine_findnew_thread(struct machine *machine, int pid, int tid);
/* machine_find_thread - the current thread @tid or NULL. */
struct thread *machine_find_thread(struct machine *machine, int tid);

/* Record handlers: update the model. Return 0 (bad records are ignored, as perf does). */
/*
 * machine_process_event - apply one side-band record to the model: MMAP,
 * MMAP2, COMM, FORK or EXIT (the one dispatch every reader of records uses).
 * Other types are left alone. Returns 0 or the handler's -errno.
 */
int machine_process_event(struct machine *machine, const union perf_event *ev);
int machine_process_comm(struct machine *machine, const union perf_event *ev);
int machine_process_fork(struct machine *machine, const union perf_event *ev);
int machine_process_exit(struct machine *machine, const union perf_event *ev);
int machine_process_mmap(struct machine *machine, const union perf_event *ev);
int machine_process_mmap2(struct machine *machine, const union perf_event *ev);

/*
 * machine_add_map - map [start, start+len) of @pid (-1: the kernel) to
 * the dso named @filename, retiring what it overlaps. The building block
 * of the MMAP handlers; exposed for tests.
 */
struct map *machine_add_map(struct machine *machine, int pid, int tid, u64 start, u64 len,
			    u64 pgoff, const char *filename, const u8 *build_id, int build_id_size,
			    u32 prot, u32 flags);

/* machine_findnew_dso - the dso for @long_name (+ build-id, may be NULL). Never NULL. */
struct dso *machine_findnew_dso(struct machine *machine, const char *long_name,
				const u8 *build_id, int build_id_size);

/* maps_find - the map containing @addr, or NULL. */
struct map *maps_find(const struct maps *maps, u64 addr);

/*
 * machine_sample_map - the map @sample's ip lands in: the kernel's maps or
 * its thread's (made if new) by its cpumode; NULL for other modes or no map.
 */
struct map *machine_sample_map(struct machine *machine, const struct perf_sample *sample);

/*
 * machine_resolve_ip - the frame for address @ip seen in @thread with
 * @cpumode (PERF_RECORD_MISC_USER/KERNEL/...). Loads the dso's symbols on
 * first use. Never NULL; the frame is owned by the machine.
 */
const struct frame *machine_resolve_ip(struct machine *machine, struct thread *thread,
				       int cpumode, u64 ip);

/*
 * machine_resolve - the thread and frame of @sample. Returns 0.
 */
int machine_resolve(struct machine *machine, const struct perf_sample *sample,
		    struct addr_location *loc);

/*
 * machine_inline_frame - the frame of function @name (DWARF inline info)
 * inlined at @base's address, as perf shows unwound frames: @base itself
 * when @name is its symbol's name, else one frame per (dso, name) with a
 * symbol spanning @base's. Owned by the machine.
 */
const struct frame *machine_inline_frame(struct machine *machine, const struct frame *base,
					 const char *name);

/* frame_is_kernel_level - true for kernel frames ('k' or 'g'). */
static inline bool frame_is_kernel_level(const struct frame *f)
{
	return f->level == 'k' || f->level == 'g';
}

/* dso_load - run the loader on @dso once. Returns dso->load_status. */
int dso_load(struct machine *machine, struct dso *dso);

/*
 * dso_symsrc_load - the default loader: fill @ss with the symbols of the dso
 * named @long_name (kernel image, module, file). Touches nothing but @ss, so
 * the loader thread may run it. Returns 0 or -errno.
 */
int dso_symsrc_load(struct symsrc *ss, const char *long_name, const u8 *build_id,
		    u8 build_id_size, bool is_kernel, const struct symbol_opts *opts);

/*
 * Lazy symbols (session/symbol-loader.c), for live sessions whose reading
 * must not wait for a big table: after machine_start_lazy_symbols(),
 * dso_load() queues the dso for a background thread and returns -EAGAIN;
 * its addresses resolve to unresolved frames, which no cache keeps (here
 * and in session/resolve.c), until the main thread's
 * machine_collect_symbols() installs the table. Then
 * machine_frame_reresolve() gives the symbol frame of such a frame.
 */
/* machine_start_lazy_symbols - start the loader thread. Returns 0 or -errno. */
int machine_start_lazy_symbols(struct machine *machine);
/* machine_stop_lazy_symbols - stop it (a load under way ends first); queued dsos stay unloaded */
void machine_stop_lazy_symbols(struct machine *machine);
/* machine_queue_symbols - hand @dso to the loader thread (once). Returns -EAGAIN. */
int machine_queue_symbols(struct machine *machine, struct dso *dso);
/* machine_collect_symbols - install the tables loaded since the last call; returns how many */
u32 machine_collect_symbols(struct machine *machine);
/*
 * machine_wait_symbols - wait until @dso's table is installed (collecting
 * what else arrives), at most @timeout_ms. Returns 0 or -ETIMEDOUT.
 */
int machine_wait_symbols(struct machine *machine, struct dso *dso, int timeout_ms);
/* machine_nr_pending_symbols - dsos queued and not installed yet */
u32 machine_nr_pending_symbols(const struct machine *machine);
/*
 * machine_frame_reresolve - for an unresolved frame whose dso's symbols have
 * been installed since, the frame of its address now; else @f itself
 */
const struct frame *machine_frame_reresolve(struct machine *machine, const struct frame *f);

/*
 * machine_reap - a live session's bounded memory (top, at each refresh):
 * the address spaces whose threads had all exited at the previous call are
 * freed (their maps arrays and caches, the maps no other space holds and no
 * frame points to), with their threads that no hist entry points to
 * (thread->nr_entries); @forget (may be NULL) is told each space first, to
 * drop what it keeps about it. Spaces are kept one call longer than their
 * exit so that samples still in the rings resolve. Not with DWARF
 * unwinding (its caches hold maps). Returns the number of spaces freed.
 */
size_t machine_reap(struct machine *machine, void (*forget)(void *arg, const struct maps *maps),
		    void *arg);

/* thread_set_comm - set the comm (interned). */
void thread_set_comm(struct machine *machine, struct thread *thread, const char *comm);

#endif
