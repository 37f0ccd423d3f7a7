/* SPDX-License-Identifier: MIT */
/* sonde heatmap: latency heat maps from begin/end event pairs, sub-second offset heat maps of samples. */
#include "builtin.h"
#include "cmd/open.h"

#include "core/evlist.h"
#include "core/evsel.h"
#include "data/reader.h"
#include "lib/hashmap.h"
#include "lib/optspec.h"
#include "lib/strvec.h"
#include "lib/xalloc.h"
#include "session/sample-filter.h"
#include "session/session.h"
#include "trace/tep.h"
#include "ui/header.h"
#include "ui/heatmap.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const heatmap_usage[] = {
	"sonde heatmap --latency [--begin EVENT --end EVENT --key FIELD[,FIELD]] [<options>]",
	"sonde heatmap --offset [-e EVENT] [<options>]",
	NULL,
};

struct hm_opts {
	const char *input, *output;
	bool latency, offset, csv, force;
	bool log;		/* --log: latency rows on a log scale */
	const char *begin, *end, *key, *event, *unit, *title;
	const char *pid_list, *tid_list, *comm_list, *cpu_list, *time_str;
	int rows, cols, width;
	const char *time_bucket, *max_latency, *lat_bucket;
};

struct point {
	u64 time;  /* ns */
	u64 value; /* latency ns (offset maps: unused) */
};

struct hm_run {
	struct tool tool; /* first */
	struct hm_opts *o;
	struct session *session;
	struct tep_handle *tep;
	struct evsel *begin, *end, *event;
	struct strvec keys;
	struct u64map open;	/* key -> begin time */
	struct point *points;
	size_t nr_points, alloc_points;
	u64 nr_unmatched;
	/* filters */
	struct u64map pids, tids;
	bool has_pids, has_tids;
	struct strvec comms;
	struct cpu_bitmap cpus;
	struct time_span *spans;
	int nr_spans;
};

static void push(struct hm_run *r, u64 time, u64 value)
{
	r->points = xgrow(r->points, r->nr_points + 1, &r->alloc_points, sizeof(*r->points));
	r->points[r->nr_points].time = time;
	r->points[r->nr_points].value = value;
	r->nr_points++;
}

/* the pairing key of @sample from the --key fields; false when a field is missing */
static bool key_of(struct hm_run *r, const struct perf_sample *sample, struct evsel *evsel, u64 *key)
{
	struct tep_event *tp = NULL;
	u64 k = 0x9e3779b97f4a7c15ULL;

	for (size_t i = 0; i < r->keys.nr; i++) {
		const char *f = r->keys.v[i];
		u64 v;

		if (!strcmp(f, "tid")) {
			v = sample->tid;
		} else if (!strcmp(f, "pid")) {
			v = sample->pid;
		} else if (!strcmp(f, "cpu")) {
			v = sample->cpu;
		} else {
			if (!tp && r->tep && evsel->attr.type == PERF_TYPE_TRACEPOINT)
				tp = trace_tep_find_event(r->tep, (int)evsel->attr.config);
			if (!tp || trace_tep_field_u64(tp, sample->raw_data, sample->raw_size, f, &v))
				return false;
		}
		k = hash_u64(k ^ v) + i;
	}
	*key = k ? k : 1;
	return true;
}

static bool in_list(const struct strvec *sv, const char *s)
{
	for (size_t i = 0; s && i < sv->nr; i++)
		if (!strcmp(sv->v[i], s))
			return true;
	return false;
}

