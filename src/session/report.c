/* SPDX-License-Identifier: MIT */
/* The report pipeline: samples -> filters -> resolved frames -> hists per event. */
#include "session/report.h"

#include "core/evlist.h"
#include "core/evsel.h"
#define PR_PREFIX "report"
#include "lib/debug.h"
#include "lib/xalloc.h"
#include "session/unwind.h"
#include "session/hists-queue.h"
#include "session/resolve.h"
#include "lib/strbuf.h"
#include "symbol/srcline.h"
#include "trace/tep.h"

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static bool str_in(const char **list, const char *s)
{
	for (; *list; list++)
		if (!strcmp(*list, s))
			return true;
	return false;
}

static bool int_in(const int *v, int nr, int x)
{
	for (int i = 0; i < nr; i++)
		if (v[i] == x)
			return true;
	return false;
}

/* dso_srctext - the srcline/srcfile texts of @dso's addresses (grown on demand) */
static struct report_srctext *dso_srctext(struct report *rep, const struct dso *dso)
{
	if (dso->id >= rep->nr_srctext) {
		u32 n = dso->id + 16;

		rep->srctext = xreallocarray(rep->srctext, n, sizeof(*rep->srctext));
		for (u32 i = rep->nr_srctext; i < n; i++) {
			u64map_init(&rep->srctext[i].line);
			u64map_init(&rep->srctext[i].file);
		}
		rep->nr_srctext = n;
	}
	return &rep->srctext[dso->id];
}

/*
 * sample_srcline - perf's srcline and srcfile texts for a sample address:
 * "file:line" from DWARF, else "sym+offset" / "dso[addr]"; the file's
 * basename or "". Cached per dso and address; strings are interned.
 */
static void sample_srcline(struct report *rep, struct session *s, const struct addr_location *loc,
			   u64 ip, const char **line, const char **file)
{
	const struct frame *f = loc->frame;
	struct dso *dso = f->dso;
	struct report_srctext *rs;
	struct map *map;
	u64 addr;
	char buf[512];
	struct srcline sl;
	const char *l, *fl = "";
	int err;

	*line = *file = NULL;
	if (!dso) {
		*line = strpool_intern(&s->names, "??:0");
		*file = strpool_intern(&s->names, "");
		return;
	}
	rs = dso_srctext(rep, dso);
	map = f->map;
	if (loc->thread && !dso->is_kernel) {
		struct map *m = maps_find(loc->thread->maps, ip);

		if (m)
			map = m;
	}
	addr = dso->ss && map ? symsrc_map_ip(dso->ss, map->start, map->pgoff, ip) : f->addr;
	l = u64map_find(&rs->line, addr);
	if (l) {
		*line = l;
		*file = u64map_find(&rs->file, addr);
		return;
	}
	err = dso->is_kernel || dso->long_name[0] != '/'
		      ? -ENOENT
		      : resolver_srcline_find(&rep->res, dso, addr, false, &sl);
	if (!err && sl.file) {
		const char *slash = strrchr(sl.file, '/');

		l = srcline_format(&sl, false, buf, sizeof(buf));
		fl = slash ? slash + 1 : sl.file;
	} else if (err == -ENODATA) {
		l = "??:0"; /* perf's text for a binary without DWARF, symbol or not */
	} else if (f->sym) {
		u64 sym_addr = dso->is_kernel ? ip : addr;

		l = srcline_format_unknown(buf, sizeof(buf), f->sym->name, sym_addr - f->sym->start,
					   dso->short_name, addr);
	} else {
		l = srcline_format_unknown(buf, sizeof(buf), NULL, 0, dso->short_name, addr);
	}
	*line = strpool_intern(&s->names, l);
	*file = strpool_intern(&s->names, fl);
	u64map_set(&rs->line, addr, (void *)*line);
	u64map_set(&rs->file, addr, (void *)*file);
}

/*
 * switch_discards - --switch-on/--switch-off as perf does them: before the
 * on-event every sample is dropped; the off-event starts dropping only when
 * an on-event can end it (alone, it drops just its own first sample). The
 * on/off samples themselves count only with --show-on-off-events.
 */
