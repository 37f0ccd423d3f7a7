/* SPDX-License-Identifier: MIT */
/* perf stat's counting logic: attr defaults, opening with fallbacks, tool events, reading. */
#include "core/stat-run.h"
#include "core/cpumap.h"
#include "core/evlist-open.h"
#include "core/parse-events-names.h"
#include "core/threadmap.h"
#include "lib/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

static bool is_duration_time(const struct evsel *evsel)
{
	const char *name = evsel->name ? evsel->name : "";

	return evsel->is_tool_event &&
	       tool_event_find(name, strcspn(name, ":")) == TOOL_EVENT_DURATION_TIME;
}

void stat_set_pmu_cpus(struct evlist *evlist, const struct target *target)
{
	struct evsel *evsel;

	evlist_for_each_entry(evlist, evsel) {
		char path[512], *mask;
		struct cpu_map *cpus;

		if (!evsel->pmu_name || evsel->own_cpus || evsel->attr.type < PERF_TYPE_MAX)
			continue;
		snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/cpumask",
			 evsel->pmu_name);
		mask = read_sysfs_str(path);
		if (!mask)
			continue;
		cpus = cpu_map_parse(mask);
		free(mask);
		if (!cpus)
			continue;
		if (target->cpu_list && evlist->cpus) {
			/* -C: only the mask's cpus that were asked for */
			int n = 0;

			for (int i = 0; i < cpus->nr; i++)
				if (cpu_map_idx(evlist->cpus, cpus->map[i]) >= 0)
					cpus->map[n++] = cpus->map[i];
			cpus->nr = n;
		}
		evsel->own_cpus = cpus;
		evsel->own_threads = thread_map_new_dummy();
	}
}

bool stat_enable_on_exec(const struct stat_run_opts *o)
{
	const struct target *t = o->target;

	return !t->pid && !t->tid && !t->system_wide && !t->cpu_list && !o->initial_delay;
}

void stat_config_attr(const struct stat_run_opts *o, struct evlist *evlist, struct evsel *evsel)
{
	struct perf_event_attr *attr = &evsel->attr;
	bool enable_on_exec = stat_enable_on_exec(o);

	/* perf 6.1 asks for both times even with --no-scale: they tell "<not counted>" */
	attr->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	/* counting: no sampling, whatever period the parser or a term gave */
	attr->sample_period = 0;
	attr->freq = 0;
	if (evsel->leader->nr_members > 1)
		attr->read_format |= PERF_FORMAT_ID | PERF_FORMAT_GROUP;
	attr->sample_type = PERF_SAMPLE_IDENTIFIER;
	attr->inherit = !o->no_inherit;
	if (evsel->terms.has_inherit)
		attr->inherit = evsel->terms.inherit;
	if (o->all_user) {
		attr->exclude_kernel = 1;
		attr->exclude_user = 0;
	}
	if (o->all_kernel) {
		attr->exclude_kernel = 0;
		attr->exclude_user = 1;
	}
	attr->disabled = 0;
	attr->enable_on_exec = 0;
	if (evsel_is_group_leader(evsel)) {
		attr->disabled = 1;
		/*
		 * events on a PMU's own cpus are not the workload's: enabled
		 * by hand; perf 6.1 does the same for a lone duration_time
		 */
		if (enable_on_exec && !evsel->own_cpus &&
		    !(is_duration_time(evsel) && evlist->nr_entries == 1))
			attr->enable_on_exec = 1;
	}
}

void stat_set_one_group(struct evlist *evlist)
{
	struct evsel *leader = evlist_first(evlist), *e;

	if (!leader)
		return;
	evlist_for_each_entry(evlist, e) {
		e->leader = leader;
		e->nr_members = 0;
	}
	leader->nr_members = evlist->nr_entries;
}

static int set_filter(struct evsel *evsel)
{
	int n = evsel_nr_fds(evsel);

	for (int i = 0; i < n; i++)
		if (evsel->fd[i] >= 0 && ioctl(evsel->fd[i], PERF_EVENT_IOC_SET_FILTER, evsel->filter))
			return errno;
	return 0;
}