static int on_sample(struct tool *tool, struct session *session, const union perf_event *ev,
		     const struct perf_sample *sample, struct evsel *evsel)
{
	struct hm_run *r = (struct hm_run *)tool;
	struct thread *thread;
	u64 key;

	(void)ev;
	if (!time_spans_include(r->spans, r->nr_spans, sample->time) ||
	    !cpu_bitmap_has(&r->cpus, sample->cpu))
		return 0;
	if (r->has_pids || r->has_tids || r->comms.nr) {
		thread = machine_findnew_thread(&session->machine, (int)sample->pid, (int)sample->tid);
		if (r->comms.nr && !in_list(&r->comms, thread->comm))
			return 0;
		if (r->has_pids && !u64map_find(&r->pids, (u64)(s64)thread->pid))
			return 0;
		if (r->has_tids && !u64map_find(&r->tids, (u64)(s64)thread->tid))
			return 0;
	}
	if (r->o->offset) {
		if (!r->event)
			r->event = evsel;
		if (evsel == r->event)
			push(r, sample->time, 0);
		return 0;
	}
	if (evsel != r->begin && evsel != r->end)
		return 0;
	if (!key_of(r, sample, evsel, &key))
		return 0;
	if (evsel == r->begin) {
		u64map_set(&r->open, key, (void *)(uintptr_t)(sample->time ? sample->time : 1));
	} else {
		uintptr_t t0 = (uintptr_t)u64map_remove(&r->open, key);

		if (!t0)
			r->nr_unmatched++;
		else if (sample->time >= t0)
			push(r, sample->time, sample->time - t0);
	}
	return 0;
}

static double unit_ns(const char *unit)
{
	if (!strcmp(unit, "ns"))
		return 1;
	if (!strcmp(unit, "us"))
		return 1e3;
	if (!strcmp(unit, "ms"))
		return 1e6;
	if (!strcmp(unit, "s"))
		return 1e9;
	return 0;
}

/* a positive number option, or -1 after the message */
static double positive(const char *name, const char *s)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || *end || !(v > 0)) {
		fprintf(stderr, "  Error: --%s takes a positive number, not '%s'\n", name, s);
		return -1;
	}
	return v;
}

/* the default pair of a latency map: block requests, else syscalls */
static int pick_pair(struct hm_run *r, struct evlist *evlist)
{
	struct hm_opts *o = r->o;
	const char *b = o->begin, *e = o->end, *k = o->key;

	if (!b && !e) {
		if (evlist_find_by_name(evlist, "block:block_rq_issue") &&
		    evlist_find_by_name(evlist, "block:block_rq_complete")) {
			b = "block:block_rq_issue";
			e = "block:block_rq_complete";
			if (!k)
				k = "dev,sector";
		} else if (evlist_find_by_name(evlist, "raw_syscalls:sys_enter") &&
			   evlist_find_by_name(evlist, "raw_syscalls:sys_exit")) {
			b = "raw_syscalls:sys_enter";
			e = "raw_syscalls:sys_exit";
			if (!k)
				k = "tid";
		} else {
			fprintf(stderr, "heatmap --latency: %s has no begin/end pair "
					"(block:block_rq_issue/block_rq_complete, "
					"raw_syscalls:sys_enter/sys_exit): name one with --begin, --end "
					"and --key\n",
				o->input ? o->input : "perf.data");
			return -1;
		}
	}
	if (!b || !e) {
		fprintf(stderr, "heatmap --latency: --begin and --end go together\n");
		return -1;
	}
	r->begin = evlist_find_by_name(evlist, b);
	r->end = evlist_find_by_name(evlist, e);
	if (!r->begin || !r->end) {
		fprintf(stderr, "heatmap: event '%s' not found; use 'perf evlist' for the names\n",
			r->begin ? e : b);
		return -1;
	}
	strvec_split(&r->keys, k ? k : "tid", ",");
	return 0;
}

