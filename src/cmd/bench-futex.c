/* SPDX-License-Identifier: MIT */
/* sonde bench futex: hash, wake, wake-parallel, requeue and lock-pi with perf bench's options and layouts. */
#include "cmd/bench.h"
#include "builtin.h"
#include "lib/optspec.h"
#include "lib/util.h"
#include "lib/xalloc.h"

#include <errno.h>
#include <linux/futex.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

/* what every futex benchmark takes besides its own options */
struct futex_common {
	unsigned int threads; /* -t: 0 = the online cpus */
	bool mlock, shared, silent;
};

static long sys_futex(u32 *uaddr, int op, u32 val, const void *timeout, u32 *uaddr2, u32 val3)
{
	return syscall(SYS_futex, uaddr, op, val, timeout, uaddr2, val3);
}

static int futex_op(const struct futex_common *c, int op)
{
	return c->shared ? op : op | FUTEX_PRIVATE_FLAG;
}

static const char *futex_kind(const struct futex_common *c)
{
	return c->shared ? "shared" : "private";
}

/* the -t default, -m */
static void futex_common_apply(struct futex_common *c)
{
	if (!c->threads)
		c->threads = (unsigned int)bench_nr_cpus();
	if (c->mlock && mlockall(MCL_CURRENT | MCL_FUTURE))
		perror("mlockall");
}

static bool flag_get(const bool *flag)
{
	return __atomic_load_n(flag, __ATOMIC_RELAXED);
}

static void flag_set(bool *flag, bool v)
{
	__atomic_store_n(flag, v, __ATOMIC_RELAXED);
}

/* the runtime of a timed run: whole seconds between @t0 and @t1 */
static unsigned int elapsed_secs(const struct timeval *t0, const struct timeval *t1)
{
	struct timeval d;

	timersub(t1, t0, &d);
	return (unsigned int)d.tv_sec;
}

/* ---- timed runs shared by hash and lock-pi: workers count until told to stop ---- */

struct timed_worker {
	pthread_t th;
	int id;
	u32 *first, *last;
	unsigned long ops;
};

struct timed_run {
	const struct futex_common *c;
	struct bench_gate gate;
	bool done;
	unsigned int nr_futexes;
};

struct timed_arg {
	struct timed_run *run;
	struct timed_worker *w;
};

/* start the workers together, let them run @runtime seconds; returns the whole seconds run */
static unsigned int timed_run_go(struct timed_run *run, struct timed_worker *w, void *(*fn)(void *),
				 struct timed_arg *args, unsigned int runtime)
{
	unsigned int n = run->c->threads;
	struct timeval t0, t1;

	bench_gate_init(&run->gate, (int)n);
	for (unsigned int i = 0; i < n; i++) {
		args[i] = (struct timed_arg){ run, &w[i] };
		if (pthread_create(&w[i].th, NULL, fn, &args[i])) {
			perror("pthread_create");
			exit(1);
		}
	}
	bench_gate_ready(&run->gate);
	gettimeofday(&t0, NULL);
	bench_gate_open(&run->gate);
	sleep(runtime);
	flag_set(&run->done, true);
	for (unsigned int i = 0; i < n; i++)
		pthread_join(w[i].th, NULL);
	gettimeofday(&t1, NULL);
	bench_gate_release(&run->gate);
	return elapsed_secs(&t0, &t1);
}

/* per-thread lines (unless -s) and the "Averaged" line of hash and lock-pi */
static void timed_report(const struct futex_common *c, const struct timed_worker *w, unsigned int secs,
			 bool one_futex)
{
	struct bench_stats st = { 0 };

	for (unsigned int i = 0; i < c->threads; i++) {
		unsigned long rate = secs ? w[i].ops / secs : 0;

		bench_stats_add(&st, (double)rate);
		if (c->silent)
			continue;
		if (one_futex)
			printf("[thread %3u] futex: %p [ %lu ops/sec ]\n", i, (void *)w[i].first, rate);
		else
			printf("[thread %2u] futexes: %p ... %p [ %lu ops/sec ]\n", i, (void *)w[i].first,
			       (void *)w[i].last, rate);
	}
	if (!c->silent)
		printf("\n");
	printf("Averaged %lu operations/sec (+- %.2f%%), total secs = %u\n", (unsigned long)st.mean,
	       bench_stats_rel(&st), secs);
}

/* ---- futex hash ---- */

