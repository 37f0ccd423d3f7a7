/* SPDX-License-Identifier: MIT */
/* sonde trace: records to thread state and perf trace's syscall lines (the -s tables: cmd/trace-summary.c). */
#include "cmd/trace.h"

#include "data/event.h"
#include "core/evlist-open.h"
#include "core/record-config.h"
#include "data/sample.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "trace/syscall-tbl.h"
#include "trace/tep.h"
#include "lib/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* the argument text is padded to this width before " = ret", and to 3 less before "..." */
#define ARGS_WIDTH 69

struct trace_thread *trace_thread_findnew(struct trace *trace, int pid, int tid)
{
	struct trace_thread *t = u64map_find(&trace->threads, (u64)tid);
	char path[64];
	FILE *f;

	if (t)
		return t;
	t = xcalloc(1, sizeof(*t));
	t->tid = tid;
	t->pid = pid;
	snprintf(path, sizeof(path), "/proc/%d/comm", tid);
	f = fopen(path, "r");
	if (f && fgets(t->comm, sizeof(t->comm), f))
		t->comm[strcspn(t->comm, "\n")] = '\0';
	else
		snprintf(t->comm, sizeof(t->comm), ":%d", tid);
	if (f)
		fclose(f);
	u64map_set(&trace->threads, (u64)tid, t);
	return t;
}

struct syscall_desc *trace_desc_get(struct trace *trace, int id)
{
	if (id < 0)
		return NULL;
	if (id >= trace->nr_descs) {
		int nr = id + 64;

		trace->descs = xrealloc(trace->descs, nr * sizeof(*trace->descs));
		trace->desc_done = xrealloc(trace->desc_done, nr * sizeof(*trace->desc_done));
		memset(trace->descs + trace->nr_descs, 0, (nr - trace->nr_descs) * sizeof(*trace->descs));
		memset(trace->desc_done + trace->nr_descs, 0, (nr - trace->nr_descs) * sizeof(bool));
		trace->nr_descs = nr;
	}
	if (!trace->desc_done[id]) {
		trace->desc_done[id] = true;
		if (syscall_desc_init(&trace->descs[id], id) < 0)
			trace->descs[id].id = id;
	}
	return &trace->descs[id];
}

const char *trace_desc_name(struct syscall_desc *d, char *buf, size_t len)
{
	if (d->name)
		return d->name;
	snprintf(buf, len, "%d", d->id);
	return buf;
}

static bool printing(const struct trace *trace)
{
	return !trace->summary_only;
}

/* add_ms - @ns as "%*.3f" milliseconds (rounded to the microsecond) without printf */
static void add_ms(struct strbuf *sb, u64 ns, int width)
{
	u64 us = (ns + 500) / 1000;
	char buf[32];
	int i = sizeof(buf);

	if (ns % 1000 == 500) {
		/* a tie: printf rounds the double nearest to it, either way */
		int n = snprintf(buf, sizeof(buf), "%*.3f", width, ns / 1e6);

		strbuf_add(sb, buf, n);
		return;
	}

	for (int k = 0; k < 3; k++) {
		buf[--i] = '0' + us % 10;
		us /= 10;
	}
	buf[--i] = '.';
	do {
		buf[--i] = '0' + us % 10;
		us /= 10;
	} while (us);
	if ((int)sizeof(buf) - i < width)
		strbuf_addchars(sb, ' ', width - (sizeof(buf) - i));
	strbuf_add(sb, buf + i, sizeof(buf) - i);
}

/* line_head - "  time ( dur ms): comm/tid " (time NULL: "?", dur_ns < 0: blank) */
static void line_head(struct trace *trace, struct strbuf *sb, const u64 *time, s64 dur_ns,
		      const struct trace_thread *t)
{
	char num[16];
	int n;

	if (!time)
		strbuf_addstr(sb, "         ?");
	else
		add_ms(sb, trace->full_time ? *time : *time > trace->base_time ? *time - trace->base_time : 0, 10);
	if (dur_ns == -2) {
		strbuf_addch(sb, ' ');	/* only other events: no duration column */
	} else if (dur_ns < 0) {
		strbuf_addstr(sb, " (         ): ");
	} else {
		strbuf_add(sb, " (", 2);
		add_ms(sb, (u64)dur_ns, 6);
		strbuf_add(sb, " ms): ", 6);
	}
	if (!trace->show_thread)
		return;
	if (trace->show_comm) {
		strbuf_addstr(sb, t->comm);
		strbuf_addch(sb, '/');
	}
	n = snprintf(num, sizeof(num), "%d ", t->tid);
	strbuf_add(sb, num, n);
}

