/* SPDX-License-Identifier: MIT */
/*
 * The report pipeline below the ui: a session's samples resolved, filtered
 * and accounted into one struct hists per event.
 */
#ifndef SONDE_SESSION_REPORT_H
#define SONDE_SESSION_REPORT_H

#include "session/annotate.h"
#include "session/hists.h"
#include "session/resolve.h"
#include "session/sample-filter.h"
#include "session/session.h"
#include "trace/tep.h"

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>

/* struct report_filter - which samples count (perf's --comm/--pid/... lists). */
struct report_filter {
	const char **comms;   /* NULL-terminated, or NULL: any */
	const char **dsos;    /* short or long names */
	const char **symbols; /* symbol names */
	int *pids, nr_pids;
	int *tids, nr_tids;
	struct cpu_bitmap cpus;	      /* --cpu (no bits: any cpu) */
	struct time_span *time_spans; /* --time: any of these (none: any time) */
	int nr_time_spans;
	bool hide_unresolved;	  /* -U: drop samples without a symbol */
	bool exclude_other;	  /* -x: hide entries without a parent match */
	struct evsel *switch_on, *switch_off; /* --switch-on/--switch-off events */
	bool show_on_off_events;
	bool hide_host, hide_guest; /* perf kvm: samples of that side hidden (their period counts) */
};

/*
 * report_kvm_sides - perf kvm's --host/--guest for the report, diff or top
 * it runs: report_init() ORs these into every filter (cmd/kvm.c sets them).
 */
extern struct report_kvm_sides {
	bool hide_host, hide_guest;
	bool guest_stats;	/* top's header has perf kvm's guest fields */
} report_kvm_sides;

struct hists_queue;
struct tep_handle;
struct strbuf;

/* struct report_srctext - the srcline/srcfile texts of one dso, by its own address */
struct report_srctext {
	struct u64map line;	/* addr -> interned "file:line" (or perf's fallback) */
	struct u64map file;	/* addr -> interned basename, "" when unknown */
};

/*
 * struct report_thread_values - perf's -T table: PERF_RECORD_READ values
 * summed per (pid, tid) and event, threads and events in the order of their
 * first READ record.
 */
struct report_thread_values {
	int *pid, *tid;		/* nr_threads */
	int nr_threads;
	size_t alloc_threads;
	struct u64map thread_of; /* (pid << 32 | tid) -> thread index + 1 */
	const char **counter_name; /* nr_counters (evsel names, borrowed) */
	int *counter_of;	/* by evsel idx: counter index + 1, 0: none yet */
	int *counter_evsel;	/* nr_counters: the evsel idx (perf's raw id) */
	int nr_counters;
	u64 **value;		/* [thread][counter], rows of nr_hists */
};

struct report {
	struct session *session; /* borrowed */
	struct hists_opts hopts;
	struct report_filter filter;
	bool has_parent_re;
	regex_t parent_re;
	struct hists *hists;	 /* one per evsel, by evsel->idx */
	int nr_hists;
	u64 *nr_samples_all;	 /* per evsel: samples before the filters */
	u64 *total_period_all;	 /* per evsel: period before the filters */
	bool want_srcline;	 /* a srcline/srcfile key is used */
	bool want_trace;	 /* the trace key is used */
	struct tep_handle *tep;	 /* owned: formats from the file's tracing data */
	struct strbuf *trace_buf; /* scratch */
	struct trace_tep_resolver tep_resolver; /* kernel symbols for %ps/%pS in payloads */
	struct report_srctext *srctext; /* per dso id, grown as needed */
	u32 nr_srctext;
	const struct symbol_opts *symbol_opts; /* borrowed, may be NULL */
	struct resolver res;	 /* addresses and callchains (shared with script) */
	struct resolved_chain chain; /* scratch */
	bool want_thread_values; /* -T: collect READ records into tv */
	u64 time_quantum;	 /* the time key's resolution in ns (perf's 100ms default) */
	struct u64map cgroup_path; /* cgroup id -> interned path (CGROUP records) */
	struct u64map cgroup_ns;   /* tid -> index + 1 into ns_id (NAMESPACES records) */
	u64 (*ns_id)[2];	 /* cgroup namespace dev, inode */
	size_t nr_ns_id, alloc_ns_id;
	bool discarding;	 /* --switch-on/off: samples are dropped now */
	struct report_thread_values tv;
	struct hists_queue *queue; /* the aggregation thread during report_process(), or NULL */
	struct annotate_hists *annotate; /* borrowed, may be NULL: each sample's address too (top) */
	struct tool tool;
};

/*
 * report_init - set up @rep for @session with @hopts (copied) and @filter
 * (borrowed). @parent_pattern: regex for the parent key (NULL: perf's
 * default "^sys_|^do_page_fault"). Returns 0 or -EINVAL (bad regex).
 */
int report_init(struct report *rep, struct session *session, const struct hists_opts *hopts,
		const struct report_filter *filter, const char *parent_pattern);
void report_release(struct report *rep);
/* report_want_thread_values - collect perf's -T table (call before report_process) */
void report_want_thread_values(struct report *rep);

/* report_process - run the session into the hists. Returns 0 or -errno (@err filled). */
int report_process(struct report *rep, struct data_error *err);

#endif
