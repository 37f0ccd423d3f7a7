/* DWARF (CFI) unwinding of sampled user stacks with libdw's dwfl unwinder. */
#define PR_PREFIX "unwind"
#include "session/unwind.h"

#include "lib/debug.h"
#include "lib/xalloc.h"
#include "session/machine.h"

#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* x86-64 perf_regs indices (PERF_REG_X86_*) */
enum { X86_AX, X86_BX, X86_CX, X86_DX, X86_SI, X86_DI, X86_BP, X86_SP, X86_IP, X86_FLAGS,
       X86_R8 = 16 };

struct unwinder {
	struct machine *machine;
	struct thread *thread;
	const struct perf_sample *sample;
	Dwfl *dwfl;
	u64 sp;
	u64 *ips;
	int nr, max;
	bool thread_given;
	int last_fd;		 /* file of the last DSO read for memory outside the stack */
	const struct dso *last_dso;
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

	if (!map || !map->dso || map->dso->is_kernel || map->dso->long_name[0] != '/')
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
	if (!dwfl_report_elf(u->dwfl, map->dso->short_name, path, -1, base, false))
		pr_debug("cannot report %s to libdw: %s\n", path, dwfl_errmsg(-1));
}

static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	struct unwinder *u = arg;

	if (u->thread_given)
		return 0;
	u->thread_given = true;
	*thread_argp = arg;
	return dwfl_pid(dwfl);
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

static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	struct unwinder *u = arg;
	const struct stack_dump *stack = &u->sample->user_stack;
	/* perf unwinds within the bytes the kernel really copied (dyn_size) */
	u64 end = u->sp + MIN(stack->size, stack->dyn_size);

	if (addr + sizeof(*result) < addr)
		return false;
	if (addr < u->sp || addr + sizeof(*result) > end)
		return read_dso_word(u, addr, result);
	memcpy(result, stack->data + (addr - u->sp), sizeof(*result));
	return true;
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
	.memory_read = memory_read,
	.set_initial_registers = set_initial_registers,
};

static int frame_callback(Dwfl_Frame *state, void *arg)
{
	struct unwinder *u = arg;
	Dwarf_Addr pc;
	bool isactivation;

	if (!dwfl_frame_pc(state, &pc, NULL))
		return DWARF_CB_ABORT;
	/* the module must be known before libdw can say whether this is a call site */
	report_module(u, pc);
	if (!dwfl_frame_pc(state, &pc, &isactivation))
		return DWARF_CB_ABORT;
	if (!isactivation)
		pc--;
	u->ips[u->nr++] = pc;
	return u->nr >= u->max ? DWARF_CB_ABORT : DWARF_CB_OK;
}

int unwind_user(struct machine *machine, struct thread *thread, const struct perf_sample *sample,
		u64 *ips, int max)
{
	struct unwinder u;
	u64 ip;

	if (max <= 0 || !thread || !thread->maps || !sample->user_regs.regs ||
	    sample->user_regs.abi != PERF_SAMPLE_REGS_ABI_64 || !sample->user_stack.data ||
	    !reg_value(&sample->user_regs, X86_IP, &ip) ||
	    !reg_value(&sample->user_regs, X86_SP, &u.sp))
		return 0;
	memset(&u, 0, sizeof(u));
	reg_value(&sample->user_regs, X86_SP, &u.sp);
	u.machine = machine;
	u.thread = thread;
	u.sample = sample;
	u.ips = ips;
	u.max = max;
	u.last_fd = -1;
	u.dwfl = dwfl_begin(&offline_callbacks);
	if (!u.dwfl)
		return 0;
	report_module(&u, ip);
	/* perf never ends the reporting phase: later modules stay invisible to lookups */
	if (dwfl_attach_state(u.dwfl, NULL, thread->tid > 0 ? thread->tid : 1, &thread_callbacks,
			      &u))
		dwfl_getthread_frames(u.dwfl, thread->tid > 0 ? thread->tid : 1, frame_callback, &u);
	else
		pr_debug("cannot attach the unwinder: %s\n", dwfl_errmsg(-1));
	dwfl_end(u.dwfl);
	if (u.last_fd >= 0)
		close(u.last_fd);
	return u.nr;
}
