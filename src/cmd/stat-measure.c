/* SPDX-License-Identifier: MIT */
/* sonde stat's run: open the counters, start the workload, wait, intervals, read. */
#include "cmd/stat.h"
#include "core/counts.h"
#include "core/cpumap.h"
#include "core/evlist-open.h"
#include "core/sys.h"
#include "core/threadmap.h"
#include "lib/debug.h"
#include "lib/util.h"
#include "lib/xalloc.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t child_exited;

void stat_on_signal(int sig)
{
	if (sig == SIGCHLD)
		child_exited = 1;
	else
		done_signal = sig;
}

/* ---- the run ---- */

static void open_note(void *ctx, const struct evsel *evsel, enum stat_open_note note)
{
	struct stat_opts *o = ctx;

	if (verbose <= 0)
		return;
	if (note == STAT_NOTE_UNSUPPORTED)
		fprintf(o->cfg.output, "Warning:\n%s event is not supported by the kernel.\n",
			evsel->name);
	else /* perf's note (only with -v); the ":u" name shows it in the report */
		fprintf(o->cfg.output,
			"Warning:\nkernel.perf_event_paranoid=%d, trying to fall back to excluding kernel and hypervisor  samples\n",
			sys_paranoid());
}

/* open every counter; on a fatal failure print perf's error and return -1 */
static int open_counters(struct stat_opts *o)
{
	struct stat_open_error error = { NULL, 0, false };
	char msg[2048];

	if (!stat_open_counters(&o->run, o->evlist, open_note, o, &error))
		return 0;
	if (error.in_filter)
		pr_err("failed to set filter \"%s\" on event %s with %d (%s)\n", error.evsel->filter,
		       error.evsel->name, error.err, strerror(error.err));
	else
		fprintf(stderr, "Error:\n%s\n",
			evlist_strerror_open(error.evsel, &o->target, error.err, msg, sizeof(msg)));
	return -1;
}

static void read_and_aggregate(struct stat_opts *o, bool delta)
{
	struct stat_tool_times times = { o->run_start_ns, o->run_end_ns, o->cfg.ru };
	struct evsel *evsel;

	stat_read_counters(o->evlist, o->cfg.aggr_map, o->cfg.scale, delta, &times);
	if (verbose <= 0)
		return;
	/* perf -v: the raw counts of each event (per cpu in the per-cpu modes) */
	evlist_for_each_entry(o->evlist, evsel) {
		struct evsel_stat *st = evsel->priv;

		if (!evsel->is_supported) {
			fprintf(o->cfg.output, "failed to read counter %s\n", evsel->name);
		} else if (o->cfg.aggr_mode == AGGR_GLOBAL) {
			stat_print_verbose_counts(&o->cfg, evsel, &st->aggr[0], -1);
		} else if (evsel->counts && evsel->cpus) {
			for (int c = 0; c < evsel->cpus->nr; c++)
				stat_print_verbose_counts(&o->cfg, evsel,
							  &evsel->counts[c * evsel->threads->nr],
							  evsel->cpus->map[c]);
		}
	}
}

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR && !done_signal && !child_exited)
		;
}

/* sleep until monotonic time @ns; a signal (SIGCHLD, SIGINT) ends it early */
static void sleep_until(u64 ns)
{
	struct timespec ts = { (time_t)(ns / NSEC_PER_SEC), (long)(ns % NSEC_PER_SEC) };

	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}

static void print_interval(struct stat_opts *o, u64 start_ns)
{
	u64 now = monotonic_ns() - start_ns;
	struct timespec ts = { (time_t)(now / NSEC_PER_SEC), (long)(now % NSEC_PER_SEC) };

	read_and_aggregate(o, true);
	if (o->record_path && stat_record_round(o, now))
		pr_err("failed to write stat round\n");
	stats_init(&o->cfg.walltime_stats);
	stats_update(&o->cfg.walltime_stats, (u64)o->interval * NSEC_PER_MSEC);
	stat_print_counters(&o->cfg, o->evlist, &ts);
}

/*
 * With -p/-t and no workload perf stops when every watched task is gone
 * (it looks in /proc; the counters' fds cannot tell: poll() on a counting
 * fd without a ring says POLLHUP at once).
 */
struct target_watch {
	struct thread_map *threads; /* borrowed; NULL: nothing to watch */
};

static void target_watch_init(struct target_watch *w, struct stat_opts *o)
{
	w->threads = (o->target.pid || o->target.tid) ? o->evlist->threads : NULL;
}

static bool target_alive(const struct target_watch *w)
{
	for (int i = 0; i < w->threads->nr; i++)
		if (!kill(w->threads->pids[i], 0) || errno != ESRCH)
			return true;
	return false;
}

/* target_watch_wait - wait up to @ms (-1: until a signal); true once every task exited */
static bool target_watch_wait(struct target_watch *w, int ms)
{
	if (!w->threads) {
		if (ms < 0)
			pause();
		else if (ms > 0)
			sleep_ms((unsigned int)ms);
		return false;
	}
	if (!target_alive(w))
		return true;
	if (ms != 0)
		sleep_ms(ms < 0 || ms > 100 ? 100 : (unsigned int)ms);
	return !target_alive(w);
}

/* --summary: the whole run's totals from the last (cumulative) readings */
static void summarize_intervals(struct stat_opts *o)
{
	struct evsel *evsel;

	evlist_for_each_entry(o->evlist, evsel) {
		struct evsel_stat *st = evsel->priv;

		if (!st)
			continue;
		for (int i = 0; i < 3; i++)
			stats_init(&st->res[i]);
		evsel_stat_aggregate(evsel, st, o->cfg.aggr_map, o->cfg.scale, false);
	}
}

