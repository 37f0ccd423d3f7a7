/* SPDX-License-Identifier: MIT */
/* c2c report's model: data_src decoded into access counts, samples grouped by cacheline and offset row. */
#include "session/c2c.h"

#include "core/cpumap.h"
#include "data/reader.h"
#include "lib/xalloc.h"
#include "session/resolve.h"
#include "symbol/srcline.h"
#include "symbol/symtab.h"

#include <stdlib.h>
#include <string.h>

/* the data_src fields (uapi perf_mem_data_src) */
enum {
	OP_LOAD = 0x2, OP_STORE = 0x4,
	LV_NA = 0x1, LV_HIT = 0x2, LV_MISS = 0x4, LV_L1 = 0x8, LV_LFB = 0x10, LV_L2 = 0x20,
	LV_L3 = 0x40, LV_LOC_RAM = 0x80, LV_REM_RAM1 = 0x100, LV_REM_RAM2 = 0x200,
	LV_REM_CCE1 = 0x400, LV_REM_CCE2 = 0x800, LV_IO = 0x1000, LV_UNC = 0x2000,
	SN_HIT = 0x4, SN_HITM = 0x10, SNX_PEER = 0x2,
	LK_LOCKED = 0x2, BLK_DATA = 0x2, BLK_ADDR = 0x4,
};

#define FIELD(v, shift, width) ((unsigned int)(((v) >> (shift)) & ((1u << (width)) - 1)))

/* the MESI state a DRAM hit leaves: shared when another cache held the line */
static void count_mesi(struct c2c_stats *st, unsigned int snoop)
{
	if (snoop & SN_HIT)
		st->ld_shared++;
	else
		st->ld_excl++;
}

static void decode_load(struct c2c_stats *st, unsigned int lvl, unsigned int snoop,
			unsigned int snoopx, bool remote)
{
	bool rmt_cache = (lvl & (LV_REM_CCE1 | LV_REM_CCE2)) || remote;

	if (lvl & LV_UNC)
		st->ld_uncache++;
	if (lvl & LV_IO)
		st->ld_io++;
	if (lvl & LV_MISS)
		st->ld_miss++;
	/* a remote cache's snoop result counts hit or miss */
	if (rmt_cache) {
		if (snoop & SN_HIT)
			st->rmt_hit++;
		else if (snoop & SN_HITM)
			st->rmt_hitm++;
	}
	if (!(lvl & LV_HIT))
		return;
	if (lvl & LV_LFB)
		st->ld_fbhit++;
	if (lvl & LV_L1)
		st->ld_l1hit++;
	if (lvl & LV_L2)
		st->ld_l2hit++;
	if (lvl & LV_L3) {
		st->ld_llchit++;
		if (snoop & SN_HITM)
			st->lcl_hitm++;
	}
	if (lvl & LV_LOC_RAM) {
		st->lcl_dram++;
		count_mesi(st, snoop);
	}
	if ((lvl & (LV_REM_RAM1 | LV_REM_RAM2)) || remote) {
		st->rmt_dram++;
		count_mesi(st, snoop);
	}
	if (snoopx & SNX_PEER) {
		if (lvl & LV_L3)
			st->lcl_peer++;
		if (rmt_cache) {
			st->rmt_peer++;
			st->rmt_hit++;
		}
	}
}

