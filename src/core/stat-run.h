/* SPDX-License-Identifier: MIT */
/*
 * perf stat's counting logic below the command: the attr defaults stat puts
 * on parsed events, opening them with perf's fallbacks (unsupported events,
 * user-only counting under perf_event_paranoid), PMU cpumask events, tool
 * events (duration_time, user_time, system_time) and reading + aggregating.
 * Nothing here prints: notes and errors go back to the caller.
 */
#ifndef SONDE_CORE_STAT_RUN_H
#define SONDE_CORE_STAT_RUN_H

#include "core/counts.h"
#include "core/evlist.h"

#include <stdbool.h>
#include <sys/resource.h>

/* struct stat_run_opts - the options that shape the attrs. */
struct stat_run_opts {
	const struct target *target;
	bool no_inherit;   /* -i */
	bool all_user;	   /* --all-user */
	bool all_kernel;   /* --all-kernel */
	int initial_delay; /* -D ms; -1: start disabled */
};

/* stat_enable_on_exec - counting starts at the workload's exec (no attach target, no delay). */
bool stat_enable_on_exec(const struct stat_run_opts *opts);

/* stat_config_attr - perf stat's attr defaults for @evsel of @evlist, on top of the parser's. */
void stat_config_attr(const struct stat_run_opts *opts, struct evlist *evlist,
		      struct evsel *evsel);

/* stat_set_one_group - -g: one group of every event, led by the first. */
void stat_set_one_group(struct evlist *evlist);

/*
 * stat_set_pmu_cpus - events of a PMU with a cpumask (power, uncore) count
 * on that mask's cpus (intersected with -C), whatever the target: give
 * them their own maps (evsel->own_cpus/own_threads).
 */
void stat_set_pmu_cpus(struct evlist *evlist, const struct target *target);

enum stat_open_note {
	STAT_NOTE_UNSUPPORTED,	 /* shown as "<not supported>" */
	STAT_NOTE_FALLBACK_USER, /* retried user-only (":u") under perf_event_paranoid */
};
typedef void stat_open_note_fn(void *ctx, const struct evsel *evsel, enum stat_open_note note);

/* struct stat_open_error - why stat_open_counters() gave up. */
struct stat_open_error {
	struct evsel *evsel; /* the event that failed */
	int err;	     /* positive errno */
	bool in_filter;	     /* setting its tracepoint filter failed, not the open */
};

/*
 * stat_open_counters - configure and open every event of @evlist on its
 * maps. Unsupported events (EINVAL, ENOENT, EOPNOTSUPP...) are marked
 * !is_supported and skipped; EACCES falls back to user-only counting where
 * the paranoid level allows it. @note (may be NULL) hears about both.
 * Returns 0, or -1 with @error filled for a fatal failure.
 */
int stat_open_counters(const struct stat_run_opts *opts, struct evlist *evlist,
		       stat_open_note_fn *note, void *ctx, struct stat_open_error *error);

/* The times tool events report, for one run or interval. */
struct stat_tool_times {
	u64 start_ns; /* monotonic start of counting */
	u64 end_ns;   /* monotonic end, 0 while running */
	struct rusage ru; /* the workload's */
};

/*
 * stat_read_counters - read every event and fold it into its evsel_stat
 * (evsel->priv, created on first use for @map): interval deltas when
 * @delta, multiplexing scale when @scale. Tool events get @times. Returns
 * the number of events whose read failed.
 */
int stat_read_counters(struct evlist *evlist, const struct aggr_map *map, bool scale, bool delta,
		       const struct stat_tool_times *times);

/* stat_free_counters - free every evsel's evsel_stat. */
void stat_free_counters(struct evlist *evlist);

#endif
