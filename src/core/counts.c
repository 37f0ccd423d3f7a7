/* SPDX-License-Identifier: MIT */
/* Counting arithmetic: scaling, deltas, aggregation maps and running statistics. */
#include "core/counts.h"
#include "core/cpumap.h"
#include "core/threadmap.h"
#include "lib/xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void stats_init(struct stats *s)
{
	memset(s, 0, sizeof(*s));
}

void stats_update(struct stats *s, u64 val)
{
	double x = (double)val;
	double before = s->avg;

	s->count += 1;
	s->avg = before + (x - before) / s->count;
	/* (x - old mean) * (x - new mean) is the exact growth of the squared deviations */
	s->sq_dev_sum += (x - before) * (x - s->avg);
}

double stats_avg(const struct stats *s)
{
	return s->avg;
}

double stats_stddev(const struct stats *s)
{
	double sample_var;

	if (s->count < 2)
		return 0.0;
	/* stat -r reports the spread of the mean, not of one run */
	sample_var = s->sq_dev_sum / (s->count - 1);
	return sqrt(sample_var / s->count);
}

double rel_stddev(double stddev, double avg)
{
	if (avg == 0)
		return 0.0;
	return 100.0 * stddev / avg;
}

int counts_scale(struct perf_counts_values *v, bool scale)
{
	if (!v->run)
		return -1;
	if (v->run < v->ena) {
		if (scale) {
			v->val = (u64)((double)v->val * v->ena / v->run);
			return 1;
		}
		return 0;
	}
	return 0;
}

static int id_cmp(const struct aggr_id *a, const struct aggr_id *b)
{
	const int *x = &a->socket, *y = &b->socket;

	for (int i = 0; i < 6; i++)
		if (x[i] != y[i])
			return x[i] < y[i] ? -1 : 1;
	return 0;
}

static struct aggr_id make_id(enum aggr_mode mode, const struct cpu_topo *t, int cpu)
{
	struct aggr_id id = { -1, -1, -1, -1, -1, -1 };

	switch (mode) {
	case AGGR_SOCKET:
		id.socket = t->socket;
		break;
	case AGGR_DIE:
		id.socket = t->socket;
		id.die = t->die;
		break;
	case AGGR_CORE:
		id.socket = t->socket;
		id.die = t->die;
		id.core = t->core;
		break;
	case AGGR_NODE:
		id.node = t->node;
		break;
	case AGGR_NONE:
		id.cpu = cpu;
		break;
	default:
		break;
	}
	return id;
}

struct aggr_map *aggr_map_new(enum aggr_mode mode, const struct cpu_map *cpus,
			      const struct thread_map *threads, const char *sysfs_root)
{
	struct aggr_map *map = xzalloc(sizeof(*map));
	int nsrc = mode == AGGR_THREAD ? threads->nr : cpus->nr;
	struct aggr_id *src_ids = xcalloc(nsrc, sizeof(*src_ids));

	map->mode = mode;
	map->nr_src = nsrc;
	map->src_to_aggr = xcalloc(nsrc, sizeof(int));
	map->src_cpus = xcalloc(nsrc, sizeof(int));
	for (int i = 0; i < nsrc; i++)
		map->src_cpus[i] = mode == AGGR_THREAD ? -1 : cpus->map[i];
	map->ids = xcalloc(nsrc, sizeof(*map->ids));
	map->nr_members = xcalloc(nsrc, sizeof(int));
	for (int i = 0; i < nsrc; i++) {
		struct cpu_topo topo = { 0, 0, 0, 0 };

		if (mode == AGGR_THREAD) {
			struct aggr_id id = { -1, -1, -1, -1, -1, i };

			src_ids[i] = id;
			continue;
		}
		if (mode != AGGR_GLOBAL && mode != AGGR_NONE && cpus->map[i] >= 0)
			cpu_topo_read(sysfs_root, cpus->map[i], &topo);
		src_ids[i] = make_id(mode, &topo, cpus->map[i]);
	}
	/* unique ids, sorted (perf prints aggregates in id order) */
	for (int i = 0; i < nsrc; i++) {
		int j;

		for (j = 0; j < map->nr; j++)
			if (!id_cmp(&map->ids[j], &src_ids[i]))
				break;
		if (j == map->nr)
			map->ids[map->nr++] = src_ids[i];
	}
	for (int i = 1; i < map->nr; i++)
		for (int j = i; j > 0 && id_cmp(&map->ids[j - 1], &map->ids[j]) > 0; j--) {
			struct aggr_id t = map->ids[j];

			map->ids[j] = map->ids[j - 1];
			map->ids[j - 1] = t;
		}
	for (int i = 0; i < nsrc; i++)
		for (int j = 0; j < map->nr; j++)
			if (!id_cmp(&map->ids[j], &src_ids[i])) {
				map->src_to_aggr[i] = j;
				map->nr_members[j]++;
				break;
			}
	free(src_ids);
	return map;
}