bool c2c_stats_decode(struct c2c_stats *st, u64 data_src, bool has_addr, bool mapped)
{
	unsigned int op = FIELD(data_src, 0, 5), lvl = FIELD(data_src, 5, 14);
	unsigned int snoop = FIELD(data_src, 19, 5), lock = FIELD(data_src, 24, 2);
	unsigned int remote = FIELD(data_src, 37, 1), snoopx = FIELD(data_src, 38, 2);
	unsigned int blk = FIELD(data_src, 40, 3);

	st->nr_entries++;
	if (lock & LK_LOCKED)
		st->locks++;
	if (blk & BLK_DATA)
		st->blk_data++;
	if (blk & BLK_ADDR)
		st->blk_addr++;
	if (op & OP_LOAD) {
		st->load++;
		if (!has_addr) {
			st->ld_noadrs++;
			return false;
		}
		decode_load(st, lvl, snoop, snoopx, remote);
	} else if (op & OP_STORE) {
		st->store++;
		if (!has_addr) {
			st->st_noadrs++;
			return false;
		}
		if (lvl & LV_UNC)
			st->st_uncache++;
		if ((lvl & LV_L1) && (lvl & LV_HIT))
			st->st_l1hit++;
		if ((lvl & LV_L1) && (lvl & LV_MISS))
			st->st_l1miss++;
		if (lvl & LV_NA)
			st->st_na++;
	} else {
		st->noparse++;
		return false;
	}
	if (!mapped)
		st->nomap++;
	return true;
}

void c2c_stats_add(struct c2c_stats *dst, const struct c2c_stats *src)
{
	u32 *d = (u32 *)dst;
	const u32 *s = (const u32 *)src;

	for (size_t i = 0; i < sizeof(*dst) / sizeof(u32); i++)
		d[i] += s[i];
}

u32 c2c_stats_loads(const struct c2c_stats *st)
{
	return st->ld_fbhit + st->ld_l1hit + st->ld_l2hit + st->ld_llchit + st->rmt_hit +
	       st->rmt_hitm + st->lcl_dram + st->rmt_dram;
}

u32 c2c_stats_records(const struct c2c_stats *st)
{
	return c2c_stats_loads(st) + st->st_l1hit + st->st_l1miss + st->st_na;
}

u32 c2c_line_hitm(const struct c2c_stats *st, enum c2c_display display)
{
	switch (display) {
	case C2C_DISPLAY_LCL:
		return st->lcl_hitm;
	case C2C_DISPLAY_RMT:
		return st->rmt_hitm;
	case C2C_DISPLAY_PEER:
		return st->lcl_peer + st->rmt_peer;
	default:
		return st->lcl_hitm + st->rmt_hitm;
	}
}

/* the node of physical address @pa from MEM_TOPOLOGY, -1 when unknown */
static int pa_node(const struct perf_header *h, u64 pa)
{
	u64 block;

	if (!pa || !h->mem_topo.block_size)
		return -1;
	block = pa / h->mem_topo.block_size;
	for (int i = 0; i < h->mem_topo.nr; i++) {
		const struct perf_mem_node *n = &h->mem_topo.nodes[i];

		if (block < n->size && (n->bitmap[block / 64] >> (block % 64)) & 1)
			return (int)n->node;
	}
	return -1;
}

static void bit_set(u64 *map, int bit)
{
	map[bit / 64] |= 1ULL << (bit % 64);
}

static bool entry_match(const struct c2c_opts *o, const struct c2c_entry *e, u64 off,
			const struct perf_sample *s, const struct dso *dso)
{
	return e->offset == off && (!(o->coalesce & C2C_COAL_TID) || e->tid == (int)s->tid) &&
	       (!(o->coalesce & C2C_COAL_PID) || e->pid == (int)s->pid) &&
	       (!(o->coalesce & C2C_COAL_IADDR) || e->ip == s->ip) &&
	       (!(o->coalesce & C2C_COAL_DSO) || e->dso == dso);
}

static struct c2c_line *line_findnew(struct c2c *c, u64 addr, const struct dso *dso)
{
	struct c2c_line *first = u64map_find(&c->lines, addr), *l;

	for (l = first; l; l = l->next)
		if (l->dso == dso)
			return l;
	l = xcalloc(1, sizeof(*l));
	l->addr = addr;
	l->dso = dso;
	l->pa_node = -2;
	l->next = first;
	u64map_set(&c->lines, addr, l);
	c->nr_lines++;
	return l;
}

