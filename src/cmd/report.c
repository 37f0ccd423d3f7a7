/* SPDX-License-Identifier: MIT */
/*
 * sonde report: perf report's option table; header, raw dump and stats modes
 * here, the histogram path in cmd/report-run.c (report-keys.c parses the keys).
 */
#include "builtin.h"
#include "core/evlist.h"
#include "data/reader.h"
#include "lib/debug.h"
#include "lib/optspec.h"
#include "lib/xalloc.h"
#include "session/session.h"
#include "ui/dump.h"
#include "cmd/open.h"
#include "ui/header.h"
#include "ui/itrace-help.h"
#include "cmd/report.h"
#include "ui/stats.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct report_opts {
	const char *comms;
	const char *cpu;
	const char *dsos;
	bool dump_raw_trace;
	const char *fields;
	bool force;
	const char *call_graph;
	bool inverted;
	const char *input;
	bool show_info;
	const char *disassembler_style;
	bool show_nr_samples;
	const char *parent;
	bool quiet;
	const char *sort;
	const char *symbols;
	const char *field_separator;
	bool threads;
	bool hide_unresolved;
	bool mem_mode;
	bool exclude_other;
	bool asm_raw;
	bool children;
	bool demangle;
	bool demangle_kernel;
	bool disable_order;
	int group; /* -1 default (grouped when the file has groups), 0 --no-group, 1 --group */
	bool header;
	bool header_only;
	bool ignore_vmlinux;
	const char *kallsyms;
	const char *max_stack;
	const char *objdump;
	const char *percent_limit;
	const char *percent_type;
	const char *percentage;
	const char *pid;
	const char *prefix;
	const char *prefix_strip;
	const char *pretty;
	int samples;
	bool show_on_off_events;
	bool show_total_period;
	bool skip_empty;
	bool source;
	bool stats;
	bool stdio;
	const char *stdio_color;
	const char *switch_off;
	const char *switch_on;
	const char *symbol_filter;
	const char *symfs;
	const char *tid;
	const char *time;
	u64 time_quantum;
	bool tui;
};

/*
 * -g with a threshold and --percent-limit both set the callchain threshold:
 * perf keeps the one given last. Their order is remembered here.
 */
static int opt_seq, call_graph_seq, percent_limit_seq;

static const char *const report_usage[] = {
	"perf report [<options>]",
	NULL,
};

/*
 * report_use_tui - perf's choice: a terminal on both ends, and --tui or no
 * --stdio (-T, -t and the header modes print text); without a terminal
 * --tui prints the text, as perf does
 */
static bool report_use_tui(const struct report_opts *o)
{
	if (!isatty(STDOUT_FILENO) || !isatty(STDIN_FILENO))
		return false;
	if (o->tui)
		return true;
	return !o->stdio && !o->threads && !o->field_separator && !o->header && !o->header_only;
}

/*
 * report_histograms - the normal report: histograms of the samples
 * (cmd/report-run.c checks and runs, session/ builds them, ui/report-hists.c
 * prints them). Returns the exit status.
 */
static int report_histograms(struct report_opts *o, struct data_reader *reader)
{
	char kcore_dir[PATH_MAX];
	struct symbol_opts sopts = {
		.symfs = o->symfs,
		.kallsyms = o->kallsyms,
		.no_demangle = !o->demangle,
		.demangle_params = verbose > 0, /* perf shows parameters only with -v */
		.demangle_kernel = o->demangle_kernel,
		.ignore_vmlinux = o->ignore_vmlinux,
		/* record --kcore: the kernel's symbols from its kallsyms copy, as perf's */
		.kcore_dir = data_kcore_dir(reader, kcore_dir, sizeof(kcore_dir)),
	};
	struct report_hist_args a = {
		.input = o->input ? o->input : "perf.data",
		.reader = reader,
		.sort = o->sort,
		.fields = o->fields,
		.callchain = o->call_graph,
		.children = o->children ? -1 : 0,
		.inverted = o->inverted,
		.percent_limit = o->percent_limit,
		.percent_limit_last = percent_limit_seq > call_graph_seq,
		.percentage = o->percentage,
		.show_nr_samples = o->show_nr_samples,
		.show_total_period = o->show_total_period,
		.quiet = o->quiet,
		.show_header = true, /* the banner or the header was printed by cmd_report */
		.group = o->group,
		.threads = o->threads,
		.threads_raw = o->pretty && !strcmp(o->pretty, "raw"),
		.comms = o->comms,
		.pids = o->pid,
		.tids = o->tid,
		.dsos = o->dsos,
		.symbols = o->symbols,
		.cpus = o->cpu,
		.time = o->time,
		.time_quantum = o->time_quantum,
		.parent = o->parent,
		.max_stack = o->max_stack ? atoi(o->max_stack) : 0,
		.field_sep = o->field_separator,
		.hide_unresolved = o->hide_unresolved,
		.mem_mode = o->mem_mode,
		.exclude_other = o->exclude_other,
		.symbol_filter = o->symbol_filter,
		.switch_on = o->switch_on,
		.switch_off = o->switch_off,
		.show_on_off_events = o->show_on_off_events,
		.symbol_opts = &sopts,
		.intel = o->disassembler_style && strstr(o->disassembler_style, "intel"),
		.show_progress = true,
		.tui = report_use_tui(o),
	};

	fflush(stdout);
	return report_hists_run(&a, stdout);
}

