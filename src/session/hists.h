/* SPDX-License-Identifier: MIT */
/*
 * Histograms: samples aggregated by sort keys (comm, pid, dso, sym, ...),
 * with self and children (cumulative) periods and a compact callchain tree
 * per entry. Keys compare interned pointers, never strings.
 */
#ifndef SONDE_SESSION_HISTS_H
#define SONDE_SESSION_HISTS_H

#include "lib/hashmap.h"
#include "lib/util.h"
#include "session/machine.h"

#include <stdbool.h>
#include <stddef.h>

struct resolved_frame;
struct tep_event;

enum sort_key {
	SORT_COMM,
	SORT_PID,
	SORT_DSO,
	SORT_SYM,
	SORT_PARENT,
	SORT_CPU,
	SORT_SOCKET,
	SORT_SRCLINE,
	SORT_SRCFILE,
	SORT_TRACE,	/* the tracepoint payload as perf script prints it */
	SORT_TIME,	/* the sample time cut to the time quantum */
	SORT_SYM_SIZE,	/* symbol_size */
	SORT_DSO_SIZE,	/* dso_size: the size of the map */
	SORT_CGROUP,	/* the cgroup path of the sample's cgroup id */
	SORT_CGROUP_ID, /* the thread's cgroup namespace (dev/inode) */
	SORT_WEIGHT,	/* global weight: the sum of the samples' weights */
	SORT_LOCAL_WEIGHT,
	SORT_TRANSACTION,
	SORT_CODE_PAGE_SIZE,
	SORT_INS_LAT,	/* global instruction latency (sum) */
	SORT_P_STAGE_CYC,
	SORT_IPC_NULL,	/* perf's "IPC [IPC Coverage]" without branch data: "-" */
	SORT_TRACE_FIELDS,     /* a column per tracepoint field, values from the payload text */
	SORT_TRACE_FIELDS_RAW, /* trace_fields/raw: the fields' raw values */
	SORT_MEM,	/* data_src keys (session/hists-mem.c): memory level */
	SORT_SNOOP,
	SORT_TLB,
	SORT_LOCKED,
	SORT_BLOCKED,
	SORT_SYMBOL_DADDR, /* the data address's symbol, dso */
	SORT_DSO_DADDR,
	SORT_LOCAL_INS_LAT, /* the first sample's instruction latency */
	SORT_DCACHELINE,    /* the data address's 64-byte line */
	SORT_PHYS_DADDR,
	SORT_DATA_PAGE_SIZE,
	SORT_NR_KEYS,
};

/* output-only columns that may appear in -F / -s lists */
enum hist_column {
	COL_OVERHEAD,	/* self %, or "Overhead" */
	COL_CHILDREN,	/* children % */
	COL_SAMPLE,	/* -n */
	COL_PERIOD,	/* --show-total-period */
	COL_KEY,	/* a sort key: see key field */
	COL_OVERHEAD_SYS,	/* self % of kernel samples */
	COL_OVERHEAD_US,	/* self % of user samples */
	COL_OVERHEAD_GUEST_SYS,
	COL_OVERHEAD_GUEST_US,
};

/* callchain presentation, perf's -g */
enum chain_mode { CHAIN_NONE, CHAIN_GRAPH_ABS, CHAIN_GRAPH_REL, CHAIN_FLAT, CHAIN_FOLDED };
enum chain_order { ORDER_CALLEE, ORDER_CALLER };

struct callchain_opts {
	enum chain_mode mode;
	enum chain_order order;
	bool order_set;	     /* caller/callee given explicitly */
	double min_percent;  /* 0.5 by default */
	bool min_set;	     /* -g gave the threshold */
	u32 print_limit;     /* 0: no limit */
	bool value_percent;  /* only percent values are supported */
};

/*
 * struct cc_node - one node of a callchain trie: the frame at this depth
 * and the period of the chains through it. Nodes live in the hists' pool
 * and are addressed by index (0 is "none").
 */
