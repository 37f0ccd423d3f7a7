/* SPDX-License-Identifier: MIT */
/* sonde bench internals evlist-open-close: times opening, mapping, enabling and closing sonde's evlist, in perf's layout. */
#include "cmd/bench.h"
#include "builtin.h"
#include "core/cpumap.h"
#include "core/evlist-open.h"
#include "core/evlist.h"
#include "core/evsel.h"
#include "core/mmap.h"
#include "core/parse-events.h"
#include "core/threadmap.h"
#include "lib/optspec.h"
#include "lib/util.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* one round: open every event, map the rings, enable, disable, unmap, close; 0 or -errno */
static int evlist_round(struct evlist *evlist)
{
	struct perf_mmap_set rings = { 0 };
	struct evsel *evsel;
	int err = 0;

	evlist_for_each_entry(evlist, evsel) {
		err = evsel_open(evsel, evlist->cpus, evlist->threads);
		if (err)
			goto out;
	}
	err = perf_mmap_set_open(&rings, evlist, evlist->cpus->nr, evlist->cpus->map, evlist->threads->nr,
				 evlist->threads->pids, perf_mmap_default_pages(), false);
	if (err)
		goto out;
	evlist_enable(evlist);
	evlist_disable(evlist);
	perf_mmap_set_release(&rings);
out:
	evlist_close(evlist);
	return err;
}

static const char *const evlist_usage[] = { "perf bench internals evlist-open-close <options>", NULL };

int bench_internals_evlist_open_close(int argc, const char **argv)
{
	struct target target = { 0 };
	const char *event = NULL;
	unsigned int iterations = 100, nr_events = 1;
	const struct opt_spec options[] = {
		SPEC_TEXT("event", 'e', &event, "event", "event selector. use 'perf list' to list available events"),
		SPEC_UINT("nr-events", 'n', &nr_events,
			  "number of dummy events to create (default 1). If used with -e, it clones those events n times (1 = no change)"),
		SPEC_UINT("iterations", 'i', &iterations, "Number of iterations used to compute average (default=100)"),
		SPEC_FLAG("all-cpus", 'a', &target.system_wide, "system-wide collection from all CPUs"),
		SPEC_TEXT("cpu", 'C', &target.cpu_list, "cpu", "list of cpus where to open events"),
		SPEC_TEXT("pid", 'p', &target.pid, "pid", "record events on existing process id"),
		SPEC_TEXT("tid", 't', &target.tid, "tid", "record events on existing thread id"),
		SPEC_TEXT("uid", 'u', &target.uid_str, "user", "user to profile"),
		SPEC_FLAG("per-thread", 0, &target.per_thread, "use per-thread mmaps"),
		SPEC_END(),
	};
	struct bench_stats took = { 0 };
	struct evlist *evlist;
	int err, nr_fds;

	if (opts_parse(argc, argv, options, evlist_usage, 0) > 1)
		opts_usage_exit(evlist_usage, options);
	if (target.uid_str) {
		fflush(stdout);
		fprintf(stderr, "%s: 'bench internals evlist-open-close -u' is not implemented yet\n", prog_name);
		return 1;
	}
	if (!target.pid && !target.tid && !target.cpu_list)
		target.system_wide = true;
	evlist = evlist_new();
	for (unsigned int i = 0; i < (nr_events ? nr_events : 1); i++) {
		struct parse_events_error perr = PARSE_EVENTS_ERROR_INIT;

		err = parse_events(evlist, event ? event : "dummy", &perr);
		parse_events_error_release(&perr);
		if (err) {
			fflush(stdout);
			fprintf(stderr, "Run 'perf list' for a list of valid events\n");
			evlist_free(evlist);
			return 1;
		}
	}
	err = evlist_create_maps(evlist, &target);
	if (err) {
		fflush(stdout);
		fprintf(stderr, "evlist__create_maps: %s\n", strerror(-err));
		evlist_free(evlist);
		return 1;
	}
	nr_fds = evlist->nr_entries * evlist->cpus->nr * evlist->threads->nr;
	printf("  Number of cpus:\t%d\n", evlist->cpus->nr);
	printf("  Number of threads:\t%d\n", evlist->threads->nr);
	printf("  Number of events:\t%d (%d fds)\n", evlist->nr_entries, nr_fds);
	printf("  Number of iterations:\t%u\n", iterations);
	fflush(stdout);
	for (unsigned int i = 0; i < iterations; i++) {
		struct timeval t0;

		gettimeofday(&t0, NULL);
		err = evlist_round(evlist);
		if (err) {
			fprintf(stderr, "evlist__open: %s\n", strerror(-err));
			evlist_free(evlist);
			return err & 0xff; /* perf exits with the -errno */
		}
		bench_stats_add(&took, bench_usec_since(&t0));
	}
	printf("  Average open-close took: %.3f usec (+- %.3f usec)\n", took.mean, bench_stats_err(&took));
	evlist_free(evlist);
	return 0;
}
