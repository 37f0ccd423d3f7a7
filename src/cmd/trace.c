/* SPDX-License-Identifier: MIT */
/* sonde trace: options, perf trace record, -i perf.data replay; the live run is cmd/trace-run.c. */
#include "builtin.h"
#include "cmd/events-option.h"
#include "cmd/open.h"
#include "cmd/trace.h"

#include "core/cpumap.h"
#include "core/evlist-open.h"
#include "core/mmap.h"
#include "core/parse-events.h"
#include "core/record-config.h"
#include "core/threadmap.h"
#include "data/sample.h"
#include "lib/debug.h"
#include "lib/optspec.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "session/ordered-events.h"
#include "session/session.h"
#include "ui/header.h"
#include "trace/syscall-tbl.h"
#include "trace/tep.h"
#include "trace/tracefs.h"

#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *const trace_usage[] = {
	"perf trace [<options>] [<command>]",
	"perf trace [<options>] -- <command> [<options>]",
	"perf trace record [<options>] [<command>]",
	"perf trace record [<options>] -- <command> [<options>]",
	NULL,
};


static int duration_option(const struct opt_spec *opt, const char *arg, int unset)
{
	struct trace *trace = opt->dest;
	char *end;

	if (unset)
		return 0;
	trace->duration_ms = strtod(arg, &end);
	if (*end || end == arg) {
		fprintf(stderr, " Error: option `duration' expects a numerical value\n");
		return -1;
	}
	return 0;
}

/*
 * callgraph_option - --call-graph fp[,N]|dwarf[,size]: the syscall events
 * sample callchains (record's parser; lbr does not apply to tracepoints)
 */
static int callgraph_option(const struct opt_spec *opt, const char *arg, int unset)
{
	struct trace *trace = opt->dest;
	struct record_opts ro;

	if (unset) {
		trace->callgraph = CALLCHAIN_NONE;
		return 0;
	}
	memset(&ro, 0, sizeof(ro));
	if (record_parse_callchain(&ro, arg)) {
		const char *comma = strchr(arg, ',');

		if (!strncmp(arg, "dwarf,", 6) && comma)
			fprintf(stderr, "callchain: Incorrect stack dump size (max 65528): %s\n\n",
				comma + 1);
		else
			fprintf(stderr, "callchain: Unknown --call-graph option value: %s\n\n", arg);
		return -1;
	}
	if (ro.callchain == CALLCHAIN_LBR) {
		fprintf(stderr, "--call-graph lbr is not supported by sonde trace: the syscall tracepoints have no branch stack\n");
		return -1;
	}
	trace->callgraph = ro.callchain;
	trace->dwarf_size = ro.dwarf_size;
	trace->fp_max_stack = ro.max_stack;
	return 0;
}

/* stack_option - --max-stack/--min-stack N (perf's numeric parse) */
static int stack_option(const struct opt_spec *opt, const char *arg, int unset)
{
	struct trace *trace = opt->dest;
	bool is_max = !strcmp(opt->name, "max-stack");
	unsigned long v;
	char *end;

	if (unset)
		return 0;
	errno = 0;
	v = strtoul(arg, &end, 0);
	if (*end || end == arg || errno || v > UINT_MAX) {
		fprintf(stderr, " Error: option `%s' expects %s numerical value\n", opt->name,
			is_max ? "a" : "an unsigned");
		return -1;
	}
	if (is_max) {
		trace->max_stack = (unsigned int)v;
		trace->max_stack_set = true;
	} else {
		trace->min_stack = (unsigned int)v;
		trace->min_stack_set = true;
	}
	return 0;
}

/* pf_option - -F/--pf all|maj|min: the page-fault events to trace */
static int pf_option(const struct opt_spec *opt, const char *arg, int unset)
{
	struct trace *trace = opt->dest;

	if (unset) {
		trace->pf_maj = trace->pf_min = false;
		return 0;
	}
	if (!arg || !strcmp(arg, "all")) {
		trace->pf_maj = trace->pf_min = true;
	} else if (!strcmp(arg, "maj")) {
		trace->pf_maj = true;
	} else if (!strcmp(arg, "min")) {
		trace->pf_min = true;
	} else {
		fputc('\n', stderr);	/* perf's blank line before the option's usage */
		return -1;
	}
	return 0;
}

