/* SPDX-License-Identifier: MIT */
/* perf stat's output: the counter table, CSV, interval lines, derived metrics, header and footer. */
#ifndef SONDE_UI_STAT_DISPLAY_H
#define SONDE_UI_STAT_DISPLAY_H

#include "core/counts.h"
#include "core/evlist.h"

#include <stdbool.h>
#include <stdio.h>
#include <sys/resource.h>
#include <time.h>

/* struct stat_config - how to print (filled by cmd/stat.c). */
struct stat_config {
	enum aggr_mode aggr_mode;
	FILE *output;		/* stderr unless -o/--log-fd */
	const char *csv_sep;	/* " " for the table, -x's separator for CSV */
	bool csv_output;
	bool json_output;
	bool big_num;
	bool scale;
	bool null_run;
	bool metric_only;
	bool no_csv_summary;
	bool summary;		/* --summary: print the totals after interval output */
	bool interval_clear;
	bool ru_display;	/* print "seconds user/sys" (a forked workload, run once) */
	bool walltime_run_table; /* --table */
	int run_count;		/* -r N (1 without) */
	int interval;		/* -I ms, 0 when off */
	int unit_width;
	int num_print_interval; /* header reprinted every 25 intervals */
	struct stats walltime_stats; /* ns, over runs (or intervals) */
	u64 *walltime_run;	/* [run_count] for --table */
	struct rusage ru;	/* the workload's, from wait4 */
	const struct target *target;
	int argc;		/* the workload's argv, for the header */
	const char **argv;
	struct aggr_map *aggr_map;
	/* stat report -I: metrics from each aggregate's mean over the intervals so far, as perf's */
	bool shadow_running_mean;
};

/* stat_config_init - defaults: global aggregation, stderr, scaling on, one run. */
void stat_config_init(struct stat_config *cfg);

/* stat_evsel_unit - the unit perf prints for @evsel ("msec" for clocks, PMU alias units). */
const char *stat_evsel_unit(const struct evsel *evsel);
/* stat_evsel_scale - the factor applied to counts before printing (1e-6 for clocks). */
double stat_evsel_scale(const struct evsel *evsel);

/*
 * stat_print_counters - print every event of @evlist (their evsel_stat in
 * evsel->priv) in the configured layout. @ts is the interval timestamp
 * (NULL for the final report, which adds perf's header and footer).
 */
void stat_print_counters(struct stat_config *cfg, struct evlist *evlist, const struct timespec *ts);

/* stat_print_verbose_counts - perf -v's "name: val ena run" line for one aggregate. */
void stat_print_verbose_counts(struct stat_config *cfg, const struct evsel *evsel,
			       const struct perf_counts_values *v, int cpu);

/* stat_format_count - the value column text of the table (exposed for unit tests). */
void stat_format_count(char *buf, size_t len, double uval, bool big_num, int width);

#endif
