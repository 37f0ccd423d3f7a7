/* SPDX-License-Identifier: MIT */
/* Unit tests for perf stat's layouts: columns, metrics, CSV fields, prefixes, header and footer. */
#include "test.h"
#include "core/counts.h"
#include "core/cpumap.h"
#include "core/threadmap.h"
#include "lib/xalloc.h"
#include "ui/stat-display.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct fixture {
	struct evlist *evlist;
	struct cpu_map *cpus;
	struct thread_map *threads;
	struct aggr_map *map;
	struct stat_config cfg;
	char *buf;
	size_t len;
	const char *argv[2];
	struct target target;
};

static struct evsel *add(struct fixture *f, u32 type, u64 config, const char *name, u64 val,
			 u64 ena, u64 run, bool supported)
{
	struct perf_event_attr attr = { .type = type, .config = config };
	struct evsel *e = evsel_new(&attr);
	struct evsel_stat *st;

	e->name = xstrdup(name);
	e->is_supported = supported;
	e->cpus = f->cpus;
	e->threads = f->threads;
	e->counts = xcalloc(f->cpus->nr, sizeof(*e->counts));
	for (int i = 0; i < f->cpus->nr; i++)
		e->counts[i] = (struct perf_counts_values){ val, ena, run };
	st = evsel_stat_new(f->map->nr, f->cpus->nr);
	e->priv = st;
	evlist_add(f->evlist, e);
	if (supported)
		evsel_stat_aggregate(e, st, f->map, true, false);
	return e;
}

static void setup(struct fixture *f, enum aggr_mode mode, const char *cpus)
{
	memset(f, 0, sizeof(*f));
	f->evlist = evlist_new();
	f->cpus = cpus ? cpu_map_parse(cpus) : cpu_map_dummy_new();
	f->threads = thread_map_new_dummy();
	f->map = aggr_map_new(mode, f->cpus, f->threads, "/nonexistent");
	stat_config_init(&f->cfg);
	f->cfg.aggr_mode = mode;
	f->cfg.aggr_map = f->map;
	f->cfg.big_num = false;
	f->argv[0] = "true";
	f->cfg.argc = 1;
	f->cfg.argv = f->argv;
	f->cfg.target = &f->target;
	f->cfg.output = open_memstream(&f->buf, &f->len);
	/* 1 ms of wall time */
	stats_update(&f->cfg.walltime_stats, 1000000);
}

static const char *print(struct fixture *f, const struct timespec *ts)
{
	stat_print_counters(&f->cfg, f->evlist, ts);
	fclose(f->cfg.output);
	f->cfg.output = NULL;
	return f->buf;
}

static void teardown(struct fixture *f)
{
	struct evsel *e;

	evlist_for_each_entry(f->evlist, e) {
		evsel_stat_free(e->priv);
		e->priv = NULL;
		e->cpus = NULL;
		e->threads = NULL;
	}
	evlist_free(f->evlist);
	aggr_map_free(f->map);
	cpu_map_free(f->cpus);
	thread_map_free(f->threads);
	free(f->buf);
}

/* line @n (from 0) of @text, in a static buffer */
static const char *line(const char *text, int n)
{
	static char out[512];
	const char *p = text, *e;

	while (n-- > 0 && (p = strchr(p, '\n')))
		p++;
	if (!p)
		return "";
	e = strchr(p, '\n');
	snprintf(out, sizeof(out), "%.*s", (int)(e ? e - p : (long)strlen(p)), p);
	return out;
}