struct cc_node {
	const struct frame *frame;
	u32 first_child, next_sibling;
	u32 nr_children;
	u32 count;	/* samples that end here */
	/*
	 * the children also form perf's red-black tree, ordered by perf's
	 * callchain match (dso, then symbol start or raw ip): its lookups miss
	 * some equal siblings, which perf then keeps twice. The tree is kept
	 * in the hists' links (struct cc_link, by the same index).
	 */
	u64 hit;	/* period of chains that end here */
	u64 cumul;	/* period of chains through here (hit included): made by hists_sort() */
};

/* struct hist_group_val - an entry's numbers in one member of an event group */
struct hist_group_val {
	u64 period, nr_events, acc_period;
	u64 period_mode[4]; /* overhead_sys, _us, _guest_sys, _guest_us */
};

/* hist_entry.lazy_compared bits: by the order of lazy_keys[] in hists-sort.c */
#define HIST_LAZY_TRACE 0x1u
#define HIST_LAZY_SRCLINE 0x2u
#define HIST_LAZY_SRCFILE 0x4u
#define HIST_LAZY_ALL 0x7u

/* struct hist_entry - one row. Pointers are borrowed from the machine. */
struct hist_entry {
	struct thread *thread;
	const char *comm;	    /* interned */
	const struct frame *frame;  /* symbol/dso/address and level */
	const struct frame *parent; /* the parent key's frame, NULL: "[other]" */
	const char *srcline;	    /* interned, for srcline/srcfile keys */
	const char *srcfile;	    /* interned */
	const char *trace;	    /* interned tracepoint payload text, for the trace key */
	const char *tfields;	    /* interned trace_fields key (trace_tep_fields_key) */
	const char *traw;	    /* interned hex of the payload that made the entry */
	struct tep_event *tp;	    /* its tracepoint format, NULL: no tracepoint */
	u64 tf_met;		    /* trace_fields: bit i, perf compared field i of the
				       entry with a newer one (it sizes dynamic fields) */
	int cpu, socket;
	const char *cgroup;	    /* path of the sample's cgroup, NULL: "N/A" */
	u64 cgroup_id;		    /* the sample's cgroup id (PERF_SAMPLE_CGROUP) */
	u64 ns_dev, ns_ino;	    /* the thread's cgroup namespace */
	u64 time;		    /* sample time cut to the quantum */
	u64 weight;		    /* the sample's weight (local_weight) */
	u64 transaction;
	u64 data_src;		    /* the first sample's (mem, snoop, ... keys) */
	const struct frame *dframe; /* the data address's frame (symbol_daddr, dso_daddr) */
	u64 daddr, phys_addr, data_page_size; /* the first sample's */
	u64 code_page_size;
	u16 ins_lat, p_stage_cyc;
	u64 weight_sum, ins_lat_sum; /* over the samples of the entry (global forms) */
	u64 period_mode[4];	    /* self period by mode: sys, us, guest sys, guest us */
	u64 period, nr_events;	    /* self */
	u64 acc_period, acc_events; /* children (cumulative, includes self) */
	u32 chain;		    /* root node index or 0 */
	u32 max_depth;		    /* longest chain appended (perf's caller-above-callee rule) */
	u32 seq;		    /* the sample that made it (hists->nr_samples then) */
	u32 pos;		    /* its place in that sample: 0 self, then chain order */
	u32 chain_memo;		    /* its last chain (hists->chain_memos, index + 1), or 0 */
	u64 seen_in;		    /* the last sample (hists->nr_samples then) that counted it */
	u64 hash;
	struct hist_group_val *grp; /* group view: one per member (leader first), or NULL */
	bool filtered;		    /* made by a sample a filter rejected: not shown */
	u8 lazy_compared;	    /* HIST_LAZY_*: the lazy keys perf formatted while
				       sorting (a later sample met the entry, or it shares
				       the keys before that key with another entry) */
	u64 addr;		    /* unresolved symbol key: map-relative address for a
				       sample's own entry, the raw address for one made
				       from a callchain frame (as perf keys and prints them) */
	char level;		    /* '.', 'k', ...: the frame's, or the sample's for a
				       cumulative frame outside any map (as perf shows it) */
};

/* struct hist_field - one -F field: a column type and, for COL_KEY, its key */
struct hist_field {
	enum hist_column type;
	enum sort_key key;
};

