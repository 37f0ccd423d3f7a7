/* SPDX-License-Identifier: MIT */
/* The one sample pipeline: addresses and callchains resolved and cached for every command. */
#include "session/resolve.h"

#include "lib/xalloc.h"
#include "session/unwind.h"
#include "symbol/srcline.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the resolved frames of one address space, valid for one generation of its maps */
struct resolver_space {
	u64 key;		/* space_key() */
	u32 gen;
	struct u64map ips; /* ip -> struct resolved_frame * */
};

/* the DWARF of one dso */
struct resolver_dso {
	struct srcline_cache *sc; /* NULL: nothing to look in (kernel) */
};

#define SLOT_BITS 12
#define SLOTS (1u << SLOT_BITS)
#define CHUNK_FRAMES 4096u
#define UNWIND_MAX 128

void resolved_chain_release(struct resolved_chain *rc)
{
	free(rc->frames);
	memset(rc, 0, sizeof(*rc));
}

void resolver_init(struct resolver *res, struct machine *machine, const struct resolver_opts *opts)
{
	memset(res, 0, sizeof(*res));
	res->machine = machine;
	if (opts)
		res->opts = *opts;
	u64map_init(&res->spaces);
	res->slots = xcalloc(SLOTS, sizeof(*res->slots));
}

static int space_free(uint64_t key, void *val, void *arg)
{
	struct resolver_space *sp = val;

	(void)key;
	(void)arg;
	u64map_release(&sp->ips);
	free(sp);
	return 0;
}

void resolver_release(struct resolver *res)
{
	u64map_for_each(&res->spaces, space_free, NULL);
	u64map_release(&res->spaces);
	free(res->slots);
	for (size_t i = 0; i < res->nr_chunks; i++)
		free(res->chunks[i]);
	free(res->chunks);
	free(res->free_frames);
	for (u32 i = 0; i < res->nr_dsos; i++) {
		if (res->dsos[i])
			srcline_cache_free(res->dsos[i]->sc);
		free(res->dsos[i]);
	}
	free(res->dsos);
	unwind_cache_free(res->unwind);
	memset(res, 0, sizeof(*res));
}

static bool is_kernel_mode(int cpumode)
{
	return cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_KERNEL ||
	       cpumode == PERF_RECORD_MISC_HYPERVISOR;
}

/* resolver_dso_of - @dso's DWARF state, made on first use */
static struct resolver_dso *resolver_dso_of(struct resolver *res, struct dso *dso)
{
	struct resolver_dso *rd;

	if (dso->id >= res->nr_dsos) {
		u32 n = dso->id + 16;

		res->dsos = xreallocarray(res->dsos, n, sizeof(*res->dsos));
		memset(res->dsos + res->nr_dsos, 0, (n - res->nr_dsos) * sizeof(*res->dsos));
		res->nr_dsos = n;
	}
	rd = res->dsos[dso->id];
	if (!rd) {
		rd = xzalloc(sizeof(*rd));
		if (!dso->is_kernel)
			rd->sc = srcline_cache_new(dso->ss && dso->ss->path ? dso->ss->path : dso->long_name,
						   dso->ss ? dso->ss->symbol_path : NULL,
						   res->machine->opts.symbol_opts, res->machine->names);
		res->dsos[dso->id] = rd;
	}
	return rd;
}

int resolver_srcline_find(struct resolver *res, struct dso *dso, u64 addr, bool want_inlines,
			  struct srcline *out)
{
	struct resolver_dso *rd = resolver_dso_of(res, dso);

	if (!rd->sc)
		return -ENOENT;
	return srcline_find(rd->sc, addr, want_inlines, out);
}

/*
 * the srcline perf script prints: "file:line", else "<dso>[<address>]";
 * NULL (no line printed) for a binary on disk without DWARF, as perf
 */
