/* SPDX-License-Identifier: MIT */
/* perf script -s x.py: the session's samples handed to a Python script through perf's API. */
#define PR_PREFIX "script"
#include "ui/script-python.h"

#include "ui/python-lib.h"

#include "core/evlist.h"
#include "core/evsel.h"
#include "data/reader.h"
#include "data/sample.h"
#include "lib/debug.h"
#include "lib/hashmap.h"
#include "lib/strbuf.h"
#include "lib/strvec.h"
#include "lib/xalloc.h"
#include "session/machine.h"
#include "session/resolve.h"
#include "session/sample-filter.h"
#include "session/session.h"
#include "symbol/srcline.h"
#include "symbol/symtab.h"
#include "trace/tep.h"
#include "ui/header.h"
#include "ui/script.h"

#include <capstone/capstone.h>
#include <traceevent/event-parse.h>

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the event being handled, behind the context capsule the handlers get */
struct py_context {
	const struct perf_sample *sample; /* NULL between events */
	struct evsel *evsel;
	struct thread *thread;
	struct tep_event *tp;
};

/* one tracepoint event's handler, looked up on its first sample */
struct py_tp {
	struct tep_event *tp;
	char name[128];		/* "subsys__event" */
	PyObject *handler;	/* borrowed from the script's globals, or NULL */
	bool with_sample_dict;	/* the handler takes perf_sample_dict last */
	bool defined;		/* flag/symbolic fields given to Core */
};

struct pyrun {
	struct tool tool; /* first: callbacks find the run from it */
	struct session *session;
	struct data_reader *reader;
	struct machine *machine;
	struct resolver res;
	struct resolved_chain chain;
	struct tep_handle *tep;
	bool tep_tried;
	PyObject *globals;	 /* the script's (borrowed from __main__) */
	PyObject *process_event, *trace_unhandled;
	bool unhandled_with_sample_dict;
	struct u64map tps;	 /* tracepoint config -> struct py_tp * */
	struct u64map comm_times; /* tid -> struct comm_time * of its last COMM record */
	PyObject *context_switch; /* the script's context_switch(), or NULL */
	int context_switch_args;  /* its positional parameters, -1 with *args */
	/* filters */
	struct strvec comms, syms, dsos;
	struct u64map pids, tids;
	bool has_comms, has_pids, has_tids, has_syms, has_dsos;
	struct cpu_bitmap cpus;
	struct time_span *time_spans;
	int nr_time_spans;
};

/* when a thread took its comm, for sonde_context.comm_info() */
struct comm_time {
	u64 time;
	bool exec;
};

static struct py_context cur_ctx;
static struct pyrun *cur_run;
static PyObject *context_module; /* perf_trace_context */

/* bid_hex - @dso's build-id as hex into @buf: the recorded one, else the file's ('' when none) */
static const char *bid_hex(const struct dso *dso, char buf[2 * BUILD_ID_SIZE + 1])
{
	const u8 *id = dso ? dso->build_id : NULL;
	size_t n = dso ? dso->build_id_size : 0;

	if (dso && !n && dso->ss) {
		id = dso->ss->build_id;
		n = dso->ss->build_id_size;
	}
	buf[0] = '\0';
	for (size_t k = 0; k < n && k < BUILD_ID_SIZE; k++)
		snprintf(buf + 2 * k, 3, "%02x", id[k]);
	return buf;
}

/* ---- small conversions (each steals nothing, returns a new reference) ---- */

static PyObject *py_u64(u64 v)
{
	return py.PyLong_FromUnsignedLongLong(v);
}

static PyObject *py_s64(s64 v)
{
	return py.PyLong_FromLongLong(v);
}

static PyObject *py_str(const char *s, size_t len)
{
	PyObject *o = py.PyUnicode_DecodeUTF8(s, (Py_ssize_t)len, "replace");

	if (!o) {
		py.PyErr_Clear();
		o = py.PyUnicode_FromString("");
	}
	return o;
}

static PyObject *py_cstr(const char *s)
{
	return py_str(s ? s : "", s ? strlen(s) : 0);
}

/* dict_put - @d[@key] = @val, dropping our reference to @val */
static void dict_put(PyObject *d, const char *key, PyObject *val)
{
	if (!val) {
		py.PyErr_Clear();
		return;
	}
	py.PyDict_SetItemString(d, key, val);
	py.Py_DecRef(val);
}

/* ---- perf_trace_context ---- */

static struct py_context *context_of(PyObject *args)
{
	PyObject *cap;
	struct py_context *c;

	if (!args || py.PyTuple_Size(args) < 1)
		return NULL;
	cap = py.PyTuple_GetItem(args, 0);
	c = cap ? py.PyCapsule_GetPointer(cap, NULL) : NULL;
	if (!c)
		py.PyErr_Clear();
	return c && c->sample ? c : NULL;
}

/* common_field - numeric common field @name of the current tracepoint sample, 0 without */
static PyObject *common_field(PyObject *args, const char *name)
{
	struct py_context *c = context_of(args);
	u64 v = 0;

	if (c && c->tp)
		trace_tep_field_u64(c->tp, c->sample->raw_data, c->sample->raw_size, name, &v);
	return py.PyLong_FromLongLong((long long)v);
}

static PyObject *ctx_common_pc(PyObject *self, PyObject *args)
{
	return common_field(args, "common_preempt_count");
}

static PyObject *ctx_common_flags(PyObject *self, PyObject *args)
{
	return common_field(args, "common_flags");
}

static PyObject *ctx_common_lock_depth(PyObject *self, PyObject *args)
{
	return common_field(args, "common_lock_depth");
}

/* the length of the x86-64 instruction in @buf (capstone), or @n when it cannot tell */
static size_t insn_length(const u8 *buf, size_t n, u64 ip)
{
	static csh handle;
	static int state; /* 0: not opened, 1: open, -1: unavailable */
	cs_insn *insn = NULL;
	size_t len = n;

	if (!state)
		state = cs_open(CS_ARCH_X86, CS_MODE_64, &handle) == CS_ERR_OK ? 1 : -1;
	if (state < 0)
		return n;
	if (cs_disasm(handle, buf, n, ip, 1, &insn) == 1)
		len = insn[0].size;
	if (insn)
		cs_free(insn, 1);
	return len;
}

