/* SPDX-License-Identifier: MIT */
/* Histogram aggregation: hash-keyed entries, children periods, callchain tries, output order. */
#include "session/hists.h"
#include "session/hists-mem.h"

#include "lib/rbtree.h"
#include "lib/xalloc.h"
#include "session/resolve.h"

#include <stdlib.h>
#include <string.h>

struct tf_tree;
static void tf_release(struct tf_tree *t);

static const char *const key_names[SORT_NR_KEYS] = {
	[SORT_COMM] = "comm",	    [SORT_PID] = "pid",		[SORT_DSO] = "dso",
	[SORT_SYM] = "sym",	    [SORT_PARENT] = "parent",	[SORT_CPU] = "cpu",
	[SORT_SOCKET] = "socket",   [SORT_SRCLINE] = "srcline", [SORT_SRCFILE] = "srcfile",
	[SORT_TRACE] = "trace",	    [SORT_TIME] = "time",	[SORT_SYM_SIZE] = "symbol_size",
	[SORT_DSO_SIZE] = "dso_size", [SORT_CGROUP] = "cgroup", [SORT_CGROUP_ID] = "cgroup_id",
	[SORT_WEIGHT] = "weight",   [SORT_LOCAL_WEIGHT] = "local_weight",
	[SORT_TRANSACTION] = "transaction", [SORT_CODE_PAGE_SIZE] = "code_page_size",
	[SORT_INS_LAT] = "ins_lat", [SORT_P_STAGE_CYC] = "p_stage_cyc", [SORT_IPC_NULL] = "ipc_null",
	[SORT_TRACE_FIELDS] = "trace_fields", [SORT_TRACE_FIELDS_RAW] = "trace_fields/raw",
	[SORT_MEM] = "mem", [SORT_SNOOP] = "snoop", [SORT_TLB] = "tlb", [SORT_LOCKED] = "locked",
	[SORT_BLOCKED] = "blocked", [SORT_SYMBOL_DADDR] = "symbol_daddr",
	[SORT_DSO_DADDR] = "dso_daddr", [SORT_LOCAL_INS_LAT] = "local_ins_lat",
	[SORT_DCACHELINE] = "dcacheline", [SORT_PHYS_DADDR] = "phys_daddr",
	[SORT_DATA_PAGE_SIZE] = "data_page_size",
};

int sort_key_parse(const char *name)
{
	if (!strcmp(name, "symbol"))
		return SORT_SYM;
	for (int i = 0; i < SORT_NR_KEYS; i++)
		if (!strcmp(name, key_names[i]))
			return i;
	return -1;
}

const char *sort_key_name(enum sort_key key)
{
	return key < SORT_NR_KEYS ? key_names[key] : "?";
}

void hists_init(struct hists *hists, const struct hists_opts *opts)
{
	memset(hists, 0, sizeof(*hists));
	hists->opts = *opts;
	hists->table_mask = 1023;
	hists->table = xcalloc(hists->table_mask + 1, sizeof(*hists->table));
	hists->alloc_nodes = 1024;
	hists->nodes = xcalloc(hists->alloc_nodes, sizeof(*hists->nodes));
	hists->nr_nodes = 1; /* index 0 means "none" */
	u64map_init(&hists->child_of);
}

void hists_release(struct hists *hists)
{
	for (size_t i = 0; i < hists->nr_chunks; i++)
		free(hists->chunks[i]);
	free(hists->chunks);
	free(hists->entries);
	free(hists->table);
	free(hists->nodes);
	for (u32 i = 0; i < hists->nr_link_chunks; i++)
		free(hists->link_chunks[i]);
	free(hists->link_chunks);
	free(hists->grp_pool);
	free(hists->memo);
	tf_release(hists->tf_tree);
	u64map_release(&hists->child_of);
	memset(hists, 0, sizeof(*hists));
}

static struct hist_entry *entry_alloc(struct hists *hists)
{
	const size_t per_chunk = 4096;
	struct hist_entry *e;

	if (hists->chunk_left < sizeof(*e)) {
		hists->chunk = xmalloc(per_chunk * sizeof(*e));
		hists->chunk_left = per_chunk * sizeof(*e);
		hists->chunks = xgrow(hists->chunks, hists->nr_chunks + 1, &hists->alloc_chunks, sizeof(*hists->chunks));
		hists->chunks[hists->nr_chunks++] = hists->chunk;
	}
	e = (struct hist_entry *)hists->chunk;
	hists->chunk += sizeof(*e);
	hists->chunk_left -= sizeof(*e);
	memset(e, 0, sizeof(*e));
	return e;
}

/* mix - fold @v into the running key hash @h (key_hash finishes it with hash_u64) */
static inline u64 mix(u64 h, u64 v)
{
	h = (h ^ v) * 0x9e3779b97f4a7c15ULL;
	return h ^ (h >> 29);
}

/*
 * entry_dso_name - what perf tells dsos apart by: the short name (the long
 * one with -v), so two copies of a binary, or a chroot's libc and the
 * system's, make one row. Names are interned: compare the pointers.
 */
static const char *entry_dso_name(const struct hists *hists, const struct hist_entry *e)
{
	const struct dso *d = e->frame->dso;

	return d ? (hists->opts.long_dso_names ? d->long_name : d->short_name) : NULL;
}

/* sym_equal - one symbol for perf: same dso name, same symbol range (or raw address) */
static bool sym_equal(const struct hists *hists, const struct hist_entry *a,
		      const struct hist_entry *b)
{
	const struct symbol *sa = a->frame->sym, *sb = b->frame->sym;

	if (a->frame == b->frame)
		return sa || a->addr == b->addr;
	if (entry_dso_name(hists, a) != entry_dso_name(hists, b))
		return false;
	if (sa == sb)
		return sa || a->addr == b->addr;
	return sa && sb && sa->start == sb->start && sa->end == sb->end;
}

u64 hist_entry_sym_size(const struct hist_entry *e)
{
	const struct symbol *sym = e->frame->sym;

	return sym && sym->end > sym->start ? sym->end - sym->start : 0;
}

u64 hist_entry_dso_size(const struct hist_entry *e)
{
	const struct map *m = e->frame->map;
	const struct symsrc *ss;

	if (!m)
		return 0;
	/*
	 * perf's kernel map ends where the last kallsyms symbol it keeps
	 * ends (sonde's runs to the top of the address space)
	 */
	ss = m->dso ? m->dso->ss : NULL;
	if (m->dso && m->dso->is_kernel && ss && ss->kind == SYMSRC_KALLSYMS &&
	    ss->symtab.nr_syms) {
		u64 end = ss->symtab.max_end[ss->symtab.nr_syms - 1];

		if (end > m->start && end < m->end)
			return end - m->start;
	}
	return m->end - m->start;
}

/*
 * sample_key_cmp - the keys that hold a value of the sample (time,
 * sizes, cgroup, weights): <0 when @a goes first (ascending), as perf
 * orders each of them among equal overheads
 */
