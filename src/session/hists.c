/* SPDX-License-Identifier: MIT */
/* Histogram entries: sort-key names, the hash-keyed entry table, samples added (self and children), decay. */
#include "session/hists.h"
#include "session/hists-internal.h"
#include "session/hists-mem.h"

#include "lib/rbtree.h"
#include "lib/xalloc.h"
#include "session/resolve.h"

#include <stdlib.h>
#include <string.h>

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
	hists_links_release(hists);
	free(hists->grp_pool);
	free(hists->memo);
	hists_chain_memos_release(hists);
	hists_tf_release(hists->tf_tree);
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
 * hists_sample_key_cmp - the keys that hold a value of the sample (time,
 * sizes, cgroup, weights): <0 when @a goes first (ascending), as perf
 * orders each of them among equal overheads
 */
int hists_sample_key_cmp(enum sort_key key, const struct hist_entry *a,
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

/* sample_key_value - the value hists_sample_key_cmp compares, for hashing */
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
			if (hists_sample_key_cmp(hists->opts.keys[i], a, b))
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
			/* perf formats both lazy keys when a sample meets its entry again */
			e->lazy_compared = HIST_LAZY_ALL;
			return e;
		}
		i = (i + 1) & hists->table_mask;
	}
	e = entry_alloc(hists);
	*e = *key;
	if (e->thread)
		e->thread->nr_entries++;
	e->hash = h;
	e->seq = (u32)hists->nr_samples;
	e->pos = pos;
	e->period = e->nr_events = e->acc_period = e->acc_events = 0;
	e->chain = 0;
	e->chain_memo = 0;
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

/* hists_memo_forget - no memo slot is valid any more */
void hists_memo_forget(struct hists *hists)
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
		sl->e->lazy_compared = HIST_LAZY_ALL; /* as entry_findnew() marks a met entry */
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
	if (hs->tfields && hists_has_fields_key(hists)) {
		if (!hists->tf_tree) {
			hists->tf_tree = xmalloc(sizeof(*hists->tf_tree));
			RB_INIT(hists->tf_tree);
		}
		/* a new entry goes in; a sample of an old one only walks to it */
		hists_tf_insert(hists, hists->tf_tree, self,
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
		hists_chain_append(hists, self, cur, ips, n, hs->period);
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
				hists_chain_append(hists, e, cur + k, ips + k, n - k, hs->period);
		}
	}
	free(heap_frames);
	free(heap_ips);
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

	hists_memo_forget(hists);

	for (size_t i = 0; i < hists->nr_entries; i++) {
		struct hist_entry *e = hists->entries[i];

		e->period = decay(e->period);
		e->nr_events = decay(e->nr_events);
		e->acc_period = decay(e->acc_period);
		e->acc_events = decay(e->acc_events);
		for (int m = 0; m < 4; m++)
			e->period_mode[m] = decay(e->period_mode[m]);
		if (!e->period && !e->acc_period) {
			if (e->thread)
				e->thread->nr_entries--;
			continue;
		}
		hists->entries[kept++] = e;
		total += e->period;
		samples += e->nr_events;
	}
	for (u32 n = 1; n < hists->nr_nodes; n++) {
		struct cc_node *node = &hists->nodes[n];

		node->hit = decay(node->hit);
		/* cumul is remade from the hits by hists_sort() (hists_chains_sum) */
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

/* table_put - @e into the lookup table, which has room (it was cleared) */
static void table_put(struct hists *hists, struct hist_entry *e)
{
	size_t j = e->hash & hists->table_mask;

	while (hists->table[j])
		j = (j + 1) & hists->table_mask;
	hists->table[j] = e;
	hists->table_used++;
}

/* entry_merge - @src's numbers into @dst (a live view's entries that became one) */
static void entry_merge(struct hist_entry *dst, const struct hist_entry *src)
{
	dst->period += src->period;
	dst->nr_events += src->nr_events;
	dst->acc_period += src->acc_period;
	dst->acc_events += src->acc_events;
	dst->weight_sum += src->weight_sum;
	dst->ins_lat_sum += src->ins_lat_sum;
	for (int m = 0; m < 4; m++)
		dst->period_mode[m] += src->period_mode[m];
	if (src->seen_in > dst->seen_in)
		dst->seen_in = src->seen_in;
	dst->filtered = dst->filtered && src->filtered;
	dst->lazy_compared = HIST_LAZY_ALL;
	/* one callchain tree per entry: @src's goes when @dst has one (its nodes decay away) */
	if (!dst->chain) {
		dst->chain = src->chain;
		dst->max_depth = src->max_depth;
	}
}

size_t hists_remap_frames(struct hists *hists, hists_remap_fn *remap, void *arg)
{
	struct hist_entry **moved;
	size_t nr_moved = 0, kept = 0, merged = 0;

	/* trace_fields' input tree and group views hold entries: not for live views */
	if (hists->tf_tree || hists->nr_group || !hists->nr_entries)
		return 0;
	moved = xmalloc(hists->nr_entries * sizeof(*moved));
	for (size_t i = 0; i < hists->nr_entries; i++) {
		struct hist_entry *e = hists->entries[i];
		const struct frame *f = remap(arg, e->frame);
		const struct frame *p = e->parent ? remap(arg, e->parent) : NULL;

		if (f == e->frame && p == e->parent) {
			hists->entries[kept++] = e;
			continue;
		}
		/*
		 * --children: an unresolved sample's own entry (map-relative
		 * address) and its chain's first frame (raw address) were two
		 * entries, each counting the sample; as one symbol they count it once
		 */
		if (hists->opts.children && !e->pos && !e->frame->sym && f->sym) {
			e->acc_period -= e->acc_period > e->period ? e->period : e->acc_period;
			e->acc_events -= e->acc_events > e->nr_events ? e->nr_events : e->acc_events;
		}
		e->frame = f;
		e->parent = p;
		moved[nr_moved++] = e;
	}
	if (nr_moved) {
		hists_memo_forget(hists);
		memset(hists->table, 0, (hists->table_mask + 1) * sizeof(*hists->table));
		hists->table_used = 0;
		/* the entries that stay as they were are unique among themselves */
		for (size_t i = 0; i < kept; i++)
			table_put(hists, hists->entries[i]);
		for (size_t i = 0; i < nr_moved; i++) {
			struct hist_entry *e = moved[i], *same;

			e->hash = key_hash(hists, e);
			same = entry_find(hists, e);
			if (same) {
				entry_merge(same, e);
				if (e->thread)
					e->thread->nr_entries--;
				merged++;
				continue;
			}
			table_put(hists, e);
			hists->entries[kept++] = e;
		}
		hists->nr_entries = kept;
	}
	free(moved);
	return merged;
}

void hists_release_live(struct hists *hists)
{
	for (size_t i = 0; i < hists->nr_entries; i++)
		if (hists->entries[i]->thread)
			hists->entries[i]->thread->nr_entries--;
	hists_release(hists);
}
