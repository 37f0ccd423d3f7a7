/* SPDX-License-Identifier: MIT */
/* sonde stat report: perf stat's counts table from a stat record file (a tool on the session). */
#include "builtin.h"
#include "cmd/open.h"
#include "cmd/stat.h"
#include "core/counts.h"
#include "core/cpumap.h"
#include "core/threadmap.h"
#include "data/reader.h"
#include "lib/debug.h"
#include "lib/optspec.h"
#include "lib/xalloc.h"
#include "session/session.h"
#include "ui/header.h"
#include "ui/stat-display.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct stat_report {
	struct tool tool; /* first: the session calls back with it */
	struct stat_config cfg;
	struct evlist *evlist;	    /* the session's */
	struct cpu_map *cpus;	    /* owned, from CPU_MAP */
	struct thread_map *threads; /* owned, from THREAD_MAP */
	bool user_mode;		    /* -A or --per-*: the file's aggr_mode is not used */
	enum aggr_mode mode;
	bool has_counts;	    /* the evsels' count arrays are set up */
	bool printed_final;
};

static u64 get64(const union perf_event *ev, size_t off)
{
	u64 v = 0;

	if (off + 8 <= ev->header.size)
		memcpy(&v, (const u8 *)ev + off, 8);
	return v;
}

static u16 get16(const union perf_event *ev, size_t off)
{
	u16 v = 0;

	if (off + 2 <= ev->header.size)
		memcpy(&v, (const u8 *)ev + off, 2);
	return v;
}

/* perf's STAT_CONFIG number back to the mode (see stat_aggr_to_file) */
static enum aggr_mode aggr_from_file(u64 v)
{
	for (int m = AGGR_GLOBAL; m <= AGGR_THREAD; m++)
		if ((u64)stat_aggr_to_file(m) == v)
			return m;
	return AGGR_GLOBAL;
}

static void read_thread_map(struct stat_report *r, const union perf_event *ev)
{
	u64 nr = get64(ev, 8);
	struct thread_map *map;

	if (nr > (ev->header.size - 16u) / 24)
		nr = (ev->header.size - 16u) / 24;
	map = xcalloc(1, sizeof(*map));
	map->nr = (int)nr;
	map->pids = xcalloc(nr ? nr : 1, sizeof(pid_t));
	for (u64 i = 0; i < nr; i++)
		map->pids[i] = (pid_t)get64(ev, 16 + 24 * i);
	thread_map_free(r->threads);
	r->threads = map;
}

static void read_cpu_map(struct stat_report *r, const union perf_event *ev)
{
	u16 type = get16(ev, 8);
	struct cpu_map *map = NULL;

	if (type == 0) { /* a list of cpus, 0xffff for "any" */
		u16 nr = get16(ev, 10);

		if (12u + 2u * nr > ev->header.size)
			nr = (u16)((ev->header.size - 12u) / 2);
		map = xcalloc(1, sizeof(*map) + nr * sizeof(int));
		map->nr = nr;
		for (int i = 0; i < nr; i++) {
			u16 c = get16(ev, 12 + 2 * (size_t)i);

			map->map[i] = c == 0xffff ? -1 : c;
		}
	} else if (type == 2) { /* a range, optionally with "any" first */
		bool any = ((const u8 *)ev)[10];
		int start = get16(ev, 12), end = get16(ev, 14), n = 0;

		if (end < start)
			end = start;
		map = xcalloc(1, sizeof(*map) + (end - start + 2) * sizeof(int));
		if (any)
			map->map[n++] = -1;
		for (int c = start; c <= end; c++)
			map->map[n++] = c;
		map->nr = n;
	} else {
		pr_debug("stat report: CPU_MAP type %u not read\n", type);
		return;
	}
	cpu_map_free(r->cpus);
	r->cpus = map;
}