static const char *frame_srcline(struct resolver *res, struct dso *dso, u64 addr)
{
	struct srcline sl;
	char buf[4096];
	int err = resolver_srcline_find(res, dso, addr, false, &sl);

	if (err == -ENODATA && dso->long_name[0] == '/')
		return NULL;
	if (!err && sl.file)
		srcline_format(&sl, res->opts.full_source_path, buf, sizeof(buf));
	else
		snprintf(buf, sizeof(buf), "%s[%" PRIx64 "]", dso->short_name, addr);
	return strpool_intern(res->machine->names, buf);
}

static struct resolved_frame *frame_alloc(struct resolver *res)
{
	if (res->nr_free_frames)
		return res->free_frames[--res->nr_free_frames];
	if (!res->chunk_left) {
		res->chunk = xmalloc(CHUNK_FRAMES * sizeof(*res->chunk));
		res->chunk_left = CHUNK_FRAMES;
		res->chunks = xgrow(res->chunks, res->nr_chunks + 1, &res->alloc_chunks,
				    sizeof(*res->chunks));
		res->chunks[res->nr_chunks++] = res->chunk;
	}
	res->chunk_left--;
	return res->chunk++;
}

/*
 * space_key - the cache key of an address space seen with @cpumode: the
 * maps (8-aligned) with the cpumode in the low bits, as a kernel and a
 * guest kernel frame differ by level though they share the kernel maps
 */
static inline u64 space_key(const struct maps *maps, int cpumode)
{
	return (u64)(uintptr_t)maps | (u64)(cpumode & PERF_RECORD_MISC_CPUMODE_MASK);
}

/* space_of - the cache of @key (@maps), emptied when the maps changed */
static struct resolver_space *space_of(struct resolver *res, const struct maps *maps, u64 key)
{
	struct resolver_space *sp = res->last_space;

	if (!sp || sp->key != key) {
		sp = u64map_find(&res->spaces, key);
		if (!sp) {
			sp = xzalloc(sizeof(*sp));
			sp->key = key;
			sp->gen = maps ? maps->gen : 0;
			u64map_init(&sp->ips);
			u64map_set(&res->spaces, key, sp);
		}
		res->last_space = sp;
	}
	if (maps && sp->gen != maps->gen) {
		u64map_release(&sp->ips);
		u64map_init(&sp->ips);
		sp->gen = maps->gen;
	}
	return sp;
}

/* frame_fill - resolve @ip: the machine's frame, and what perf shows from the cpumode's space */
static void frame_fill(struct resolver *res, struct resolved_frame *rf, const struct maps *maps,
		       struct thread *thread, int cpumode, u64 ip)
{
	struct map *map = maps ? maps_find(maps, ip) : NULL;
	struct dso *dso = map ? map->dso : NULL;

	memset(rf, 0, sizeof(*rf));
	rf->ip = rf->addr = ip;
	/* loads the dso's symbols; may look in the kernel for a user address (report's entries) */
	rf->frame = machine_resolve_ip(res->machine, thread, cpumode, ip);
	if (!dso)
		return;
	rf->map = map;
	if (dso->is_kernel)
		rf->addr = ip;
	else if (dso->ss)
		rf->addr = symsrc_map_ip(dso->ss, map->start, map->pgoff, ip);
	else
		rf->addr = ip - map->start + map->pgoff;
	if (rf->frame->sym && rf->frame->dso == dso)
		rf->symoff = rf->addr - rf->frame->sym->start;
	if (res->opts.srcline)
		rf->srcline = frame_srcline(res, dso, rf->addr);
}

/* the address space @cpumode looks in */
static inline const struct maps *space_maps(struct resolver *res, struct thread *thread, int cpumode)
{
	if (is_kernel_mode(cpumode))
		return &res->machine->kmaps;
	return thread ? thread->maps : NULL;
}

