/* SPDX-License-Identifier: MIT */
/* sonde bench epoll: wait (writers feed eventfds, workers epoll_wait) and ctl (ADD/MOD/DEL storms) as perf bench's. */
#include "cmd/bench.h"
#include "builtin.h"
#include "lib/optspec.h"
#include "lib/util.h"
#include "lib/xalloc.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <unistd.h>

/* what both epoll benchmarks take */
struct epoll_common {
	unsigned int threads, nfds, runtime, nested;
	bool noaffinity, randomize, verbose;
};

struct wait_run;

struct epoll_worker {
	pthread_t th;
	int id, epfd;
	int *fdmap;
	unsigned long ops[3]; /* wait: ops[0]; ctl: add, mod, del */
	unsigned int seed;
	struct wait_run *run; /* wait: the run it belongs to */
};

static bool stop_get(const bool *flag)
{
	return __atomic_load_n(flag, __ATOMIC_RELAXED);
}

/* room for every eventfd and epoll instance: perf's figure, said with -v */
static void epoll_set_nofile(const struct epoll_common *c)
{
	struct rlimit rl;
	rlim_t want = (rlim_t)c->threads * c->nfds * 2 + 50;

	if (getrlimit(RLIMIT_NOFILE, &rl))
		return;
	if (c->verbose)
		printf("Setting RLIMIT_NOFILE rlimit from %llu to: %llu\n", (unsigned long long)rl.rlim_cur,
		       (unsigned long long)want);
	rl.rlim_cur = want;
	if (rl.rlim_max < want)
		rl.rlim_max = want;
	if (setrlimit(RLIMIT_NOFILE, &rl))
		perror("setrlimit(RLIMIT_NOFILE)");
}

/* -N: an epoll chain above @base, each level watching the one below */
static void epoll_nest(int base, unsigned int levels, int *chain)
{
	int below = base;

	for (unsigned int i = 0; i < levels; i++) {
		struct epoll_event ev = { .events = EPOLLHUP };

		chain[i] = epoll_create1(0);
		if (chain[i] < 0 || epoll_ctl(chain[i], EPOLL_CTL_ADD, below, &ev)) {
			perror("epoll nesting");
			exit(1);
		}
		below = chain[i];
	}
}

/* the eventfds of each worker */
static void epoll_workers_new(struct epoll_worker *w, const struct epoll_common *c)
{
	for (unsigned int i = 0; i < c->threads; i++) {
		w[i].id = (int)i;
		w[i].seed = i + 1;
		w[i].fdmap = xcalloc(c->nfds ? c->nfds : 1, sizeof(int));
		for (unsigned int j = 0; j < c->nfds; j++) {
			w[i].fdmap[j] = eventfd(0, EFD_NONBLOCK);
			if (w[i].fdmap[j] < 0) {
				perror("eventfd");
				exit(1);
			}
		}
	}
}

static void epoll_workers_free(struct epoll_worker *w, const struct epoll_common *c)
{
	for (unsigned int i = 0; i < c->threads; i++) {
		for (unsigned int j = 0; j < c->nfds; j++)
			close(w[i].fdmap[j]);
		free(w[i].fdmap);
	}
	free(w);
}

/* "[thread  N] fdmap: FIRST ... LAST [ " */
static void epoll_fdmap_print(const struct epoll_worker *w, const struct epoll_common *c)
{
	printf("[thread %2d] fdmap: %p ... %p [ ", w->id, (void *)w->fdmap,
	       (void *)(w->fdmap + (long)c->nfds - 1));
}

/* ---- epoll wait ---- */

struct wait_run {
	struct epoll_common c;
	bool edge, oneshot, nonblocking, multiq;
	bool done;
	struct bench_gate gate;
	struct epoll_worker *w;
	unsigned long full_loops;
};

static void *wait_worker_run(void *arg)
{
	struct epoll_worker *w = arg;
	struct wait_run *run = w->run;
	u32 flags = EPOLLIN | (run->edge ? EPOLLET : 0) | (run->oneshot ? EPOLLONESHOT : 0);

	if (!run->c.noaffinity)
		bench_pin_cpu(w->id);
	bench_gate_wait(&run->gate);
	while (!stop_get(&run->done)) {
		struct epoll_event ev;
		u64 val;
		int n = epoll_wait(w->epfd, &ev, 1, run->nonblocking ? 0 : 100);

		if (n <= 0)
			continue;
		if (read(ev.data.fd, &val, sizeof(val)) != sizeof(val))
			continue;
		w->ops[0]++;
		if (run->oneshot) {
			struct epoll_event re = { .events = flags, .data.fd = ev.data.fd };

			epoll_ctl(w->epfd, EPOLL_CTL_MOD, ev.data.fd, &re);
		}
	}
	return NULL;
}