/* parse_tristate - an int option: 1 when given, 0 for --no-x (stays -1 when absent) */
static int parse_call_graph(const struct opt_spec *opt, const char *arg, int unset)
{
	*(const char **)opt->dest = unset ? NULL : arg;
	call_graph_seq = ++opt_seq;
	return 0;
}

static int parse_percent_limit(const struct opt_spec *opt, const char *arg, int unset)
{
	*(const char **)opt->dest = unset ? NULL : arg;
	percent_limit_seq = ++opt_seq;
	return 0;
}

static int parse_tristate(const struct opt_spec *opt, const char *arg, int unset)
{
	(void)arg;
	*(int *)opt->dest = unset ? 0 : 1;
	return 0;
}

/* --percent-type: annotate's percentages (no effect on --stdio); perf checks the value */
static int parse_percent_type(const struct opt_spec *opt, const char *arg, int unset)
{
	static const char *const types[] = { "global-period", "local-period", "global-hits",
					     "local-hits" };

	if (unset || !arg)
		return -1;
	for (size_t i = 0; i < ARRAY_SIZE(types); i++)
		if (!strcmp(arg, types[i])) {
			*(const char **)opt->dest = arg;
			return 0;
		}
	fputc('\n', stderr); /* the blank line perf leaves before the usage */
	return -1;
}

/*
 * parse_time_quantum - --time-quantum: a whole number with an optional
 * unit (ns, the default, us, ms, s), not 0; perf's messages otherwise
 */
