/* SPDX-License-Identifier: MIT */
/* sonde bench internals synthesize: times sonde's own record synthesis (data/synthesize.c) in perf bench's layout. */
#include "cmd/bench.h"
#include "builtin.h"
#include "data/synthesize.h"
#include "lib/hashmap.h"
#include "lib/optspec.h"
#include "lib/util.h"
#include "lib/xalloc.h"
#include "symbol/kallsyms.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* counts the records; nothing is kept */
static int count_record(void *arg, union perf_event *ev)
{
	(void)arg;
	(void)ev;
	return 0;
}

/* time and record count of one synthesis, into @took and @events */
struct synth_series {
	struct bench_stats took, events;
};

static void series_print(const struct synth_series *se, const char *indent, const char *what)
{
	printf("%sAverage %ssynthesis took: %.3f usec (+- %.3f usec)\n", indent, what, se->took.mean,
	       bench_stats_err(&se->took));
	printf("%sAverage num. events: %.3f (+- %.3f)\n", indent, se->events.mean,
	       bench_stats_err(&se->events));
	printf("%sAverage time per event %.3f usec\n", indent,
	       se->events.mean ? se->took.mean / se->events.mean : 0);
}

/* ---- kallsyms-parse: sonde's /proc/kallsyms reader (symbol/kallsyms.c), timed ---- */

static const char *const kallsyms_usage[] = { "perf bench internals kallsyms-parse <options>", NULL };

int bench_internals_kallsyms_parse(int argc, const char **argv)
{
	unsigned int iterations = 100;
	const struct opt_spec options[] = {
		SPEC_UINT("iterations", 'i', &iterations, "Number of iterations used to compute average"),
		SPEC_END(),
	};
	struct bench_stats took = { 0 };

	if (opts_parse(argc, argv, options, kallsyms_usage, 0) > 1)
		opts_usage_exit(kallsyms_usage, options);
	for (unsigned int i = 0; i < iterations; i++) {
		struct kallsyms ks;
		struct strpool pool;
		struct timeval t0;

		memset(&ks, 0, sizeof(ks));
		strpool_init(&pool);
		gettimeofday(&t0, NULL);
		kallsyms_load(&ks, NULL, &pool);
		bench_stats_add(&took, bench_usec_since(&t0) / 1e3);
		kallsyms_release(&ks);
		strpool_release(&pool);
	}
	printf("  Average kallsyms__parse took: %.3f ms (+- %.3f ms)\n", took.mean, bench_stats_err(&took));
	return 0;
}

/* this process's COMM and MMAP2 records (all mappings with @data), @iterations times */
static void synth_self(unsigned int iterations, bool data, struct synth_series *se)
{
	pid_t self = getpid();

	for (unsigned int i = 0; i < iterations; i++) {
		struct synth s;
		struct timeval t0;
		double usec;

		synth_init(&s, count_record, NULL, 0, NULL);
		s.mmap_data = data;
		gettimeofday(&t0, NULL);
		synth_thread_map_tasks(&s, &self, 1, true);
		usec = bench_usec_since(&t0);
		bench_stats_add(&se->took, usec);
		bench_stats_add(&se->events, (double)s.nr_records);
		synth_release(&s);
	}
}

/* ---- the whole system, split over threads ---- */

struct synth_share {
	pthread_t th;
	const pid_t *pids;
	int nr_pids;
	int *next; /* the next pid index to take (shared) */
	u64 nr_records;
};

static void *synth_share_run(void *arg)
{
	struct synth_share *sh = arg;
	struct synth s;

	synth_init(&s, count_record, NULL, 0, NULL);
	for (;;) {
		int i = __atomic_fetch_add(sh->next, 1, __ATOMIC_RELAXED);

		if (i >= sh->nr_pids)
			break;
		synth_process(&s, sh->pids[i], true);
	}
	sh->nr_records = s.nr_records;
	synth_release(&s);
	return NULL;
}

/* the pids in /proc now */
static pid_t *list_pids(int *nr)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	pid_t *pids = NULL;
	int n = 0, max = 0;

	while (d && (de = readdir(d))) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		if (n == max) {
			max = max ? 2 * max : 256;
			pids = xrealloc(pids, (size_t)max * sizeof(*pids));
		}
		pids[n++] = atoi(de->d_name);
	}
	if (d)
		closedir(d);
	*nr = n;
	return pids;
}

static void synth_system(unsigned int nr_threads, unsigned int iterations, struct synth_series *se)
{
	struct synth_share *sh = xcalloc(nr_threads, sizeof(*sh));

	for (unsigned int it = 0; it < iterations; it++) {
		int nr_pids, next = 0;
		pid_t *pids = list_pids(&nr_pids);
		struct timeval t0;
		u64 total = 0;

		gettimeofday(&t0, NULL);
		for (unsigned int i = 0; i < nr_threads; i++) {
			sh[i] = (struct synth_share){ .pids = pids, .nr_pids = nr_pids, .next = &next };
			if (pthread_create(&sh[i].th, NULL, synth_share_run, &sh[i])) {
				perror("pthread_create");
				exit(1);
			}
		}
		for (unsigned int i = 0; i < nr_threads; i++) {
			pthread_join(sh[i].th, NULL);
			total += sh[i].nr_records;
		}
		bench_stats_add(&se->took, bench_usec_since(&t0));
		bench_stats_add(&se->events, (double)total);
		free(pids);
	}
	free(sh);
}

static const char *const synthesize_usage[] = { "perf bench internals synthesize <options>", NULL };

int bench_internals_synthesize(int argc, const char **argv)
{
	bool st = false, mt = false;
	unsigned int st_iterations = 10000, mt_iterations = 10, min_threads = 1, max_threads = 0;
	const struct opt_spec options[] = {
		SPEC_FLAG("st", 's', &st, "Run single threaded benchmark"),
		SPEC_FLAG("mt", 't', &mt, "Run multi-threaded benchmark"),
		SPEC_UINT("min-threads", 'm', &min_threads, "Minimum number of threads in multithreaded bench"),
		SPEC_UINT("max-threads", 'M', &max_threads, "Maximum number of threads in multithreaded bench"),
		SPEC_UINT("single-iterations", 'i', &st_iterations,
			  "Number of iterations used to compute single-threaded average"),
		SPEC_UINT("multi-iterations", 'I', &mt_iterations,
			  "Number of iterations used to compute multi-threaded average"),
		SPEC_END(),
	};

	if (opts_parse(argc, argv, options, synthesize_usage, 0) > 1)
		opts_usage_exit(synthesize_usage, options);
	if (!st && !mt)
		st = true;
	if (!max_threads)
		max_threads = (unsigned int)bench_nr_cpus();
	if (!min_threads)
		min_threads = 1;
	if (st) {
		struct synth_series plain = { 0 }, data = { 0 };

		printf("Computing performance of single threaded perf event synthesis by\n"
		       "synthesizing events on the perf process itself:\n");
		fflush(stdout);
		synth_self(st_iterations, false, &plain);
		series_print(&plain, "  ", "");
		fflush(stdout);
		synth_self(st_iterations, true, &data);
		series_print(&data, "  ", "data ");
	}
	if (mt) {
		printf("Computing performance of multi threaded perf event synthesis by\n"
		       "synthesizing events on CPU 0:\n");
		for (unsigned int n = min_threads; n <= max_threads; n++) {
			struct synth_series se = { 0 };

			printf("  Number of synthesis threads: %u\n", n);
			fflush(stdout);
			synth_system(n, mt_iterations, &se);
			series_print(&se, "    ", "");
		}
	}
	return 0;
}