int stat_open_counters(const struct stat_run_opts *o, struct evlist *evlist,
		       stat_open_note_fn *note, void *ctx, struct stat_open_error *error)
{
	struct evsel *evsel;

	evlist_for_each_entry(evlist, evsel) {
		int err;

		stat_config_attr(o, evlist, evsel);
		/* a leader that failed takes its members down: perf's rule */
		if (evsel->leader != evsel && !evsel->leader->is_supported) {
			evsel->is_supported = false;
			continue;
		}
retry:
		if (evsel->own_cpus)
			err = evsel_open(evsel, evsel->own_cpus, evsel->own_threads);
		else
			err = evsel_open(evsel, evlist->cpus, evlist->threads);
		if (!err) {
			evsel->is_supported = true;
			if (evsel->filter && (err = set_filter(evsel))) {
				error->evsel = evsel;
				error->err = err;
				error->in_filter = true;
				return -1;
			}
			continue;
		}
		err = -err;
		if (err != EMFILE && evsel_is_unsupported_errno(err)) {
			evsel->is_supported = false;
			if (note)
				note(ctx, evsel, STAT_NOTE_UNSUPPORTED);
			continue;
		}
		if (evsel_fallback_exclude_kernel(evsel, err)) {
			if (note)
				note(ctx, evsel, STAT_NOTE_FALLBACK_USER);
			goto retry;
		}
		error->evsel = evsel;
		error->err = err;
		error->in_filter = false;
		return -1;
	}
	return 0;
}

/*
 * duration_time, user_time and system_time are counted by us: the wall
 * time of the run and the workload's rusage, in ns, in the first fd's slot.
 */
static void tool_event_counts(struct evsel *evsel, bool delta, const struct stat_tool_times *t)
{
	const char *name = evsel->name ? evsel->name : "";
	enum tool_event te = tool_event_find(name, strcspn(name, ":"));
	int n = evsel_nr_fds(evsel);
	u64 val = 0;

	if (!evsel->counts || !n || !t)
		return;
	switch (te) {
	case TOOL_EVENT_DURATION_TIME:
		val = (t->end_ns && !delta ? t->end_ns : monotonic_ns()) - t->start_ns;
		break;
	case TOOL_EVENT_USER_TIME:
		val = (u64)t->ru.ru_utime.tv_sec * NSEC_PER_SEC +
		      (u64)t->ru.ru_utime.tv_usec * NSEC_PER_USEC;
		break;
	case TOOL_EVENT_SYSTEM_TIME:
		val = (u64)t->ru.ru_stime.tv_sec * NSEC_PER_SEC +
		      (u64)t->ru.ru_stime.tv_usec * NSEC_PER_USEC;
		break;
	default:
		return;
	}
	/* perf gives them the value itself as enabled and running time: a zero
	 * value (or an interval that adds nothing) is "<not counted>" */
	for (int i = 0; i < n; i++)
		evsel->counts[i].val = evsel->counts[i].ena = evsel->counts[i].run = i ? 0 : val;
}

int stat_read_counters(struct evlist *evlist, const struct aggr_map *map, bool scale, bool delta,
		       const struct stat_tool_times *times)
{
	struct evsel *evsel;
	int failed = 0;

	evlist_for_each_entry(evlist, evsel) {
		struct evsel_stat *st = evsel->priv;

		if (!st) {
			st = evsel_stat_new(map->nr, evsel_nr_fds(evsel));
			evsel->priv = st;
		}
		if (evsel->is_supported && evsel->fd) {
			if (evsel_read_counts(evsel))
				failed++;
		}
		if (evsel->is_tool_event)
			tool_event_counts(evsel, delta, times);
		evsel_stat_aggregate(evsel, st, map, scale, delta);
	}
	return failed;
}

void stat_free_counters(struct evlist *evlist)
{
	struct evsel *evsel;

	evlist_for_each_entry(evlist, evsel) {
		evsel_stat_free(evsel->priv);
		evsel->priv = NULL;
	}
}