static int sample_key_cmp(enum sort_key key, const struct hist_entry *a,
			  const struct hist_entry *b)
{
	u64 x, y;

	switch (key) {
	case SORT_TIME:
		x = a->time, y = b->time;
		break;
	case SORT_SYM_SIZE:
		x = hist_entry_sym_size(a), y = hist_entry_sym_size(b);
		break;
	case SORT_DSO_SIZE:
		x = hist_entry_dso_size(a), y = hist_entry_dso_size(b);
		break;
	case SORT_CGROUP:
		x = a->cgroup_id, y = b->cgroup_id;
		break;
	case SORT_CGROUP_ID:
		if (a->ns_dev != b->ns_dev)
			return a->ns_dev < b->ns_dev ? -1 : 1;
		x = a->ns_ino, y = b->ns_ino;
		break;
	case SORT_WEIGHT:
	case SORT_LOCAL_WEIGHT:
		x = a->weight, y = b->weight;
		break;
	case SORT_TRANSACTION:
		x = a->transaction, y = b->transaction;
		break;
	case SORT_CODE_PAGE_SIZE:
		x = a->code_page_size, y = b->code_page_size;
		break;
	case SORT_INS_LAT:
		x = a->ins_lat, y = b->ins_lat;
		break;
	case SORT_P_STAGE_CYC:
		x = a->p_stage_cyc, y = b->p_stage_cyc;
		break;
	case SORT_MEM:
	case SORT_SNOOP:
	case SORT_TLB:
	case SORT_LOCKED:
	case SORT_BLOCKED:
		x = mem_key_field(key, a->data_src), y = mem_key_field(key, b->data_src);
		break;
	case SORT_SYMBOL_DADDR:
	case SORT_DSO_DADDR:
		x = mem_key_daddr(key, a->dframe), y = mem_key_daddr(key, b->dframe);
		break;
	case SORT_LOCAL_INS_LAT:
		x = a->ins_lat, y = b->ins_lat;
		break;
	case SORT_DCACHELINE:
		x = a->daddr & ~63ULL, y = b->daddr & ~63ULL;
		break;
	case SORT_PHYS_DADDR:
		x = a->phys_addr, y = b->phys_addr;
		break;
	case SORT_DATA_PAGE_SIZE:
		x = a->data_page_size, y = b->data_page_size;
		break;
	default:
		return 0;
	}
	return x < y ? -1 : x > y;
}

/* sample_key_value - the value sample_key_cmp compares, for hashing */
static u64 sample_key_value(enum sort_key key, const struct hist_entry *e)
{
	switch (key) {
	case SORT_TIME:
		return e->time;
	case SORT_SYM_SIZE:
		return hist_entry_sym_size(e);
	case SORT_DSO_SIZE:
		return hist_entry_dso_size(e);
	case SORT_CGROUP:
		return e->cgroup_id;
	case SORT_CGROUP_ID:
		return e->ns_dev * 0x100000001b3ULL ^ e->ns_ino;
	case SORT_WEIGHT:
	case SORT_LOCAL_WEIGHT:
		return e->weight;
	case SORT_TRANSACTION:
		return e->transaction;
	case SORT_CODE_PAGE_SIZE:
		return e->code_page_size;
	case SORT_INS_LAT:
		return e->ins_lat;
	case SORT_P_STAGE_CYC:
		return e->p_stage_cyc;
	case SORT_MEM:
	case SORT_SNOOP:
	case SORT_TLB:
	case SORT_LOCKED:
	case SORT_BLOCKED:
		return mem_key_field(key, e->data_src);
	case SORT_SYMBOL_DADDR:
	case SORT_DSO_DADDR:
		return mem_key_daddr(key, e->dframe);
	case SORT_LOCAL_INS_LAT:
		return e->ins_lat;
	case SORT_DCACHELINE:
		return e->daddr & ~63ULL;
	case SORT_PHYS_DADDR:
		return e->phys_addr;
	case SORT_DATA_PAGE_SIZE:
		return e->data_page_size;
	default:
		return 0;
	}
}

static u64 key_hash(const struct hists *hists, const struct hist_entry *k)
{
	u64 h = 0x12345;

	for (int i = 0; i < hists->opts.nr_keys; i++) {
		switch (hists->opts.keys[i]) {
		case SORT_COMM:
			h = mix(h, (u64)(uintptr_t)k->comm);
			break;
		case SORT_PID:
			h = mix(h, (u64)(u32)k->thread->tid);
			break;
		case SORT_DSO:
			h = mix(h, (u64)(uintptr_t)entry_dso_name(hists, k));
			break;
		case SORT_SYM:
		case SORT_SYM_SIZE:
			h = mix(h, (u64)(uintptr_t)entry_dso_name(hists, k));
			if (k->frame->sym)
				h = mix(mix(h, k->frame->sym->start), k->frame->sym->end);
			else
				h = mix(h, k->addr);
			break;
		case SORT_PARENT:
			h = mix(h, (u64)(uintptr_t)k->parent);
			break;
		case SORT_CPU:
			h = mix(h, (u64)(u32)k->cpu);
			break;
		case SORT_SOCKET:
			h = mix(h, (u64)(u32)k->socket);
			break;
		case SORT_SRCLINE:
			h = mix(h, (u64)(uintptr_t)k->srcline);
			break;
		case SORT_SRCFILE:
			h = mix(h, (u64)(uintptr_t)k->srcfile);
			break;
		case SORT_TRACE:
			h = mix(h, (u64)(uintptr_t)k->trace);
			break;
		case SORT_TRACE_FIELDS:
		case SORT_TRACE_FIELDS_RAW:
			h = mix(h, (u64)(uintptr_t)k->tfields);
			break;
		default:
			h = mix(h, sample_key_value(hists->opts.keys[i], k));
			break;
		}
	}
	return hash_u64(h);
}

static bool key_equal(const struct hists *hists, const struct hist_entry *a,
		      const struct hist_entry *b)
{
	for (int i = 0; i < hists->opts.nr_keys; i++) {
		switch (hists->opts.keys[i]) {
		case SORT_COMM:
			if (a->comm != b->comm)
				return false;
			break;
		case SORT_PID:
			if (a->thread->tid != b->thread->tid)
				return false;
			break;
		case SORT_DSO:
			if (a->frame != b->frame &&
			    entry_dso_name(hists, a) != entry_dso_name(hists, b))
				return false;
			break;
		case SORT_SYM:
			if (!sym_equal(hists, a, b))
				return false;
			break;
		case SORT_PARENT:
			if (a->parent != b->parent)
				return false;
			break;
		case SORT_CPU:
			if (a->cpu != b->cpu)
				return false;
			break;
		case SORT_SOCKET:
			if (a->socket != b->socket)
				return false;
			break;
		case SORT_SRCLINE:
			if (a->srcline != b->srcline)
				return false;
			break;
		case SORT_SRCFILE:
			if (a->srcfile != b->srcfile)
				return false;
			break;
		case SORT_TRACE:
			if (a->trace != b->trace)
				return false;
			break;
		case SORT_TRACE_FIELDS:
		case SORT_TRACE_FIELDS_RAW:
			if (a->tfields != b->tfields)
				return false;
			break;
		case SORT_SYM_SIZE:
			/* perf keeps one row per symbol (per address when unresolved) */
			if (!sym_equal(hists, a, b))
				return false;
			break;
		default:
			if (sample_key_cmp(hists->opts.keys[i], a, b))
				return false;
			break;
		}
	}
	return true;
}

