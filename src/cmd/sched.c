/* SPDX-License-Identifier: MIT */
/* sonde sched: record scheduler tracepoints (a record wrapper) and analyse them: latency, map, timehist, script. */
#include "builtin.h"
#include "cmd/open.h"
#include "data/reader.h"
#include "lib/debug.h"
#include "lib/optspec.h"
#include "lib/strvec.h"
#include "lib/xalloc.h"
#include "session/sched-replay.h"
#include "session/session.h"
#include "trace/tracefs.h"
#include "ui/sched.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const sched_usage[] = {
	"perf sched [<options>] {record|latency|map|replay|script|timehist}",
	NULL,
};

/* the options every sub-command also takes (perf sched's own) */
struct sched_globals {
	const char *input;
	bool force, dump;
};

static struct sched_globals g;

#define SCHED_GLOBAL_SPECS(hidden)                                                               \
	{ .name = "dump-raw-trace", .letter = 'D', .kind = OPTK_FLAG, .traits = (hidden),          \
	  .dest = &g.dump, .desc = "dump raw trace in ASCII" },                                    \
	{ .name = "force", .letter = 'f', .kind = OPTK_FLAG, .traits = (hidden), .dest = &g.force, \
	  .desc = "don't complain, do it" },                                                       \
	{ .name = "input", .letter = 'i', .kind = OPTK_TEXT, .traits = (hidden), .dest = &g.input, \
	  .label = "file", .desc = "input file name" },                                            \
	{ .name = "verbose", .letter = 'v', .kind = OPTK_COUNT, .traits = (hidden), .dest = &verbose, \
	  .desc = "be more verbose (show symbol address, etc)" }

/* the events perf sched record asks for, those the kernel has */
static const char *const record_events[] = {
	"sched_switch", "sched_stat_wait", "sched_stat_sleep", "sched_stat_iowait",
	"sched_stat_runtime", "sched_process_fork", "sched_wakeup_new", "sched_migrate_task",
};

/* run @fn on a copy of @v's pointers (the parser reorders its argv), then free @v */
static int sched_record(int argc, const char **argv)
{
	struct strvec v = STRVEC_INIT;
	char ev[128];
	int ret;

	strvec_push(&v, "record");
	strvec_push(&v, "-a");
	strvec_push(&v, "-R");
	strvec_push(&v, "-m");
	strvec_push(&v, "1024");
	strvec_push(&v, "-c");
	strvec_push(&v, "1");
	for (size_t i = 0; i < sizeof(record_events) / sizeof(record_events[0]); i++) {
		if (tracefs_event_id("sched", record_events[i]) < 0)
			continue;
		snprintf(ev, sizeof(ev), "sched:%s", record_events[i]);
		strvec_push(&v, "-e");
		strvec_push(&v, ev);
	}
	/* sched_waking where the kernel has it (it covers every wakeup), else sched_wakeup */
	strvec_push(&v, "-e");
	strvec_push(&v, tracefs_event_id("sched", "sched_waking") >= 0 ? "sched:sched_waking" : "sched:sched_wakeup");
	for (int i = 1; i < argc; i++)
		strvec_push(&v, argv[i]);
	ret = cmd_run_strvec(cmd_record, &v);
	return ret;
}

/* perf sched script: perf script on the file */
static int sched_script(int argc, const char **argv)
{
	struct strvec v = STRVEC_INIT;
	int ret;

	strvec_push(&v, "script");
	if (g.input) {
		strvec_push(&v, "-i");
		strvec_push(&v, g.input);
	}
	if (g.force)
		strvec_push(&v, "-f");
	for (int i = 1; i < argc; i++)
		strvec_push(&v, argv[i]);
	ret = cmd_run_strvec(cmd_script, &v);
	return ret;
}

static struct session *open_session_syms(bool symbols)
{
	struct machine_opts mopts = { .no_symbols = !symbols };
	struct data_reader *r = data_open_for_read(g.input, g.force);

	if (!r)
		return NULL;
	return session_new(r, &mopts);
}

static struct session *open_session(void)
{
	return open_session_syms(false);
}

static int finish(struct session *session, int ret)
{
	fflush(stdout);
	session_free(session);
	return ret;
}

static const char *const latency_usage[] = { "perf sched latency [<options>]", NULL };

