/* SPDX-License-Identifier: MIT */
/* perf script's tool: each record in time order, selected, resolved and printed. */
#define PR_PREFIX "script"
#include "ui/script-run.h"

#include "core/evlist.h"
#include "core/evsel.h"
#include "data/reader.h"
#include "data/sample.h"
#include "lib/debug.h"
#include "lib/handoff.h"
#include "lib/hashmap.h"
#include "lib/strvec.h"
#include "lib/xalloc.h"
#include "session/machine.h"
#include "session/resolve.h"
#include "session/sample-filter.h"
#include "session/session.h"
#include "symbol/srcline.h"
#include "trace/tep.h"
#include "ui/dump.h"

#include <capstone/capstone.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void script_select_init(struct script_select *sel)
{
	memset(sel, 0, sizeof(*sel));
	u64map_init(&sel->pids);
	u64map_init(&sel->tids);
}

void script_select_release(struct script_select *sel)
{
	free(sel->time_spans);
	cpu_bitmap_release(&sel->cpus);
	strvec_clear(&sel->comms);
	strvec_clear(&sel->syms);
	strvec_clear(&sel->dsos);
	strvec_clear(&sel->stop_bt);
	u64map_release(&sel->pids);
	u64map_release(&sel->tids);
}

struct script_run {
	struct tool tool; /* first: callbacks find the run from it */
	const struct script_view *view;
	const struct script_select *sel;
	struct session *session;
	struct data_reader *reader; /* borrowed from the session */
	struct evlist *evlist;
	struct machine *machine;
	bool dumping;
	bool want_srcline;	 /* some event prints srcline */
	bool want_insn;		 /* some event prints insn/insnlen */
	struct u64map sources;	 /* interned path -> struct source_file * (srccode) */
	struct u64map srccode_states; /* thread -> struct srccode_state * */
	struct u64map dso_fds;	 /* dso -> fd + 1 (0: not opened yet), for insn bytes */
	csh capstone;
	bool capstone_open;
	struct script_printer printer;
	struct handoff *handoff;	/* samples printed on a second thread, or NULL */
	struct print_batch *batch;	/* the one being filled */
	int out_closed;			/* the printer thread saw a write error (atomic) */
	struct tep_handle *tep;
	bool tep_tried;
	struct trace_tep_resolver tep_resolver; /* kernel symbols for %ps/%pS */
	struct resolver res;	/* addresses and callchains, shared with report */
	struct resolved_chain chain; /* callchain scratch */
	struct script_frame *frames; /* the chain as printed */
	size_t alloc_frames;
	struct script_frame *br;     /* branch stack scratch: from, to pairs */
	size_t alloc_br;
	/* --per-event-dump: one printer per event (by evsel->idx) */
	struct script_printer *ev_printers;
	u64 *ev_samples;
	struct script_event_dump *ev_dumps;
	int nr_ev_printers;
	u64 aux_lost, aux_partial, aux_collision;
	bool gate_closed;	/* --switch-on/--switch-off: samples are being dropped */
};

static bool is_kernel_mode(int cpumode)
{
	return cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_KERNEL ||
	       cpumode == PERF_RECORD_MISC_HYPERVISOR;
}

/* a source file's text split in lines, cached by (interned) path */
struct source_file {
	char *text;	/* owned, NULL when unreadable */
	size_t *starts; /* line n (1-based) starts at text + starts[n - 1] */
	size_t nr_lines;
};

static struct source_file *source_file_get(struct script_run *r, const char *path)
{
	struct source_file *sf = u64map_find(&r->sources, (uint64_t)(uintptr_t)path);
	struct strbuf sb = STRBUF_INIT;
	size_t alloc = 0;

	if (sf)
		return sf;
	sf = xzalloc(sizeof(*sf));
	if (strbuf_read_file(&sb, path, 8192) >= 0) {
		sf->text = strbuf_detach(&sb, NULL);
		for (char *p = sf->text; *p;) {
			char *nl = strchr(p, '\n');

			sf->starts = xgrow(sf->starts, sf->nr_lines + 1, &alloc, sizeof(*sf->starts));
			sf->starts[sf->nr_lines++] = (size_t)(p - sf->text);
			if (!nl)
				break;
			p = nl + 1;
		}
	}
	strbuf_release(&sb);
	u64map_set(&r->sources, (uint64_t)(uintptr_t)path, sf);
	return sf;
}

static int source_free_one(uint64_t key, void *val, void *arg)
{
	struct source_file *sf = val;

	free(sf->text);
	free(sf->starts);
	free(sf);
	return 0;
}

