/* SPDX-License-Identifier: MIT */
/* Event selector lifecycle; naming lives in evsel-name.c, opening in evlist-open.c. */
#include "core/evsel.h"
#include "core/cpumap.h"
#include "core/threadmap.h"
#include "lib/xalloc.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct evsel *evsel_new(const struct perf_event_attr *attr)
{
	struct evsel *evsel = xzalloc(sizeof(*evsel));

	INIT_LIST_HEAD(&evsel->node);
	if (attr)
		evsel->attr = *attr;
	evsel->attr.size = sizeof(evsel->attr);
	evsel->leader = evsel;
	evsel->nr_members = 1;
	evsel->tp_id = -1;
	evsel->cgroup_fd = -1;
	evsel->is_supported = true;
	return evsel;
}

int perf_event_id_hdr_size(const struct perf_event_attr *attr)
{
	u64 t = attr->sample_type;
	int sz = 0;

	if (!attr->sample_id_all)
		return 0;
	if (t & PERF_SAMPLE_TID)
		sz += 8;
	if (t & PERF_SAMPLE_TIME)
		sz += 8;
	if (t & PERF_SAMPLE_ID)
		sz += 8;
	if (t & PERF_SAMPLE_STREAM_ID)
		sz += 8;
	if (t & PERF_SAMPLE_CPU)
		sz += 8;
	if (t & PERF_SAMPLE_IDENTIFIER)
		sz += 8;
	return sz;
}

void evsel_free(struct evsel *evsel)
{
	if (!evsel)
		return;
	if (evsel->fd) {
		/* fd arrays are sized by the maps the evlist opened them on */
		free(evsel->fd);
	}
	if (evsel->cgroup_fd >= 0)
		close(evsel->cgroup_fd);
	free(evsel->cgroup_name);
	cpu_map_free(evsel->own_cpus);
	thread_map_free(evsel->own_threads);
	free(evsel->ids);
	free(evsel->counts);
	free(evsel->name);
	free(evsel->pmu_name);
	free(evsel->filter);
	free(evsel->group_name);
	free(evsel);
}
