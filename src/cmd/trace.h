/* SPDX-License-Identifier: MIT */
/* sonde trace: shared state of the option parser (trace.c), the live loop and the printer (trace-out.c). */
#ifndef SONDE_CMD_TRACE_H
#define SONDE_CMD_TRACE_H

#include "core/evlist.h"
#include "lib/hashmap.h"
#include "lib/strbuf.h"
#include "trace/syscall-fmt.h"

#include <stdbool.h>
#include <stdio.h>

struct perf_sample;
struct trace_pf;
struct tep_handle;
struct machine;
union perf_event;

/* struct syscall_stats - one syscall of one thread, for -s */
struct syscall_stats {
	u64 calls, errors;
	u64 total_ns, min_ns, max_ns;
	double mean, m2;	/* Welford's running mean and squared deviations (ns) */
	u64 *errnos;		/* owned: count per errno (index errno), NULL until one fails */
	int nr_errnos;
};

/* struct trace_thread - what trace knows of one thread */
struct trace_thread {
	int tid, pid;
	char comm[32];
	u64 nr_events;		/* samples of this thread */
	u64 nr_majfaults, nr_minfaults;	/* --pf */
	u64 runtime_ns;		/* --sched: sched_stat_runtime's runtime, summed */
	struct {
		bool active;	/* a sys_enter waits for its sys_exit */
		bool printed;	/* its line was cut by another thread's ("...") */
		int id;
		u64 time;
		u64 args[SYSCALL_MAX_ARGS];
	} entry;
	struct syscall_stats *stats;	/* owned: [nr_stats], indexed by syscall id */
	int nr_stats;
	char **fd_paths;		/* owned: [nr_fd_paths] by fd, from /proc; NULL: not looked up */
	int nr_fd_paths;
};

/* struct trace - one sonde trace run */
struct trace {
	struct evlist *evlist;
	struct target target;
	const char *output_name;
	FILE *out;
	/* syscall selection: -e names/globs, negated with a leading '!' */
	bool *selected;		/* owned: [nr_selected] by id, NULL: every syscall */
	int nr_selected;
	bool negate;
	bool trace_syscalls;	/* false with --no-syscalls (only other events) */
	char *event_str;	/* owned: the -e parts that are events, comma-separated */
	struct evlist *pending;	/* owned: event_str as parsed by -e, holding their -G cgroups */
	int cgroup_fd;		/* owned: -G before any -e event, for every event without one; -1: none */
	char *cgroup_name;	/* owned: its name as given */
	/* options */
	bool summary_only, with_summary, errno_summary, failure_only, show_comm, full_time;
	bool no_inherit, verbose;
	bool show_thread;
	bool replay;			/* -i: percentages over samples, pid 0 is "swapper" */		/* the comm/tid column: more than one thread is traced */
	double duration_ms;
	u64 max_events;		/* --max-events: lines printed before tracing stops, 0: no limit */
	u64 nr_printed;
	bool stopped;		/* --max-events reached: nothing more is shown */
	const char *filter_pids; /* --filter-pids: pids the kernel filter leaves out */
	size_t mmap_pages;	/* data pages per ring (-m) */
	bool pf_maj, pf_min;	/* --pf maj|min|all */
	bool sched;		/* --sched: runtime per thread in the summary */
	/* --call-graph: syscall lines followed by the sys_exit sample's callchain */
	int callgraph;		/* enum callchain_mode: CALLCHAIN_NONE, _FP or _DWARF */
	u32 dwarf_size;		/* dwarf: user stack bytes copied */
	u16 fp_max_stack;	/* "fp,N": attr.sample_max_stack */
	bool kernel_graph;	/* --kernel-syscall-graph: kernel frames on the exit path */
	unsigned int max_stack;	/* --max-stack: frames printed */
	unsigned int min_stack;	/* --min-stack: shorter chains hide their line */
	bool max_stack_set, min_stack_set;
	/* the run */
	struct evsel *sys_enter, *sys_exit; /* raw_syscalls', or the first selected syscall's pair */
	int nr_sc_evsels;	/* per-syscall tracepoints: the evlist's first N, enter/exit pairs */
	struct evsel *runtime_ev;	/* --sched: sched:sched_stat_runtime */
	int runtime_off;		/* its runtime field */
	struct trace_pf *pf;		/* owned: --pf address resolution, NULL without --pf */
	int enter_id_off, enter_args_off, exit_id_off, exit_ret_off;
	struct syscall_desc *descs;	/* owned: by id, lazily filled (name NULL: not yet) */
	bool *desc_done;
	int nr_descs;
	struct u64map threads;		/* tid -> struct trace_thread */
	struct trace_thread *last_entry; /* thread whose unprinted entry the next line cuts */
	struct trace_thread *cur;	/* thread whose line is being formatted (fd paths) */
	u64 base_time;			/* first sample's time */
	u64 nr_records;			/* every record, side-band included (-s percentages) */
	u64 nr_lost;
	char fd_scratch[4096];		/* an fd's path read for one line (with -e) */
	struct tep_handle *tep;		/* owned: formats of the other events (-e sys:name) */
};

/* trace_process_event - one live record, in time order: threads, syscall lines, stats. */
int trace_process_event(struct trace *trace, const union perf_event *ev, u64 time);

/* trace_process_sample - one sample of @evsel (sys_enter, sys_exit or another event). */
int trace_process_sample(struct trace *trace, struct evsel *evsel, const struct perf_sample *sample);

/* trace_process_side - a record other than a sample: COMM, FORK, LOST... */
int trace_process_side(struct trace *trace, const union perf_event *ev);