/* the row of @line for this sample: found by its -c key, or added */
static struct c2c_entry *entry_findnew(struct c2c *c, struct c2c_line *line, u64 off,
				       const struct perf_sample *s, const struct resolved_frame *rf,
				       const char *comm)
{
	const struct dso *dso = resolved_frame_dso(rf);
	struct c2c_entry *e;

	for (u32 i = 0; i < line->nr_entries; i++)
		if (entry_match(&c->opts, line->entries[i], off, s, dso))
			return line->entries[i];
	e = xcalloc(1, sizeof(*e));
	e->offset = off;
	e->pid = (int)s->pid;
	e->tid = (int)s->tid;
	e->ip = s->ip;
	e->frame = rf->frame;
	e->ip_addr = rf->addr;
	e->ip_symoff = rf->symoff;
	e->dso = dso;
	e->comm = comm;
	e->cpus = xcalloc((size_t)(c->nr_cpus + 63) / 64, sizeof(u64));
	e->nodes = xcalloc((size_t)(c->nr_nodes + 63) / 64 + 1, sizeof(u64));
	e->node_st = xcalloc((size_t)c->nr_nodes + 1, sizeof(*e->node_st));
	e->pa_node = -2;
	if (line->nr_entries == line->alloc_entries) {
		line->alloc_entries = line->alloc_entries ? 2 * line->alloc_entries : 8;
		line->entries = xrealloc(line->entries, line->alloc_entries * sizeof(*line->entries));
	}
	line->entries[line->nr_entries++] = e;
	return e;
}

/* PA cnt: the physical address changed since the last sample */
static void count_pa(u64 *last, u32 *cnt, u64 pa)
{
	if (pa != *last) {
		*last = pa;
		(*cnt)++;
	}
}

/* a running mean (the cycles columns) */
static void mean_add(double *mean, u32 *n, u64 v)
{
	(*n)++;
	*mean += ((double)v - *mean) / *n;
}

/* the mean weights of the cycles columns and the per-node counts */
static void entry_account(struct c2c *c, struct c2c_entry *e, const struct c2c_stats *one,
			  const struct perf_sample *s)
{
	bool peer = c->opts.display == C2C_DISPLAY_PEER;
	u32 hitm = one->rmt_hitm + one->lcl_hitm, peers = one->rmt_peer + one->lcl_peer;
	u32 rmt = peer ? one->rmt_peer : one->rmt_hitm, lcl = peer ? one->lcl_peer : one->lcl_hitm;
	int cpu = (int)s->cpu, node;

	if (rmt)
		mean_add(&e->cyc_rmt, &e->nr_rmt, s->weight);
	else if (lcl)
		mean_add(&e->cyc_lcl, &e->nr_lcl, s->weight);
	else if (one->load && !hitm && !peers)
		mean_add(&e->cyc_load, &e->nr_load, s->weight);
	if (cpu >= 0 && cpu < c->nr_cpus)
		bit_set(e->cpus, cpu);
	node = cpu >= 0 && cpu < c->nr_cpus ? c->cpu_node[cpu] : -1;
	if (node >= 0 && node < c->nr_nodes) {
		bit_set(e->nodes, node);
		e->node_st[node].hitm += one->lcl_hitm + one->rmt_hitm;
		e->node_st[node].peer += one->lcl_peer + one->rmt_peer;
		e->node_st[node].store += one->store;
	}
}