#define HIST_MAX_FIELDS 16

struct hists_opts {
	enum sort_key keys[SORT_NR_KEYS]; /* the sort keys, in order */
	int nr_keys;
	bool children;	       /* --children: cumulative entries from callchains */
	bool hide_children;    /* -F without overhead_children: not a column nor a sort key */
	bool use_callchain;    /* build callchain trees */
	bool file_callchains;  /* the file has callchains (even with -g none) */
	bool long_dso_names;   /* -v: dsos sort by their long names, as perf's do */
	struct callchain_opts cc;
	int max_stack;	       /* frames used from each callchain (127 default) */
	struct hist_field sort_list[HIST_MAX_FIELDS]; /* --sort in order, when it names
							 output fields (overhead, period, ...) */
	int nr_sort_list;      /* 0: --sort names keys only */
	struct hist_field fields[HIST_MAX_FIELDS]; /* -F: columns and sort order, in order */
	int nr_fields;	       /* 0: perf's default columns */
	int nr_sort_first;     /* -F with --sort: keys[0..n) order the rows before the fields */
	bool mem_mode;	       /* --mem-mode: a sample's weight is its period; data_src keys */
	bool chain_walk_all;   /* tests: every chain walks its trie from the root (no memo, no hints) */
};

/*
 * struct hists - all entries of one event.
 */
struct hists {
	struct hists_opts opts;
	struct hist_entry **entries; /* creation order (then sorted by hists_sort) */
	size_t nr_entries, alloc_entries;
	struct hist_entry **table;   /* open addressing on hash */
	size_t table_mask, table_used;
	struct cc_node *nodes;	     /* node pool: [0] unused */
	struct u64map child_of;	     /* (parent index << 32 | frame id) -> child index */
	u32 nr_nodes, alloc_nodes;
	struct cc_link **link_chunks; /* node i's tree links: chunk i / 4096, never moved */
	u32 nr_link_chunks;
	u64 total_period;	     /* sum of sample periods */
	u64 nr_samples;
	u64 nr_samples_unfiltered; /* samples no filter rejected */
	u64 period_unfiltered;	   /* their periods */
	u64 nr_lost;
	char *chunk;		     /* entry allocation chunk */
	size_t chunk_left;
	void **chunks;
	size_t nr_chunks, alloc_chunks;
	int nr_group;		     /* group view: members (leader included), else 0 */
	struct hist_group_val *grp_pool; /* owned: nr_entries * nr_group values */
	struct tf_tree *tf_tree;     /* trace_fields: perf's input tree, replayed (hists-sort.c) */
	struct hist_memo *memo;	     /* --children: recent frame -> entry lookups (hists.c) */
	struct chain_memo *chain_memos; /* entries' last chains (hists-chain.c) */
	u32 nr_chain_memos, alloc_chain_memos;
};

/* sort_key_parse - "comm" -> SORT_COMM ("symbol" and "sym" alike). Returns -1 if unknown. */
int sort_key_parse(const char *name);
/* sort_key_name - perf's name for a key ("comm", "dso", "sym", ...). */
const char *sort_key_name(enum sort_key key);

void hists_init(struct hists *hists, const struct hists_opts *opts);
void hists_release(struct hists *hists);

/*
 * struct hist_sample - one sample to add: where it happened and its
 * resolved callchain in callee order (leaf first), already cut to max_stack.
 */