static void table_grow(struct hists *hists)
{
	size_t nmask = hists->table_mask * 2 + 1;
	struct hist_entry **nt = xcalloc(nmask + 1, sizeof(*nt));

	for (size_t i = 0; i <= hists->table_mask; i++) {
		struct hist_entry *e = hists->table[i];

		if (!e)
			continue;
		size_t j = e->hash & nmask;

		while (nt[j])
			j = (j + 1) & nmask;
		nt[j] = e;
	}
	free(hists->table);
	hists->table = nt;
	hists->table_mask = nmask;
}

static struct hist_entry *entry_findnew(struct hists *hists, const struct hist_entry *key, u32 pos)
{
	u64 h = key_hash(hists, key);
	size_t i = h & hists->table_mask;
	struct hist_entry *e;

	while ((e = hists->table[i])) {
		if (e->hash == h && key_equal(hists, e, key)) {
			/* perf formats both payloads when a sample meets its entry again */
			e->trace_compared = true;
			return e;
		}
		i = (i + 1) & hists->table_mask;
	}
	e = entry_alloc(hists);
	*e = *key;
	e->hash = h;
	e->seq = (u32)hists->nr_samples;
	e->pos = pos;
	e->period = e->nr_events = e->acc_period = e->acc_events = 0;
	e->chain = 0;
	e->max_depth = 0;
	hists->table[i] = e;
	hists->entries = xgrow(hists->entries, hists->nr_entries + 1, &hists->alloc_entries, sizeof(*hists->entries));
	hists->entries[hists->nr_entries++] = e;
	if (++hists->table_used * 2 > hists->table_mask)
		table_grow(hists);
	return e;
}

/*
 * struct hist_memo - the cumulative entries samples' chains met, by frame.
 * The entries of one sample's chain share every key but the frame's
 * (frame, level, addr): a "context". The memo knows a few recent
 * contexts (checked with key_equal under the same frame), each by an id
 * never given twice; a frame seen again in a context finds the entry
 * entry_findnew() would. Entries going (decay) or moving (sort) drop the
 * contexts, so no older slot matches again.
 */
#define MEMO_BITS 12
#define MEMO_CTX 8

struct hist_memo_slot {
	const struct frame *frame;
	u64 addr;
	struct hist_entry *e;
	u32 ctx;	/* context id, 0: empty */
	char level;
};

struct hist_memo {
	struct hist_entry ctx[MEMO_CTX]; /* a sample's key of each known context */
	u32 ctx_id[MEMO_CTX];
	int nr_ctx, last, next;
	u32 last_id;
	struct hist_memo_slot slots[1u << MEMO_BITS];
};

/* memo_forget - no memo slot is valid any more */
static void memo_forget(struct hists *hists)
{
	if (hists->memo)
		hists->memo->nr_ctx = 0;
}

/* memo_context - the id of the context of a sample whose own key is @key */
static u32 memo_context(struct hists *hists, const struct hist_entry *key)
{
	struct hist_memo *m = hists->memo;
	int i;

	if (!m)
		m = hists->memo = xzalloc(sizeof(*m));
	for (int k = 0; k < m->nr_ctx; k++) {
		i = (m->last + k) % m->nr_ctx;
		m->ctx[i].frame = key->frame;
		m->ctx[i].level = key->level;
		m->ctx[i].addr = key->addr;
		if (key_equal(hists, &m->ctx[i], key)) {
			m->last = i;
			return m->ctx_id[i];
		}
	}
	if (++m->last_id == 0) {
		/* ids ran out: start again with an empty memo */
		memset(m->slots, 0, sizeof(m->slots));
		m->nr_ctx = m->next = 0;
		m->last_id = 1;
	}
	if (m->nr_ctx < MEMO_CTX) {
		i = m->nr_ctx++;
	} else {
		i = m->next;
		m->next = (m->next + 1) % MEMO_CTX;
	}
	m->ctx[i] = *key;
	m->ctx_id[i] = m->last_id;
	m->last = i;
	return m->last_id;
}

/* memo_findnew - entry_findnew() for a chain frame's @key in context @ctx, through the memo */
static struct hist_entry *memo_findnew(struct hists *hists, u32 ctx, const struct hist_entry *key,
				       u32 pos)
{
	u64 h = ((u64)(uintptr_t)key->frame ^ (key->addr + ctx) * 0x9e3779b97f4a7c15ULL) *
		0xff51afd7ed558ccdULL;
	struct hist_memo_slot *sl = &hists->memo->slots[h >> (64 - MEMO_BITS)];
	struct hist_entry *e;

	if (sl->ctx == ctx && sl->frame == key->frame && sl->addr == key->addr &&
	    sl->level == key->level) {
		sl->e->trace_compared = true; /* as entry_findnew() marks a met entry */
		return sl->e;
	}
	e = entry_findnew(hists, key, pos);
	*sl = (struct hist_memo_slot){ key->frame, key->addr, e, ctx, key->level };
	return e;
}

static struct hist_entry *entry_find(const struct hists *hists, const struct hist_entry *key)
{
	u64 h = key_hash(hists, key);
	size_t i = h & hists->table_mask;
	struct hist_entry *e;

	while ((e = hists->table[i])) {
		if (e->hash == h && key_equal(hists, e, key))
			return e;
		i = (i + 1) & hists->table_mask;
	}
	return NULL;
}

void hists_link_group(struct hists *leader, struct hists *const *members, int nr)
{
	size_t n;

	/* dummies for what only the members have */
	for (int m = 1; m < nr; m++) {
		for (size_t i = 0; i < members[m]->nr_entries; i++) {
			const struct hist_entry *me = members[m]->entries[i];

			if (!entry_find(leader, me)) {
				struct hist_entry *e = entry_findnew(leader, me, 0);

				e->seq = UINT32_MAX; /* after the real ones, in their order */
				e->pos = (u32)i;
			}
		}
	}
	n = leader->nr_entries;
	leader->nr_group = nr;
	leader->grp_pool = xcalloc(n * (size_t)nr, sizeof(*leader->grp_pool));
	for (size_t i = 0; i < n; i++) {
		struct hist_entry *e = leader->entries[i];

		e->grp = &leader->grp_pool[i * (size_t)nr];
		for (int m = 0; m < nr; m++) {
			const struct hist_entry *me = m ? entry_find(members[m], e) : e;

			if (me) {
				e->grp[m].period = me->period;
				e->grp[m].nr_events = me->nr_events;
				e->grp[m].acc_period = me->acc_period;
				memcpy(e->grp[m].period_mode, me->period_mode,
				       sizeof(e->grp[m].period_mode));
			}
		}
	}
}

