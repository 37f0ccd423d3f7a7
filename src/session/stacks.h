/* SPDX-License-Identifier: MIT */
/* Stacks as a flame graph sees them: samples folded into a trie of frame names. */
#ifndef SONDE_SESSION_STACKS_H
#define SONDE_SESSION_STACKS_H

#include "lib/hashmap.h"
#include "lib/strbuf.h"
#include "lib/strvec.h"
#include "lib/util.h"
#include "session/resolve.h"
#include "session/sample-filter.h"
#include "session/session.h"

#include <stdbool.h>

/* frame kinds, or'ed on a node (a name can be seen in several) */
#define STACK_KIND_KERNEL  0x01
#define STACK_KIND_USER    0x02
#define STACK_KIND_JIT     0x04
#define STACK_KIND_INLINED 0x08
#define STACK_KIND_UNKNOWN 0x10 /* no symbol */
#define STACK_KIND_COMM    0x20 /* the root: the process name */

/* struct stack_node - one frame of the trie: a name under its parent */
struct stack_node {
	const char *name; /* interned in stacks->names; "" for the root of all */
	u32 parent;	  /* index; the root (0) is its own parent */
	u32 name_id;	  /* the name's number (child keys) */
	u8 kind;	  /* STACK_KIND_* seen */
	u64 self[2];	  /* weight of the stacks ending here, per side (--diff: before, after) */
	u64 samples[2];	  /* samples ending here, per side (folded text counts samples) */
};

/* struct stack_filter - report's selections: NULL/0 fields select everything */
struct stack_filter {
	const char *event;	/* event name; NULL: the first sampled event */
	struct u64map pids, tids; /* id -> (void *)1 */
	bool has_pids, has_tids;
	struct strvec comms, dsos; /* --comm, --dso (dso long name or basename) */
	struct cpu_bitmap cpus;
	struct time_span *spans;
	int nr_spans;
};

/* struct stack_opts - how samples become stacks */
struct stack_opts {
	bool period;	  /* weigh by the sample's period, not 1 */
	bool pid, tid;	  /* root named "comm-pid" or "comm-pid/tid" (stackcollapse --pid/--tid) */
	bool reverse;	  /* leaf first: callers merged under their callees */
	bool no_comm;	  /* no process-name root */
	u32 max_stack;	  /* frames kept per sample, 0: all */
};

/* struct stacks - the folded stacks of one or two files */
struct stacks {
	struct stack_node *nodes; /* [0] is the root of all */
	u32 nr_nodes;
	size_t alloc_nodes;
	struct u64map children;	  /* (parent << 32 | name_id) -> node index + 1 */
	struct strpool names;
	struct u64map name_ids;	  /* interned name -> id + 1 */
	u32 nr_names;
	struct stack_opts opts;
	u64 total[2];		  /* weight per side */
	u64 nr_samples[2];
	const char *event;	  /* the event shown (interned), NULL before the first sample */
	u64 first_time[2], last_time[2]; /* of the samples taken, per side */
};

/* stacks_init - an empty trie with @opts (NULL: defaults) */
void stacks_init(struct stacks *st, const struct stack_opts *opts);
/* stacks_release - free everything */
void stacks_release(struct stacks *st);

/* stack_filter_init/_release - a filter selecting everything */
void stack_filter_init(struct stack_filter *f);
void stack_filter_release(struct stack_filter *f);

/*
 * stacks_add_file - the samples of @session that @filter selects, folded
 * into @st on @side (0, or 1 for the second file of a diff). Returns 0,
 * -errno from the reader with @err filled.
 */
int stacks_add_file(struct stacks *st, struct session *session, struct stack_filter *filter,
		    int side, struct data_error *err);

/*
 * stacks_fold_name - a frame as stackcollapse-perf.pl names it from perf
 * script's line "ip SYM+0xOFF (DSO)": the module's basename in brackets
 * for an unknown symbol in a known module, ';' made ':', the arguments
 * after the first '(' dropped (not "(anonymous namespace)"; Go's
 * "pkg.(*T).M" kept whole), quotes removed. @sym NULL is "[unknown]",
 * @dso NULL "[unknown]". Appends to @out the names, '\n'-separated when
 * "->" splits the symbol (the later ones marked "_[i]"); returns false
 * when the line is skipped (a name starting with '(').
 */
bool stacks_fold_name(struct strbuf *out, const char *sym, const char *dso, bool java);

/* stacks_child - the child of @parent named @name (interned here), made if new */
u32 stacks_child(struct stacks *st, u32 parent, const char *name, size_t len);

/*
 * stacks_totals - inclusive weight per node and side into @incl (2 per
 * node, caller frees): a node's own plus its descendants'.
 */
u64 *stacks_totals(const struct stacks *st);

#endif
