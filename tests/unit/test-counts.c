/* SPDX-License-Identifier: MIT */
/* Unit tests for counting arithmetic: scaling, statistics, aggregation maps and deltas. */
#include "test.h"
#include "core/counts.h"
#include "core/cpumap.h"
#include "core/threadmap.h"
#include "lib/xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

TEST(counts_scale_multiplexing)
{
	struct perf_counts_values v = { 1000, 200, 100 };

	EXPECT_EQ(counts_scale(&v, true), 1);
	EXPECT_UEQ(v.val, 2000);
	v = (struct perf_counts_values){ 1000, 200, 100 };
	EXPECT_EQ(counts_scale(&v, false), 0);
	EXPECT_UEQ(v.val, 1000);
	v = (struct perf_counts_values){ 5, 10, 10 };
	EXPECT_EQ(counts_scale(&v, true), 0);
	EXPECT_UEQ(v.val, 5);
	v = (struct perf_counts_values){ 0, 10, 0 };
	EXPECT_EQ(counts_scale(&v, true), -1);
}

TEST(stats_mean_and_stddev_of_the_mean)
{
	struct stats s;
	double sd;

	stats_init(&s);
	EXPECT_TRUE(stats_stddev(&s) == 0);
	stats_update(&s, 10);
	EXPECT_TRUE(stats_stddev(&s) == 0);
	stats_update(&s, 20);
	stats_update(&s, 30);
	EXPECT_TRUE(fabs(stats_avg(&s) - 20.0) < 1e-9);
	/* sample variance 100, of the mean 100/3 */
	sd = stats_stddev(&s);
	EXPECT_TRUE(fabs(sd - sqrt(100.0 / 3)) < 1e-9);
	EXPECT_TRUE(fabs(rel_stddev(sd, 20.0) - 100.0 * sqrt(100.0 / 3) / 20) < 1e-9);
	EXPECT_TRUE(rel_stddev(1.0, 0.0) == 0.0);
}

static void fake_topology(const char *root)
{
	char cmd[1024];

	/* 4 cpus: sockets 0,0,1,1; cores 0,1,0,1; nodes 0,0,1,1 */
	for (int c = 0; c < 4; c++) {
		snprintf(cmd, sizeof(cmd),
			 "d=%s/devices/system/cpu/cpu%d; mkdir -p $d/topology $d/node%d && "
			 "echo %d >$d/topology/physical_package_id && echo 0 >$d/topology/die_id && "
			 "echo %d >$d/topology/core_id",
			 root, c, c / 2, c / 2, c % 2);
		ASSERT_TRUE(system(cmd) == 0);
	}
}

TEST(aggr_map_modes)
{
	const char *root = test_tmpdir();
	struct cpu_map *cpus = cpu_map_parse("0-3");
	struct thread_map *thr = thread_map_new_dummy();
	struct aggr_map *m;

	fake_topology(root);
	m = aggr_map_new(AGGR_GLOBAL, cpus, thr, root);
	EXPECT_EQ(m->nr, 1);
	EXPECT_EQ(m->nr_members[0], 4);
	aggr_map_free(m);

	m = aggr_map_new(AGGR_SOCKET, cpus, thr, root);
	EXPECT_EQ(m->nr, 2);
	EXPECT_EQ(m->ids[1].socket, 1);
	EXPECT_EQ(m->nr_members[0], 2);
	EXPECT_EQ(m->src_to_aggr[3], 1);
	aggr_map_free(m);

	m = aggr_map_new(AGGR_CORE, cpus, thr, root);
	EXPECT_EQ(m->nr, 4);
	EXPECT_EQ(m->ids[1].socket, 0);
	EXPECT_EQ(m->ids[1].core, 1);
	aggr_map_free(m);

	m = aggr_map_new(AGGR_NODE, cpus, thr, root);
	EXPECT_EQ(m->nr, 2);
	EXPECT_EQ(m->ids[1].node, 1);
	aggr_map_free(m);

	m = aggr_map_new(AGGR_NONE, cpus, thr, root);
	EXPECT_EQ(m->nr, 4);
	EXPECT_EQ(m->ids[2].cpu, 2);
	aggr_map_free(m);

	cpu_map_free(cpus);
	thread_map_free(thr);
}