/* the instruction bytes at a user sample's ip, read from its dso file; None in the kernel */
static PyObject *ctx_sample_insn(PyObject *self, PyObject *args)
{
	struct py_context *c = context_of(args);
	const struct resolved_frame *rf;
	struct dso *dso;
	u8 buf[16];
	FILE *f;
	size_t n = 0;

	if (!c || !cur_run || c->sample->cpumode != PERF_RECORD_MISC_USER)
		return pylib_none();
	rf = resolver_frame(&cur_run->res, c->thread, c->sample->cpumode, c->sample->ip);
	dso = resolved_frame_dso(rf);
	if (!dso || dso->long_name[0] != '/')
		return pylib_none();
	f = fopen(dso->long_name, "rb");
	if (f) {
		if (!fseeko(f, (off_t)resolved_frame_map_ip(rf), SEEK_SET))
			n = fread(buf, 1, sizeof(buf), f);
		fclose(f);
	}
	if (!n)
		return pylib_none();
	n = insn_length(buf, n, c->sample->ip);
	return py.PyBytes_FromStringAndSize((const char *)buf, (Py_ssize_t)n);
}

static PyObject *ctx_set_itrace_options(PyObject *self, PyObject *args)
{
	/* sonde decodes no instruction traces: nothing to set */
	return py.PyLong_FromLongLong(0);
}

/* perf_sample_srcline/srccode: (file, line[, text]); (None, 0[, None]) when unknown */
static PyObject *srcline_tuple(PyObject *args, bool with_code)
{
	struct py_context *c = context_of(args);
	PyObject *t = py.PyTuple_New(with_code ? 3 : 2);
	struct srcline sl = { 0 };
	bool found = false;

	if (c && cur_run && c->sample->cpumode == PERF_RECORD_MISC_USER) {
		const struct resolved_frame *rf = resolver_frame(&cur_run->res, c->thread,
								  c->sample->cpumode, c->sample->ip);
		struct dso *dso = resolved_frame_dso(rf);

		found = dso && !dso->is_kernel &&
			!resolver_srcline_find(&cur_run->res, dso, rf->addr, false, &sl) && sl.file;
	}
	py.PyTuple_SetItem(t, 0, found ? py_cstr(sl.file) : pylib_none());
	py.PyTuple_SetItem(t, 1, py.PyLong_FromLongLong(found ? sl.line : 0));
	if (with_code)
		py.PyTuple_SetItem(t, 2, pylib_none());
	return t;
}

static PyObject *ctx_sample_srcline(PyObject *self, PyObject *args)
{
	return srcline_tuple(args, false);
}

static PyObject *ctx_sample_srccode(PyObject *self, PyObject *args)
{
	return srcline_tuple(args, true);
}

static PyMethodDef context_methods[] = {
	{ "common_pc", ctx_common_pc, METH_VARARGS, "Get the common preempt count event field value." },
	{ "common_flags", ctx_common_flags, METH_VARARGS, "Get the common flags event field value." },
	{ "common_lock_depth", ctx_common_lock_depth, METH_VARARGS, "Get the common lock depth event field value." },
	{ "perf_sample_insn", ctx_sample_insn, METH_VARARGS, "Get the machine code instruction." },
	{ "perf_set_itrace_options", ctx_set_itrace_options, METH_VARARGS, "Set --itrace options." },
	{ "perf_sample_srcline", ctx_sample_srcline, METH_VARARGS, "Get source file name and line number." },
	{ "perf_sample_srccode", ctx_sample_srccode, METH_VARARGS, "Get source file name, line number and line." },
	{ NULL, NULL, 0, NULL },
};

static struct PyModuleDef context_def = {
	PyModuleDef_HEAD_INIT, "perf_trace_context", NULL, -1, context_methods,
	NULL, NULL, NULL, NULL,
};

/*
 * sonde_context.sample_location(context): what perf's API leaves out and
 * the export scripts need: {'addr': the address in the dso (map-relative in
 * user dsos), and with a symbol 'sym_start', 'sym_end', 'binding'}; None
 * without a map.
 */
static PyObject *ctx_sample_location(PyObject *self, PyObject *args)
{
	struct py_context *c = context_of(args);
	const struct resolved_frame *rf;
	const struct symbol *sym;
	PyObject *d;

	if (!c || !cur_run)
		return pylib_none();
	rf = resolver_frame(&cur_run->res, c->thread, c->sample->cpumode, c->sample->ip);
	if (!rf->map)
		return pylib_none();
	d = py.PyDict_New();
	dict_put(d, "addr", py_u64(rf->addr));
	sym = resolved_frame_sym(rf);
	if (sym) {
		dict_put(d, "sym_start", py_u64(sym->start));
		dict_put(d, "sym_end", py_u64(sym->end));
		dict_put(d, "binding", py_s64(sym->binding));
	}
	return d;
}

/* sonde_context.comm_info(context): (time, exec) of the COMM record that named the sample's thread */
static PyObject *ctx_comm_info(PyObject *self, PyObject *args)
{
	struct py_context *c = context_of(args);
	const struct comm_time *ct = NULL;
	PyObject *t = py.PyTuple_New(2);

	if (c && cur_run)
		ct = u64map_find(&cur_run->comm_times, (u64)(s64)c->thread->tid);
	py.PyTuple_SetItem(t, 0, py_u64(ct ? ct->time : 0));
	py.PyTuple_SetItem(t, 1, py_s64(ct ? ct->exec : 0));
	return t;
}

/*
 * sonde_context.callchain_build_ids(context): the build-id (hex, '' when
 * unknown) of each frame's dso in the sample's callchain, as resolved for
 * the handler's callchain list
 */
static PyObject *ctx_callchain_build_ids(PyObject *self, PyObject *args)
{
	struct py_context *c = context_of(args);
	PyObject *l = py.PyList_New(0);

	if (!c || !cur_run || !c->sample->callchain)
		return l;
	for (u32 i = 0; i < cur_run->chain.nr; i++) {
		struct dso *dso = resolved_frame_dso(&cur_run->chain.frames[i]);
		char bid[2 * BUILD_ID_SIZE + 1];
		PyObject *s = py_cstr(bid_hex(dso, bid));

		py.PyList_Append(l, s);
		py.Py_DecRef(s);
	}
	return l;
}

