/* SPDX-License-Identifier: MIT */
/* sonde bench: perf bench's collections (sched and syscall here; mem, futex, epoll, internals in bench-*.c) and its dispatch. */
#include "cmd/bench.h"
#include "builtin.h"
#include "lib/optspec.h"
#include "lib/util.h"
#include "lib/xalloc.h"

#include <errno.h>
#include <math.h>
#include <sched.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

bool bench_simple_format;
unsigned int bench_repeat = 10;

static double now_sec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---- sched pipe ---- */

struct pipe_peer {
	int rfd, wfd, loops;
	bool first;
};

/* one side of the ping-pong: the first writes then reads, the other reads then writes */
static void *pipe_peer_run(void *arg)
{
	struct pipe_peer *p = arg;
	int m = 0;

	for (int i = 0; i < p->loops; i++) {
		if (p->first) {
			if (write(p->wfd, &m, sizeof(m)) != sizeof(m) ||
			    read(p->rfd, &m, sizeof(m)) != sizeof(m))
				break;
		} else {
			if (read(p->rfd, &m, sizeof(m)) != sizeof(m) ||
			    write(p->wfd, &m, sizeof(m)) != sizeof(m))
				break;
		}
	}
	return NULL;
}

static const char *const pipe_usage[] = { "perf bench sched pipe <options>", NULL };

static int bench_sched_pipe(int argc, const char **argv)
{
	int loops = 1000000;
	bool threaded = false;
	const struct opt_spec options[] = {
		SPEC_INT("loop", 'l', &loops, "Specify number of loops"),
		SPEC_FLAG("threaded", 'T', &threaded, "Specify threads/process based task setup"),
		SPEC_END(),
	};
	int a[2], b[2];
	struct pipe_peer p1, p2;
	double t0, t;

	argc = opts_parse(argc, argv, options, pipe_usage, 0);
	(void)argc;
	if (pipe(a) || pipe(b)) {
		perror("pipe");
		return 1;
	}
	p1 = (struct pipe_peer){ .rfd = b[0], .wfd = a[1], .loops = loops, .first = true };
	p2 = (struct pipe_peer){ .rfd = a[0], .wfd = b[1], .loops = loops, .first = false };
	t0 = now_sec();
	if (threaded) {
		pthread_t th;

		pthread_create(&th, NULL, pipe_peer_run, &p2);
		pipe_peer_run(&p1);
		pthread_join(th, NULL);
	} else {
		pid_t pid = fork();

		if (pid < 0) {
			perror("fork");
			return 1;
		}
		if (pid == 0) {
			pipe_peer_run(&p2);
			_exit(0);
		}
		pipe_peer_run(&p1);
		waitpid(pid, NULL, 0);
	}
	t = now_sec() - t0;
	close(a[0]);
	close(a[1]);
	close(b[0]);
	close(b[1]);
	if (bench_simple_format) {
		printf("%lu.%03lu\n", (unsigned long)t, (unsigned long)((t - (double)(unsigned long)t) * 1000));
		return 0;
	}
	printf("# Executed %d pipe operations between two %s\n\n", loops,
	       threaded ? "threads" : "processes");
	printf("     Total time: %lu.%03lu [sec]\n\n", (unsigned long)t,
	       (unsigned long)((t - (double)(unsigned long)t) * 1000));
	printf("%15f usecs/op\n", t * 1e6 / loops);
	printf("%15d ops/sec\n", (int)((double)loops / t));
	return 0;
}

/* ---- syscall basic ---- */

static const char *const syscall_usage[] = { "perf bench syscall <options>", NULL };

static int bench_syscall_basic(int argc, const char **argv)
{
	int loops = 10000000;
	const struct opt_spec options[] = {
		SPEC_INT("loop", 'l', &loops, "Specify number of loops"),
		SPEC_END(),
	};
	struct timeval t0;
	double usec, sec;

	argc = opts_parse(argc, argv, options, syscall_usage, 0);
	(void)argc;
	gettimeofday(&t0, NULL);
	for (int i = 0; i < loops; i++)
		syscall(SYS_getppid);
	usec = bench_usec_since(&t0);
	sec = usec / 1e6;
	if (bench_simple_format) {
		printf("%lu.%03lu\n", (unsigned long)sec, (unsigned long)((usec - (double)(unsigned long)sec * 1e6) / 1000));
		return 0;
	}
	printf("# Executed %d getppid() calls\n", loops);
	printf("     Total time: %lu.%03lu [sec]\n\n", (unsigned long)sec,
	       (unsigned long)((usec - (double)(unsigned long)sec * 1e6) / 1000));
	printf("%15f usecs/op\n", usec / loops);
	printf("%15d ops/sec\n", (int)((double)loops / sec));
	return 0;
}

