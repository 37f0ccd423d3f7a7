/* SPDX-License-Identifier: MIT */
/* data convert's writers: samples resolved on the session, then perf JSON, speedscope, Chrome trace or pprof. */
#include "ui/export.h"

#include "core/evlist.h"
#include "core/evsel.h"
#include "data/reader.h"
#include "lib/hashmap.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "session/resolve.h"
#include "ui/export-pprof.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* one distinct frame of the whole export: interned names, a number each */
struct xframe {
	const char *name;  /* symbol, NULL when unknown */
	const char *dso;   /* short name, NULL without a map */
	const char *path;  /* the dso's long name */
	u64 ip;		   /* the first address seen */
	u32 id;
	bool kernel;
};

struct xrun {
	struct tool tool; /* first */
	struct session *session;
	enum export_format format;
	FILE *out;
	struct strbuf sb;
	struct resolver res;
	struct resolved_chain chain;
	long nr_samples;
	bool first_sample;
	/* distinct frames, for the formats with frame tables */
	struct u64map frame_ids; /* (frame pointer ^ dso) -> struct xframe * */
	struct xframe **frames;
	size_t nr_frames, alloc_frames;
	u32 *stack;		 /* one sample's frame ids, leaf first */
	size_t alloc_stack;
	/* per thread sample lists (speedscope), and Chrome's stack nodes */
	struct u64map threads;	 /* tid -> struct xthread * */
	struct xthread **thread_list;
	size_t nr_threads, alloc_threads;
	struct u64map nodes;	 /* (parent node << 32 | frame id) -> node id + 1 */
	u32 *node_parent, *node_frame;
	size_t nr_nodes, alloc_nodes, alloc_nodes2;
	u64 first_time, last_time;
	struct pprof *pprof;
	struct u64map json_frags; /* (symbol, dso) -> struct json_frag * */
	struct strbuf json_spare; /* a fragment not kept in json_frags */
	const struct resolved_frame **rfs; /* one sample's frames */
	size_t alloc_rfs;
	int err;
};

struct xthread {
	int pid, tid;
	const char *comm;
	u32 *ids;	   /* concatenated stacks, root first */
	u32 *lens;
	u64 *times;
	size_t nr_ids, alloc_ids, nr, alloc, alloc_t;
	/* Chrome: the previous sample's stack, root first, to skip look-ups of a shared prefix */
	u64 *last_keys;
	u32 *last_nodes;
	u32 last_nr, last_alloc;
};

/*
 * The per-sample writers append through these: the room check inline, no
 * NUL per append (on_sample terminates the buffer once per sample; nothing
 * reads it as a C string before a flush).
 */
static inline void sb_put(struct strbuf *sb, const void *p, size_t n)
{
	if (sb->alloc - sb->len < n + 1)
		strbuf_grow(sb, n);
	memcpy(sb->buf + sb->len, p, n);
	sb->len += n;
}

static inline void sb_putc(struct strbuf *sb, char c)
{
	if (sb->alloc - sb->len < 2)
		strbuf_grow(sb, 1);
	sb->buf[sb->len++] = c;
}

/* a string literal, its length known at compile time */
#define SB_LIT(sb, lit) sb_put(sb, lit, sizeof(lit) - 1)

static void flush_sb(struct xrun *x)
{
	if (x->sb.len && fwrite(x->sb.buf, 1, x->sb.len, x->out) != x->sb.len)
		x->err = -EIO;
	strbuf_setlen(&x->sb, 0);
}