static int setup_filters(struct hm_run *r, struct data_reader *reader)
{
	const struct perf_header *h = data_reader_header(reader);
	struct hm_opts *o = r->o;
	int *ids, nr, too_large, highest;

	if (o->comm_list)
		name_list_parse(o->comm_list, &r->comms);
	if (o->pid_list) {
		if (id_list_parse(o->pid_list, &ids, &nr)) {
			fprintf(stderr, "problems parsing pid list\n");
			return -1;
		}
		for (int i = 0; i < nr; i++)
			u64map_set(&r->pids, (u64)(s64)ids[i], (void *)1);
		free(ids);
		r->has_pids = true;
	}
	if (o->tid_list) {
		if (id_list_parse(o->tid_list, &ids, &nr)) {
			fprintf(stderr, "problems parsing tid list\n");
			return -1;
		}
		for (int i = 0; i < nr; i++)
			u64map_set(&r->tids, (u64)(s64)ids[i], (void *)1);
		free(ids);
		r->has_tids = true;
	}
	if (o->cpu_list && cpu_bitmap_parse(&r->cpus, o->cpu_list, h->nr_cpus_avail, &too_large,
					    &highest)) {
		fprintf(stderr, "Invalid cpu_list\n");
		return -1;
	}
	if (o->time_str && time_spans_parse(o->time_str, h->first_sample_time, h->last_sample_time,
					     &r->spans, &r->nr_spans)) {
		fprintf(stderr, "Invalid time string\n");
		return -1;
	}
	if (o->event && !(r->event = evlist_find_by_name(data_reader_evlist(reader), o->event))) {
		fprintf(stderr, "heatmap: event '%s' not found; use 'perf evlist' for the names\n",
			o->event);
		return -1;
	}
	if (h->tracing_data && trace_tep_from_data(h->tracing_data, h->tracing_data_size, &r->tep))
		r->tep = NULL;
	return 0;
}

/* the grid of the points; returns -1 after a message */
static int build_grid(struct hm_run *r, struct heatmap *hm, u64 **cells_out)
{
	struct hm_opts *o = r->o;
	const char *unit = o->unit ? o->unit : o->offset ? "ms" : "us";
	double per = unit_ns(unit), tb, first, max_v = 0, min_v = 0;
	u64 t_first = UINT64_MAX, t_last = 0;
	u64 *cells;

	if (!per) {
		fprintf(stderr, "  Error: --unit takes ns, us, ms or s, not '%s'\n", unit);
		return -1;
	}
	for (size_t i = 0; i < r->nr_points; i++) {
		if (r->points[i].time < t_first)
			t_first = r->points[i].time;
		if (r->points[i].time > t_last)
			t_last = r->points[i].time;
		if ((double)r->points[i].value > max_v)
			max_v = (double)r->points[i].value;
		if (r->points[i].value && (!min_v || (double)r->points[i].value < min_v))
			min_v = (double)r->points[i].value;
	}
	if (!r->nr_points)
		t_first = t_last = 0;
	memset(hm, 0, sizeof(*hm));
	hm->rows = o->rows > 0 ? (u32)o->rows : 50;
	if (o->offset) {
		/* columns are whole seconds of the clock, rows the offset inside them */
		first = floor((double)t_first / 1e9);
		tb = o->time_bucket ? positive("time-bucket", o->time_bucket) : 1;
		if (tb < 0)
			return -1;
		hm->cols = (u32)floor(((double)t_last / 1e9 - first) / tb) + 1;
		hm->y0 = 0;
		hm->y_step = 1e9 / per / hm->rows;
		hm->x0 = 0;
		hm->x_step = tb;
		hm->y_label = xasprintf("Offset in the second (%s)", unit);
	} else {
		double maxlat = o->max_latency ? positive("max-latency", o->max_latency) : max_v / per;

		if (maxlat < 0)
			return -1;
		if (o->log) {
			/*
			 * from the power of ten at or below the smallest latency to
			 * the top, each row a constant factor higher than the one below
			 */
			double lo = min_v > 0 ? pow(10, floor(log10(min_v / per))) : 1;

			if (maxlat <= lo)
				maxlat = lo * 10;
			hm->y_log = true;
			hm->y0 = lo;
			hm->y_step = pow(maxlat / lo, 1.0 / hm->rows) * (1.0 + 1e-9);
		} else if (o->lat_bucket) {
			double lb = positive("lat-bucket", o->lat_bucket);

			if (lb < 0)
				return -1;
			/* given, the maximum is above the scale; found, it is on it */
			hm->rows = o->max_latency ? (u32)ceil(maxlat / lb) : (u32)floor(maxlat / lb) + 1;
			if (!hm->rows)
				hm->rows = 1;
			hm->y_step = lb;
		} else {
			hm->y_step = maxlat > 0 ? maxlat / hm->rows : 1;
			/* the top of the range must hold the maximum itself */
			hm->y_step *= 1.0 + 1e-9;
		}
		first = (double)t_first / 1e9;
		hm->cols = o->cols > 0 ? (u32)o->cols : 100;
		if (o->time_bucket) {
			tb = positive("time-bucket", o->time_bucket);
			if (tb < 0)
				return -1;
			hm->cols = (u32)floor(((double)(t_last - t_first) / 1e9) / tb) + 1;
		} else {
			tb = (double)(t_last - t_first) / 1e9 / hm->cols;
			if (tb <= 0)
				tb = 1e-3;
			tb *= 1.0 + 1e-9;
		}
		hm->x0 = 0;
		hm->x_step = tb;
		hm->y_label = xasprintf(hm->y_log ? "Latency (%s, log scale)" : "Latency (%s)", unit);
	}
	if ((u64)hm->cols * hm->rows > 50000000ULL) {
		fprintf(stderr, "heatmap: %u x %u cells is too many; raise --time-bucket\n", hm->cols,
			hm->rows);
		free((char *)hm->y_label);
		return -1;
	}
	hm->y_unit = unit;
	cells = xcalloc((size_t)hm->cols * hm->rows, sizeof(*cells));
	for (size_t i = 0; i < r->nr_points; i++) {
		const struct point *p = &r->points[i];
		double x, y;
		u64 c, row;

		if (o->offset) {
			x = (double)(p->time / 1000000000ULL) - first;
			y = (double)(p->time % 1000000000ULL) / per;
		} else {
			x = (double)(p->time - t_first) / 1e9;
			y = (double)p->value / per;
		}
		c = (u64)(x / hm->x_step);
		if (hm->y_log)
			row = y <= hm->y0 ? 0 : (u64)(log(y / hm->y0) / log(hm->y_step));
		else
			row = (u64)(y / hm->y_step);
		if (c >= hm->cols)
			c = hm->cols - 1;
		if (row >= hm->rows) {
			hm->nr_clipped++;
			continue;
		}
		cells[c * hm->rows + row]++;
		hm->nr_points++;
	}
	hm->cells = cells;
	*cells_out = cells;
	return 0;
}

