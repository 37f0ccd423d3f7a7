/* SPDX-License-Identifier: MIT */
/* sonde: global options, the command table and dispatch (also when run as "perf"). */
#include "builtin.h"
#include "lib/debug.h"
#include "lib/optspec.h"
#include "lib/xalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>




struct cmd_struct {
	const char *name;
	int (*fn)(int argc, const char **argv);
	const char *help; /* perf's one-line description, shown by "perf" and "perf help" */
};

/* Listed in perf's order; fn == NULL means not implemented yet. */
static const struct cmd_struct commands[] = {
	{ "annotate", cmd_annotate, "Read perf.data (created by perf record) and display annotated code" },
	{ "archive", cmd_archive, "Create archive with object files with build-ids found in perf.data file" },
	{ "bench", cmd_bench, "General framework for benchmark suites" },
	{ "buildid-cache", cmd_buildid_cache, "Manage build-id cache." },
	{ "buildid-list", cmd_buildid_list, "List the buildids in a perf.data file" },
	{ "c2c", cmd_c2c, "Shared Data C2C/HITM Analyzer." },
	{ "data", cmd_data, "Data file related processing" },
	{ "diff", cmd_diff, "Read perf.data files and display the differential profile" },
	{ "evlist", cmd_evlist, "List the event names in a perf.data file" },
	{ "flamegraph", cmd_flamegraph, "Draw a flame graph (SVG/HTML) or fold the stacks of perf.data" },
	{ "heatmap", cmd_heatmap, "Draw latency or sub-second offset heat maps (SVG) from perf.data" },
	{ "inject", cmd_inject, "Filter to augment the events stream with additional information" },
	{ "kmem", cmd_kmem, "Tool to trace/measure kernel memory properties" },
	{ "kvm", cmd_kvm, "Tool to trace/measure kvm guest os" },
	{ "list", cmd_list, "List all symbolic event types" },
	{ "lock", cmd_lock, "Analyze lock events" },
	{ "mem", cmd_mem, "Profile memory accesses" },
	{ "record", cmd_record, "Run a command and record its profile into perf.data" },
	{ "report", cmd_report, "Read perf.data (created by perf record) and display the profile" },
	{ "sched", cmd_sched, "Tool to trace/measure scheduler properties (latencies)" },
	{ "script", cmd_script, "Read perf.data (created by perf record) and display trace output" },
	{ "stat", cmd_stat, "Run a command and gather performance counter statistics" },
	{ "test", cmd_test, "Runs sanity tests." },
	{ "timechart", cmd_timechart, "Tool to visualize total system behavior during a workload" },
	{ "top", cmd_top, "System profiling tool." },
	{ "version", cmd_version, "display the version of perf binary" },
	{ "probe", cmd_probe, "Define new dynamic tracepoints" },
	{ "trace", cmd_trace, "strace inspired tool" },
};

static void print_main_usage(FILE *f)
{
	fprintf(f, "\n usage: %s [--version] [--help] [OPTIONS] COMMAND [ARGS]\n\n", prog_name);
	fprintf(f, " The most commonly used %s commands are:\n", prog_name);
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(f, "   %-15s %s\n", commands[i].name, commands[i].help);
	fprintf(f, "\n See '%s help COMMAND' for more information on a specific command.\n\n",
		prog_name);
}