TEST(stat_table_lines_and_metrics)
{
	struct fixture f;
	const char *out;

	setup(&f, AGGR_GLOBAL, NULL);
	add(&f, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, "task-clock", 440000, 440000, 440000, true);
	add(&f, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, "context-switches", 1, 440000, 440000, true);
	add(&f, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, "page-faults", 51, 440000, 440000, true);
	add(&f, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, "cycles", 0, 0, 0, false);
	out = print(&f, NULL);
	EXPECT_STREQ(line(out, 0), "");
	EXPECT_STREQ(line(out, 1), " Performance counter stats for 'true':");
	EXPECT_STREQ(line(out, 3), "              0.44 msec task-clock                       #    0.440 CPUs utilized          ");
	EXPECT_STREQ(line(out, 4), "                 1      context-switches                 #    2.273 K/sec                  ");
	EXPECT_STREQ(line(out, 5), "                51      page-faults                      #  115.909 K/sec                  ");
	EXPECT_STREQ(line(out, 6), "   <not supported>      cycles                                                      ");
	EXPECT_STREQ(line(out, 8), "       0.001000000 seconds time elapsed");
	teardown(&f);
}

TEST(stat_csv_fields)
{
	struct fixture f;
	const char *out;

	setup(&f, AGGR_GLOBAL, NULL);
	f.cfg.csv_output = true;
	f.cfg.csv_sep = ",";
	add(&f, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, "task-clock", 454778, 454778, 454778, true);
	add(&f, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, "page-faults", 48, 454778, 454778, true);
	add(&f, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, "cycles", 0, 0, 0, false);
	out = print(&f, NULL);
	EXPECT_STREQ(line(out, 0), "0.45,msec,task-clock,454778,100.00,0.455,CPUs utilized");
	EXPECT_STREQ(line(out, 1), "48,,page-faults,454778,100.00,105.546,K/sec");
	EXPECT_STREQ(line(out, 2), "<not supported>,,cycles,0,100.00,,");
	EXPECT_STREQ(line(out, 3), "");
	teardown(&f);
}

TEST(stat_multiplexed_percentage_and_scaling)
{
	struct fixture f;
	const char *out;

	setup(&f, AGGR_GLOBAL, NULL);
	add(&f, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, "cs", 100, 1000, 250, true);
	out = print(&f, NULL);
	/* 100 * 1000 / 250 = 400, ran 25% of the time; no task-clock: no metric */
	EXPECT_STREQ(line(out, 3), "               400      cs                                                                   (25.00%)");
	teardown(&f);
}

TEST(stat_per_cpu_and_per_socket_prefixes)
{
	struct fixture f;
	const char *out;

	setup(&f, AGGR_NONE, "0-1");
	f.target.system_wide = true;
	add(&f, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, "cs", 7, 10, 10, true);
	out = print(&f, NULL);
	EXPECT_STREQ(line(out, 1), " Performance counter stats for 'system wide':");
	EXPECT_STREQ(line(out, 3), "CPU0                        7      cs                                                                 ");
	EXPECT_STREQ(line(out, 4), "CPU1                        7      cs                                                                 ");
	teardown(&f);

	setup(&f, AGGR_SOCKET, "0-1");
	f.target.system_wide = true;
	add(&f, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, "cs", 7, 10, 10, true);
	out = print(&f, NULL);
	EXPECT_STREQ(line(out, 3), "S0        2                 14      cs                                                                 ");
	teardown(&f);
}

TEST(stat_interval_header_and_prefix)
{
	struct fixture f;
	struct timespec ts = { 1, 200290173 };
	const char *out;

	setup(&f, AGGR_GLOBAL, NULL);
	add(&f, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, "cs", 3, 10, 10, true);
	out = print(&f, &ts);
	EXPECT_STREQ(line(out, 0), "#           time             counts unit events");
	EXPECT_STREQ(line(out, 1), "     1.200290173                  3      cs                                                                 ");
	EXPECT_STREQ(line(out, 2), "");
	teardown(&f);
}

