/* SPDX-License-Identifier: MIT */
/* Samples folded into a trie of frame names, stackcollapse-perf.pl's way: a session tool. */
#include "session/stacks.h"

#include "core/evlist.h"
#include "core/evsel.h"
#include "data/reader.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

void stacks_init(struct stacks *st, const struct stack_opts *opts)
{
	memset(st, 0, sizeof(*st));
	if (opts)
		st->opts = *opts;
	u64map_init(&st->children);
	strpool_init(&st->names);
	u64map_init(&st->name_ids);
	st->nodes = xgrow(NULL, 1024, &st->alloc_nodes, sizeof(*st->nodes));
	memset(&st->nodes[0], 0, sizeof(st->nodes[0]));
	st->nodes[0].name = strpool_intern(&st->names, "");
	st->nr_nodes = 1;
}

void stacks_release(struct stacks *st)
{
	free(st->nodes);
	u64map_release(&st->children);
	u64map_release(&st->name_ids);
	strpool_release(&st->names);
	memset(st, 0, sizeof(*st));
}

void stack_filter_init(struct stack_filter *f)
{
	memset(f, 0, sizeof(*f));
	u64map_init(&f->pids);
	u64map_init(&f->tids);
	strvec_init(&f->comms);
	strvec_init(&f->dsos);
}

void stack_filter_release(struct stack_filter *f)
{
	u64map_release(&f->pids);
	u64map_release(&f->tids);
	strvec_clear(&f->comms);
	strvec_clear(&f->dsos);
	cpu_bitmap_release(&f->cpus);
	free(f->spans);
	memset(f, 0, sizeof(*f));
}

/* name_id - the number of @in (interned in st->names), given on first sight */
static u32 name_id(struct stacks *st, const char *in)
{
	uintptr_t id = (uintptr_t)u64map_find(&st->name_ids, (u64)(uintptr_t)in);

	if (!id) {
		id = ++st->nr_names;
		u64map_set(&st->name_ids, (u64)(uintptr_t)in, (void *)id);
	}
	return (u32)id;
}

/* child_of - the child of @parent named @in (interned, number @id), made if new */
static u32 child_of(struct stacks *st, u32 parent, const char *in, u32 id)
{
	uintptr_t idx;
	u64 key = (u64)parent << 32 | id;

	idx = (uintptr_t)u64map_find(&st->children, key);
	if (idx)
		return (u32)(idx - 1);
	if (st->nr_nodes == st->alloc_nodes)
		st->nodes = xgrow(st->nodes, st->nr_nodes + 1, &st->alloc_nodes, sizeof(*st->nodes));
	memset(&st->nodes[st->nr_nodes], 0, sizeof(st->nodes[0]));
	st->nodes[st->nr_nodes].name = in;
	st->nodes[st->nr_nodes].parent = parent;
	st->nodes[st->nr_nodes].name_id = id;
	u64map_set(&st->children, key, (void *)(uintptr_t)(st->nr_nodes + 1));
	return st->nr_nodes++;
}

u32 stacks_child(struct stacks *st, u32 parent, const char *name, size_t len)
{
	const char *in = strpool_intern_len(&st->names, name, len);

	return child_of(st, parent, in, name_id(st, in));
}

/* one name tidied: ';' -> ':', the argument list dropped, quotes removed */
static void tidy_one(struct strbuf *out, const char *s, size_t len, bool java)
{
	size_t start = out->len, cut = len;
	bool go_method = false;

	/* a Go method "pkg.(*T).M": ".(" with ")." after it keeps its parens */
	for (size_t i = 0; i + 1 < len && !go_method; i++) {
		if (s[i] != '.' || s[i + 1] != '(')
			continue;
		for (size_t j = i + 2; j + 1 < len; j++)
			if (s[j] == ')' && s[j + 1] == '.') {
				go_method = true;
				break;
			}
	}
	if (!go_method) {
		static const char anon[] = "anonymous namespace)";

		for (size_t i = 0; i < len; i++) {
			if (s[i] != '(')
				continue;
			if (len - i - 1 >= sizeof(anon) - 1 && !memcmp(s + i + 1, anon, sizeof(anon) - 1))
				continue;
			cut = i;
			break;
		}
	}
	for (size_t i = 0; i < cut; i++) {
		char c = s[i];

		if (c == '"' || c == '\'')
			continue;
		strbuf_addch(out, c == ';' ? ':' : c);
	}
	/* Java's "Lorg/x/Y;.m" is "org/x/Y:.m" */
	if (java && out->buf[start] == 'L' && memchr(out->buf + start, '/', out->len - start)) {
		memmove(out->buf + start, out->buf + start + 1, out->len - start - 1);
		strbuf_setlen(out, out->len - 1);
	}
}