/* FUTEX_WAIT on every futex of the thread with a value that never matches: a hash lookup each */
static void *hash_worker_run(void *arg)
{
	struct timed_arg *a = arg;
	struct timed_run *run = a->run;
	int op = futex_op(run->c, FUTEX_WAIT);

	bench_pin_cpu(a->w->id);
	bench_gate_wait(&run->gate);
	while (!flag_get(&run->done)) {
		for (unsigned int i = 0; i < run->nr_futexes; i++)
			sys_futex(&a->w->first[i], op, 1, NULL, NULL, 0);
		a->w->ops += run->nr_futexes;
	}
	return NULL;
}

static const char *const hash_usage[] = { "perf bench futex hash <options>", NULL };

int bench_futex_hash(int argc, const char **argv)
{
	struct futex_common c = { 0 };
	unsigned int runtime = 10, nr_futexes = 1024;
	const struct opt_spec options[] = {
		SPEC_UINT("threads", 't', &c.threads, "Specify amount of threads"),
		SPEC_UINT("runtime", 'r', &runtime, "Specify runtime (in seconds)"),
		SPEC_UINT("futexes", 'f', &nr_futexes, "Specify amount of futexes per threads"),
		SPEC_FLAG("silent", 's', &c.silent, "Silent mode: do not display data/details"),
		SPEC_FLAG("shared", 'S', &c.shared, "Use shared futexes instead of private ones"),
		SPEC_FLAG("mlockall", 'm', &c.mlock, "Lock all current and future memory"),
		SPEC_END(),
	};
	struct timed_run run = { .c = &c };
	struct timed_worker *w;
	struct timed_arg *args;
	unsigned int secs;

	if (opts_parse(argc, argv, options, hash_usage, 0) > 1)
		opts_usage_exit(hash_usage, options);
	futex_common_apply(&c);
	if (!nr_futexes)
		nr_futexes = 1;
	run.nr_futexes = nr_futexes;
	printf("Run summary [PID %d]: %u threads, each operating on %u [%s] futexes for %u secs.\n\n",
	       getpid(), c.threads, nr_futexes, futex_kind(&c), runtime);
	fflush(stdout);
	w = xcalloc(c.threads, sizeof(*w));
	args = xcalloc(c.threads, sizeof(*args));
	for (unsigned int i = 0; i < c.threads; i++) {
		w[i].id = (int)i;
		w[i].first = xcalloc(nr_futexes, sizeof(u32));
		w[i].last = w[i].first + nr_futexes - 1;
	}
	secs = timed_run_go(&run, w, hash_worker_run, args, runtime);
	timed_report(&c, w, secs, false);
	for (unsigned int i = 0; i < c.threads; i++)
		free(w[i].first);
	free(w);
	free(args);
	return 0;
}

/* ---- futex lock-pi ---- */

static u32 lock_pi_futex;

/* take and drop a PI futex, with a short sleep between pairs */
static void *lock_pi_worker_run(void *arg)
{
	struct timed_arg *a = arg;
	struct timed_run *run = a->run;
	int lock = futex_op(run->c, FUTEX_LOCK_PI), unlock = futex_op(run->c, FUTEX_UNLOCK_PI);

	bench_pin_cpu(a->w->id);
	bench_gate_wait(&run->gate);
	while (!flag_get(&run->done)) {
		if (sys_futex(a->w->first, lock, 0, NULL, NULL, 0))
			continue;
		a->w->ops++;
		usleep(1);
		sys_futex(a->w->first, unlock, 0, NULL, NULL, 0);
	}
	return NULL;
}

static const char *const lock_pi_usage[] = { "perf bench futex lock-pi <options>", NULL };

int bench_futex_lock_pi(int argc, const char **argv)
{
	struct futex_common c = { 0 };
	unsigned int runtime = 10;
	bool multi = false;
	const struct opt_spec options[] = {
		SPEC_UINT("threads", 't', &c.threads, "Specify amount of threads"),
		SPEC_UINT("runtime", 'r', &runtime, "Specify runtime (in seconds)"),
		SPEC_FLAG("multi", 'M', &multi, "Use multiple futexes"),
		SPEC_FLAG("silent", 's', &c.silent, "Silent mode: do not display data/details"),
		SPEC_FLAG("shared", 'S', &c.shared, "Use shared futexes instead of private ones"),
		SPEC_FLAG("mlockall", 'm', &c.mlock, "Lock all current and future memory"),
		SPEC_END(),
	};
	struct timed_run run = { .c = &c };
	struct timed_worker *w;
	struct timed_arg *args;
	unsigned int secs;

	if (opts_parse(argc, argv, options, lock_pi_usage, 0) > 1)
		opts_usage_exit(lock_pi_usage, options);
	futex_common_apply(&c);
	printf("Run summary [PID %d]: %u threads doing pi lock/unlock pairing for %u secs.\n\n", getpid(),
	       c.threads, runtime);
	fflush(stdout);
	w = xcalloc(c.threads, sizeof(*w));
	args = xcalloc(c.threads, sizeof(*args));
	for (unsigned int i = 0; i < c.threads; i++) {
		w[i].id = (int)i;
		w[i].first = multi ? xcalloc(1, sizeof(u32)) : &lock_pi_futex;
		w[i].last = w[i].first;
	}
	secs = timed_run_go(&run, w, lock_pi_worker_run, args, runtime);
	timed_report(&c, w, secs, true);
	for (unsigned int i = 0; multi && i < c.threads; i++)
		free(w[i].first);
	free(w);
	free(args);
	return 0;
}

