/* SPDX-License-Identifier: MIT */
/* sonde stat: count events for a command, processes, threads or cpus, and print perf's report. */
#include "builtin.h"
#include "cmd/stat.h"
#include "core/counts.h"
#include "core/cpumap.h"
#include "core/evlist-open.h"
#include "core/parse-events.h"
#include "core/stat-run.h"
#include "core/sys.h"
#include "core/threadmap.h"
#include "lib/debug.h"
#include "lib/optspec.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include "lib/xalloc.h"
#include "cmd/events-option.h"
#include "data/writer.h"
#include "ui/stat-display.h"

#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* perf 6.1's default lists: plain, then what -d, -dd and -ddd add */
static const char *const default_events =
	"task-clock,context-switches,cpu-migrations,page-faults,cycles,instructions,branches,"
	"branch-misses";
/* ... with the stall counters when the cpu PMU has them (perf asks sysfs too) */
static const char *const default_events_stalls =
	"task-clock,context-switches,cpu-migrations,page-faults,cycles,stalled-cycles-frontend,"
	"stalled-cycles-backend,instructions,branches,branch-misses";
static const char *const detailed_events[] = {
	"L1-dcache-loads,L1-dcache-load-misses,LLC-loads,LLC-load-misses",
	"L1-icache-loads,L1-icache-load-misses,dTLB-loads,dTLB-load-misses,iTLB-loads,"
	"iTLB-load-misses",
	"L1-dcache-prefetches,L1-dcache-prefetch-misses",
};


/*
 * perf's usage block for a rejected option combination: each name is a
 * one-letter short option or a long one; a leading '!' prints the
 * "Usage:" head before that option's line. The list ends with NULL.
 */
static void print_usage_for(const char *const usage[], const struct opt_spec *options, ...)
{
	va_list ap;
	const char *n;

	va_start(ap, options);
	while ((n = va_arg(ap, const char *))) {
		bool head = *n == '!';

		if (head)
			n++;
		if (strlen(n) == 1)
			opts_usage_for(head ? usage : NULL, options, n[0], NULL);
		else
			opts_usage_for(head ? usage : NULL, options, 0, n);
	}
	va_end(ap);
}

/* -G: the cgroups of the events given so far (cmd/events-option.c) */
static int cgroup_cb(const struct opt_spec *opt, const char *arg, int unset)
{
	struct stat_opts *o = opt->dest;

	if (unset || !arg)
		return 0;
	o->cgroup = arg;
	return evlist_add_cgroups_option(o->evlist, arg);
}

static int big_num_cb(const struct opt_spec *opt, const char *arg, int unset)
{
	int *v = opt->dest;

	(void)arg;
	*v = unset ? 0 : 1;
	return 0;
}

static int enable_metric_only(const struct opt_spec *opt, const char *arg, int unset)
{
	bool *v = opt->dest;

	(void)arg;
	*v = !unset;
	return 0;
}

/*
 * -T, --topdown and --smi-cost need hardware this machine may not have:
 * perf's messages and status (234) when it does not.
 */
static int setup_special_events(struct stat_opts *o)
{
	if (o->transaction) {
		struct parse_events_error err = PARSE_EVENTS_ERROR_INIT;
		const char *spec =
			access("/sys/bus/event_source/devices/cpu/events/el-start", F_OK) ?
				"task-clock,{instructions,cycles,cpu/cycles-t/,cpu/tx-start/,cpu/cycles-ct/}" :
				"task-clock,{instructions,cycles,cpu/cycles-t/,cpu/tx-start/,cpu/el-start/,cpu/cycles-ct/}";

		if (!o->evlist)
			o->evlist = evlist_new();
		if (parse_events(o->evlist, spec, &err)) {
			fprintf(stderr, "Cannot set up transaction events\n");
			if (err.event) {
				struct strbuf sb = STRBUF_INIT;

				parse_events_error_format(&err, term_width(), &sb);
				fputs(sb.buf, stderr);
				strbuf_release(&sb);
			}
			parse_events_error_release(&err);
			return 234;
		}
		parse_events_error_release(&err);
	}
	if (o->topdown) {
		if (!o->target.system_wide && !o->target.cpu_list) {
			fprintf(stderr, "top down event configuration requires system-wide mode (-a)\n");
			return 234;
		}
		if (access("/sys/bus/event_source/devices/cpu/events/topdown-total-slots", F_OK) &&
		    access("/sys/bus/event_source/devices/cpu/events/slots", F_OK)) {
			fprintf(stderr, "System does not support topdown\n");
			return 234;
		}
	}
	if (o->smi_cost && access("/sys/bus/event_source/devices/cpu/freeze_on_smi", F_OK)) {
		fprintf(stderr, "freeze_on_smi is not supported.\n");
		return 234;
	}
	return 0;
}

