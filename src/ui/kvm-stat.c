/* SPDX-License-Identifier: MIT */
/* perf kvm stat report: pairs kvm_exit with the next kvm_entry per vcpu thread and tabulates exits. */
#include "ui/kvm-stat.h"
#include "core/evlist.h"
#include "core/evsel.h"
#include "data/reader.h"
#include "lib/hashmap.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "session/session.h"
#include "trace/tep.h"
#include "ui/header.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* one row: an exit reason and the time spent handling it (Welford's running mean/variance) */
struct kvm_row {
	u64 key;
	u32 dir;	/* accesses: 1 write/out, 0 read/in */
	size_t seq;	/* creation order */
	char *name;
	u64 nr, total_ns, min_ns, max_ns;
	double mean, m2;
};

/* an exit seen on a vcpu thread, waiting for its entry */
struct kvm_pending {
	size_t row;	/* index + 1 of the event being handled; 0: none */
	u64 time;	/* when it began */
	u64 vcpu;	/* from the thread's last kvm_entry */
	bool entered;	/* a kvm_entry was seen: exits before it are not counted, as in perf */
	bool exited;	/* in the guest's exit, between kvm_exit and kvm_entry */
};

struct kvm_run {
	struct tool tool;
	const struct kvm_stat_opts *o;
	struct tep_handle *tep;
	struct kvm_row *rows;
	size_t nr_rows, alloc_rows;
	struct u64map open;	/* tid -> struct kvm_pending */
	u64 nr_samples, total_ns;
	int *pids;
	size_t nr_pids;
};

static u64 tp_field(struct kvm_run *r, struct evsel *evsel, const struct perf_sample *s,
		    const char *name, bool *found)
{
	struct tep_event *te = r->tep ? trace_tep_find_event(r->tep, (int)evsel->attr.config) : NULL;
	u64 v = 0;

	*found = te && !trace_tep_field_u64(te, s->raw_data, s->raw_size, name, &v);
	return v;
}

static struct kvm_row *row_findnew(struct kvm_run *r, u64 key, u32 dir, size_t *idx)
{
	for (size_t i = 0; i < r->nr_rows; i++)
		if (r->rows[i].key == key && r->rows[i].dir == dir) {
			*idx = i;
			return &r->rows[i];
		}
	if (r->nr_rows == r->alloc_rows) {
		r->alloc_rows = r->alloc_rows ? 2 * r->alloc_rows : 16;
		r->rows = xrealloc(r->rows, r->alloc_rows * sizeof(*r->rows));
	}
	*idx = r->nr_rows;
	r->rows[r->nr_rows] = (struct kvm_row){ .key = key, .dir = dir, .seq = r->nr_rows,
						.min_ns = UINT64_MAX };
	return &r->rows[r->nr_rows++];
}

static bool pid_wanted(const struct kvm_run *r, int pid)
{
	if (!r->nr_pids)
		return true;
	for (size_t i = 0; i < r->nr_pids; i++)
		if (r->pids[i] == pid)
			return true;
	return false;
}

/*
 * The exit reason's name as the recorded print format spells it
 * ("vcpu 0 reason HLT rip ..."), or its number when the format has none.
 */
static char *reason_name(struct kvm_run *r, struct evsel *evsel, const struct perf_sample *s,
			 u64 reason)
{
	struct tep_event *te = r->tep ? trace_tep_find_event(r->tep, (int)evsel->attr.config) : NULL;
	struct strbuf sb = STRBUF_INIT;
	const char *at;
	char *name;

	if (te)
		trace_tep_format(te, s->raw_data, s->raw_size, (int)s->cpu, s->time, &sb);
	at = sb.len ? strstr(sb.buf, " reason ") : NULL;
	if (at) {
		at += strlen(" reason ");
		name = xstrndup(at, strcspn(at, " "));
	} else {
		name = xcalloc(1, 24);
		snprintf(name, 24, "%" PRIu64, reason);
	}
	strbuf_release(&sb);
	return name;
}

/* one handled event of @p's thread ends now: its time goes to the pending row */
static void account(struct kvm_run *r, struct kvm_pending *p, u64 now)
{
	struct kvm_row *row = &r->rows[p->row - 1];
	u64 d;
	double delta;

	p->row = 0;
	if (now < p->time || (r->o->vcpu >= 0 && p->vcpu != (u64)r->o->vcpu))
		return;
	d = now - p->time;
	delta = (double)d - row->mean;
	row->nr++;
	row->total_ns += d;
	row->mean += delta / (double)row->nr;
	row->m2 += delta * ((double)d - row->mean);
	if (d < row->min_ns)
		row->min_ns = d;
	if (d > row->max_ns)
		row->max_ns = d;
	r->nr_samples++;
	r->total_ns += d;
}

