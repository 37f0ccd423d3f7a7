/* SPDX-License-Identifier: MIT */
/*
 * sonde report: perf report's option table; header, raw dump and stats modes
 * here, the histogram path in report_histograms() (see ui/ and session/).
 */
#include "builtin.h"
#include "core/evlist.h"
#include "data/reader.h"
#include "lib/debug.h"
#include "lib/parse-options.h"
#include "lib/xalloc.h"
#include "ui/dump.h"
#include "ui/header.h"
#include "ui/itrace-help.h"
#include "ui/report-hists.h"
#include "ui/stats.h"

#include <errno.h>
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
 * report_histograms - the normal report: histograms of the samples
 * (session/ builds them, ui/report-hists.c prints them). Returns the exit status.
 */
static int report_histograms(struct report_opts *o, struct data_reader *reader)
{
	struct symbol_opts sopts = {
		.symfs = o->symfs,
		.kallsyms = o->kallsyms,
		.no_demangle = !o->demangle,
		.demangle_params = verbose > 0, /* perf shows parameters only with -v */
		.demangle_kernel = o->demangle_kernel,
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
		.exclude_other = o->exclude_other,
		.symbol_filter = o->symbol_filter,
		.switch_on = o->switch_on,
		.switch_off = o->switch_off,
		.show_on_off_events = o->show_on_off_events,
		.symbol_opts = &sopts,
		.show_progress = true,
	};

	fflush(stdout);
	return report_hists_run(&a, stdout);
}

/* parse_tristate - an int option: 1 when given, 0 for --no-x (stays -1 when absent) */
static int parse_call_graph(const struct option *opt, const char *arg, int unset)
{
	*(const char **)opt->value = unset ? NULL : arg;
	call_graph_seq = ++opt_seq;
	return 0;
}

static int parse_percent_limit(const struct option *opt, const char *arg, int unset)
{
	*(const char **)opt->value = unset ? NULL : arg;
	percent_limit_seq = ++opt_seq;
	return 0;
}

static int parse_tristate(const struct option *opt, const char *arg, int unset)
{
	(void)arg;
	*(int *)opt->value = unset ? 0 : 1;
	return 0;
}

/* --percent-type: annotate's percentages (no effect on --stdio); perf checks the value */
static int parse_percent_type(const struct option *opt, const char *arg, int unset)
{
	static const char *const types[] = { "global-period", "local-period", "global-hits",
					     "local-hits" };

	if (unset || !arg)
		return -1;
	for (size_t i = 0; i < ARRAY_SIZE(types); i++)
		if (!strcmp(arg, types[i])) {
			*(const char **)opt->value = arg;
			return 0;
		}
	return -1;
}

/*
 * parse_time_quantum - --time-quantum: a whole number with an optional
 * unit (ns, the default, us, ms, s), not 0; perf's messages otherwise
 */
static int parse_time_quantum(const struct option *opt, const char *arg, int unset)
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
			*(u64 *)opt->value = (u64)v * units[i].mult;
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
		option_unsupported(name);
		return 129;
	}
	return 0;
}