/* an evsel with fake counts on 2 cpus x 1 thread */
static struct evsel *fake_evsel(struct cpu_map *cpus, struct thread_map *thr)
{
	struct perf_event_attr attr = { .type = PERF_TYPE_SOFTWARE };
	struct evsel *e = evsel_new(&attr);

	e->cpus = cpus;
	e->threads = thr;
	e->counts = xcalloc(cpus->nr * thr->nr, sizeof(*e->counts));
	return e;
}

TEST(aggregate_global_scales_the_sum)
{
	struct cpu_map *cpus = cpu_map_parse("0-1");
	struct thread_map *thr = thread_map_new_dummy();
	struct aggr_map *m = aggr_map_new(AGGR_GLOBAL, cpus, thr, "/nonexistent");
	struct evsel *e = fake_evsel(cpus, thr);
	struct evsel_stat *st = evsel_stat_new(m->nr, 2);

	e->counts[0] = (struct perf_counts_values){ 100, 100, 50 };
	e->counts[1] = (struct perf_counts_values){ 300, 100, 50 };
	evsel_stat_aggregate(e, st, m, true, false);
	/* (100 + 300) * 200 / 100 */
	EXPECT_UEQ(st->aggr[0].val, 800);
	EXPECT_EQ(st->scaled[0], 1);
	EXPECT_TRUE(st->res[0].count == 1);

	/* never ran: "<not counted>", not folded into the repeat statistics */
	e->counts[0] = (struct perf_counts_values){ 0, 100, 0 };
	e->counts[1] = (struct perf_counts_values){ 0, 100, 0 };
	evsel_stat_aggregate(e, st, m, true, false);
	EXPECT_EQ(st->scaled[0], -1);
	EXPECT_TRUE(st->res[0].count == 1);

	evsel_stat_free(st);
	e->cpus = NULL;
	e->threads = NULL;
	evsel_free(e);
	aggr_map_free(m);
	cpu_map_free(cpus);
	thread_map_free(thr);
}

TEST(aggregate_interval_deltas)
{
	struct cpu_map *cpus = cpu_map_parse("0-1");
	struct thread_map *thr = thread_map_new_dummy();
	struct aggr_map *m = aggr_map_new(AGGR_NONE, cpus, thr, "/nonexistent");
	struct evsel *e = fake_evsel(cpus, thr);
	struct evsel_stat *st = evsel_stat_new(m->nr, 2);

	e->counts[0] = (struct perf_counts_values){ 10, 100, 100 };
	e->counts[1] = (struct perf_counts_values){ 20, 100, 100 };
	evsel_stat_aggregate(e, st, m, true, true);
	EXPECT_UEQ(st->aggr[0].val, 10);
	EXPECT_UEQ(st->aggr[1].val, 20);
	e->counts[0] = (struct perf_counts_values){ 15, 200, 200 };
	e->counts[1] = (struct perf_counts_values){ 20, 200, 100 };
	evsel_stat_aggregate(e, st, m, true, true);
	EXPECT_UEQ(st->aggr[0].val, 5);
	EXPECT_UEQ(st->aggr[0].run, 100);
	/* cpu 1 did not run in this interval */
	EXPECT_UEQ(st->aggr[1].val, 0);
	EXPECT_EQ(st->scaled[1], -1);

	evsel_stat_free(st);
	e->cpus = NULL;
	e->threads = NULL;
	evsel_free(e);
	aggr_map_free(m);
	cpu_map_free(cpus);
	thread_map_free(thr);
}

TEST(aggregate_event_on_its_own_cpus)
{
	struct cpu_map *cpus = cpu_map_parse("0-3"), *own = cpu_map_parse("2");
	struct thread_map *thr = thread_map_new_dummy();
	struct aggr_map *m = aggr_map_new(AGGR_NONE, cpus, thr, "/nonexistent");
	struct evsel *e = fake_evsel(own, thr);
	struct evsel_stat *st = evsel_stat_new(m->nr, 1);

	e->counts[0] = (struct perf_counts_values){ 42, 1, 1 };
	evsel_stat_aggregate(e, st, m, true, false);
	EXPECT_UEQ(st->aggr[2].val, 42);
	EXPECT_UEQ(st->aggr[0].val, 0);
	EXPECT_EQ(st->scaled[0], -1);

	evsel_stat_free(st);
	e->cpus = NULL;
	e->threads = NULL;
	evsel_free(e);
	aggr_map_free(m);
	cpu_map_free(cpus);
	cpu_map_free(own);
	thread_map_free(thr);
}