/* pad - bring the text after the head (from @from) to @width columns */
static void pad(struct strbuf *sb, size_t from, size_t width)
{
	size_t len = sb->len - from;

	if (len < width)
		strbuf_addchars(sb, ' ', width - len);
}

/* emit_chain - the line in @sb, then @chain's frame lines (NULL: none) */
static void emit_chain(struct trace *trace, struct strbuf *sb, const struct strbuf *chain)
{
	if (trace->stopped)
		return;
	strbuf_addch(sb, '\n');
	fwrite(sb->buf, 1, sb->len, trace->out);
	if (chain && chain->len)
		fwrite(chain->buf, 1, chain->len, trace->out);
	/* --max-events: the last line shown stops the trace (the loop disables the events) */
	if (trace->max_events && ++trace->nr_printed >= trace->max_events)
		trace->stopped = true;
}

static void emit(struct trace *trace, struct strbuf *sb)
{
	emit_chain(trace, sb, NULL);
}

/* chain_max_stack - --max-stack, or kernel.perf_event_max_stack */
static unsigned int chain_max_stack(const struct trace *trace)
{
	return trace->max_stack_set ? trace->max_stack : trace_default_max_stack();
}

/* has_chains - syscall lines carry the sys_exit sample's callchain (--call-graph, or -i of one) */
static bool has_chains(const struct trace *trace)
{
	return trace->pf && trace->sys_exit &&
	       (trace->sys_exit->attr.sample_type & PERF_SAMPLE_CALLCHAIN);
}

static void add_call(struct trace *trace, struct strbuf *sb, struct syscall_desc *d,
		     const u64 *args, struct trace_thread *t)
{
	char nbuf[16];

	strbuf_addf(sb, "%s(", trace_desc_name(d, nbuf, sizeof(nbuf)));
	syscall_format_args(d, args, trace_fmt_cb(trace, t), sb);
	strbuf_addch(sb, ')');
}

/* flush_cut_entry - another thread's line comes: print the waiting entry with "..." */
static void flush_cut_entry(struct trace *trace, struct trace_thread *except)
{
	struct trace_thread *t = trace->last_entry;
	struct strbuf sb = STRBUF_INIT;
	size_t from;

	trace->last_entry = NULL;
	if (!t || t == except || !t->entry.active || t->entry.printed || !printing(trace) ||
	    trace->duration_ms > 0 || trace->failure_only)
		return;
	t->entry.printed = true;
	line_head(trace, &sb, &t->entry.time, -1, t);
	from = sb.len;
	add_call(trace, &sb, trace_desc_get(trace, t->entry.id), t->entry.args, t);
	pad(&sb, from, ARGS_WIDTH - 3);
	strbuf_addstr(&sb, " ...");
	emit(trace, &sb);
	strbuf_release(&sb);
}

static struct syscall_stats *stats_get(struct trace_thread *t, int id)
{
	if (id < 0)
		return NULL;
	if (id >= t->nr_stats) {
		int nr = id + 32;

		t->stats = xrealloc(t->stats, nr * sizeof(*t->stats));
		memset(t->stats + t->nr_stats, 0, (nr - t->nr_stats) * sizeof(*t->stats));
		t->nr_stats = nr;
	}
	return &t->stats[id];
}

