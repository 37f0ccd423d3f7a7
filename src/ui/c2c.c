/* SPDX-License-Identifier: MIT */
/* c2c report --stdio: perf's statistics tables, the cacheline table and the per-offset Pareto. */
#include "ui/c2c.h"

#include "core/evlist.h"
#include "core/evsel.h"
#include "lib/strbuf.h"
#include "symbol/symtab.h"

#include <inttypes.h>
#include <string.h>

static const char rule[] = "=================================================";

static void banner(FILE *fp, const char *title)
{
	fprintf(fp, "%s\n%s\n%s\n", rule, title, rule);
}

static void count_line(FILE *fp, const char *label, u32 v)
{
	fprintf(fp, "  %-34s: %10u\n", label, v);
}

static void pct_line(FILE *fp, const char *label, u32 part, u32 whole)
{
	fprintf(fp, "  %-34s: %10.1f%%\n", label, (double)part / (double)whole * 100.0);
}

static void print_trace_info(FILE *fp, const struct c2c_stats *s)
{
	u32 llc_misses = s->lcl_dram + s->rmt_dram + s->rmt_hit + s->rmt_hitm;

	banner(fp, "            Trace Event Information              ");
	count_line(fp, "Total records", s->nr_entries);
	count_line(fp, "Locked Load/Store Operations", s->locks);
	count_line(fp, "Load Operations", s->load);
	count_line(fp, "Loads - uncacheable", s->ld_uncache);
	count_line(fp, "Loads - IO", s->ld_io);
	count_line(fp, "Loads - Miss", s->ld_miss);
	count_line(fp, "Loads - no mapping", s->ld_noadrs);
	count_line(fp, "Load Fill Buffer Hit", s->ld_fbhit);
	count_line(fp, "Load L1D hit", s->ld_l1hit);
	count_line(fp, "Load L2D hit", s->ld_l2hit);
	count_line(fp, "Load LLC hit", s->ld_llchit);
	count_line(fp, "Load Local HITM", s->lcl_hitm);
	count_line(fp, "Load Remote HITM", s->rmt_hitm);
	count_line(fp, "Load Remote HIT", s->rmt_hit);
	count_line(fp, "Load Local DRAM", s->lcl_dram);
	count_line(fp, "Load Remote DRAM", s->rmt_dram);
	count_line(fp, "Load MESI State Exclusive", s->ld_excl);
	count_line(fp, "Load MESI State Shared", s->ld_shared);
	count_line(fp, "Load LLC Misses", llc_misses);
	count_line(fp, "Load access blocked by data", s->blk_data);
	count_line(fp, "Load access blocked by address", s->blk_addr);
	count_line(fp, "Load HIT Local Peer", s->lcl_peer);
	count_line(fp, "Load HIT Remote Peer", s->rmt_peer);
	pct_line(fp, "LLC Misses to Local DRAM", s->lcl_dram, llc_misses);
	pct_line(fp, "LLC Misses to Remote DRAM", s->rmt_dram, llc_misses);
	pct_line(fp, "LLC Misses to Remote cache (HIT)", s->rmt_hit, llc_misses);
	pct_line(fp, "LLC Misses to Remote cache (HITM)", s->rmt_hitm, llc_misses);
	count_line(fp, "Store Operations", s->store);
	count_line(fp, "Store - uncacheable", s->st_uncache);
	count_line(fp, "Store - no mapping", s->st_noadrs);
	count_line(fp, "Store L1D Hit", s->st_l1hit);
	count_line(fp, "Store L1D Miss", s->st_l1miss);
	count_line(fp, "Store No available memory level", s->st_na);
	count_line(fp, "No Page Map Rejects", s->nomap);
	count_line(fp, "Unable to parse data source", s->noparse);
}

static void print_global(FILE *fp, const struct c2c *c)
{
	struct c2c_stats s;
	u32 n = c2c_shared(c, &s);
	u32 merged = s.lcl_hitm + s.rmt_hitm + s.store;

	fprintf(fp, "\n");
	banner(fp, "    Global Shared Cache Line Event Information   ");
	count_line(fp, "Total Shared Cache Lines", n);
	count_line(fp, "Load HITs on shared lines", s.load);
	count_line(fp, "Fill Buffer Hits on shared lines", s.ld_fbhit);
	count_line(fp, "L1D hits on shared lines", s.ld_l1hit);
	count_line(fp, "L2D hits on shared lines", s.ld_l2hit);
	count_line(fp, "LLC hits on shared lines", s.ld_llchit);
	count_line(fp, "Load hits on peer cache or nodes", s.lcl_peer + s.rmt_peer);
	count_line(fp, "Locked Access on shared lines", s.locks);
	count_line(fp, "Blocked Access on shared lines", s.blk_data + s.blk_addr);
	count_line(fp, "Store HITs on shared lines", s.store);
	count_line(fp, "Store L1D hits on shared lines", s.st_l1hit);
	count_line(fp, "Store No available memory level", s.st_na);
	count_line(fp, "Total Merged records", merged);
}