/* ---- blocked waiters shared by wake, wake-parallel and requeue ---- */

struct waiters {
	pthread_t *th;
	unsigned int nr;
	u32 *futex, *target; /* target: the PI futex of requeue -p */
	int op;
	bool pi;
	struct bench_gate gate; /* every waiter started before any blocks */
};

static void *waiter_run(void *arg)
{
	struct waiters *ws = arg;

	bench_gate_wait(&ws->gate);
	if (ws->pi) {
		int unlock = ws->op == (FUTEX_WAIT_REQUEUE_PI | FUTEX_PRIVATE_FLAG)
				     ? FUTEX_UNLOCK_PI | FUTEX_PRIVATE_FLAG
				     : FUTEX_UNLOCK_PI;

		/* back from the requeue owning the PI futex: hand it on */
		if (!sys_futex(ws->futex, ws->op, 0, NULL, ws->target, 0))
			sys_futex(ws->target, unlock, 0, NULL, NULL, 0);
		return NULL;
	}
	sys_futex(ws->futex, ws->op, 0, NULL, NULL, 0);
	return NULL;
}

/*
 * start @ws->nr threads blocking on the futex, waiter i born on cpu i (mod
 * the cpus: none starts elsewhere and migrates); once all have started they
 * are let on together, then given 100 ms to block
 */
static void waiters_start(struct waiters *ws)
{
	int nr_cpus = bench_nr_cpus();

	bench_gate_init(&ws->gate, (int)ws->nr);
	for (unsigned int i = 0; i < ws->nr; i++) {
		pthread_attr_t attr;
		cpu_set_t set;
		int err;

		CPU_ZERO(&set);
		CPU_SET((int)i % nr_cpus, &set);
		pthread_attr_init(&attr);
		pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
		err = pthread_create(&ws->th[i], &attr, waiter_run, ws);
		pthread_attr_destroy(&attr);
		if (err) {
			errno = err;
			perror("pthread_create");
			exit(1);
		}
	}
	bench_gate_ready(&ws->gate);
	bench_gate_open(&ws->gate);
	usleep(100000);
}

static void waiters_join(struct waiters *ws)
{
	for (unsigned int i = 0; i < ws->nr; i++)
		pthread_join(ws->th[i], NULL);
	bench_gate_release(&ws->gate);
}

/* ---- futex wake ---- */

static u32 wake_futex;

static const char *const wake_usage[] = { "perf bench futex wake <options>", NULL };

int bench_futex_wake(int argc, const char **argv)
{
	struct futex_common c = { 0 };
	unsigned int nwakes = 1;
	const struct opt_spec options[] = {
		SPEC_UINT("threads", 't', &c.threads, "Specify amount of threads"),
		SPEC_UINT("nwakes", 'w', &nwakes, "Specify amount of threads to wake at once"),
		SPEC_FLAG("silent", 's', &c.silent, "Silent mode: do not display data/details"),
		SPEC_FLAG("shared", 'S', &c.shared, "Use shared futexes instead of private ones"),
		SPEC_FLAG("mlockall", 'm', &c.mlock, "Lock all current and future memory"),
		SPEC_END(),
	};
	struct bench_stats times = { 0 }, woken = { 0 };
	struct waiters ws;

	if (opts_parse(argc, argv, options, wake_usage, 0) > 1)
		opts_usage_exit(wake_usage, options);
	futex_common_apply(&c);
	printf("Run summary [PID %d]: blocking on %u threads (at [%s] futex %p), waking up %u at a time.\n\n",
	       getpid(), c.threads, futex_kind(&c), (void *)&wake_futex, nwakes);
	fflush(stdout);
	ws = (struct waiters){ .th = xcalloc(c.threads, sizeof(pthread_t)), .nr = c.threads,
			       .futex = &wake_futex, .op = futex_op(&c, FUTEX_WAIT) };
	for (unsigned int run = 1; run <= bench_repeat; run++) {
		unsigned int done = 0;
		struct timeval t0;
		double usec;

		waiters_start(&ws);
		gettimeofday(&t0, NULL);
		while (done < c.threads) {
			long r = sys_futex(&wake_futex, futex_op(&c, FUTEX_WAKE), nwakes, NULL, NULL, 0);

			if (r > 0)
				done += (unsigned int)r;
		}
		usec = bench_usec_since(&t0);
		bench_stats_add(&times, usec);
		bench_stats_add(&woken, done);
		if (!c.silent)
			printf("[Run %u]: Wokeup %u of %u threads in %.4f ms\n", run, done, c.threads,
			       usec / 1e3);
		waiters_join(&ws);
	}
	printf("Wokeup %u of %u threads in %.4f ms (+-%.2f%%)\n", (unsigned int)woken.mean, c.threads,
	       times.mean / 1e3, bench_stats_rel(&times));
	free(ws.th);
	return 0;
}