static int syscalls_opt; /* --syscalls: 1, --no-syscalls: -1 */

static int syscalls_option(const struct opt_spec *opt, const char *arg, int unset)
{
	*(int *)opt->dest = unset ? -1 : 1;
	return 0;
}

static int mmap_pages_option(const struct opt_spec *opt, const char *arg, int unset)
{
	struct trace *trace = opt->dest;

	if (unset)
		return 0;
	if (perf_mmap_pages_parse(arg, &trace->mmap_pages)) {
		fprintf(stderr, "Invalid argument for --mmap-pages/-m\n");
		return -1;
	}
	return 0;
}

/* ---- -i perf.data ---- */

struct trace_tool {
	struct tool tool;	/* first: the session hands it back */
	struct trace *trace;
};

static int replay_sample(struct tool *tool, struct session *session, const union perf_event *ev,
			 const struct perf_sample *sample, struct evsel *evsel)
{
	return trace_process_sample(((struct trace_tool *)tool)->trace, evsel, sample);
}

static int replay_other(struct tool *tool, struct session *session, const union perf_event *ev,
			const struct perf_sample *sample)
{
	return trace_process_side(((struct trace_tool *)tool)->trace, ev);
}

/*
 * trace_replay - perf trace -i: the records of a file made by trace record
 * (or record -e raw_syscalls:*) through the session, in time order, into
 * the same lines and summary as a live run.
 */
static int trace_replay(struct trace *trace, const char *path)
{
	struct trace_tool tt = { .tool = { .sample = replay_sample, .other = replay_other,
					   .ordered = true },
				 .trace = trace };
	struct machine_opts mopts = { .no_symbols = true };
	struct data_reader *reader = data_open_for_read(path, false);
	struct session *session;
	struct data_error err;
	int ret;

	struct evsel *evsel;
	bool faults = false, chains = false;

	if (!reader)
		return 255;
	/* page faults in the file are shown as perf shows them, symbols resolved */
	evlist_for_each_entry(data_reader_evlist(reader), evsel) {
		faults |= evsel_is_fault(evsel) != 0;
		/* trace record --call-graph: the chains under the syscall lines */
		chains |= !strcmp(evsel->name ? evsel->name : "", "raw_syscalls:sys_exit") &&
			  (evsel->attr.sample_type & PERF_SAMPLE_CALLCHAIN);
	}
	mopts.no_symbols = !faults && !chains;
	session = session_new(reader, &mopts);
	trace->evlist = data_reader_evlist(reader);
	if (faults || chains)
		trace->pf = trace_pf_new(&session->machine, NULL, 0, false);
	trace->sys_enter = evlist_find_by_name(trace->evlist, "raw_syscalls:sys_enter");
	trace->sys_exit = evlist_find_by_name(trace->evlist, "raw_syscalls:sys_exit");
	trace->trace_syscalls = trace->sys_enter || trace->sys_exit;
	if (trace_raw_syscalls_layout(trace)) {
		/* no tracefs here: the layout every kernel has had */
		trace->enter_id_off = 8;
		trace->enter_args_off = 16;
		trace->exit_id_off = 8;
		trace->exit_ret_off = 16;
	}
	trace->show_thread = true;
	trace->replay = true;
	memset(&err, 0, sizeof(err));
	ret = session_process(session, &tt.tool, &err);
	if (ret < 0) {
		data_error_print(path, &err);
		trace->evlist = NULL;
		trace_pf_free(trace->pf);
		trace->pf = NULL;
		session_free(session);
		return 255;
	}
	if (trace->summary_only || trace->with_summary)
		trace_print_summary(trace);
	trace->evlist = NULL; /* the reader's */
	trace_pf_free(trace->pf);	/* borrows the session's machine */
	trace->pf = NULL;
	session_free(session);
	return 0;
}

/*
 * trace_record - perf trace record: perf record of the syscall tracepoints
 * (every sample, raw payloads, 4 MiB rings) and the options given.
 */
