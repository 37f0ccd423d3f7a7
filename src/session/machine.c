/* SPDX-License-Identifier: MIT */
/* The host model: threads, per-process maps, dsos, kernel maps and address resolution. */
#define PR_PREFIX "machine"
#include "session/machine.h"

#include "lib/debug.h"
#include "lib/xalloc.h"
#include "lib/strbuf.h"
#include "symbol/elf.h"
#include "symbol/kallsyms.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define FCACHE_SIZE 8192 /* entries of the direct-mapped frame cache, a power of two */

/* a u64map value for "known to be absent" where NULL cannot be stored */
static char absent_marker;

/*
 * maps generations come from one sequence: an address space freed (top's
 * reaping) and another allocated at the same address never share one, so
 * the caches keyed by (maps, gen) cannot take one for the other
 */
static u32 maps_gen_seq;

static void maps_init(struct maps *maps)
{
	memset(maps, 0, sizeof(*maps));
	u64map_init(&maps->cache);
	maps->gen = ++maps_gen_seq;
	maps->pid = -1;
}

static void maps_release(struct maps *maps)
{
	free(maps->arr);
	u64map_release(&maps->cache);
}

static struct maps *machine_new_maps(struct machine *machine)
{
	struct maps *maps = xmalloc(sizeof(*maps));

	maps_init(maps);
	machine->all_maps_sets = xgrow(machine->all_maps_sets, machine->nr_maps_sets + 1, &machine->alloc_maps_sets, sizeof(*machine->all_maps_sets));
	maps->set_idx = machine->nr_maps_sets;
	machine->all_maps_sets[machine->nr_maps_sets++] = maps;
	return maps;
}

static void maps_changed(struct maps *maps)
{
	maps->gen = ++maps_gen_seq;
	if (maps->cache.nr) {
		u64map_release(&maps->cache);
		u64map_init(&maps->cache);
	}
}