/* an access row: "0xADDR:R" / "0xPORT:POUT" keyed by address and direction */
static size_t access_row(struct kvm_run *r, u64 addr, u32 dir, const char *fmt, const char *tag)
{
	size_t idx;
	struct kvm_row *row = row_findnew(r, addr, dir, &idx);

	if (!row->name) {
		row->name = xcalloc(1, 48);
		snprintf(row->name, 48, fmt, addr, tag);
	}
	return idx + 1;
}

static int kvm_sample(struct tool *tool, struct session *session, const union perf_event *ev,
		      const struct perf_sample *s, struct evsel *evsel)
{
	struct kvm_run *r = (struct kvm_run *)tool;
	const char *n = evsel->name ? evsel->name : "";
	struct kvm_pending *p;
	bool found;
	u64 v;

	(void)session;
	(void)ev;
	if (!pid_wanted(r, (int)s->pid))
		return 0;
	p = u64map_find(&r->open, s->tid);
	if (!strcmp(n, "kvm:kvm_entry")) {
		if (!p) {
			p = xcalloc(1, sizeof(*p));
			u64map_set(&r->open, s->tid, p);
		}
		p->entered = true;
		p->vcpu = tp_field(r, evsel, s, "vcpu_id", &found);
		if (p->row)
			account(r, p, s->time);
		p->exited = false;
		return 0;
	}
	/* perf knows a thread's vcpu from its first kvm_entry: nothing counts before it */
	if (!p || !p->entered)
		return 0;
	if (!strcmp(n, "kvm:kvm_exit")) {
		p->exited = true;
		p->time = s->time;
		p->row = 0;
		if (r->o->kind == KVM_STAT_VMEXIT) {
			size_t idx;
			struct kvm_row *row;

			v = tp_field(r, evsel, s, "exit_reason", &found);
			if (!found)
				return 0;
			row = row_findnew(r, v, 0, &idx);
			if (!row->name)
				row->name = reason_name(r, evsel, s, v);
			p->row = idx + 1;
		}
	} else if (!strcmp(n, "kvm:kvm_mmio") && r->o->kind == KVM_STAT_MMIO && p->exited) {
		u64 type = tp_field(r, evsel, s, "type", &found);
		u64 gpa = tp_field(r, evsel, s, "gpa", &found);

		if (type == 1) {	/* a read: done now, timed from the exit */
			p->row = access_row(r, gpa, 0, "%#" PRIx64 ":%s", "R");
			account(r, p, s->time);
			p->exited = false;
		} else {		/* a write (or a read to finish): timed to the entry */
			p->row = access_row(r, gpa, type == 2, "%#" PRIx64 ":%s", type == 2 ? "W" : "R");
			p->time = s->time;
		}
	} else if (!strcmp(n, "kvm:kvm_pio") && r->o->kind == KVM_STAT_IOPORT && p->exited) {
		u64 rw = tp_field(r, evsel, s, "rw", &found);
		u64 port = tp_field(r, evsel, s, "port", &found);

		p->row = access_row(r, port, rw != 0, "%#" PRIx64 ":%s", rw ? "POUT" : "PIN");
		p->time = s->time;
	}
	return 0;
}

void kvm_stat_header(const struct kvm_stat_opts *o)
{
	static const char *const names[] = { "VM-EXIT", "MMIO Access", "IO Port Access" };

	fprintf(stderr, "\n\nAnalyze events for ");
	if (o->pids)
		fprintf(stderr, "pid(s) %s, ", o->pids);
	else
		fprintf(stderr, "all VMs, ");
	if (o->vcpu >= 0)
		fprintf(stderr, "VCPU %d:\n\n", o->vcpu);
	else
		fprintf(stderr, "all VCPUs:\n\n");
	fprintf(stderr, "%20s %10s %9s %9s %11s %11s %16s \n\n", names[o->kind], "Samples",
		"Samples%", "Time%", "Min Time", "Max Time", "Avg time");
}

/* equal sort keys: by address or reason, then the newest row first, as perf lists them */
static int tie(const struct kvm_row *x, const struct kvm_row *y)
{
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->seq < y->seq ? 1 : x->seq > y->seq ? -1 : 0;
}

static int by_samples(const void *a, const void *b)
{
	const struct kvm_row *x = a, *y = b;

	if (x->nr != y->nr)
		return x->nr < y->nr ? 1 : -1;
	return tie(x, y);
}