/*
 * struct cc_link - the tree side of callchain node @node (same index): its
 * place in its parent's children tree, the root of its own, and the key
 * the walk compares. Links live in chunks that never move (the nodes'
 * array moves as it grows), and a walk down a chain reads only links.
 */
RB_HEAD(cc_kids, cc_link);

struct cc_link {
	RB_ENTRY(cc_link) rb;
	struct cc_kids kids;
	const struct frame *frame; /* the node's */
	u64 ip;			   /* the raw ip of the chain that made the node */
	u32 node;
};

RBTREE_GENERATE_LINKED(cc_kids, cc_link, rb)

/* a link is one cache line, its chunk line-aligned: a walk reads one line per node */
_Static_assert(sizeof(struct cc_link) == 64, "struct cc_link is one cache line");
#define LINKS_PER_CHUNK 4096u

/* link_at - the link of node @idx */
static inline struct cc_link *link_at(const struct hists *hists, u32 idx)
{
	return &hists->link_chunks[idx / LINKS_PER_CHUNK][idx % LINKS_PER_CHUNK];
}

/* node_new - a node (and its link) for @frame at raw ip @ip, in no tree yet */
static u32 node_new(struct hists *hists, const struct frame *frame, u64 ip)
{
	u32 idx = hists->nr_nodes;
	struct cc_link *l;

	if (idx == hists->alloc_nodes) {
		hists->alloc_nodes *= 2;
		hists->nodes = xreallocarray(hists->nodes, hists->alloc_nodes, sizeof(*hists->nodes));
	}
	if (idx / LINKS_PER_CHUNK == hists->nr_link_chunks) {
		hists->link_chunks = xreallocarray(hists->link_chunks, hists->nr_link_chunks + 1,
						   sizeof(*hists->link_chunks));
		hists->link_chunks[hists->nr_link_chunks++] =
			xaligned_alloc(64, LINKS_PER_CHUNK * sizeof(**hists->link_chunks));
	}
	memset(&hists->nodes[idx], 0, sizeof(*hists->nodes));
	hists->nodes[idx].frame = frame;
	l = link_at(hists, idx);
	RB_INIT(&l->kids);
	l->frame = frame;
	l->ip = ip;
	l->node = idx;
	return hists->nr_nodes++;
}

/*
 * chain_match - perf's match of an existing child @c against the frame @f
 * at raw ip @ip: 0 equal, <0 (MATCH_LT: the walk goes left) when @c sorts
 * before. Dsos by creation (perf: by heap address), then symbol starts when
 * both have a symbol (names for inlined ones), else the raw ips; this
 * mixed order is not total, as in perf.
 */
static int chain_match(const struct cc_link *c, const struct frame *f, u64 ip)
{
	const struct frame *cf = c->frame;
	long dc, df;

	if (cf == f)
		return 0;
	dc = cf->dso ? (long)cf->dso->id : -1;
	df = f->dso ? (long)f->dso->id : -1;
	if (dc != df)
		return dc < df ? -1 : 1;
	if (cf->sym && f->sym) {
		if (cf->inlined || f->inlined) {
			int r = strcmp(cf->sym->name, f->sym->name);

			return r < 0 ? -1 : r > 0;
		}
		return cf->sym->start < f->sym->start ? -1 : cf->sym->start > f->sym->start;
	}
	return c->ip < ip ? -1 : c->ip > ip;
}

/*
 * chain_append - add the path @cur[0..n) (raw ips @ips) to @e's trie with @period, finding children as perf's
 * red-black walk does: it stops at the first match on its path, and a
 * miss links a new child where it ended. Only the end node's hit grows:
 * chains_sum() makes the cumulative periods once, before output.
 */
static void chain_append(struct hists *hists, struct hist_entry *e, const struct frame *const *cur,
			 const u64 *ips, u32 n, u64 period)
{
	struct cc_link *l;
	u32 idx;

	if (!e->chain)
		e->chain = node_new(hists, NULL, 0);
	if (n > e->max_depth)
		e->max_depth = n;
	l = link_at(hists, e->chain);
	for (u32 i = 0; i < n; i++) {
		const struct frame *f = cur[i];
		u64 ip = ips[i];
		struct cc_link *x = RB_ROOT(&l->kids), *parent = NULL;
		int r = 1;

		while (x) {
			r = chain_match(x, f, ip);
			if (!r)
				break;
			parent = x;
			x = r < 0 ? RB_LEFT(x, rb) : RB_RIGHT(x, rb);
		}
		if (!x) {
			u32 c = node_new(hists, f, ip);
			struct cc_node *N = hists->nodes;

			x = link_at(hists, c);
			N[c].next_sibling = N[l->node].first_child;
			N[l->node].first_child = c;
			N[l->node].nr_children++;
			RBTREE_LINK(cc_kids, &l->kids, x, parent, r < 0);
		}
		l = x;
	}
	idx = l->node;
	hists->nodes[idx].hit += period;
	hists->nodes[idx].count++;
}

/*
 * trace_fields widths. perf sizes a __data_loc field's column by the
 * length (its NUL counted) of the values it compared, and it compares
 * while inserting each sample into its input tree (and re-inserting the
 * entries into the collapse tree when comm is a key), reading only the
 * node in the tree. Replay those trees to know which values perf read.
 */
struct tf_node {
	RB_ENTRY(tf_node) rb;
	struct hist_entry *e;
};

RB_HEAD(tf_tree, tf_node);
RBTREE_GENERATE_LINKED(tf_tree, tf_node, rb)

static int merge_cmp(const void *pa, const void *pb, void *arg);
static int key_cmp(const struct hists *hists, enum sort_key key, const struct hist_entry *a,
		   const struct hist_entry *b);

static bool is_fields_key(enum sort_key k)
{
	return k == SORT_TRACE_FIELDS || k == SORT_TRACE_FIELDS_RAW;
}

static bool has_fields_key(const struct hists *hists)
{
	for (int i = 0; i < hists->opts.nr_keys; i++)
		if (is_fields_key(hists->opts.keys[i]))
			return true;
	return false;
}