/* trace_print_summary - the -s/-S per-thread tables. */
void trace_print_summary(struct trace *trace);

/* trace_thread_findnew - the thread @tid (comm from /proc when unknown). */
struct trace_thread *trace_thread_findnew(struct trace *trace, int pid, int tid);

/*
 * trace_pf_new - --pf's address model: a machine fed with the kernel map,
 * the mmaps of @pids[@nr] (already running targets; every task with @all)
 * and then every live side-band record; @machine borrowed instead when
 * non-NULL (-i: the session's). Never NULL.
 */
struct trace_pf *trace_pf_new(struct machine *machine, const int *pids, int nr, bool all);

/*
 * trace_pf_callchain - @sample's callchain (@sample_type its layout) as
 * perf trace prints it under a syscall line: one "sym (dso)" line per frame,
 * indented to column 39, "[0xoff] (dso)" without a symbol, at most
 * @max_stack frames (a dwarf stack copy unwound with @unwind), into @sb. Returns the number of frames.
 */
u32 trace_pf_callchain(struct trace_pf *pf, const struct perf_sample *sample, u64 sample_type,
		       unsigned int max_stack, bool unwind, struct strbuf *sb);

/* trace_default_max_stack - kernel.perf_event_max_stack, or 127: --max-stack's default */
unsigned int trace_default_max_stack(void);

/* trace_pf_free - release what trace_pf_new() made. */
void trace_pf_free(struct trace_pf *pf);

/* trace_pf_side - a live side-band record (MMAP2, COMM, FORK, EXIT) into the machine. */
void trace_pf_side(struct trace_pf *pf, const union perf_event *ev);

/* evsel_is_fault - 1 for a major-fault event, 2 for a minor-fault one, else 0. */
int evsel_is_fault(const struct evsel *evsel);

/*
 * trace_pf_format - perf trace's fault line after its head:
 * "majfault [sym+0xoff] => dso@0xoff (d.)", into @sb.
 */
void trace_pf_format(struct trace_pf *pf, const struct perf_sample *sample, bool major,
		     struct strbuf *sb);

struct opt_spec;

/*
 * trace_event_option - -e/--expr: syscall names, globs and groups (a leading
 * '!' negates the syscall list) and other events; an unknown name fails.
 */
int trace_event_option(const struct opt_spec *opt, const char *arg, int unset);

/*
 * trace_build_filter - the kernel filter for the syscall events, or NULL:
 * the selection's ids (@with_ids: raw_syscalls) and the pids left out.
 */
char *trace_build_filter(struct trace *trace, bool with_ids);

/*
 * trace_cgroup_option - -G NAME (opt->dest: the trace): after -e events,
 * theirs (record's rules); before any, the cgroup of every event left
 * without one, the syscalls' too. One that can't be opened there is said
 * and the run goes on without it, as perf does.
 */
int trace_cgroup_option(const struct opt_spec *opt, const char *arg, int unset);

/* trace_has_cgroups - whether -G put any event in a cgroup */
bool trace_has_cgroups(const struct trace *trace);

/*
 * trace_add_cgroups - the events of trace->evlist from index @first_idx on
 * (-1: none) are pending's parsed again: they take its -G cgroups; then
 * every event still without one takes the default cgroup.
 */
void trace_add_cgroups(struct trace *trace, int first_idx);

/* trace_release - free threads and descriptions. */
void trace_release(struct trace *trace);

/*
 * trace_run - the live trace (cmd/trace-run.c): the events set up and
 * opened, @argv's workload started (none: the target), syscalls printed
 * until it ends or a signal; perf trace's exit status.
 */
int trace_run(struct trace *trace, const char **argv);

/* trace_thread_comm - for the beautifiers (@priv: the trace): comm of a thread seen in this run, or NULL (cmd/trace-fd.c) */
const char *trace_thread_comm(void *priv, int tid);
/*
 * trace_fmt_cb - the beautifiers' callbacks for @t's next line: comms and
 * fd paths (read from /proc once per fd, or each time when only some
 * syscalls are traced). Borrowed; valid until the next call.
 */
const struct syscall_fmt_cb *trace_fmt_cb(struct trace *trace, struct trace_thread *t);
/* trace_fd_update - after syscall @name returned @ret: a closed fd, or a new one, has no path yet */
void trace_fd_update(struct trace *trace, struct trace_thread *t, const char *name,
		     const u64 *args, s64 ret);
/* trace_thread_free_fds - free @t's fd path cache */
void trace_thread_free_fds(struct trace_thread *t);
/* trace_desc_get - syscall @id's description, read on first use (NULL: @id < 0) (cmd/trace-out.c) */
struct syscall_desc *trace_desc_get(struct trace *trace, int id);

/* trace_desc_name - the syscall's name, or its number written into @buf when it has none */
const char *trace_desc_name(struct syscall_desc *d, char *buf, size_t len);

/* trace_sc_kind - 1 when @evsel is a syscall entry event of ours, 2 an exit, 0 another */
static inline int trace_sc_kind(const struct trace *trace, const struct evsel *evsel)
{
	if (!evsel)
		return 0;
	if (evsel == trace->sys_enter)
		return 1;
	if (evsel == trace->sys_exit)
		return 2;
	if (evsel->idx < trace->nr_sc_evsels)
		return evsel->idx % 2 ? 2 : 1;
	return 0;
}

/* trace_raw_syscalls_layout - where sys_enter's id and args and sys_exit's id and ret are (cmd/trace-run.c) */
int trace_raw_syscalls_layout(struct trace *trace);

#endif