static bool switch_discards(struct report *rep, struct evsel *evsel)
{
	const struct report_filter *f = &rep->filter;

	if (f->switch_on && rep->discarding) {
		if (f->switch_on != evsel)
			return true;
		rep->discarding = false;
		return !f->show_on_off_events;
	}
	if (f->switch_off && !rep->discarding) {
		if (f->switch_off != evsel)
			return false;
		rep->discarding = true;
		return !f->show_on_off_events;
	}
	return false;
}

/*
 * sample_values - what the time, cgroup, weight, ... keys and the
 * overhead_sys/us columns take from the sample
 */
static void sample_values(struct report *rep, const struct evsel *evsel,
			  const struct perf_sample *sample, const struct thread *thread,
			  struct hist_sample *hs)
{
	u64 q = rep->time_quantum ? rep->time_quantum : 100 * 1000 * 1000ULL;
	uintptr_t ns;

	hs->time = sample->time / q * q;
	hs->cgroup_id = sample->cgroup;
	hs->cgroup = u64map_find(&rep->cgroup_path, sample->cgroup);
	ns = (uintptr_t)u64map_find(&rep->cgroup_ns, (u64)(u32)thread->tid);
	if (ns) {
		hs->ns_dev = rep->ns_id[ns - 1][0];
		hs->ns_ino = rep->ns_id[ns - 1][1];
	}
	/* the weight struct packs var1_dw | ins_lat << 32 | p_stage_cyc << 48 */
	if (evsel->attr.sample_type & PERF_SAMPLE_WEIGHT_STRUCT) {
		hs->weight = (u32)sample->weight;
		hs->ins_lat = (u16)(sample->weight >> 32);
		hs->p_stage_cyc = (u16)(sample->weight >> 48);
	} else {
		hs->weight = sample->weight;
	}
	hs->transaction = sample->transaction;
	hs->data_src = sample->data_src;
	hs->daddr = sample->addr;
	hs->phys_addr = sample->phys_addr;
	hs->data_page_size = sample->data_page_size;
	hs->code_page_size = sample->code_page_size;
	switch (sample->cpumode) {
	case PERF_RECORD_MISC_KERNEL:
		hs->mode = 0;
		break;
	case PERF_RECORD_MISC_USER:
		hs->mode = 1;
		break;
	case PERF_RECORD_MISC_GUEST_KERNEL:
		hs->mode = 2;
		break;
	case PERF_RECORD_MISC_GUEST_USER:
		hs->mode = 3;
		break;
	default:
		hs->mode = -1;
		break;
	}
}

struct report_kvm_sides report_kvm_sides;

/* sample_is_guest - a sample of a guest's kernel or user space */
static bool sample_is_guest(const struct perf_sample *sample)
{
	return sample->cpumode == PERF_RECORD_MISC_GUEST_KERNEL ||
	       sample->cpumode == PERF_RECORD_MISC_GUEST_USER;
}