static int by_avg(const void *a, const void *b)
{
	const struct kvm_row *x = a, *y = b;
	double ax = x->nr ? (double)x->total_ns / (double)x->nr : 0;
	double ay = y->nr ? (double)y->total_ns / (double)y->nr : 0;

	if (ax != ay)
		return ax < ay ? 1 : -1;
	return tie(x, y);
}

static void parse_pids(struct kvm_run *r, const char *list)
{
	const char *p = list;

	while (p && *p) {
		char *end;
		long v = strtol(p, &end, 10);

		if (end == p)
			break;
		r->pids = xrealloc(r->pids, (r->nr_pids + 1) * sizeof(*r->pids));
		r->pids[r->nr_pids++] = (int)v;
		p = *end == ',' ? end + 1 : NULL;
	}
}

static int free_pending(uint64_t key, void *val, void *arg)
{
	(void)key;
	(void)arg;
	free(val);
	return 0;
}

struct kvm_stat *kvm_stat_new(struct session *session, const struct kvm_stat_opts *o)
{
	const struct perf_header *h = data_reader_header(session->reader);
	struct kvm_run *r = xcalloc(1, sizeof(*r));

	r->o = o;
	if (h->tracing_data && trace_tep_from_data(h->tracing_data, h->tracing_data_size, &r->tep))
		r->tep = NULL;
	if (!r->tep && trace_tep_from_tracefs(&r->tep))
		r->tep = NULL;
	parse_pids(r, o->pids);
	u64map_init(&r->open);
	r->tool.sample = kvm_sample;
	r->tool.ordered = true;
	return (struct kvm_stat *)r;
}

struct tool *kvm_stat_tool(struct kvm_stat *ks)
{
	return &((struct kvm_run *)ks)->tool;
}

void kvm_stat_print(struct kvm_stat *ks)
{
	struct kvm_run *r = (struct kvm_run *)ks;
	const struct kvm_stat_opts *o = r->o;

	kvm_stat_header(o);
	if (r->nr_rows)
		qsort(r->rows, r->nr_rows, sizeof(*r->rows), o->sort_time ? by_avg : by_samples);
	for (size_t i = 0; i < r->nr_rows; i++) {
		const struct kvm_row *row = &r->rows[i];
		double avg, rel;

		if (!row->nr)
			continue;
		avg = (double)row->total_ns / (double)row->nr;
		rel = row->nr > 1 && avg > 0 ?
			      100.0 * sqrt(row->m2 / (double)(row->nr - 1) / (double)row->nr) / avg :
			      0.0;
		/* perf shows 0 as the minimum once --vcpu narrows the table */
		fprintf(stderr, "%20s %10" PRIu64 " %8.2f%% %8.2f%% %9.2fus %9.2fus %9.2fus ( +-%7.2f%% )\n",
			row->name, row->nr, 100.0 * (double)row->nr / (double)r->nr_samples,
			r->total_ns ? 100.0 * (double)row->total_ns / (double)r->total_ns : 0.0,
			o->vcpu >= 0 ? 0.0 : (double)row->min_ns / 1e3, (double)row->max_ns / 1e3,
			avg / 1e3, rel);
	}
	fprintf(stderr, "\nTotal Samples:%" PRIu64 ", Total events handled time:%.2fus.\n\n",
		r->nr_samples, (double)r->total_ns / 1e3);
}

/* a reset drops the rows: an event still being handled is not counted */
static int drop_pending_row(uint64_t key, void *val, void *arg)
{
	(void)key;
	(void)arg;
	((struct kvm_pending *)val)->row = 0;
	return 0;
}

void kvm_stat_reset(struct kvm_stat *ks)
{
	struct kvm_run *r = (struct kvm_run *)ks;

	for (size_t i = 0; i < r->nr_rows; i++)
		free(r->rows[i].name);
	r->nr_rows = 0;
	r->nr_samples = r->total_ns = 0;
	u64map_for_each(&r->open, drop_pending_row, NULL);
}

void kvm_stat_free(struct kvm_stat *ks)
{
	struct kvm_run *r = (struct kvm_run *)ks;

	if (!r)
		return;
	kvm_stat_reset(ks);
	u64map_for_each(&r->open, free_pending, NULL);
	u64map_release(&r->open);
	trace_tep_free(r->tep);
	free(r->rows);
	free(r->pids);
	free(r);
}

int kvm_stat_report(struct session *session, const struct kvm_stat_opts *o)
{
	struct kvm_stat *ks = kvm_stat_new(session, o);
	struct data_error err = { 0 };
	int ret;

	ret = session_process(session, kvm_stat_tool(ks), &err);
	if (ret < 0)
		data_error_print(data_reader_path(session->reader), &err);
	else
		kvm_stat_print(ks);
	kvm_stat_free(ks);
	return ret < 0 ? ret : 0;
}