/* ---- futex wake-parallel ---- */

static u32 wake_parallel_futex;

struct waker {
	pthread_t th;
	const struct futex_common *c;
	struct bench_gate *gate;
	unsigned int share;
	double usec;
};

/* wake this waker's share of the blocked threads; time it */
static void *waker_run(void *arg)
{
	struct waker *k = arg;
	unsigned int done = 0;
	struct timeval t0;

	bench_gate_wait(k->gate);
	gettimeofday(&t0, NULL);
	while (done < k->share) {
		long r = sys_futex(&wake_parallel_futex, futex_op(k->c, FUTEX_WAKE), k->share - done, NULL,
				   NULL, 0);

		if (r > 0)
			done += (unsigned int)r;
	}
	k->usec = bench_usec_since(&t0);
	return NULL;
}

static const char *const wake_parallel_usage[] = { "perf bench futex wake-parallel <options>", NULL };

int bench_futex_wake_parallel(int argc, const char **argv)
{
	struct futex_common c = { 0 };
	unsigned int nwakers = 0;
	const struct opt_spec options[] = {
		SPEC_UINT("threads", 't', &c.threads, "Specify amount of threads"),
		SPEC_UINT("nwakers", 'w', &nwakers, "Specify amount of waking threads"),
		SPEC_FLAG("silent", 's', &c.silent, "Silent mode: do not display data/details"),
		SPEC_FLAG("shared", 'S', &c.shared, "Use shared futexes instead of private ones"),
		SPEC_FLAG("mlockall", 'm', &c.mlock, "Lock all current and future memory"),
		SPEC_END(),
	};
	struct bench_stats runs = { 0 };
	struct waiters ws;
	struct waker *k;
	unsigned int share;

	if (opts_parse(argc, argv, options, wake_parallel_usage, 0) > 1)
		opts_usage_exit(wake_parallel_usage, options);
	futex_common_apply(&c);
	if (!nwakers)
		nwakers = 2;
	if (nwakers > c.threads)
		nwakers = c.threads;
	if (c.threads % nwakers) {
		fflush(stdout);
		fprintf(stderr, "%s: Must be perfectly divisible\n", prog_name);
		return 1;
	}
	share = c.threads / nwakers;
	printf("Run summary [PID %d]: blocking on %u threads (at [%s] futex %p), %u threads waking up %u at a time.\n\n",
	       getpid(), c.threads, futex_kind(&c), (void *)&wake_parallel_futex, nwakers, share);
	fflush(stdout);
	ws = (struct waiters){ .th = xcalloc(c.threads, sizeof(pthread_t)), .nr = c.threads,
			       .futex = &wake_parallel_futex, .op = futex_op(&c, FUTEX_WAIT) };
	k = xcalloc(nwakers, sizeof(*k));
	for (unsigned int run = 1; run <= bench_repeat; run++) {
		struct bench_stats st = { 0 };
		struct bench_gate gate;

		waiters_start(&ws);
		bench_gate_init(&gate, (int)nwakers);
		for (unsigned int i = 0; i < nwakers; i++) {
			k[i] = (struct waker){ .c = &c, .gate = &gate, .share = share };
			if (pthread_create(&k[i].th, NULL, waker_run, &k[i])) {
				perror("pthread_create");
				exit(1);
			}
		}
		bench_gate_ready(&gate);
		bench_gate_open(&gate);
		for (unsigned int i = 0; i < nwakers; i++) {
			pthread_join(k[i].th, NULL);
			bench_stats_add(&st, k[i].usec);
		}
		bench_gate_release(&gate);
		waiters_join(&ws);
		bench_stats_add(&runs, st.mean);
		if (!c.silent)
			printf("[Run %u]: Avg per-thread latency (waking %u/%u threads) in %.4f ms (+-%.2f%%)\n",
			       run, share, c.threads, st.mean / 1e3, bench_stats_rel(&st));
	}
	printf("Avg per-thread latency (waking %u/%u threads) in %.4f ms (+-%.2f%%)\n", share, c.threads,
	       runs.mean / 1e3, bench_stats_rel(&runs));
	free(k);
	free(ws.th);
	return 0;
}