/* report_sample - the tool callback: one sample into its event's hists */
static int report_sample(struct tool *tool, struct session *s, const union perf_event *ev,
			 const struct perf_sample *sample, struct evsel *evsel)
{
	struct report *rep = container_of(tool, struct report, tool);
	const struct report_filter *f = &rep->filter;
	struct hist_sample hs;
	struct addr_location loc;
	const struct resolved_frame *rf;
	struct hists *hists;
	u64 period = sample->period ? sample->period : 1;

	(void)ev;
	if (evsel->idx < 0 || evsel->idx >= rep->nr_hists)
		return 0;
	hists = &rep->hists[evsel->idx];
	/* --mem-mode: the access cost (weight) is what the overheads share */
	if (hists->opts.mem_mode) {
		/* (a sample without weight counts 1) */
		period = (evsel->attr.sample_type & PERF_SAMPLE_WEIGHT_STRUCT) ? (u32)sample->weight
									: sample->weight;
		if (!period)
			period = 1;
	}
	if (switch_discards(rep, evsel))
		return 0;
	if (!cpu_bitmap_has(&f->cpus, sample->cpu) ||
	    !time_spans_include(f->time_spans, f->nr_time_spans, sample->time))
		return 0;
	rf = resolve_sample(&rep->res, sample, &loc);
	if (f->hide_unresolved && !loc.frame->sym)
		return 0;
	if (rep->annotate)
		annotate_hists_add(rep->annotate, rf, evsel->idx, period);
	/* cpu, time and -U filters drop samples; the others hide entries (below) */
	rep->nr_samples_all[evsel->idx]++;
	rep->total_period_all[evsel->idx] += period;
	memset(&hs, 0, sizeof(hs));
	/*
	 * perf's filters mark the entries a sample creates as hidden; the
	 * sample's period still counts, in the totals and in entries that an
	 * unfiltered sample made visible
	 */
	if (f->comms && !str_in(f->comms, loc.thread->comm))
		hs.filtered = true;
	if (f->nr_pids && !int_in(f->pids, f->nr_pids, loc.thread->pid))
		hs.filtered = true;
	if (f->nr_tids && !int_in(f->tids, f->nr_tids, loc.thread->tid))
		hs.filtered = true;
	if (f->dsos) {
		const struct dso *d = loc.frame->dso;

		if (!d || (!str_in(f->dsos, d->short_name) && !str_in(f->dsos, d->long_name)))
			hs.filtered = true;
	}
	if (f->symbols && (!loc.frame->sym || !str_in(f->symbols, loc.frame->sym->name)))
		hs.filtered = true;
	if (sample_is_guest(sample) ? f->hide_guest : f->hide_host)
		hs.filtered = true;

	hs.thread = loc.thread;
	hs.comm = loc.thread->comm;
	hs.frame = loc.frame;
	hs.period = period;
	/*
	 * -v shows perf's al->addr of the sample that made an entry; frames
	 * are one per symbol, so the sample's own address is found here
	 */
	if (rep->hopts.long_dso_names && loc.frame->sym && loc.frame->dso) {
		if (loc.frame->dso->is_kernel) {
			hs.addr = sample->ip;
		} else if (loc.thread->maps) {
			const struct map *m = maps_find(loc.thread->maps, sample->ip);

			if (m && m->dso == loc.frame->dso)
				hs.addr = sample->ip - m->start + m->pgoff;
		}
	}
	hs.cpu = (int)sample->cpu;
	hs.socket = -1;
	sample_values(rep, evsel, sample, loc.thread, &hs);
	if (hists->opts.mem_mode && (evsel->attr.sample_type & PERF_SAMPLE_ADDR))
		hs.dframe = resolver_frame_fb(&rep->res, loc.thread, loc.cpumode, sample->addr)->frame;
	if (rep->want_srcline)
		sample_srcline(rep, s, &loc, sample->ip, &hs.srcline, &hs.srcfile);
	if (rep->want_trace) {
		struct tep_event *te = NULL;

		if (rep->tep && evsel->attr.type == PERF_TYPE_TRACEPOINT)
			te = trace_tep_find_event(rep->tep, (int)evsel->attr.config);
		strbuf_reset(rep->trace_buf);
		if (te && sample->raw_data)
			trace_tep_format(te, sample->raw_data, sample->raw_size, (int)sample->cpu,
					 sample->time, rep->trace_buf);
		/* NULL: no tracepoint, perf's "N/A" */
		hs.trace = te ? strpool_intern(&s->names, rep->trace_buf->buf) : NULL;
		bool want_fields = false;

		for (int i = 0; i < rep->hopts.nr_keys; i++)
			want_fields |= rep->hopts.keys[i] == SORT_TRACE_FIELDS ||
				       rep->hopts.keys[i] == SORT_TRACE_FIELDS_RAW;
		if (want_fields && te && sample->raw_data) {
			/* trace_fields: the fields as the key, the payload for the columns */
			hs.tp = te;
			strbuf_reset(rep->trace_buf);
			trace_tep_fields_key(te, sample->raw_data, sample->raw_size, rep->trace_buf);
			hs.tfields = strpool_intern(&s->names, rep->trace_buf->buf);
			strbuf_reset(rep->trace_buf);
			for (u32 i = 0; i < sample->raw_size; i++)
				strbuf_addf(rep->trace_buf, "%02x", ((const u8 *)sample->raw_data)[i]);
			hs.traw = strpool_intern(&s->names, rep->trace_buf->buf);
		}
	}
	if (sample->cpu != (u32)-1) {
		const struct perf_header *h = data_reader_header(s->reader);

		if (h->cpu_topo && sample->cpu < h->nr_cpus_avail)
			hs.socket = (int)h->cpu_topo[sample->cpu].socket_id;
	}
	if ((sample->callchain || unwind_possible(evsel->attr.sample_type)) &&
	    (rep->hopts.use_callchain || rep->hopts.children || rep->has_parent_re)) {
		struct chain_opts copts = {
			.max_stack = rep->hopts.max_stack > 0 ? (u32)rep->hopts.max_stack : 127,
			.caller_order = rep->hopts.cc.order == ORDER_CALLER,
			.unwind = true,
		};

		hs.nr_chain = resolve_sample_callchain(&rep->res, loc.thread, sample,
						       evsel->attr.sample_type, &copts, &rep->chain);
		hs.chain = rep->chain.frames;
		if (rep->has_parent_re) {
			for (u32 i = 0; i < hs.nr_chain; i++) {
				const struct frame *fr = hs.chain[i].frame;

				if (fr->sym && !regexec(&rep->parent_re, fr->sym->name, 0, NULL, 0)) {
					hs.parent = fr;
					break;
				}
			}
		}
	}
	/* -U: unresolved frames leave the callchains too */
	if (f->hide_unresolved && hs.nr_chain) {
		u32 n = 0;

		for (u32 i = 0; i < hs.nr_chain; i++)
			if (rep->chain.frames[i].frame->sym)
				rep->chain.frames[n++] = rep->chain.frames[i];
		hs.nr_chain = n;
	}
	if (f->exclude_other && !hs.parent)
		hs.filtered = true;
	if (rep->queue)
		hists_queue_add(rep->queue, hists, &hs);
	else
		hists_add(hists, &hs);
	return 0;
}