/* fields_reached - the fields perf reads comparing @a with @b: up to the first that differs */
static u64 fields_reached(const struct hists *hists, const struct hist_entry *a,
			  const struct hist_entry *b)
{
	const char *x, *y;
	u64 bits = 0;

	for (int i = 0; i < hists->opts.nr_keys; i++) {
		if (is_fields_key(hists->opts.keys[i]))
			break;
		if (key_cmp(hists, hists->opts.keys[i], a, b))
			return 0;
	}
	if (!a->tfields || !b->tfields)
		return 0;
	x = a->tfields;
	y = b->tfields;
	for (int f = 0; f < 64 && *x && *y; f++) {
		size_t nx = strcspn(x, " "), ny = strcspn(y, " ");

		bits |= 1ULL << f;
		if (nx != ny || memcmp(x, y, nx))
			break;
		x += nx + (x[nx] == ' ');
		y += ny + (y[ny] == ' ');
	}
	return bits;
}

/* tf_insert - walk @t as perf inserts @e (or a sample of it), marking what it reads; link @n */
static void tf_insert(const struct hists *hists, struct tf_tree *t, struct hist_entry *e,
		      struct tf_node *n)
{
	struct tf_node *x, *parent = NULL;
	bool left = false;

	for (x = RB_ROOT(t); x; x = left ? RB_LEFT(x, rb) : RB_RIGHT(x, rb)) {
		int c = merge_cmp(&e, &x->e, (void *)hists);

		x->e->tf_met |= fields_reached(hists, e, x->e);
		if (!c && x->e == e)
			return;
		parent = x;
		left = c < 0;
	}
	if (n) {
		n->e = e;
		RBTREE_LINK(tf_tree, t, n, parent, left);
	}
}

static void tf_release(struct tf_tree *t)
{
	struct tf_node *x, **v = NULL;
	size_t n = 0, alloc = 0;

	if (!t)
		return;
	/* collected first: the walk climbs through parents */
	RB_FOREACH(x, tf_tree, t) {
		v = xgrow(v, n + 1, &alloc, sizeof(*v));
		v[n++] = x;
	}
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
	free(t);
}

/* tf_collapse - perf's second tree when comm is a key: the entries again, in order */
static void tf_collapse(struct hists *hists)
{
	struct tf_tree fresh = RB_INITIALIZER(&fresh);
	struct tf_node *x, *v;
	size_t n = 0, k = 0;
	bool has_comm = false;

	for (int i = 0; i < hists->opts.nr_keys; i++)
		has_comm |= hists->opts.keys[i] == SORT_COMM;
	if (!hists->tf_tree || !has_comm)
		return;
	RB_FOREACH(x, tf_tree, hists->tf_tree)
		n++;
	v = xmalloc((n ? n : 1) * sizeof(*v));
	RB_FOREACH(x, tf_tree, hists->tf_tree)
		tf_insert(hists, &fresh, x->e, &v[k++]);
	free(v);
}

void hists_chain_cursor(const struct hists *hists, const struct resolved_frame *chain, u32 n,
			const struct frame **frames, u64 *ips)
{
	bool caller = hists->opts.cc.order == ORDER_CALLER;

	for (u32 i = 0; i < n; i++) {
		const struct resolved_frame *rf = &chain[caller ? n - 1 - i : i];

		frames[i] = rf->frame;
		ips[i] = rf->ip;
	}
}

void hists_add(struct hists *hists, const struct hist_sample *hs)
{
	struct hist_entry key;
	struct hist_entry *self;
	const struct frame *stackbuf[128];
	const struct frame *const *cur = stackbuf;
	const u64 *ips;
	u64 ipsbuf[128];
	void *heap_frames = NULL, *heap_ips = NULL;
	u32 n = hs->nr_chain;

	memset(&key, 0, sizeof(key));
	key.thread = hs->thread;
	key.comm = hs->comm ? hs->comm : hs->thread->comm;
	key.frame = hs->frame;
	key.parent = hs->parent;
	key.srcline = hs->srcline;
	key.srcfile = hs->srcfile;
	key.trace = hs->trace;
	key.tfields = hs->tfields;
	key.traw = hs->traw;
	key.tp = hs->tp;
	key.cpu = hs->cpu;
	key.socket = hs->socket;
	key.cgroup = hs->cgroup;
	key.cgroup_id = hs->cgroup_id;
	key.ns_dev = hs->ns_dev;
	key.ns_ino = hs->ns_ino;
	key.time = hs->time;
	key.weight = hs->weight;
	key.transaction = hs->transaction;
	key.data_src = hs->data_src;
	key.dframe = hs->dframe;
	key.daddr = hs->daddr;
	key.phys_addr = hs->phys_addr;
	key.data_page_size = hs->data_page_size;
	key.code_page_size = hs->code_page_size;
	key.ins_lat = hs->ins_lat;
	key.p_stage_cyc = hs->p_stage_cyc;
	key.level = hs->frame->level;
	/* a resolved entry shows (perf -v) the address of the sample that made it */
	key.addr = hs->frame->sym && hs->addr ? hs->addr : hs->frame->addr;
	key.filtered = hs->filtered;

	hists->total_period += hs->period;
	hists->nr_samples++;
	if (!hs->filtered) {
		hists->nr_samples_unfiltered++;
		hists->period_unfiltered += hs->period;
	}
	self = entry_findnew(hists, &key, 0);
	if (hs->tfields && has_fields_key(hists)) {
		if (!hists->tf_tree) {
			hists->tf_tree = xmalloc(sizeof(*hists->tf_tree));
			RB_INIT(hists->tf_tree);
		}
		/* a new entry goes in; a sample of an old one only walks to it */
		tf_insert(hists, hists->tf_tree, self,
			  self->nr_events || self->acc_events ? NULL : xmalloc(sizeof(struct tf_node)));
	}
	self->period += hs->period;
	self->nr_events++;
	self->weight_sum += hs->weight;
	self->ins_lat_sum += hs->ins_lat;
	if (hs->mode >= 0 && hs->mode < 4)
		self->period_mode[hs->mode] += hs->period;
	if (hists->opts.children) {
		self->acc_period += hs->period;
		self->acc_events++;
	}
	if (!n || (!hists->opts.use_callchain && !hists->opts.children))
		return;

	/* the cursor (frames and their raw ips) in display order: the queue's, or made here */
	if (hs->chain_frames) {
		cur = hs->chain_frames;
		ips = hs->chain_ips;
	} else {
		const struct frame **fr = stackbuf;
		u64 *ip = ipsbuf;

		if (n > 128) {
			fr = heap_frames = xmalloc(n * sizeof(*fr));
			ip = heap_ips = xmalloc(n * sizeof(*ip));
		}
		hists_chain_cursor(hists, hs->chain, n, fr, ip);
		cur = fr;
		ips = ip;
	}
	if (hists->opts.use_callchain)
		chain_append(hists, self, cur, ips, n, hs->period);
	if (hists->opts.children) {
		/*
		 * perf counts a frame once per sample, except when time, cgroup,
		 * cgroup_id or code_page_size is a key and the sample has a value
		 * for it: then every frame of the chain adds the sample to its
		 * entry, even the same entry again
		 */
		bool every_frame = false;

		for (int i = 0; i < hists->opts.nr_keys; i++) {
			switch (hists->opts.keys[i]) {
			case SORT_TIME:
				every_frame |= hs->time != 0;
				break;
			case SORT_CGROUP:
				every_frame |= hs->cgroup_id != 0;
				break;
			case SORT_CGROUP_ID:
				every_frame |= hs->ns_dev || hs->ns_ino;
				break;
			case SORT_CODE_PAGE_SIZE:
				every_frame |= hs->code_page_size != 0;
				break;
			default:
				break;
			}
		}
		u32 ctx = memo_context(hists, &key);

		/* the entries this sample counted: stamped with its number (counted once each) */
		self->seen_in = hists->nr_samples;
		for (u32 k = 0; k < n; k++) {
			struct hist_entry *e;

			/*
			 * perf labels a frame outside any map with the level of the
			 * frame before it (the sample's for the first one)
			 */
			key.frame = cur[k];
			if (cur[k]->map)
				key.level = cur[k]->level;
			/* a resolved frame is one per symbol: show this sample's raw ip */
			key.addr = ips[k];
			e = memo_findnew(hists, ctx, &key, k + 1);
			if (e->seen_in == hists->nr_samples && !every_frame)
				continue;
			e->seen_in = hists->nr_samples;
			e->acc_period += hs->period;
			e->acc_events++;
			if (hists->opts.use_callchain)
				chain_append(hists, e, cur + k, ips + k, n - k, hs->period);
		}
	}
	free(heap_frames);
	free(heap_ips);
}