bool stacks_fold_name(struct strbuf *out, const char *sym, const char *dso, bool java)
{
	const char *name = sym ? sym : "[unknown]";
	const char *mod = dso ? dso : "[unknown]";
	bool first = true;

	if (name[0] == '(')
		return false;
	for (const char *p = name;;) {
		const char *arrow = strstr(p, "->");
		size_t len = arrow ? (size_t)(arrow - p) : strlen(p);

		if (!first)
			strbuf_addch(out, '\n');
		if (len == 9 && !memcmp(p, "[unknown]", 9) && strcmp(mod, "[unknown]")) {
			const char *base = strrchr(mod, '/');
			struct strbuf tmp = STRBUF_INIT;

			strbuf_addch(&tmp, '[');
			strbuf_addstr(&tmp, base ? base + 1 : mod);
			strbuf_addch(&tmp, ']');
			tidy_one(out, tmp.buf, tmp.len, java);
			strbuf_release(&tmp);
		} else {
			tidy_one(out, p, len, java);
		}
		if (!first)
			strbuf_addstr(out, "_[i]");
		first = false;
		if (!arrow)
			break;
		p = arrow + 2;
	}
	return true;
}

u64 *stacks_totals(const struct stacks *st)
{
	u64 *incl = xcalloc((size_t)st->nr_nodes * 2, sizeof(*incl));

	for (u32 i = st->nr_nodes; i-- > 0;) {
		const struct stack_node *n = &st->nodes[i];

		incl[2 * i] += n->self[0];
		incl[2 * i + 1] += n->self[1];
		if (i) {
			incl[2 * n->parent] += incl[2 * i];
			incl[2 * n->parent + 1] += incl[2 * i + 1];
		}
	}
	return incl;
}

/* ---- the session tool ---- */

/* a machine frame's folded names, cached per frame (and its map's dso) */
struct fold_entry {
	const struct dso *dso;
	u8 kind;
	bool skip;
	u32 nr;
	const char **names; /* interned in the stacks' pool */
	u32 *ids;	    /* their numbers */
};

struct collect {
	struct tool tool; /* first */
	struct stacks *st;
	struct stack_filter *f;
	struct session *session;
	struct resolver res;
	struct resolved_chain chain;
	struct evsel *evsel; /* the event shown, once chosen */
	int side;
	struct u64map entries; /* frame pointer -> struct fold_entry * */
	const char **path;     /* one sample's names, root first */
	u32 *ids;
	u8 *kinds;
	size_t alloc_path;
	struct strbuf sb;
	struct u64map roots;   /* comm pointer -> root name (without --pid/--tid) */
};

static u8 frame_kind(const struct resolved_frame *rf)
{
	const struct dso *dso = resolved_frame_dso(rf);
	u8 kind = 0;

	if (rf->frame->inlined)
		kind |= STACK_KIND_INLINED;
	if (dso && dso->is_kernel)
		kind |= STACK_KIND_KERNEL;
	else if (dso && dso->is_jit)
		kind |= STACK_KIND_JIT;
	else
		kind |= STACK_KIND_USER;
	if (!resolved_frame_sym(rf))
		kind |= STACK_KIND_UNKNOWN;
	return kind;
}

static void entry_fill(struct collect *c, struct fold_entry *e, const struct resolved_frame *rf,
		       bool java)
{
	const struct symbol *sym = resolved_frame_sym(rf);
	const struct dso *dso = resolved_frame_dso(rf);
	/* perf script shows an inlined function " (inlined)": its "module" */
	const char *mod = rf->frame->inlined ? "inlined" : dso ? dso->long_name : NULL;
	size_t alloc = 0;

	memset(e, 0, sizeof(*e));
	e->dso = dso;
	e->kind = frame_kind(rf);
	strbuf_setlen(&c->sb, 0);
	if (!stacks_fold_name(&c->sb, sym ? sym->name : NULL, mod, java)) {
		e->skip = true;
		return;
	}
	for (char *p = c->sb.buf;;) {
		char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		size_t a2 = alloc;

		e->names = xgrow(e->names, e->nr + 1, &alloc, sizeof(*e->names));
		e->ids = xgrow(e->ids, e->nr + 1, &a2, sizeof(*e->ids));
		e->names[e->nr] = strpool_intern_len(&c->st->names, p, len);
		e->ids[e->nr] = name_id(c->st, e->names[e->nr]);
		e->nr++;
		if (!nl)
			break;
		p = nl + 1;
	}
}