struct srccode_state {
	const char *file; /* interned */
	unsigned int line;
};

/*
 * srccode - perf's srccode field: the source line of @ip, printed only when
 * it differs from the last one printed for this thread. Returns the length
 * of the text (0: nothing to print) with *@text and *@line set.
 */
static int srccode(struct script_run *r, struct thread *thread, int cpumode, u64 ip, const char **text,
		   unsigned int *line)
{
	const struct resolved_frame *rf = resolver_frame(&r->res, thread, cpumode, ip);
	struct dso *dso = resolved_frame_dso(rf);
	struct srccode_state *st;
	struct source_file *src;
	struct srcline sl;
	const char *start, *end;

	if (!dso || dso->is_kernel ||
	    resolver_srcline_find(&r->res, dso, rf->addr, false, &sl) || !sl.file || !sl.line)
		return 0;
	st = u64map_find(&r->srccode_states, (uint64_t)(uintptr_t)thread);
	if (st && st->file == sl.file && st->line == sl.line)
		return 0;
	src = source_file_get(r, sl.file);
	if (!src->text || sl.line > src->nr_lines)
		return 0;
	start = src->text + src->starts[sl.line - 1];
	end = strchr(start, '\n');
	if (!end)
		end = start + strlen(start);
	if (!st) {
		st = xzalloc(sizeof(*st));
		u64map_set(&r->srccode_states, (uint64_t)(uintptr_t)thread, st);
	}
	st->file = sl.file;
	st->line = sl.line;
	*text = start;
	*line = sl.line;
	return (int)(end - start);
}

static int free_one(uint64_t key, void *val, void *arg)
{
	free(val);
	return 0;
}

/*
 * fetch_insn - the bytes of the instruction at @ip (user space, read from
 * the DSO file as perf does; capstone gives its length). Returns the length
 * (0 when unknown) and fills @buf.
 */
static int fetch_insn(struct script_run *r, struct thread *thread, int cpumode, u64 ip, u8 *buf)
{
	const struct maps *maps;
	struct map *map;
	cs_insn *insn = NULL;
	uintptr_t fdp;
	ssize_t n;
	int len = 0;

	if (is_kernel_mode(cpumode) || !thread->maps)
		return 0;
	maps = thread->maps;
	map = maps_find(maps, ip);
	if (!map || !map->dso || map->dso->long_name[0] != '/')
		return 0;
	fdp = (uintptr_t)u64map_find(&r->dso_fds, (uint64_t)(uintptr_t)map->dso);
	if (!fdp) {
		int fd = open(map->dso->long_name, O_RDONLY | O_CLOEXEC);

		fdp = fd < 0 ? (uintptr_t)-1 : (uintptr_t)fd + 1;
		u64map_set(&r->dso_fds, (uint64_t)(uintptr_t)map->dso, (void *)fdp);
	}
	if (fdp == (uintptr_t)-1)
		return 0;
	n = pread((int)(fdp - 1), buf, 16, (off_t)(ip - map->start + map->pgoff));
	if (n <= 0)
		return 0;
	if (!r->capstone_open) {
		if (cs_open(CS_ARCH_X86, CS_MODE_64, &r->capstone) != CS_ERR_OK)
			return 0;
		r->capstone_open = true;
	}
	if (cs_disasm(r->capstone, buf, (size_t)n, ip, 1, &insn) == 1)
		len = insn[0].size;
	if (insn)
		cs_free(insn, 1);
	return len;
}

/*
 * script_frame_of - what the printer shows of @rf: a callchain entry's
 * address is perf's (map-relative in user dsos, raw for kernel and JIT);
 * the sample line prints the raw ip itself
 */
static void script_frame_of(struct script_frame *sf, const struct resolved_frame *rf)
{
	const struct dso *dso = resolved_frame_dso(rf);
	const struct symbol *sym = resolved_frame_sym(rf);

	sf->ip = resolved_frame_map_ip(rf);
	sf->sym = sym ? sym->name : NULL;
	sf->symoff = rf->symoff;
	sf->dso = dso ? dso->long_name : NULL;
	sf->srcline = rf->srcline;
	sf->inlined = rf->frame->inlined;
}

/* ---- filters ---- */

/* ---- tracepoints ---- */