static int sched_latency_cmd(int argc, const char **argv)
{
	struct sched_latency_opts o = { .cpu = -1, .sort = NULL };
	const char *sort = NULL;
	const struct opt_spec options[] = {
		SPEC_INT("CPU", 'C', &o.cpu, "CPU to profile on"),
		SPEC_FLAG("pids", 'p', &o.per_pid, "latency stats per pid instead of per comm"),
		SPEC_TEXT("sort", 's', &sort, "key[,key2...]",
			  "sort by key(s): runtime, switch, avg, max"),
		SCHED_GLOBAL_SPECS(OPTT_HIDDEN),
		SPEC_END(),
	};
	const char *bad;
	size_t bad_len;
	struct session *session;
	int ret;

	argc = opts_parse(argc, argv, options, latency_usage, 0);
	if (argc)
		opts_usage_exit(latency_usage, options);
	o.sort = sort ? sort : "avg,max,switch,runtime";
	if (!sched_latency_sort_valid(o.sort, &bad, &bad_len))
		opts_usage_error(latency_usage, options, "Unknown --sort key: `%.*s'", (int)bad_len,
				 bad);
	session = open_session();
	if (!session)
		return 255;
	ret = sched_latency(session, &o);
	return finish(session, ret < 0 ? 255 : 0);
}

static const char *const map_usage[] = { "perf sched map [<options>]", NULL };

static int sched_map_cmd(int argc, const char **argv)
{
	struct sched_map_opts o = { 0 };
	const struct opt_spec options[] = {
		SPEC_TEXT("color-cpus", 0, &o.color_cpus, "cpus", "highlight given CPUs in map"),
		SPEC_TEXT("color-pids", 0, &o.color_pids, "pids", "highlight given pids in map"),
		SPEC_FLAG("compact", 0, &o.compact, "map output in compact mode"),
		SPEC_TEXT("cpus", 0, &o.cpus, "cpus", "display given CPUs in map"),
		SCHED_GLOBAL_SPECS(OPTT_HIDDEN),
		SPEC_END(),
	};
	struct session *session;
	int ret;

	argc = opts_parse(argc, argv, options, map_usage, 0);
	if (argc)
		opts_usage_exit(map_usage, options);
	session = open_session();
	if (!session)
		return 255;
	ret = sched_map(session, &o);
	return finish(session, ret < 0 ? 255 : 0);
}

static const char *const timehist_usage[] = { "perf sched timehist [<options>]", NULL };

