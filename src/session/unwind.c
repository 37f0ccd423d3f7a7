/* SPDX-License-Identifier: MIT */
/* DWARF (CFI) unwinding of sampled user stacks with libdw's dwfl unwinder. */
#define PR_PREFIX "unwind"
#include "session/unwind.h"

#include "lib/debug.h"
#include "lib/hashmap.h"
#include "lib/xalloc.h"
#include "session/machine.h"
#include "symbol/elf.h"

#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* x86-64 perf_regs indices (PERF_REG_X86_*) */
enum { X86_AX, X86_BX, X86_CX, X86_DX, X86_SI, X86_DI, X86_BP, X86_SP, X86_IP, X86_FLAGS,
       X86_R8 = 16 };

/*
 * struct stack_window - the user stack bytes a sample carries, as the address
 * range [lo, hi) they were copied from. hi stops at what the kernel really
 * copied (dyn_size), not at the reserved size.
 */
struct stack_window {
	u64 lo, hi;
	const unsigned char *bytes;
};

/* window_read - the word at @addr when it lies wholly inside @w */
static bool window_read(const struct stack_window *w, u64 addr, Dwarf_Word *out)
{
	if (addr < w->lo || addr >= w->hi || w->hi - addr < sizeof(*out))
		return false;
	memcpy(out, w->bytes + (addr - w->lo), sizeof(*out));
	return true;
}

/*
 * struct unwinder - one libdw session for one address space (struct maps):
 * modules stay reported while the maps do not change, so each sample only
 * sets the registers and stack to unwind.
 */
struct unwinder {
	struct machine *machine;
	const struct maps *maps;
	u32 maps_gen;
	Dwfl *dwfl;
	bool attached;
	/* the sample being unwound */
	struct thread *thread;
	const struct perf_sample *sample;
	struct stack_window stack;
	u64 *ips;
	int nr, max;
	int last_fd;		 /* file of the last DSO read for memory outside the stack */
	const struct dso *last_dso;
};

struct unwind_cache {
	struct u64map by_maps; /* struct maps * -> struct unwinder * */
};

/* reg_value - register @idx of the sampled user registers; false when not sampled */
static bool reg_value(const struct regs_dump *regs, int idx, u64 *val)
{
	int pos = 0;

	if (!regs->regs || !(regs->mask & (1ULL << idx)))
		return false;
	for (int i = 0; i < idx; i++)
		if (regs->mask & (1ULL << i))
			pos++;
	*val = regs->regs[pos];
	return true;
}

static const Dwfl_Callbacks offline_callbacks = {
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

/* report_module - make libdw know the DSO mapped at @ip (user maps only) */
static void report_module(struct unwinder *u, u64 ip)
{
	struct map *map = u->thread->maps ? maps_find(u->thread->maps, ip) : NULL;
	Dwfl_Module *mod;
	const char *path;
	u64 base;

	if (!map || !map->dso || map->dso->is_kernel)
		return;
	if (map->dso->long_name[0] != '/' && strcmp(map->dso->long_name, "[vdso]"))
		return;
	base = map->start - map->pgoff;
	mod = dwfl_addrmodule(u->dwfl, ip);
	if (mod) {
		Dwarf_Addr start = 0;

		dwfl_module_info(mod, NULL, &start, NULL, NULL, NULL, NULL, NULL);
		if (start == base)
			return;
	}
	dso_load(u->machine, map->dso);
	path = map->dso->ss && map->dso->ss->path ? map->dso->ss->path : map->dso->long_name;
	if (path[0] != '/') {
		/* the vdso without a cached copy: our own image, as the symbols came from it */
		void *image = NULL;
		size_t len = 0;
		int fd;

		if (vdso_read_self(&image, &len))
			return;
		fd = memfd_create("vdso", MFD_CLOEXEC);
		if (fd >= 0 && write_full(fd, image, len)) {
			close(fd);
			fd = -1;
		}
		free(image);
		if (fd < 0)
			return;
		if (!dwfl_report_elf(u->dwfl, map->dso->short_name, path, fd, base, false))
			pr_debug("cannot report the vdso to libdw: %s\n", dwfl_errmsg(-1));
		return;
	}
	if (!dwfl_report_elf(u->dwfl, map->dso->short_name, path, -1, base, false))
		pr_debug("cannot report %s to libdw: %s\n", path, dwfl_errmsg(-1));
}

static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	/* never used to list threads: get_thread answers for any tid */
	return 0;
}

static bool get_thread(Dwfl *dwfl, pid_t tid, void *arg, void **thread_argp)
{
	*thread_argp = arg;
	return true;
}

/* memory outside the stack copy: read it from the DSO file mapped there */
static bool read_dso_word(struct unwinder *u, u64 addr, Dwarf_Word *result)
{
	struct map *map = u->thread->maps ? maps_find(u->thread->maps, addr) : NULL;
	const char *path;

	if (!map || !map->dso || map->dso->long_name[0] != '/')
		return false;
	if (u->last_dso != map->dso) {
		if (u->last_fd >= 0)
			close(u->last_fd);
		path = map->dso->ss && map->dso->ss->path ? map->dso->ss->path :
							     map->dso->long_name;
		u->last_fd = open(path, O_RDONLY | O_CLOEXEC);
		u->last_dso = map->dso;
	}
	if (u->last_fd < 0)
		return false;
	return pread(u->last_fd, result, sizeof(*result),
		     (off_t)(addr - map->start + map->pgoff)) == (ssize_t)sizeof(*result);
}

/* libdw's memory reader: the stack copy first, else the file mapped at @addr */
static bool read_word(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *out, void *arg)
{
	struct unwinder *u = arg;

	return window_read(&u->stack, addr, out) || read_dso_word(u, addr, out);
}