static void stats_add(struct trace_thread *t, int id, u64 ns, s64 ret)
{
	struct syscall_stats *s = stats_get(t, id);
	double delta;

	if (!s)
		return;
	s->calls++;
	s->total_ns += ns;
	if (s->calls == 1 || ns < s->min_ns)
		s->min_ns = ns;
	if (ns > s->max_ns)
		s->max_ns = ns;
	delta = ns - s->mean;
	s->mean += delta / s->calls;
	s->m2 += delta * (ns - s->mean);
	if (ret < 0 && ret >= -4095) {
		int e = (int)-ret;

		s->errors++;
		if (e >= s->nr_errnos) {
			s->errnos = xrealloc(s->errnos, (e + 1) * sizeof(*s->errnos));
			memset(s->errnos + s->nr_errnos, 0, (e + 1 - s->nr_errnos) * sizeof(u64));
			s->nr_errnos = e + 1;
		}
		s->errnos[e]++;
	}
}

static void on_enter(struct trace *trace, struct trace_thread *t, u64 time, int id,
		     const u64 *args)
{
	struct syscall_desc *d = trace_desc_get(trace, id);

	flush_cut_entry(trace, t);
	/* the thread's last call never returned (rt_sigreturn's exit has id -1): shown cut */
	if (t->entry.active && !t->entry.printed) {
		trace->last_entry = t;
		flush_cut_entry(trace, NULL);
	}
	t->entry.active = true;
	t->entry.printed = false;
	t->entry.id = id;
	t->entry.time = time;
	memcpy(t->entry.args, args, sizeof(t->entry.args));
	if (d && d->ret_kind == SRK_NONE) {
		/* exit/exit_group: no sys_exit will come */
		t->entry.active = false;
		/* no sys_exit, no chain: --min-stack hides the line (perf) */
		if (printing(trace) && !trace->failure_only && trace->duration_ms <= 0 &&
		    !trace->min_stack) {
			struct strbuf sb = STRBUF_INIT;
			size_t from;

			line_head(trace, &sb, &time, -1, t);
			from = sb.len;
			add_call(trace, &sb, d, args, t);
			pad(&sb, from, ARGS_WIDTH);
			strbuf_addstr(&sb, " = ?");
			emit(trace, &sb);
			strbuf_release(&sb);
		}
		return;
	}
	trace->last_entry = t;
}

static void on_exit_(struct trace *trace, struct trace_thread *t, u64 time, int id, s64 ret,
		     const struct perf_sample *sample)
{
	struct syscall_desc *d = trace_desc_get(trace, id);
	bool have_entry = t->entry.active && t->entry.id == id;
	u64 ns = have_entry && time > t->entry.time ? time - t->entry.time : 0;
	double dur = ns / 1e6;
	struct strbuf sb = STRBUF_INIT, chain = STRBUF_INIT;
	char nbuf[16];
	size_t from;

	if (!d)
		return;
	stats_add(t, id, ns, ret);
	if (!printing(trace))
		goto out;
	if (trace->failure_only && !(ret < 0 && ret >= -4095))
		goto out;
	if (trace->duration_ms > 0 && (!have_entry || dur <= trace->duration_ms))
		goto out;
	if (has_chains(trace)) {
		u32 nr = trace_pf_callchain(trace->pf, sample, trace->sys_exit->attr.sample_type,
					    chain_max_stack(trace),
					    /* perf trace -i shows only the recorded frames */
					    !trace->replay, &chain);

		if (nr < trace->min_stack)
			goto out;
	}
	if (have_entry)
		line_head(trace, &sb, &t->entry.time, (s64)ns, t);
	else
		line_head(trace, &sb, NULL, -1, t);
	from = sb.len;
	if (have_entry && !t->entry.printed)
		add_call(trace, &sb, d, t->entry.args, t);
	else
		strbuf_addf(&sb, " ... [continued]: %s())", trace_desc_name(d, nbuf, sizeof(nbuf)));
	pad(&sb, from, ARGS_WIDTH);
	strbuf_addstr(&sb, " = ");
	syscall_format_ret(d, have_entry ? t->entry.args : NULL, ret, trace_fmt_cb(trace, t), &sb);
	emit_chain(trace, &sb, &chain);
out:
	strbuf_release(&chain);
	strbuf_release(&sb);
	if (have_entry)
		trace_fd_update(trace, t, d->name, t->entry.args, ret);
	t->entry.active = false;
	if (trace->last_entry == t)
		trace->last_entry = NULL;
}