/* ---- output order ----------------------------------------------------- */

static int cmp_str(const char *a, const char *b)
{
	if (a == b)
		return 0;
	if (!a)
		return -1;
	if (!b)
		return 1;
	return strcmp(a, b);
}

static int cmp_u64(u64 a, u64 b)
{
	return a < b ? -1 : a > b;
}

/* frame_dso_name - the name dsos sort by: perf -v compares the long names */
static const char *frame_dso_name(const struct frame *f, bool long_names)
{
	return f->dso ? (long_names ? f->dso->long_name : f->dso->short_name) : NULL;
}

/* key_cmp - one sort key in output order: <0 when @a goes first */
static int key_cmp(const struct hists *hists, enum sort_key key, const struct hist_entry *a,
		   const struct hist_entry *b)
{
	switch (key) {
	case SORT_COMM:
		return cmp_str(a->comm, b->comm);
	case SORT_PID:
		return a->thread->tid - b->thread->tid;
	case SORT_DSO:
		/* perf puts entries without a dso after the others */
		if (!a->frame->dso || !b->frame->dso)
			return !a->frame->dso - !b->frame->dso;
		return cmp_str(frame_dso_name(a->frame, hists->opts.long_dso_names),
			       frame_dso_name(b->frame, hists->opts.long_dso_names));
	case SORT_SYM:
		if (a->frame->sym && b->frame->sym)
			return cmp_str(a->frame->sym->name, b->frame->sym->name);
		if (!a->frame->sym && !b->frame->sym)
			return 0; /* perf's sort sees two unknowns as equal */
		return a->frame->sym ? -1 : 1; /* unresolved last */
	case SORT_PARENT:
		return cmp_str(a->parent && a->parent->sym ? a->parent->sym->name : NULL,
			       b->parent && b->parent->sym ? b->parent->sym->name : NULL);
	case SORT_CPU:
		return a->cpu - b->cpu;
	case SORT_SOCKET:
		return a->socket - b->socket;
	case SORT_SRCLINE:
		return cmp_str(a->srcline, b->srcline);
	case SORT_SRCFILE:
		return cmp_str(a->srcfile, b->srcfile);
	case SORT_TRACE:
		return cmp_str(a->trace, b->trace);
	case SORT_TRACE_FIELDS:
	case SORT_TRACE_FIELDS_RAW:
		/* perf compares the fields' bytes the other way round */
		return cmp_str(b->tfields, a->tfields);
	default:
		return sample_key_cmp(key, a, b);
	}
}

int hists_entry_cmp_keys(const struct hists *hists, const struct hist_entry *a,
			 const struct hist_entry *b)
{
	int c = 0;

	for (int i = 0; i < hists->opts.nr_keys && !c; i++)
		c = key_cmp(hists, hists->opts.keys[i], a, b);
	return c;
}

/*
 * Output order, as perf builds it: the entries are taken in the order of
 * perf's merge tree (ascending by the sort keys' compare functions) and
 * inserted one by one into a red-black tree with the output comparator,
 * equal ones going right. The comparator is not a total order (the
 * caller-above-callee rule applies only within one thread), so the result
 * depends on the insertion order and the tree's shape: both are reproduced
 * here rather than approximated with a sort.
 */

static int cmp_null(const void *l, const void *r)
{
	if (!l && !r)
		return 0;
	return !l ? -1 : 1;
}

static int sign64(s64 v)
{
	return v < 0 ? -1 : v > 0;
}

/* frame_merge_cmp - the dso key, or with @sym the symbol key, in perf's merge order */
static int frame_merge_cmp(const struct hists *hists, const struct hist_entry *a,
			   const struct hist_entry *b, bool sym)
{
	const struct frame *fa = a->frame, *fb = b->frame;
	int c;

	if (sym && !fa->sym && !fb->sym)
		return sign64((s64)(a->addr - b->addr));
	/* symbols compare their dso first */
	if (!fa->dso || !fb->dso)
		c = -cmp_null(fa->dso, fb->dso);
	else
		c = cmp_str(frame_dso_name(fa, hists->opts.long_dso_names),
			    frame_dso_name(fb, hists->opts.long_dso_names));
	if (c || !sym)
		return c;
	if (!fa->sym || !fb->sym)
		return -cmp_null(fa->sym, fb->sym);
	if (fa->sym == fb->sym)
		return 0;
	return fa->sym->start != fb->sym->start ? sign64((s64)(fa->sym->start - fb->sym->start))
						 : sign64((s64)(fa->sym->end - fb->sym->end));
}

