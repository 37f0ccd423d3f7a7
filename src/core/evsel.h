/* SPDX-License-Identifier: MIT */
/* One event selector: a perf_event_attr, its display name and its open fds. */
#ifndef SONDE_CORE_EVSEL_H
#define SONDE_CORE_EVSEL_H

#include "lib/list.h"
#include "lib/util.h"

#include <linux/perf_event.h>
#include <stdbool.h>

struct cpu_map;
struct thread_map;

/* counts of one fd, as read with PERF_FORMAT_TOTAL_TIME_ENABLED|RUNNING */
struct perf_counts_values {
	u64 val;
	u64 ena;
	u64 run;
};

/*
 * struct evsel_terms - "pmu/term=.../" settings that are not attr bits, or
 * that the command must not override with its defaults. Filled by
 * parse_events(); all zero when none were given. Fixed-size so that evsel
 * needs no extra frees.
 */
struct evsel_terms {
	bool has_period;	/* attr.sample_period came from "period=" */
	bool has_freq;		/* attr.sample_freq (+freq) came from "freq=" */
	bool has_time;		/* "time=": time is the value */
	bool time;
	bool has_inherit;	/* "inherit"/"no-inherit": inherit is the value */
	bool inherit;
	bool has_overwrite;	/* "overwrite"/"no-overwrite" */
	bool overwrite;
	bool has_stack_size;
	bool has_max_stack;
	bool percore;
	bool has_aux_output;
	bool aux_output;
	bool has_aux_sample_size;
	bool per_pkg;		/* PMU alias .per-pkg */
	bool snapshot;		/* PMU alias .snapshot */
	bool exclude_gh;	/* a ":G" or ":H" modifier was applied (perf's exclude_GH) */
	bool bpf_counter;	/* ":b": count with BPF (accepted, not implemented) */
	u32 aux_sample_size;
	u32 stack_size;
	int max_stack;
	double scale;		/* PMU alias .scale; 0 when none (means 1) */
	char unit[32];		/* PMU alias .unit; "" when none */
	char callgraph[64];	/* "call-graph=fp|dwarf[,size]|lbr|no"; "" when not given */
	char drv_cfg[64];	/* "driver-config=" */
	char metric_id[64];	/* "metric-id=" */
};

/*
 * struct evsel - one event. Created by parse_events() (core/parse-events.c)
 * or rebuilt from a perf.data attr section (no fds then). Owned by its
 * evlist; freed by evlist_free().
 */
struct evsel {
	struct list_head node;	 /* in evlist->entries */
	struct perf_event_attr attr;
	char *name;		 /* owned: perf's display name, e.g. "cycles:u", "sched:sched_switch" */
	char *pmu_name;		 /* owned, may be NULL: "cpu", "msr", "tracepoint", ... */
	char *filter;		 /* owned, may be NULL: tracepoint filter for PERF_EVENT_IOC_SET_FILTER */
	char *group_name;	 /* owned, may be NULL: name given as "name{a,b}" */
	struct evsel *leader;	 /* group leader; self when not grouped */
	int idx;		 /* position in the evlist, from 0 */
	int nr_members;		 /* leader only: events in the group, itself included */
	int tp_id;		 /* tracepoint id for tracepoint events, else -1 */
	bool is_tool_event;	 /* "duration_time" and similar: counted by us, not the kernel */
	bool is_optional;	 /* default-list events whose open failure is not an error */
	bool is_weak_group;	 /* ":W": reopen members without the group when the group fails */
	bool guest_off_implicit; /* attr.exclude_guest was set by default, not asked for */
	bool precise_max;	 /* ":P": use the highest precise_ip the kernel accepts */
	bool sample_read;	 /* ":S" */
	bool auto_merge;
	bool is_fallback_name;	 /* record: the name comes from a fallback's attr (cycles -> cpu-clock) */
	struct evsel_terms terms; /* from "pmu/.../" terms, see struct evsel_terms */
	int event_option_nr;	 /* which -e option (1, 2, ...) added it; 0: none did */

	/* live side: filled by evlist_open() */
	struct cpu_map *cpus;	    /* borrowed from the evlist */
	struct thread_map *threads; /* borrowed from the evlist, or own_threads */
	struct cpu_map *own_cpus;   /* owned, may be NULL: a PMU's cpumask (uncore, power, ...) */
	struct thread_map *own_threads; /* owned, may be NULL: {-1} with own_cpus */
	int cgroup_fd;		    /* -G: open cgroup directory (owned), -1 when none */
	char *cgroup_name;	    /* owned, may be NULL: the -G name as given */
	int *fd;		    /* owned: [cpu_idx * nr_threads + thread_idx], -1 when closed */
	u64 *ids;		    /* owned: kernel sample ids, same indexing as fd */
	bool is_supported;	    /* false after EOPNOTSUPP/ENOENT on an optional event */
	int open_errno;		    /* last open failure (positive errno), 0 when fine */

	/* counting: filled by evsel_read_counts() */
	struct perf_counts_values *counts; /* owned: same indexing as fd */
	void *priv;			   /* for the command (stat keeps its aggregates here) */
};

/* evsel_new - a fresh event with a copy of @attr and no name. Caller owns it. */
struct evsel *evsel_new(const struct perf_event_attr *attr);
/* evsel_free - close fds and free everything; NULL is fine. */
void evsel_free(struct evsel *evsel);

/*
 * evsel_set_name_from_attr - set evsel->name to perf's name for a bare
 * attr ("cycles", "cpu-clock", "L1-dcache-load-misses", "raw 0x1a8",
 * "mem:0x1000:rw", tracepoint "sys:name" when tracefs knows the id),
 * followed by the modifier suffix perf shows (":u", ":ppp", ...).
 */
void evsel_set_name_from_attr(struct evsel *evsel);

/*
 * perf_event_id_hdr_size - bytes of the sample_id trailer that non-SAMPLE
 * kernel records of @attr carry (0 without sample_id_all).
 */
int perf_event_id_hdr_size(const struct perf_event_attr *attr);

struct strbuf;
/*
 * attr_append_modifier_suffix - append to @sb the modifier letters perf
 * shows after a name derived from @attr (":u", ":ppp", ":uhpppH", ...);
 * nothing when no letter applies.
 */
void attr_append_modifier_suffix(const struct perf_event_attr *attr, struct strbuf *sb);

/* evsel_is_group_leader - true when @evsel leads its own group (ungrouped counts too). */
static inline bool evsel_is_group_leader(const struct evsel *evsel)
{
	return evsel->leader == evsel;
}

#endif