/* %ps/%pS in print formats: the kernel function at @addr, from the kernel maps */
static const char *kernel_func_at(void *priv, u64 addr, u64 *start)
{
	struct script_run *r = priv;
	struct thread *idle = machine_findnew_thread(r->machine, 0, 0);
	const struct frame *fr = machine_resolve_ip(r->machine, idle, PERF_RECORD_MISC_KERNEL, addr);

	if (!fr || !fr->sym || !fr->dso || !fr->dso->is_kernel)
		return NULL;
	*start = fr->sym->start;
	return fr->sym->name;
}

static struct tep_event *tp_format(struct script_run *r, struct evsel *evsel)
{
	const struct perf_header *h;

	if (evsel->attr.type != PERF_TYPE_TRACEPOINT)
		return NULL;
	if (!r->tep && !r->tep_tried) {
		h = data_reader_header(r->reader);
		if (h->tracing_data) {
			r->tep_tried = true;
			if (trace_tep_from_data(h->tracing_data, h->tracing_data_size, &r->tep)) {
				pr_warning("Warning: the tracing data in %s is corrupt: tracepoint "
					   "payloads are not shown\n",
					   data_reader_path(r->reader));
			} else {
				r->tep_resolver.fn = kernel_func_at;
				r->tep_resolver.priv = r;
				trace_tep_set_resolver(r->tep, &r->tep_resolver);
			}
		}
	}
	return trace_tep_find_event(r->tep, (int)evsel->attr.config);
}

/* ---- per-record handling ---- */

static struct script_run *run_of(struct tool *tool)
{
	return (struct script_run *)((char *)tool - offsetof(struct script_run, tool));
}

static bool cpu_filtered(struct script_run *r, const struct perf_sample *sample)
{
	return !cpu_bitmap_has(&r->sel->cpus, sample->cpu);
}

/*
 * --switch-on/--switch-off as a gate: with --switch-on it starts closed and
 * only the on-event opens it; the off-event closes it again. A gate closed
 * by the off-event with no on-event to reopen it lets everything through
 * (so --switch-off alone hides just its first sample, as in perf). The
 * switching samples themselves are hidden unless --show-on-off-events.
 */
static bool gate_drops(struct script_run *r, const struct evsel *evsel)
{
	bool hide_switch = !r->view->show_on_off_events;

	if (r->gate_closed) {
		if (!r->sel->switch_on)
			return false;
		if (evsel != r->sel->switch_on)
			return true;
		r->gate_closed = false;
		return hide_switch;
	}
	if (r->sel->switch_off && evsel == r->sel->switch_off) {
		r->gate_closed = true;
		return hide_switch;
	}
	return false;
}

/* --time: any of its spans */
static bool time_selected(const struct script_run *r, u64 t)
{
	return time_spans_include(r->sel->time_spans, r->sel->nr_time_spans, t);
}

/* --comm, --pid, --tid */
static bool thread_selected(struct script_run *r, const struct thread *thread)
{
	const struct script_select *sel = r->sel;

	if (sel->has_comms && !name_list_has(&sel->comms, thread->comm))
		return false;
	if (sel->has_pids && !u64map_find(&sel->pids, (u64)(s64)thread->pid))
		return false;
	return !sel->has_tids || u64map_find(&sel->tids, (u64)(s64)thread->tid);
}

/*
 * collect_callchain - the sample's chain as printed, in r->frames: the
 * resolver's (an invalid context marker empties the recorded part; frames
 * unwound from a dwarf stack copy follow), cut after the first --stop-bt
 * symbol. Returns the number of frames.
 */
static int collect_callchain(struct script_run *r, struct thread *thread, const struct evsel *evsel,
			     const struct perf_sample *sample)
{
	static const struct chain_opts copts = { .bad_context_empties = true, .unwind = true };
	u32 n = resolve_sample_callchain(&r->res, thread, sample, evsel->attr.sample_type, &copts,
					 &r->chain);

	if (r->alloc_frames < n)
		r->frames = xgrow(r->frames, n, &r->alloc_frames, sizeof(*r->frames));
	for (u32 k = 0; k < n; k++) {
		script_frame_of(&r->frames[k], &r->chain.frames[k]);
		if (r->sel->stop_bt.nr && name_list_has(&r->sel->stop_bt, r->frames[k].sym))
			return (int)k + 1;
	}
	return (int)n;
}

/* the branch stack's from and to addresses, resolved, into r->br (froms, then tos) */
static void collect_branches(struct script_run *r, struct thread *thread, const struct perf_sample *sample,
			     struct script_sample *s)
{
	u64 nr = sample->branch_stack->nr;
	const struct branch_entry *e = script_branch_entries(sample);