/* index of the first map whose end > addr */
static size_t maps_lower(const struct maps *maps, u64 addr)
{
	size_t lo = 0, hi = maps->nr;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (maps->arr[mid]->end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

struct map *maps_find(const struct maps *maps, u64 addr)
{
	size_t i = maps_lower(maps, addr);

	if (i < maps->nr && maps->arr[i]->start <= addr)
		return maps->arr[i];
	return NULL;
}

static struct map *map_new(struct machine *machine, u64 start, u64 end, u64 pgoff,
			   struct dso *dso, u32 prot, u32 flags)
{
	struct map *map = xzalloc(sizeof(*map));

	map->start = start;
	map->end = end;
	map->pgoff = pgoff;
	map->dso = dso;
	map->prot = prot;
	map->flags = flags;
	map->next_all = machine->all_maps;
	machine->all_maps = map;
	return map;
}

/*
 * maps_insert - put @map in, cutting what it overlaps: an old map partly
 * covered keeps its uncovered head and/or tail as new maps; the old map
 * itself is retired (stays allocated for the hist entries that point to it).
 */
static void maps_insert(struct machine *machine, struct maps *maps, struct map *map)
{
	size_t i = maps_lower(maps, map->start), j = i;
	struct map *head = NULL, *tail = NULL;

	while (j < maps->nr && maps->arr[j]->start < map->end) {
		struct map *old = maps->arr[j];

		if (old->start < map->start)
			head = map_new(machine, old->start, map->start, old->pgoff, old->dso,
				       old->prot, old->flags);
		if (old->end > map->end)
			tail = map_new(machine, map->end, old->end,
				       old->pgoff + (map->end - old->start), old->dso, old->prot,
				       old->flags);
		j++;
	}
	/* replace arr[i..j) with head?, map, tail? */
	size_t nr_new = 1 + (head != NULL) + (tail != NULL);
	size_t removed = j - i;

	/* the maps that leave this space: one holder fewer (freed at the reaping when none is left) */
	for (size_t k = i; k < j; k++)
		maps->arr[k]->refcnt--;
	maps->arr = xgrow(maps->arr, maps->nr - removed + nr_new, &maps->alloc, sizeof(*maps->arr));
	memmove(maps->arr + i + nr_new, maps->arr + j, (maps->nr - j) * sizeof(*maps->arr));
	maps->nr = maps->nr - removed + nr_new;
	map->refcnt++;
	if (head)
		head->refcnt++;
	if (tail)
		tail->refcnt++;
	if (head)
		maps->arr[i++] = head;
	maps->arr[i++] = map;
	if (tail)
		maps->arr[i++] = tail;
	maps_changed(maps);
}

static void maps_clone(struct maps *dst, const struct maps *src)
{
	dst->arr = xgrow(dst->arr, src->nr, &dst->alloc, sizeof(*dst->arr));
	for (size_t i = 0; i < dst->nr; i++)
		dst->arr[i]->refcnt--;
	if (src->nr) /* memcpy(NULL, NULL, 0) is UB (UBSan, fuzzer) */
		memcpy(dst->arr, src->arr, src->nr * sizeof(*src->arr));
	dst->nr = src->nr;
	for (size_t i = 0; i < dst->nr; i++)
		dst->arr[i]->refcnt++;
	maps_changed(dst);
}

void machine_init(struct machine *machine, struct strpool *names, const struct machine_opts *opts)
{
	memset(machine, 0, sizeof(*machine));
	machine->names = names;
	u64map_init(&machine->threads);
	u64map_init(&machine->procs);
	u64map_init(&machine->dso_by_name);
	u64map_init(&machine->frames_by_key);
	u64map_init(&machine->inline_frames);
	u64map_init(&machine->exits[0]);
	u64map_init(&machine->exits[1]);
	maps_init(&machine->kmaps);
	machine->fcache = xcalloc(FCACHE_SIZE, sizeof(*machine->fcache));
	if (opts)
		machine->opts = *opts;
}

void machine_release(struct machine *machine)
{
	machine_stop_lazy_symbols(machine);
	for (struct thread *t = machine->all_threads, *n; t; t = n) {
		n = t->next_all;
		free(t);
	}
	for (struct map *m = machine->all_maps, *n; m; m = n) {
		n = m->next_all;
		free(m);
	}
	for (size_t i = 0; i < machine->nr_maps_sets; i++) {
		maps_release(machine->all_maps_sets[i]);
		free(machine->all_maps_sets[i]);
	}
	free(machine->all_maps_sets);
	free(machine->dying);
	u64map_release(&machine->exits[0]);
	u64map_release(&machine->exits[1]);
	free(machine->reapable);
	free(machine->fcache);
	maps_release(&machine->kmaps);
	for (struct dso *d = machine->dsos, *n; d; d = n) {
		n = d->next;
		symsrc_free(d->ss);
		free(d);
	}
	for (u32 i = 0; i < machine->nr_frames; i++)
		free(machine->frames[i]);
	free(machine->frames);
	u64map_release(&machine->frames_by_key);
	u64map_release(&machine->inline_frames);
	for (size_t i = 0; i < machine->nr_inline_syms; i++)
		free(machine->inline_syms[i]);
	free(machine->inline_syms);
	u64map_release(&machine->threads);
	u64map_release(&machine->procs);
	u64map_release(&machine->dso_by_name);
	memset(machine, 0, sizeof(*machine));
}

void machine_set_build_ids(struct machine *machine, struct build_id_entry *ids, int nr)
{
	machine->build_ids = ids;
	machine->nr_build_ids = nr;
	/*
	 * perf makes the dsos of the build-id table first, in table order;
	 * callchain siblings that tie are ordered by dso, so do the same.
	 */
	for (int i = 0; i < nr; i++) {
		const char *name = ids[i].filename;
		u8 size = ids[i].size ? ids[i].size : 20;

		if (!name || !*name)
			continue;
		if (!strncmp(name, "[kernel.kallsyms]", 17))
			name = "[kernel.kallsyms]";
		machine_findnew_dso(machine, name, ids[i].build_id, size);
	}
}

/* ---- threads ---------------------------------------------------------- */

void thread_set_comm(struct machine *machine, struct thread *thread, const char *comm)
{
	thread->comm = strpool_intern(machine->names, comm);
	thread->comm_set = true;
}

static struct maps *machine_proc_maps(struct machine *machine, int pid)
{
	struct maps *maps = u64map_find(&machine->procs, (u64)(u32)pid);

	if (!maps) {
		maps = machine_new_maps(machine);
		maps->pid = pid;
		u64map_set(&machine->procs, (u64)(u32)pid, maps);
	}
	return maps;
}

/* thread_gone - @t no longer runs (EXIT, or a FORK reused its tid): its space may die */
static void thread_gone(struct machine *machine, struct thread *t)
{
	struct maps *maps = t->maps;

	if (t->is_gone)
		return;
	t->is_gone = true;
	if (!maps || --maps->nr_live || maps->is_dying)
		return;
	maps->is_dying = true;
	machine->dying = xgrow(machine->dying, machine->nr_dying + 1, &machine->alloc_dying,
			       sizeof(*machine->dying));
	machine->dying[machine->nr_dying++] = maps;
}

static struct thread *thread_new(struct machine *machine, int pid, int tid)
{
	struct thread *t = xzalloc(sizeof(*t));
	char buf[32];

	t->pid = pid;
	t->tid = tid;
	t->ppid = -1;
	t->id = machine->nr_threads++;
	/* perf names the idle task before any COMM says so */
	if (tid == 0)
		snprintf(buf, sizeof(buf), "swapper");
	else
		snprintf(buf, sizeof(buf), ":%d", tid);
	t->comm = strpool_intern(machine->names, buf);
	t->maps = machine_proc_maps(machine, pid);
	t->maps->nr_live++;
	t->next_all = machine->all_threads;
	machine->all_threads = t;
	{
		struct thread *old = u64map_set(&machine->threads, (u64)(u32)tid, t);

		if (old)
			thread_gone(machine, old);
	}
	return t;
}

struct thread *machine_find_thread(struct machine *machine, int tid)
{
	return u64map_find(&machine->threads, (u64)(u32)tid);
}

struct thread *machine_findnew_thread(struct machine *machine, int pid, int tid)
{
	struct thread *t = machine->last_thread;

	if (t && t->tid == tid && (pid == -1 || t->pid == pid))
		return t;
	t = machine_find_thread(machine, tid);
	if (t && pid != -1 && t->pid != pid && t->pid == -1) {
		/* learnt the pid of a thread first seen without one */
		t->pid = pid;
		if (!t->is_gone)
			t->maps->nr_live--;
		t->maps = machine_proc_maps(machine, pid);
		if (!t->is_gone)
			t->maps->nr_live++;
	}
	if (!t)
		t = thread_new(machine, pid == -1 ? tid : pid, tid);
	machine->last_thread = t;
	return t;
}

int machine_process_comm(struct machine *machine, const union perf_event *ev)
{
	const struct perf_record_comm *c = &ev->comm;
	size_t max;
	char buf[64];

	if (ev->header.size < sizeof(*c) + 1)
		return 0;
	max = ev->header.size - sizeof(*c);
	if (max >= sizeof(buf))
		max = sizeof(buf) - 1;
	memcpy(buf, c->comm, max);
	buf[max] = '\0';
	struct thread *t = machine_findnew_thread(machine, (int)c->pid, (int)c->tid);

	thread_set_comm(machine, t, buf);
	return 0;
}

int machine_process_fork(struct machine *machine, const union perf_event *ev)
{
	const struct perf_record_fork *f = &ev->fork;
	struct thread *parent, *child;
	bool new_process;

	if (ev->header.size < sizeof(*f))
		return 0;
	parent = machine_findnew_thread(machine, (int)f->ppid, (int)f->ptid);
	new_process = f->pid != f->ppid;
	if (new_process) {
		/*
		 * a new address space, even when the pid was used before; it
		 * starts as a copy of the parent's, except for a FORK that record
		 * synthesized from /proc (PERF_RECORD_MISC_FORK_EXEC): that child
		 * has exec'd since, its MMAPs follow, and perf gives it none of
		 * the parent's maps (a non-PIE parent's text would otherwise
		 * claim the child's stray callchain addresses)
		 */
		struct maps *maps = machine_new_maps(machine);

		maps->pid = (int)f->pid;
		if (!(ev->header.misc & PERF_RECORD_MISC_FORK_EXEC))
			maps_clone(maps, parent->maps);
		u64map_set(&machine->procs, (u64)f->pid, maps);
	}
	/* like perf, a FORK always makes a new task: a thread seen before is retired */
	child = thread_new(machine, (int)f->pid, (int)f->tid);
	machine->last_thread = NULL;
	child->ppid = (int)f->ppid;
	{
		/* its EXIT came first: the task is already gone */
		u64 tid = (u64)(u32)f->tid;
		uintptr_t exit = (uintptr_t)u64map_find(&machine->exits[0], tid);

		if (!exit)
			exit = (uintptr_t)u64map_find(&machine->exits[1], tid);
		if (exit && exit - 1 >= f->time) {
			child->is_dead = true;
			thread_gone(machine, child);
		}
	}
	/*
	 * perf copies the parent's comm only when a COMM named the parent:
	 * otherwise the child keeps its own ":<tid>" (perf script shows it so).
	 */
	if (parent->comm_set) {
		child->comm = parent->comm;
		child->comm_set = true;
	}
	return 0;
}

int machine_process_exit(struct machine *machine, const union perf_event *ev)
{
	struct thread *t = machine_find_thread(machine, (int)ev->fork.tid);

	if (t) {
		t->is_dead = true;
		thread_gone(machine, t);
	}
	/* kept a while for a FORK of this task still to come (another cpu's ring) */
	u64map_set(&machine->exits[0], (u64)(u32)ev->fork.tid, (void *)(uintptr_t)(ev->fork.time + 1));
	return 0;
}

/* ---- dsos ------------------------------------------------------------- */

static const char *dso_short_name_of(struct machine *machine, const char *long_name)
{
	const char *slash;
	int pid;

	if (long_name[0] == '[')
		return strpool_intern(machine->names, long_name);
	if (dso_name_is_perf_map(long_name, &pid)) {
		char buf[64];

		/* perf report calls a JIT map "[JIT] tid PID" */
		if (perf_map_short_name(long_name, buf, sizeof(buf)))
			return strpool_intern(machine->names, buf);
	}
	slash = strrchr(long_name, '/');
	return strpool_intern(machine->names, slash ? slash + 1 : long_name);
}

static const struct build_id_entry *find_recorded_build_id(struct machine *machine,
							   const char *name)
{
	for (int i = 0; i < machine->nr_build_ids; i++) {
		const struct build_id_entry *e = &machine->build_ids[i];

		if (e->filename && !strcmp(e->filename, name))
			return e;
	}
	return NULL;
}

struct dso *machine_findnew_dso(struct machine *machine, const char *long_name,
				const u8 *build_id, int build_id_size)
{
	const char *name = strpool_intern(machine->names, long_name);
	struct dso *dso = u64map_find(&machine->dso_by_name, (u64)(uintptr_t)name);

	for (struct dso *d = dso; d; d = NULL) {
		/* same path: same dso unless both build-ids are known and differ */
		if (!build_id_size || !d->build_id_size ||
		    (d->build_id_size == build_id_size &&
		     !memcmp(d->build_id, build_id, (size_t)build_id_size)))
			goto found;
	}
	for (struct dso *d = machine->dsos; d && dso; d = d->next) {
		if (d->long_name == name && d->build_id_size == build_id_size &&
		    !memcmp(d->build_id, build_id, (size_t)build_id_size)) {
			dso = d;
			goto found;
		}
	}
	dso = xzalloc(sizeof(*dso));
	dso->long_name = name;
	dso->short_name = dso_short_name_of(machine, name);
	dso->id = machine->nr_dsos++;
	dso->is_kernel = dso_name_is_kernel(name) || !strncmp(name, "[kernel.kallsyms]", 17);
	dso->is_jit = dso_name_is_perf_map(name, NULL);
	dso->next = machine->dsos;
	machine->dsos = dso;
	if (!u64map_find(&machine->dso_by_name, (u64)(uintptr_t)name))
		u64map_set(&machine->dso_by_name, (u64)(uintptr_t)name, dso);
	if (!build_id_size) {
		const struct build_id_entry *e = find_recorded_build_id(machine, name);

		if (e) {
			build_id = e->build_id;
			build_id_size = e->size ? e->size : 20;
		}
	}
found:
	if (build_id_size && !dso->build_id_size) {
		if (build_id_size > BUILD_ID_SIZE)
			build_id_size = BUILD_ID_SIZE;
		memcpy(dso->build_id, build_id, (size_t)build_id_size);
		dso->build_id_size = (u8)build_id_size;
	}
	return dso;
}

int dso_symsrc_load(struct symsrc *ss, const char *long_name, const u8 *build_id,
		    u8 build_id_size, bool is_kernel, const struct symbol_opts *opts)
{
	struct symsrc_args args = {
		.opts = opts,
		.build_id = build_id_size ? build_id : NULL,
		.build_id_size = build_id_size,
		.is_kernel = is_kernel,
	};

	/* tests: a slow disk or a huge table, without either (t8054) */
	if (!is_kernel && getenv("SONDE_TEST_SYMBOL_DELAY_MS"))
		usleep((useconds_t)atoi(getenv("SONDE_TEST_SYMBOL_DELAY_MS")) * 1000);
	if (is_kernel) {
		const char *n = long_name;

		/* the image: -k, kcore_dir, a vmlinux found, kallsyms (symbol/vmlinux.c) */
		if (!strncmp(n, "[kernel.kallsyms]", 17) || !strcmp(n, "[kernel.vmlinux]"))
			return symsrc_load_kernel(ss, &args);
		if (n[0] == '[') {
			char mod[128];
			size_t len = strlen(n);

			snprintf(mod, sizeof(mod), "%.*s", (int)(len > 2 ? len - 2 : 0), n + 1);
			return symsrc_load_kallsyms(ss, mod, &args);
		}
	}
	return symsrc_load(ss, long_name, &args);
}

int dso_load(struct machine *machine, struct dso *dso)
{
	if (dso->is_loaded)
		return dso->load_status;
	/* a live session: the loader thread does it, the address is shown meanwhile */
	if (machine->lazy)
		return machine_queue_symbols(machine, dso);
	dso->is_loaded = true;
	if (machine->opts.no_symbols) {
		dso->load_status = -ENOENT;
		return dso->load_status;
	}
	if (machine->loader) {
		dso->load_status = machine->loader(machine, dso, machine->loader_arg);
	} else {
		dso->ss = symsrc_new(machine->names);
		dso->load_status = dso_symsrc_load(dso->ss, dso->long_name, dso->build_id,
						   dso->build_id_size, dso->is_kernel,
						   machine->opts.symbol_opts);
	}
	pr_debug2("loaded %s: %d\n", dso->long_name, dso->load_status);
	return dso->load_status;
}

/* ---- maps ------------------------------------------------------------- */

static bool is_kernel_mmap_name(const char *name)
{
	return !strncmp(name, "[kernel.kallsyms]", 17) || !strncmp(name, "[guest.kernel", 13);
}

struct map *machine_add_map(struct machine *machine, int pid, int tid, u64 start, u64 len,
			    u64 pgoff, const char *filename, const u8 *build_id, int build_id_size,
			    u32 prot, u32 flags)
{
	struct maps *maps;
	struct dso *dso;
	struct map *map;
	const char *name = filename;

	if (!len || start + len < start)
		return NULL;
	if (pid == -1) {
		/* kernel image ("[kernel.kallsyms]_text") or a module (its path) */
		if (is_kernel_mmap_name(filename)) {
			name = "[kernel.kallsyms]";
		} else if (filename[0] == '/') {
			/* module: perf shows "[name]" from the .ko path */
			const char *b = strrchr(filename, '/') + 1;
			size_t n = strcspn(b, ".");
			char mod[128];

			snprintf(mod, sizeof(mod), "[%.*s]", (int)n, b);
			for (char *p = mod; *p; p++)
				if (*p == '-')
					*p = '_';
			name = mod;
			dso = machine_findnew_dso(machine, name, build_id, build_id_size);
			dso->is_kernel = true;
			goto add;
		}
		maps = &machine->kmaps;
		dso = machine_findnew_dso(machine, name, build_id, build_id_size);
		dso->is_kernel = true;
		machine->kernel_dso = dso;
		/*
		 * perf's kernel map ends where the address space does (or at the
		 * next module already mapped): .init.text and friends lie past
		 * the _text..._etext length the MMAP record gives.
		 */
		u64 end = UINT64_MAX;
		for (size_t k = 0; k < machine->kmaps.nr; k++) {
			struct map *o = machine->kmaps.arr[k];

			if (o->start > start && o->start < end)
				end = o->start;
		}
		map = map_new(machine, start, end, pgoff, dso, prot, flags);
		maps_insert(machine, maps, map);
		return map;
	}
	{
		/* executable anonymous memory is a JIT's: perf names it /tmp/perf-PID.map */
		char jit[64];

		name = mmap_dso_name(filename, pid, prot, flags, jit, sizeof(jit));
		dso = machine_findnew_dso(machine, name, build_id, build_id_size);
	}
add:
	if (pid == -1) {
		maps = &machine->kmaps;
	} else {
		struct thread *t = machine_findnew_thread(machine, pid, tid);

		maps = t->maps;
	}
	map = map_new(machine, start, start + len, pgoff, dso, prot, flags);
	maps_insert(machine, maps, map);
	return map;
}

static size_t record_name(const union perf_event *ev, const char *name, char *buf, size_t size)
{
	size_t off = (size_t)(name - (const char *)ev);
	size_t max;

	if (off >= ev->header.size)
		return 0;
	max = ev->header.size - off;
	if (max >= size)
		max = size - 1;
	memcpy(buf, name, max);
	buf[max] = '\0';
	return strlen(buf);
}

int machine_process_mmap(struct machine *machine, const union perf_event *ev)
{
	const struct perf_record_mmap *m = &ev->mmap;
	char name[4096];

	if (ev->header.size < sizeof(*m) + 1)
		return 0;
	if (!record_name(ev, m->filename, name, sizeof(name)))
		return 0;
	machine_add_map(machine, (int)m->pid, (int)m->tid, m->start, m->len, m->pgoff, name, NULL, 0,
			(ev->header.misc & PERF_RECORD_MISC_MMAP_DATA) ? PROT_READ
								       : PROT_READ | PROT_EXEC,
			0);
	return 0;
}

int machine_process_mmap2(struct machine *machine, const union perf_event *ev)
{
	const struct perf_record_mmap2 *m = &ev->mmap2;
	char name[4096];
	const u8 *bid = NULL;
	int bid_size = 0;

	if (ev->header.size < sizeof(*m) + 1)
		return 0;
	if (!record_name(ev, m->filename, name, sizeof(name)))
		return 0;
	if (ev->header.misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
		bid = m->build_id;
		bid_size = m->build_id_size > 20 ? 20 : m->build_id_size;
	}
	machine_add_map(machine, (int)m->pid, (int)m->tid, m->start, m->len, m->pgoff, name, bid,
			bid_size, m->prot, m->flags);
	return 0;
}

/* ---- resolution ------------------------------------------------------- */

static struct frame *frame_new(struct machine *machine, const struct symbol *sym, struct dso *dso,
			       struct map *map, u64 ip, u64 addr, char level)
{
	struct frame *f = xmalloc(sizeof(*f));

	f->sym = sym;
	f->dso = dso;
	f->map = map;
	f->ip = ip;
	f->addr = addr;
	f->level = level;
	f->inlined = false;
	if (map)
		map->has_frame = true;
	f->id = machine->nr_frames;
	machine->frames = xgrow(machine->frames, machine->nr_frames + 1, &machine->alloc_frames, sizeof(*machine->frames));
	machine->frames[machine->nr_frames++] = f;
	return f;
}

static char cpumode_level(int cpumode)
{
	switch (cpumode) {
	case PERF_RECORD_MISC_KERNEL:
		return 'k';
	case PERF_RECORD_MISC_GUEST_KERNEL:
		return 'g';
	case PERF_RECORD_MISC_GUEST_USER:
		return 'u';
	case PERF_RECORD_MISC_HYPERVISOR:
		return 'H';
	default:
		return '.';
	}
}

struct map *machine_sample_map(struct machine *machine, const struct perf_sample *sample)
{
	const struct maps *maps = NULL;

	if (sample->cpumode == PERF_RECORD_MISC_KERNEL ||
	    sample->cpumode == PERF_RECORD_MISC_GUEST_KERNEL)
		maps = &machine->kmaps;
	else if (sample->cpumode == PERF_RECORD_MISC_USER ||
		 sample->cpumode == PERF_RECORD_MISC_GUEST_USER)
		maps = machine_findnew_thread(machine, (int)sample->pid, (int)sample->tid)->maps;
	return maps ? maps_find(maps, sample->ip) : NULL;
}

/* intern the frame for a resolved (or not) address */
static struct frame *frame_intern(struct machine *machine, struct map *map, u64 ip, char level)
{
	struct dso *dso = map ? map->dso : NULL;
	const struct symbol *sym = NULL;
	u64 addr = ip, key;
	struct frame *f;

	if (dso) {
		dso->is_hit = true;
		if (dso_load(machine, dso) == -EAGAIN)
			dso->nr_pending_hits++;
		if (dso->ss && dso->ss->is_loaded && !dso->ss->status) {
			addr = symsrc_map_ip(dso->ss, map->start, map->pgoff, ip);
			sym = symsrc_find(dso->ss, addr);
		} else if (dso_absolute(dso)) {
			addr = ip;
		} else {
			addr = ip - map->start + map->pgoff;
		}
		if (!sym && !dso_absolute(dso))
			addr = ip - map->start + map->pgoff;
	}
	if (sym) {
		key = (u64)(uintptr_t)sym;
	} else {
		/* unresolved: one frame per (dso, sample address), as perf's callchains match them */
		key = hash_u64(ip ^ hash_u64(dso ? (u64)(uintptr_t)dso : (u64)(unsigned char)level))
		      | 1; /* odd: never a symbol pointer */
	}
	f = u64map_find(&machine->frames_by_key, key);
	/* a hash collision between unresolved frames is told apart by checking the fields */
	while (f && !sym && (f->sym || f->dso != dso || f->ip != ip)) {
		key = hash_u64(key) | 1;
		f = u64map_find(&machine->frames_by_key, key);
	}
	if (!f) {
		f = frame_new(machine, sym, dso, map, ip, addr, level);
		u64map_set(&machine->frames_by_key, key, f);
	}
	return f;
}

const struct frame *machine_resolve_ip(struct machine *machine, struct thread *thread,
				       int cpumode, u64 ip)
{
	struct maps *maps;
	struct map *map;
	struct frame *f;
	char level = cpumode_level(cpumode);

	if (level == 'k' || level == 'g' || level == 'H')
		maps = &machine->kmaps;
	else
		maps = thread ? thread->maps : NULL;
	if (!maps)
		return frame_intern(machine, NULL, ip, level);
	struct frame_cache_slot *slot =
		&machine->fcache[hash_u64(ip ^ (u64)(uintptr_t)maps) & (FCACHE_SIZE - 1)];

	if (slot->maps == maps && slot->ip == ip && slot->gen == maps->gen)
		return slot->frame;
	f = u64map_find(&maps->cache, ip);
	if (f && f != (void *)&absent_marker) {
		*slot = (struct frame_cache_slot){ maps, ip, maps->gen, f };
		return f;
	}
	map = maps_find(maps, ip);
	if (!map && level == '.' && kernel_addr_is_kernel(ip)) {
		/* a user sample that landed in the kernel (perf looks there too) */
		map = maps_find(&machine->kmaps, ip);
		if (map)
			level = 'k';
	}
	f = frame_intern(machine, map, ip, level);
	/* a dso whose symbols are still loading: not kept, resolved again once they are */
	if (f->dso && !f->dso->is_loaded)
		return f;
	u64map_set(&maps->cache, ip, f);
	*slot = (struct frame_cache_slot){ maps, ip, maps->gen, f };
	return f;
}

const struct frame *machine_inline_frame(struct machine *machine, const struct frame *base,
					 const char *name)
{
	const char *n = strpool_intern(machine->names, name);
	u64 key;
	struct frame *f;
	struct symbol *sym;

	if (!base->sym || base->sym->name == n || !strcmp(base->sym->name, n))
		return base;
	key = hash_u64((u64)(uintptr_t)base->dso ^ hash_u64((u64)(uintptr_t)n));
	while ((f = u64map_find(&machine->inline_frames, key)) &&
	       (f->dso != base->dso || f->sym->name != n))
		key = hash_u64(key + 1);
	if (f)
		return f;
	sym = xzalloc(sizeof(*sym));
	sym->start = base->sym->start;
	sym->end = base->sym->end;
	sym->name = n;
	sym->binding = base->sym->binding;
	sym->type = base->sym->type;
	machine->inline_syms = xgrow(machine->inline_syms, machine->nr_inline_syms + 1, &machine->alloc_inline_syms, sizeof(*machine->inline_syms));
	machine->inline_syms[machine->nr_inline_syms++] = sym;
	f = frame_new(machine, sym, base->dso, base->map, base->ip, base->addr, base->level);
	f->inlined = true;
	u64map_set(&machine->inline_frames, key, f);
	return f;
}

const struct frame *machine_frame_reresolve(struct machine *machine, const struct frame *f)
{
	if (f->sym || !f->dso || !f->dso->is_loaded || !f->map || !f->dso->ss ||
	    f->dso->load_status)
		return f;
	return frame_intern(machine, f->map, f->ip, f->level);
}

int machine_resolve(struct machine *machine, const struct perf_sample *sample,
		    struct addr_location *loc)
{
	loc->thread = machine_findnew_thread(machine, (int)sample->pid, (int)sample->tid);
	loc->cpumode = sample->cpumode;
	loc->frame = machine_resolve_ip(machine, loc->thread, sample->cpumode, sample->ip);
	return 0;
}

int machine_process_event(struct machine *machine, const union perf_event *ev)
{
	switch (ev->header.type) {
	case PERF_RECORD_MMAP:
		return machine_process_mmap(machine, ev);
	case PERF_RECORD_MMAP2:
		return machine_process_mmap2(machine, ev);
	case PERF_RECORD_COMM:
		return machine_process_comm(machine, ev);
	case PERF_RECORD_FORK:
		return machine_process_fork(machine, ev);
	case PERF_RECORD_EXIT:
		return machine_process_exit(machine, ev);
	default:
		return 0;
	}
}

/* ---- reaping (live sessions) ------------------------------------------ */

/* reap_threads - threads of reaped spaces leave the lookups; those no entry holds are freed */
static void reap_threads(struct machine *machine)
{
	struct thread **link = &machine->all_threads;

	while (*link) {
		struct thread *t = *link;

		if (t->maps && t->maps->is_reaped) {
			if (u64map_find(&machine->threads, (u64)(u32)t->tid) == t)
				u64map_remove(&machine->threads, (u64)(u32)t->tid);
			t->maps = NULL;
		}
		if (machine->last_thread == t && !t->maps)
			machine->last_thread = NULL;
		if (!t->maps && t->is_gone && !t->nr_entries) {
			*link = t->next_all;
			free(t);
			continue;
		}
		link = &t->next_all;
	}
}

/* reap_maps - the maps no space holds and no frame points to */
static void reap_maps(struct machine *machine)
{
	struct map **link = &machine->all_maps;

	while (*link) {
		struct map *m = *link;

		if (!m->refcnt && !m->has_frame) {
			*link = m->next_all;
			free(m);
			continue;
		}
		link = &m->next_all;
	}
}

/* reap_space - free @maps (its threads are done with it) */
static void reap_space(struct machine *machine, struct maps *maps)
{
	struct maps *last;

	if (maps->pid != -1 && u64map_find(&machine->procs, (u64)(u32)maps->pid) == maps)
		u64map_remove(&machine->procs, (u64)(u32)maps->pid);
	for (size_t i = 0; i < maps->nr; i++)
		maps->arr[i]->refcnt--;
	maps_release(maps);
	last = machine->all_maps_sets[--machine->nr_maps_sets];
	machine->all_maps_sets[maps->set_idx] = last;
	last->set_idx = maps->set_idx;
	free(maps);
}

size_t machine_reap(struct machine *machine, void (*forget)(void *arg, const struct maps *maps),
		    void *arg)
{
	struct maps **tmp;
	size_t nr = 0, tmp_alloc;

	/* the spaces that died before the last call: no sample of theirs is in flight now */
	for (size_t i = 0; i < machine->nr_reapable; i++) {
		struct maps *maps = machine->reapable[i];

		maps->is_dying = false;
		/* a thread of it appeared since (a late record): it lives on */
		if (maps->nr_live)
			continue;
		maps->is_reaped = true;
		machine->reapable[nr++] = maps;
	}
	if (nr) {
		reap_threads(machine);
		for (size_t i = 0; i < nr; i++) {
			if (forget)
				forget(arg, machine->reapable[i]);
			reap_space(machine, machine->reapable[i]);
		}
		reap_maps(machine);
	}
	u64map_release(&machine->exits[1]);
	machine->exits[1] = machine->exits[0];
	u64map_init(&machine->exits[0]);
	/* those that died since become the next call's */
	tmp = machine->reapable;
	tmp_alloc = machine->alloc_reapable;
	machine->reapable = machine->dying;
	machine->alloc_reapable = machine->alloc_dying;
	machine->nr_reapable = machine->nr_dying;
	machine->dying = tmp;
	machine->alloc_dying = tmp_alloc;
	machine->nr_dying = 0;
	return nr;
}