/* ---- sched messaging (groups of senders writing to receivers over socketpairs or pipes) ---- */

#define MSG_SIZE 100
#define MSG_FDS 20

struct msg_worker {
	int fds[MSG_FDS]; /* sender: the write ends; receiver: fds[0] is its read end */
	int nr_fds, loops, expect;
	int ready_fd, wakeup_fd;
	bool sender;
};

static void msg_ready(struct msg_worker *w)
{
	char c = 0;

	/* say "ready", then wait for the start signal */
	if (write(w->ready_fd, &c, 1) != 1 || read(w->wakeup_fd, &c, 1) != 1)
		return;
}

static void *msg_worker_run(void *arg)
{
	struct msg_worker *w = arg;
	char buf[MSG_SIZE];

	msg_ready(w);
	memset(buf, 0, sizeof(buf));
	if (w->sender) {
		for (int i = 0; i < w->loops; i++)
			for (int j = 0; j < w->nr_fds; j++) {
				size_t done = 0;

				while (done < MSG_SIZE) {
					ssize_t n = write(w->fds[j], buf + done, MSG_SIZE - done);

					if (n <= 0)
						return NULL;
					done += (size_t)n;
				}
			}
	} else {
		long left = (long)w->expect * MSG_SIZE;

		while (left > 0) {
			ssize_t n = read(w->fds[0], buf, sizeof(buf));

			if (n <= 0)
				return NULL;
			left -= n;
		}
	}
	return NULL;
}

static const char *const msg_usage[] = { "perf bench sched messaging <options>", NULL };

static int bench_sched_messaging(int argc, const char **argv)
{
	int groups = 10, loops = 100;
	bool use_pipe = false, threads = false;
	const struct opt_spec options[] = {
		SPEC_INT("group", 'g', &groups, "Specify number of groups"),
		SPEC_INT("nr_loops", 'l', &loops, "Specify the number of loops to run (default: 100)"),
		SPEC_FLAG("pipe", 'p', &use_pipe, "Use pipe() instead of socketpair()"),
		SPEC_FLAG("thread", 't', &threads, "Be multi thread instead of multi process"),
		SPEC_END(),
	};
	int nr = 0, total, ready[2], wakeup[2];
	struct msg_worker *w;
	pthread_t *th;
	pid_t *pids;
	double t0, t;
	char c;

	argc = opts_parse(argc, argv, options, msg_usage, 0);
	(void)argc;
	if (groups < 1)
		groups = 1;
	total = groups * MSG_FDS * 2;
	w = xcalloc((size_t)total, sizeof(*w));
	th = xcalloc((size_t)total, sizeof(*th));
	pids = xcalloc((size_t)total, sizeof(*pids));
	if (pipe(ready) || pipe(wakeup)) {
		perror("pipe");
		return 1;
	}
	for (int g = 0; g < groups; g++) {
		int rd[MSG_FDS], wr[MSG_FDS];

		for (int i = 0; i < MSG_FDS; i++) {
			int fds[2];

			if (use_pipe ? pipe(fds) : socketpair(AF_UNIX, SOCK_STREAM, 0, fds)) {
				perror(use_pipe ? "pipe" : "socketpair");
				return 1;
			}
			rd[i] = fds[0];
			wr[i] = fds[1];
			w[nr] = (struct msg_worker){ .loops = loops, .expect = loops * MSG_FDS,
						     .ready_fd = ready[1], .wakeup_fd = wakeup[0] };
			w[nr].fds[0] = rd[i];
			w[nr].nr_fds = 1;
			nr++;
		}
		for (int i = 0; i < MSG_FDS; i++) {
			w[nr] = (struct msg_worker){ .loops = loops, .sender = true, .nr_fds = MSG_FDS,
						     .ready_fd = ready[1], .wakeup_fd = wakeup[0] };
			memcpy(w[nr].fds, wr, sizeof(wr));
			nr++;
		}
	}
	for (int i = 0; i < nr; i++) {
		if (threads) {
			pthread_create(&th[i], NULL, msg_worker_run, &w[i]);
			continue;
		}
		pids[i] = fork();
		if (pids[i] < 0) {
			perror("fork");
			return 1;
		}
		if (pids[i] == 0) {
			msg_worker_run(&w[i]);
			_exit(0);
		}
	}
	/* all ready: start them together */
	for (int i = 0; i < nr; i++)
		if (read(ready[0], &c, 1) != 1)
			break;
	t0 = now_sec();
	for (int i = 0; i < nr; i++)
		if (write(wakeup[1], &c, 1) != 1)
			break;
	for (int i = 0; i < nr; i++) {
		if (threads)
			pthread_join(th[i], NULL);
		else
			waitpid(pids[i], NULL, 0);
	}
	t = now_sec() - t0;
	for (int i = 0; i < nr; i++)
		for (int j = 0; j < (w[i].sender ? 0 : 1); j++)
			close(w[i].fds[j]);
	for (int i = 0; i < nr; i++)
		if (w[i].sender && (i % (2 * MSG_FDS)) == MSG_FDS)
			for (int j = 0; j < MSG_FDS; j++)
				close(w[i].fds[j]);
	close(ready[0]);
	close(ready[1]);
	close(wakeup[0]);
	close(wakeup[1]);
	if (bench_simple_format) {
		printf("%lu.%03lu\n", (unsigned long)t, (unsigned long)((t - (double)(unsigned long)t) * 1000));
	} else {
		printf("# %d sender and receiver %s per group\n", MSG_FDS, threads ? "threads" : "processes");
		printf("# %d groups == %d %s run\n\n", groups, total, threads ? "threads" : "processes");
		printf("     Total time: %lu.%03lu [sec]\n", (unsigned long)t,
		       (unsigned long)((t - (double)(unsigned long)t) * 1000));
	}
	free(w);
	free(th);
	free(pids);
	return 0;
}