static PyMethodDef sonde_methods[] = {
	{ "callchain_build_ids", ctx_callchain_build_ids, METH_VARARGS,
	  "The build-id of each callchain frame's dso." },
	{ "comm_info", ctx_comm_info, METH_VARARGS,
	  "Time and exec flag of the COMM record that named the sample's thread." },
	{ "sample_location", ctx_sample_location, METH_VARARGS,
	  "The sample's address in its dso and its symbol's bounds." },
	{ NULL, NULL, 0, NULL },
};

static struct PyModuleDef sonde_def = {
	PyModuleDef_HEAD_INIT, "sonde_context", NULL, -1, sonde_methods,
	NULL, NULL, NULL, NULL,
};

static PyObject *sonde_module_init(void)
{
	return py.PyModule_Create2(&sonde_def, PYTHON_API_VERSION);
}

static PyObject *context_module_init(void)
{
	context_module = py.PyModule_Create2(&context_def, PYTHON_API_VERSION);
	/*
	 * one capsule for the module's lifetime: scripts copy it with
	 * "from perf_trace_context import *" and use it for every event
	 */
	if (context_module)
		py.PyModule_AddObject(context_module, "perf_script_context",
				      py.PyCapsule_New(&cur_ctx, NULL, NULL));
	return context_module;
}

/* ---- the sample dict ---- */

static PyObject *sym_dict(const struct symbol *sym)
{
	PyObject *d = py.PyDict_New();

	dict_put(d, "start", py_u64(sym->start));
	dict_put(d, "end", py_u64(sym->end));
	dict_put(d, "binding", py_s64(sym->binding));
	dict_put(d, "name", py_cstr(sym->name));
	return d;
}

/* the callchain as perf gives it: {ip, sym{start,end,binding,name}, sym_off, dso} per frame */
static PyObject *callchain_list(struct pyrun *r, struct thread *thread, struct evsel *evsel,
				const struct perf_sample *sample)
{
	static const struct chain_opts copts = { .bad_context_empties = true, .unwind = true };
	PyObject *l = py.PyList_New(0);
	u32 n;

	if (!sample->callchain)
		return l;
	n = resolve_sample_callchain(&r->res, thread, sample, evsel->attr.sample_type, &copts,
				     &r->chain);
	for (u32 i = 0; i < n; i++) {
		const struct resolved_frame *rf = &r->chain.frames[i];
		const struct symbol *sym = resolved_frame_sym(rf);
		struct dso *dso = resolved_frame_dso(rf);
		PyObject *node = py.PyDict_New();

		dict_put(node, "ip", py_u64(rf->ip));
		if (sym) {
			dict_put(node, "sym", sym_dict(sym));
			dict_put(node, "sym_off", py_u64(rf->symoff));
		}
		if (dso)
			dict_put(node, "dso", py_cstr(dso->long_name));
		py.PyList_Append(l, node);
		py.Py_DecRef(node);
	}
	return l;
}

/* one (id, value, lost) tuple */
static PyObject *value_tuple(u64 id, u64 value, u64 lost)
{
	PyObject *t = py.PyTuple_New(3);

	py.PyTuple_SetItem(t, 0, py_u64(id));
	py.PyTuple_SetItem(t, 1, py_u64(value));
	py.PyTuple_SetItem(t, 2, py_u64(lost));
	return t;
}

/* 'values': the read counters as (id, value, lost); one (0, 0, 0) without PERF_SAMPLE_READ */
static PyObject *values_list(const struct perf_sample *sample, const struct evsel *evsel)
{
	u64 rf = evsel->attr.read_format;
	PyObject *l = py.PyList_New(0);
	PyObject *t;

	if (!(evsel->attr.sample_type & PERF_SAMPLE_READ)) {
		t = value_tuple(0, 0, 0);
		py.PyList_Append(l, t);
		py.Py_DecRef(t);
		return l;
	}
	if (!(rf & PERF_FORMAT_GROUP)) {
		t = value_tuple(sample->read.one.id, sample->read.one.value, sample->read.one.lost);
		py.PyList_Append(l, t);
		py.Py_DecRef(t);
		return l;
	}
	for (u64 i = 0; sample->read.values && i < sample->read.nr; i++) {
		const u8 *p = (const u8 *)sample->read.values + i * perf_sample_read_value_size(rf);
		u64 v[3] = { 0, 0, 0 }; /* value, id, lost */
		int k = 1;

		memcpy(&v[0], p, 8);
		if (rf & PERF_FORMAT_ID)
			memcpy(&v[1], p + 8 * k++, 8);
		if (rf & PERF_FORMAT_LOST)
			memcpy(&v[2], p + 8 * k, 8);
		t = value_tuple(v[1], v[0], v[2]);
		py.PyList_Append(l, t);
		py.Py_DecRef(t);
	}
	return l;
}

#define DATA_SRC_NONE 0x5080021ULL /* PERF_MEM_NA in every field: perf's value for "not sampled" */