	if (r->alloc_br < 2 * nr) {
		r->alloc_br = 2 * nr;
		r->br = xreallocarray(r->br, r->alloc_br, sizeof(*r->br));
	}
	for (u64 i = 0; i < nr; i++) {
		script_frame_of(&r->br[i], resolver_frame_fb(&r->res, thread, sample->cpumode, e[i].from));
		script_frame_of(&r->br[nr + i], resolver_frame_fb(&r->res, thread, sample->cpumode, e[i].to));
	}
	s->br_from = r->br;
	s->br_to = r->br + nr;
	s->nr_br = (int)nr;
}

/* ---- printing on a second thread ---- */

#define BATCH_SAMPLES 256u	/* samples per hand-over */
#define BATCH_FRAMES 8192u	/* ... or callchain frames, whichever fills first */
#define MAX_BATCHES 4		/* in flight: bounds the memory ahead of the printer */

/*
 * struct print_batch - samples ready to print with copies of what they
 * point to: the parsed sample (its pointers into the record are not
 * followed: see can_print_ahead()) and the callchain frames (an offset
 * into @frames until printed)
 */
struct print_batch {
	struct script_sample s[BATCH_SAMPLES];
	struct perf_sample sample[BATCH_SAMPLES];
	u32 nr;
	struct script_frame *frames;
	size_t nr_frames, alloc_frames;
};

/* the fields printed from the sample's scalars and the resolved frames only */
#define AHEAD_FIELDS                                                                            \
	(SFB(COMM) | SFB(TID) | SFB(PID) | SFB(TIME) | SFB(CPU) | SFB(EVNAME) | SFB(IP) |      \
	 SFB(SYM) | SFB(DSO) | SFB(ADDR) | SFB(SYMOFF) | SFB(SRCLINE) | SFB(PERIOD) |             \
	 SFB(DATA_SRC) | SFB(WEIGHT) | SFB(PHYS_ADDR) | SFB(MISC) | SFB(SRCCODE) | SFB(TOD) |    \
	 SFB(DATA_PAGE_SIZE) | SFB(CODE_PAGE_SIZE) | SFB(INS_LAT))

/*
 * can_print_ahead - whether samples can be printed on a second thread:
 * only samples are printed (no side-band records, raw dump or per-event
 * files, whose order against them would need the same queue), and no
 * field reads the record itself (payloads, registers, branch stacks,
 * instruction bytes), which is gone once the reader moves on
 */
static bool can_print_ahead(const struct script_run *r)
{
	const struct script_view *v = r->view;
	struct evsel *evsel;

	if (r->dumping || r->ev_printers || v->show_task_events || v->show_mmap_events ||
	    v->show_switch_events || v->show_lost_events || v->show_round_events ||
	    v->show_namespace_events || v->show_cgroup_events || v->show_bpf_events ||
	    v->show_text_poke_events)
		return false;
	evlist_for_each_entry(r->evlist, evsel) {
		u64 f = script_fields_of(v->cfg, evsel);

		/* bpf-output (a software default) has nothing to show without raw data */
		if (!(evsel->attr.sample_type & PERF_SAMPLE_RAW))
			f &= ~SFB(BPF_OUTPUT);
		if (evsel->attr.type == PERF_TYPE_TRACEPOINT || (f & ~AHEAD_FIELDS))
			return false;
	}
	return true;
}

static void *print_batch_new(void *arg)
{
	return xzalloc(sizeof(struct print_batch));
}

static void print_batch_free(void *batch, void *arg)
{
	struct print_batch *b = batch;

	free(b->frames);
	free(b);
}

/* print_batch_print - on the printer thread: the samples in order, until output fails */
static void print_batch_print(void *batch, void *arg)
{
	struct script_run *r = arg;
	struct print_batch *b = batch;

	for (u32 i = 0; i < b->nr && !r->printer.write_error; i++) {
		struct script_sample *s = &b->s[i];

		s->frames = s->nr_frames ? b->frames + (uintptr_t)s->frames : NULL;
		script_print_sample(&r->printer, s);
	}
	if (r->printer.write_error)
		__atomic_store_n(&r->out_closed, 1, __ATOMIC_RELAXED);
	b->nr = 0;
	b->nr_frames = 0;
}

static const struct handoff_ops print_ops = {
	.batch_new = print_batch_new,
	.consume = print_batch_print,
	.batch_free = print_batch_free,
};