/* ---- collections ---- */

struct bench {
	const char *name, *summary;
	int (*fn)(int argc, const char **argv); /* NULL: listed, not implemented */
};

static const struct bench sched_benches[] = {
	{ "messaging", "Benchmark for scheduling and IPC", bench_sched_messaging },
	{ "pipe", "Benchmark for pipe() between two processes", bench_sched_pipe },
	{ NULL, NULL, NULL },
};

static const struct bench syscall_benches[] = {
	{ "basic", "Benchmark for basic getppid(2) calls", bench_syscall_basic },
	{ NULL, NULL, NULL },
};

static const struct bench mem_benches[] = {
	{ "memcpy", "Benchmark for memcpy() functions", bench_memcpy },
	{ "memset", "Benchmark for memset() functions", bench_memset },
	{ "find_bit", "Benchmark for find_bit() functions", bench_mem_find_bit },
	{ NULL, NULL, NULL },
};

static const struct bench numa_benches[] = {
	{ "mem", "Benchmark for NUMA workloads", bench_numa_mem },
	{ NULL, NULL, NULL },
};

static const struct bench futex_benches[] = {
	{ "hash", "Benchmark for futex hash table", bench_futex_hash },
	{ "wake", "Benchmark for futex wake calls", bench_futex_wake },
	{ "wake-parallel", "Benchmark for parallel futex wake calls", bench_futex_wake_parallel },
	{ "requeue", "Benchmark for futex requeue calls", bench_futex_requeue },
	{ "lock-pi", "Benchmark for futex lock_pi calls", bench_futex_lock_pi },
	{ NULL, NULL, NULL },
};

static const struct bench epoll_benches[] = {
	{ "wait", "Benchmark epoll concurrent epoll_waits", bench_epoll_wait },
	{ "ctl", "Benchmark epoll concurrent epoll_ctls", bench_epoll_ctl },
	{ NULL, NULL, NULL },
};

static const struct bench internals_benches[] = {
	{ "synthesize", "Benchmark perf event synthesis", bench_internals_synthesize },
	{ "kallsyms-parse", "Benchmark kallsyms parsing", bench_internals_kallsyms_parse },
	{ "inject-build-id", "Benchmark build-id injection", bench_internals_inject_build_id },
	{ "evlist-open-close", "Benchmark evlist open and close", bench_internals_evlist_open_close },
	{ NULL, NULL, NULL },
};

static const struct bench breakpoint_benches[] = {
	{ "thread", "Benchmark thread start/finish with breakpoints", bench_breakpoint_thread },
	{ "enable", "Benchmark breakpoint enable/disable", bench_breakpoint_enable },
	{ NULL, NULL, NULL },
};

struct collection {
	const char *name, *summary;
	const struct bench *benches;
	const char *all_what; /* "Run all <all_what> benchmarks"; NULL: no such line (perf's internals) */
};