/* merge_cmp - perf's merge tree order (<0: @a first) */
static int merge_cmp(const void *pa, const void *pb, void *arg)
{
	const struct hist_entry *a = *(const struct hist_entry *const *)pa;
	const struct hist_entry *b = *(const struct hist_entry *const *)pb;
	const struct hists *hists = arg;
	int c = 0;

	for (int i = 0; i < hists->opts.nr_keys && !c; i++) {
		switch (hists->opts.keys[i]) {
		case SORT_COMM:
			c = cmp_str(a->comm, b->comm);
			break;
		case SORT_PID:
			c = a->thread->tid - b->thread->tid;
			break;
		case SORT_SYM:
			c = frame_merge_cmp(hists, a, b, true);
			break;
		case SORT_DSO:
			c = frame_merge_cmp(hists, a, b, false);
			break;
		case SORT_SYM_SIZE:
			/* one row per symbol: sizes, then as the symbol key */
			c = sample_key_cmp(SORT_SYM_SIZE, a, b);
			if (!c)
				c = frame_merge_cmp(hists, a, b, true);
			break;
		case SORT_PARENT:
			c = cmp_str(a->parent && a->parent->sym ? a->parent->sym->name : NULL,
				    b->parent && b->parent->sym ? b->parent->sym->name : NULL);
			break;
		case SORT_CPU:
			c = a->cpu - b->cpu;
			break;
		case SORT_SOCKET:
			c = a->socket - b->socket;
			break;
		case SORT_SRCLINE:
			c = cmp_str(a->srcline, b->srcline);
			break;
		case SORT_SRCFILE:
			c = cmp_str(a->srcfile, b->srcfile);
			break;
		case SORT_TRACE:
			c = cmp_str(a->trace, b->trace);
			break;
		case SORT_TRACE_FIELDS:
		case SORT_TRACE_FIELDS_RAW:
			c = cmp_str(b->tfields, a->tfields);
			break;
		default:
			c = sample_key_cmp(hists->opts.keys[i], a, b);
			break;
		}
	}
	return c;
}

/*
 * group_cmp - the members' self values after the leader's, as perf's group
 * sort does (the Children column compares the leader's value alone)
 */
static int group_cmp(const struct hists *hists, const struct hist_entry *a,
		     const struct hist_entry *b)
{
	if (!a->grp || !b->grp)
		return 0;
	for (int m = 1; m < hists->nr_group; m++) {
		u64 va = a->grp[m].period;
		u64 vb = b->grp[m].period;

		if (va != vb)
			return va > vb ? 1 : -1;
	}
	return 0;
}

static int children_cmp(const struct hists *hists, const struct hist_entry *a,
			const struct hist_entry *b)
{
	if (a->acc_period != b->acc_period)
		return a->acc_period > b->acc_period ? 1 : -1;
	/* caller above callee, within one thread */
	if (hists->opts.use_callchain && a->thread == b->thread) {
		long r = (long)b->max_depth - (long)a->max_depth;

		if (hists->opts.cc.order == ORDER_CALLER)
			r = -r;
		if (r)
			return r > 0 ? 1 : -1;
	}
	return 0;
}

static int cmp_desc(u64 a, u64 b)
{
	return a != b ? (a > b ? 1 : -1) : 0;
}

/* field_cmp - one -F field or --sort entry in output order: >0 when @a goes first */
static int field_cmp(const struct hists *hists, const struct hist_field *f,
		     const struct hist_entry *a, const struct hist_entry *b)
{
	int c;

	switch (f->type) {
	case COL_CHILDREN:
		return hists->opts.children ? children_cmp(hists, a, b) : 0;
	case COL_OVERHEAD:
	case COL_PERIOD:
		c = cmp_desc(a->period, b->period);
		return c ? c : group_cmp(hists, a, b);
	case COL_SAMPLE:
		return cmp_desc(a->nr_events, b->nr_events);
	case COL_OVERHEAD_SYS:
	case COL_OVERHEAD_US:
	case COL_OVERHEAD_GUEST_SYS:
	case COL_OVERHEAD_GUEST_US: {
		int m = (int)f->type - COL_OVERHEAD_SYS;

		return cmp_desc(a->period_mode[m], b->period_mode[m]);
	}
	default:
		return -key_cmp(hists, f->key, a, b);
	}
}

/* output_cmp - perf's output comparator: >0 when @a goes before @b */
static int output_cmp(const struct hists *hists, const struct hist_entry *a,
		      const struct hist_entry *b)
{
	int c;

	if (hists->opts.nr_fields) {
		/* -F with --sort: the --sort keys order the rows first */
		for (int i = 0; i < hists->opts.nr_sort_first; i++) {
			c = -key_cmp(hists, hists->opts.keys[i], a, b);
			if (c)
				return c;
			/*
			 * Here, and only here, perf orders two unresolved
			 * symbols by the address it prints ("[.] 0x..."),
			 * lowest first; elsewhere they tie.
			 */
			if (hists->opts.keys[i] == SORT_SYM && !a->frame->sym &&
			    !b->frame->sym && a->addr != b->addr)
				return a->addr < b->addr ? 1 : -1;
		}
		/* -F: the fields in their order are the sort list */
		for (int i = 0; i < hists->opts.nr_fields; i++) {
			c = field_cmp(hists, &hists->opts.fields[i], a, b);
			if (c)
				return c;
		}
		return 0;
	}
	if (hists->opts.children && !hists->opts.hide_children) {
		c = children_cmp(hists, a, b);
		if (c)
			return c;
	}
	if (hists->opts.nr_sort_list) {
		/* --sort naming output fields: that list in its order */
		for (int i = 0; i < hists->opts.nr_sort_list; i++) {
			c = field_cmp(hists, &hists->opts.sort_list[i], a, b);
			if (c)
				return c;
		}
		return 0;
	}
	if (a->period != b->period)
		return a->period > b->period ? 1 : -1;
	c = group_cmp(hists, a, b);
	if (c)
		return c;
	c = hists_entry_cmp_keys(hists, a, b);
	return -c;
}

static int prefix_cmp(const void *pa, const void *pb, void *arg)
{
	const struct hist_entry *a = *(const struct hist_entry *const *)pa;
	const struct hist_entry *b = *(const struct hist_entry *const *)pb;
	const struct hists *hists = arg;
	int c = 0;

	for (int i = 0; i < hists->opts.nr_keys && hists->opts.keys[i] != SORT_TRACE && !c; i++)
		c = key_cmp(hists, hists->opts.keys[i], a, b);
	return c;
}

/*
 * mark_compared_traces - perf formats a tracepoint payload lazily, when two
 * entries equal on the keys before "trace" are compared; only those count
 * for the trace column's width. Mark them.
 */
static void mark_compared_traces(struct hists *hists)
{
	size_t n = hists->nr_entries;
	struct hist_entry **v;
	bool has_trace = false;

	for (int i = 0; i < hists->opts.nr_keys; i++)
		has_trace |= hists->opts.keys[i] == SORT_TRACE;
	if (!has_trace || n < 2)
		return;
	v = xmemdup(hists->entries, n * sizeof(*v));
	qsort_r(v, n, sizeof(*v), prefix_cmp, hists);
	for (size_t i = 0; i + 1 < n; i++) {
		if (!prefix_cmp(&v[i], &v[i + 1], hists))
			v[i]->trace_compared = v[i + 1]->trace_compared = true;
	}
	free(v);
}

/* struct order_node - an entry in an ordering tree (an array sized once: nodes never move) */
struct order_node {
	RB_ENTRY(order_node) rb;
	struct hist_entry *e;
};

RB_HEAD(order_tree, order_node);
RBTREE_GENERATE_LINKED(order_tree, order_node, rb)