/* ---- futex requeue ---- */

/* [1] is where the threads block, [0] where they are requeued to (perf's order in memory) */
static u32 requeue_futex[2];

static const char *const requeue_usage[] = { "perf bench futex requeue <options>", NULL };

int bench_futex_requeue(int argc, const char **argv)
{
	struct futex_common c = { 0 };
	unsigned int nrequeue = 1;
	bool broadcast = false, pi = false;
	const struct opt_spec options[] = {
		SPEC_UINT("threads", 't', &c.threads, "Specify amount of threads"),
		SPEC_UINT("nrequeue", 'q', &nrequeue, "Specify amount of threads to requeue at once"),
		SPEC_FLAG("broadcast", 'B', &broadcast, "Requeue all threads at once"),
		SPEC_FLAG("pi", 'p', &pi, "Use PI-aware variants of FUTEX_CMP_REQUEUE"),
		SPEC_FLAG("silent", 's', &c.silent, "Silent mode: do not display data/details"),
		SPEC_FLAG("shared", 'S', &c.shared, "Use shared futexes instead of private ones"),
		SPEC_FLAG("mlockall", 'm', &c.mlock, "Lock all current and future memory"),
		SPEC_END(),
	};
	u32 *from = &requeue_futex[1], *to = &requeue_futex[0];
	struct bench_stats times = { 0 }, moved = { 0 };
	struct waiters ws;

	if (opts_parse(argc, argv, options, requeue_usage, 0) > 1)
		opts_usage_exit(requeue_usage, options);
	futex_common_apply(&c);
	if (broadcast || nrequeue > c.threads)
		nrequeue = c.threads;
	printf("Run summary [PID %d]: Requeuing %u threads (from [%s] %p to %s%p), %u at a time.\n\n", getpid(),
	       c.threads, futex_kind(&c), (void *)from, pi ? "PI " : "", (void *)to, nrequeue);
	fflush(stdout);
	ws = (struct waiters){ .th = xcalloc(c.threads, sizeof(pthread_t)), .nr = c.threads, .futex = from,
			       .target = to, .pi = pi,
			       .op = futex_op(&c, pi ? FUTEX_WAIT_REQUEUE_PI : FUTEX_WAIT) };
	for (unsigned int run = 1; run <= bench_repeat; run++) {
		unsigned int woke = 0, requeued = 0;
		struct timeval t0;
		double usec;

		*from = 0;
		*to = 0;
		waiters_start(&ws);
		gettimeofday(&t0, NULL);
		while (woke + requeued < c.threads) {
			long r;

			if (pi) {
				/* one waiter takes the PI futex, up to nrequeue more are moved onto it */
				r = sys_futex(from, futex_op(&c, FUTEX_CMP_REQUEUE_PI), 1,
					      (void *)(uintptr_t)nrequeue, to, 0);
				if (r > 0) {
					woke++;
					requeued += (unsigned int)r - 1;
				}
				continue;
			}
			r = sys_futex(from, futex_op(&c, FUTEX_CMP_REQUEUE), 0, (void *)(uintptr_t)nrequeue, to,
				      0);
			if (r > 0)
				requeued += (unsigned int)r;
		}
		usec = bench_usec_since(&t0);
		bench_stats_add(&times, usec);
		bench_stats_add(&moved, woke + requeued);
		if (!c.silent) {
			if (pi)
				printf("[Run %u]: Awoke and Requeued (%u+%u) of %u threads in %.4f ms\n", run, woke,
				       requeued, c.threads, usec / 1e3);
			else
				printf("[Run %u]: Requeued %u of %u threads in %.4f ms\n", run, requeued, c.threads,
				       usec / 1e3);
		}
		if (!pi) {
			unsigned int done = 0;

			while (done < c.threads) {
				long r = sys_futex(to, futex_op(&c, FUTEX_WAKE), c.threads, NULL, NULL, 0);

				if (r > 0)
					done += (unsigned int)r;
			}
		}
		waiters_join(&ws);
	}
	printf("Requeued %u of %u threads in %.4f ms (+-%.2f%%)\n", (unsigned int)moved.mean, c.threads,
	       times.mean / 1e3, bench_stats_rel(&times));
	free(ws.th);
	return 0;
}