static int report_other(struct tool *tool, struct session *s, const union perf_event *ev,
			const struct perf_sample *sample);

/* %ps/%pS in payloads: the kernel function at @addr, as perf names it from its kernel map */
static const char *kernel_func_at(void *priv, u64 addr, u64 *start)
{
	struct machine *m = priv;
	struct thread *idle = machine_findnew_thread(m, 0, 0);
	const struct frame *fr = machine_resolve_ip(m, idle, PERF_RECORD_MISC_KERNEL, addr);

	if (!fr || !fr->sym || !fr->dso || !fr->dso->is_kernel)
		return NULL;
	*start = fr->sym->start;
	return fr->sym->name;
}

int report_init(struct report *rep, struct session *session, const struct hists_opts *hopts,
		const struct report_filter *filter, const char *parent_pattern)
{
	struct evsel *evsel;
	int n = 0;

	memset(rep, 0, sizeof(*rep));
	rep->session = session;
	rep->hopts = *hopts;
	if (filter)
		rep->filter = *filter;
	rep->filter.hide_host |= report_kvm_sides.hide_host;
	rep->filter.hide_guest |= report_kvm_sides.hide_guest;
	rep->discarding = rep->filter.switch_on != NULL;
	for (int i = 0; i < hopts->nr_keys; i++) {
		if (hopts->keys[i] == SORT_SRCLINE || hopts->keys[i] == SORT_SRCFILE)
			rep->want_srcline = true;
		if (hopts->keys[i] == SORT_TRACE || hopts->keys[i] == SORT_TRACE_FIELDS ||
		    hopts->keys[i] == SORT_TRACE_FIELDS_RAW)
			rep->want_trace = true;
	}
	if (rep->want_trace) {
		const struct perf_header *h = data_reader_header(session->reader);

		rep->trace_buf = xzalloc(sizeof(*rep->trace_buf));
		strbuf_init(rep->trace_buf, 256);
		if (h->tracing_data &&
		    !trace_tep_from_data(h->tracing_data, h->tracing_data_size, &rep->tep)) {
			rep->tep_resolver.fn = kernel_func_at;
			rep->tep_resolver.priv = &session->machine;
			trace_tep_set_resolver(rep->tep, &rep->tep_resolver);
		}
	}
	for (int i = 0; i < hopts->nr_keys; i++) {
		if (hopts->keys[i] == SORT_PARENT) {
			if (regcomp(&rep->parent_re,
				    parent_pattern ? parent_pattern : "^sys_|^do_page_fault",
				    REG_EXTENDED | REG_NOSUB))
				return -EINVAL;
			rep->has_parent_re = true;
			break;
		}
	}
	evlist_for_each_entry(session->evlist, evsel)
		n++;
	rep->nr_hists = n;
	rep->hists = xcalloc(n ? n : 1, sizeof(*rep->hists));
	rep->nr_samples_all = xcalloc(n ? n : 1, sizeof(u64));
	rep->total_period_all = xcalloc(n ? n : 1, sizeof(u64));
	for (int i = 0; i < n; i++)
		hists_init(&rep->hists[i], hopts);
	resolver_init(&rep->res, &session->machine, NULL);
	rep->tool.sample = report_sample;
	rep->tool.other = report_other;
	rep->tool.ordered = true;
	u64map_init(&rep->cgroup_path);
	u64map_init(&rep->cgroup_ns);
	return 0;
}