/* writes 1 to every fd of every worker in turn (or to random ones) until told to stop */
static void *wait_writer_run(void *arg)
{
	struct wait_run *run = arg;
	unsigned int seed = 12345;
	u64 one = 1;

	bench_gate_wait(&run->gate);
	while (!stop_get(&run->done)) {
		for (unsigned int i = 0; i < run->c.threads; i++)
			for (unsigned int j = 0; j < run->c.nfds; j++) {
				unsigned int t = i, f = j;

				if (run->c.randomize) {
					t = (unsigned int)rand_r(&seed) % run->c.threads;
					f = (unsigned int)rand_r(&seed) % run->c.nfds;
				}
				if (write(run->w[t].fdmap[f], &one, sizeof(one)) < 0 && errno != EAGAIN)
					return NULL;
			}
		run->full_loops++;
		/* a breather between rounds, as perf's writer (its loop rate on few fds) */
		usleep(1);
	}
	return NULL;
}

static const char *const wait_usage[] = { "perf bench epoll wait <options>", NULL };

int bench_epoll_wait(int argc, const char **argv)
{
	struct wait_run run = { .c = { .nfds = 64, .runtime = 8 } };
	const struct opt_spec options[] = {
		SPEC_UINT("threads", 't', &run.c.threads, "Specify amount of threads"),
		SPEC_UINT("runtime", 'r', &run.c.runtime, "Specify runtime (in seconds)"),
		SPEC_UINT("nfds", 'f', &run.c.nfds, "Specify amount of file descriptors to monitor for each thread"),
		SPEC_FLAG("noaffinity", 'n', &run.c.noaffinity, "Disables CPU affinity"),
		SPEC_FLAG("nonblocking", 'B', &run.nonblocking, "Nonblocking epoll_wait(2) behaviour"),
		SPEC_FLAG("edge", 'E', &run.edge, "Use Edge-triggered interface (default is LT)"),
		SPEC_FLAG("oneshot", 'S', &run.oneshot, "Use EPOLLONESHOT semantics"),
		SPEC_FLAG("multiq", 'm', &run.multiq, "Use multiple epoll instances (one per thread)"),
		SPEC_UINT("nested", 'N', &run.c.nested, "Nesting level epoll hierarchy (default is 0, no nesting)"),
		SPEC_FLAG("randomize", 'R', &run.c.randomize, "Enable random write behaviour (default is lineal)"),
		SPEC_FLAG("verbose", 'v', &run.c.verbose, "Verbose mode"),
		SPEC_END(),
	};
	struct bench_stats st = { 0 };
	struct timeval t0, t1, d;
	pthread_t writer;
	int shared_ep = -1, *chain;
	unsigned int secs, nr_ep;
	u32 flags;

	if (opts_parse(argc, argv, options, wait_usage, 0) > 1)
		opts_usage_exit(wait_usage, options);
	if (!run.c.threads)
		run.c.threads = (unsigned int)bench_nr_cpus();
	if (run.c.verbose) {
		printf("Using %s queue model\n", run.multiq ? "multi" : "single");
		printf("Nesting level(s): %u\n", run.c.nested);
	}
	epoll_set_nofile(&run.c);
	printf("Run summary [PID %d]: %u threads monitoring%s on %u file-descriptors for %u secs.\n\n", getpid(),
	       run.c.threads, run.oneshot ? " (EPOLLONESHOT semantics)" : "", run.c.nfds, run.c.runtime);
	fflush(stdout);
	flags = EPOLLIN | (run.edge ? EPOLLET : 0) | (run.oneshot ? EPOLLONESHOT : 0);
	run.w = xcalloc(run.c.threads, sizeof(*run.w));
	epoll_workers_new(run.w, &run.c);
	nr_ep = run.multiq ? run.c.threads : 1;
	chain = xcalloc((size_t)nr_ep * run.c.nested + 1, sizeof(int));
	for (unsigned int i = 0; i < run.c.threads; i++) {
		struct epoll_worker *w = &run.w[i];

		if (run.multiq || shared_ep < 0) {
			w->epfd = epoll_create1(0);
			if (w->epfd < 0) {
				perror("epoll_create1");
				return 1;
			}
			epoll_nest(w->epfd, run.c.nested, chain + (size_t)(run.multiq ? i : 0) * run.c.nested);
			shared_ep = w->epfd;
		}
		w->epfd = shared_ep;
		for (unsigned int j = 0; j < run.c.nfds; j++) {
			struct epoll_event ev = { .events = flags, .data.fd = w->fdmap[j] };

			if (epoll_ctl(w->epfd, EPOLL_CTL_ADD, w->fdmap[j], &ev)) {
				perror("epoll_ctl");
				return 1;
			}
		}
	}
	if (run.c.verbose)
		printf("starting worker/consumer %sthreads%s\n", run.c.noaffinity ? "" : "CPU affinity ",
		       run.nonblocking ? " (nonblocking)" : "");
	bench_gate_init(&run.gate, (int)run.c.threads + 1);
	for (unsigned int i = 0; i < run.c.threads; i++) {
		run.w[i].run = &run;
		if (pthread_create(&run.w[i].th, NULL, wait_worker_run, &run.w[i])) {
			perror("pthread_create");
			return 1;
		}
	}
	if (run.c.verbose)
		printf("starting writer-thread: doing %s writes ...\n", run.c.randomize ? "random" : "lineal");
	if (pthread_create(&writer, NULL, wait_writer_run, &run)) {
		perror("pthread_create");
		return 1;
	}
	bench_gate_ready(&run.gate);
	gettimeofday(&t0, NULL);
	bench_gate_open(&run.gate);
	sleep(run.c.runtime);
	__atomic_store_n(&run.done, true, __ATOMIC_RELAXED);
	if (run.c.verbose)
		printf("main thread: toggling done\n");
	pthread_join(writer, NULL);
	if (run.c.verbose)
		printf("exiting writer-thread (total full-loops: %lu)\n", run.full_loops);
	for (unsigned int i = 0; i < run.c.threads; i++)
		pthread_join(run.w[i].th, NULL);
	gettimeofday(&t1, NULL);
	timersub(&t1, &t0, &d);
	secs = (unsigned int)d.tv_sec;
	for (unsigned int i = 0; i < run.c.threads; i++) {
		unsigned long rate = secs ? run.w[i].ops[0] / secs : 0;

		bench_stats_add(&st, (double)rate);
		epoll_fdmap_print(&run.w[i], &run.c);
		printf("%04lu ops/sec ]\n", rate);
	}
	printf("\nAveraged %lu operations/sec (+- %.2f%%), total secs = %u\n", (unsigned long)st.mean,
	       bench_stats_rel(&st), secs);
	bench_gate_release(&run.gate);
	for (unsigned int i = 0; i < (run.multiq ? run.c.threads : 1); i++) {
		close(run.w[i].epfd);
		for (unsigned int l = 0; l < run.c.nested; l++)
			close(chain[(size_t)i * run.c.nested + l]);
	}
	free(chain);
	epoll_workers_free(run.w, &run.c);
	return 0;
}