/* the count arrays and aggregates of every event, on the file's maps */
static void setup_counts(struct stat_report *r)
{
	struct evsel *evsel;

	if (!r->cpus)
		r->cpus = cpu_map_dummy_new();
	if (!r->threads)
		r->threads = thread_map_new_dummy();
	if (r->user_mode && r->threads->nr && r->threads->pids[0] != -1) {
		fprintf(stderr, "warning: processing task data, aggregation mode not set\n");
		r->mode = AGGR_GLOBAL;
	}
	r->cfg.aggr_mode = r->mode;
	r->cfg.aggr_map = aggr_map_new(r->mode, r->cpus, r->threads, "/sys");
	evlist_for_each_entry(r->evlist, evsel) {
		int n = r->cpus->nr * r->threads->nr;

		evsel->cpus = r->cpus;
		evsel->threads = r->threads;
		free(evsel->counts);
		evsel->counts = xcalloc(n, sizeof(*evsel->counts));
		evsel->is_supported = false; /* until a STAT record names it: perf writes none for those */
		struct evsel_stat *st = evsel_stat_new(r->cfg.aggr_map->nr, n);

		st->aggr_mean = xcalloc(st->nr_aggr, sizeof(*st->aggr_mean));
		for (int a = 0; a < st->nr_aggr; a++)
			stats_init(&st->aggr_mean[a]);
		evsel->priv = st;
	}
	r->has_counts = true;
}

static void read_stat(struct stat_report *r, struct session *session, const union perf_event *ev)
{
	u64 id = get64(ev, 8);
	u32 cpu = 0, thread = 0;
	struct evsel *evsel = data_reader_evsel_for_id(session->reader, id);
	int c;

	if (!evsel || ev->header.size < 48)
		return;
	if (!r->has_counts)
		setup_counts(r);
	memcpy(&cpu, (const u8 *)ev + 16, 4);
	memcpy(&thread, (const u8 *)ev + 20, 4);
	c = cpu_map_idx(r->cpus, (int)cpu);
	if (c < 0 || (int)thread >= r->threads->nr)
		return;
	struct perf_counts_values *v = &evsel->counts[c * r->threads->nr + (int)thread];

	evsel->is_supported = true;
	v->val = get64(ev, 24);
	v->ena = get64(ev, 32);
	v->run = get64(ev, 40);
}

static void read_round(struct stat_report *r, const union perf_event *ev)
{
	bool final = get64(ev, 8) == 1;
	u64 time = get64(ev, 16);
	struct evsel *evsel;

	if (!r->has_counts)
		setup_counts(r);
	evlist_for_each_entry(r->evlist, evsel) {
		struct evsel_stat *st = evsel->priv;

		evsel_stat_aggregate(evsel, st, r->cfg.aggr_map, r->cfg.scale, !final);
		for (int a = 0; a < st->nr_aggr; a++)
			if (st->aggr[a].run)
				stats_update(&st->aggr_mean[a], st->aggr[a].val);
	}
	if (final) {
		stats_update(&r->cfg.walltime_stats, time);
		stat_print_counters(&r->cfg, r->evlist, NULL);
		r->printed_final = true;
	} else {
		/* perf's report has no wall time for an interval: no "CPUs utilized" */
		struct timespec ts = { (time_t)(time / NSEC_PER_SEC), (long)(time % NSEC_PER_SEC) };

		r->cfg.shadow_running_mean = true;
		stat_print_counters(&r->cfg, r->evlist, &ts);
	}
}

static int report_read(struct tool *tool, struct session *session, const union perf_event *ev,
		       const struct record_pos *pos)
{
	struct stat_report *r = (struct stat_report *)tool;

	(void)pos;
	switch (ev->header.type) {
	case PERF_RECORD_THREAD_MAP:
		read_thread_map(r, ev);
		break;
	case PERF_RECORD_CPU_MAP:
		read_cpu_map(r, ev);
		break;
	case PERF_RECORD_STAT_CONFIG: {
		u64 nr = get64(ev, 8);

		for (u64 i = 0; i < nr && 16 + (i + 1) * 16 <= ev->header.size; i++) {
			u64 tag = get64(ev, 16 + i * 16), val = get64(ev, 24 + i * 16);

			if (tag == 0 && !r->user_mode)
				r->mode = aggr_from_file(val);
			else if (tag == 1)
				r->cfg.interval = (int)val;
			else if (tag == 2)
				r->cfg.scale = val != 0;
		}
		break;
	}
	case PERF_RECORD_EVENT_UPDATE:
		/* a piped stat names its events here (the file has EVENT_DESC) */
		if (get64(ev, 8) == 2 && ev->header.size > 24) {
			struct evsel *evsel = data_reader_evsel_for_id(session->reader, get64(ev, 16));

			if (evsel) {
				free(evsel->name);
				evsel->name = xstrndup((const char *)ev + 24, ev->header.size - 24u);
			}
		}
		break;
	case PERF_RECORD_STAT:
		read_stat(r, session, ev);
		break;
	case PERF_RECORD_STAT_ROUND:
		read_round(r, ev);
		break;
	default:
		break;
	}
	return 0;
}