/* one run: returns the workload's wait status (or 0), or -1 after printing an error */
int stat_run_once(struct stat_opts *o, int argc, const char **argv, int run_idx)
{
	struct evlist *evlist = o->evlist;
	bool forks = argc > 0;
	int status = 0, err;
	u64 t0, t1, start_ns;
	unsigned int nr_intervals = 0;
	struct rusage ru;

	if (forks) {
		fflush(o->cfg.output); /* the child must not inherit buffered output */
		err = evlist_prepare_workload(evlist, argv);
		if (err) {
			pr_err("Failed to prepare workload: %s\n", strerror(-err));
			return -1;
		}
	}
	if (o->null_run) {
		/* nothing to open */
	} else if (open_counters(o)) {
		return -1;
	}
	if (!o->cfg.aggr_map)
		o->cfg.aggr_map = aggr_map_new(o->cfg.aggr_mode, evlist->cpus, evlist->threads, "/sys");
	if (o->sync_run)
		sync();
	child_exited = 0;
	/*
	 * perf's order: the delay (-D) passes and the counters are enabled
	 * before the corked workload is let go, and the clock starts after.
	 */
	if (o->initial_delay < 0) {
		fprintf(stderr, "Events disabled\n");
	} else {
		struct evsel *e;

		if (o->initial_delay > 0) {
			fprintf(stderr, "Events disabled\n");
			sleep_ms((unsigned int)o->initial_delay);
		}
		if (!stat_enable_on_exec(&o->run) || o->initial_delay) {
			evlist_enable(evlist);
			if (o->initial_delay > 0)
				fprintf(stderr, "Events enabled\n");
		} else {
			/* events that cannot wait for the exec (PMU cpumask, duration_time) */
			evlist_for_each_entry(evlist, e)
				if (evsel_is_group_leader(e) && !e->attr.enable_on_exec)
					evsel_enable(e);
		}
	}
	t0 = monotonic_ns();
	start_ns = t0;
	o->run_start_ns = t0;
	o->run_end_ns = 0;
	if (forks) {
		err = evlist_start_workload(evlist);
		if (err) {
			fprintf(stderr, "Workload failed: %s\n", strerror(-err));
			return -1;
		}
	}

	if (o->interval) {
		u64 next = start_ns + (u64)o->interval * NSEC_PER_MSEC;
		struct target_watch watch;

		target_watch_init(&watch, o);

		o->cfg.num_print_interval = 0; /* each run starts with the column header */

		while (!done_signal) {
			u64 now = monotonic_ns();

			if (forks && (child_exited || evlist->workload.pid == 0)) {
				if (evlist_wait_workload(evlist, &status, WNOHANG) > 0)
					break;
				child_exited = 0;
			}
			if (!forks && target_watch_wait(&watch, 0))
				break;
			if (now >= next) {
				print_interval(o, start_ns);
				next += (u64)o->interval * NSEC_PER_MSEC;
				if (o->interval_count && ++nr_intervals >= o->interval_count)
					break;
				continue;
			}
			sleep_until(next);
		}
		/* the workload ended between two ticks: its last partial interval */
		if (!(o->interval_count && nr_intervals >= o->interval_count))
			print_interval(o, start_ns);
		if (o->summary)
			summarize_intervals(o);
		if (forks && evlist->workload.pid) {
			kill(evlist->workload.pid, SIGTERM);
			evlist_wait_workload(evlist, &status, 0);
		}
	} else if (forks) {
		pid_t pid = evlist->workload.pid;
		u64 deadline = o->timeout ? t0 + (u64)o->timeout * NSEC_PER_MSEC : 0;

		for (;;) {
			pid_t r = wait4(pid, &status, deadline ? WNOHANG : 0, &ru);

			if (r == pid) {
				evlist->workload.pid = 0;
				o->cfg.ru = ru;
				break;
			}
			if (r < 0 && errno != EINTR)
				break;
			if (deadline && monotonic_ns() >= deadline) {
				kill(pid, SIGTERM);
				continue;
			}
			if (deadline)
				sleep_ms(1);
		}
	} else {
		u64 deadline = o->timeout ? t0 + (u64)o->timeout * NSEC_PER_MSEC : 0;
		struct target_watch w;

		target_watch_init(&w, o);
		while (!done_signal) {
			int ms = -1;

			if (deadline) {
				u64 now = monotonic_ns();

				if (now >= deadline)
					break;
				ms = (int)MIN((deadline - now) / NSEC_PER_MSEC + 1, 1000);
			}
			if (target_watch_wait(&w, ms))
				break; /* every watched task exited, as perf notices */
		}
	}
	t1 = monotonic_ns();
	o->run_end_ns = t1;
	if (o->interval && o->summary) {
		stats_init(&o->cfg.walltime_stats);
		stats_update(&o->cfg.walltime_stats, t1 - t0);
	}
	if (!o->interval) {
		stats_update(&o->cfg.walltime_stats, t1 - t0);
		if (o->cfg.walltime_run)
			o->cfg.walltime_run[run_idx] = t1 - t0;
	}
	evlist_disable(evlist);
	if (!o->interval)
		read_and_aggregate(o, false);
	evlist_close(evlist);
	if (forks && WIFSIGNALED(status) && !o->interval)
		psignal(WTERMSIG(status), argv[0]);
	return status;
}