static const char *const sort_names[] = {
	[C2C_DISPLAY_TOT] = "Total HITMs", [C2C_DISPLAY_LCL] = "Local HITMs",
	[C2C_DISPLAY_RMT] = "Remote HITMs", [C2C_DISPLAY_PEER] = "Peer Snoop",
};

static void print_details(FILE *fp, const struct c2c *c, const struct evlist *evlist,
			  const struct c2c_print_opts *o)
{
	struct evsel *evsel;
	bool first = true;

	fprintf(fp, "\n");
	banner(fp, "                 c2c details                     ");
	evlist_for_each_entry(evlist, evsel) {
		fprintf(fp, "  %-34s: %s\n", first ? "Events" : "", evsel->name);
		first = false;
	}
	fprintf(fp, "  %-34s: %s\n", "Cachelines sort on", sort_names[c->opts.display]);
	fprintf(fp, "  %-34s: offset,%s\n", "Cacheline data grouping", o->coalesce_text);
}

/*
 * struct col - one column of a table: its width, its two header lines
 * (top may be a group title spanning @span columns from this one, printed
 * as given) and the value's id
 */
struct col {
	int id;
	int width;
	const char *top;
	int span;
	const char *bottom;
	bool left;	/* values left-aligned (symbol, object) */
};

/* the header: group line, names, dots, as "# " rows of columns */
static void print_header(FILE *fp, const struct col *cols, int n)
{
	fprintf(fp, "#\n#");
	for (int i = 0; i < n; i++) {
		int w = cols[i].width;

		if (cols[i].span > 1) {
			for (int j = 1; j < cols[i].span; j++)
				w += 2 + cols[i + j].width;
			fprintf(fp, "  %*s", w, cols[i].top);
			i += cols[i].span - 1;
			continue;
		}
		fprintf(fp, "%s%*s", i ? "  " : " ", w, cols[i].top ? cols[i].top : "");
	}
	fprintf(fp, "\n#");
	for (int i = 0; i < n; i++) {
		if (cols[i].left)
			fprintf(fp, "%s%-*s", i ? "  " : " ", cols[i].width, cols[i].bottom);
		else
			fprintf(fp, "%s%*s", i ? "  " : " ", cols[i].width, cols[i].bottom);
	}
	fprintf(fp, "\n#");
	for (int i = 0; i < n; i++) {
		fprintf(fp, "%s", i ? "  " : " ");
		for (int j = 0; j < cols[i].width; j++)
			fputc('.', fp);
	}
	fprintf(fp, "\n#\n");
}

static double pct(u32 part, u32 whole)
{
	return whole ? (double)part / (double)whole * 100.0 : 0.0;
}

/* "0x1f": perf's %#lx, but "0x0" for zero */
static void hex_text(char *buf, size_t size, u64 v)
{
	snprintf(buf, size, "0x%" PRIx64, v);
}

/* a node number, "N/A" when unknown */
static void node_num(char *buf, size_t size, int node)
{
	if (node < 0)
		snprintf(buf, size, "N/A");
	else
		snprintf(buf, size, "%d", node);
}

enum {
	L_INDEX, L_ADDR, L_NODE, L_PACNT, L_HITMPCT, L_HITM, L_LCL, L_RMT, L_RECORDS, L_LOADS,
	L_STORES, L_ST_L1HIT, L_ST_L1MISS, L_ST_NA, L_FB, L_L1, L_L2, L_LLCHIT, L_LLCHITM,
	L_RMTHIT, L_RMTHITM, L_DRAM_LCL, L_DRAM_RMT,
};

/* the lines shown: some HITM (or peer load) of the display's kind, above 0.05% of all unless --show-all */
static bool line_shown(const struct c2c *c, const struct c2c_line *l, u32 total, bool show_all)
{
	u32 h = c2c_line_hitm(&l->st, c->opts.display);

	if (show_all)
		return true;
	return h && pct(h, total) >= 0.05;
}

