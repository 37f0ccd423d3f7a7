/* SPDX-License-Identifier: MIT */
/* sonde bench: helpers the benchmarks share (statistics, cpu pinning, a thread start gate, timing). */
#include "cmd/bench.h"

#include <math.h>
#include <sched.h>
#include <stddef.h>
#include <unistd.h>

void bench_stats_add(struct bench_stats *st, double v)
{
	double delta = v - st->mean;

	st->n += 1;
	st->mean += delta / st->n;
	st->m2 += delta * (v - st->mean);
}

double bench_stats_err(const struct bench_stats *st)
{
	if (st->n < 2)
		return 0;
	return sqrt(st->m2 / (st->n - 1) / st->n);
}

double bench_stats_rel(const struct bench_stats *st)
{
	return st->mean ? 100.0 * bench_stats_err(st) / st->mean : 0;
}

int bench_nr_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (int)n : 1;
}

void bench_pin_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu % bench_nr_cpus(), &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

void bench_gate_init(struct bench_gate *g, int nr)
{
	pthread_mutex_init(&g->lock, NULL);
	pthread_cond_init(&g->cond, NULL);
	g->arrived = 0;
	g->nr = nr;
	g->open = false;
}

void bench_gate_release(struct bench_gate *g)
{
	pthread_mutex_destroy(&g->lock);
	pthread_cond_destroy(&g->cond);
}

void bench_gate_wait(struct bench_gate *g)
{
	pthread_mutex_lock(&g->lock);
	g->arrived++;
	pthread_cond_broadcast(&g->cond);
	while (!g->open)
		pthread_cond_wait(&g->cond, &g->lock);
	pthread_mutex_unlock(&g->lock);
}

void bench_gate_ready(struct bench_gate *g)
{
	pthread_mutex_lock(&g->lock);
	while (g->arrived < g->nr)
		pthread_cond_wait(&g->cond, &g->lock);
	pthread_mutex_unlock(&g->lock);
}

void bench_gate_open(struct bench_gate *g)
{
	pthread_mutex_lock(&g->lock);
	g->open = true;
	pthread_cond_broadcast(&g->cond);
	pthread_mutex_unlock(&g->lock);
}

double bench_usec_since(const struct timeval *t0)
{
	struct timeval t1, d;

	gettimeofday(&t1, NULL);
	timersub(&t1, t0, &d);
	return (double)d.tv_sec * 1e6 + (double)d.tv_usec;
}