/* queue_sample - @s (copied) for the printer thread; -EPIPE once output failed */
static int queue_sample(struct script_run *r, const struct script_sample *s)
{
	struct print_batch *b = r->batch;
	struct script_sample *slot = &b->s[b->nr];
	size_t n = s->nr_frames > 0 ? (size_t)s->nr_frames : 0;

	if (b->nr_frames + n > b->alloc_frames) {
		size_t want = b->nr_frames + n;

		b->alloc_frames = want > BATCH_FRAMES ? want : BATCH_FRAMES;
		b->frames = xreallocarray(b->frames, b->alloc_frames, sizeof(*b->frames));
	}
	*slot = *s;
	b->sample[b->nr] = *s->sample;
	slot->sample = &b->sample[b->nr];
	slot->frames = NULL;
	if (n) {
		memcpy(b->frames + b->nr_frames, s->frames, n * sizeof(*s->frames));
		slot->frames = (const struct script_frame *)(uintptr_t)b->nr_frames;
		b->nr_frames += n;
	}
	b->nr++;
	if (b->nr == BATCH_SAMPLES || b->nr_frames >= BATCH_FRAMES)
		r->batch = handoff_submit(r->handoff);
	return __atomic_load_n(&r->out_closed, __ATOMIC_RELAXED) ? -EPIPE : 0;
}

/*
 * on_sample - a sample in time order: drop it when a filter says so, else
 * resolve what its event's fields print and hand it to the printer (the
 * event's own with --per-event-dump).
 */
static int on_sample(struct tool *tool, struct session *session, const union perf_event *ev,
		     const struct perf_sample *sample, struct evsel *evsel)
{
	struct script_run *r = run_of(tool);
	const struct script_select *sel = r->sel;
	const struct script_config *cfg = r->view->cfg;
	struct script_sample s = { .sample = sample, .evsel = evsel };
	struct thread *thread;
	u64 fields = script_fields_of(cfg, evsel);
	u8 insn[16];

	(void)session;
	(void)ev;
	if (gate_drops(r, evsel) || !time_selected(r, sample->time) || cpu_filtered(r, sample))
		return 0;
	thread = machine_findnew_thread(r->machine, (int)sample->pid, (int)sample->tid);
	if (!thread_selected(r, thread))
		return 0;
	s.comm = thread->comm;
	if ((fields & (SFB(IP) | SFB(SYM) | SFB(DSO))) || sel->has_syms || sel->has_dsos) {
		script_frame_of(&s.ip, resolver_frame(&r->res, thread, sample->cpumode, sample->ip));
		if ((sel->has_syms && !name_list_has(&sel->syms, s.ip.sym)) ||
		    (sel->has_dsos && !dso_list_has(&sel->dsos, s.ip.dso)))
			return 0;
		s.ip.ip = sample->ip;
	}
	if ((fields & SFB(ADDR)) && (evsel->attr.sample_type & PERF_SAMPLE_ADDR))
		script_frame_of(&s.addr, resolver_frame_fb(&r->res, thread, sample->cpumode, sample->addr));
	if (script_wants_callchain(cfg, evsel) && sample->callchain) {
		s.nr_frames = collect_callchain(r, thread, evsel, sample);
		s.frames = r->frames;
		s.has_callchain = true;
	}
	if ((fields & (SFB(BRSTACK) | SFB(BRSTACKSYM) | SFB(BRSTACKOFF))) && sample->branch_stack)
		collect_branches(r, thread, sample, &s);
	if (evsel->attr.type == PERF_TYPE_TRACEPOINT)
		s.tp = tp_format(r, evsel);
	if (fields & SFB(SRCCODE))
		s.srccode_len = srccode(r, thread, sample->cpumode, sample->ip, &s.srccode,
					&s.srccode_line);
	if (fields & (SFB(INSN) | SFB(INSNLEN))) {
		s.insn_len = fetch_insn(r, thread, sample->cpumode, sample->ip, insn);
		s.insn = insn;
	}
	if (r->ev_printers && evsel->idx >= 0 && evsel->idx < r->nr_ev_printers) {
		script_print_sample(&r->ev_printers[evsel->idx], &s);
		r->ev_samples[evsel->idx]++;
		return 0;
	}
	if (r->handoff)
		return queue_sample(r, &s);
	script_print_sample(&r->printer, &s);
	return r->printer.write_error ? -EPIPE : 0;
}

/*
 * parse_trailer - the sample_id trailer of a side-band record, as perf
 * reads it (data/sample.c, tolerant of short synthesized records) in the
 * first event's layout (perf requires every event to share it)
 */