static int trace_record(int argc, const char **argv)
{
	static const char *const pre[] = { "record", "-R", "-m", "1024", "-c", "1", "-e",
					   "raw_syscalls:sys_enter,raw_syscalls:sys_exit" };
	int nr_pre = sizeof(pre) / sizeof(pre[0]), ret;
	const char **args = xcalloc(argc + nr_pre + 1, sizeof(char *));

	for (int i = 0; i < nr_pre; i++)
		args[i] = pre[i];
	for (int i = 2; i < argc; i++)
		args[nr_pre + i - 2] = argv[i];
	ret = cmd_record(nr_pre + argc - 2, args);
	free(args);
	return ret;
}

int cmd_trace(int argc, const char **argv)
{
	struct trace trace;
	bool comm = true;
	const char *input = NULL;
	unsigned int proc_map_timeout = 500;	/* accepted: /proc maps are read whole, without one */
	int status;

	memset(&trace, 0, sizeof(trace));
	trace.cgroup_fd = -1;
	u64map_init(&trace.threads);
	trace.trace_syscalls = true;
	const struct opt_spec options[] = {
		SPEC_FLAG("all-cpus", 'a', &trace.target.system_wide, "system-wide collection from all CPUs"),
		SPEC_TEXT("cpu", 'C', &trace.target.cpu_list, "cpu", "list of cpus to monitor"),
		SPEC_REFUSED("delay", 'D', "n", "ms to wait before starting measurement after program start"),
		SPEC_FN("event", 'e', &trace, "event",
			"event/syscall selector. use 'perf list' to list available events", trace_event_option),
		SPEC_REFUSED_NOVAL("force", 'f', "don't complain, do it"),
		SPEC_FN("pf", 'F', &trace, "all|maj|min", "Trace pagefaults", pf_option),
		SPEC_FN_NONEG("cgroup", 'G', &trace, "name", "monitor event in cgroup name only", trace_cgroup_option),
		SPEC_TEXT("input", 'i', &input, "file", "Analyze events in file"),
		SPEC_FN("mmap-pages", 'm', &trace, "pages", "number of mmap data pages", mmap_pages_option),
		SPEC_TEXT("output", 'o', &trace.output_name, "file", "output file name"),
		SPEC_TEXT("pid", 'p', &trace.target.pid, "pid", "trace events on existing process id"),
		SPEC_FLAG("summary", 's', &trace.summary_only, "Show only syscall summary with statistics"),
		SPEC_FLAG("with-summary", 'S', &trace.with_summary, "Show all syscalls and summary with statistics"),
		SPEC_TEXT("tid", 't', &trace.target.tid, "tid", "trace events on existing thread id"),
		SPEC_FLAG("time", 'T', &trace.full_time, "Show full timestamp, not time relative to first start"),
		SPEC_TEXT("uid", 'u', &trace.target.uid_str, "user", "user to profile"),
		SPEC_COUNT("verbose", 'v', &verbose, "be more verbose"),
		SPEC_FN("call-graph", 0, &trace, "record_mode[,record_size]",
			     "setup and enables call-graph (stack chain/backtrace):\n\n\t\t\t\trecord_mode:\tcall graph recording mode (fp|dwarf|lbr)\n\t\t\t\trecord_size:\tif record_mode is 'dwarf', max size of stack recording (<bytes>)\n\t\t\t\t\t\tdefault: 8192 (bytes)\n\n\t\t\t\tDefault: fp", callgraph_option),
		SPEC_FLAG("comm", 0, &comm, "show the thread COMM next to its id"),
		SPEC_FN("duration", 0, &trace, "float", "show only events with duration > N.M ms",
			duration_option),
		SPEC_FLAG("errno-summary", 0, &trace.errno_summary, "Show errno stats per syscall, use with -s or -S"),
		SPEC_FN("expr", 0, &trace, "expr", "list of syscalls/events to trace", trace_event_option),
		SPEC_FLAG("failure", 0, &trace.failure_only, "Show only syscalls that failed"),
		SPEC_REFUSED("filter", 0, "filter", "event filter"),
		SPEC_TEXT("filter-pids", 0, &trace.filter_pids, "CSV list of pids", "pids to filter (by the kernel)"),
		SPEC_FLAG("kernel-syscall-graph", 0, &trace.kernel_graph, "Show the kernel callchains on the syscall exit path"),
		SPEC_REFUSED_NOVAL("libtraceevent_print", 0, "Use libtraceevent to print the tracepoint arguments."),
		SPEC_REFUSED("map-dump", 0, "BPF map", "BPF map to periodically dump"),
		SPEC_U64("max-events", 0, &trace.max_events, "Set the maximum number of events to print, exit after that is reached. "),
		SPEC_FN("max-stack", 0, &trace, "n", "Set the maximum stack depth when parsing the callchain, anything beyond the specified depth will be ignored. Default: kernel.perf_event_max_stack or 127", stack_option),
		SPEC_FN("min-stack", 0, &trace, "n", "Set the minimum stack depth when parsing the callchain, anything below the specified depth will be ignored.", stack_option),
		SPEC_FLAG("no-inherit", 0, &trace.no_inherit, "child tasks do not inherit counters"),
		SPEC_REFUSED_NOVAL("print-sample", 0, "print the PERF_RECORD_SAMPLE PERF_SAMPLE_ info, for debugging"),
		SPEC_UINT("proc-map-timeout", 0, &proc_map_timeout, "per thread proc mmap processing timeout in ms"),
		SPEC_FLAG("sched", 0, &trace.sched, "show blocking scheduler events"),
		SPEC_REFUSED_NOVAL("show-on-off-events", 0, "Show the on/off switch events, used with --switch-on and --switch-off"),
		SPEC_REFUSED_NOVAL("sort-events", 0, "Sort batch of events before processing, use if getting out of order events"),
		SPEC_REFUSED("switch-off", 0, "event", "Stop considering events after the ocurrence of this event"),
		SPEC_REFUSED("switch-on", 0, "event", "Consider events after the ocurrence of this event"),
		SPEC_FN_NOVAL("syscalls", 0, &syscalls_opt, "Trace syscalls", syscalls_option),
		SPEC_REFUSED_NOVAL("tool_stats", 0, "show tool stats"),
		SPEC_END(),
	};

	if (argc > 1 && !strcmp(argv[1], "record"))
		return trace_record(argc, argv);
	argc = opts_parse(argc, argv, options, trace_usage, OPTS_STOP_AT_ARG);
	if (trace_has_cgroups(&trace) && !trace.target.system_wide)
		opts_usage_error(trace_usage, options, "cgroup monitoring only available in system-wide mode");
	/*
	 * a traced program can make a million calls a second: as root (no mlock
	 * budget) the rings are 8x perf's default so that none is lost
	 */
	if (!trace.mmap_pages)
		trace.mmap_pages = perf_mmap_default_pages() * (geteuid() == 0 ? 8 : 1);
	/* syscalls are traced unless -e named only other events, or --no-syscalls */
	if (syscalls_opt < 0)
		trace.trace_syscalls = false;
	else
		/* --pf alone traces only the faults, as perf */
		trace.trace_syscalls = syscalls_opt > 0 || trace.selected ||
				       (!trace.event_str && !trace.pf_maj && !trace.pf_min);
	trace.show_comm = comm;
	/* --max-stack/--min-stack alone: dwarf call graphs, as perf (built with DWARF unwinding) */
	if ((trace.max_stack_set || trace.min_stack_set) && !trace.callgraph && !input) {
		trace.callgraph = CALLCHAIN_DWARF;
		trace.dwarf_size = CALLCHAIN_DWARF_DEFAULT_SIZE;
	}
	if (!argc && !trace.target.pid && !trace.target.tid && !trace.target.uid_str &&
	    !trace.target.system_wide && !trace.target.cpu_list)
		trace.target.system_wide = true;
	trace.out = stderr;
	if (trace.output_name) {
		trace.out = fopen(trace.output_name, "w");
		if (!trace.out) {
			fprintf(stderr, "Failed to open %s: %s\n", trace.output_name, strerror(errno));
			trace_release(&trace);
			return 255;
		}
	}
	if (input) {
		trace.show_comm = comm;
		status = trace_replay(&trace, input);
	} else {
		status = trace_run(&trace, argv);
	}
	if (trace.out != stderr)
		fclose(trace.out);
	evlist_free(trace.evlist);
	trace_release(&trace);
	return status;
}