static void setup_default_events(struct stat_opts *o)
{
	struct parse_events_error err = PARSE_EVENTS_ERROR_INIT;
	struct evsel *e;
	bool add_defaults = !o->evlist || !o->evlist->nr_entries;

	if (!o->evlist)
		o->evlist = evlist_new();
	if (add_defaults &&
	    parse_events(o->evlist,
			 access("/sys/bus/event_source/devices/cpu/events/stalled-cycles-frontend",
				F_OK) ? default_events : default_events_stalls,
			 &err) == 0) {
		evlist_for_each_entry(o->evlist, e)
			e->is_optional = true;
	}
	parse_events_error_release(&err);
	if (add_defaults) {
		for (int i = 0; i < o->detailed && i < 3; i++) {
			struct parse_events_error derr = PARSE_EVENTS_ERROR_INIT;

			parse_events(o->evlist, detailed_events[i], &derr);
			parse_events_error_release(&derr);
		}
	}
}

static const char *const stat_usage[] = {
	"perf stat [<options>] [<command>]",
	NULL
};

static const char *const stat_record_usage[] = {
	"perf stat record [<options>]",
	NULL
};

int cmd_stat(int argc, const char **argv)
{
	struct stat_opts o;
	int status = 0, ret = 0;
	bool forever = false;
	FILE *out = stderr;
	struct sigaction sa;

	/* the command line as given, for a stat file's CMDLINE */
	int orig_argc = argc + 1;
	const char **orig_argv = xcalloc(argc + 2, sizeof(*orig_argv));

	orig_argv[0] = prog_name;
	memcpy(orig_argv + 1, argv, argc * sizeof(*argv));
	memset(&o, 0, sizeof(o));
	o.big_num_opt = -1;
	o.run_count = 1;
	o.log_fd = -1;
	stat_config_init(&o.cfg);

	struct opt_spec options[] = {
		SPEC_FLAG("transaction", 'T', &o.transaction, "hardware transaction statistics"),
		SPEC_FN_NONEG("event", 'e', &o.evlist, "event",
			     "event selector. use 'perf list' to list available events",
			     parse_events_option_stat),
		SPEC_FN("filter", 0, &o.evlist, "filter", "event filter", parse_filter_option),
		SPEC_FLAG("no-inherit", 'i', &o.no_inherit, "child tasks do not inherit counters"),
		SPEC_TEXT("pid", 'p', &o.target.pid, "pid", "stat events on existing process id"),
		SPEC_TEXT("tid", 't', &o.target.tid, "tid", "stat events on existing thread id"),
		SPEC_FLAG("all-cpus", 'a', &o.target.system_wide, "system-wide collection from all CPUs"),
		SPEC_FLAG("group", 'g', &o.group, "put the counters into a counter group"),
		SPEC_FLAG("scale", 0, &o.cfg.scale, "Use --no-scale to disable counter scaling for multiplexing"),
		SPEC_COUNT("verbose", 'v', &o.verbose_lvl, "be more verbose (show counter open errors, etc)"),
		SPEC_INT("repeat", 'r', &o.run_count, "repeat command and print average + stddev (max: 100, forever: 0)"),
		SPEC_FLAG("table", 0, &o.table, "display details about each run (only with -r option)"),
		SPEC_FLAG("null", 'n', &o.null_run, "null run - dont start any counters"),
		SPEC_COUNT("detailed", 'd', &o.detailed, "detailed run - start a lot of events"),
		SPEC_FLAG("sync", 'S', &o.sync_run, "call sync() before starting a run"),
		SPEC_FN_NOVAL("big-num", 'B', &o.big_num_opt,
				   "print large numbers with thousands' separators", big_num_cb),
		SPEC_TEXT("cpu", 'C', &o.target.cpu_list, "cpu", "list of cpus to monitor in system-wide"),
		SPEC_FLAG("no-aggr", 'A', &o.no_aggr, "disable CPU count aggregation"),
		SPEC_FLAG("no-merge", 0, &o.no_merge, "Do not merge identical named events"),
		SPEC_FLAG("hybrid-merge", 0, &o.hybrid_merge, "Merge identical named hybrid events"),
		SPEC_TEXT("field-separator", 'x', &o.csv_sep, "separator", "print counts with custom separator"),
		SPEC_FLAG("json-output", 'j', &o.json, "print counts in JSON format"),
		SPEC_FN_NONEG("cgroup", 'G', &o, "name", "monitor event in cgroup name only", cgroup_cb),
		SPEC_TEXT("output", 'o', &o.output_name, "file", "output file name"),
		SPEC_FLAG("append", 0, &o.append, "append to the output file"),
		SPEC_INT("log-fd", 0, &o.log_fd, "log output to fd, instead of stderr"),
		SPEC_TEXT("pre", 0, &o.pre_cmd, "command", "command to run prior to the measured command"),
		SPEC_TEXT("post", 0, &o.post_cmd, "command", "command to run after to the measured command"),
		SPEC_UINT("interval-print", 'I', &o.interval,
			     "print counts at regular interval in ms (overhead is possible for values <= 100ms)"),
		SPEC_UINT("interval-count", 0, &o.interval_count, "print counts for fixed number of times"),
		SPEC_FLAG("interval-clear", 0, &o.interval_clear, "clear screen in between new interval"),
		SPEC_UINT("timeout", 0, &o.timeout,
			     "stop workload and print counts after a timeout period in ms (>= 10ms)"),
		SPEC_FLAG("per-socket", 0, &o.per_socket, "aggregate counts per processor socket"),
		SPEC_FLAG("per-die", 0, &o.per_die, "aggregate counts per processor die"),
		SPEC_FLAG("per-core", 0, &o.per_core, "aggregate counts per physical processor core"),
		SPEC_FLAG("per-thread", 0, &o.per_thread, "aggregate counts per thread"),
		SPEC_FLAG("per-node", 0, &o.per_node, "aggregate counts per numa node"),
		SPEC_INT("delay", 'D', &o.initial_delay,
			    "ms to wait before starting measurement after program start (-1: start with events disabled)"),
		SPEC_FN_NOVAL("metric-only", 0, &o.metric_only,
				   "Only print computed metrics. No raw values", enable_metric_only),
		SPEC_FLAG("metric-no-group", 0, &o.metric_no_group,
			    "don't group metric events, impacts multiplexing"),
		SPEC_FLAG("metric-no-merge", 0, &o.metric_no_merge,
			    "don't try to share events between metrics in a group"),
		SPEC_FLAG("topdown", 0, &o.topdown, "measure top-down statistics"),
		SPEC_UINT("td-level", 0, (unsigned int *)&o.td_level,
			     "Set the metrics level for the top-down statistics (0: max level)"),
		SPEC_FLAG("smi-cost", 0, &o.smi_cost, "measure SMI cost"),
		SPEC_TEXT_NONEG("metrics", 'M', &o.metrics, "metric/metric group list",
			   "monitor specified metrics or metric groups (separated by ,)"),
		SPEC_FLAG("all-kernel", 0, &o.all_kernel, "Configure all used events to run in kernel space."),
		SPEC_FLAG("all-user", 0, &o.all_user, "Configure all used events to run in user space."),
		SPEC_FLAG("percore-show-thread", 0, &o.percore_show_thread,
			    "Use with 'percore' event qualifier to show the event counts of one hardware thread by sum up total hardware threads of same physical core"),
		SPEC_FLAG("summary", 0, &o.summary, "print summary for interval mode"),
		SPEC_FLAG("no-csv-summary", 0, &o.no_csv_summary, "don't print 'summary' for CSV summary output"),
		SPEC_FLAG("quiet", 0, &o.quiet, "don't print any output, messages or warnings (useful with record)"),
		SPEC_TEXT("cputype", 0, &o.cputype, "hybrid cpu type",
			   "Only enable events on applying cpu with this type for hybrid platform (e.g. core or atom)"),
		SPEC_TEXT_OPT("iostat", 0, &o.iostat, "default",
				  "measure I/O performance metrics provided by arch/platform", "default"),
		SPEC_TEXT("for-each-cgroup", 0, &o.for_each_cgroup, "name", "expand events for each cgroup"),
		SPEC_TEXT("control", 0, &o.control, "fd:ctl-fd[,ack-fd] or fifo:ctl-fifo[,ack-fifo]",
			   "Listen on ctl-fd descriptor for command to control measurement ('enable': enable events, 'disable': disable events).\n"
			   "\t\t\t  Optionally send control command completion ('ack\\n') to ack-fd descriptor.\n"
			   "\t\t\t  Alternatively, ctl-fifo / ack-fifo will be opened and used as ctl-fd / ack-fd."),
		SPEC_END()
	};

	setlocale(LC_ALL, "");
	argc = opts_parse(argc, argv, options, stat_usage, OPTS_STOP_AT_ARG);
	verbose += o.verbose_lvl;
	/* perf takes "rec".."record" and "rep".."report" as its stat record/report modes */
	if (argc && cmd_is_abbrev(argv[0], "report")) {
		evlist_free(o.evlist);
		ret = cmd_stat_report(argc, argv, orig_argc, orig_argv);
		free(orig_argv);
		return ret;
	}
	if (argc && cmd_is_abbrev(argv[0], "record")) {
		/* the record mode's own options follow it; -o names the data file */
		argc = opts_parse(argc, argv, options, stat_record_usage, OPTS_STOP_AT_ARG);
		o.record_path = o.output_name ? o.output_name : "perf.data";
		o.output_name = NULL;
		o.orig_argc = orig_argc;
		o.orig_argv = orig_argv;
	}
	if (o.quiet)
		quiet = 1;

	/* ---- validation, in perf's order and with its texts ---- */
	if (o.csv_sep) {
		o.cfg.csv_output = true;
		o.cfg.csv_sep = !strcmp(o.csv_sep, "\\t") ? "\t" : o.csv_sep;
	}
	if (o.cfg.csv_output && o.big_num_opt == 1) {
		fprintf(stderr, "-B option not supported with -x\n");
		print_usage_for(stat_usage, options, "!B", "x", NULL);
		ret = 234;
		goto out;
	}
	o.cfg.big_num = o.big_num_opt != 0 && !o.cfg.csv_output;
	if (o.output_name && o.log_fd >= 0) {
		fprintf(stderr, "cannot use both --output and --log-fd\n");
		print_usage_for(stat_usage, options, "!o", "log-fd", NULL);
		ret = 234;
		goto out;
	}
	if (o.metric_only && o.run_count > 1) {
		fprintf(stderr, "--metric-only is not supported with -r\n");
		ret = 234;
		goto out;
	}
	if (o.table && o.run_count <= 1) {
		fprintf(stderr, "--table is only supported with -r\n");
		print_usage_for(stat_usage, options, "!r", "table", NULL);
		ret = 234;
		goto out;
	}
	if (o.output_name) {
		out = fopen(o.output_name, o.append ? "a" : "w");
		if (!out) {
			perror("failed to create output file");
			ret = 255;
			goto out;
		}
		{
			time_t now = time(NULL);

			fprintf(out, "# started on %s\n", ctime(&now));
		}
	} else if (o.log_fd >= 0) {
		out = fdopen(o.log_fd, o.append ? "a" : "w");
		if (!out) {
			perror("Failed opening logfd");
			ret = 234; /* perf: -errno of fdopen */
			goto out;
		}
	}
	/* the report goes out in a few large writes, not one per field */
	setvbuf(out, NULL, _IOFBF, 16384);
	o.cfg.output = out;
	o.cfg.null_run = o.null_run;
	o.cfg.metric_only = o.metric_only;
	o.cfg.json_output = o.json;
	o.cfg.interval_clear = o.interval_clear;
	o.cfg.no_csv_summary = o.no_csv_summary;

	if (o.no_aggr)
		o.cfg.aggr_mode = AGGR_NONE;
	if (o.per_socket)
		o.cfg.aggr_mode = AGGR_SOCKET;
	if (o.per_die)
		o.cfg.aggr_mode = AGGR_DIE;
	if (o.per_core)
		o.cfg.aggr_mode = AGGR_CORE;
	if (o.per_node)
		o.cfg.aggr_mode = AGGR_NODE;
	if (o.per_thread) {
		o.cfg.aggr_mode = AGGR_THREAD;
		o.target.per_thread = true;
	}

	/* a task target wins over cpu targets, with perf's warnings */
	if (o.target.pid || o.target.tid) {
		if (o.target.cpu_list) {
			fprintf(stderr, "PID/TID switch overriding CPU\n");
			o.target.cpu_list = NULL;
		}
		if (o.target.system_wide) {
			fprintf(stderr, "PID/TID switch overriding SYSTEM\n");
			o.target.system_wide = false;
		}
	}
	/* no command and no target: count system-wide until Ctrl-C, as perf 6.1 does */
	if (!argc && !o.target.pid && !o.target.tid && !o.target.cpu_list)
		o.target.system_wide = true;

	if (o.run_count < 0) {
		fprintf(stderr, "Run count must be a positive number\n");
		print_usage_for(stat_usage, options, "!r", NULL);
		ret = 234;
		goto out;
	}
	if (o.run_count == 0) {
		/* "forever": run, print, start again until interrupted */
		forever = true;
		o.run_count = 1;
	}
	if (o.cfg.aggr_mode == AGGR_THREAD && !o.target.pid && !o.target.tid &&
	    !o.target.system_wide) {
		fprintf(stderr, "The --per-thread option is only available when monitoring via -p -t -a options or only --per-thread.\n");
		print_usage_for(stat_usage, options, "p", "t", NULL);
		ret = 234;
		goto out;
	}
	if (((o.cfg.aggr_mode != AGGR_GLOBAL && o.cfg.aggr_mode != AGGR_THREAD) || o.cgroup) &&
	    !o.target.system_wide && !o.target.cpu_list) {
		fprintf(stderr, "both cgroup and no-aggregation modes only available in system-wide mode\n");
		print_usage_for(stat_usage, options, "!G", "A", "a", "for-each-cgroup", NULL);
		ret = 234;
		goto out;
	}
	if (o.interval_count && !o.interval) {
		fprintf(stderr, "interval-count option should be used together with interval-print.\n");
		print_usage_for(stat_usage, options, "!interval-count", "!I", NULL);
		ret = 234;
		goto out;
	}
	if (o.timeout && o.interval) {
		fprintf(stderr, "timeout option is not supported with interval-print.\n");
		print_usage_for(stat_usage, options, "!timeout", NULL);
		ret = 234;
		goto out;
	}
	if (o.timeout && o.timeout < 100) {
		if (o.timeout < 10) {
			fprintf(stderr, "timeout must be >= 10ms.\n");
			print_usage_for(stat_usage, options, "!timeout", NULL);
			ret = 234;
			goto out;
		}
		fprintf(stderr, "timeout < 100ms. The overhead percentage could be high in some cases. Please proceed with caution.\n");
	}
	o.run.target = &o.target;
	o.run.no_inherit = o.no_inherit;
	o.run.all_user = o.all_user;
	o.run.all_kernel = o.all_kernel;
	o.run.initial_delay = o.initial_delay;
	o.cfg.run_count = o.run_count;
	o.cfg.interval = (int)o.interval;
	o.cfg.walltime_run_table = o.table;
	if (o.table)
		o.cfg.walltime_run = xcalloc(o.run_count, sizeof(u64));

	ret = setup_special_events(&o);
	if (ret)
		goto out;
	setup_default_events(&o);
	if (o.group)
		stat_set_one_group(o.evlist);

	sys_raise_nofile_limit();
	ret = evlist_create_maps(o.evlist, &o.target);
	if (!ret)
		stat_set_pmu_cpus(o.evlist, &o.target);
	if (ret == -EINVAL && o.target.cpu_list && !o.target.pid && !o.target.tid) {
		/* perf's words (and errno) for a -C list it cannot read */
		fprintf(stderr, "failed to parse CPUs map: %s\n", strerror(ENOENT));
		print_usage_for(stat_usage, options, "!C", "a", NULL);
		ret = 234;
		goto out;
	}
	if (ret) {
		fprintf(stderr, "Problems finding threads of monitor\n");
		print_usage_for(stat_usage, options, "!p", "t", NULL);
		ret = 234;
		goto out;
	}
	o.cfg.target = &o.target;
	o.cfg.argc = argc;
	o.cfg.argv = argv;
	o.cfg.ru_display = argc > 0 && !o.target.system_wide && !o.target.cpu_list &&
			   !o.target.pid && !o.target.tid && o.run_count == 1;

	if (o.record_path) {
		int err = stat_record_open(&o);

		if (err) {
			fprintf(stderr, "failed to open %s : %s\nPerf session creation failed\n",
				o.record_path, strerror(-err));
			ret = 255;
			goto out;
		}
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = stat_on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGCHLD, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	for (int run = 0; (forever || run < o.run_count) && !done_signal; run++) {
		if (o.run_count > 1 && verbose > 0)
			fprintf(out, "[ perf stat: executing run #%d ... ]\n", run + 1);
		if (o.pre_cmd && system(o.pre_cmd)) {
			ret = 255;
			break;
		}
		status = stat_run_once(&o, argc, argv, run);
		if (status < 0) {
			ret = 255;
			break;
		}
		if (o.post_cmd && system(o.post_cmd)) {
			ret = 255;
			break;
		}
		/* stat record: the last run's counts, with its workload's pid in the map */
		if (o.record_path && !forever && run == o.run_count - 1) {
			int err = stat_record_finish(&o, o.run_end_ns - o.run_start_ns);

			if (err) {
				pr_err("failed to write perf data, error: %s\n", strerror(-err));
				ret = 255;
				break;
			}
		}
		/* the next run forks a new workload: its pid goes into the same map */
		if (argc > 0 && !o.target.pid && !o.target.tid && o.evlist->threads->nr == 1 &&
		    cpu_map_is_dummy(o.evlist->cpus))
			o.evlist->threads->pids[0] = -1;
		if (forever && !done_signal) {
			/* -r 0: each run is reported on its own */
			if (!o.quiet && !o.interval)
				stat_print_counters(&o.cfg, o.evlist, NULL);
			stat_free_counters(o.evlist);
			stats_init(&o.cfg.walltime_stats);
			run = -1;
		}
	}
	if (ret == 0 && !o.quiet && (!o.interval || o.summary)) {
		if (o.interval && o.summary) {
			o.cfg.interval = 0;
			o.cfg.summary = true;
		}
		stat_print_counters(&o.cfg, o.evlist, NULL);
	}
	if (ret == 0 && argc > 0 && WIFEXITED(status))
		ret = WEXITSTATUS(status);
out:
	if (o.evlist)
		stat_free_counters(o.evlist);
	aggr_map_free(o.cfg.aggr_map);
	free(o.cfg.walltime_run);
	evlist_free(o.evlist);
	data_writer_free(o.writer); /* only left open when the run failed */
	free(orig_argv);
	if (out && out != stderr)
		fclose(out);
	else
		fflush(stderr);
	if (done_signal && argc == 0 && ret == 0) {
		/* perf dies of the Ctrl-C after printing: the caller sees status 130 */
		int sig = done_signal;

		signal(sig, SIG_DFL);
		raise(sig);
	}
	return ret;
}