static u64 raw_u64(const struct perf_sample *s, int off)
{
	u64 v = 0;

	if (off >= 0 && (u32)off + 8 <= s->raw_size)
		memcpy(&v, (const char *)s->raw_data + off, 8);
	return v;
}

static struct evsel *evsel_by_id(struct trace *trace, u64 id)
{
	struct evsel *evsel;

	evlist_for_each_entry(trace->evlist, evsel) {
		int nr = evsel_nr_fds(evsel);

		for (int i = 0; i < nr; i++)
			if (evsel->ids[i] == id)
				return evsel;
	}
	return NULL;
}

/* print_event - another event: "time comm/tid sys:name(field: value, ...)" */
static void print_event(struct trace *trace, struct trace_thread *t, struct evsel *evsel,
			const struct perf_sample *sample)
{
	struct tep_event *tp = NULL;
	struct strbuf sb = STRBUF_INIT, chain = STRBUF_INIT;
	bool first = true;

	/* --call-graph: the event's chain (kernel frames included) under its line */
	if (trace->pf && (evsel->attr.sample_type & PERF_SAMPLE_CALLCHAIN) &&
	    trace_pf_callchain(trace->pf, sample, evsel->attr.sample_type, chain_max_stack(trace),
			       !trace->replay, &chain) < trace->min_stack) {
		strbuf_release(&chain);
		return;
	}
	line_head(trace, &sb, &sample->time, trace->trace_syscalls ? -1 : -2, t);
	strbuf_addf(&sb, "%s(", evsel->name);
	if (trace->tep && evsel->attr.type == PERF_TYPE_TRACEPOINT)
		tp = trace_tep_find_event(trace->tep, (int)evsel->attr.config);
	for (int i = 0; tp && i < trace_tep_nr_fields(tp); i++) {
		const char *name = trace_tep_field_name(tp, i), *str;
		size_t len;
		u64 v;

		if (trace_tep_field_is_string(tp, i)) {
			if (trace_tep_field_str(tp, sample->raw_data, sample->raw_size, name, &str, &len))
				continue;
			strbuf_addf(&sb, "%s%s: \"%.*s\"", first ? "" : ", ", name, (int)len, str);
		} else {
			if (trace_tep_field_u64(tp, sample->raw_data, sample->raw_size, name, &v) || !v)
				continue;
			strbuf_addf(&sb, "%s%s: ", first ? "" : ", ", name);
			if (!strcmp(name, "pid") || strendswith(name, "_pid")) {
				const char *c = trace_thread_comm(trace, (int)v);

				strbuf_addf(&sb, c ? "%d (%s)" : "%d", (int)v, c);
			} else {
				strbuf_addf(&sb, "%lld", (long long)v);
			}
		}
		first = false;
	}
	strbuf_addch(&sb, ')');
	emit_chain(trace, &sb, &chain);
	strbuf_release(&chain);
	strbuf_release(&sb);
}

int trace_process_side(struct trace *trace, const union perf_event *ev)
{
	struct trace_thread *t;

	/* live, perf counts every record in the percentages; from a file only samples */
	if (!trace->replay)
		trace->nr_records++;
	trace_pf_side(trace->pf, ev);
	switch (ev->header.type) {
	case PERF_RECORD_COMM:
		t = trace_thread_findnew(trace, ev->comm.pid, ev->comm.tid);
		snprintf(t->comm, sizeof(t->comm), "%s", ev->comm.comm);
		break;
	case PERF_RECORD_FORK: {
		struct trace_thread *parent = trace_thread_findnew(trace, ev->fork.ppid, ev->fork.ptid);

		t = u64map_find(&trace->threads, ev->fork.tid);
		if (!t) {
			t = xcalloc(1, sizeof(*t));
			t->tid = ev->fork.tid;
			t->pid = ev->fork.pid;
			u64map_set(&trace->threads, (u64)t->tid, t);
		}
		memcpy(t->comm, parent->comm, sizeof(t->comm));
		break;
	}
	case PERF_RECORD_LOST:
		trace->nr_lost += ev->lost.lost;
		break;
	default:
		break;
	}
	return 0;
}

