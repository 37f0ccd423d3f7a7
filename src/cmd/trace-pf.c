/* SPDX-License-Identifier: MIT */
/* sonde trace --pf: page-fault samples resolved through the machine into perf trace's fault lines. */
#include "cmd/trace.h"

#include "data/sample.h"
#include "data/synthesize.h"
#include "lib/hashmap.h"
#include "lib/util.h"
#include "lib/xalloc.h"
#include "session/machine.h"
#include "session/resolve.h"

#include <stdlib.h>
#include <string.h>

/* struct trace_pf - the address model of a --pf run */
struct trace_pf {
	struct strpool names;
	struct machine own;
	struct machine *machine;	/* &own, or the session's (-i) */
	struct resolver res;
	struct resolved_chain chain;	/* --call-graph: the last sample's, reused */
};

static int feed_machine(void *arg, union perf_event *ev)
{
	machine_process_event(arg, ev);
	return 0;
}

struct trace_pf *trace_pf_new(struct machine *machine, const int *pids, int nr, bool all)
{
	struct trace_pf *pf = xcalloc(1, sizeof(*pf));

	if (machine) {
		pf->machine = machine;
	} else {
		struct machine_opts mopts = { .no_symbols = false };
		struct synth s;

		strpool_init(&pf->names);
		machine_init(&pf->own, &pf->names, &mopts);
		pf->machine = &pf->own;
		/* the kernel text (faults in copy_to_user...) and what already runs */
		synth_init(&s, feed_machine, pf->machine, 0, NULL);
		s.mmap_data = true;
		synth_kernel_mmap(&s);
		if (all)
			synth_all_tasks(&s, true);
		for (int i = 0; !all && i < nr; i++)
			if (pids[i] > 0)
				synth_mmaps(&s, pids[i]);
		synth_release(&s);
	}
	resolver_init(&pf->res, pf->machine, NULL);
	return pf;
}

void trace_pf_free(struct trace_pf *pf)
{
	if (!pf)
		return;
	resolved_chain_release(&pf->chain);
	resolver_release(&pf->res);
	if (pf->machine == &pf->own) {
		machine_release(&pf->own);
		strpool_release(&pf->names);
	}
	free(pf);
}

void trace_pf_side(struct trace_pf *pf, const union perf_event *ev)
{
	if (pf && pf->machine == &pf->own)
		machine_process_event(pf->machine, ev);
}

int evsel_is_fault(const struct evsel *evsel)
{
	if (!evsel || evsel->attr.type != PERF_TYPE_SOFTWARE)
		return 0;
	if (evsel->attr.config == PERF_COUNT_SW_PAGE_FAULTS_MAJ)
		return 1;
	if (evsel->attr.config == PERF_COUNT_SW_PAGE_FAULTS_MIN)
		return 2;
	return 0;
}

/*
 * anon_like - maps perf shows with process addresses (anonymous memory,
 * stack, heap), not offsets into a file
 */
static bool anon_like(const struct dso *dso)
{
	static const char *const prefixes[] = { "//anon", "[stack", "[heap", "/dev/zero",
						"/anon_hugepage", "/SYSV", NULL };

	if (dso_absolute(dso))
		return true;
	for (int i = 0; prefixes[i]; i++)
		if (!strncmp(dso->long_name, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}

static u64 map_offset(const struct resolved_frame *rf)
{
	const struct map *map = rf->map;

	if (anon_like(map->dso))
		return rf->ip;
	return rf->ip - map->start + map->pgoff;
}

void trace_pf_format(struct trace_pf *pf, const struct perf_sample *sample, bool major,
		     struct strbuf *sb)
{
	int cpumode = sample->cpumode;
	struct thread *thread = machine_findnew_thread(pf->machine, sample->pid, sample->tid);
	const struct resolved_frame *rf = resolver_frame(&pf->res, thread, cpumode, sample->ip);
	const struct symbol *sym = resolved_frame_sym(rf);
	bool kernel = cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_KERNEL;

	strbuf_addstr(sb, major ? "majfault [" : "minfault [");
	if (sym)
		strbuf_addf(sb, "%s+0x%llx", sym->name, (unsigned long long)rf->symoff);
	else
		strbuf_addf(sb, "0x%llx",
			    (unsigned long long)(rf->map ? map_offset(rf) : sample->ip));
	strbuf_addstr(sb, "] => ");
	/* the faulting address, in the address space of the mode the fault came from */
	rf = resolver_frame(&pf->res, thread, cpumode, sample->addr);
	if (rf->map)
		strbuf_addf(sb, "%s@0x%llx (d%c)", rf->map->dso->long_name,
			    (unsigned long long)map_offset(rf), kernel ? 'k' : '.');
	else
		strbuf_addf(sb, "0x%llx (?%c)", (unsigned long long)sample->addr,
			    kernel ? 'k' : '.');
}

/* column of perf trace's callchain frames under a syscall line */
#define CHAIN_INDENT 39

u32 trace_pf_callchain(struct trace_pf *pf, const struct perf_sample *sample, u64 sample_type,
		       unsigned int max_stack, bool unwind, struct strbuf *sb)
{
	struct chain_opts copts = { .max_stack = max_stack, .unwind = unwind };
	struct thread *thread;
	u32 nr;

	if (!max_stack || !(sample_type & PERF_SAMPLE_CALLCHAIN))
		return 0;
	thread = machine_findnew_thread(pf->machine, sample->pid, sample->tid);
	nr = resolve_sample_callchain(&pf->res, thread, sample, sample_type, &copts, &pf->chain);
	for (u32 i = 0; i < nr; i++) {
		const struct resolved_frame *rf = &pf->chain.frames[i];
		const struct symbol *sym = resolved_frame_sym(rf);
		const struct dso *dso = resolved_frame_dso(rf);

		strbuf_addchars(sb, ' ', CHAIN_INDENT);
		if (sym)
			strbuf_addstr(sb, sym->name);
		else
			/* perf: the map-relative address, 0 outside every map */
			strbuf_addf(sb, "[%#llx]", (unsigned long long)(rf->map ? resolved_frame_map_ip(rf) : 0));
		/* a function inlined at the unwound address: "(inlined)" for its dso */
		if (rf->frame->inlined)
			strbuf_addstr(sb, " (inlined)\n");
		else
			strbuf_addf(sb, " (%s)\n", dso ? dso->long_name : "[unknown]");
	}
	return nr;
}

unsigned int trace_default_max_stack(void)
{
	static long long limit = -1;

	if (limit < 0 && read_sysfs_int("/proc/sys/kernel/perf_event_max_stack", &limit))
		limit = 127;
	return (unsigned int)limit;
}