static bool set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	struct unwinder *u = arg;
	const struct regs_dump *regs = &u->sample->user_regs;
	/* DWARF order on x86-64: rax rdx rcx rbx rsi rdi rbp rsp r8-r15 rip */
	static const int order[17] = { X86_AX, X86_DX, X86_CX, X86_BX, X86_SI, X86_DI, X86_BP,
				       X86_SP, X86_R8, X86_R8 + 1, X86_R8 + 2, X86_R8 + 3,
				       X86_R8 + 4, X86_R8 + 5, X86_R8 + 6, X86_R8 + 7, X86_IP };
	Dwarf_Word dw[17];

	for (int i = 0; i < 17; i++) {
		u64 v = 0;

		reg_value(regs, order[i], &v);
		dw[i] = v;
	}
	return dwfl_thread_state_registers(thread, 0, 17, dw);
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
	.next_thread = next_thread,
	.get_thread = get_thread,
	.memory_read = read_word,
	.set_initial_registers = set_initial_registers,
};

/* unwinder_push - keep one frame's pc; false once the caller's array is full */
static bool unwinder_push(struct unwinder *u, u64 pc)
{
	u->ips[u->nr++] = pc;
	return u->nr < u->max;
}

/*
 * on_frame - called by dwfl_getthread_frames for each frame, innermost first.
 * Asking libdw whether a frame is an activation makes it unwind one step
 * further, which needs the CFI of the module holding this pc: so the bare pc
 * is read first, its module made known, and only then the question asked.
 */
static int on_frame(Dwfl_Frame *frame, void *arg)
{
	struct unwinder *u = arg;
	Dwarf_Addr where;
	bool exact;

	if (!dwfl_frame_pc(frame, &where, NULL))
		return DWARF_CB_ABORT;
	report_module(u, where);
	if (!dwfl_frame_pc(frame, &where, &exact))
		return DWARF_CB_ABORT;
	/* a return address lies after its call: step back into the calling instruction */
	return unwinder_push(u, exact ? where : where - 1) ? DWARF_CB_OK : DWARF_CB_ABORT;
}

static void unwinder_free(struct unwinder *u)
{
	if (!u)
		return;
	if (u->dwfl)
		dwfl_end(u->dwfl);
	if (u->last_fd >= 0)
		close(u->last_fd);
	free(u);
}

static int unwinder_free_one(uint64_t key, void *val, void *arg)
{
	unwinder_free(val);
	return 0;
}

struct unwind_cache *unwind_cache_new(void)
{
	struct unwind_cache *uc = xzalloc(sizeof(*uc));

	u64map_init(&uc->by_maps);
	return uc;
}

void unwind_cache_free(struct unwind_cache *uc)
{
	if (!uc)
		return;
	u64map_for_each(&uc->by_maps, unwinder_free_one, NULL);
	u64map_release(&uc->by_maps);
	free(uc);
}

/* a libdw session for @thread's address space, fresh when the maps changed */
static struct unwinder *unwinder_get(struct unwind_cache *uc, struct machine *machine,
				     struct thread *thread)
{
	struct unwinder *u = uc ? u64map_find(&uc->by_maps, (uint64_t)(uintptr_t)thread->maps) :
				  NULL;

	if (u && u->maps_gen != thread->maps->gen) {
		u64map_remove(&uc->by_maps, (uint64_t)(uintptr_t)thread->maps);
		unwinder_free(u);
		u = NULL;
	}
	if (u)
		return u;
	u = xzalloc(sizeof(*u));
	u->machine = machine;
	u->maps = thread->maps;
	u->maps_gen = thread->maps->gen;
	u->last_fd = -1;
	u->dwfl = dwfl_begin(&offline_callbacks);
	if (uc)
		u64map_set(&uc->by_maps, (uint64_t)(uintptr_t)thread->maps, u);
	return u;
}

int unwind_user_cached(struct unwind_cache *uc, struct machine *machine, struct thread *thread,
		       const struct perf_sample *sample, u64 *ips, int max)
{
	struct unwinder *u;
	u64 ip, sp;
	pid_t tid;
	int nr;

	if (max <= 0 || !thread || !thread->maps || !sample->user_regs.regs ||
	    sample->user_regs.abi != PERF_SAMPLE_REGS_ABI_64 || !sample->user_stack.data ||
	    !reg_value(&sample->user_regs, X86_IP, &ip) ||
	    !reg_value(&sample->user_regs, X86_SP, &sp))
		return 0;
	u = unwinder_get(uc, machine, thread);
	if (!u->dwfl)
		goto out;
	u->thread = thread;
	u->sample = sample;
	u->stack.lo = sp;
	u->stack.hi = sp + MIN(sample->user_stack.size, sample->user_stack.dyn_size);
	u->stack.bytes = (const unsigned char *)sample->user_stack.data;
	u->ips = ips;
	u->nr = 0;
	u->max = max;
	tid = thread->tid > 0 ? thread->tid : 1;
	report_module(u, ip);
	if (!u->attached) {
		if (!dwfl_attach_state(u->dwfl, NULL, tid, &thread_callbacks, u)) {
			pr_debug("cannot attach the unwinder: %s\n", dwfl_errmsg(-1));
			goto out;
		}
		u->attached = true;
	}
	dwfl_getthread_frames(u->dwfl, tid, on_frame, u);
out:
	nr = u->nr;
	u->sample = NULL;
	if (!uc)
		unwinder_free(u);
	return nr;
}

int unwind_user(struct machine *machine, struct thread *thread, const struct perf_sample *sample,
		u64 *ips, int max)
{
	return unwind_user_cached(NULL, machine, thread, sample, ips, max);
}