static const char *pipe_argv[] = { "pipe", NULL };

static const char *const stat_report_usage[] = {
	"perf stat report [<options>]",
	NULL
};

int cmd_stat_report(int argc, const char **argv, int orig_argc, const char **orig_argv)
{
	struct stat_report r;
	const char *input = NULL;
	bool no_aggr = false, per_core = false, per_die = false, per_node = false,
	     per_socket = false;
	struct machine_opts mopts = { .no_symbols = true };
	struct data_error err = { 0 };
	struct data_reader *reader;
	struct session *session;
	const struct perf_header *h;
	struct evsel *evsel;
	int ret = 0;
	struct opt_spec options[] = {
		SPEC_FLAG("no-aggr", 'A', &no_aggr, "disable CPU count aggregation"),
		SPEC_TEXT("input", 'i', &input, "file", "input file name"),
		SPEC_FLAG("per-core", 0, &per_core, "aggregate counts per physical processor core"),
		SPEC_FLAG("per-die", 0, &per_die, "aggregate counts per processor die"),
		SPEC_FLAG("per-node", 0, &per_node, "aggregate counts per numa node"),
		SPEC_FLAG("per-socket", 0, &per_socket, "aggregate counts per processor socket"),
		SPEC_END()
	};

	(void)orig_argc;
	(void)orig_argv;
	opts_parse(argc, argv, options, stat_report_usage, 0);
	memset(&r, 0, sizeof(r));
	stat_config_init(&r.cfg);
	r.mode = AGGR_GLOBAL;
	r.user_mode = true;
	if (no_aggr)
		r.mode = AGGR_NONE;
	else if (per_socket)
		r.mode = AGGR_SOCKET;
	else if (per_die)
		r.mode = AGGR_DIE;
	else if (per_core)
		r.mode = AGGR_CORE;
	else if (per_node)
		r.mode = AGGR_NODE;
	else
		r.user_mode = false;
	/* perf's order of precedence among the --per-* flags */
	if (per_socket)
		r.mode = AGGR_SOCKET;
	if (per_die)
		r.mode = AGGR_DIE;
	if (per_core)
		r.mode = AGGR_CORE;
	if (per_node)
		r.mode = AGGR_NODE;

	reader = data_open_for_read(input, false);
	if (!reader)
		return 255;
	session = session_new(reader, &mopts);
	r.evlist = session->evlist;
	h = data_reader_header(reader);
	r.cfg.run_count = 1;
	r.cfg.argc = h->nr_cmdline;
	r.cfg.argv = (const char **)h->cmdline;
	if (data_reader_is_pipe(reader)) { /* perf names a piped stat 'pipe' */
		r.cfg.argc = 1;
		r.cfg.argv = pipe_argv;
	}
	r.tool.read = report_read;
	ret = session_process(session, &r.tool, &err);
	if (ret < 0) {
		data_error_print(data_reader_path(reader), &err);
		ret = 255;
	}
	fflush(r.cfg.output);
	evlist_for_each_entry(r.evlist, evsel) {
		evsel_stat_free(evsel->priv);
		evsel->priv = NULL;
		evsel->cpus = NULL;
		evsel->threads = NULL;
	}
	aggr_map_free(r.cfg.aggr_map);
	session_free(session);
	cpu_map_free(r.cpus);
	thread_map_free(r.threads);
	return ret;
}