static int c2c_sample(struct tool *tool, struct session *session, const union perf_event *ev,
		      const struct perf_sample *s, struct evsel *evsel)
{
	struct c2c *c = (struct c2c *)tool;
	struct addr_location loc;
	const struct resolved_frame *rf, *df;
	struct c2c_stats one = { 0 };
	struct c2c_line *line;
	struct c2c_entry *e;
	bool mapped;
	u64 off;

	(void)session;
	(void)ev;
	(void)evsel;
	rf = resolve_sample(&c->res, s, &loc);
	df = s->addr ? resolver_frame_fb(&c->res, loc.thread, loc.cpumode, s->addr) : NULL;
	mapped = rf->map && df && df->map;
	c2c_stats_decode(&one, s->data_src, s->addr != 0, mapped);
	c2c_stats_add(&c->all, &one);
	/* every sample has its line, unparsed ones and those without an address (line 0) too */
	line = line_findnew(c, s->addr & ~63ULL, df ? resolved_frame_dso(df) : NULL);
	off = s->addr & 63;
	e = entry_findnew(c, line, off, s, rf, loc.thread ? loc.thread->comm : NULL);
	c2c_stats_add(&line->st, &one);
	c2c_stats_add(&e->st, &one);
	count_pa(&line->last_pa, &line->pa_cnt, s->phys_addr);
	count_pa(&e->last_pa, &e->pa_cnt, s->phys_addr);
	if (e->pa_node == -2)
		e->pa_node = pa_node(c->header, s->phys_addr);
	if (line->pa_node == -2)
		line->pa_node = e->pa_node;
	entry_account(c, e, &one, s);
	return 0;
}

/* the cpu -> node table from NUMA_TOPOLOGY */
static void read_topology(struct c2c *c)
{
	const struct perf_header *h = c->header;
	int max_cpu = (int)h->nr_cpus_avail;

	c->nr_nodes = 0;
	for (int i = 0; i < h->nr_numa_nodes; i++) {
		struct cpu_map *m = cpu_map_parse(h->numa_nodes[i].cpus);

		if ((int)h->numa_nodes[i].node + 1 > c->nr_nodes)
			c->nr_nodes = (int)h->numa_nodes[i].node + 1;
		for (int j = 0; m && j < m->nr; j++)
			if (m->map[j] + 1 > max_cpu)
				max_cpu = m->map[j] + 1;
		cpu_map_free(m);
	}
	c->nr_cpus = max_cpu > 0 ? max_cpu : 1;
	c->cpu_node = xmalloc((size_t)c->nr_cpus * sizeof(*c->cpu_node));
	for (int i = 0; i < c->nr_cpus; i++)
		c->cpu_node[i] = -1;
	for (int i = 0; i < h->nr_numa_nodes; i++) {
		struct cpu_map *m = cpu_map_parse(h->numa_nodes[i].cpus);

		for (int j = 0; m && j < m->nr; j++)
			if (m->map[j] >= 0)
				c->cpu_node[m->map[j]] = (int)h->numa_nodes[i].node;
		cpu_map_free(m);
	}
}

void c2c_init(struct c2c *c, struct session *session, const struct c2c_opts *opts)
{
	memset(c, 0, sizeof(*c));
	c->tool.sample = c2c_sample;
	c->tool.ordered = true;
	c->opts = *opts;
	c->header = data_reader_header(session->reader);
	u64map_init(&c->lines);
	resolver_init(&c->res, &session->machine, NULL);
	read_topology(c);
}

static void line_free(struct c2c_line *l)
{
	for (u32 i = 0; i < l->nr_entries; i++) {
		struct c2c_entry *e = l->entries[i];

		free(e->cpus);
		free(e->nodes);
		free(e->node_st);
		free(e->srcline);
		free(e);
	}
	free(l->entries);
	free(l);
}

static int free_lines(uint64_t key, void *val, void *arg)
{
	(void)key;
	(void)arg;
	for (struct c2c_line *l = val, *next; l; l = next) {
		next = l->next;
		line_free(l);
	}
	return 0;
}

void c2c_release(struct c2c *c)
{
	u64map_for_each(&c->lines, free_lines, NULL);
	u64map_release(&c->lines);
	resolver_release(&c->res);
	free(c->sorted);
	free(c->cpu_node);
}

static enum c2c_display sort_display;
static const struct c2c_opts *sort_opts;

static int cmp_u32_desc(u32 a, u32 b)
{
	return a < b ? 1 : a > b ? -1 : 0;
}