static const struct fold_entry *entry_of(struct collect *c, const struct resolved_frame *rf,
					 bool java, struct fold_entry *scratch)
{
	struct fold_entry *e;

	if (java) {
		free(scratch->names);
		free(scratch->ids);
		entry_fill(c, scratch, rf, true);
		return scratch;
	}
	e = u64map_find(&c->entries, (u64)(uintptr_t)rf->frame);
	if (e && e->dso == resolved_frame_dso(rf))
		return e;
	if (e) { /* the same frame under another map: not cached */
		free(scratch->names);
		free(scratch->ids);
		entry_fill(c, scratch, rf, false);
		return scratch;
	}
	e = xmalloc(sizeof(*e));
	entry_fill(c, e, rf, false);
	u64map_set(&c->entries, (u64)(uintptr_t)rf->frame, e);
	return e;
}

static void path_push(struct collect *c, size_t *n, const char *name, u32 id, u8 kind)
{
	if (*n == c->alloc_path) {
		size_t a = c->alloc_path;

		c->path = xgrow(c->path, *n + 1, &a, sizeof(*c->path));
		c->kinds = xreallocarray(c->kinds, a, sizeof(*c->kinds));
		c->ids = xreallocarray(c->ids, a, sizeof(*c->ids));
		c->alloc_path = a;
	}
	c->path[*n] = name;
	c->ids[*n] = id;
	c->kinds[*n] = kind;
	(*n)++;
}

static bool in_list(const struct strvec *sv, const char *s)
{
	for (size_t i = 0; s && i < sv->nr; i++)
		if (!strcmp(sv->v[i], s))
			return true;
	return false;
}

static bool dso_listed(const struct strvec *sv, const struct dso *dso)
{
	const char *base;

	if (!dso)
		return false;
	base = strrchr(dso->long_name, '/');
	return in_list(sv, dso->long_name) || in_list(sv, dso->short_name) ||
	       (base && in_list(sv, base + 1));
}

/* the process-name root, stackcollapse's way: spaces made '_' */
static const char *root_name(struct collect *c, const struct thread *thread)
{
	struct strbuf *sb = &c->sb;
	bool plain = !c->st->opts.tid && !c->st->opts.pid;
	const char *name;

	if (plain && (name = u64map_find(&c->roots, (u64)(uintptr_t)thread->comm)))
		return name;
	strbuf_setlen(sb, 0);
	strbuf_addstr(sb, thread->comm ? thread->comm : "");
	if (c->st->opts.tid)
		strbuf_addf(sb, "-%d/%d", thread->pid, thread->tid);
	else if (c->st->opts.pid)
		strbuf_addf(sb, "-%d", thread->pid);
	for (size_t i = 0; i < sb->len; i++)
		if (sb->buf[i] == ' ')
			sb->buf[i] = '_';
	name = strpool_intern_len(&c->st->names, sb->buf, sb->len);
	if (plain)
		u64map_set(&c->roots, (u64)(uintptr_t)thread->comm, (void *)name);
	return name;
}