static int parse_time_quantum(const struct opt_spec *opt, const char *arg, int unset)
{
	static const struct {
		const char *unit;
		u64 mult;
	} units[] = { { "", 1 }, { "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "s", 1000000000 } };
	unsigned long long v;
	char *end;

	if (unset || !arg)
		return -1;
	errno = 0;
	v = strtoull(arg, &end, 10);
	if (end != arg && !errno && *arg != '-') {
		for (size_t i = 0; i < ARRAY_SIZE(units); i++) {
			if (strcmp(end, units[i].unit))
				continue;
			if (!v) {
				fputs("time quantum cannot be 0\n", stderr);
				return -1;
			}
			*(u64 *)opt->dest = (u64)v * units[i].mult;
			return 0;
		}
	}
	fprintf(stderr, "Cannot parse time quantum `%s'\n\n", arg);
	return -1;
}

/*
 * check_option_values - options refused for some values only (the others
 * are accepted: their effect is perf's with --stdio). Returns 0 or the exit
 * status after the message.
 */
static int check_option_values(const struct report_opts *o)
{
	const char *name = NULL;

	if (o->prefix_strip && !o->prefix) {
		fprintf(stderr, "--prefix-strip requires --prefix\n");
		return -EINVAL & 0xff;
	}
	/* sonde has no colours: "never", or "auto" when stdout is no terminal */
	if (o->stdio_color && strcmp(o->stdio_color, "never") &&
	    (strcmp(o->stdio_color, "auto") || isatty(STDOUT_FILENO)))
		name = "stdio-color";
	/* the histograms are always made in time order */
	else if (o->disable_order && !o->dump_raw_trace)
		name = "disable-order";
	if (name) {
		opts_report_unsupported(name);
		return 129;
	}
	return 0;
}

int cmd_report(int argc, const char **argv)
{
	/* --no-children and --no-demangle turn the defaults off */
	struct report_opts opts = { .children = true, .demangle = true, .group = -1 };
	struct report_opts *o = &opts;
	const struct opt_spec options[] = {
		SPEC_REFUSED_NOVAL("branch-stack", 'b', "use branch records for per branch histogram filling"),
		SPEC_TEXT("comms", 'c', &o->comms, "comm[,comm...]",
			   "only consider symbols in these comms"),
		SPEC_TEXT("cpu", 'C', &o->cpu, "cpu",
			   "list of cpus to profile"),
		SPEC_TEXT("dsos", 'd', &o->dsos, "dso[,dso...]",
			   "only consider symbols in these dsos"),
		SPEC_FLAG("dump-raw-trace", 'D', &o->dump_raw_trace, "dump raw trace in ASCII"),
		SPEC_TEXT("fields", 'F', &o->fields, "key[,keys...]",
			   "output field(s): overhead period sample  overhead overhead_sys\n"
			   "\t\t\t  overhead_us overhead_guest_sys overhead_guest_us overhead_children\n"
			   "\t\t\t  sample period pid comm dso symbol parent cpu socket\n"
			   "\t\t\t  srcline srcfile local_weight weight transaction trace\n"
			   "\t\t\t  symbol_size dso_size cgroup cgroup_id ipc_null time\n"
			   "\t\t\t  code_page_size local_ins_lat ins_lat local_p_stage_cyc\n"
			   "\t\t\t  p_stage_cyc addr dso_from dso_to symbol_from symbol_to\n"
			   "\t\t\t  mispredict abort in_tx cycles srcline_from srcline_to\n"
			   "\t\t\t  ipc_lbr addr_from addr_to symbol_daddr dso_daddr locked\n"
			   "\t\t\t  tlb mem snoop dcacheline symbol_iaddr phys_daddr data_page_size\n"
			   "\t\t\t  blocked"),
		SPEC_FLAG("force", 'f', &o->force, "don't complain, do it"),
		SPEC_FN("call-graph", 'g', &o->call_graph, "print_type,threshold[,print_limit],order,sort_key[,branch],value",
			   CALL_GRAPH_REPORT_HELP, parse_call_graph),
		SPEC_FLAG("inverted", 'G', &o->inverted, "alias for inverted call graph"),
		SPEC_TEXT("input", 'i', &o->input, "file",
			   "input file name"),
		SPEC_FLAG("show-info", 'I', &o->show_info, "Display extended information about perf.data file"),
		SPEC_REFUSED("vmlinux", 'k', "file",
			   "vmlinux pathname"),
		SPEC_TEXT("disassembler-style", 'M', &o->disassembler_style, "disassembler style",
			   "Specify disassembler style (e.g. -M intel for intel syntax)"),
		SPEC_REFUSED_NOVAL("modules", 'm', "load module symbols - WARNING: use only with -k and LIVE kernel"),
		SPEC_FLAG("show-nr-samples", 'n', &o->show_nr_samples, "Show a column with the number of samples"),
		SPEC_TEXT("parent", 'p', &o->parent, "regex",
			   "regex filter to identify parent, see: '--sort parent'"),
		SPEC_FLAG("quiet", 'q', &o->quiet, "Do not show any warnings or messages"),
		SPEC_TEXT("sort", 's', &o->sort, "key[,key2...]",
			   "sort by key(s): overhead overhead_sys overhead_us overhead_guest_sys\n"
			   "\t\t\t  overhead_guest_us overhead_children sample period\n"
			   "\t\t\t  pid comm dso symbol parent cpu socket srcline srcfile\n"
			   "\t\t\t  local_weight weight transaction trace symbol_size\n"
			   "\t\t\t  dso_size cgroup cgroup_id ipc_null time code_page_size\n"
			   "\t\t\t  local_ins_lat ins_lat local_p_stage_cyc p_stage_cyc\n"
			   "\t\t\t  addr dso_from dso_to symbol_from symbol_to mispredict\n"
			   "\t\t\t  abort in_tx cycles srcline_from srcline_to ipc_lbr\n"
			   "\t\t\t  addr_from addr_to symbol_daddr dso_daddr locked tlb\n"
			   "\t\t\t  mem snoop dcacheline symbol_iaddr phys_daddr data_page_size\n"
			   "\t\t\t  blocked"),
		SPEC_TEXT("symbols", 'S', &o->symbols, "symbol[,symbol...]",
			   "only consider these symbols"),
		SPEC_TEXT("field-separator", 't', &o->field_separator, "separator",
			   "separator for columns, no spaces will be added between columns '.' is reserved."),
		SPEC_FLAG("threads", 'T', &o->threads, "Show per-thread event counters"),
		SPEC_FLAG("hide-unresolved", 'U', &o->hide_unresolved, "Only display entries resolved to a symbol"),
		SPEC_COUNT("verbose", 'v', &verbose, "be more verbose (show symbol address, etc)"),
		SPEC_REFUSED("column-widths", 'w', "width[,width...]",
			   "don't try to adjust column width, use these fixed values"),
		SPEC_FLAG("exclude-other", 'x', &o->exclude_other, "Only display entries with parent-match"),
		SPEC_FLAG("asm-raw", 0, &o->asm_raw, "Display raw encoding of assembly instructions (default)"),
		SPEC_REFUSED_NOVAL("branch-history", 0, "add last branch records to call history"),
		SPEC_FLAG("children", 0, &o->children, "Accumulate callchains of children and show total overhead as well. Enabled by default, use --no-children to disable."),
		SPEC_FLAG("demangle", 0, &o->demangle, "Disable symbol demangling"),
		SPEC_FLAG("demangle-kernel", 0, &o->demangle_kernel, "Enable kernel symbol demangling"),
		SPEC_FLAG("disable-order", 0, &o->disable_order, "Disable raw trace ordering"),
		SPEC_REFUSED_NOVAL("full-source-path", 0, "Show full source file name path for source lines"),
		SPEC_FN_NOVAL("group", 0, &o->group, "Show event group information together",
				   parse_tristate),
		SPEC_REFUSED("group-sort-idx", 0, "n",
			   "Sort the output by the event at the index n in group. If n is invalid, sort by the first event. WARNING: should be used on grouped events."),
		SPEC_FLAG("header", 0, &o->header, "Show data header."),
		SPEC_FLAG("header-only", 0, &o->header_only, "Show only data header."),
		SPEC_REFUSED_NOVAL("hierarchy", 0, "Show entries in a hierarchy"),
		SPEC_REFUSED("ignore-callees", 0, "regex",
			   "ignore callees of these functions in call graphs"),
		SPEC_FLAG("ignore-vmlinux", 0, &o->ignore_vmlinux, "don't load vmlinux even if found"),
		SPEC_REFUSED_NOVAL("inline", 0, "Show inline function"),
		{ .kind = OPTK_HANDLER, .name = "itrace", .label = "opts", .desc = itrace_help,
		  .handler = opts_refuse, .traits = OPTT_VALUE_OPTIONAL },
		SPEC_TEXT("kallsyms", 0, &o->kallsyms, "file",
			   "kallsyms pathname"),
		SPEC_TEXT("max-stack", 0, &o->max_stack, "n",
			   "Set the maximum stack depth when parsing the callchain, anything beyond the specified depth will be ignored. Default: kernel.perf_event_max_stack or 127"),
		SPEC_FLAG("mem-mode", 0, &o->mem_mode, "mem access profile"),
		SPEC_REFUSED_NOVAL("mmaps", 0, "Display recorded tasks memory maps"),
		SPEC_REFUSED_NOVAL("ns", 0, "Show times in nanosecs"),
		SPEC_TEXT("objdump", 0, &o->objdump, "path",
			   "objdump binary to use for disassembly and annotations"),
		SPEC_FN("percent-limit", 0, &o->percent_limit, "percent",
			     "Don't show entries under that percent", parse_percent_limit),
		SPEC_FN("percent-type", 0, &o->percent_type, "local-period",
			     "Set percent type local/global-period/hits", parse_percent_type),
		SPEC_TEXT("percentage", 0, &o->percentage, "relative|absolute",
			   "how to display percentage of filtered entries"),
		SPEC_TEXT("pid", 0, &o->pid, "pid[,pid...]",
			   "only consider symbols in these pids"),
		SPEC_TEXT("prefix", 0, &o->prefix, "prefix",
			   "Add prefix to source file path names in programs (with --prefix-strip)"),
		SPEC_TEXT("prefix-strip", 0, &o->prefix_strip, "N",
			   "Strip first N entries of source file path name in programs (with --prefix)"),
		SPEC_TEXT("pretty", 0, &o->pretty, "key",
			   "pretty printing style key: normal raw"),
		SPEC_REFUSED_NOVAL("raw-trace", 0, "Show raw trace event output (do not use print fmt or plugins)"),
		SPEC_INT("samples", 0, &o->samples,
			   "Number of samples to save per histogram entry for individual browsing"),
		SPEC_REFUSED_NOVAL("show-cpu-utilization", 0, "Show sample percentage for different cpu modes"),
		SPEC_FLAG("show-on-off-events", 0, &o->show_on_off_events, "Show the on/off switch events, used with --switch-on and --switch-off"),
		SPEC_REFUSED_NOVAL("show-ref-call-graph", 0, "Show callgraph from reference event"),
		SPEC_FLAG("show-total-period", 0, &o->show_total_period, "Show a column with the sum of periods"),
		SPEC_FLAG("skip-empty", 0, &o->skip_empty, "Do not display empty (or dummy) events in the output"),
		SPEC_REFUSED("socket-filter", 0, "n",
			   "only show processor socket that match with this filter"),
		SPEC_FLAG("source", 0, &o->source, "Interleave source code with assembly code (default)"),
		SPEC_FLAG("stats", 0, &o->stats, "Display event stats"),
		SPEC_FLAG("stdio", 0, &o->stdio, "Use the stdio interface"),
		SPEC_TEXT("stdio-color", 0, &o->stdio_color, "mode",
			   "'always' (default), 'never' or 'auto' only applicable to --stdio mode"),
		SPEC_REFUSED_NOVAL("stitch-lbr", 0, "Enable LBR callgraph stitching approach"),
		SPEC_TEXT("switch-off", 0, &o->switch_off, "event",
			   "Stop considering events after the ocurrence of this event"),
		SPEC_TEXT("switch-on", 0, &o->switch_on, "event",
			   "Consider events after the ocurrence of this event"),
		SPEC_TEXT("symbol-filter", 0, &o->symbol_filter, "filter",
			   "only show symbols that (partially) match with this filter"),
		SPEC_TEXT("symfs", 0, &o->symfs, "directory",
			   "Look for files with symbols relative to this directory"),
		SPEC_REFUSED_NOVAL("tasks", 0, "Display recorded tasks"),
		SPEC_TEXT("tid", 0, &o->tid, "tid[,tid...]",
			   "only consider symbols in these tids"),
		SPEC_TEXT("time", 0, &o->time, "str",
			   "Time span of interest (start,stop)"),
		SPEC_FN("time-quantum", 0, &o->time_quantum, "time (ms|us|ns|s)",
			     "Set time quantum for time sort key (default 100ms)", parse_time_quantum),
		SPEC_REFUSED_NOVAL("total-cycles", 0, "Sort all blocks by 'Sampled Cycles%'"),
		SPEC_FLAG("tui", 0, &o->tui, "Use the TUI interface"),
		SPEC_END(),
	};
	struct data_reader *reader;
	int ret = 0;

	argc = opts_parse(argc, argv, options, report_usage, 0);
	if (argc)
		opts_usage_exit(report_usage, options);
	if (o->quiet)
		quiet = 1;
	ret = check_option_values(o);
	if (ret)
		return ret;

	/* like perf: no -i and a pipe on stdin reads the pipe */
	if (!o->input || !*o->input) {
		struct stat st;

		if (!fstat(STDIN_FILENO, &st) && S_ISFIFO(st.st_mode))
			o->input = "-";
	}
	reader = data_open_for_read(o->input, o->force);
	if (!reader)
		return 255;

	if (o->dump_raw_trace && !o->disable_order && !dump_has_sample_id_all(reader)) {
		/* perf's session set-up notice (stdout, -D only) */
		printf("WARNING: No sample_id_all support, falling back to unordered processing\n");
		o->disable_order = true;
	}
	/* perf checks the --switch-on/--switch-off events before any output */
	for (int i = 0; i < 2 && !o->dump_raw_trace && !o->stats && !o->header_only; i++) {
		const char *name = i ? o->switch_off : o->switch_on;
		struct evlist *evlist = name ? data_reader_evlist(reader) : NULL;

		if (name && (!evlist || !evlist_find_by_name(evlist, name))) {
			fprintf(stderr, "ERROR: switch-%s event not found (%s)\n"
					"HINT:  use 'perf evlist' to see the available event names\n",
				i ? "off" : "on", name);
			ret = -ENOENT & 0xff;
			goto out;
		}
	}
	if (o->header || o->header_only) {
		header_fprintf(stdout, reader, o->show_info);
		if (o->header_only)
			goto out;
	} else if (!o->quiet && !o->stats && (o->dump_raw_trace || !report_use_tui(o))) {
		fputs("# To display the perf.data header info, please use --header/--header-only options.\n#\n",
		      stdout);
	}
	if (o->dump_raw_trace || o->stats) {
		/* tools on a session without symbols: they print records, not resolve them */
		struct machine_opts mopts = { .no_symbols = true };
		struct session *s = session_new_borrowed(reader, &mopts);
		struct dump_hooks stats_hooks = { .stats_tool = true };
		struct data_error err = { 0 };
		int rc;

		if (o->dump_raw_trace)
			rc = dump_raw_trace(stdout, s, !o->disable_order,
					    o->stats ? &stats_hooks : NULL, &err);
		else
			rc = report_stats(stdout, s, &err);
		if (rc < 0) {
			fflush(stdout);
			data_error_print(data_reader_path(reader), &err);
			ret = 255;
		}
		session_free(s);
		goto out;
	}
	ret = report_histograms(o, reader);
out:
	fflush(stdout);
	data_reader_close(reader);
	return ret;
}