/* ---- epoll ctl ---- */

struct ctl_run {
	struct epoll_common c;
	bool done;
	int epfd;
	struct bench_gate gate;
};

struct ctl_arg {
	struct ctl_run *run;
	struct epoll_worker *w;
};

static const int ctl_ops[3] = { EPOLL_CTL_ADD, EPOLL_CTL_MOD, EPOLL_CTL_DEL };

/* one ADD, MOD or DEL of fd @j; counted when the kernel took it */
static void ctl_one(struct ctl_run *run, struct epoll_worker *w, int op, unsigned int j)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.fd = w->fdmap[j] };

	if (!epoll_ctl(run->epfd, ctl_ops[op], w->fdmap[j], &ev))
		w->ops[op]++;
}

static void *ctl_worker_run(void *arg)
{
	struct ctl_arg *a = arg;
	struct ctl_run *run = a->run;
	struct epoll_worker *w = a->w;

	if (!run->c.noaffinity)
		bench_pin_cpu(w->id);
	bench_gate_wait(&run->gate);
	while (!stop_get(&run->done)) {
		if (run->c.randomize) {
			for (unsigned int k = 0; k < run->c.nfds; k++)
				ctl_one(run, w, rand_r(&w->seed) % 3,
					(unsigned int)rand_r(&w->seed) % run->c.nfds);
			continue;
		}
		for (int op = 0; op < 3; op++)
			for (unsigned int j = 0; j < run->c.nfds; j++)
				ctl_one(run, w, op, j);
	}
	return NULL;
}