int cmd_report(int argc, const char **argv)
{
	/* --no-children and --no-demangle turn the defaults off */
	struct report_opts opts = { .children = true, .demangle = true, .group = -1 };
	struct report_opts *o = &opts;
	const struct option options[] = {
		OPT_UNSUPPORTED_NOARG('b', "branch-stack", "use branch records for per branch histogram filling"),
		OPT_STRING('c', "comms", &o->comms, "comm[,comm...]",
			   "only consider symbols in these comms"),
		OPT_STRING('C', "cpu", &o->cpu, "cpu",
			   "list of cpus to profile"),
		OPT_STRING('d', "dsos", &o->dsos, "dso[,dso...]",
			   "only consider symbols in these dsos"),
		OPT_BOOLEAN('D', "dump-raw-trace", &o->dump_raw_trace, "dump raw trace in ASCII"),
		OPT_STRING('F', "fields", &o->fields, "key[,keys...]",
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
		OPT_BOOLEAN('f', "force", &o->force, "don't complain, do it"),
		OPT_CALLBACK('g', "call-graph", &o->call_graph, "print_type,threshold[,print_limit],order,sort_key[,branch],value",
			   "Display call graph (stack chain/backtrace):\n"
			   "\n"
			   "\t\t\t\tprint_type:\tcall graph printing style (graph|flat|fractal|folded|none)\n"
			   "\t\t\t\tthreshold:\tminimum call graph inclusion threshold (<percent>)\n"
			   "\t\t\t\tprint_limit:\tmaximum number of call graph entry (<number>)\n"
			   "\t\t\t\torder:\t\tcall graph order (caller|callee)\n"
			   "\t\t\t\tsort_key:\tcall graph sort key (function|address)\n"
			   "\t\t\t\tbranch:\t\tinclude last branch info to call graph (branch)\n"
			   "\t\t\t\tvalue:\t\tcall graph value (percent|period|count)\n"
			   "\n"
			   "\t\t\t\tDefault: graph,0.5,caller,function,percent", parse_call_graph),
		OPT_BOOLEAN('G', "inverted", &o->inverted, "alias for inverted call graph"),
		OPT_STRING('i', "input", &o->input, "file",
			   "input file name"),
		OPT_BOOLEAN('I', "show-info", &o->show_info, "Display extended information about perf.data file"),
		OPT_UNSUPPORTED('k', "vmlinux", "file",
			   "vmlinux pathname"),
		OPT_STRING('M', "disassembler-style", &o->disassembler_style, "disassembler style",
			   "Specify disassembler style (e.g. -M intel for intel syntax)"),
		OPT_UNSUPPORTED_NOARG('m', "modules", "load module symbols - WARNING: use only with -k and LIVE kernel"),
		OPT_BOOLEAN('n', "show-nr-samples", &o->show_nr_samples, "Show a column with the number of samples"),
		OPT_STRING('p', "parent", &o->parent, "regex",
			   "regex filter to identify parent, see: '--sort parent'"),
		OPT_BOOLEAN('q', "quiet", &o->quiet, "Do not show any warnings or messages"),
		OPT_STRING('s', "sort", &o->sort, "key[,key2...]",
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
		OPT_STRING('S', "symbols", &o->symbols, "symbol[,symbol...]",
			   "only consider these symbols"),
		OPT_STRING('t', "field-separator", &o->field_separator, "separator",
			   "separator for columns, no spaces will be added between columns '.' is reserved."),
		OPT_BOOLEAN('T', "threads", &o->threads, "Show per-thread event counters"),
		OPT_BOOLEAN('U', "hide-unresolved", &o->hide_unresolved, "Only display entries resolved to a symbol"),
		OPT_INCR('v', "verbose", &verbose, "be more verbose (show symbol address, etc)"),
		OPT_UNSUPPORTED('w', "column-widths", "width[,width...]",
			   "don't try to adjust column width, use these fixed values"),
		OPT_BOOLEAN('x', "exclude-other", &o->exclude_other, "Only display entries with parent-match"),
		OPT_BOOLEAN(0, "asm-raw", &o->asm_raw, "Display raw encoding of assembly instructions (default)"),
		OPT_UNSUPPORTED_NOARG(0, "branch-history", "add last branch records to call history"),
		OPT_BOOLEAN(0, "children", &o->children, "Accumulate callchains of children and show total overhead as well. Enabled by default, use --no-children to disable."),
		OPT_BOOLEAN(0, "demangle", &o->demangle, "Disable symbol demangling"),
		OPT_BOOLEAN(0, "demangle-kernel", &o->demangle_kernel, "Enable kernel symbol demangling"),
		OPT_BOOLEAN(0, "disable-order", &o->disable_order, "Disable raw trace ordering"),
		OPT_UNSUPPORTED_NOARG(0, "full-source-path", "Show full source file name path for source lines"),
		OPT_CALLBACK_NOOPT(0, "group", &o->group, NULL, "Show event group information together",
				   parse_tristate),
		OPT_UNSUPPORTED(0, "group-sort-idx", "n",
			   "Sort the output by the event at the index n in group. If n is invalid, sort by the first event. WARNING: should be used on grouped events."),
		OPT_BOOLEAN(0, "header", &o->header, "Show data header."),
		OPT_BOOLEAN(0, "header-only", &o->header_only, "Show only data header."),
		OPT_UNSUPPORTED_NOARG(0, "hierarchy", "Show entries in a hierarchy"),
		OPT_UNSUPPORTED(0, "ignore-callees", "regex",
			   "ignore callees of these functions in call graphs"),
		OPT_BOOLEAN(0, "ignore-vmlinux", &o->ignore_vmlinux, "don't load vmlinux even if found"),
		OPT_UNSUPPORTED_NOARG(0, "inline", "Show inline function"),
		{ .type = OPTION_CALLBACK, .long_name = "itrace", .argh = "opts", .help = itrace_help,
		  .callback = parse_opt_unsupported, .flags = PARSE_OPT_OPTARG },
		OPT_STRING(0, "kallsyms", &o->kallsyms, "file",
			   "kallsyms pathname"),
		OPT_STRING(0, "max-stack", &o->max_stack, "n",
			   "Set the maximum stack depth when parsing the callchain, anything beyond the specified depth will be ignored. Default: kernel.perf_event_max_stack or 127"),
		OPT_UNSUPPORTED_NOARG(0, "mem-mode", "mem access profile"),
		OPT_UNSUPPORTED_NOARG(0, "mmaps", "Display recorded tasks memory maps"),
		OPT_UNSUPPORTED_NOARG(0, "ns", "Show times in nanosecs"),
		OPT_STRING(0, "objdump", &o->objdump, "path",
			   "objdump binary to use for disassembly and annotations"),
		OPT_CALLBACK(0, "percent-limit", &o->percent_limit, "percent",
			     "Don't show entries under that percent", parse_percent_limit),
		OPT_CALLBACK(0, "percent-type", &o->percent_type, "local-period",
			     "Set percent type local/global-period/hits", parse_percent_type),
		OPT_STRING(0, "percentage", &o->percentage, "relative|absolute",
			   "how to display percentage of filtered entries"),
		OPT_STRING(0, "pid", &o->pid, "pid[,pid...]",
			   "only consider symbols in these pids"),
		OPT_STRING(0, "prefix", &o->prefix, "prefix",
			   "Add prefix to source file path names in programs (with --prefix-strip)"),
		OPT_STRING(0, "prefix-strip", &o->prefix_strip, "N",
			   "Strip first N entries of source file path name in programs (with --prefix)"),
		OPT_STRING(0, "pretty", &o->pretty, "key",
			   "pretty printing style key: normal raw"),
		OPT_UNSUPPORTED_NOARG(0, "raw-trace", "Show raw trace event output (do not use print fmt or plugins)"),
		OPT_INTEGER(0, "samples", &o->samples,
			   "Number of samples to save per histogram entry for individual browsing"),
		OPT_UNSUPPORTED_NOARG(0, "show-cpu-utilization", "Show sample percentage for different cpu modes"),
		OPT_BOOLEAN(0, "show-on-off-events", &o->show_on_off_events, "Show the on/off switch events, used with --switch-on and --switch-off"),
		OPT_UNSUPPORTED_NOARG(0, "show-ref-call-graph", "Show callgraph from reference event"),
		OPT_BOOLEAN(0, "show-total-period", &o->show_total_period, "Show a column with the sum of periods"),
		OPT_BOOLEAN(0, "skip-empty", &o->skip_empty, "Do not display empty (or dummy) events in the output"),
		OPT_UNSUPPORTED(0, "socket-filter", "n",
			   "only show processor socket that match with this filter"),
		OPT_BOOLEAN(0, "source", &o->source, "Interleave source code with assembly code (default)"),
		OPT_BOOLEAN(0, "stats", &o->stats, "Display event stats"),
		OPT_BOOLEAN(0, "stdio", &o->stdio, "Use the stdio interface"),
		OPT_STRING(0, "stdio-color", &o->stdio_color, "mode",
			   "'always' (default), 'never' or 'auto' only applicable to --stdio mode"),
		OPT_UNSUPPORTED_NOARG(0, "stitch-lbr", "Enable LBR callgraph stitching approach"),
		OPT_STRING(0, "switch-off", &o->switch_off, "event",
			   "Stop considering events after the ocurrence of this event"),
		OPT_STRING(0, "switch-on", &o->switch_on, "event",
			   "Consider events after the ocurrence of this event"),
		OPT_STRING(0, "symbol-filter", &o->symbol_filter, "filter",
			   "only show symbols that (partially) match with this filter"),
		OPT_STRING(0, "symfs", &o->symfs, "directory",
			   "Look for files with symbols relative to this directory"),
		OPT_UNSUPPORTED_NOARG(0, "tasks", "Display recorded tasks"),
		OPT_STRING(0, "tid", &o->tid, "tid[,tid...]",
			   "only consider symbols in these tids"),
		OPT_STRING(0, "time", &o->time, "str",
			   "Time span of interest (start,stop)"),
		OPT_CALLBACK(0, "time-quantum", &o->time_quantum, "time (ms|us|ns|s)",
			     "Set time quantum for time sort key (default 100ms)", parse_time_quantum),
		OPT_UNSUPPORTED_NOARG(0, "total-cycles", "Sort all blocks by 'Sampled Cycles%'"),
		OPT_BOOLEAN(0, "tui", &o->tui, "Use the TUI interface"),
		OPT_END(),
	};
	struct data_reader *reader;
	int ret = 0;

	argc = parse_options(argc, argv, options, report_usage, 0);
	if (argc)
		usage_with_options(report_usage, options);
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
	} else if (!o->quiet && !o->stats) {
		fputs("# To display the perf.data header info, please use --header/--header-only options.\n#\n",
		      stdout);
	}
	if (o->dump_raw_trace) {
		struct dump_hooks stats_hooks = { .stats_tool = true };

		ret = dump_raw_trace_hooks(stdout, reader, !o->disable_order,
					   o->stats ? &stats_hooks : NULL) ? 255 : 0;
		goto out;
	}
	if (o->stats) {
		ret = report_stats(stdout, reader) ? 255 : 0;
		goto out;
	}
	ret = report_histograms(o, reader);
out:
	fflush(stdout);
	data_reader_close(reader);
	return ret;
}