static PyObject *sample_subdict(const struct perf_sample *sample, const struct evsel *evsel)
{
	u64 st = evsel->attr.sample_type;
	u64 ds = (st & PERF_SAMPLE_DATA_SRC) ? sample->data_src : DATA_SRC_NONE;
	struct strbuf sb = STRBUF_INIT;
	PyObject *d = py.PyDict_New();

	dict_put(d, "pid", py_u64(sample->pid));
	dict_put(d, "tid", py_u64(sample->tid));
	dict_put(d, "cpu", py_u64((st & PERF_SAMPLE_CPU) ? sample->cpu : (u32)-1));
	dict_put(d, "ip", py_u64(sample->ip));
	dict_put(d, "time", py_u64(sample->time));
	dict_put(d, "period", py_u64(sample->period));
	dict_put(d, "phys_addr", py_u64(sample->phys_addr));
	dict_put(d, "addr", py_u64(sample->addr));
	/* perf: by the read_format, whether or not samples carry PERF_SAMPLE_READ */
	if (evsel->attr.read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
		dict_put(d, "time_enabled", py_u64((st & PERF_SAMPLE_READ) ? sample->read.time_enabled : 0));
	if (evsel->attr.read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
		dict_put(d, "time_running", py_u64((st & PERF_SAMPLE_READ) ? sample->read.time_running : 0));
	dict_put(d, "values", values_list(sample, evsel));
	dict_put(d, "weight", py_u64(sample->weight));
	dict_put(d, "transaction", py_u64(sample->transaction));
	dict_put(d, "datasrc", py_u64(ds));
	script_data_src_text(&sb, ds);
	dict_put(d, "datasrc_decode", py_str(sb.buf, sb.len));
	strbuf_release(&sb);
	dict_put(d, "cpumode", py_u64(sample->cpumode));
	return d;
}

/* struct perf_branch_entry's flag bits (uapi): mispred, predicted, in_tx, abort */
#define BR_BIT(flags, n) ((int)(((flags) >> (n)) & 1))

static PyObject *branch_list(struct pyrun *r, struct thread *thread,
			     const struct perf_sample *sample, bool as_syms)
{
	PyObject *l = py.PyList_New(0);
	const struct branch_entry *e = script_branch_entries(sample);

	if (!sample->branch_stack || !e)
		return l;
	for (u64 i = 0; i < sample->branch_stack->nr; i++) {
		const struct resolved_frame *from = resolver_frame_fb(&r->res, thread, sample->cpumode, e[i].from);
		const struct resolved_frame *to = resolver_frame_fb(&r->res, thread, sample->cpumode, e[i].to);
		PyObject *d = py.PyDict_New();

		if (as_syms) {
			const struct symbol *fs = resolved_frame_sym(from), *ts = resolved_frame_sym(to);
			char buf[512];

			snprintf(buf, sizeof(buf), "%s+0x%llx", fs ? fs->name : "[unknown]",
				 (unsigned long long)from->symoff);
			dict_put(d, "from", py_cstr(fs ? buf : "[unknown]"));
			snprintf(buf, sizeof(buf), "%s+0x%llx", ts ? ts->name : "[unknown]",
				 (unsigned long long)to->symoff);
			dict_put(d, "to", py_cstr(ts ? buf : "[unknown]"));
			dict_put(d, "pred", py_cstr(BR_BIT(e[i].flags, 0) ? "M" : BR_BIT(e[i].flags, 1) ? "P" : "-"));
			dict_put(d, "in_tx", py_cstr(BR_BIT(e[i].flags, 2) ? "X" : "-"));
			dict_put(d, "abort", py_cstr(BR_BIT(e[i].flags, 3) ? "A" : "-"));
		} else {
			struct dso *fd = resolved_frame_dso(from), *td = resolved_frame_dso(to);

			dict_put(d, "from", py_u64(e[i].from));
			dict_put(d, "to", py_u64(e[i].to));
			dict_put(d, "mispred", py_s64(BR_BIT(e[i].flags, 0)));
			dict_put(d, "predicted", py_s64(BR_BIT(e[i].flags, 1)));
			dict_put(d, "in_tx", py_s64(BR_BIT(e[i].flags, 2)));
			dict_put(d, "abort", py_s64(BR_BIT(e[i].flags, 3)));
			dict_put(d, "cycles", py_u64(((e[i].flags >> 4) & 0xffff)));
			dict_put(d, "from_dsoname", py_cstr(fd ? fd->long_name : "[unknown]"));
			dict_put(d, "to_dsoname", py_cstr(td ? td->long_name : "[unknown]"));
		}
		py.PyList_Append(l, d);
		py.Py_DecRef(d);
	}
	return l;
}

/* perf_sample_dict: the keys process_event() and tracepoint handlers receive, in perf's order */
static PyObject *sample_dict(struct pyrun *r, const struct perf_sample *sample, struct evsel *evsel,
			     struct thread *thread, PyObject *callchain)
{
	PyObject *d = py.PyDict_New();
	const struct resolved_frame *rf = resolver_frame(&r->res, thread, sample->cpumode, sample->ip);
	const struct symbol *sym = resolved_frame_sym(rf);
	struct dso *dso = resolved_frame_dso(rf);
	size_t attr_size = evsel->attr.size && evsel->attr.size < sizeof(evsel->attr) ?
			   evsel->attr.size : sizeof(evsel->attr);

	dict_put(d, "ev_name", py_cstr(evsel->name));
	dict_put(d, "attr", py.PyBytes_FromStringAndSize((const char *)&evsel->attr,
							   (Py_ssize_t)attr_size));
	dict_put(d, "sample", sample_subdict(sample, evsel));
	dict_put(d, "raw_buf", py.PyBytes_FromStringAndSize(sample->raw_data,
							      sample->raw_data ? sample->raw_size : 0));
	dict_put(d, "comm", py_cstr(thread->comm));
	if (dso) {
		char bid[2 * BUILD_ID_SIZE + 1];

		dict_put(d, "dso", py_cstr(dso->long_name));
		dict_put(d, "dso_bid", py_cstr(bid_hex(dso, bid)));
		dict_put(d, "dso_map_start", py_u64(rf->map->start));
		dict_put(d, "dso_map_end", py_u64(rf->map->end));
	}
	if (sym) {
		dict_put(d, "symbol", py_cstr(sym->name));
		dict_put(d, "symoff", py_u64(rf->symoff));
	}
	if (callchain) {
		py.Py_IncRef(callchain);
		dict_put(d, "callchain", callchain);
	} else {
		dict_put(d, "callchain", callchain_list(r, thread, evsel, sample));
	}
	dict_put(d, "brstack", branch_list(r, thread, sample, false));
	dict_put(d, "brstacksym", branch_list(r, thread, sample, true));
	dict_put(d, "iregs", py_cstr(""));
	dict_put(d, "uregs", py_cstr(""));
	return d;
}

/* ---- tracepoints ---- */

/* a field's value as perf hands it over: str, bytearray or int */
static PyObject *field_value(struct tep_event *tp, struct tep_format_field *f, const u8 *raw,
			     u32 size)
{
	u32 off = (u32)f->offset, len = (u32)f->size;

	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		u32 loc = 0;

		if (off + 4 > size)
			return py.PyLong_FromLongLong(0);
		memcpy(&loc, raw + off, 4);
		off = (loc & 0xffff) + ((f->flags & TEP_FIELD_IS_RELATIVE) ? off + 4 : 0);
		len = loc >> 16;
	}
	if (off > size)
		off = size;
	if (len > size - off)
		len = size - off;
	if (f->flags & TEP_FIELD_IS_STRING) {
		const char *s = (const char *)raw + off;
		const char *nul = memchr(s, '\0', len);

		return py_str(s, nul ? (size_t)(nul - s) : len);
	}
	if (f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC))
		return py.PyByteArray_FromStringAndSize((const char *)raw + off, (Py_ssize_t)len);
	{
		u64 v = 0;

		if (len == 1 || len == 2 || len == 4 || len == 8)
			v = tep_read_number(tp->tep, raw + off, (int)len);
		/* perf: only 8-byte signed fields come out negative */
		if ((f->flags & TEP_FIELD_IS_SIGNED) && len == 8)
			return py_s64((s64)v);
		return py_u64(v);
	}
}

