/* SPDX-License-Identifier: MIT */
/* sonde bench breakpoint: thread start/finish and enable/disable costs with hardware breakpoints set, in perf's layout. */
#include "cmd/bench.h"
#include "builtin.h"
#include "lib/optspec.h"
#include "lib/util.h"
#include "lib/xalloc.h"

#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#define BP_ROUNDS 10 /* thread batches / enable-disable pairs, perf's count */

static u64 watched[64];

/* a write/read breakpoint on @addr for this thread and the threads it creates */
static int breakpoint_open(void *addr)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_BREAKPOINT;
	attr.size = sizeof(attr);
	attr.bp_type = HW_BREAKPOINT_RW;
	attr.bp_addr = (u64)(uintptr_t)addr;
	attr.bp_len = HW_BREAKPOINT_LEN_8;
	attr.inherit = 1;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	return (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
}

static void breakpoint_fail(void)
{
	fflush(stdout);
	perror("perf_event_open");
}

/* "Total time" in perf's seconds.milliseconds form */
static void print_total(double usec)
{
	unsigned long sec = (unsigned long)(usec / 1e6);

	printf("     Total time: %lu.%03lu [sec]\n\n", sec, (unsigned long)((usec - (double)sec * 1e6) / 1000));
}

static void print_simple(double usec)
{
	unsigned long sec = (unsigned long)(usec / 1e6);

	printf("%lu.%03lu\n", sec, (unsigned long)((usec - (double)sec * 1e6) / 1000));
}

/* ---- breakpoint thread ---- */

struct bp_worker {
	pthread_t th;
	unsigned int nr_threads;
};

static void *empty_thread(void *arg)
{
	return arg;
}

/* start and join batches of threads, each inheriting the breakpoints */
static void *bp_worker_run(void *arg)
{
	struct bp_worker *w = arg;
	pthread_t *th = xcalloc(w->nr_threads ? w->nr_threads : 1, sizeof(*th));

	for (int r = 0; r < BP_ROUNDS; r++) {
		for (unsigned int i = 0; i < w->nr_threads; i++)
			pthread_create(&th[i], NULL, empty_thread, NULL);
		for (unsigned int i = 0; i < w->nr_threads; i++)
			pthread_join(th[i], NULL);
	}
	free(th);
	return NULL;
}

static const char *const bp_thread_usage[] = { "perf bench breakpoint thread <options>", NULL };

int bench_breakpoint_thread(int argc, const char **argv)
{
	unsigned int nr_bp = 1, parallel = 1, nr_threads = 1;
	const struct opt_spec options[] = {
		SPEC_UINT("breakpoints", 'b', &nr_bp, "Specify amount of breakpoints"),
		SPEC_UINT("parallelism", 'p', &parallel, "Specify amount of parallelism"),
		SPEC_UINT("threads", 't', &nr_threads, "Specify amount of threads"),
		SPEC_END(),
	};
	struct bp_worker *w;
	struct timeval t0;
	double usec, per_op;
	int *fds;

	if (opts_parse(argc, argv, options, bp_thread_usage, 0) > 1)
		opts_usage_exit(bp_thread_usage, options);
	if (!parallel)
		parallel = 1;
	/* the breakpoints are this thread's; the workers and their threads inherit them */
	fds = xcalloc(nr_bp + 1, sizeof(int));
	for (unsigned int i = 0; i < nr_bp; i++) {
		fds[i] = breakpoint_open(&watched[i % 64]);
		if (fds[i] < 0) {
			breakpoint_fail();
			while (i--)
				close(fds[i]);
			free(fds);
			return 1;
		}
	}
	w = xcalloc(parallel, sizeof(*w));
	gettimeofday(&t0, NULL);
	for (unsigned int i = 0; i < parallel; i++) {
		w[i] = (struct bp_worker){ .nr_threads = nr_threads };
		pthread_create(&w[i].th, NULL, bp_worker_run, &w[i]);
	}
	for (unsigned int i = 0; i < parallel; i++)
		pthread_join(w[i].th, NULL);
	usec = bench_usec_since(&t0);
	free(w);
	for (unsigned int i = 0; i < nr_bp; i++)
		close(fds[i]);
	free(fds);
	if (bench_simple_format) {
		print_simple(usec);
		return 0;
	}
	per_op = nr_threads ? usec / (BP_ROUNDS * nr_threads) : 0;
	printf("# Created/joined %d threads with %u breakpoints and %u parallelism\n", BP_ROUNDS, nr_bp, parallel);
	print_total(usec);
	printf("%15f usecs/op\n", per_op);
	printf("%15f usecs/op/cpu\n", per_op * parallel);
	return 0;
}

/* ---- breakpoint enable ---- */

struct bp_bystanders {
	bool done;
};

/* a thread that blocks (passive) or spins (active) until the run ends */
static void *passive_run(void *arg)
{
	struct bp_bystanders *b = arg;

	while (!__atomic_load_n(&b->done, __ATOMIC_RELAXED))
		usleep(1000);
	return NULL;
}

static void *active_run(void *arg)
{
	struct bp_bystanders *b = arg;

	while (!__atomic_load_n(&b->done, __ATOMIC_RELAXED))
		;
	return NULL;
}

static const char *const bp_enable_usage[] = { "perf bench breakpoint enable <options>", NULL };

int bench_breakpoint_enable(int argc, const char **argv)
{
	unsigned int passive = 0, active = 0;
	const struct opt_spec options[] = {
		SPEC_UINT("passive", 'p', &passive, "Specify amount of passive threads"),
		SPEC_UINT("active", 'a', &active, "Specify amount of active threads"),
		SPEC_END(),
	};
	struct bp_bystanders b = { false };
	pthread_t *th;
	struct timeval t0;
	double usec;
	int fd;

	if (opts_parse(argc, argv, options, bp_enable_usage, 0) > 1)
		opts_usage_exit(bp_enable_usage, options);
	fd = breakpoint_open(&watched[0]);
	if (fd < 0) {
		breakpoint_fail();
		return 1;
	}
	th = xcalloc(passive + active + 1, sizeof(*th));
	for (unsigned int i = 0; i < passive + active; i++)
		pthread_create(&th[i], NULL, i < passive ? passive_run : active_run, &b);
	gettimeofday(&t0, NULL);
	for (int i = 0; i < BP_ROUNDS; i++) {
		ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
		ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	}
	usec = bench_usec_since(&t0);
	__atomic_store_n(&b.done, true, __ATOMIC_RELAXED);
	for (unsigned int i = 0; i < passive + active; i++)
		pthread_join(th[i], NULL);
	free(th);
	close(fd);
	if (bench_simple_format) {
		print_simple(usec);
		return 0;
	}
	printf("# Enabled/disabled breakpoint %d time with %u passive and %u active threads\n", BP_ROUNDS, passive,
	       active);
	print_total(usec);
	printf("%15f usecs/op\n", usec / BP_ROUNDS);
	return 0;
}