static const struct cmd_struct *find_command(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

static int run_command(const struct cmd_struct *cmd, int argc, const char **argv)
{
	int status = cmd->fn(argc, argv);

	/* a failed write to stdout (full disk, closed pipe) is an error too */
	if (fflush(stdout) || ferror(stdout)) {
		if (errno != EPIPE)
			fprintf(stderr, "write failure on standard output: %s\n", strerror(errno));
		return 255;
	}
	if (status < 0)
		return 255;
	return status & 0xff;
}

/* --debug verbose=N and friends */
static int handle_debug(const char *arg)
{
	if (!strncmp(arg, "verbose", 7)) {
		verbose = arg[7] == '=' ? atoi(arg + 8) : 1;
		return 0;
	}
	/* perf's other debug variables are accepted and ignored */
	if (strchr(arg, '=') || !strcmp(arg, "ordered-events") || !strcmp(arg, "stderr") ||
	    !strcmp(arg, "data-convert") || !strcmp(arg, "perf-event-open"))
		return 0;
	fprintf(stderr, "invalid variable: %s\n", arg);
	return -1;
}

static int help_command(int argc, const char **argv)
{
	const struct cmd_struct *cmd;
	const char *h[] = { argc > 1 ? argv[1] : "", "-h", NULL };

	if (argc < 2) {
		print_main_usage(stdout);
		return 0;
	}
	cmd = find_command(argv[1]);
	if (!cmd) {
		fprintf(stderr, "%s: '%s' is not a %s-command. See '%s --help'.\n", prog_name,
			argv[1], prog_name, prog_name);
		return 1;
	}
	/* no man pages of our own: the option summary is the help */
	return run_command(cmd, 2, h);
}

int main(int argc, const char **argv)
{
	const struct cmd_struct *cmd;
	const char *slash = strrchr(argv[0], '/');
	const char *self = slash ? slash + 1 : argv[0];

	prog_name = !strcmp(self, "perf") ? "perf" : "sonde";
	page_size = sysconf(_SC_PAGESIZE);

	/* a link named after a command runs it: "trace -p 1" */
	if (strcmp(self, "perf") && strcmp(self, "sonde") && (cmd = find_command(self)))
		return run_command(cmd, argc, argv);

	argc--;
	argv++;
	while (argc > 0 && argv[0][0] == '-') {
		const char *opt = argv[0];

		if (!strcmp(opt, "--version") || !strcmp(opt, "-v") || !strcmp(opt, "-vv")) {
			const char *v[] = { "version", NULL };

			return run_command(find_command("version"), 1, v);
		} else if (!strcmp(opt, "--help") || !strcmp(opt, "-h")) {
			print_main_usage(stdout);
			return 0;
		} else if (!strcmp(opt, "--debug")) {
			if (argc < 2) {
				fprintf(stderr, "No variable specified for --debug.\n");
				print_main_usage(stderr);
				return 129;
			}
			if (handle_debug(argv[1]))
				return 129;
			argc--;
			argv++;
		} else if (!strcmp(opt, "--no-pager") || !strcmp(opt, "-P") ||
			   !strcmp(opt, "-p") || !strcmp(opt, "--paginate") ||
			   !strcmp(opt, "--no-color") || !strcmp(opt, "--color")) {
			/* no pager: output goes straight to stdout */
		} else if (!strcmp(opt, "--list-cmds")) {
			for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
				printf("%s ", commands[i].name);
			printf("\n");
			return 0;
		} else if (!strncmp(opt, "--buildid-dir", 13) || !strncmp(opt, "--exec-path", 11)) {
			if (!strchr(opt, '=')) {
				if (argc < 2)
					return 129;
				if (!strcmp(opt, "--buildid-dir"))
					setenv("PERF_BUILDID_DIR", argv[1], 1);
				argc--;
				argv++;
			} else if (!strncmp(opt, "--buildid-dir=", 14)) {
				setenv("PERF_BUILDID_DIR", opt + 14, 1);
			}
		} else {
			fprintf(stderr, "Unknown option: %s\n", opt);
			print_main_usage(stderr);
			return 129;
		}
		argc--;
		argv++;
	}
	if (argc == 0) {
		print_main_usage(stdout);
		return 1;
	}
	if (!strcmp(argv[0], "help"))
		return help_command(argc, argv);
	cmd = find_command(argv[0]);
	if (!cmd) {
		fprintf(stderr, "%s: '%s' is not a %s-command. See '%s --help'.\n", prog_name,
			argv[0], prog_name, prog_name);
		return 1;
	}
	return run_command(cmd, argc, argv);
}