static int cmp_line(const void *pa, const void *pb)
{
	const struct c2c_line *a = *(struct c2c_line *const *)pa, *b = *(struct c2c_line *const *)pb;
	int r = cmp_u32_desc(c2c_line_hitm(&a->st, sort_display), c2c_line_hitm(&b->st, sort_display));

	if (r)
		return r;
	/* equal counts: lines in a mapped object first, then by address */
	if (!a->dso != !b->dso)
		return a->dso ? -1 : 1;
	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	if (a->dso != b->dso)
		return a->dso->id < b->dso->id ? -1 : 1;
	return 0;
}

static int cmp_entry(const void *pa, const void *pb)
{
	const struct c2c_entry *a = *(struct c2c_entry *const *)pa, *b = *(struct c2c_entry *const *)pb;
	int r;

	if (a->offset != b->offset)
		return a->offset < b->offset ? -1 : 1;
	r = cmp_u32_desc(c2c_line_hitm(&a->st, sort_display), c2c_line_hitm(&b->st, sort_display));
	if (!r)
		r = cmp_u32_desc(c2c_line_hitm(&a->st, C2C_DISPLAY_TOT), c2c_line_hitm(&b->st, C2C_DISPLAY_TOT));
	if (r)
		return r;
	/* equal counts: the -c keys in their order; pids from the highest, tids, code addresses and objects from the lowest (as perf lists them) */
	for (int i = 0; i < sort_opts->nr_order; i++) {
		switch (sort_opts->order[i]) {
		case C2C_COAL_PID:
			if (a->pid != b->pid)
				return a->pid > b->pid ? -1 : 1;
			break;
		case C2C_COAL_TID:
			if (a->tid != b->tid)
				return a->tid < b->tid ? -1 : 1;
			break;
		case C2C_COAL_IADDR:
			if (a->ip != b->ip)
				return a->ip < b->ip ? -1 : 1;
			break;
		case C2C_COAL_DSO:
			r = strcmp(a->dso ? a->dso->short_name : "", b->dso ? b->dso->short_name : "");
			if (r)
				return r;
			break;
		}
	}
	return 0;
}

static int collect_line(uint64_t key, void *val, void *arg)
{
	struct c2c *c = arg;

	(void)key;
	for (struct c2c_line *l = val; l; l = l->next)
		c->sorted[c->nr_lines++] = l;
	return 0;
}

void c2c_sort(struct c2c *c)
{
	u32 n = c->nr_lines;

	free(c->sorted);
	c->sorted = xcalloc(n + 1, sizeof(*c->sorted));
	c->nr_lines = 0;
	u64map_for_each(&c->lines, collect_line, c);
	sort_display = c->opts.display;
	sort_opts = &c->opts;
	qsort(c->sorted, c->nr_lines, sizeof(*c->sorted), cmp_line);
	for (u32 i = 0; i < c->nr_lines; i++)
		qsort(c->sorted[i]->entries, c->sorted[i]->nr_entries, sizeof(struct c2c_entry *),
		      cmp_entry);
}

const char *c2c_entry_srcline(struct c2c *c, struct c2c_entry *e)
{
	const struct frame *f = e->frame;
	struct srcline sl;
	char buf[4096];

	if (e->srcline)
		return e->srcline;
	/* DWARF's line ("??:0" where it has the address but no line), else the symbol and offset */
	if (f->dso && !resolver_srcline_find(&c->res, f->dso, e->ip_addr, false, &sl))
		srcline_format(&sl, false, buf, sizeof(buf));
	else
		srcline_format_unknown(buf, sizeof(buf), f->sym ? f->sym->name : NULL, e->ip_symoff,
				       f->dso ? f->dso->short_name : "[unknown]", e->ip_addr);
	e->srcline = xstrdup(buf);
	return e->srcline;
}

u32 c2c_shared(const struct c2c *c, struct c2c_stats *out)
{
	u32 n = 0;

	memset(out, 0, sizeof(*out));
	for (u32 i = 0; i < c->nr_lines; i++) {
		const struct c2c_stats *st = &c->sorted[i]->st;

		if (st->lcl_hitm + st->rmt_hitm + st->lcl_peer + st->rmt_peer) {
			c2c_stats_add(out, st);
			n++;
		}
	}
	return n;
}