void aggr_map_free(struct aggr_map *map)
{
	if (!map)
		return;
	free(map->ids);
	free(map->nr_members);
	free(map->src_to_aggr);
	free(map->src_cpus);
	free(map);
}

struct evsel_stat *evsel_stat_new(int nr_aggr, int nr_fds)
{
	struct evsel_stat *st = xzalloc(sizeof(*st));

	st->nr_aggr = nr_aggr;
	st->aggr = xcalloc(nr_aggr ? nr_aggr : 1, sizeof(*st->aggr));
	st->scaled = xcalloc(nr_aggr ? nr_aggr : 1, sizeof(int));
	st->nr_fds = nr_fds;
	st->prev = xcalloc(nr_fds ? nr_fds : 1, sizeof(*st->prev));
	for (int i = 0; i < 3; i++)
		stats_init(&st->res[i]);
	return st;
}

void evsel_stat_free(struct evsel_stat *st)
{
	if (!st)
		return;
	free(st->aggr);
	free(st->scaled);
	free(st->prev);
	free(st->aggr_mean);
	free(st);
}

void evsel_stat_aggregate(struct evsel *evsel, struct evsel_stat *st, const struct aggr_map *map,
			  bool scale, bool delta)
{
	int nthr = evsel->threads ? evsel->threads->nr : 1;
	int ncpu = evsel->cpus ? evsel->cpus->nr : 1;
	bool global = map->mode == AGGR_GLOBAL;

	memset(st->aggr, 0, sizeof(*st->aggr) * st->nr_aggr);
	for (int a = 0; a < st->nr_aggr; a++)
		st->scaled[a] = 0;
	for (int c = 0; c < ncpu; c++) {
		for (int t = 0; t < nthr; t++) {
			int idx = c * nthr + t;
			int src = map->mode == AGGR_THREAD ? t : c;
			int a;

			/* an event on its own cpus (a PMU cpumask): find its cpu by number */
			if (map->mode != AGGR_THREAD && evsel->cpus &&
			    (src >= map->nr_src || map->src_cpus[src] != evsel->cpus->map[c])) {
				src = -1;
				for (int i = 0; i < map->nr_src; i++)
					if (map->src_cpus[i] == evsel->cpus->map[c])
						src = i;
			}
			if (global)
				a = 0;
			else if (src < 0 || src >= map->nr_src)
				continue;
			else
				a = map->src_to_aggr[src];
			struct perf_counts_values v = { 0, 0, 0 };

			if (evsel->counts && idx < st->nr_fds)
				v = evsel->counts[idx];
			if (delta && idx < st->nr_fds) {
				struct perf_counts_values cur = v;

				v.val -= st->prev[idx].val;
				v.ena -= st->prev[idx].ena;
				v.run -= st->prev[idx].run;
				st->prev[idx] = cur;
			}
			if (!global && v.run)
				counts_scale(&v, scale);
			if (a >= st->nr_aggr)
				continue;
			st->aggr[a].val += v.val;
			st->aggr[a].ena += v.ena;
			st->aggr[a].run += v.run;
		}
	}
	if (global) {
		st->scaled[0] = counts_scale(&st->aggr[0], scale);
		if (st->scaled[0] >= 0) {
			stats_update(&st->res[0], st->aggr[0].val);
			stats_update(&st->res[1], st->aggr[0].ena);
			stats_update(&st->res[2], st->aggr[0].run);
		}
	} else {
		for (int a = 0; a < st->nr_aggr; a++)
			st->scaled[a] = st->aggr[a].run ? 0 : -1;
	}
}