static void parse_trailer(struct script_run *r, const union perf_event *ev, struct perf_sample *out)
{
	struct evsel *first = evlist_first(r->evlist);

	memset(out, 0, sizeof(*out));
	out->misc = ev->header.misc;
	out->cpumode = ev->header.misc & PERF_RECORD_MISC_CPUMODE_MASK;
	if (first)
		perf_sample_parse_id(&first->attr, ev, out);
}

/* a side-band record line; @thread is whose comm is shown */
static void print_side(struct script_run *r, const union perf_event *ev, struct thread *thread)
{
	struct perf_sample sample;
	struct evsel *evsel = NULL;
	struct evsel *first = evlist_first(r->evlist);

	memset(&sample, 0, sizeof(sample));
	if (first && first->attr.sample_id_all) {
		parse_trailer(r, ev, &sample);
		if (sample.id)
			evsel = data_reader_evsel_for_id(r->reader, sample.id);
	} else if (thread) {
		/* no trailer: perf shows cpu 0, time 0 and the record's own ids */
		sample.pid = (u32)thread->pid;
		sample.tid = (u32)thread->tid;
	}
	if (!evsel)
		evsel = first;
	if (cpu_filtered(r, &sample))
		return;
	script_print_record(&r->printer, evsel, thread ? thread->comm : NULL, ev, &sample);
}

static int on_side_record(struct tool *tool, struct session *session, const union perf_event *ev,
			  const struct perf_sample *sample)
{
	struct script_run *r = run_of(tool);
	const struct script_view *o = r->view;
	struct machine *m = r->machine;
	bool show = false;
	int pid = -1, tid = -1;

	switch (ev->header.type) {
	case PERF_RECORD_COMM:
		show = o->show_task_events;
		pid = (int)ev->comm.pid;
		tid = (int)ev->comm.tid;
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		show = o->show_task_events;
		pid = (int)ev->fork.pid;
		tid = (int)ev->fork.tid;
		break;
	case PERF_RECORD_MMAP:
		show = o->show_mmap_events;
		pid = (int)ev->mmap.pid;
		tid = (int)ev->mmap.tid;
		break;
	case PERF_RECORD_MMAP2:
		show = o->show_mmap_events;
		pid = (int)ev->mmap2.pid;
		tid = (int)ev->mmap2.tid;
		break;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		show = o->show_switch_events;
		break;
	case PERF_RECORD_LOST:
		show = o->show_lost_events;
		break;
	case PERF_RECORD_NAMESPACES:
		show = o->show_namespace_events;
		break;
	case PERF_RECORD_TEXT_POKE:
		show = o->show_text_poke_events;
		break;
	case PERF_RECORD_AUX:
		/* counted for perf's end-of-run AUX warnings */
		if (ev->header.size >= 32) {
			u64 flags;

			memcpy(&flags, (const u8 *)ev + 24, 8);
			if (flags & PERF_AUX_FLAG_TRUNCATED)
				r->aux_lost++;
			if (flags & PERF_AUX_FLAG_PARTIAL)
				r->aux_partial++;
			if (flags & PERF_AUX_FLAG_COLLISION)
				r->aux_collision++;
		}
		break;
	case PERF_RECORD_KSYMBOL:
	case PERF_RECORD_BPF_EVENT:
		show = o->show_bpf_events;
		break;
	case PERF_RECORD_CGROUP:
		show = o->show_cgroup_events;
		break;
	case PERF_RECORD_FINISHED_ROUND:
		if (o->show_round_events) {
			/* perf prints the bare record name (in file order: ordering is off) */
			strbuf_addstr(&r->printer.buf, "PERF_RECORD_FINISHED_ROUND\n");
		}
		return 0;
	default:
		break;
	}
	if (!show)
		return 0;
	if (tid == -1) {
		struct perf_sample ts;

		parse_trailer(r, ev, &ts);
		pid = (int)ts.pid;
		tid = (int)ts.tid;
	}
	print_side(r, ev, machine_findnew_thread(m, pid, tid));
	return r->printer.write_error ? -EPIPE : 0;
}

/* ---- setup and main loop ---- */

/* -D: after each record's dump, what perf script prints for it (the session updated the machine) */
static void dump_after_record(void *arg, struct session *session, const union perf_event *ev)
{
	struct script_run *r = arg;
	struct perf_sample sample;
	struct evsel *evsel = NULL;
	int bad = data_reader_parse_sample(r->reader, ev, &sample, &evsel);

	if (ev->header.type == PERF_RECORD_SAMPLE) {
		if (!bad && evsel)
			on_sample(&r->tool, session, ev, &sample, evsel);
	} else {
		on_side_record(&r->tool, session, ev, bad ? NULL : &sample);
	}
	script_printer_flush(&r->printer);
}