/*
 * report_read_event - a PERF_RECORD_READ (record -s / inherit_stat): its
 * value is added to the (pid, tid) row and the event's column, as perf -T
 * does. The event is the one of the record's sample_id (its trailer).
 */
static int report_read_event(struct tool *tool, struct session *s, const union perf_event *ev,
			     const struct perf_sample *sample)
{
	struct report *rep = (struct report *)((char *)tool - offsetof(struct report, tool));
	struct report_thread_values *tv = &rep->tv;
	struct evsel *evsel;
	u32 pid, tid;
	u64 value, key;
	uintptr_t t;
	int c;

	(void)sample;
	if (!rep->want_thread_values || ev->header.type != PERF_RECORD_READ ||
	    ev->header.size < sizeof(ev->header) + 16)
		return 0;
	memcpy(&pid, (const u8 *)ev + sizeof(ev->header), 4);
	memcpy(&tid, (const u8 *)ev + sizeof(ev->header) + 4, 4);
	memcpy(&value, (const u8 *)ev + sizeof(ev->header) + 8, 8);
	evsel = data_reader_evsel_for_event(s->reader, ev);
	if (!evsel)
		evsel = evlist_first(s->evlist);
	if (!evsel || evsel->idx < 0 || evsel->idx >= rep->nr_hists)
		return 0;
	key = (u64)pid << 32 | tid;
	t = (uintptr_t)u64map_find(&tv->thread_of, key);
	if (!t) {
		tv->pid = xgrow(tv->pid, tv->nr_threads + 1, &tv->alloc_threads, sizeof(*tv->pid));
		tv->tid = xreallocarray(tv->tid, tv->alloc_threads, sizeof(*tv->tid));
		tv->value = xreallocarray(tv->value, tv->alloc_threads, sizeof(*tv->value));
		tv->pid[tv->nr_threads] = (int)pid;
		tv->tid[tv->nr_threads] = (int)tid;
		tv->value[tv->nr_threads] = xcalloc(rep->nr_hists, sizeof(u64));
		t = (uintptr_t)++tv->nr_threads;
		u64map_set(&tv->thread_of, key, (void *)t);
	}
	c = tv->counter_of[evsel->idx];
	if (!c) {
		tv->counter_name[tv->nr_counters] = evsel->name;
		tv->counter_evsel[tv->nr_counters] = evsel->idx;
		c = tv->counter_of[evsel->idx] = ++tv->nr_counters;
	}
	tv->value[t - 1][c - 1] += value;
	return 0;
}

/* the cgroup namespace is the 7th of a NAMESPACES record (net, uts, ipc, pid, user, mnt, cgroup) */
#define CGROUP_NS_SLOT 6

/*
 * report_other - the records besides samples: READ (-T), CGROUP (id ->
 * path, for the cgroup key), NAMESPACES (a thread's cgroup namespace, for
 * cgroup_id)
 */