/* the first field an argument expression of a print format reads */
static const char *print_arg_field(struct tep_print_arg *a)
{
	const char *n;

	for (; a; a = NULL) {
		switch (a->type) {
		case TEP_PRINT_FIELD:
			return a->field.name;
		case TEP_PRINT_OP:
			n = print_arg_field(a->op.left);
			return n ? n : print_arg_field(a->op.right);
		case TEP_PRINT_TYPE:
			return print_arg_field(a->typecast.item);
		default:
			return NULL;
		}
	}
	return NULL;
}

static void call_define(struct pyrun *r, const char *fn, const char *ev, const char *field,
			PyObject *third, PyObject *fourth)
{
	PyObject *f = py.PyDict_GetItemString(r->globals, fn);
	PyObject *args, *res;
	int n = fourth ? 4 : third ? 3 : 2;

	if (!f || !py.PyCallable_Check(f)) {
		if (third)
			py.Py_DecRef(third);
		if (fourth)
			py.Py_DecRef(fourth);
		return;
	}
	args = py.PyTuple_New(n);
	py.PyTuple_SetItem(args, 0, py_cstr(ev));
	py.PyTuple_SetItem(args, 1, py_cstr(field));
	if (third)
		py.PyTuple_SetItem(args, 2, third);
	if (fourth)
		py.PyTuple_SetItem(args, 3, fourth);
	res = py.PyObject_CallObject(f, args);
	py.Py_DecRef(args);
	if (res)
		py.Py_DecRef(res);
	else
		py.PyErr_Clear();
}

/* walk a print format's arguments: __print_flags/__print_symbolic tables go to Core's define_*() */
static void define_print_args(struct pyrun *r, const char *ev, struct tep_print_arg *a)
{
	for (; a; a = a->next) {
		struct tep_print_flag_sym *fs;
		const char *field;

		switch (a->type) {
		case TEP_PRINT_FLAGS:
			field = print_arg_field(a->flags.field);
			if (!field)
				break;
			call_define(r, "define_flag_field", ev, field,
				    py_cstr(a->flags.delim ? a->flags.delim : ""), NULL);
			for (fs = a->flags.flags; fs; fs = fs->next)
				call_define(r, "define_flag_value", ev, field,
					    py_u64(strtoull(fs->value, NULL, 0)), py_cstr(fs->str));
			break;
		case TEP_PRINT_SYMBOL:
			field = print_arg_field(a->symbol.field);
			if (!field)
				break;
			call_define(r, "define_symbolic_field", ev, field, NULL, NULL);
			for (fs = a->symbol.symbols; fs; fs = fs->next)
				call_define(r, "define_symbolic_value", ev, field,
					    py_u64(strtoull(fs->value, NULL, 0)), py_cstr(fs->str));
			break;
		case TEP_PRINT_OP:
			define_print_args(r, ev, a->op.left);
			define_print_args(r, ev, a->op.right);
			break;
		case TEP_PRINT_TYPE:
			define_print_args(r, ev, a->typecast.item);
			break;
		case TEP_PRINT_FUNC:
			define_print_args(r, ev, a->func.args);
			break;
		default:
			break;
		}
	}
}

/* how many positional parameters @fn takes, -1 when unknown, @varargs_count with *args */
static int arg_count(PyObject *fn, int varargs_count)
{
	PyObject *code = py.PyObject_GetAttrString(fn, "__code__");
	PyObject *n;
	int count = -1;

	if (!code) {
		py.PyErr_Clear();
		return -1;
	}
	n = py.PyObject_GetAttrString(code, "co_argcount");
	if (n) {
		count = (int)py.PyLong_AsLongLong(n);
		py.Py_DecRef(n);
	}
	n = py.PyObject_GetAttrString(code, "co_flags");
	if (n) {
		if (py.PyLong_AsLongLong(n) & CO_VARARGS)
			count = varargs_count;
		py.Py_DecRef(n);
	}
	py.PyErr_Clear();
	py.Py_DecRef(code);
	return count;
}

static PyObject *global_fn(struct pyrun *r, const char *name)
{
	PyObject *f = py.PyDict_GetItemString(r->globals, name);

	return f && py.PyCallable_Check(f) ? f : NULL;
}

static struct tep_event *tp_format(struct pyrun *r, struct evsel *evsel)
{
	const struct perf_header *h;

	if (!r->tep && !r->tep_tried) {
		r->tep_tried = true;
		h = data_reader_header(r->reader);
		if (h->tracing_data &&
		    trace_tep_from_data(h->tracing_data, h->tracing_data_size, &r->tep))
			pr_warning("Warning: the tracing data in %s is corrupt\n",
				   data_reader_path(r->reader));
	}
	return r->tep ? trace_tep_find_event(r->tep, (int)evsel->attr.config) : NULL;
}

static struct py_tp *tp_handler(struct pyrun *r, struct evsel *evsel)
{
	struct py_tp *t = u64map_find(&r->tps, evsel->attr.config);

