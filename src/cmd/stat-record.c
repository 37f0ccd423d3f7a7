/* SPDX-License-Identifier: MIT */
/* sonde stat record: the counts of a stat run written as perf's stat records in a perf.data. */
#include "cmd/stat.h"
#include "core/cpumap.h"
#include "core/threadmap.h"
#include "data/writer.h"
#include "lib/debug.h"
#include "lib/xalloc.h"
#include "ui/stat-display.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* perf's numbering of the aggregation modes in STAT_CONFIG */
int stat_aggr_to_file(enum aggr_mode mode)
{
	switch (mode) {
	case AGGR_NONE:
		return 0;
	case AGGR_GLOBAL:
		return 1;
	case AGGR_SOCKET:
		return 2;
	case AGGR_DIE:
		return 3;
	case AGGR_CORE:
		return 4;
	case AGGR_THREAD:
		return 5;
	case AGGR_NODE:
		return 7;
	}
	return 1;
}

/* record builder: a zeroed buffer with room for @size bytes, header filled */
static union perf_event *rec_new(u32 type, size_t size)
{
	union perf_event *ev = xcalloc(1, size);

	ev->header.type = type;
	ev->header.size = (u16)size;
	return ev;
}

static void put64(union perf_event *ev, size_t off, u64 v)
{
	memcpy((u8 *)ev + off, &v, 8);
}

static void put32(union perf_event *ev, size_t off, u32 v)
{
	memcpy((u8 *)ev + off, &v, 4);
}

static void put16(union perf_event *ev, size_t off, u16 v)
{
	memcpy((u8 *)ev + off, &v, 2);
}

static int write_free(struct data_writer *w, union perf_event *ev)
{
	int err = data_writer_write_event(w, ev);

	free(ev);
	return err;
}

static u64 evsel_first_id(const struct evsel *evsel)
{
	int n = evsel->cpus && evsel->threads ? evsel->cpus->nr * evsel->threads->nr : 0;

	for (int i = 0; evsel->ids && i < n; i++)
		if (evsel->ids[i])
			return evsel->ids[i];
	return 0;
}

static void add_attrs(struct stat_opts *o)
{
	struct evsel *evsel;

	evlist_for_each_entry(o->evlist, evsel) {
		int n = evsel->cpus && evsel->threads ? evsel->cpus->nr * evsel->threads->nr : 0;
		u64 *ids = xcalloc(n ? n : 1, sizeof(u64));
		u32 nr = 0;

		for (int i = 0; evsel->ids && i < n; i++)
			if (evsel->ids[i])
				ids[nr++] = evsel->ids[i];
		data_writer_add_attr(o->writer, &evsel->attr, ids, nr, evsel->name);
		free(ids);
		if (evsel_is_group_leader(evsel) && evsel->nr_members > 1)
			data_writer_add_group(o->writer, evsel->group_name, evsel->idx,
					      evsel->nr_members);
	}
}

/* an EVENT_UPDATE carrying a string (0: unit, 2: name), sized as perf sizes it */
static union perf_event *update_string(u64 type, u64 id, const char *str)
{
	size_t len = (strlen(str) + 1 + 7) & ~(size_t)7;
	union perf_event *ev = rec_new(PERF_RECORD_EVENT_UPDATE, 24 + len + 16);

	put64(ev, 8, type);
	put64(ev, 16, id);
	memcpy((u8 *)ev + 24, str, strlen(str));
	return ev;
}

/* the unit and scale of each event that has them (EVENT_UPDATE), as perf writes them */
static int write_event_updates(struct stat_opts *o)
{
	struct evsel *evsel;
	bool pipe = !strcmp(o->record_path, "-");
	int err = 0;

	evlist_for_each_entry(o->evlist, evsel) {
		const char *unit = stat_evsel_unit(evsel);
		double scale = stat_evsel_scale(evsel);
		u64 id = evsel_first_id(evsel);
		union perf_event *ev;

		if (!id)
			continue;
		if (unit && *unit)
			err = err ?: write_free(o->writer, update_string(0, id, unit));
		if (scale != 1.0) {
			ev = rec_new(PERF_RECORD_EVENT_UPDATE, 48);
			put64(ev, 8, 1); /* scale */
			put64(ev, 16, id);
			memcpy((u8 *)ev + 24, &scale, sizeof(scale));
			err = err ?: write_free(o->writer, ev);
		}
		/* a pipe has no EVENT_DESC: the names travel here */
		if (pipe && evsel->name)
			err = err ?: write_free(o->writer, update_string(2, id, evsel->name));
	}
	return err;
}