static int report_other(struct tool *tool, struct session *s, const union perf_event *ev,
			const struct perf_sample *sample)
{
	struct report *rep = (struct report *)((char *)tool - offsetof(struct report, tool));
	const u8 *p = (const u8 *)ev + sizeof(ev->header);
	size_t size = ev->header.size;

	switch (ev->header.type) {
	case PERF_RECORD_READ:
		return report_read_event(tool, s, ev, sample);
	case PERF_RECORD_CGROUP: {
		u64 id;
		size_t len;

		if (size < sizeof(ev->header) + 8)
			return 0;
		memcpy(&id, p, 8);
		len = strnlen((const char *)p + 8, size - sizeof(ev->header) - 8);
		u64map_set(&rep->cgroup_path, id,
			   (void *)strpool_intern_len(&s->names, (const char *)p + 8, len));
		return 0;
	}
	case PERF_RECORD_NAMESPACES: {
		u32 tid;
		u64 nr;
		uintptr_t slot;

		if (size < sizeof(ev->header) + 16)
			return 0;
		memcpy(&tid, p + 4, 4);
		memcpy(&nr, p + 8, 8);
		if (nr <= CGROUP_NS_SLOT || size < sizeof(ev->header) + 16 + 16 * (CGROUP_NS_SLOT + 1))
			return 0;
		slot = (uintptr_t)u64map_find(&rep->cgroup_ns, tid);
		if (!slot) {
			rep->ns_id = xgrow(rep->ns_id, rep->nr_ns_id + 1, &rep->alloc_ns_id,
					   sizeof(*rep->ns_id));
			slot = ++rep->nr_ns_id;
			u64map_set(&rep->cgroup_ns, tid, (void *)slot);
		}
		memcpy(rep->ns_id[slot - 1], p + 16 + 16 * CGROUP_NS_SLOT, 16);
		return 0;
	}
	default:
		return 0;
	}
}

void report_want_thread_values(struct report *rep)
{
	rep->want_thread_values = true;
	u64map_init(&rep->tv.thread_of);
	rep->tv.counter_name = xcalloc(rep->nr_hists ? rep->nr_hists : 1, sizeof(char *));
	rep->tv.counter_of = xcalloc(rep->nr_hists ? rep->nr_hists : 1, sizeof(int));
	rep->tv.counter_evsel = xcalloc(rep->nr_hists ? rep->nr_hists : 1, sizeof(int));
}

void report_release(struct report *rep)
{
	u64map_release(&rep->cgroup_path);
	u64map_release(&rep->cgroup_ns);
	free(rep->ns_id);
	for (int i = 0; i < rep->nr_hists; i++)
		hists_release(&rep->hists[i]);
	free(rep->hists);
	free(rep->nr_samples_all);
	free(rep->total_period_all);
	resolved_chain_release(&rep->chain);
	resolver_release(&rep->res);
	for (u32 i = 0; i < rep->nr_srctext; i++) {
		u64map_release(&rep->srctext[i].line);
		u64map_release(&rep->srctext[i].file);
	}
	free(rep->srctext);
	trace_tep_free(rep->tep);
	if (rep->trace_buf) {
		strbuf_release(rep->trace_buf);
		free(rep->trace_buf);
	}
	if (rep->has_parent_re)
		regfree(&rep->parent_re);
	if (rep->want_thread_values) {
		for (int i = 0; i < rep->tv.nr_threads; i++)
			free(rep->tv.value[i]);
		free(rep->tv.value);
		free(rep->tv.pid);
		free(rep->tv.tid);
		free(rep->tv.counter_name);
		free(rep->tv.counter_of);
		free(rep->tv.counter_evsel);
		u64map_release(&rep->tv.thread_of);
	}
	memset(rep, 0, sizeof(*rep));
}

int report_process(struct report *rep, struct data_error *err)
{
	int ret;

	/*
	 * the hists grow on a second thread while this one reads and resolves
	 * (not with trace keys: their comparisons format payloads with libtraceevent)
	 */
	if (!rep->want_trace)
		rep->queue = hists_queue_new();
	ret = session_process(rep->session, &rep->tool, err);
	hists_queue_finish(rep->queue);
	rep->queue = NULL;

	for (int i = 0; i < rep->nr_hists; i++) {
		hists_sort(&rep->hists[i]);
		pr_debug("hists %d: %zu entries, %u callchain nodes, %zu child index slots\n", i,
			 rep->hists[i].nr_entries, rep->hists[i].nr_nodes,
			 rep->hists[i].child_of.mask + 1);
	}
	pr_debug("machine: %u threads, %u dsos, %u frames\n", rep->session->machine.nr_threads,
		 rep->session->machine.nr_dsos, rep->session->machine.nr_frames);
	return ret;
}