/* space_frame_miss - space_frame() past its direct-mapped slot: the space's map, else a new frame */
static __attribute__((noinline)) const struct resolved_frame *
space_frame_miss(struct resolver *res, const struct maps *maps, u64 key, struct thread *thread,
		 int cpumode, u64 ip, struct resolver_slot *slot, u32 gen)
{
	struct resolver_space *sp = space_of(res, maps, key);
	struct resolved_frame *rf = u64map_find(&sp->ips, ip);

	if (!rf) {
		rf = frame_alloc(res);
		frame_fill(res, rf, maps, thread, cpumode, ip);
		/*
		 * a dso whose symbols are still loading (lazy symbols): not
		 * kept, the address resolves again once they are there
		 */
		if (rf->frame->dso && !rf->frame->dso->is_loaded) {
			struct resolved_frame *tmp = &res->scratch[res->scratch_next++ % RESOLVER_SCRATCH];

			*tmp = *rf;
			res->free_frames = xgrow(res->free_frames, res->nr_free_frames + 1,
						 &res->alloc_free_frames, sizeof(*res->free_frames));
			res->free_frames[res->nr_free_frames++] = rf;
			return tmp;
		}
		u64map_set(&sp->ips, ip, rf);
	}
	*slot = (struct resolver_slot){ key, ip, gen, rf };
	return rf;
}

/*
 * space_frame - resolver_frame() with the space's maps and key already
 * known; the slot hit is inline, as most frames of a file hit
 */
static inline const struct resolved_frame *space_frame(struct resolver *res,
						       const struct maps *maps, u64 key,
						       struct thread *thread, int cpumode, u64 ip)
{
	u32 gen = maps ? maps->gen : 0;
	/* Fibonacci hashing: the top bits of a multiply */
	struct resolver_slot *slot = &res->slots[((ip ^ key) * 0x9e3779b97f4a7c15ULL) >> (64 - SLOT_BITS)];

	if (__builtin_expect(slot->rf && slot->ip == ip && slot->key == key && slot->gen == gen, 1))
		return slot->rf;
	return space_frame_miss(res, maps, key, thread, cpumode, ip, slot, gen);
}

const struct resolved_frame *resolver_frame(struct resolver *res, struct thread *thread,
					    int cpumode, u64 ip)
{
	const struct maps *maps = space_maps(res, thread, cpumode);

	return space_frame(res, maps, space_key(maps, cpumode), thread, cpumode, ip);
}

const struct resolved_frame *resolver_frame_fb(struct resolver *res, struct thread *thread,
					       int cpumode, u64 ip)
{
	const struct resolved_frame *rf = resolver_frame(res, thread, cpumode, ip);

	if (rf->map)
		return rf;
	return resolver_frame(res, thread,
			      is_kernel_mode(cpumode) ? PERF_RECORD_MISC_USER : PERF_RECORD_MISC_KERNEL,
			      ip);
}

const struct resolved_frame *resolve_sample(struct resolver *res, const struct perf_sample *sample,
					    struct addr_location *loc)
{
	const struct resolved_frame *rf;

	loc->thread = machine_findnew_thread(res->machine, (int)sample->pid, (int)sample->tid);
	loc->cpumode = sample->cpumode;
	rf = resolver_frame(res, loc->thread, sample->cpumode, sample->ip);
	loc->frame = rf->frame;
	return rf;
}

/* chain_room - room for @n more frames after out->nr */
static inline void chain_room(struct resolved_chain *out, size_t n)
{
	if (out->nr + n > out->alloc)
		out->frames = xgrow(out->frames, out->nr + n, &out->alloc, sizeof(*out->frames));
}