/* --per-event-dump: a printer per event on the file cmd/script opened, written like stdout */
static void start_event_dumps(struct script_run *r, struct script_event_dump *dumps)
{
	int n = r->evlist->nr_entries;

	r->ev_dumps = dumps;
	r->ev_printers = xcalloc(n, sizeof(*r->ev_printers));
	r->ev_samples = xcalloc(n, sizeof(*r->ev_samples));
	r->nr_ev_printers = n;
	for (int i = 0; i < n; i++) {
		if (dumps[i].fd < 0)
			continue;
		script_printer_init(&r->ev_printers[i], r->view->cfg, r->evlist, dumps[i].fd);
		r->ev_printers[i].has_clock_data = r->printer.has_clock_data;
		r->ev_printers[i].clock_wall_ns = r->printer.clock_wall_ns;
		r->ev_printers[i].clock_ref_ns = r->printer.clock_ref_ns;
	}
}

/* the files written, with perf's summary line each */
static void close_event_dumps(struct script_run *r)
{
	for (int i = 0; i < r->nr_ev_printers; i++) {
		struct script_printer *p = &r->ev_printers[i];
		u64 bytes;

		if (r->ev_dumps[i].fd < 0)
			continue;
		/*
		 * perf reports the bytes its stdio stream had written when it
		 * printed this line: whole 4 KiB buffers, the tail still pending.
		 */
		bytes = p->written + p->buf.len;
		script_printer_release(p);
		close(p->fd);
		r->ev_dumps[i].fd = -1;
		strbuf_addf(&r->printer.buf, "[ perf script: Wrote %.3f MB %s (%" PRIu64 " samples) ]\n",
			    (double)(bytes / 4096 * 4096) / (1024.0 * 1024.0), r->ev_dumps[i].path,
			    r->ev_samples[i]);
	}
}

/* perf's end-of-run warnings about lost records and dropped samples */
static void warn_about_losses(struct script_run *r)
{
	const struct session_stats *st = &r->session->stats;
	u64 total = 0, samples;
	double rate;

	for (int i = 0; i < PERF_RECORD_HEADER_MAX; i++)
		total += st->nr_events[i];
	if (!r->view->show_lost_events && st->nr_events[PERF_RECORD_LOST])
		fprintf(stderr, "Warning:\nProcessed %" PRIu64 " events and lost %" PRIu64
				" chunks!\n\nCheck IO/CPU overload!\n\n",
			total, st->nr_events[PERF_RECORD_LOST]);
	samples = st->nr_events[PERF_RECORD_SAMPLE] + st->total_lost_samples;
	rate = samples ? (double)st->total_lost_samples / (double)samples : 0;
	if (rate > 0.05)
		fprintf(stderr, "Warning:\nProcessed %" PRIu64 " samples and lost %3.2f%%!\n\n",
			samples, rate * 100.0);
	if (r->aux_lost)
		fprintf(stderr, "Warning:\nAUX data lost %" PRIu64 " times out of %" PRIu64 "!\n\n",
			r->aux_lost, st->nr_events[PERF_RECORD_AUX]);
	if (r->aux_partial)
		fprintf(stderr, "Warning:\nAUX data had gaps in it %" PRIu64 " times out of %" PRIu64
				"!\n\nAre you running a KVM guest in the background?\n\n",
			r->aux_partial, st->nr_events[PERF_RECORD_AUX]);
	if (r->aux_collision)
		fprintf(stderr, "Warning:\nAUX data detected collision  %" PRIu64 " times out of %" PRIu64
				"!\n\n",
			r->aux_collision, st->nr_events[PERF_RECORD_AUX]);
	if (st->nr_bad_samples)
		fprintf(stderr, "Warning:\n%" PRIu64 " unprocessable samples recorded.\n"
				"Do you have a KVM guest running and not using 'perf kvm'?\n",
			st->nr_bad_samples);
	if (st->nr_unordered)
		fprintf(stderr, "Warning:\n%" PRIu64 " out of order events recorded.\n",
			st->nr_unordered);
}

static int fd_close_one(uint64_t key, void *val, void *arg)
{
	uintptr_t fdp = (uintptr_t)val;

	if (fdp != (uintptr_t)-1)
		close((int)(fdp - 1));
	return 0;
}