static int sched_timehist_cmd(int argc, const char **argv)
{
	struct sched_timehist_opts o = { .callchain = true, .max_stack = 5 };
	const char *cpus = NULL, *pids = NULL, *tids = NULL, *time_str = NULL, *vmlinux = NULL,
		   *kallsyms = NULL, *symfs = NULL;
	const struct opt_spec options[] = {
		SPEC_TEXT("cpu", 'C', &cpus, "cpu", "list of cpus to profile"),
		SPEC_FLAG("call-graph", 'g', &o.callchain,
			  "Display call chains if present (default on)"),
		SPEC_FLAG("idle-hist", 'I', &o.idle_hist, "Show idle events only"),
		SPEC_TEXT("vmlinux", 'k', &vmlinux, "file", "vmlinux pathname"),
		SPEC_FLAG("migrations", 'M', &o.migrations, "Show migration events"),
		SPEC_FLAG("next", 'n', &o.next, "Show next task"),
		SPEC_TEXT("pid", 'p', &pids, "pid[,pid...]",
			  "analyze events only for given process id(s)"),
		SPEC_FLAG("summary", 's', &o.summary_only, "Show only syscall summary with statistics"),
		SPEC_FLAG("with-summary", 'S', &o.with_summary,
			  "Show all syscalls and summary with statistics"),
		SPEC_TEXT("tid", 't', &tids, "tid[,tid...]",
			  "analyze events only for given thread id(s)"),
		SPEC_FLAG("cpu-visual", 'V', &o.cpu_visual, "Add CPU visual"),
		SPEC_FLAG("wakeups", 'w', &o.wakeups, "Show wakeup events"),
		SPEC_TEXT("kallsyms", 0, &kallsyms, "file", "kallsyms pathname"),
		SPEC_INT("max-stack", 0, &o.max_stack,
			 "Maximum number of functions to display backtrace."),
		SPEC_FLAG("state", 0, &o.state, "Show task state when sched-out"),
		SPEC_TEXT("symfs", 0, &symfs, "directory",
			  "Look for files with symbols relative to this directory"),
		SPEC_TEXT("time", 0, &time_str, "str", "Time span for analysis (start,stop)"),
		SCHED_GLOBAL_SPECS(OPTT_HIDDEN),
		SPEC_END(),
	};
	struct session *session;
	int ret, too_large, highest;

	argc = opts_parse(argc, argv, options, timehist_usage, 0);
	if (argc)
		opts_usage_exit(timehist_usage, options);
	if (o.wakeups && o.summary_only) {
		fprintf(stderr, "Error: -s and -w are mutually exclusive.\n");
		opts_usage_for(timehist_usage, options, 's', NULL);
		opts_usage_for(NULL, options, 'w', NULL);
		return 129;
	}
	if (pids && id_list_parse(pids, &o.pids, &o.nr_pids)) {
		fprintf(stderr, "problems parsing pid list\n");
		return 255;
	}
	if (tids && id_list_parse(tids, &o.tids, &o.nr_tids)) {
		fprintf(stderr, "problems parsing tid list\n");
		return 255;
	}
	session = open_session_syms(o.callchain);
	if (!session)
		return 255;
	if (cpus && cpu_bitmap_parse(&o.cpus, cpus, data_reader_header(session->reader)->nr_cpus_avail,
				     &too_large, &highest)) {
		fprintf(stderr, "Invalid cpu list: %s\n", cpus);
		return finish(session, 255);
	}
	if (time_str && time_spans_parse(time_str, 0, 0, &o.spans, &o.nr_spans)) {
		fprintf(stderr, "Invalid time string\n");
		return finish(session, 255);
	}
	ret = sched_timehist(session, &o);
	if (ret == 1)
		fprintf(stderr, "No sched_switch events found. Have you run 'perf sched record'?\n");
	free(o.pids);
	free(o.tids);
	free(o.spans);
	cpu_bitmap_release(&o.cpus);
	return finish(session, ret ? 255 : 0);
}

static const char *const replay_usage[] = { "perf sched replay [<options>]", NULL };

/* calibrate first (perf does, before opening the file), then model and replay */
static int sched_replay_cmd(int argc, const char **argv)
{
	unsigned int repeat = 10;
	const struct opt_spec options[] = {
		/* perf's help says -1 repeats forever, but its option takes no negative number */
		SPEC_UINT("repeat", 'r', &repeat, "repeat the workload replay N times (-1: infinite)"),
		SCHED_GLOBAL_SPECS(OPTT_HIDDEN),
		SPEC_END(),
	};
	struct sched_replay rp;
	struct session *session;
	int ret;

	argc = opts_parse(argc, argv, options, replay_usage, 0);
	if (argc)
		opts_usage_exit(replay_usage, options);
	sched_replay_init(&rp);
	sched_replay_calibrate_print(&rp);
	session = open_session();
	if (!session) {
		sched_replay_release(&rp);
		return 255;
	}
	ret = sched_replay(&rp, session, repeat);
	sched_replay_release(&rp);
	return finish(session, ret < 0 ? 255 : 0);
}

int cmd_sched(int argc, const char **argv)
{
	const struct opt_spec options[] = {
		SCHED_GLOBAL_SPECS(0),
		SPEC_END(),
	};
	const char *sub;

	argc = opts_parse(argc, argv, options, sched_usage, OPTS_STOP_AT_ARG);
	if (argc < 1)
		opts_usage_exit(sched_usage, options);
	sub = argv[0];
	if (cmd_is_abbrev(sub, "record"))
		return sched_record(argc, argv);
	if (cmd_is_abbrev(sub, "latency"))
		return sched_latency_cmd(argc, argv);
	if (!strcmp(sub, "map"))
		return sched_map_cmd(argc, argv);
	if (!strcmp(sub, "script"))
		return sched_script(argc, argv);
	if (!strcmp(sub, "timehist"))
		return sched_timehist_cmd(argc, argv);
	if (cmd_is_abbrev(sub, "replay"))
		return sched_replay_cmd(argc, argv);
	opts_usage_exit(sched_usage, options);
}