static int write_maps(struct stat_opts *o)
{
	const struct thread_map *threads = o->evlist->threads;
	const struct cpu_map *cpus = o->evlist->cpus;
	union perf_event *ev;
	bool range = cpus->nr > 0 && cpus->map[0] >= 0;
	int err;

	ev = rec_new(PERF_RECORD_THREAD_MAP, 16 + 24 * (size_t)threads->nr);
	put64(ev, 8, (u64)threads->nr);
	for (int i = 0; i < threads->nr; i++)
		put64(ev, 16 + 24 * (size_t)i, (u64)(s64)threads->pids[i]);
	err = write_free(o->writer, ev);

	/* a contiguous map as a range (perf 6.1's layout), else the list of cpus */
	for (int i = 1; range && i < cpus->nr; i++)
		if (cpus->map[i] != cpus->map[i - 1] + 1)
			range = false;
	if (range) {
		ev = rec_new(PERF_RECORD_CPU_MAP, 16);
		put16(ev, 8, 2);
		put16(ev, 12, (u16)cpus->map[0]);
		put16(ev, 14, (u16)cpus->map[cpus->nr - 1]);
	} else {
		size_t size = (8 + 4 + 2 * (size_t)cpus->nr + 7) & ~(size_t)7;

		ev = rec_new(PERF_RECORD_CPU_MAP, size);
		put16(ev, 8, 0);
		put16(ev, 10, (u16)cpus->nr);
		for (int i = 0; i < cpus->nr; i++)
			put16(ev, 12 + 2 * (size_t)i, (u16)cpus->map[i]);
	}
	err = err ?: write_free(o->writer, ev);

	ev = rec_new(PERF_RECORD_STAT_CONFIG, 16 + 3 * 16);
	put64(ev, 8, 3);
	put64(ev, 16, 0); /* aggr_mode */
	put64(ev, 24, (u64)stat_aggr_to_file(o->cfg.aggr_mode));
	put64(ev, 32, 1); /* interval */
	put64(ev, 40, o->interval);
	put64(ev, 48, 2); /* scale */
	put64(ev, 56, o->cfg.scale);
	return err ?: write_free(o->writer, ev);
}

/* perf keeps the previous non-empty output as <path>.old */
static void backup_output(const char *path)
{
	struct stat st;
	char *old;

	if (stat(path, &st) || !S_ISREG(st.st_mode) || !st.st_size)
		return;
	old = xasprintf("%s.old", path);
	rename(path, old);
	free(old);
}

int stat_record_open(struct stat_opts *o)
{
	int err = 0;

	if (strcmp(o->record_path, "-"))
		backup_output(o->record_path);
	o->writer = data_writer_open(o->record_path, NULL, &err);
	return o->writer ? 0 : err;
}

/* the attrs (their ids known once the counters are open), features and maps */
static int start_writer(struct stat_opts *o)
{
	int err;

	o->writer_started = true;
	add_attrs(o);
	data_writer_set_live_features(o->writer, o->orig_argc, o->orig_argv, NULL);
	data_writer_set_feature_raw(o->writer, HEADER_STAT, NULL, 0);
	{
		/* what perf's stat file carries besides, all empty: no groups, times, clocks, compression */
		static const u32 no_groups;
		static const u32 no_compression[5];

		data_writer_set_feature_raw(o->writer, HEADER_GROUP_DESC, &no_groups, sizeof(no_groups));
		data_writer_set_feature_raw(o->writer, HEADER_COMPRESSED, no_compression,
					    sizeof(no_compression));
		data_writer_set_sample_time(o->writer, 0, 0);
		data_writer_set_clockid(o->writer, 0);
		data_writer_set_clock_data(o->writer, 0, 0, 0);
	}
	err = data_writer_start(o->writer);
	err = err ?: write_event_updates(o);
	return err ?: write_maps(o);
}

/* every counter's raw reading as STAT records (cumulative, as read) */
static int write_counts(struct stat_opts *o)
{
	struct evsel *evsel;
	int err = 0;

	evlist_for_each_entry(o->evlist, evsel) {
		int nthr, ncpu;

		if (!evsel->counts || !evsel->ids || !evsel->cpus || !evsel->threads)
			continue;
		nthr = evsel->threads->nr;
		ncpu = evsel->cpus->nr;
		for (int c = 0; c < ncpu; c++) {
			for (int t = 0; t < nthr; t++) {
				int idx = c * nthr + t;
				union perf_event *ev;

				if (!evsel->ids[idx])
					continue;
				ev = rec_new(PERF_RECORD_STAT, 48);
				put64(ev, 8, evsel->ids[idx]);
				put32(ev, 16, (u32)evsel->cpus->map[c]);
				put32(ev, 20, (u32)t);
				put64(ev, 24, evsel->counts[idx].val);
				put64(ev, 32, evsel->counts[idx].ena);
				put64(ev, 40, evsel->counts[idx].run);
				err = err ?: write_free(o->writer, ev);
			}
		}
	}
	return err;
}

static int write_round(struct stat_opts *o, bool final, u64 time)
{
	union perf_event *ev = rec_new(PERF_RECORD_STAT_ROUND, 24);

	put64(ev, 8, final ? 1 : 0);
	put64(ev, 16, time);
	return write_free(o->writer, ev);
}

int stat_record_round(struct stat_opts *o, u64 time_ns)
{
	int err = 0;

	if (!o->writer_started)
		err = start_writer(o);
	err = err ?: write_counts(o);
	return err ?: write_round(o, false, time_ns);
}

int stat_record_finish(struct stat_opts *o, u64 elapsed_ns)
{
	int err = 0;

	if (!o->writer_started)
		err = start_writer(o);
	err = err ?: write_counts(o);
	/* perf ends an interval file with the last readings and no round */
	if (!o->interval)
		err = err ?: write_round(o, true, elapsed_ns);
	err = err ?: data_writer_finish(o->writer);
	data_writer_free(o->writer);
	o->writer = NULL;
	return err;
}