/* the recorded part: frames between context markers, each in its marker's address space */
static void add_recorded(struct resolver *res, struct thread *thread, const struct ip_callchain *cc,
			 const struct chain_opts *opts, struct resolved_chain *out)
{
	int cpumode = PERF_RECORD_MISC_USER;
	const struct maps *maps = space_maps(res, thread, cpumode);
	u64 key = space_key(maps, cpumode), first = 0;

	chain_room(out, cc->nr);
	if (opts->max_stack && opts->caller_order) {
		/* perf walks from the outermost frame: --max-stack keeps the outermost ones */
		u32 kept = 0;

		for (u64 i = cc->nr; i-- > 0;) {
			if (cc->ips[i] >= PERF_CONTEXT_MAX)
				continue;
			if (kept == opts->max_stack)
				break;
			kept++;
			first = i;
		}
	}
	/* locals: the frames written below could alias the options for the compiler */
	u32 nr = out->nr, stop = opts->max_stack && !opts->caller_order ? opts->max_stack : 0;
	struct resolved_frame *frames = out->frames;

	for (u64 i = 0; i < cc->nr; i++) {
		u64 ip = cc->ips[i];

		if (ip >= PERF_CONTEXT_MAX) {
			int mode = callchain_context_cpumode(ip);

			if (mode >= 0) {
				cpumode = mode;
				maps = space_maps(res, thread, cpumode);
				key = space_key(maps, cpumode);
			} else if (opts->bad_context_empties) {
				out->nr = 0;
				return;
			}
			continue;
		}
		if (i < first)
			continue;
		if (stop && nr == stop)
			break;
		frames[nr++] = *space_frame(res, maps, key, thread, cpumode, ip);
	}
	out->nr = nr;
}

/* an unwound user address: one frame, or one per function inlined there (innermost first) */
static void add_unwound(struct resolver *res, struct thread *thread, u64 ip,
			struct resolved_chain *out)
{
	const struct resolved_frame *base = resolver_frame(res, thread, PERF_RECORD_MISC_USER, ip);
	struct srcline sl;

	if (!resolved_frame_sym(base) || base->map->dso->is_kernel ||
	    resolver_srcline_find(res, base->map->dso, base->addr, true, &sl) || !sl.func ||
	    !strcmp(sl.func, "??")) {
		chain_room(out, 1);
		out->frames[out->nr++] = *base;
		return;
	}
	chain_room(out, sl.nr_inlines + 1);
	for (size_t k = 0; k <= sl.nr_inlines; k++) {
		const char *name = k < sl.nr_inlines ? sl.inlines[k].func : sl.func;
		struct resolved_frame *rf = &out->frames[out->nr++];

		*rf = *base; /* the symbol offset stays the ELF symbol's */
		if (name)
			rf->frame = machine_inline_frame(res->machine, base->frame, name);
	}
}

u32 resolve_sample_callchain(struct resolver *res, struct thread *thread,
			     const struct perf_sample *sample, u64 sample_type,
			     const struct chain_opts *opts, struct resolved_chain *out)
{
	out->nr = 0;
	if (sample->callchain)
		add_recorded(res, thread, sample->callchain, opts, out);
	if (opts->unwind && unwind_possible(sample_type)) {
		u64 ips[UNWIND_MAX];
		int max = UNWIND_MAX, n;

		if (opts->max_stack) {
			if (out->nr >= opts->max_stack)
				return out->nr;
			if (opts->max_stack - out->nr < UNWIND_MAX)
				max = (int)(opts->max_stack - out->nr);
		}
		if (!res->unwind)
			res->unwind = unwind_cache_new();
		n = unwind_user_cached(res->unwind, res->machine, thread, sample, ips, max);
		for (int i = 0; i < n; i++)
			add_unwound(res, thread, ips[i], out);
	}
	return out->nr;
}

static int frame_recycle(uint64_t key, void *val, void *arg)
{
	struct resolver *res = arg;

	(void)key;
	res->free_frames = xgrow(res->free_frames, res->nr_free_frames + 1, &res->alloc_free_frames,
				 sizeof(*res->free_frames));
	res->free_frames[res->nr_free_frames++] = val;
	return 0;
}

void resolver_forget_maps(struct resolver *res, const struct maps *maps)
{
	/* one space per cpumode seen in it; the slots go stale by the maps' generation */
	for (int mode = 0; mode <= PERF_RECORD_MISC_CPUMODE_MASK; mode++) {
		struct resolver_space *sp = u64map_remove(&res->spaces, space_key(maps, mode));

		if (!sp)
			continue;
		if (res->last_space == sp)
			res->last_space = NULL;
		u64map_for_each(&sp->ips, frame_recycle, res);
		space_free(0, sp, NULL);
	}
}