TEST(stat_repeat_noise_and_footer)
{
	struct fixture f;
	const char *out;

	setup(&f, AGGR_GLOBAL, NULL);
	f.cfg.run_count = 3;
	stats_init(&f.cfg.walltime_stats);
	stats_update(&f.cfg.walltime_stats, 800000);
	stats_update(&f.cfg.walltime_stats, 1000000);
	stats_update(&f.cfg.walltime_stats, 1200000);
	{
		struct evsel *e = add(&f, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, "task-clock",
				      400000, 400000, 400000, true);
		struct evsel_stat *st = e->priv;

		/* three runs: 300, 400 and 500 us */
		stats_init(&st->res[0]);
		stats_update(&st->res[0], 300000);
		stats_update(&st->res[0], 400000);
		stats_update(&st->res[0], 500000);
	}
	out = print(&f, NULL);
	EXPECT_STREQ(line(out, 1), " Performance counter stats for 'true' (3 runs):");
	EXPECT_STREQ(line(out, 3), "              0.40 msec task-clock                       #    0.400 CPUs utilized            ( +- 14.43% )");
	EXPECT_STREQ(line(out, 5), "          0.001000 +- 0.000115 seconds time elapsed  ( +- 11.55% )");
	teardown(&f);
}

TEST(stat_format_count_width)
{
	char buf[64];

	stat_format_count(buf, sizeof(buf), 0.44, false, 18);
	EXPECT_STREQ(buf, "              0.44");
}

/* the hardware metrics, which this VM cannot produce live */
TEST(stat_hardware_metrics)
{
	struct fixture f;
	const char *out;

	setup(&f, AGGR_GLOBAL, NULL);
	add(&f, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, "task-clock", 1000, 1000, 1000, true);
	add(&f, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, "cycles", 2000, 1000, 1000, true);
	add(&f, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, "instructions", 3000, 1000, 1000, true);
	add(&f, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, "branches", 200, 1000, 1000, true);
	add(&f, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES, "branch-misses", 10, 1000, 1000, true);
	add(&f, PERF_TYPE_HW_CACHE,
	    PERF_COUNT_HW_CACHE_L1D | (PERF_COUNT_HW_CACHE_OP_READ << 8) |
		    (PERF_COUNT_HW_CACHE_RESULT_ACCESS << 16),
	    "L1-dcache-loads", 400, 1000, 1000, true);
	add(&f, PERF_TYPE_HW_CACHE,
	    PERF_COUNT_HW_CACHE_L1D | (PERF_COUNT_HW_CACHE_OP_READ << 8) |
		    (PERF_COUNT_HW_CACHE_RESULT_MISS << 16),
	    "L1-dcache-load-misses", 40, 1000, 1000, true);
	out = print(&f, NULL);
	EXPECT_STREQ(line(out, 3), "              0.00 msec task-clock                       #    0.001 CPUs utilized          ");
	EXPECT_STREQ(line(out, 4), "              2000      cycles                           #    2.000 GHz                    ");
	EXPECT_STREQ(line(out, 5), "              3000      instructions                     #    1.50  insn per cycle         ");
	EXPECT_STREQ(line(out, 6), "               200      branches                         #  200.000 M/sec                  ");
	EXPECT_STREQ(line(out, 7), "                10      branch-misses                    #    5.00% of all branches        ");
	EXPECT_STREQ(line(out, 8), "               400      L1-dcache-loads                  #  400.000 M/sec                  ");
	EXPECT_STREQ(line(out, 9), "                40      L1-dcache-load-misses            #   10.00% of all L1-dcache accesses");
	teardown(&f);
}

TEST(stat_metrics_need_the_same_modifiers)
{
	struct fixture f;
	const char *out;
	struct evsel *e;

	setup(&f, AGGR_GLOBAL, NULL);
	add(&f, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, "cycles", 2000, 1000, 1000, true);
	e = add(&f, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, "instructions:u", 3000, 1000, 1000, true);
	e->attr.exclude_kernel = 1;
	out = print(&f, NULL);
	/* cycles counts kernel too: no ratio, perf leaves the 35 metric columns blank */
	{
		char exp[256];

		snprintf(exp, sizeof(exp), "%18s      %-32s%35s", "3000", "instructions:u", "");
		EXPECT_STREQ(line(out, 4), exp);
	}
	teardown(&f);
}