	if (t)
		return t;
	t = xzalloc(sizeof(*t));
	t->tp = tp_format(r, evsel);
	if (t->tp) {
		snprintf(t->name, sizeof(t->name), "%s__%s", t->tp->system, t->tp->name);
		t->handler = global_fn(r, t->name);
		if (t->handler)
			t->with_sample_dict = arg_count(t->handler, 0) > 8 + t->tp->format.nr_fields;
	}
	u64map_set(&r->tps, evsel->attr.config, t);
	return t;
}

/* call @fn with @args (stolen); a Python error ends the run */
static int call_handler(PyObject *fn, PyObject *args)
{
	PyObject *res = py.PyObject_CallObject(fn, args);

	py.Py_DecRef(args);
	if (!res) {
		py.PyErr_Print();
		fprintf(stderr, "Fatal Python error: handler_call_die: problem in Python trace event handler\n");
		return -ECANCELED;
	}
	py.Py_DecRef(res);
	return 0;
}

static int handle_tracepoint(struct pyrun *r, struct evsel *evsel, struct thread *thread,
			     const struct perf_sample *sample, PyObject *ctx)
{
	struct py_tp *t = tp_handler(r, evsel);
	const u8 *raw = sample->raw_data;
	u32 size = sample->raw_data ? sample->raw_size : 0;
	PyObject *callchain, *args;
	struct tep_format_field *f;
	u64 pid = sample->tid;
	int i = 0, nr;

	if (!t->tp || (!t->handler && !r->trace_unhandled))
		return 0;
	if (!t->defined) {
		t->defined = true;
		define_print_args(r, t->name, t->tp->print_fmt.args);
	}
	trace_tep_field_u64(t->tp, raw, size, "common_pid", &pid);
	callchain = callchain_list(r, thread, evsel, sample);
	if (t->handler) {
		nr = 8 + t->tp->format.nr_fields + (t->with_sample_dict ? 1 : 0);
		args = py.PyTuple_New(nr);
		py.PyTuple_SetItem(args, i++, py_cstr(t->name));
		py.Py_IncRef(ctx);
		py.PyTuple_SetItem(args, i++, ctx);
		py.PyTuple_SetItem(args, i++, py_u64(sample->cpu));
		py.PyTuple_SetItem(args, i++, py_u64(sample->time / 1000000000ULL));
		py.PyTuple_SetItem(args, i++, py_u64(sample->time % 1000000000ULL));
		py.PyTuple_SetItem(args, i++, py_u64((u32)pid));
		py.PyTuple_SetItem(args, i++, py_cstr(thread->comm));
		py.Py_IncRef(callchain);
		py.PyTuple_SetItem(args, i++, callchain);
		for (f = t->tp->format.fields; f && i < nr; f = f->next)
			py.PyTuple_SetItem(args, i++, field_value(t->tp, f, raw, size));
		if (t->with_sample_dict)
			py.PyTuple_SetItem(args, i++, sample_dict(r, sample, evsel, thread, callchain));
		for (; i < nr; i++)
			py.PyTuple_SetItem(args, i, pylib_none());
		py.Py_DecRef(callchain);
		return call_handler(t->handler, args);
	}
	{
		PyObject *fields = py.PyDict_New();

		dict_put(fields, "common_cpu", py_u64(sample->cpu));
		dict_put(fields, "common_s", py_u64(sample->time / 1000000000ULL));
		dict_put(fields, "common_ns", py_u64(sample->time % 1000000000ULL));
		dict_put(fields, "common_pid", py_u64((u32)pid));
		dict_put(fields, "common_comm", py_cstr(thread->comm));
		py.Py_IncRef(callchain);
		dict_put(fields, "common_callchain", callchain);
		for (f = t->tp->format.fields; f; f = f->next)
			dict_put(fields, f->name, field_value(t->tp, f, raw, size));
		args = py.PyTuple_New(r->unhandled_with_sample_dict ? 4 : 3);
		py.PyTuple_SetItem(args, 0, py_cstr(t->name));
		py.Py_IncRef(ctx);
		py.PyTuple_SetItem(args, 1, ctx);
		py.PyTuple_SetItem(args, 2, fields);
		if (r->unhandled_with_sample_dict)
			py.PyTuple_SetItem(args, 3, sample_dict(r, sample, evsel, thread, callchain));
		py.Py_DecRef(callchain);
		return call_handler(r->trace_unhandled, args);
	}
}

/* ---- the session ---- */

static struct pyrun *run_of(struct tool *tool)
{
	return (struct pyrun *)((char *)tool - offsetof(struct pyrun, tool));
}

/* the first event's sample_type: it lays out every side-band record's trailer */
static u64 sample_type_of_first(struct pyrun *r)
{
	struct evsel *first = evlist_first(r->session->evlist);

	return first && first->attr.sample_id_all ? first->attr.sample_type : 0;
}

static int on_sample(struct tool *tool, struct session *session, const union perf_event *ev,
		     const struct perf_sample *sample, struct evsel *evsel)
{
	struct pyrun *r = run_of(tool);
	struct thread *thread;
	PyObject *ctx;
	int ret = 0;

	if (!time_spans_include(r->time_spans, r->nr_time_spans, sample->time) ||
	    !cpu_bitmap_has(&r->cpus, sample->cpu))
		return 0;
	thread = machine_findnew_thread(r->machine, (int)sample->pid, (int)sample->tid);
	if ((r->has_comms && !name_list_has(&r->comms, thread->comm)) ||
	    (r->has_pids && !u64map_find(&r->pids, (u64)(s64)thread->pid)) ||
	    (r->has_tids && !u64map_find(&r->tids, (u64)(s64)thread->tid)))
		return 0;
	if (r->has_syms || r->has_dsos) {
		/* -S/--dsos: the sample's own symbol and dso, as script's text output selects */
		const struct resolved_frame *rf = resolver_frame(&r->res, thread, sample->cpumode, sample->ip);
		const struct symbol *sym = resolved_frame_sym(rf);
		const struct dso *dso = resolved_frame_dso(rf);

		if ((r->has_syms && !name_list_has(&r->syms, sym ? sym->name : NULL)) ||
		    (r->has_dsos && !dso_list_has(&r->dsos, dso ? dso->long_name : NULL)))
			return 0;
	}
	if (evsel->attr.type != PERF_TYPE_TRACEPOINT && !r->process_event)
		return 0;
	cur_ctx = (struct py_context){ .sample = sample, .evsel = evsel, .thread = thread };
	ctx = py.PyCapsule_New(&cur_ctx, NULL, NULL);
	if (evsel->attr.type == PERF_TYPE_TRACEPOINT) {
		cur_ctx.tp = tp_format(r, evsel);
		ret = handle_tracepoint(r, evsel, thread, sample, ctx);
	} else {
		PyObject *args = py.PyTuple_New(1);

		py.PyTuple_SetItem(args, 0, sample_dict(r, sample, evsel, thread, NULL));
		ret = call_handler(r->process_event, args);
	}
	cur_ctx.sample = NULL;
	py.Py_DecRef(ctx);
	return ret;
}

