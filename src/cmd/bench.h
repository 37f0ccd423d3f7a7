/* SPDX-License-Identifier: MIT */
/* sonde bench: what the benchmark collections share (format, repeat count, statistics, thread start). */
#ifndef SONDE_CMD_BENCH_H
#define SONDE_CMD_BENCH_H

#include <pthread.h>
#include <stdbool.h>
#include <sys/time.h>

extern bool bench_simple_format; /* -f simple */
extern unsigned int bench_repeat; /* --repeat N (10) */

/* struct bench_stats - running mean and spread of a series of measurements. */
struct bench_stats {
	double n, mean, m2;
};

/* bench_stats_add - one more measurement. */
void bench_stats_add(struct bench_stats *st, double v);
/* bench_stats_rel - the standard error of the mean in percent of the mean (0 for fewer than 2). */
double bench_stats_rel(const struct bench_stats *st);
/* bench_stats_err - the standard error of the mean (0 for fewer than 2). */
double bench_stats_err(const struct bench_stats *st);

/* bench_nr_cpus - the online cpus. */
int bench_nr_cpus(void);
/* bench_pin_cpu - bind the calling thread to cpu @cpu modulo the online cpus. */
void bench_pin_cpu(int cpu);

/*
 * struct bench_gate - start line for worker threads: each worker calls
 * bench_gate_wait() and blocks until the main thread calls bench_gate_open()
 * after bench_gate_ready() saw all @nr of them arrive.
 */
struct bench_gate {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int arrived, nr;
	bool open;
};

void bench_gate_init(struct bench_gate *g, int nr);
void bench_gate_release(struct bench_gate *g);
void bench_gate_wait(struct bench_gate *g);
void bench_gate_ready(struct bench_gate *g);
void bench_gate_open(struct bench_gate *g);

/* bench_usec_since - microseconds from @t0 to now (gettimeofday). */
double bench_usec_since(const struct timeval *t0);

int bench_memcpy(int argc, const char **argv);
int bench_memset(int argc, const char **argv);
int bench_futex_hash(int argc, const char **argv);
int bench_futex_wake(int argc, const char **argv);
int bench_futex_wake_parallel(int argc, const char **argv);
int bench_futex_requeue(int argc, const char **argv);
int bench_futex_lock_pi(int argc, const char **argv);
int bench_epoll_wait(int argc, const char **argv);
int bench_epoll_ctl(int argc, const char **argv);
int bench_internals_synthesize(int argc, const char **argv);
int bench_numa_mem(int argc, const char **argv);
int bench_mem_find_bit(int argc, const char **argv);
int bench_internals_kallsyms_parse(int argc, const char **argv);
int bench_internals_evlist_open_close(int argc, const char **argv);
/* bench-inject.c: inject -b and --buildid-all on a synthesized pipe, in a child each run */
int bench_internals_inject_build_id(int argc, const char **argv);
int bench_breakpoint_thread(int argc, const char **argv);
int bench_breakpoint_enable(int argc, const char **argv);

#endif