static void print_line_table(FILE *fp, const struct c2c *c, u32 total, bool show_all)
{
	bool peer = c->opts.display == C2C_DISPLAY_PEER;
	static const char *const tops[] = { "Tot", "Lcl", "Rmt", "Peer" };
	const struct col cols[] = {
		{ L_INDEX, 5, NULL, 0, "Index", false },
		{ L_ADDR, 18, "----------- Cacheline ----------", 3, "Address", false },
		{ L_NODE, 4, NULL, 0, "Node", false },
		{ L_PACNT, 6, NULL, 0, "PA cnt", false },
		{ L_HITMPCT, 7, tops[c->opts.display], 0, peer ? "Snoop" : "Hitm", false },
		{ L_HITM, 7, peer ? "------- Load Peer -------" : "------- Load Hitm -------", 3,
		  "Total", false },
		{ L_LCL, 7, NULL, 0, peer ? "Local" : "LclHitm", false },
		{ L_RMT, 7, NULL, 0, peer ? "Remote" : "RmtHitm", false },
		{ L_RECORDS, 7, "Total", 0, "records", false },
		{ L_LOADS, 7, "Total", 0, "Loads", false },
		{ L_STORES, 7, "Total", 0, "Stores", false },
		{ L_ST_L1HIT, 7, "--------- Stores --------", 3, "L1Hit", false },
		{ L_ST_L1MISS, 7, NULL, 0, "L1Miss", false },
		{ L_ST_NA, 7, NULL, 0, "N/A", false },
		{ L_FB, 7, "----- Core Load Hit -----", 3, "FB", false },
		{ L_L1, 7, NULL, 0, "L1", false },
		{ L_L2, 7, NULL, 0, "L2", false },
		{ L_LLCHIT, 8, "- LLC Load Hit --", 2, "LclHit", false },
		{ L_LLCHITM, 7, NULL, 0, "LclHitm", false },
		{ L_RMTHIT, 8, "- RMT Load Hit --", 2, "RmtHit", false },
		{ L_RMTHITM, 7, NULL, 0, "RmtHitm", false },
		{ L_DRAM_LCL, 8, "--- Load Dram ----", 2, "Lcl", false },
		{ L_DRAM_RMT, 8, NULL, 0, "Rmt", false },
	};
	int n = (int)(sizeof(cols) / sizeof(cols[0]));
	u32 idx = 0;

	fprintf(fp, "\n");
	banner(fp, "           Shared Data Cache Line Table          ");
	print_header(fp, cols, n);
	for (u32 i = 0; i < c->nr_lines; i++) {
		const struct c2c_line *l = c->sorted[i];
		const struct c2c_stats *s = &l->st;
		char addr[24], node[16];

		if (!line_shown(c, l, total, show_all))
			continue;
		hex_text(addr, sizeof(addr), l->addr);
		node_num(node, sizeof(node), l->pa_node);
		fprintf(fp, "  %5u  %18s  %4s  %6u  %6.2f%%  %7u  %7u  %7u  %7u  %7u  %7u"
			    "  %7u  %7u  %7u  %7u  %7u  %7u  %8u  %7u  %8u  %7u  %8u  %8u\n",
			idx++, addr, node, l->pa_cnt, pct(c2c_line_hitm(s, c->opts.display), total),
			peer ? s->lcl_peer + s->rmt_peer : s->lcl_hitm + s->rmt_hitm,
			peer ? s->lcl_peer : s->lcl_hitm, peer ? s->rmt_peer : s->rmt_hitm,
			c2c_stats_records(s), c2c_stats_loads(s), s->store, s->st_l1hit,
			s->st_l1miss, s->st_na, s->ld_fbhit, s->ld_l1hit, s->ld_l2hit,
			s->ld_llchit - s->lcl_hitm, s->lcl_hitm, s->rmt_hit, s->rmt_hitm,
			s->lcl_dram, s->rmt_dram);
	}
}

enum {
	P_NUM, P_RMT, P_LCL, P_L1HIT, P_L1MISS, P_NA, P_OFFSET, P_NODE, P_PACNT, P_PID, P_TID,
	P_IADDR, P_CYC_RMT, P_CYC_LCL, P_CYC_LOAD, P_RECORDS, P_CPUS, P_SYMBOL, P_DSO, P_SRCLINE,
	P_NODES,
};

