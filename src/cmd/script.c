/* SPDX-License-Identifier: MIT */
/* sonde script: options and validation; the work is in ui/script-run.c. */
#include "builtin.h"

#include "lib/debug.h"
#include "lib/parse-options.h"
#include "lib/strbuf.h"
#include "ui/itrace-help.h"
#include "ui/script-run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const script_usage[] = {
	"perf script [<options>]",
	"perf script [<options>] record <script> [<record-options>] <command>",
	"perf script [<options>] report <script> [script-args]",
	"perf script [<options>] <script> [<record-options>] <command>",
	"perf script [<options>] <top-script> [script-args]",
	NULL,
};

static int parse_fields_cb(const struct option *opt, const char *arg, int unset)
{
	struct script_opts *o = opt->value;
	struct strbuf msg = STRBUF_INIT;
	int ret;

	if (unset)
		return 0;
	ret = script_parse_fields(&o->cfg, arg, &msg);
	fputs(msg.buf, stderr);
	if (ret)
		fputc('\n', stderr);
	strbuf_release(&msg);
	return ret ? -1 : 0;
}

static int list_scripts_cb(const struct option *opt, const char *arg, int unset)
{
	/* sonde has no built-in python/perl scripts */
	printf("List of available trace scripts:\n");
	exit(0);
}

/* options that only matter for features sonde lacks (itrace, scripting): accepted, ignored */
static int ignore_cb(const struct option *opt, const char *arg, int unset)
{
	return 0;
}

