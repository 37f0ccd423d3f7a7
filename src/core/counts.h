/* SPDX-License-Identifier: MIT */
/*
 * Counting arithmetic: multiplexing scale (ena/run), interval deltas,
 * aggregation of per-cpu/per-thread counts (global, per cpu, core, die,
 * socket, node, thread) and running statistics over repeated runs.
 */
#ifndef SONDE_CORE_COUNTS_H
#define SONDE_CORE_COUNTS_H

#include "core/evsel.h"
#include "lib/util.h"

#include <stdbool.h>

struct cpu_map;
struct thread_map;

enum aggr_mode {
	AGGR_GLOBAL,
	AGGR_NONE,   /* -A: one line per cpu */
	AGGR_SOCKET,
	AGGR_DIE,
	AGGR_CORE,
	AGGR_NODE,
	AGGR_THREAD, /* --per-thread */
};

/* struct aggr_id - the key of one aggregate; unused fields are -1. */
struct aggr_id {
	int socket, die, core, node, cpu, thread;
};

/*
 * struct aggr_map - the aggregates of one run, sorted as perf prints them,
 * and for each cpu index (or thread index in AGGR_THREAD) the aggregate it
 * belongs to.
 */
struct aggr_map {
	enum aggr_mode mode;
	int nr;
	struct aggr_id *ids; /* owned, [nr] */
	int *nr_members;     /* owned, [nr]: cpus (or threads) summed into each */
	int nr_src;
	int *src_to_aggr;    /* owned, [nr_src] */
	int *src_cpus;	     /* owned, [nr_src]: the cpu of each source (cpu modes), -1 for threads */
};

/*
 * aggr_map_new - build the aggregates of @mode over @cpus/@threads, reading
 * topology below @sysfs_root ("/sys"; a fake tree in tests). Caller frees.
 */
struct aggr_map *aggr_map_new(enum aggr_mode mode, const struct cpu_map *cpus,
			      const struct thread_map *threads, const char *sysfs_root);
void aggr_map_free(struct aggr_map *map);

/* Welford running mean/variance, as perf's stats (stddev is of the mean). */
/*
 * Running mean and spread of repeated measurements (stat -r), updated one
 * value at a time so no history is kept. Textbook one-pass update (Knuth,
 * TAOCP vol. 2, 4.2.2): it stays exact where a sum of squares would cancel.
 */
struct stats {
	double count;		/* values seen */
	double avg;		/* their mean so far */
	double sq_dev_sum;	/* sum of squared deviations from that mean */
};
void stats_init(struct stats *s);
void stats_update(struct stats *s, u64 val);
double stats_avg(const struct stats *s);
/* stats_stddev - standard deviation of the mean: sqrt(var / n); 0 for n < 2. */
double stats_stddev(const struct stats *s);
/* rel_stddev - 100 * stddev / avg, 0 when avg is 0. */
double rel_stddev(double stddev, double avg);

/*
 * counts_scale - scale @v->val for multiplexing: 0 when run == ena,
 * 1 when scaled (only with @scale), -1 when the counter never ran
 * (run == 0: "<not counted>").
 */
int counts_scale(struct perf_counts_values *v, bool scale);

/* struct evsel_stat - what stat keeps per event (evsel->priv). */
struct evsel_stat {
	int nr_aggr;
	struct perf_counts_values *aggr; /* [nr_aggr]: this run's (or interval's) sums */
	int *scaled;			 /* [nr_aggr]: counts_scale() result */
	int nr_fds;
	struct perf_counts_values *prev; /* [nr_fds]: last raw reading, for interval deltas */
	struct stats res[3];		 /* global val/ena/run over repeated runs */
	struct stats *aggr_mean;	 /* [nr_aggr] or NULL: each aggregate's values over intervals (stat report) */
};

struct evsel_stat *evsel_stat_new(int nr_aggr, int nr_fds);
void evsel_stat_free(struct evsel_stat *st);

/*
 * evsel_stat_aggregate - fold evsel->counts (read by evsel_read_counts)
 * into @st's aggregates of @map: deltas against the previous reading when
 * @delta (interval mode), per-fd scaling in non-global modes, one scaling
 * of the sum in AGGR_GLOBAL (perf's order). Updates st->res with the global
 * sum when @map is global.
 */
void evsel_stat_aggregate(struct evsel *evsel, struct evsel_stat *st, const struct aggr_map *map,
			  bool scale, bool delta);

#endif
