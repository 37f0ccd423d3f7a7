/* SPDX-License-Identifier: MIT */
/* sonde script: the options, the orchestration and the exit status (checks: script-check.c). */
#include "builtin.h"
#include "cmd/flamegraph.h"
#include "cmd/open.h"
#include "cmd/script.h"

#include "lib/debug.h"
#include "lib/optspec.h"
#include "lib/strbuf.h"
#include "cmd/script-lang.h"
#include "ui/itrace-help.h"
#include "session/session.h"
#include "ui/header.h"

#include <errno.h>
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

static int parse_fields_cb(const struct opt_spec *opt, const char *arg, int unset)
{
	struct script_opts *o = opt->dest;
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

static int list_scripts_cb(const struct opt_spec *opt, const char *arg, int unset)
{
	script_lang_list();
	exit(0);
}

/* options that only matter for features sonde lacks (itrace, scripting): accepted, ignored */
static int ignore_cb(const struct opt_spec *opt, const char *arg, int unset)
{
	return 0;
}

/* --folded: sonde flamegraph --folded with script's input and selections */
static int script_folded(const struct script_opts *so, int max_stack)
{
	struct flame_opts fo;

	flame_opts_init(&fo);
	fo.folded = true;
	fo.input = so->input;
	fo.force = so->force;
	fo.comm_list = so->comm_list;
	fo.pid_list = so->pid_list;
	fo.tid_list = so->tid_list;
	fo.cpu_list = so->cpu_list;
	fo.dso_list = so->dso_list;
	fo.time_str = so->time_str;
	fo.symfs = so->symfs;
	fo.kallsyms = so->kallsyms;
	if (max_stack > 0)
		fo.stack.max_stack = (u32)max_stack;
	return flamegraph_run(&fo);
}

void script_opts_init(struct script_opts *o)
{
	memset(o, 0, sizeof(*o));
	script_config_init(&o->cfg);
	o->view.cfg = &o->cfg;
}

int script_session(struct script_opts *o, struct data_reader *reader)
{
	struct symbol_opts sopts = {
		.no_demangle = o->no_demangle,
		.demangle_kernel = o->demangle_kernel,
		.symfs = o->symfs,
		.kallsyms = o->kallsyms,
	};
	struct machine_opts mopts = { .symbol_opts = &sopts };
	struct script_event_dump *dumps = NULL;
	struct data_error derr = { 0 };
	struct script_select sel;
	struct script_run *run;
	struct session *session;
	int ret, err;

	if (o->header || o->header_only) {
		fflush(stdout);
		header_fprintf(stdout, reader, o->show_info);
		fflush(stdout);
		if (o->header_only) {
			data_reader_close(reader);
			return 0;
		}
	}
	session = session_new(reader, &mopts);
	script_select_init(&sel);
	ret = script_check(o, session, &sel);
	if (ret < 0 && o->per_event_dump) {
		dumps = script_open_event_dumps(o, session);
		if (!dumps)
			ret = 255;
	}
	if (ret >= 0) {
		script_select_release(&sel);
		session_free(session);
		return ret;
	}
	run = script_run_new(session, &o->view, &sel, dumps);
	err = script_run_process(run, &derr);
	ret = 0;
	if (err < 0 && err != -EPIPE) {
		data_error_print(data_reader_path(session->reader), &derr);
		ret = 255;
	}
	script_run_finish(run, err);
	script_run_free(run);
	script_select_release(&sel);
	session_free(session);
	return ret;
}

int cmd_script(int argc, const char **argv)
{
	struct script_opts o;
	struct data_reader *reader;
	bool dummy_b = false, ns = false, verbose_flag = false;
	const char *dummy_s = NULL;
	int max_stack = -1, dummy_i = 0;
	bool hide_cg = false;
	bool demangle = true;
	bool folded = false;

	script_opts_init(&o);
	const struct opt_spec options[] = {
		SPEC_FLAG("all-cpus", 'a', &dummy_b, "system-wide collection from all CPUs"),
		SPEC_TEXT("comms", 'c', &o.comm_list, "comm[,comm...]",
			   "only display events for these comms"),
		SPEC_TEXT("cpu", 'C', &o.cpu_list, "cpu", "list of cpus to profile"),
		SPEC_FLAG("debug-mode", 'd', &dummy_b,
			    "do various checks like samples ordering and lost events"),
		SPEC_FLAG("dump-raw-trace", 'D', &o.view.dump_raw, "dump raw trace in ASCII"),
		SPEC_FN("fields", 'F', &o, "str",
			     "comma separated output fields prepend with 'type:'. +field to add and -field to remove.Valid types: hw,sw,trace,raw,synth. Fields: comm,tid,pid,time,cpu,event,trace,ip,sym,dso,addr,symoff,srcline,period,iregs,uregs,brstack,brstacksym,flags,data_src,weight,bpf-output,brstackinsn,brstackinsnlen,brstackoff,callindent,insn,insnlen,synth,phys_addr,metric,misc,srccode,ipc,tod,data_page_size,code_page_size,ins_lat",
			     parse_fields_cb),
		/* sonde's: hidden, so -h stays perf's */
		{ .kind = OPTK_FLAG, .name = "folded", .dest = &folded, .traits = OPTT_HIDDEN,
		  .desc = "print folded stacks (as perf script | stackcollapse-perf.pl)" },
		SPEC_FLAG("force", 'f', &o.force, "don't complain, do it"),
		SPEC_FN("gen-script", 'g', NULL, "lang",
			     "generate perf-script.xx script in specified language", script_lang_opt_gen),
		SPEC_FLAG("hide-call-graph", 'G', &hide_cg,
			    "When printing symbols do not display call chain"),
		SPEC_TEXT("input", 'i', &o.input, "file", "input file name"),
		SPEC_FLAG("show-info", 'I', &o.show_info,
			    "display extended information from perf.data file"),
		SPEC_TEXT("vmlinux", 'k', &o.vmlinux, "file", "vmlinux pathname"),
		SPEC_FLAG("Latency", 'L', &dummy_b,
			    "show latency attributes (irqs/preemption disabled, etc)"),
		SPEC_FN_NOVAL("list", 'l', NULL, "list available scripts",
				   list_scripts_cb),
		SPEC_FN("script", 's', NULL, "name",
			     "script file name (lang:script name, script name, or *)",
			     script_lang_opt_script),
		SPEC_TEXT("symbols", 'S', &o.sym_list, "symbol[,symbol...]",
			   "only consider these symbols"),
		SPEC_FLAG("verbose", 'v', &verbose_flag,
			    "be more verbose (show symbol address, etc)"),
		SPEC_INT("addr-range", 0, &dummy_i,
			    "Use with -S to list traced records within address range"),
		{ .kind = OPTK_HANDLER, .name = "call-ret-trace", .label = "=...",
		  .desc = "Decode calls and returns from itrace", .handler = ignore_cb,
		  .traits = OPTT_VALUE_OPTIONAL | OPTT_LABEL_AS_IS },
		{ .kind = OPTK_HANDLER, .name = "call-trace", .label = "=...",
		  .desc = "Decode calls from itrace", .handler = ignore_cb,
		  .traits = OPTT_VALUE_OPTIONAL | OPTT_LABEL_AS_IS },
		SPEC_FLAG("deltatime", 0, &o.cfg.deltatime,
			    "Show time stamps relative to previous event"),
		SPEC_FLAG("demangle", 0, &demangle, "Enable symbol demangling"),
		SPEC_FLAG("demangle-kernel", 0, &o.demangle_kernel,
			    "Enable kernel symbol demangling"),
		SPEC_TEXT("dlarg", 0, &dummy_s, "argument", "filter argument"),
		SPEC_FN("dlfilter", 0, NULL, "file", "filter .so file name", opts_refuse),
		SPEC_TEXT("dsos", 0, &o.dso_list, "dso[,dso...]", "only consider symbols in these DSOs"),
		SPEC_FLAG("dump-unsorted-raw-trace", 0, &o.view.dump_unsorted,
			    "dump unsorted raw trace in ASCII"),
		SPEC_FLAG("full-source-path", 0, &o.cfg.full_source_path,
			    "Show full source file name path for source lines"),
		SPEC_TEXT("graph-function", 0, &dummy_s, "symbol[,symbol...]",
			   "Only print symbols and callees with --call-trace/--call-ret-trace"),
		SPEC_FLAG("guest-code", 0, &dummy_b, "Guest code can be found in hypervisor process"),
		SPEC_TEXT("guestkallsyms", 0, &dummy_s, "file",
			   "file saving guest os /proc/kallsyms"),
		SPEC_TEXT("guestmodules", 0, &dummy_s, "file", "file saving guest os /proc/modules"),
		SPEC_TEXT("guestmount", 0, &dummy_s, "directory",
			   "guest mount directory under which every guest os instance has a subdir"),
		SPEC_TEXT("guestvmlinux", 0, &dummy_s, "file", "file saving guest os vmlinux"),
		SPEC_FLAG("header", 0, &o.header, "Show data header."),
		SPEC_FLAG("header-only", 0, &o.header_only, "Show only data header."),
		SPEC_FLAG("inline", 0, &dummy_b, "Show inline function"),
		SPEC_FN_OPTVAL("insn-trace", 0, NULL, "raw|disasm",
				    "Decode instructions from itrace", ignore_cb),
		SPEC_FN_OPTVAL("itrace", 0, NULL, "opts", itrace_help, ignore_cb),
		SPEC_TEXT("kallsyms", 0, &o.kallsyms, "file", "kallsyms pathname"),
		SPEC_FN_NOVAL("list-dlfilters", 0, NULL, "list available dlfilters",
				   ignore_cb),
		SPEC_INT("max-blocks", 0, &dummy_i,
			    "Maximum number of code blocks to dump with brstackinsn"),
		SPEC_INT("max-stack", 0, &max_stack,
			    "Set the maximum stack depth when parsing the callchain, anything beyond the specified depth will be ignored. Default: kernel.perf_event_max_stack or 127"),
		SPEC_FLAG("ns", 0, &ns, "Use 9 decimal places when displaying time"),
		SPEC_FLAG("per-event-dump", 0, &o.per_event_dump,
			    "Dump trace output to files named by the monitored events"),
		SPEC_TEXT("pid", 0, &o.pid_list, "pid[,pid...]", "only consider symbols in these pids"),
		SPEC_FLAG("reltime", 0, &o.cfg.reltime, "Show time stamps relative to start"),
		SPEC_FLAG("show-bpf-events", 0, &o.view.show_bpf_events,
			    "Show bpf related events (if recorded)"),
		SPEC_FLAG("show-cgroup-events", 0, &o.view.show_cgroup_events,
			    "Show cgroup events (if recorded)"),
		SPEC_FLAG("show-kernel-path", 0, &o.cfg.show_kernel_path,
			    "Show the path of [kernel.kallsyms]"),
		SPEC_FLAG("show-lost-events", 0, &o.view.show_lost_events,
			    "Show lost events (if recorded)"),
		SPEC_FLAG("show-mmap-events", 0, &o.view.show_mmap_events, "Show the mmap events"),
		SPEC_FLAG("show-namespace-events", 0, &o.view.show_namespace_events,
			    "Show namespace events (if recorded)"),
		SPEC_FLAG("show-on-off-events", 0, &o.view.show_on_off_events,
			    "Show the on/off switch events, used with --switch-on and --switch-off"),
		SPEC_FLAG("show-round-events", 0, &o.view.show_round_events,
			    "Show round events (if recorded)"),
		SPEC_FLAG("show-switch-events", 0, &o.view.show_switch_events,
			    "Show context switch events (if recorded)"),
		SPEC_FLAG("show-task-events", 0, &o.view.show_task_events,
			    "Show the fork/comm/exit events"),
		SPEC_FLAG("show-text-poke-events", 0, &o.view.show_text_poke_events,
			    "Show text poke related events (if recorded)"),
		SPEC_FLAG("stitch-lbr", 0, &dummy_b, "Enable LBR callgraph stitching approach"),
		SPEC_TEXT("stop-bt", 0, &o.stop_bt, "symbol[,symbol...]",
			   "Stop display of callgraph at these symbols"),
		SPEC_TEXT("switch-off", 0, &o.switch_off, "event",
			   "Stop considering events after the ocurrence of this event"),
		SPEC_TEXT("switch-on", 0, &o.switch_on, "event",
			   "Consider events after the ocurrence of this event"),
		SPEC_TEXT("symfs", 0, &o.symfs, "directory",
			   "Look for files with symbols relative to this directory"),
		SPEC_TEXT("tid", 0, &o.tid_list, "tid[,tid...]", "only consider symbols in these tids"),
		SPEC_TEXT("time", 0, &o.time_str, "str", "Time span of interest (start,stop)"),
		{ .kind = OPTK_HANDLER, .name = "xed", .label = "=...",
		  .desc = "Run xed disassembler on output", .handler = ignore_cb,
		  .traits = OPTT_VALUE_OPTIONAL | OPTT_LABEL_AS_IS },
		SPEC_END(),
	};

	argc = opts_parse(argc, argv, options, script_usage, OPTS_STOP_AT_ARG);
	if (script_lang_wanted(argc))
		return script_lang_run(&o, argc, argv);
	if (o.view.dump_unsorted)
		o.view.dump_raw = true;
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
	if (folded)
		return script_folded(&o, max_stack);
	reader = data_open_for_read(o.input, o.force);
	if (!reader)
		return 255;
	return script_session(&o, reader);
}