/* @v in decimal, without printf (exports write millions of numbers) */
static void put_dec(struct strbuf *sb, u64 v)
{
	char buf[24];
	int n = sizeof(buf);

	do {
		buf[--n] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	sb_put(sb, buf + n, sizeof(buf) - n);
}

static void put_hex(struct strbuf *sb, u64 v)
{
	static const char digits[] = "0123456789abcdef";
	char buf[20];
	int n = sizeof(buf);

	do {
		buf[--n] = digits[v & 15];
		v >>= 4;
	} while (v);
	sb_put(sb, buf + n, sizeof(buf) - n);
}

/* a JSON string literal */
static void json_str(struct strbuf *sb, const char *s)
{
	size_t plain = 0;

	/* the usual name needs no escape: one copy */
	while (s && s[plain] && s[plain] != '"' && s[plain] != '\\' && (unsigned char)s[plain] >= 0x20)
		plain++;
	if (s && !s[plain]) {
		if (sb->alloc - sb->len < plain + 3)
			strbuf_grow(sb, plain + 2);
		sb->buf[sb->len++] = '"';
		memcpy(sb->buf + sb->len, s, plain);
		sb->len += plain;
		sb->buf[sb->len++] = '"';
		return;
	}
	strbuf_addch(sb, '"');
	for (const unsigned char *p = (const unsigned char *)s; p && *p; p++) {
		if (*p == '"' || *p == '\\') {
			strbuf_addch(sb, '\\');
			strbuf_addch(sb, *p);
		} else if (*p == '\n') {
			strbuf_addstr(sb, "\\n");
		} else if (*p == '\t') {
			strbuf_addstr(sb, "\\t");
		} else if (*p < 0x20) {
			strbuf_addf(sb, "\\u%04x", *p);
		} else {
			strbuf_addch(sb, *p);
		}
	}
	strbuf_addch(sb, '"');
}

static struct xframe *xframe_of(struct xrun *x, const struct resolved_frame *rf)
{
	const struct dso *dso = resolved_frame_dso(rf);
	const struct symbol *sym = resolved_frame_sym(rf);
	u64 key = (u64)(uintptr_t)rf->frame * 31 + (u64)(uintptr_t)dso;
	struct xframe *f = u64map_find(&x->frame_ids, key);

	if (f)
		return f;
	f = xzalloc(sizeof(*f));
	f->name = sym ? sym->name : NULL;
	f->dso = dso ? dso->short_name : NULL;
	f->path = dso ? dso->long_name : NULL;
	f->kernel = dso && dso->is_kernel;
	f->ip = rf->ip;
	f->id = (u32)x->nr_frames;
	x->frames = xgrow(x->frames, x->nr_frames + 1, &x->alloc_frames, sizeof(*x->frames));
	x->frames[x->nr_frames++] = f;
	u64map_set(&x->frame_ids, key, f);
	return f;
}

/* ---- perf's JSON ---- */

static void json_header(struct xrun *x)
{
	const struct perf_header *h = data_reader_header(x->session->reader);
	struct strbuf *sb = &x->sb;
	time_t mt = (time_t)h->mtime;
	struct tm tm;
	char when[64];

	gmtime_r(&mt, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	strbuf_addstr(sb, "{\n\t\"linux-perf-json-version\": 1,\n\t\"headers\": {\n");
	strbuf_addf(sb, "\t\t\"header-version\": 1,\n\t\t\"captured-on\": \"%s\",\n", when);
	strbuf_addf(sb, "\t\t\"data-offset\": %" PRIu64 ",\n\t\t\"data-size\": %" PRIu64 ",\n"
			"\t\t\"feat-offset\": %" PRIu64,
		    h->data_offset, h->data_size, h->feat_offset);
#define HSTR(key, val)                              \
	do {                                        \
		if (val) {                          \
			strbuf_addstr(sb, ",\n\t\t\"" key "\": "); \
			json_str(sb, val);          \
		}                                   \
	} while (0)
	HSTR("hostname", h->hostname);
	HSTR("os-release", h->os_release);
	HSTR("arch", h->arch);
	HSTR("cpu-desc", h->cpudesc);
	HSTR("cpuid", h->cpuid);
	if (perf_header_has_feat(h, HEADER_NRCPUS))
		strbuf_addf(sb, ",\n\t\t\"nrcpus-online\": %u,\n\t\t\"nrcpus-avail\": %u",
			    h->nr_cpus_online, h->nr_cpus_avail);
	HSTR("perf-version", h->version);
#undef HSTR
	if (h->cmdline) {
		strbuf_addstr(sb, ",\n\t\t\"cmdline\": [");
		for (int i = 0; i < h->nr_cmdline; i++) {
			strbuf_addstr(sb, i ? ",\n\t\t\t" : "\n\t\t\t");
			json_str(sb, h->cmdline[i]);
		}
		strbuf_addstr(sb, "\n\t\t]");
	}
	strbuf_addstr(sb, "\n\t},\n\t\"samples\": [");
}

/* a frame's "symbol" and "dso" members, formatted once per symbol and dso */
struct json_frag {
	const struct symbol *sym;
	const struct dso *dso;
	size_t len;
	char text[];
};

static const struct json_frag *json_frag_of(struct xrun *x, const struct symbol *sym,
					    const struct dso *dso)
{
	u64 key = (u64)(uintptr_t)sym * 31 + (u64)(uintptr_t)dso;
	struct json_frag *f = u64map_find(&x->json_frags, key);
	struct strbuf tmp = STRBUF_INIT;

	if (f && f->sym == sym && f->dso == dso)
		return f;
	SB_LIT(&tmp, ",\n\t\t\t\t\t\"symbol\": ");
	json_str(&tmp, sym->name);
	SB_LIT(&tmp, ",\n\t\t\t\t\t\"dso\": ");
	json_str(&tmp, dso ? dso->short_name : "[unknown]");
	if (f) {
		/* two pairs on one key: the later one is formatted each time */
		strbuf_reset(&x->json_spare);
		strbuf_add(&x->json_spare, tmp.buf, tmp.len);
		strbuf_release(&tmp);
		return NULL;
	}
	f = xmalloc(sizeof(*f) + tmp.len);
	f->sym = sym;
	f->dso = dso;
	f->len = tmp.len;
	memcpy(f->text, tmp.buf, tmp.len);
	strbuf_release(&tmp);
	u64map_set(&x->json_frags, key, f);
	return f;
}

/* @v, a pid or tid, as perf prints an int */
static void put_int(struct strbuf *sb, int v)
{
	if (v < 0)
		sb_putc(sb, '-');
	put_dec(sb, v < 0 ? (u64)-(s64)v : (u64)v);
}

static void json_sample(struct xrun *x, const struct perf_sample *sample, struct evsel *evsel,
			const struct thread *thread, const struct resolved_frame *const *rfs, u32 nr)
{
	struct strbuf *sb = &x->sb;

	if (x->first_sample)
		SB_LIT(sb, "\n\t\t{\n\t\t\t\"timestamp\": ");
	else
		SB_LIT(sb, ",\n\t\t{\n\t\t\t\"timestamp\": ");
	put_dec(sb, sample->time);
	SB_LIT(sb, ",\n\t\t\t\"pid\": ");
	put_int(sb, (int)sample->pid);
	SB_LIT(sb, ",\n\t\t\t\"tid\": ");
	put_int(sb, (int)sample->tid);
	SB_LIT(sb, ",\n");
	if (evsel->attr.sample_type & PERF_SAMPLE_CPU) {
		SB_LIT(sb, "\t\t\t\"cpu\": ");
		put_dec(sb, sample->cpu);
		SB_LIT(sb, ",\n");
	}
	SB_LIT(sb, "\t\t\t\"comm\": ");
	json_str(sb, thread->comm);
	SB_LIT(sb, ",\n\t\t\t\"callchain\": [");
	for (u32 i = 0; i < nr; i++) {
		const struct resolved_frame *rf = rfs[i];
		const struct symbol *sym = resolved_frame_sym(rf);

		if (i)
			SB_LIT(sb, ",\n\t\t\t\t{\n\t\t\t\t\t\"ip\": \"0x");
		else
			SB_LIT(sb, "\n\t\t\t\t{\n\t\t\t\t\t\"ip\": \"0x");
		put_hex(sb, rf->ip);
		sb_putc(sb, '"');
		if (sym) {
			const struct json_frag *f = json_frag_of(x, sym, resolved_frame_dso(rf));

			if (f)
				sb_put(sb, f->text, f->len);
			else
				sb_put(sb, x->json_spare.buf, x->json_spare.len);
		}
		SB_LIT(sb, "\n\t\t\t\t}");
	}
	SB_LIT(sb, "\n\t\t\t]\n\t\t}");
}

/* ---- speedscope and Chrome: stacks by frame number ---- */

static struct xthread *xthread_of(struct xrun *x, const struct thread *t)
{
	struct xthread *xt = u64map_find(&x->threads, (u64)(u32)t->tid << 32 | (u32)t->pid);

	if (xt) {
		xt->comm = t->comm;
		return xt;
	}
	xt = xzalloc(sizeof(*xt));
	xt->pid = t->pid;
	xt->tid = t->tid;
	xt->comm = t->comm;
	u64map_set(&x->threads, (u64)(u32)t->tid << 32 | (u32)t->pid, xt);
	x->thread_list = xgrow(x->thread_list, x->nr_threads + 1, &x->alloc_threads,
			       sizeof(*x->thread_list));
	x->thread_list[x->nr_threads++] = xt;
	return xt;
}

/* Chrome's stack node of frame @fid under @parent (0: none), numbered from 1 */
static u32 node_of(struct xrun *x, u32 parent, u32 fid)
{
	u64 key = (u64)parent << 32 | fid;
	uintptr_t id = (uintptr_t)u64map_find(&x->nodes, key);

	if (id)
		return (u32)id;
	x->node_parent = xgrow(x->node_parent, x->nr_nodes + 1, &x->alloc_nodes, sizeof(u32));
	x->node_frame = xgrow(x->node_frame, x->nr_nodes + 1, &x->alloc_nodes2, sizeof(u32));
	x->node_parent[x->nr_nodes] = parent;
	x->node_frame[x->nr_nodes] = fid;
	x->nr_nodes++;
	u64map_set(&x->nodes, key, (void *)(uintptr_t)x->nr_nodes);
	return (u32)x->nr_nodes;
}

static const char *frame_label(const struct xframe *f, char *buf, size_t len)
{
	if (f->name)
		return f->name;
	snprintf(buf, len, "[%s] 0x%" PRIx64, f->dso ? f->dso : "unknown", f->ip);
	return buf;
}

static u64 frame_key(const struct resolved_frame *rf)
{
	return (u64)(uintptr_t)rf->frame * 31 + (u64)(uintptr_t)resolved_frame_dso(rf);
}

/*
 * chrome_node - the stack node of a sample's frames @rfs (leaf first): the
 * part shared with the thread's previous stack is taken from it, the rest
 * looked up (frames and nodes numbered on first sight, as before).
 */
static u32 chrome_node(struct xrun *x, const struct thread *thread,
		       const struct resolved_frame *const *rfs, u32 nr)
{
	struct xthread *t = xthread_of(x, thread);
	bool same = true;
	u32 node = 0, depth = 0;

	if (nr > t->last_alloc) {
		t->last_alloc = nr;
		t->last_keys = xreallocarray(t->last_keys, nr, sizeof(*t->last_keys));
		t->last_nodes = xreallocarray(t->last_nodes, nr, sizeof(*t->last_nodes));
	}
	for (u32 i = nr; i-- > 0; depth++) {
		u64 key = frame_key(rfs[i]);

		if (same && depth < t->last_nr && t->last_keys[depth] == key) {
			node = t->last_nodes[depth];
			continue;
		}
		same = false;
		node = node_of(x, node, xframe_of(x, rfs[i])->id);
		t->last_keys[depth] = key;
		t->last_nodes[depth] = node;
	}
	t->last_nr = depth;
	return node;
}

static void chrome_sample(struct xrun *x, const struct perf_sample *sample, struct evsel *evsel,
			  u32 node)
{
	struct strbuf *sb = &x->sb;
	u64 d = sample->time - x->first_time;
	char frac[4] = { '.', (char)('0' + d / 100 % 10), (char)('0' + d / 10 % 10),
			 (char)('0' + d % 10) };
	if (x->first_sample)
		SB_LIT(sb, "\n{\"name\":");
	else
		SB_LIT(sb, ",\n{\"name\":");
	json_str(sb, evsel->name ? evsel->name : "sample");
	if (evsel->attr.sample_type & PERF_SAMPLE_CPU) {
		SB_LIT(sb, ",\"cpu\":");
		put_dec(sb, sample->cpu);
	}
	SB_LIT(sb, ",\"tid\":");
	put_dec(sb, (u32)sample->tid);
	SB_LIT(sb, ",\"pid\":");
	put_dec(sb, (u32)sample->pid);
	SB_LIT(sb, ",\"ts\":");
	put_dec(sb, d / 1000);
	sb_put(sb, frac, sizeof(frac));
	SB_LIT(sb, ",\"weight\":");
	put_dec(sb, sample->period ? sample->period : 1);
	if (node) {
		SB_LIT(sb, ",\"sf\":\"");
		put_dec(sb, node);
		sb_putc(sb, '"');
	}
	sb_putc(sb, '}');
}

static void chrome_end(struct xrun *x)
{
	struct strbuf *sb = &x->sb;
	char buf[128];

	strbuf_addstr(sb, "\n],\n\"traceEvents\":[");
	for (size_t i = 0; i < x->nr_threads; i++) {
		const struct xthread *t = x->thread_list[i];

		strbuf_addf(sb, "%s\n{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%d,\"tid\":%d,"
				"\"args\":{\"name\":",
			    i ? "," : "", t->pid, t->tid);
		json_str(sb, t->comm);
		strbuf_addstr(sb, "}}");
		if (t->pid == t->tid) {
			strbuf_addf(sb, ",\n{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%d,\"tid\":%d,"
					"\"args\":{\"name\":",
				    t->pid, t->tid);
			json_str(sb, t->comm);
			strbuf_addstr(sb, "}}");
		}
	}
	strbuf_addstr(sb, "\n],\n\"stackFrames\":{");
	for (size_t i = 0; i < x->nr_nodes; i++) {
		const struct xframe *f = x->frames[x->node_frame[i]];

		strbuf_addf(sb, "%s\n\"%zu\":{\"name\":", i ? "," : "", i + 1);
		json_str(sb, frame_label(f, buf, sizeof(buf)));
		strbuf_addstr(sb, ",\"category\":");
		json_str(sb, f->dso ? f->dso : "[unknown]");
		if (x->node_parent[i])
			strbuf_addf(sb, ",\"parent\":\"%u\"", x->node_parent[i]);
		strbuf_addch(sb, '}');
		if (sb->len > (1 << 20))
			flush_sb(x);
	}
	strbuf_addstr(sb, "\n},\n\"displayTimeUnit\":\"ns\",\"otherData\":{\"exporter\":\"sonde data convert --to-chrome\"}}\n");
}

static void speedscope_sample(struct xrun *x, const struct perf_sample *sample,
			      const struct thread *thread, u32 nr)
{
	struct xthread *t = xthread_of(x, thread);

	for (u32 i = nr; i-- > 0;) {
		t->ids = xgrow(t->ids, t->nr_ids + 1, &t->alloc_ids, sizeof(*t->ids));
		t->ids[t->nr_ids++] = x->stack[i];
	}
	t->lens = xgrow(t->lens, t->nr + 1, &t->alloc, sizeof(*t->lens));
	t->times = xgrow(t->times, t->nr + 1, &t->alloc_t, sizeof(*t->times));
	t->lens[t->nr] = nr;
	t->times[t->nr] = sample->time;
	t->nr++;
}

static void speedscope_end(struct xrun *x)
{
	struct strbuf *sb = &x->sb;
	char buf[128];

	strbuf_addstr(sb, "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\n"
			  "\"exporter\":\"sonde data convert --to-speedscope\",\n\"name\":");
	json_str(sb, data_reader_path(x->session->reader));
	strbuf_addstr(sb, ",\n\"activeProfileIndex\":0,\n\"shared\":{\"frames\":[");
	for (size_t i = 0; i < x->nr_frames; i++) {
		const struct xframe *f = x->frames[i];

		strbuf_addstr(sb, i ? ",\n{\"name\":" : "\n{\"name\":");
		json_str(sb, frame_label(f, buf, sizeof(buf)));
		if (f->path) {
			strbuf_addstr(sb, ",\"file\":");
			json_str(sb, f->path);
		}
		strbuf_addch(sb, '}');
		if (sb->len > (1 << 20))
			flush_sb(x);
	}
	strbuf_addstr(sb, "\n]},\n\"profiles\":[");
	for (size_t i = 0; i < x->nr_threads; i++) {
		const struct xthread *t = x->thread_list[i];
		size_t at = 0;

		strbuf_addstr(sb, i ? ",\n{\"type\":\"sampled\",\"name\":" : "\n{\"type\":\"sampled\",\"name\":");
		strbuf_setlen(&x->sb, x->sb.len);
		{
			char name[256];

			snprintf(name, sizeof(name), "%s (%d/%d)", t->comm ? t->comm : "?", t->pid, t->tid);
			json_str(sb, name);
		}
		strbuf_addf(sb, ",\"unit\":\"nanoseconds\",\"startValue\":%" PRIu64 ",\"endValue\":%" PRIu64
				",\"samples\":[",
			    t->nr ? t->times[0] - x->first_time : 0,
			    t->nr ? t->times[t->nr - 1] - x->first_time : 0);
		for (size_t s = 0; s < t->nr; s++) {
			strbuf_addstr(sb, s ? ",[" : "[");
			for (u32 k = 0; k < t->lens[s]; k++)
				strbuf_addf(sb, k ? ",%u" : "%u", t->ids[at + k]);
			at += t->lens[s];
			strbuf_addch(sb, ']');
			if (sb->len > (1 << 20))
				flush_sb(x);
		}
		/* each sample weighs the time to the thread's next one (the last: nothing) */
		strbuf_addstr(sb, "],\"weights\":[");
		for (size_t s = 0; s < t->nr; s++)
			strbuf_addf(sb, s ? ",%" PRIu64 : "%" PRIu64,
				    s + 1 < t->nr ? t->times[s + 1] - t->times[s] : 0);
		strbuf_addstr(sb, "]}");
	}
	strbuf_addstr(sb, "\n]}\n");
}

/* ---- the tool ---- */

static int on_sample(struct tool *tool, struct session *session, const union perf_event *ev,
		     const struct perf_sample *sample, struct evsel *evsel)
{
	struct xrun *x = (struct xrun *)tool;
	const struct resolved_frame *one[1];
	const struct resolved_frame **rfs = one;
	const struct resolved_frame *rf;
	struct addr_location loc;
	u32 nr = 1;

	(void)session;
	(void)ev;
	rf = resolve_sample(&x->res, sample, &loc);
	if (!x->nr_samples)
		x->first_time = sample->time;
	x->last_time = sample->time;
	one[0] = rf;
	if (sample->callchain && (evsel->attr.sample_type & PERF_SAMPLE_CALLCHAIN)) {
		static const struct chain_opts copts = { .unwind = true };

		nr = resolve_sample_callchain(&x->res, loc.thread, sample, evsel->attr.sample_type,
					      &copts, &x->chain);
		if (nr > x->alloc_rfs) {
			x->alloc_rfs = nr;
			x->rfs = xreallocarray(x->rfs, nr, sizeof(*x->rfs));
		}
		rfs = x->rfs;
		for (u32 i = 0; i < nr; i++)
			rfs[i] = &x->chain.frames[i];
	}
	if (x->format != EXPORT_JSON && x->format != EXPORT_CHROME) {
		if (nr > x->alloc_stack) {
			x->alloc_stack = nr;
			x->stack = xreallocarray(x->stack, nr, sizeof(*x->stack));
		}
		for (u32 i = 0; i < nr; i++)
			x->stack[i] = xframe_of(x, rfs[i])->id;
	}
	switch (x->format) {
	case EXPORT_JSON:
		json_sample(x, sample, evsel, loc.thread, rfs, nr);
		break;
	case EXPORT_CHROME:
		chrome_sample(x, sample, evsel, chrome_node(x, loc.thread, rfs, nr));
		break;
	case EXPORT_SPEEDSCOPE:
		speedscope_sample(x, sample, loc.thread, nr);
		break;
	case EXPORT_PPROF:
		pprof_add_sample(x->pprof, x->stack, nr, sample->period);
		break;
	}
	x->first_sample = false;
	x->nr_samples++;
	if (x->sb.len > (1 << 20))
		flush_sb(x);
	else if (x->sb.alloc)
		x->sb.buf[x->sb.len] = '\0';
	return x->err;
}

static int free_val(uint64_t key, void *val, void *arg)
{
	(void)key;
	(void)arg;
	free(val);
	return 0;
}

static int free_thread(uint64_t key, void *val, void *arg)
{
	struct xthread *t = val;

	(void)key;
	(void)arg;
	free(t->ids);
	free(t->lens);
	free(t->times);
	free(t->last_keys);
	free(t->last_nodes);
	free(t);
	return 0;
}

long export_write(struct session *session, enum export_format format, FILE *out,
		  struct data_error *err)
{
	struct xrun x;
	struct evsel *first;
	int ret;

	memset(&x, 0, sizeof(x));
	x.session = session;
	x.format = format;
	x.out = out;
	x.first_sample = true;
	x.tool.sample = on_sample;
	x.tool.ordered = true;
	strbuf_init(&x.sb, 1 << 16);
	u64map_init(&x.frame_ids);
	u64map_init(&x.threads);
	u64map_init(&x.nodes);
	u64map_init(&x.json_frags);
	strbuf_init(&x.json_spare, 0);
	thread_set_comm(&session->machine, machine_findnew_thread(&session->machine, 0, 0), "swapper");
	resolver_init(&x.res, &session->machine, NULL);
	first = evlist_first(session->evlist);
	if (format == EXPORT_JSON)
		json_header(&x);
	else if (format == EXPORT_CHROME)
		strbuf_addstr(&x.sb, "{\"samples\":[");
	else if (format == EXPORT_PPROF)
		x.pprof = pprof_new(first && first->name ? first->name : "samples");
	ret = session_process(session, &x.tool, err);
	if (ret >= 0) {
		switch (format) {
		case EXPORT_JSON:
			strbuf_addstr(&x.sb, x.nr_samples ? "\n\t]\n}\n" : "\n\t]\n}\n");
			break;
		case EXPORT_CHROME:
			chrome_end(&x);
			break;
		case EXPORT_SPEEDSCOPE:
			speedscope_end(&x);
			break;
		case EXPORT_PPROF: {
			char buf[128];

			for (size_t i = 0; i < x.nr_frames; i++) {
				const struct xframe *f = x.frames[i];

				pprof_add_frame(x.pprof, f->id, frame_label(f, buf, sizeof(buf)),
						f->path, f->ip);
			}
			flush_sb(&x);
			if (pprof_write(x.pprof, out, x.first_time, x.last_time - x.first_time))
				x.err = -EIO;
			break;
		}
		}
		flush_sb(&x);
	}
	pprof_free(x.pprof);
	for (size_t i = 0; i < x.nr_frames; i++)
		free(x.frames[i]);
	free(x.frames);
	free(x.stack);
	u64map_for_each(&x.threads, free_thread, NULL);
	u64map_release(&x.threads);
	free(x.thread_list);
	u64map_release(&x.nodes);
	free(x.node_parent);
	free(x.node_frame);
	u64map_release(&x.frame_ids);
	u64map_for_each(&x.json_frags, free_val, NULL);
	u64map_release(&x.json_frags);
	strbuf_release(&x.json_spare);
	free(x.rfs);
	resolver_release(&x.res);
	resolved_chain_release(&x.chain);
	strbuf_release(&x.sb);
	if (ret < 0)
		return ret;
	return x.err ? x.err : x.nr_samples;
}