struct hist_sample {
	struct thread *thread;
	const char *comm;	/* interned: the thread's comm at the sample (NULL: thread->comm now) */
	const struct frame *frame; /* the sample's own frame */
	const struct resolved_frame *chain; /* callee order (frame and raw ip); may be NULL */
	u32 nr_chain;
	/* or, when set, the chain's frames and raw ips already in the hists' display order */
	const struct frame *const *chain_frames;
	const u64 *chain_ips;
	const struct frame *parent; /* parent key match, or NULL */
	const char *srcline, *srcfile;
	const char *trace;
	const char *tfields, *traw; /* trace_fields: the key and the payload (hex), interned */
	struct tep_event *tp;	/* the sample's tracepoint format, or NULL */
	int cpu, socket;
	const char *cgroup;	/* NULL: unknown */
	u64 cgroup_id, ns_dev, ns_ino;
	u64 time;		/* already cut to the time quantum */
	u64 weight, transaction, code_page_size;
	u64 data_src;
	const struct frame *dframe; /* --mem-mode: the frame of the data address, or NULL */
	u64 daddr, phys_addr, data_page_size;
	u16 ins_lat, p_stage_cyc;
	int mode;		/* 0 kernel, 1 user, 2 guest kernel, 3 guest user, -1 other */
	u64 period;
	u64 addr;	/* the sample's map-relative address (0: the frame's), shown by -v */
	bool filtered;	/* a --comm/--dsos/... filter rejects it: its new entries are hidden */
};

/*
 * hists_chain_cursor - the @n frames of @chain (callee order) as hists_add()
 * walks them: in @hists' display order, into @frames and @ips.
 */
void hists_chain_cursor(const struct hists *hists, const struct resolved_frame *chain, u32 n,
			const struct frame **frames, u64 *ips);

/* hists_add - account one sample (self entry, children entries, callchains). */
void hists_add(struct hists *hists, const struct hist_sample *hs);

/*
 * hists_sort - order entries for output (perf's: children or self period
 * descending, then the keys), mark those below @percent_limit filtered.
 */
void hists_sort(struct hists *hists);

/*
 * hists_link_group - the group view of perf (--group, or a file with event
 * groups): for each entry of @leader, its numbers in every member
 * (@members[0] is @leader itself); entries only the members have are added
 * to @leader with no period of their own. Call before hists_sort().
 */
void hists_link_group(struct hists *leader, struct hists *const *members, int nr);

/*
 * hists_decay - a live view's refresh (top): every period, sample count and
 * callchain value becomes 7/8 of itself; entries that reach zero leave the
 * entries and the lookup table (their memory stays with the hists until
 * hists_release). The totals become the sums of what is left. Returns the
 * number of entries removed.
 */
size_t hists_decay(struct hists *hists);

/*
 * hists_release_live - hists_release() for a live view whose machine lives
 * on (top starting a histogram afresh): the entries let go of their threads
 * (thread->nr_entries), which the machine may then free (machine_reap)
 */
void hists_release_live(struct hists *hists);

/* hists_remap_fn - the frame @f stands for now (itself when unchanged) */
typedef const struct frame *hists_remap_fn(void *arg, const struct frame *f);

/*
 * hists_remap_frames - a live view's entries move to the frame @remap gives
 * for theirs (top: an address whose dso's symbols have loaded since, to its
 * symbol); entries whose keys then meet merge into one (numbers summed, the
 * callchain tree of the entry that was there kept). Callchain nodes keep
 * their frames. Returns the number of entries merged away.
 */
size_t hists_remap_frames(struct hists *hists, hists_remap_fn *remap, void *arg);

/* hist_entry_sym_size - the symbol_size key: the symbol's extent, 0 when unresolved */
u64 hist_entry_sym_size(const struct hist_entry *e);
/* hist_entry_dso_size - the dso_size key: the size of the map the address fell in */
u64 hist_entry_dso_size(const struct hist_entry *e);

/* hists_entry_cmp_keys - compare two entries by the output order of the sort keys. */
int hists_entry_cmp_keys(const struct hists *hists, const struct hist_entry *a,
			 const struct hist_entry *b);

/* hists_node - the node at @idx (never 0). */
static inline struct cc_node *hists_node(const struct hists *hists, u32 idx)
{
	return &hists->nodes[idx];
}

/*
 * hists_sorted_children - the children of @node_idx sorted for output:
 * cumul descending, ties by frame (dso, address) descending. Writes up to
 * node->nr_children indexes into *@out (grown as needed). Returns the count.
 */
/*
 * hists_frame_order - the order of sibling frames in perf's callchain tree
 * (by dso, then address, both descending); <0 when @a goes first.
 */
int hists_frame_order(const struct frame *a, const struct frame *b);

u32 hists_sorted_children(const struct hists *hists, u32 node_idx, u32 **out, size_t *alloc);

#endif