/* -r with --table: the per-run rows, their bars, the titles' indentation and the decimals */
TEST(stat_repeat_table_footer)
{
	struct fixture f;
	const char *out;
	u64 runs[3] = { 800000, 1000000, 1200000 };

	setup(&f, AGGR_GLOBAL, NULL);
	f.cfg.run_count = 3;
	f.cfg.walltime_run_table = true;
	f.cfg.walltime_run = runs;
	stats_init(&f.cfg.walltime_stats);
	for (int i = 0; i < 3; i++)
		stats_update(&f.cfg.walltime_stats, runs[i]);
	add(&f, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, "cs", 3, 1000, 1000, true);
	out = print(&f, NULL);
	/* 1 + one per whole 5% off the mean: 25% -> 5 marks (24.99.. in binary), 16.7% -> 4 */
	EXPECT_STREQ(line(out, 5), "          # Table of individual measurements:");
	EXPECT_STREQ(line(out, 6), "          0.000800 (-0.000200) #####");
	EXPECT_STREQ(line(out, 7), "          0.001000 (+0.000000) #");
	EXPECT_STREQ(line(out, 8), "          0.001200 (+0.000200) ####");
	EXPECT_STREQ(line(out, 9), "");
	EXPECT_STREQ(line(out, 10), "          # Final result:");
	EXPECT_STREQ(line(out, 11), "          0.001000 +- 0.000115 seconds time elapsed  ( +- 11.55% )");
	EXPECT_STREQ(line(out, 12), "");
	teardown(&f);
}

/* one run of a forked workload: elapsed, then user and sys */
TEST(stat_footer_user_sys)
{
	struct fixture f;
	const char *out;

	setup(&f, AGGR_GLOBAL, NULL);
	f.cfg.ru_display = true;
	f.cfg.ru.ru_utime.tv_usec = 250000;
	f.cfg.ru.ru_stime.tv_sec = 1;
	f.cfg.ru.ru_stime.tv_usec = 5;
	add(&f, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, "cs", 3, 1000, 1000, true);
	out = print(&f, NULL);
	EXPECT_STREQ(strstr(out, "seconds time elapsed"), "seconds time elapsed\n\n"
		     "       0.250000000 seconds user\n       1.000005000 seconds sys\n\n\n");
	teardown(&f);
}

/* a second metric (stalled cycles per insn) continues on a line of its own */
static void stalled_fixture(struct fixture *f, enum aggr_mode mode, const char *cpus)
{
	setup(f, mode, cpus);
	add(f, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, "cycles", 2000, 1000, 1000, true);
	add(f, PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND, "stalled-cycles-frontend",
	    500, 1000, 500, true);
	add(f, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, "instructions", 3000, 1000, 1000, true);
}

TEST(stat_second_metric_line)
{
	struct fixture f;
	const char *out;

	stalled_fixture(&f, AGGR_GLOBAL, NULL);
	out = print(&f, NULL);
	EXPECT_STREQ(line(out, 4), "              1000      stalled-cycles-frontend          #   50.00% frontend cycles idle     (50.00%)");
	EXPECT_STREQ(line(out, 5), "              3000      instructions                     #    1.50  insn per cycle         ");
	EXPECT_STREQ(line(out, 6), "                                                  #    0.33  stalled cycles per insn");
	teardown(&f);

	stalled_fixture(&f, AGGR_NONE, "0");
	out = print(&f, NULL);
	EXPECT_STREQ(line(out, 5), "CPU0                     3000      instructions                     #    1.50  insn per cycle         ");
	EXPECT_STREQ(line(out, 6), "CPU0                                                                 #    0.33  stalled cycles per insn");
	teardown(&f);

	stalled_fixture(&f, AGGR_GLOBAL, NULL);
	f.cfg.csv_output = true;
	f.cfg.csv_sep = ",";
	out = print(&f, NULL);
	EXPECT_STREQ(line(out, 1), "1000,,stalled-cycles-frontend,500,50.00,50.00,frontend cycles idle");
	EXPECT_STREQ(line(out, 2), "3000,,instructions,1000,100.00,1.50,insn per cycle,0.33,stalled cycles per insn");
	teardown(&f);
}