static int on_sample(struct tool *tool, struct session *session, const union perf_event *ev,
		     const struct perf_sample *sample, struct evsel *evsel)
{
	struct collect *c = (struct collect *)tool;
	struct stacks *st = c->st;
	struct stack_filter *f = c->f;
	struct addr_location loc;
	const struct resolved_frame *rf;
	struct thread *thread;
	struct fold_entry scratch = { 0 };
	const char *comm_root;
	bool java;
	size_t n = 0;
	u32 node = 0;
	u64 weight;

	(void)session;
	(void)ev;
	if (!time_spans_include(f->spans, f->nr_spans, sample->time) ||
	    !cpu_bitmap_has(&f->cpus, sample->cpu))
		return 0;
	if (c->evsel && evsel != c->evsel)
		return 0;
	if (!c->evsel && f->event && (!evsel->name || strcmp(evsel->name, f->event)))
		return 0;
	rf = resolve_sample(&c->res, sample, &loc);
	thread = loc.thread;
	if (f->comms.nr && !in_list(&f->comms, thread->comm))
		return 0;
	if (f->has_pids && !u64map_find(&f->pids, (u64)(s64)thread->pid))
		return 0;
	if (f->has_tids && !u64map_find(&f->tids, (u64)(s64)thread->tid))
		return 0;
	if (f->dsos.nr && !dso_listed(&f->dsos, resolved_frame_dso(rf)))
		return 0;
	if (!c->evsel) {
		c->evsel = evsel;
		if (!st->event)
			st->event = strpool_intern(&st->names, evsel->name ? evsel->name : "unknown");
	}
	comm_root = root_name(c, thread);
	java = !strcmp(comm_root, "java");
	if (!st->opts.no_comm)
		path_push(c, &n, comm_root, name_id(st, comm_root), STACK_KIND_COMM);
	if (sample->callchain && (evsel->attr.sample_type & PERF_SAMPLE_CALLCHAIN)) {
		struct chain_opts copts = { .bad_context_empties = true, .unwind = true,
					    .max_stack = st->opts.max_stack };
		u32 nr = resolve_sample_callchain(&c->res, thread, sample, evsel->attr.sample_type,
						  &copts, &c->chain);

		for (u32 k = nr; k-- > 0;) {
			const struct fold_entry *e = entry_of(c, &c->chain.frames[k], java, &scratch);

			for (u32 j = 0; !e->skip && j < e->nr; j++)
				path_push(c, &n, e->names[j], e->ids[j], e->kind);
		}
	} else {
		const struct fold_entry *e = entry_of(c, rf, java, &scratch);

		for (u32 j = 0; !e->skip && j < e->nr; j++)
			path_push(c, &n, e->names[j], e->ids[j], e->kind);
	}
	free(scratch.names);
	free(scratch.ids);
	if (!n)
		return 0;
	if (st->opts.reverse)
		for (size_t i = 0; i < n / 2; i++) {
			const char *t = c->path[i];
			u32 id = c->ids[i];
			u8 k = c->kinds[i];

			c->path[i] = c->path[n - 1 - i];
			c->ids[i] = c->ids[n - 1 - i];
			c->kinds[i] = c->kinds[n - 1 - i];
			c->path[n - 1 - i] = t;
			c->ids[n - 1 - i] = id;
			c->kinds[n - 1 - i] = k;
		}
	for (size_t i = 0; i < n; i++) {
		node = child_of(st, node, c->path[i], c->ids[i]);
		st->nodes[node].kind |= c->kinds[i];
	}
	weight = st->opts.period ? sample->period : 1;
	st->nodes[node].self[c->side] += weight;
	st->nodes[node].samples[c->side]++;
	st->total[c->side] += weight;
	st->nr_samples[c->side]++;
	if (!st->first_time[c->side] || sample->time < st->first_time[c->side])
		st->first_time[c->side] = sample->time;
	if (sample->time > st->last_time[c->side])
		st->last_time[c->side] = sample->time;
	return 0;
}

static int entry_free(uint64_t key, void *val, void *arg)
{
	struct fold_entry *e = val;

	(void)key;
	(void)arg;
	free(e->names);
	free(e->ids);
	free(e);
	return 0;
}

int stacks_add_file(struct stacks *st, struct session *session, struct stack_filter *filter,
		    int side, struct data_error *err)
{
	struct collect c;
	int ret;

	memset(&c, 0, sizeof(c));
	c.st = st;
	c.f = filter;
	c.session = session;
	c.side = side;
	c.tool.sample = on_sample;
	c.tool.ordered = true;
	strbuf_init(&c.sb, 256);
	u64map_init(&c.entries);
	u64map_init(&c.roots);
	/* perf names the idle task "swapper" before reading any record */
	thread_set_comm(&session->machine, machine_findnew_thread(&session->machine, 0, 0),
			"swapper");
	resolver_init(&c.res, &session->machine, NULL);
	ret = session_process(session, &c.tool, err);
	resolver_release(&c.res);
	resolved_chain_release(&c.chain);
	u64map_for_each(&c.entries, entry_free, NULL);
	u64map_release(&c.entries);
	u64map_release(&c.roots);
	strbuf_release(&c.sb);
	free(c.path);
	free(c.ids);
	free(c.kinds);
	return ret < 0 ? ret : 0;
}