/* perf 6.1's collections, in its order (the order of "bench all") */
static const struct collection collections[] = {
	{ "sched", "Scheduler and IPC benchmarks", sched_benches, "scheduler" },
	{ "syscall", "System call benchmarks", syscall_benches, "syscall" },
	{ "mem", "Memory access benchmarks", mem_benches, "memory access" },
	{ "numa", "NUMA scheduling and MM benchmarks", numa_benches, "NUMA" },
	{ "futex", "Futex stressing benchmarks", futex_benches, "futex" },
	{ "epoll", "Epoll stressing benchmarks", epoll_benches, "futex" },
	{ "internals", "Perf-internals benchmarks", internals_benches, NULL },
	{ "breakpoint", "Breakpoint benchmarks", breakpoint_benches, "breakpoint" },
	{ NULL, NULL, NULL, NULL },
};

static void print_usage(void)
{
	printf("Usage: \n\tperf bench [<common options>] <collection> <benchmark> [<options>]\n\n");
	printf("        # List of all available benchmark collections:\n\n");
	for (int i = 0; collections[i].name; i++)
		printf("%14s: %s\n", collections[i].name, collections[i].summary);
	printf("%14s: %s\n", "all", "All benchmarks");
	printf("\n");
}

static void print_collection(const struct collection *c)
{
	printf("\n        # List of available benchmarks for collection '%s':\n\n", c->name);
	for (int i = 0; c->benches[i].name; i++)
		printf("%14s: %s\n", c->benches[i].name, c->benches[i].summary);
	if (c->all_what)
		printf("%14s: Run all %s benchmarks\n", "all", c->all_what);
	printf("\n");
}

static int not_implemented(const struct collection *c, const struct bench *b)
{
	fflush(stdout);
	fprintf(stderr, "%s: 'bench %s %s' is not implemented yet\n", prog_name, c->name, b->name);
	return 1;
}

static int run_bench(const struct collection *c, const struct bench *b, int argc, const char **argv)
{
	if (!bench_simple_format)
		printf("# Running '%s/%s' benchmark:\n", c->name, b->name);
	fflush(stdout);
	if (!b->fn)
		return not_implemented(c, b);
	return b->fn(argc, argv);
}

/* "all": every benchmark of the collection with its defaults, perf's header and a blank line after each */
static int run_collection(const struct collection *c)
{
	for (int i = 0; c->benches[i].name; i++) {
		const char *argv[] = { c->benches[i].name, NULL };

		printf("# Running %s/%s benchmark...\n", c->name, c->benches[i].name);
		fflush(stdout);
		if (c->benches[i].fn)
			c->benches[i].fn(1, argv);
		else
			not_implemented(c, &c->benches[i]);
		printf("\n");
		fflush(stdout);
	}
	return 0;
}

int cmd_bench(int argc, const char **argv)
{
	const char *format = "default";
	const struct opt_spec options[] = {
		SPEC_TEXT("format", 'f', &format, "default|simple", "Specify the output formatting style"),
		SPEC_UINT("repeat", 'r', &bench_repeat,
			 "Specify amount of times to repeat the run"),
		SPEC_END(),
	};
	const char *const usage[] = { "perf bench [<common options>] <collection> <benchmark> [<options>]",
				      NULL };
	const struct collection *c = NULL;

	argc = opts_parse(argc, argv, options, usage, OPTS_STOP_AT_ARG);
	/* perf says so on stdout and exits 0 */
	if (strcmp(format, "default") && strcmp(format, "simple")) {
		printf("Unknown format descriptor: '%s'\n", format);
		return 0;
	}
	bench_simple_format = !strcmp(format, "simple");
	if (!bench_repeat) {
		printf("Invalid repeat option: Must specify a positive value\n");
		return 0;
	}
	if (argc < 1) {
		print_usage();
		return 0;
	}
	if (!strcmp(argv[0], "all")) {
		for (int i = 0; collections[i].name; i++)
			run_collection(&collections[i]);
		return 0;
	}
	for (int i = 0; collections[i].name; i++)
		if (!strcmp(collections[i].name, argv[0]))
			c = &collections[i];
	if (!c) {
		printf("Unknown collection: '%s'\n", argv[0]);
		return 1;
	}
	if (argc < 2) {
		print_collection(c);
		return 0;
	}
	if (!strcmp(argv[1], "all"))
		return run_collection(c);
	for (int i = 0; c->benches[i].name; i++)
		if (!strcmp(c->benches[i].name, argv[1]))
			return run_bench(c, &c->benches[i], argc - 1, argv + 1);
	printf("Unknown benchmark: '%s' for collection '%s'\n", argv[1], argv[0]);
	return 1;
}