static int popcount_map(const u64 *map, int bits)
{
	int n = 0;

	for (int i = 0; i < (bits + 63) / 64; i++)
		n += __builtin_popcountll(map[i]);
	return n;
}

static bool bit_test(const u64 *map, int bit)
{
	return (map[bit / 64] >> (bit % 64)) & 1;
}

/* a cpu list as ranges ("0-3,6") of the cpus of @node in @e */
static void cpu_list(struct strbuf *sb, const struct c2c *c, const struct c2c_entry *e, int node)
{
	int start = -1;
	bool first = true;

	for (int cpu = 0; cpu <= c->nr_cpus; cpu++) {
		bool in = cpu < c->nr_cpus && bit_test(e->cpus, cpu) && c->cpu_node[cpu] == node;

		if (in && start < 0)
			start = cpu;
		if (!in && start >= 0) {
			strbuf_addf(sb, "%s%d", first ? "" : ",", start);
			if (cpu - 1 > start)
				strbuf_addf(sb, "-%d", cpu - 1);
			first = false;
			start = -1;
		}
	}
}

/*
 * the Node column: the nodes whose cpus made the accesses (" 0  1"); -N
 * gives each node of the machine a slot, blank when it made none
 * (" 0{cpus %hitms %stores}"), -NN the cpus (" 0{0-3}")
 */
static void node_text(struct strbuf *sb, const struct c2c *c, const struct c2c_entry *e,
		      int node_info)
{
	bool peer = c->opts.display == C2C_DISPLAY_PEER;
	u32 hitm = peer ? e->st.lcl_peer + e->st.rmt_peer : e->st.lcl_hitm + e->st.rmt_hitm;
	bool first = true;

	for (int node = 0; node < c->nr_nodes; node++) {
		const struct c2c_node_stat *ns = &e->node_st[node];
		bool present = bit_test(e->nodes, node);
		int ncpu = 0;

		if (!present && node_info != 1)
			continue;
		if (!first)
			strbuf_addch(sb, ' ');
		first = false;
		if (!present) {
			strbuf_addchars(sb, ' ', 20);
			continue;
		}
		strbuf_addf(sb, "%2d", node);
		if (node_info == 1) {
			u32 h = peer ? ns->peer : ns->hitm;

			for (int cpu = 0; cpu < c->nr_cpus; cpu++)
				ncpu += bit_test(e->cpus, cpu) && c->cpu_node[cpu] == node;
			strbuf_addf(sb, "{%2d ", ncpu);
			if (hitm)
				strbuf_addf(sb, "%5.1f%%", pct(h, hitm));
			else
				strbuf_addf(sb, "%6s", "n/a");
			if (e->st.store)
				strbuf_addf(sb, " %5.1f%%}", pct(ns->store, e->st.store));
			else
				strbuf_addf(sb, " %6s}", "n/a");
		} else if (node_info >= 2) {
			strbuf_addch(sb, '{');
			cpu_list(sb, c, e, node);
			strbuf_addch(sb, '}');
		}
	}
}

static void symbol_text(struct strbuf *sb, const struct c2c_entry *e)
{
	const struct frame *f = e->frame;

	strbuf_addf(sb, "[%c] ", f->level ? f->level : '.');
	if (f->sym)
		strbuf_addstr(sb, f->sym->name);
	else
		strbuf_addf(sb, "%#018" PRIx64, f->addr);
}

/*
 * the Symbol and Object widths of @l's rows, as perf sizes a line's
 * columns from its rows: a symbol as "[.] name" (at most 30 characters
 * without --full-symbols), an address without one 22; the object's name,
 * at least 16 when a row has no symbol; the source lines; at least the
 * header words
 */
static void line_widths(struct c2c *c, const struct c2c_line *l, bool full, bool source,
			int *sym_width, int *dso_width, int *src_width)
{
	struct strbuf sb = STRBUF_INIT;
	bool unresolved = false;

	*sym_width = 6;
	*dso_width = 6;
	*src_width = 11;
	for (u32 i = 0; i < l->nr_entries; i++) {
		const struct c2c_entry *e = l->entries[i];
		int len;

		strbuf_reset(&sb);
		symbol_text(&sb, e);
		len = (int)sb.len;
		if (!e->frame->sym)
			unresolved = true;
		if (!full && len > 30)
			len = 30;
		if (len > *sym_width)
			*sym_width = len;
		len = e->dso ? (int)strlen(e->dso->short_name) : 9;
		if (len > *dso_width)
			*dso_width = len;
		if (source) {
			len = (int)strlen(c2c_entry_srcline(c, l->entries[i]));
			if (len > *src_width)
				*src_width = len;
		}
	}
	if (unresolved && *dso_width < 16)
		*dso_width = 16;
	strbuf_release(&sb);
}