struct script_run *script_run_new(struct session *session, const struct script_view *view,
				  const struct script_select *sel, struct script_event_dump *dumps)
{
	struct script_run *r = xzalloc(sizeof(*r));
	const struct perf_header *h = data_reader_header(session->reader);
	const struct script_config *cfg = view->cfg;

	r->view = view;
	r->sel = sel;
	r->session = session;
	r->reader = session->reader;
	r->evlist = session->evlist;
	r->machine = &session->machine;
	r->dumping = view->dump_raw;
	/* perf registers the idle task as "swapper" before reading any record */
	thread_set_comm(r->machine, machine_findnew_thread(r->machine, 0, 0), "swapper");
	resolver_init(&r->res, r->machine, NULL);
	u64map_init(&r->sources);
	u64map_init(&r->srccode_states);
	u64map_init(&r->dso_fds);
	for (int j = 0; j < SOT_MAX; j++) {
		if (cfg->out[j].fields & SFB(SRCLINE))
			r->want_srcline = true;
		if (cfg->out[j].fields & (SFB(INSN) | SFB(INSNLEN)))
			r->want_insn = true;
	}
	r->res.opts.srcline = r->want_srcline;
	r->res.opts.full_source_path = cfg->full_source_path;
	/* --switch-on: nothing is shown before the on-event */
	r->gate_closed = sel->switch_on != NULL;
	script_printer_init(&r->printer, cfg, r->evlist, 1);
	if (perf_header_has_feat(h, HEADER_CLOCK_DATA)) {
		r->printer.has_clock_data = true;
		r->printer.clock_wall_ns = h->clock_data.wall_ns;
		r->printer.clock_ref_ns = h->clock_data.clockid_ns;
	}
	if (dumps)
		start_event_dumps(r, dumps);
	r->tool.sample = on_sample;
	r->tool.other = on_side_record;
	/* perf shows rounds in file order: --show-round-events turns ordering off */
	r->tool.ordered = !view->show_round_events;
	return r;
}

int script_run_process(struct script_run *r, struct data_error *err)
{
	int ret;

	if (r->dumping) {
		/* -D is a tool on the same session: one model for the dump and the script lines */
		struct dump_hooks hooks = {
			.after_record = dump_after_record,
			.arg = r,
			.no_stats = true,
			.handles_maps = true,
		};

		fflush(stdout);
		ret = dump_raw_trace(stdout, r->session, !r->view->dump_unsorted, &hooks, err);
		fflush(stdout);
		return ret < 0 ? ret : 0;
	}
	if (can_print_ahead(r)) {
		r->handoff = handoff_new(&print_ops, r, MAX_BATCHES);
		if (r->handoff)
			r->batch = handoff_batch(r->handoff);
	}
	ret = session_process(r->session, &r->tool, err);
	if (r->handoff) {
		handoff_finish(r->handoff, r->batch->nr != 0);
		r->handoff = NULL;
		/* what the sample that met the closed output returns when printing here */
		if (r->printer.write_error && ret >= 0)
			ret = -EPIPE;
	}
	if (ret < 0 && ret != -EPIPE)
		script_printer_flush(&r->printer);
	return ret < 0 ? ret : 0;
}

void script_run_finish(struct script_run *r, int err)
{
	if (!r->dumping && r->ev_printers)
		close_event_dumps(r);
	script_printer_release(&r->printer);
	if (!r->dumping && err >= 0)
		warn_about_losses(r);
}

void script_run_free(struct script_run *r)
{
	if (!r)
		return;
	for (int i = 0; i < r->nr_ev_printers; i++) {
		if (r->ev_dumps[i].fd >= 0)
			close(r->ev_dumps[i].fd);
		free(r->ev_dumps[i].path);
	}
	free(r->ev_dumps);
	free(r->ev_printers);
	free(r->ev_samples);
	u64map_for_each(&r->sources, source_free_one, NULL);
	u64map_release(&r->sources);
	u64map_for_each(&r->srccode_states, free_one, NULL);
	u64map_release(&r->srccode_states);
	u64map_for_each(&r->dso_fds, fd_close_one, NULL);
	u64map_release(&r->dso_fds);
	if (r->capstone_open)
		cs_close(&r->capstone);
	resolver_release(&r->res);
	resolved_chain_release(&r->chain);
	free(r->frames);
	free(r->br);
	trace_tep_free(r->tep);
	free(r);
}