int trace_process_sample(struct trace *trace, struct evsel *evsel, const struct perf_sample *sample)
{
	struct trace_thread *t;

	trace->nr_records++;
	if (!trace->base_time)
		trace->base_time = sample->time;
	t = trace_thread_findnew(trace, sample->pid, sample->tid);
	t->nr_events++;
	int kind = trace_sc_kind(trace, evsel);

	if (kind == 1) {
		u64 args[SYSCALL_MAX_ARGS];

		for (int i = 0; i < SYSCALL_MAX_ARGS; i++)
			args[i] = raw_u64(sample, trace->enter_args_off + 8 * i);
		on_enter(trace, t, sample->time, (int)raw_u64(sample, trace->enter_id_off), args);
	} else if (kind == 2) {
		on_exit_(trace, t, sample->time, (int)raw_u64(sample, trace->exit_id_off),
			 (s64)raw_u64(sample, trace->exit_ret_off), sample);
	} else if (evsel && evsel == trace->runtime_ev) {
		/* --sched: summed for the summary, never printed */
		t->runtime_ns += raw_u64(sample, trace->runtime_off);
	} else if (evsel_is_fault(evsel)) {
		bool major = evsel_is_fault(evsel) == 1;

		if (major)
			t->nr_majfaults++;
		else
			t->nr_minfaults++;
		/*
		 * a fault does not cut the pending call: its line comes whole after
		 * it; --failure and --duration do not hide faults (perf)
		 */
		if (trace->pf && printing(trace)) {
			struct strbuf sb = STRBUF_INIT, chain = STRBUF_INIT;
			u32 nr = 0;

			/* --call-graph: the fault's chain (kernel frames included) under it */
			if (evsel->attr.sample_type & PERF_SAMPLE_CALLCHAIN)
				nr = trace_pf_callchain(trace->pf, sample, evsel->attr.sample_type,
							chain_max_stack(trace), !trace->replay, &chain);
			if (nr >= trace->min_stack) {
				line_head(trace, &sb, &sample->time, 0, t);
				trace_pf_format(trace->pf, sample, major, &sb);
				emit_chain(trace, &sb, &chain);
			}
			strbuf_release(&chain);
			strbuf_release(&sb);
		}
	} else if (evsel && printing(trace) && !trace->failure_only && trace->duration_ms <= 0) {
		flush_cut_entry(trace, t);
		print_event(trace, t, evsel, sample);
	}
	return 0;
}

int trace_process_event(struct trace *trace, const union perf_event *ev, u64 time)
{
	struct evsel *first = evlist_first(trace->evlist);
	struct perf_sample sample;

	memset(&sample, 0, sizeof(sample));
	if (ev->header.type != PERF_RECORD_SAMPLE)
		return trace_process_side(trace, ev);
	if (perf_sample_parse(&first->attr, ev, &sample)) {
		trace->nr_records++;
		return 0;
	}
	(void)time;
	return trace_process_sample(trace, evsel_by_id(trace, sample.id), &sample);
}

static int free_thread(uint64_t key, void *val, void *arg)
{
	struct trace_thread *t = val;

	for (int i = 0; i < t->nr_stats; i++)
		free(t->stats[i].errnos);
	free(t->stats);
	trace_thread_free_fds(t);
	free(t);
	return 0;
}

void trace_release(struct trace *trace)
{
	u64map_for_each(&trace->threads, free_thread, NULL);
	u64map_release(&trace->threads);
	for (int i = 0; i < trace->nr_descs; i++)
		if (trace->desc_done[i])
			syscall_desc_release(&trace->descs[i]);
	free(trace->descs);
	free(trace->desc_done);
	free(trace->selected);
	free(trace->event_str);
	evlist_free(trace->pending);
	if (trace->cgroup_fd >= 0)
		close(trace->cgroup_fd);
	free(trace->cgroup_name);
	trace_tep_free(trace->tep);
	trace_pf_free(trace->pf);
}