int cmd_heatmap(int argc, const char **argv)
{
	struct hm_opts o = { 0 };
	struct symbol_opts sopts = { 0 };
	struct machine_opts mopts = { .symbol_opts = &sopts };
	struct data_error derr = { 0 };
	struct heatmap hm;
	struct hm_run r;
	struct data_reader *reader;
	u64 *cells = NULL;
	char *subtitle = NULL;
	const char *out_path;
	FILE *out = stdout;
	int ret = 0;

	const struct opt_spec options[] = {
		SPEC_TEXT("input", 'i', &o.input, "file", "input file name (default: perf.data)"),
		SPEC_TEXT("output", 'o', &o.output, "file", "output SVG (default: heatmap.svg; - for stdout)"),
		SPEC_FLAG("latency", 0, &o.latency, "latency of begin/end event pairs"),
		SPEC_FLAG("offset", 0, &o.offset, "sub-second offset of the samples"),
		SPEC_TEXT("begin", 0, &o.begin, "event", "the event that starts an interval"),
		SPEC_TEXT("end", 0, &o.end, "event", "the event that ends it"),
		SPEC_TEXT("key", 0, &o.key, "field[,field]",
			  "fields pairing begin and end (tracepoint fields, tid, pid, cpu)"),
		SPEC_TEXT("event", 'e', &o.event, "event", "--offset: the event (default: first sampled)"),
		SPEC_TEXT("unit", 0, &o.unit, "ns|us|ms|s", "y unit (latency: us, offset: ms)"),
		SPEC_INT("rows", 0, &o.rows, "rows (default 50)"),
		SPEC_INT("cols", 0, &o.cols, "--latency: columns (default 100)"),
		SPEC_TEXT("time-bucket", 0, &o.time_bucket, "secs", "column width in seconds"),
		SPEC_TEXT("lat-bucket", 0, &o.lat_bucket, "n", "--latency: row height in the unit"),
		SPEC_TEXT("max-latency", 0, &o.max_latency, "n",
			  "--latency: top of the scale in the unit (default: the largest)"),
		SPEC_INT("width", 0, &o.width, "picture width in pixels (default: 1200)"),
		SPEC_TEXT("title", 0, &o.title, "text", "title"),
		SPEC_FLAG("csv", 0, &o.csv, "print the cells as CSV instead"),
		SPEC_FLAG("log", 0, &o.log,
			  "--latency: rows on a log scale (outliers stay on the picture)"),
		SPEC_TEXT("pid", 0, &o.pid_list, "pid[,pid...]", "only consider these pids"),
		SPEC_TEXT("tid", 0, &o.tid_list, "tid[,tid...]", "only consider these tids"),
		SPEC_TEXT("comms", 0, &o.comm_list, "comm[,comm...]", "only consider these comms"),
		SPEC_TEXT("comm", 0, &o.comm_list, "comm[,comm...]", "same as --comms"),
		SPEC_TEXT("cpu", 'C', &o.cpu_list, "cpu", "list of cpus to profile"),
		SPEC_TEXT("time", 0, &o.time_str, "str", "Time span of interest (start,stop)"),
		SPEC_FLAG("force", 'f', &o.force, "don't complain, do it"),
		SPEC_END(),
	};

	argc = opts_parse(argc, argv, options, heatmap_usage, 0);
	if (argc)
		opts_usage_error(heatmap_usage, options, "unexpected argument '%s'", argv[0]);
	if (o.latency == o.offset)
		opts_usage_error(heatmap_usage, options, "give one of --latency and --offset");
	if (o.log && o.offset)
		opts_usage_error(heatmap_usage, options, "--log is for --latency");
	if (o.log && o.lat_bucket)
		opts_usage_error(heatmap_usage, options, "--log and --lat-bucket don't go together");
	reader = data_open_for_read(o.input, o.force);
	if (!reader)
		return 255;
	memset(&r, 0, sizeof(r));
	r.o = &o;
	r.tool.sample = on_sample;
	r.tool.ordered = true;
	strvec_init(&r.keys);
	strvec_init(&r.comms);
	u64map_init(&r.open);
	u64map_init(&r.pids);
	u64map_init(&r.tids);
	if (setup_filters(&r, reader) || (o.latency && pick_pair(&r, data_reader_evlist(reader)))) {
		data_reader_close(reader);
		ret = 255;
		goto out;
	}
	r.session = session_new(reader, &mopts);
	if (session_process(r.session, &r.tool, &derr) < 0) {
		data_error_print(data_reader_path(reader), &derr);
		ret = 255;
		goto out;
	}
	if (build_grid(&r, &hm, &cells)) {
		ret = 255;
		goto out;
	}
	if (o.offset)
		subtitle = xasprintf("%s: %zu samples", r.event && r.event->name ? r.event->name : "no samples",
				     r.nr_points);
	else
		subtitle = xasprintf("%s -> %s by %s: %zu intervals (%llu ends unmatched)",
				     r.begin->name, r.end->name, o.key ? o.key : r.keys.v[0],
				     r.nr_points, (unsigned long long)r.nr_unmatched);
	hm.title = o.title ? o.title : o.offset ? "Offset Heat Map" : "Latency Heat Map";
	hm.subtitle = subtitle;
	hm.what = o.offset ? "samples" : "events";
	out_path = o.output ? o.output : o.csv ? "-" : "heatmap.svg";
	if (strcmp(out_path, "-") && !(out = fopen(out_path, "w"))) {
		fprintf(stderr, "failed to create %s: %s\n", out_path, strerror(errno));
		ret = 255;
	} else {
		int err = o.csv ? heatmap_write_csv(out, &hm) : heatmap_write_svg(out, &hm, o.width);

		if (out != stdout ? fclose(out) : fflush(out))
			err = -EIO;
		if (err) {
			fprintf(stderr, "failed to write %s\n", out_path);
			ret = 255;
		}
	}
	free((char *)hm.y_label);
out:
	free(cells);
	free(subtitle);
	free(r.points);
	free(r.spans);
	cpu_bitmap_release(&r.cpus);
	strvec_clear(&r.keys);
	strvec_clear(&r.comms);
	u64map_release(&r.open);
	u64map_release(&r.pids);
	u64map_release(&r.tids);
	trace_tep_free(r.tep);
	session_free(r.session);
	return ret;
}