/*
 * tree_order - reorder @in[0..n) as a red-black tree orders it when the
 * entries go in one by one in that order, each walking left of a node
 * when @goes_left(hists, new, node). The order need not be total: the
 * result is the tree's in-order, as perf's rb insertion leaves it.
 */
static void tree_order(const struct hists *hists, struct hist_entry **in, size_t n,
		       bool (*goes_left)(const struct hists *, const struct hist_entry *,
					 const struct hist_entry *))
{
	struct order_node *v = xmalloc(n * sizeof(*v)), *x;
	struct order_tree root = RB_INITIALIZER(&root);
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		struct order_node *parent = NULL;
		bool left = false;

		for (x = RB_ROOT(&root); x; x = left ? RB_LEFT(x, rb) : RB_RIGHT(x, rb)) {
			parent = x;
			left = goes_left(hists, in[i], x->e);
		}
		v[i].e = in[i];
		RBTREE_LINK(order_tree, &root, &v[i], parent, left);
	}
	RB_FOREACH(x, order_tree, &root)
		in[k++] = x->e;
	free(v);
}

static bool merge_goes_left(const struct hists *hists, const struct hist_entry *a,
			    const struct hist_entry *b)
{
	return merge_cmp(&a, &b, (void *)hists) < 0;
}

static bool output_goes_left(const struct hists *hists, const struct hist_entry *a,
			     const struct hist_entry *b)
{
	return output_cmp(hists, a, b) > 0;
}

/*
 * chains_sum - every node's cumul: its hit plus its children's cumul. A
 * child is made after its parent, so a walk down the indexes meets the
 * children first.
 */
static void chains_sum(struct hists *hists)
{
	struct cc_node *N = hists->nodes;

	for (u32 i = hists->nr_nodes; i-- > 1;) {
		u64 sum = N[i].hit;

		for (u32 c = N[i].first_child; c; c = N[c].next_sibling)
			sum += N[c].cumul;
		N[i].cumul = sum;
	}
}

void hists_sort(struct hists *hists)
{
	memo_forget(hists);
	chains_sum(hists);
	mark_compared_traces(hists);
	tf_collapse(hists);
	size_t n = hists->nr_entries;
	struct hist_entry **in = hists->entries;

	if (n < 2)
		return;
	/*
	 * perf's merge order: entries inserted in creation order into its
	 * entries_in tree, walked in order (and once more through the
	 * collapse tree when comm is a key). An rb-tree, not a sort: with
	 * raw addresses compared by signed difference the order is not total.
	 */
	bool has_comm = false, has_trace = false;

	for (int i = 0; i < hists->opts.nr_keys; i++) {
		has_comm |= hists->opts.keys[i] == SORT_COMM;
		has_trace |= hists->opts.keys[i] == SORT_TRACE;
	}
	if (has_trace) {
		/* merge_cmp does not see the payloads: keep the sorted order there */
		qsort_r(in, n, sizeof(*in), merge_cmp, hists);
	} else {
		tree_order(hists, in, n, merge_goes_left);
		if (has_comm)
			tree_order(hists, in, n, merge_goes_left);
	}
	/* perf's output tree, walked in order */
	tree_order(hists, in, n, output_goes_left);
}

int hists_frame_order(const struct frame *a, const struct frame *b)
{
	long da = a->dso ? (long)a->dso->id : -1, db = b->dso ? (long)b->dso->id : -1;
	u64 xa, xb;

	/* perf's callchain children tree keeps equal siblings highest address first */
	if (da != db)
		return da > db ? -1 : 1;
	/* perf compares symbol starts when both frames have one, else the raw addresses */
	xa = a->sym && b->sym ? a->sym->start : a->ip;
	xb = a->sym && b->sym ? b->sym->start : b->ip;
	return cmp_u64(xb, xa);
}


struct kid_rank {
	u64 cumul;
	u32 pos, node;
};

/* by cumul descending, ties in the tree's order */
static int kid_rank_cmp(const void *pa, const void *pb)
{
	const struct kid_rank *a = pa, *b = pb;

	if (a->cumul != b->cumul)
		return a->cumul > b->cumul ? -1 : 1;
	return a->pos < b->pos ? -1 : a->pos > b->pos;
}

u32 hists_sorted_children(const struct hists *hists, u32 node_idx, u32 **out, size_t *alloc)
{
	const struct cc_node *N = hists->nodes;
	struct cc_link *x;
	u32 nr = 0;

	*out = xgrow(*out, N[node_idx].nr_children, alloc, sizeof(**out));
	/* perf walks its children tree in order, then sorts by cumul (ties keep that order) */
	RB_FOREACH(x, cc_kids, &link_at(hists, node_idx)->kids)
		(*out)[nr++] = x->node;
	if (nr > 1) {
		struct kid_rank *k = xmalloc(nr * sizeof(*k));

		for (u32 i = 0; i < nr; i++)
			k[i] = (struct kid_rank){ N[(*out)[i]].cumul, i, (*out)[i] };
		qsort(k, nr, sizeof(*k), kid_rank_cmp);
		for (u32 i = 0; i < nr; i++)
			(*out)[i] = k[i].node;
		free(k);
	}
	return nr;
}

/* decay - 7/8 of @v, what a live view keeps of a number at each refresh */
static inline u64 decay(u64 v)
{
	return v - (v + 7) / 8;
}

size_t hists_decay(struct hists *hists)
{
	size_t kept = 0, removed;
	u64 total = 0, samples = 0;

	memo_forget(hists);

	for (size_t i = 0; i < hists->nr_entries; i++) {
		struct hist_entry *e = hists->entries[i];

		e->period = decay(e->period);
		e->nr_events = decay(e->nr_events);
		e->acc_period = decay(e->acc_period);
		e->acc_events = decay(e->acc_events);
		for (int m = 0; m < 4; m++)
			e->period_mode[m] = decay(e->period_mode[m]);
		if (!e->period && !e->acc_period)
			continue;
		hists->entries[kept++] = e;
		total += e->period;
		samples += e->nr_events;
	}
	for (u32 n = 1; n < hists->nr_nodes; n++) {
		struct cc_node *node = &hists->nodes[n];

		node->hit = decay(node->hit);
		/* cumul is remade from the hits by hists_sort() (chains_sum) */
		node->count = (u32)decay(node->count);
	}
	removed = hists->nr_entries - kept;
	hists->nr_entries = kept;
	if (removed) {
		/* the hash table again, from the entries that stay */
		memset(hists->table, 0, (hists->table_mask + 1) * sizeof(*hists->table));
		for (size_t i = 0; i < kept; i++) {
			struct hist_entry *e = hists->entries[i];
			size_t j = e->hash & hists->table_mask;

			while (hists->table[j])
				j = (j + 1) & hists->table_mask;
			hists->table[j] = e;
		}
		hists->table_used = kept;
	}
	hists->total_period = hists->period_unfiltered = total;
	hists->nr_samples = hists->nr_samples_unfiltered = samples;
	return removed;
}