static const char *const ctl_usage[] = { "perf bench epoll ctl <options>", NULL };

int bench_epoll_ctl(int argc, const char **argv)
{
	struct ctl_run run = { .c = { .nfds = 64, .runtime = 8 } };
	const struct opt_spec options[] = {
		SPEC_UINT("threads", 't', &run.c.threads, "Specify amount of threads"),
		SPEC_UINT("runtime", 'r', &run.c.runtime, "Specify runtime (in seconds)"),
		SPEC_UINT("nfds", 'f', &run.c.nfds, "Specify amount of file descriptors to monitor for each thread"),
		SPEC_FLAG("noaffinity", 'n', &run.c.noaffinity, "Disables CPU affinity"),
		SPEC_UINT("nested", 'N', &run.c.nested, "Nesting level epoll hierarchy (default is 0, no nesting)"),
		SPEC_FLAG("randomize", 'R', &run.c.randomize, "Perform random operations on random fds"),
		SPEC_FLAG("verbose", 'v', &run.c.verbose, "Verbose mode"),
		SPEC_END(),
	};
	struct bench_stats st[3] = { { 0 } };
	static const char *const names[3] = { "ADD", "MOD", "DEL" };
	struct epoll_worker *w;
	struct ctl_arg *args;
	int *chain;

	if (opts_parse(argc, argv, options, ctl_usage, 0) > 1)
		opts_usage_exit(ctl_usage, options);
	if (!run.c.threads)
		run.c.threads = (unsigned int)bench_nr_cpus();
	epoll_set_nofile(&run.c);
	printf("Run summary [PID %d]: %u threads doing epoll_ctl ops %u file-descriptors for %u secs.\n\n",
	       getpid(), run.c.threads, run.c.nfds, run.c.runtime);
	fflush(stdout);
	run.epfd = epoll_create1(0);
	if (run.epfd < 0) {
		perror("epoll_create1");
		return 1;
	}
	chain = xcalloc(run.c.nested + 1, sizeof(int));
	epoll_nest(run.epfd, run.c.nested, chain);
	w = xcalloc(run.c.threads, sizeof(*w));
	args = xcalloc(run.c.threads, sizeof(*args));
	epoll_workers_new(w, &run.c);
	bench_gate_init(&run.gate, (int)run.c.threads);
	for (unsigned int i = 0; i < run.c.threads; i++) {
		args[i] = (struct ctl_arg){ &run, &w[i] };
		if (pthread_create(&w[i].th, NULL, ctl_worker_run, &args[i])) {
			perror("pthread_create");
			return 1;
		}
	}
	bench_gate_ready(&run.gate);
	bench_gate_open(&run.gate);
	sleep(run.c.runtime);
	__atomic_store_n(&run.done, true, __ATOMIC_RELAXED);
	if (run.c.verbose)
		printf("main thread: toggling done\n");
	for (unsigned int i = 0; i < run.c.threads; i++)
		pthread_join(w[i].th, NULL);
	for (unsigned int i = 0; i < run.c.threads; i++) {
		epoll_fdmap_print(&w[i], &run.c);
		printf("add: %lu ops; mod: %lu ops; del: %lu ops ]\n", w[i].ops[0], w[i].ops[1], w[i].ops[2]);
		for (int op = 0; op < 3; op++)
			bench_stats_add(&st[op], (double)w[i].ops[op]);
	}
	printf("\n");
	for (int op = 0; op < 3; op++)
		printf("Averaged %lu %s operations (+- %.2f%%)\n", (unsigned long)st[op].mean, names[op],
		       bench_stats_rel(&st[op]));
	bench_gate_release(&run.gate);
	for (unsigned int l = 0; l < run.c.nested; l++)
		close(chain[l]);
	free(chain);
	close(run.epfd);
	epoll_workers_free(w, &run.c);
	free(args);
	return 0;
}