/*
 * context_switch(ts, cpu, pid, tid, np_pid, np_tid, machine_pid, out,
 * out_preempt, *x) for a SWITCH record: the trailer's time, cpu (-1 when not
 * sampled) and thread, the other thread (cpu-wide records, else -1), then
 * what perf passes after them (0, -1), as many as the function takes.
 */
static int call_context_switch(struct pyrun *r, const union perf_event *ev,
			       const struct perf_sample *sample)
{
	bool wide = ev->header.type == PERF_RECORD_SWITCH_CPU_WIDE;
	u64 st = sample_type_of_first(r);
	PyObject *args;
	s64 vals[11];
	int n = 11;

	vals[0] = sample ? (s64)sample->time : 0;
	vals[1] = sample && (st & PERF_SAMPLE_CPU) ? (s64)sample->cpu : -1;
	vals[2] = sample && (st & PERF_SAMPLE_TID) ? (s64)(s32)sample->pid : -1;
	vals[3] = sample && (st & PERF_SAMPLE_TID) ? (s64)(s32)sample->tid : -1;
	vals[4] = wide ? (s64)(s32)ev->context_switch.next_prev_pid : -1;
	vals[5] = wide ? (s64)(s32)ev->context_switch.next_prev_tid : -1;
	vals[6] = -1;
	vals[7] = !!(ev->header.misc & PERF_RECORD_MISC_SWITCH_OUT);
	vals[8] = !!(ev->header.misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT);
	vals[9] = 0;
	vals[10] = -1;
	if (r->context_switch_args >= 0 && r->context_switch_args < n)
		n = r->context_switch_args;
	args = py.PyTuple_New(n);
	for (int i = 0; i < n; i++) {
		PyObject *v = (i == 7 || i == 8) ? py.PyBool_FromLong((long)vals[i]) : py_s64(vals[i]);

		py.PyTuple_SetItem(args, i, v);
	}
	return call_handler(r->context_switch, args);
}

static int on_other(struct tool *tool, struct session *session, const union perf_event *ev,
		    const struct perf_sample *sample)
{
	struct pyrun *r = run_of(tool);
	struct comm_time *ct;
	u64 tid;

	if (ev->header.type == PERF_RECORD_SWITCH || ev->header.type == PERF_RECORD_SWITCH_CPU_WIDE)
		return r->context_switch ? call_context_switch(r, ev, sample) : 0;
	if (ev->header.type != PERF_RECORD_COMM)
		return 0;
	tid = (u64)(s64)(int)ev->comm.tid;
	ct = u64map_find(&r->comm_times, tid);
	if (!ct) {
		ct = xzalloc(sizeof(*ct));
		u64map_set(&r->comm_times, tid, ct);
	}
	ct->time = sample ? sample->time : 0;
	ct->exec = !!(ev->header.misc & PERF_RECORD_MISC_COMM_EXEC);
	return 0;
}

/* the --comm/--pid/--tid/--cpu/--time selections, with script's messages */
static int setup_filters(struct pyrun *r, const struct script_python_opts *po)
{
	const struct perf_header *h = data_reader_header(r->reader);
	int *ids, nr;

	if (po->comm_list) {
		name_list_parse(po->comm_list, &r->comms);
		r->has_comms = true;
	}
	if (po->sym_list) {
		name_list_parse(po->sym_list, &r->syms);
		r->has_syms = true;
	}
	if (po->dso_list) {
		name_list_parse(po->dso_list, &r->dsos);
		r->has_dsos = true;
	}
	for (int k = 0; k < 2; k++) {
		const char *list = k ? po->tid_list : po->pid_list;

		if (!list)
			continue;
		if (id_list_parse(list, &ids, &nr)) {
			pr_err("problems parsing %s list\n", k ? "tid" : "pid");
			return -EINVAL;
		}
		for (int i = 0; i < nr; i++)
			u64map_set(k ? &r->tids : &r->pids, (u64)(s64)ids[i], (void *)1);
		free(ids);
		*(k ? &r->has_tids : &r->has_pids) = true;
	}
	if (po->cpu_list) {
		int too_large, highest;

		if (cpu_bitmap_parse(&r->cpus, po->cpu_list, h->nr_cpus_avail, &too_large, &highest)) {
			pr_err("Invalid cpu_list\n");
			return -EINVAL;
		}
	}
	if (po->time_str && time_spans_parse(po->time_str, h->first_sample_time,
					     h->last_sample_time, &r->time_spans, &r->nr_time_spans)) {
		pr_err("Invalid time string\n");
		return -EINVAL;
	}
	return 0;
}

/* perf's warnings about lost records and records out of order, before trace_end() */
static void warn_about_losses(struct session *session)
{
	const struct session_stats *st = &session->stats;
	u64 total = 0;

	for (int i = 0; i < PERF_RECORD_HEADER_MAX; i++)
		total += st->nr_events[i];
	if (st->nr_events[PERF_RECORD_LOST])
		fprintf(stderr, "Warning:\nProcessed %llu events and lost %llu chunks!\n\n"
				"Check IO/CPU overload!\n\n",
			(unsigned long long)total,
			(unsigned long long)st->nr_events[PERF_RECORD_LOST]);
	if (st->nr_unordered)
		fprintf(stderr, "Warning:\n%llu out of order events recorded.\n",
			(unsigned long long)st->nr_unordered);
}