static bool entry_shown(const struct c2c *c, const struct c2c_entry *e)
{
	return c2c_line_hitm(&e->st, c->opts.display) || e->st.store;
}


static void print_pareto(FILE *fp, struct c2c *c, u32 total, const struct c2c_print_opts *o)
{
	bool peer = c->opts.display == C2C_DISPLAY_PEER;
	unsigned int co = c->opts.coalesce;
	bool source = (co & C2C_COAL_IADDR) && !o->no_source;
	struct col cols[24];
	int n = 0;
	struct strbuf sb = STRBUF_INIT;
	const char *node_hdr = o->node_info == 0 ? "Node" : o->node_info == 1 ?
			       (peer ? "Node{cpus %peers %stores}" : "Node{cpus %hitms %stores}") :
			       "Node{cpu list}";
	u32 idx = 0;
	char num[24];

#define COL(...) (cols[n++] = (struct col){ __VA_ARGS__ })
	COL(P_NUM, 5, NULL, 0, "Num", false);
	COL(P_RMT, 7, peer ? "-- Peer Snoop --" : "----- HITM -----", 2, peer ? "Rmt" : "RmtHitm", false);
	COL(P_LCL, 7, NULL, 0, peer ? "Lcl" : "LclHitm", false);
	COL(P_L1HIT, 7, "------- Store Refs ------", 3, "L1 Hit", false);
	COL(P_L1MISS, 7, NULL, 0, "L1 Miss", false);
	COL(P_NA, 7, NULL, 0, "N/A", false);
	COL(P_OFFSET, 18, "--------- Data address ---------", 3, "Offset", false);
	COL(P_NODE, 4, NULL, 0, "Node", false);
	COL(P_PACNT, 6, NULL, 0, "PA cnt", false);
	if (co & C2C_COAL_PID)
		COL(P_PID, 7, NULL, 0, "Pid", false);
	if (co & C2C_COAL_TID)
		COL(P_TID, 16, NULL, 0, "Tid", false);
	if (co & C2C_COAL_IADDR)
		COL(P_IADDR, 18, NULL, 0, "Code address", false);
	COL(P_CYC_RMT, 8, "---------- cycles ----------", 3, peer ? "rmt peer" : "rmt hitm", false);
	COL(P_CYC_LCL, 8, NULL, 0, peer ? "lcl peer" : "lcl hitm", false);
	COL(P_CYC_LOAD, 8, NULL, 0, "load", false);
	COL(P_RECORDS, 7, "Total", 0, "records", false);
	COL(P_CPUS, 8, "cpu", 0, "cnt", false);
	if (co & C2C_COAL_IADDR)
		COL(P_SYMBOL, 22, NULL, 0, "Symbol", false);
	if (co & (C2C_COAL_IADDR | C2C_COAL_DSO))
		COL(P_DSO, 16, "Shared", 0, "Object", false);
	if (source)
		COL(P_SRCLINE, 11, NULL, 0, "Source:Line", false);
	COL(P_NODES, 4, NULL, 0, node_hdr, true);
#undef COL

	/* the header is sized as the first line's rows */
	for (u32 i = 0; i < c->nr_lines; i++) {
		int sw, dw, srw;

		if (!line_shown(c, c->sorted[i], total, o->show_all))
			continue;
		line_widths(c, c->sorted[i], o->full_symbols, source, &sw, &dw, &srw);
		for (int k = 0; k < n; k++) {
			if (cols[k].id == P_SYMBOL)
				cols[k].width = sw;
			if (cols[k].id == P_DSO)
				cols[k].width = dw;
			if (cols[k].id == P_SRCLINE)
				cols[k].width = srw;
		}
		break;
	}
	fprintf(fp, "\n");
	banner(fp, "      Shared Cache Line Distribution Pareto      ");
	print_header(fp, cols, n);
	for (u32 i = 0; i < c->nr_lines; i++) {
		const struct c2c_line *l = c->sorted[i];
		const struct c2c_stats *ls = &l->st;
		u32 lr = peer ? ls->rmt_peer : ls->rmt_hitm, ll = peer ? ls->lcl_peer : ls->lcl_hitm;

		int sym_width, dso_width, src_width;

		if (!line_shown(c, l, total, o->show_all))
			continue;
		line_widths(c, l, o->full_symbols, source, &sym_width, &dso_width, &src_width);
		if (idx)
			fprintf(fp, "\n");
		fprintf(fp, "  ----------------------------------------------------------------------\n");
		hex_text(num, sizeof(num), l->addr);
		fprintf(fp, "  %5u  %7u  %7u  %7u  %7u  %7u  %18s\n", idx++, lr, ll,
			ls->st_l1hit, ls->st_l1miss, ls->st_na, num);
		fprintf(fp, "  ----------------------------------------------------------------------\n");
		for (u32 j = 0; j < l->nr_entries; j++) {
			const struct c2c_entry *e = l->entries[j];
			const struct c2c_stats *s = &e->st;

			if (!entry_shown(c, e))
				continue;
			fprintf(fp, "  %5s", "");
			for (int k = 1; k < n; k++) {
				const struct col *cl = &cols[k];

				fprintf(fp, "  ");
				switch (cl->id) {
				case P_RMT:
					fprintf(fp, "%6.2f%%", pct(peer ? s->rmt_peer : s->rmt_hitm, lr));
					break;
				case P_LCL:
					fprintf(fp, "%6.2f%%", pct(peer ? s->lcl_peer : s->lcl_hitm, ll));
					break;
				case P_L1HIT:
					fprintf(fp, "%6.2f%%", pct(s->st_l1hit, ls->st_l1hit));
					break;
				case P_L1MISS:
					fprintf(fp, "%6.2f%%", pct(s->st_l1miss, ls->st_l1miss));
					break;
				case P_NA:
					fprintf(fp, "%6.2f%%", pct(s->st_na, ls->st_na));
					break;
				case P_OFFSET:
					hex_text(num, sizeof(num), e->offset);
					fprintf(fp, "%18s", num);
					break;
				case P_NODE:
					node_num(num, sizeof(num), e->pa_node);
					fprintf(fp, "%4s", num);
					break;
				case P_PACNT:
					fprintf(fp, "%6u", e->pa_cnt);
					break;
				case P_PID:
					fprintf(fp, "%7d", e->pid);
					break;
				case P_TID:
					strbuf_reset(&sb);
					strbuf_addf(&sb, "%d:%s", e->tid, e->comm ? e->comm : "");
					fprintf(fp, "%16s", sb.buf);
					break;
				case P_IADDR:
					hex_text(num, sizeof(num), e->ip);
					fprintf(fp, "%18s", num);
					break;
				case P_CYC_RMT:
					fprintf(fp, "%8.0f", e->cyc_rmt);
					break;
				case P_CYC_LCL:
					fprintf(fp, "%8.0f", e->cyc_lcl);
					break;
				case P_CYC_LOAD:
					fprintf(fp, "%8.0f", e->cyc_load);
					break;
				case P_RECORDS:
					fprintf(fp, "%7u", c2c_stats_records(s));
					break;
				case P_CPUS:
					fprintf(fp, "%8d", popcount_map(e->cpus, c->nr_cpus));
					break;
				case P_SYMBOL:
					strbuf_reset(&sb);
					symbol_text(&sb, e);
					fprintf(fp, "%-*.*s", sym_width, sym_width, sb.buf);
					break;
				case P_SRCLINE:
					fprintf(fp, "%-*s", src_width, c2c_entry_srcline(c, l->entries[j]));
					break;
				case P_DSO:
					fprintf(fp, "%-*s", dso_width, e->dso ? e->dso->short_name : "[unknown]");
					break;
				case P_NODES:
					strbuf_reset(&sb);
					node_text(&sb, c, e, o->node_info);
					fprintf(fp, "%s", sb.buf);
					break;
				}
			}
			fprintf(fp, "\n");
		}
	}
	strbuf_release(&sb);
}

void c2c_print(FILE *fp, struct c2c *c, const struct evlist *evlist,
	       const struct c2c_print_opts *o)
{
	u32 total = 0;

	for (u32 i = 0; i < c->nr_lines; i++)
		total += c2c_line_hitm(&c->sorted[i]->st, c->opts.display);
	print_trace_info(fp, &c->all);
	print_global(fp, c);
	print_details(fp, c, evlist, o);
	if (o->stats_only)
		return;
	print_line_table(fp, c, total, o->show_all);
	print_pareto(fp, c, total, o);
}