int cmd_script(int argc, const char **argv)
{
	struct script_opts o;
	bool dummy_b = false, ns = false, verbose_flag = false;
	const char *dummy_s = NULL;
	int max_stack = -1, dummy_i = 0;
	bool hide_cg = false;
	bool demangle = true;

	script_opts_init(&o);
	const struct option options[] = {
		OPT_BOOLEAN('a', "all-cpus", &dummy_b, "system-wide collection from all CPUs"),
		OPT_STRING('c', "comms", &o.comm_list, "comm[,comm...]",
			   "only display events for these comms"),
		OPT_STRING('C', "cpu", &o.cpu_list, "cpu", "list of cpus to profile"),
		OPT_BOOLEAN('d', "debug-mode", &dummy_b,
			    "do various checks like samples ordering and lost events"),
		OPT_BOOLEAN('D', "dump-raw-trace", &o.dump_raw, "dump raw trace in ASCII"),
		OPT_CALLBACK('F', "fields", &o, "str",
			     "comma separated output fields prepend with 'type:'. +field to add and -field to remove.Valid types: hw,sw,trace,raw,synth. Fields: comm,tid,pid,time,cpu,event,trace,ip,sym,dso,addr,symoff,srcline,period,iregs,uregs,brstack,brstacksym,flags,data_src,weight,bpf-output,brstackinsn,brstackinsnlen,brstackoff,callindent,insn,insnlen,synth,phys_addr,metric,misc,srccode,ipc,tod,data_page_size,code_page_size,ins_lat",
			     parse_fields_cb),
		OPT_BOOLEAN('f', "force", &o.force, "don't complain, do it"),
		OPT_CALLBACK('g', "gen-script", NULL, "lang",
			     "generate perf-script.xx script in specified language", parse_opt_unsupported),
		OPT_BOOLEAN('G', "hide-call-graph", &hide_cg,
			    "When printing symbols do not display call chain"),
		OPT_STRING('i', "input", &o.input, "file", "input file name"),
		OPT_BOOLEAN('I', "show-info", &o.show_info,
			    "display extended information from perf.data file"),
		OPT_STRING('k', "vmlinux", &o.vmlinux, "file", "vmlinux pathname"),
		OPT_BOOLEAN('L', "Latency", &dummy_b,
			    "show latency attributes (irqs/preemption disabled, etc)"),
		OPT_CALLBACK_NOOPT('l', "list", NULL, NULL, "list available scripts",
				   list_scripts_cb),
		OPT_CALLBACK('s', "script", NULL, "name",
			     "script file name (lang:script name, script name, or *)",
			     parse_opt_unsupported),
		OPT_STRING('S', "symbols", &o.sym_list, "symbol[,symbol...]",
			   "only consider these symbols"),
		OPT_BOOLEAN('v', "verbose", &verbose_flag,
			    "be more verbose (show symbol address, etc)"),
		OPT_INTEGER(0, "addr-range", &dummy_i,
			    "Use with -S to list traced records within address range"),
		{ .type = OPTION_CALLBACK, .long_name = "call-ret-trace", .argh = "=...",
		  .help = "Decode calls and returns from itrace", .callback = ignore_cb,
		  .flags = PARSE_OPT_OPTARG | PARSE_OPT_LITERAL_ARGHELP },
		{ .type = OPTION_CALLBACK, .long_name = "call-trace", .argh = "=...",
		  .help = "Decode calls from itrace", .callback = ignore_cb,
		  .flags = PARSE_OPT_OPTARG | PARSE_OPT_LITERAL_ARGHELP },
		OPT_BOOLEAN(0, "deltatime", &o.cfg.deltatime,
			    "Show time stamps relative to previous event"),
		OPT_BOOLEAN(0, "demangle", &demangle, "Enable symbol demangling"),
		OPT_BOOLEAN(0, "demangle-kernel", &o.demangle_kernel,
			    "Enable kernel symbol demangling"),
		OPT_STRING(0, "dlarg", &dummy_s, "argument", "filter argument"),
		OPT_CALLBACK(0, "dlfilter", NULL, "file", "filter .so file name", parse_opt_unsupported),
		OPT_STRING(0, "dsos", &o.dso_list, "dso[,dso...]", "only consider symbols in these DSOs"),
		OPT_BOOLEAN(0, "dump-unsorted-raw-trace", &o.dump_unsorted,
			    "dump unsorted raw trace in ASCII"),
		OPT_BOOLEAN(0, "full-source-path", &o.cfg.full_source_path,
			    "Show full source file name path for source lines"),
		OPT_STRING(0, "graph-function", &dummy_s, "symbol[,symbol...]",
			   "Only print symbols and callees with --call-trace/--call-ret-trace"),
		OPT_BOOLEAN(0, "guest-code", &dummy_b, "Guest code can be found in hypervisor process"),
		OPT_STRING(0, "guestkallsyms", &dummy_s, "file",
			   "file saving guest os /proc/kallsyms"),
		OPT_STRING(0, "guestmodules", &dummy_s, "file", "file saving guest os /proc/modules"),
		OPT_STRING(0, "guestmount", &dummy_s, "directory",
			   "guest mount directory under which every guest os instance has a subdir"),
		OPT_STRING(0, "guestvmlinux", &dummy_s, "file", "file saving guest os vmlinux"),
		OPT_BOOLEAN(0, "header", &o.header, "Show data header."),
		OPT_BOOLEAN(0, "header-only", &o.header_only, "Show only data header."),
		OPT_BOOLEAN(0, "inline", &dummy_b, "Show inline function"),
		OPT_CALLBACK_OPTARG(0, "insn-trace", NULL, NULL, "raw|disasm",
				    "Decode instructions from itrace", ignore_cb),
		OPT_CALLBACK_OPTARG(0, "itrace", NULL, NULL, "opts", itrace_help, ignore_cb),
		OPT_STRING(0, "kallsyms", &o.kallsyms, "file", "kallsyms pathname"),
		OPT_CALLBACK_NOOPT(0, "list-dlfilters", NULL, NULL, "list available dlfilters",
				   ignore_cb),
		OPT_INTEGER(0, "max-blocks", &dummy_i,
			    "Maximum number of code blocks to dump with brstackinsn"),
		OPT_INTEGER(0, "max-stack", &max_stack,
			    "Set the maximum stack depth when parsing the callchain, anything beyond the specified depth will be ignored. Default: kernel.perf_event_max_stack or 127"),
		OPT_BOOLEAN(0, "ns", &ns, "Use 9 decimal places when displaying time"),
		OPT_BOOLEAN(0, "per-event-dump", &o.per_event_dump,
			    "Dump trace output to files named by the monitored events"),
		OPT_STRING(0, "pid", &o.pid_list, "pid[,pid...]", "only consider symbols in these pids"),
		OPT_BOOLEAN(0, "reltime", &o.cfg.reltime, "Show time stamps relative to start"),
		OPT_BOOLEAN(0, "show-bpf-events", &o.show_bpf_events,
			    "Show bpf related events (if recorded)"),
		OPT_BOOLEAN(0, "show-cgroup-events", &o.show_cgroup_events,
			    "Show cgroup events (if recorded)"),
		OPT_BOOLEAN(0, "show-kernel-path", &o.cfg.show_kernel_path,
			    "Show the path of [kernel.kallsyms]"),
		OPT_BOOLEAN(0, "show-lost-events", &o.show_lost_events,
			    "Show lost events (if recorded)"),
		OPT_BOOLEAN(0, "show-mmap-events", &o.show_mmap_events, "Show the mmap events"),
		OPT_BOOLEAN(0, "show-namespace-events", &o.show_namespace_events,
			    "Show namespace events (if recorded)"),
		OPT_BOOLEAN(0, "show-on-off-events", &o.show_on_off_events,
			    "Show the on/off switch events, used with --switch-on and --switch-off"),
		OPT_BOOLEAN(0, "show-round-events", &o.show_round_events,
			    "Show round events (if recorded)"),
		OPT_BOOLEAN(0, "show-switch-events", &o.show_switch_events,
			    "Show context switch events (if recorded)"),
		OPT_BOOLEAN(0, "show-task-events", &o.show_task_events,
			    "Show the fork/comm/exit events"),
		OPT_BOOLEAN(0, "show-text-poke-events", &o.show_text_poke_events,
			    "Show text poke related events (if recorded)"),
		OPT_BOOLEAN(0, "stitch-lbr", &dummy_b, "Enable LBR callgraph stitching approach"),
		OPT_STRING(0, "stop-bt", &o.stop_bt, "symbol[,symbol...]",
			   "Stop display of callgraph at these symbols"),
		OPT_STRING(0, "switch-off", &o.switch_off, "event",
			   "Stop considering events after the ocurrence of this event"),
		OPT_STRING(0, "switch-on", &o.switch_on, "event",
			   "Consider events after the ocurrence of this event"),
		OPT_STRING(0, "symfs", &o.symfs, "directory",
			   "Look for files with symbols relative to this directory"),
		OPT_STRING(0, "tid", &o.tid_list, "tid[,tid...]", "only consider symbols in these tids"),
		OPT_STRING(0, "time", &o.time_str, "str", "Time span of interest (start,stop)"),
		{ .type = OPTION_CALLBACK, .long_name = "xed", .argh = "=...",
		  .help = "Run xed disassembler on output", .callback = ignore_cb,
		  .flags = PARSE_OPT_OPTARG | PARSE_OPT_LITERAL_ARGHELP },
		OPT_END(),
	};

	argc = parse_options(argc, argv, options, script_usage, PARSE_OPT_STOP_AT_NON_OPTION);
	if (argc > 0) {
		fprintf(stderr, "Error: scripting (%s) is not supported by %s\n", argv[0], prog_name);
		return 255;
	}
	if (o.dump_unsorted)
		o.dump_raw = true;
	if (verbose_flag)
		verbose++;
	o.no_demangle = !demangle;
	o.cfg.nanosecs = ns;
	o.cfg.use_callchain = !hide_cg;
	if (max_stack >= 0)
		o.cfg.max_stack = max_stack;
	if (o.cfg.reltime && o.cfg.deltatime) {
		fprintf(stderr, "reltime and deltatime - the two don't get along well. "
				"Please limit to --reltime or --deltatime.\n");
		return 255;
	}
	return script_run(&o);
}