static int free_val(uint64_t key, void *val, void *arg)
{
	free(val);
	return 0;
}

static void pyrun_release(struct pyrun *r)
{
	u64map_for_each(&r->tps, free_val, NULL);
	u64map_release(&r->tps);
	u64map_for_each(&r->comm_times, free_val, NULL);
	u64map_release(&r->comm_times);
	resolver_release(&r->res);
	resolved_chain_release(&r->chain);
	strvec_clear(&r->comms);
	strvec_clear(&r->syms);
	strvec_clear(&r->dsos);
	u64map_release(&r->pids);
	u64map_release(&r->tids);
	cpu_bitmap_release(&r->cpus);
	free(r->time_spans);
	trace_tep_free(r->tep);
	session_free(r->session);
}

/*
 * start_python - the interpreter with perf_trace_context built in, sys.argv
 * set and the script's directory first on sys.path. Returns 0 or -errno.
 */
static int start_python(const struct script_python_opts *po)
{
	static bool started;
	const char *why = NULL;
	PyObject *argv, *path;
	char *dir, *slash;

	if (started)
		return 0;
	if (pylib_load(&why)) {
		pr_err("Python scripting needs libpython3 (%s)\n", why ? why : "not found");
		return -ENOENT;
	}
	if (po->exec_path)
		setenv("PERF_EXEC_PATH", po->exec_path, 1);
	py.PyImport_AppendInittab("perf_trace_context", context_module_init);
	py.PyImport_AppendInittab("sonde_context", sonde_module_init);
	py.Py_InitializeEx(0);
	started = true;
	argv = py.PyList_New(0);
	for (int i = 0; i < po->argc; i++) {
		PyObject *s = py_cstr(po->argv[i]);

		py.PyList_Append(argv, s);
		py.Py_DecRef(s);
	}
	py.PySys_SetObject("argv", argv);
	py.Py_DecRef(argv);
	dir = xstrdup(po->script);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	path = py.PySys_GetObject("path");
	if (path) {
		PyObject *s = py_cstr(slash ? dir : "");

		py.PyList_Append(path, s); /* at the end: the standard library comes first */
		py.Py_DecRef(s);
	}
	free(dir);
	/* the module is made at its first import: do it now so perf_script_context can be set */
	{
		PyObject *m = py.PyImport_ImportModule("perf_trace_context");

		if (!m) {
			py.PyErr_Print();
			return -EINVAL;
		}
		py.Py_DecRef(m);
	}
	return 0;
}

/* run_global - call the script's @name() if it has one; -ECANCELED on a Python error */
static int run_global(struct pyrun *r, const char *name)
{
	PyObject *f = global_fn(r, name);

	if (!f)
		return 0;
	return call_handler(f, py.PyTuple_New(0));
}

/* load_script - execute the script file in __main__'s namespace */
static int load_script(struct pyrun *r, const char *path)
{
	PyObject *main_mod, *res;
	FILE *fp = fopen(path, "r");

	if (!fp) {
		pr_err("Can't open python script \"%s\"\n", path);
		return -ENOENT;
	}
	main_mod = py.PyImport_AddModule("__main__");
	r->globals = py.PyModule_GetDict(main_mod);
	dict_put(r->globals, "__file__", py_cstr(path));
	res = py.PyRun_FileExFlags(fp, path, Py_file_input, r->globals, r->globals, 1, NULL);
	if (!res) {
		/* a SystemExit ends the process there, with its status, as in perf */
		py.PyErr_Print();
		pr_err("Error running python script %s\n", path);
		return -EINVAL;
	}
	py.Py_DecRef(res);
	return 0;
}

int script_python_run(const struct script_python_opts *po, struct data_reader *reader)
{
	struct machine_opts mopts = { 0 };
	struct symbol_opts sopts = { 0 };
	struct data_error derr = { 0 };
	struct pyrun r;
	int err, ret = 0;

	memset(&r, 0, sizeof(r));
	mopts.symbol_opts = &sopts;
	r.session = session_new(reader, &mopts);
	r.reader = r.session->reader;
	r.machine = &r.session->machine;
	thread_set_comm(r.machine, machine_findnew_thread(r.machine, 0, 0), "swapper");
	resolver_init(&r.res, r.machine, NULL);
	u64map_init(&r.tps);
	u64map_init(&r.comm_times);
	u64map_init(&r.pids);
	u64map_init(&r.tids);
	err = setup_filters(&r, po);
	if (!err)
		err = start_python(po);
	if (err) {
		pyrun_release(&r);
		return err;
	}
	fflush(stdout);
	cur_run = &r;
	err = load_script(&r, po->script);
	if (err) {
		cur_run = NULL;
		pyrun_release(&r);
		return err > 0 ? 0 : err;
	}
	r.process_event = global_fn(&r, "process_event");
	r.trace_unhandled = global_fn(&r, "trace_unhandled");
	r.context_switch = global_fn(&r, "context_switch");
	if (r.context_switch)
		r.context_switch_args = arg_count(r.context_switch, -1);
	if (r.trace_unhandled)
		r.unhandled_with_sample_dict = arg_count(r.trace_unhandled, 0) > 3;
	ret = run_global(&r, "trace_begin");
	if (ret)
		goto out;
	r.tool.sample = on_sample;
	r.tool.other = on_other;
	r.tool.ordered = true;
	err = session_process(r.session, &r.tool, &derr);
	if (err < 0) {
		if (err != -ECANCELED)
			data_error_print(data_reader_path(r.reader), &derr);
		ret = err;
		goto out;
	}
	warn_about_losses(r.session);
	ret = run_global(&r, "trace_end");
out:
	/* flush the script's sys.stdout before sonde writes anything more */
	{
		PyObject *res = py.PyRun_StringFlags("import sys\nsys.stdout.flush()\n", Py_file_input,
						      r.globals, r.globals, NULL);

		if (res)
			py.Py_DecRef(res);
		else
			py.PyErr_Clear();
	}
	cur_run = NULL;
	pyrun_release(&r);
	/* atexit handlers and the streams, as when a Python program ends */
	if (py.Py_FinalizeEx() < 0 && !ret)
		ret = -EIO;
	return ret;
}
