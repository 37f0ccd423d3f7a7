/* SPDX-License-Identifier: MIT */
/* sonde stat's internals shared by cmd/stat.c (options) and cmd/stat-measure.c (one measured run). */
#ifndef SONDE_CMD_STAT_H
#define SONDE_CMD_STAT_H

#include "core/evlist.h"
#include "core/stat-run.h"
#include "ui/stat-display.h"

#include <stdbool.h>

struct data_writer;

/* struct stat_opts - everything one "sonde stat" invocation was asked for. */
struct stat_opts {
	struct evlist *evlist;
	struct target target;
	struct stat_config cfg;
	bool no_aggr, per_core, per_socket, per_die, per_node, per_thread;
	bool group, no_inherit, sync_run, all_user, all_kernel, quiet, append;
	bool null_run, json, metric_only, table, summary, no_csv_summary, interval_clear;
	bool no_merge, topdown, smi_cost, hybrid_merge, percore_show_thread;
	bool metric_no_group, metric_no_merge, transaction;
	int big_num_opt; /* -1 unset, 0 --no-big-num, 1 -B */
	int detailed;
	int verbose_lvl;
	int run_count;
	int initial_delay;
	unsigned int interval, interval_count, timeout;
	int log_fd;
	const char *csv_sep, *output_name, *pre_cmd, *post_cmd, *cgroup, *metrics;
	const char *control, *cputype, *iostat, *for_each_cgroup;
	int td_level;
	bool scale_set;
	u64 run_start_ns, run_end_ns; /* this run's counting window */
	struct stat_run_opts run;
	/* stat record: the data file, the command line for its CMDLINE, the open writer */
	const char *record_path;
	int orig_argc;
	const char **orig_argv;
	struct data_writer *writer;
	bool writer_started; /* attrs and maps written */
};

/* stat_on_signal - SIGINT/SIGTERM/SIGCHLD handler of the run. */
void stat_on_signal(int sig);

/* stat_run_once - one run: the workload's wait status (or 0), or -1 after printing an error. */
int stat_run_once(struct stat_opts *o, int argc, const char **argv, int run_idx);

/* stat_aggr_to_file - perf's number for @mode in STAT_CONFIG (cmd/stat-record.c). */
int stat_aggr_to_file(enum aggr_mode mode);
/* stat_record_open - create the data file (the old one kept as .old) before the run. 0 or -errno. */
int stat_record_open(struct stat_opts *o);
/* stat_record_round - stat record -I: the readings as STAT records and an INTERVAL round. 0 or -errno. */
int stat_record_round(struct stat_opts *o, u64 time_ns);
/* stat_record_finish - the last readings (and the FINAL round), features, close. 0 or -errno. */
int stat_record_finish(struct stat_opts *o, u64 elapsed_ns);

/* cmd_stat_report - "stat report" (argv[0] is "report"); @orig_argv is freed by the caller. */
int cmd_stat_report(int argc, const char **argv, int orig_argc, const char **orig_argv);

#endif
