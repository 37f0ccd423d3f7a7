/* SPDX-License-Identifier: MIT */
/* c2c report's model: memory samples decoded into access counts, grouped by cacheline and by offset. */
#ifndef SONDE_SESSION_C2C_H
#define SONDE_SESSION_C2C_H

#include "lib/hashmap.h"
#include "lib/util.h"
#include "session/resolve.h"
#include "session/session.h"

#include <stdbool.h>

/* struct c2c_stats - access counts as perf c2c names them (Trace Event Information) */
struct c2c_stats {
	u32 nr_entries, locks, blk_data, blk_addr, noparse, nomap;
	u32 store, st_uncache, st_noadrs, st_l1hit, st_l1miss, st_na;
	u32 load, ld_uncache, ld_io, ld_miss, ld_noadrs, ld_fbhit, ld_l1hit, ld_l2hit, ld_llchit;
	u32 ld_excl, ld_shared, lcl_hitm, rmt_hitm, lcl_peer, rmt_peer, rmt_hit, lcl_dram, rmt_dram;
};

/*
 * c2c_stats_decode - count one sample with @data_src into @st; @has_addr:
 * it carries a data address; @mapped: its code and data addresses fall in
 * maps. Returns true for a parsed load or store with a data address.
 */
bool c2c_stats_decode(struct c2c_stats *st, u64 data_src, bool has_addr, bool mapped);
/* c2c_stats_add - @dst += @src, field by field */
void c2c_stats_add(struct c2c_stats *dst, const struct c2c_stats *src);
/* c2c_stats_loads - a cacheline's "Total Loads": the loads counted by where they hit */
u32 c2c_stats_loads(const struct c2c_stats *st);
/* c2c_stats_records - a cacheline's "Total records": those loads and the stores by L1 result */
u32 c2c_stats_records(const struct c2c_stats *st);

/* what the cachelines are sorted on (-d) */
enum c2c_display { C2C_DISPLAY_TOT, C2C_DISPLAY_LCL, C2C_DISPLAY_RMT, C2C_DISPLAY_PEER };

/* -c: what one offset row is keyed on, besides the offset */
enum {
	C2C_COAL_TID = 1 << 0,
	C2C_COAL_PID = 1 << 1,
	C2C_COAL_IADDR = 1 << 2,
	C2C_COAL_DSO = 1 << 3,
};

/* struct c2c_node_stat - one NUMA node's share of an offset row (-N) */
struct c2c_node_stat {
	u32 hitm, peer, store;
};

/* struct c2c_entry - one offset row: the accesses at one offset of a line, per -c key */
struct c2c_entry {
	u64 offset;		   /* in the line */
	int pid, tid;
	u64 ip;			   /* the code address (first seen) */
	u64 ip_addr, ip_symoff;	   /* its address in the dso and in its symbol (source lines) */
	const struct frame *frame; /* its frame (iaddr key), never NULL */
	const struct dso *dso;	   /* NULL: no map */
	const char *comm;	   /* the thread's name (tid column), interned */
	struct c2c_stats st;
	double cyc_rmt, cyc_lcl, cyc_load; /* mean weights: remote, local HITM (or peer), other loads */
	u32 nr_rmt, nr_lcl, nr_load;
	u64 *cpus;		   /* bitmap over the file's cpus */
	u64 *nodes;		   /* bitmap over the nodes */
	struct c2c_node_stat *node_st; /* per node */
	u64 last_pa;		   /* the physical address of the last sample */
	u32 pa_cnt;		   /* how often it changed from sample to sample ("PA cnt") */
	int pa_node;		   /* node of the first physical address, -1 none */
	char *srcline;		   /* owned, made by c2c_entry_srcline() */
};

/* struct c2c_line - one cacheline of one data object (perf splits a line by the dso mapped there) */
struct c2c_line {
	u64 addr;
	const struct dso *dso;	   /* the data address's map's, NULL without one */
	struct c2c_line *next;	   /* the same address in another dso */
	struct c2c_stats st;
	struct c2c_entry **entries;
	u32 nr_entries, alloc_entries;
	u64 last_pa;
	u32 pa_cnt;
	int pa_node;
};

/* struct c2c_opts - what keys rows and lines (report options) */
struct c2c_opts {
	unsigned int coalesce;	/* C2C_COAL_* */
	unsigned int order[4];	/* the C2C_COAL_* keys in -c order: rows with equal counts are ordered by them */
	int nr_order;
	enum c2c_display display;
};

/* struct c2c - the model; its tool goes to session_process() */
struct c2c {
	struct tool tool; /* first */
	struct c2c_opts opts;
	struct c2c_stats all;	 /* every sample */
	struct u64map lines;	 /* line address -> struct c2c_line * (chained by dso) */
	struct c2c_line **sorted;
	u32 nr_lines;
	int nr_cpus, nr_nodes;
	int *cpu_node;		 /* cpu -> node, -1 unknown */
	const struct perf_header *header;
	struct resolver res;	 /* the samples' code and data addresses */
};

/*
 * c2c_init - an empty model over @session's header (cpu and memory
 * topology), with @opts; then session_process(session, &c->tool, ...)
 */
void c2c_init(struct c2c *c, struct session *session, const struct c2c_opts *opts);
/* c2c_release - free the lines and rows */
void c2c_release(struct c2c *c);
/* c2c_line_hitm - @line's count that @display sorts on (HITMs or peer loads) */
u32 c2c_line_hitm(const struct c2c_stats *st, enum c2c_display display);
/* c2c_sort - the lines into c->sorted (most HITMs first) and their rows by offset */
void c2c_sort(struct c2c *c);
/*
 * c2c_entry_srcline - the Source:Line text of @e's code address: "file:line"
 * from DWARF, else "sym+offset" or "dso[addr]" (made once, kept in @e)
 */
const char *c2c_entry_srcline(struct c2c *c, struct c2c_entry *e);

/* c2c_shared - the sum over shared lines (any HITM or peer load) into @out; returns their number */
u32 c2c_shared(const struct c2c *c, struct c2c_stats *out);

#endif
