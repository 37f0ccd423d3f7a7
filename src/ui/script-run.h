/* SPDX-License-Identifier: MIT */
/*
 * perf script's tool on the session: the samples cmd/script selected and
 * the side-band records it asked for, resolved and printed with ui/script.
 */
#ifndef SONDE_UI_SCRIPT_RUN_H
#define SONDE_UI_SCRIPT_RUN_H

#include "lib/hashmap.h"
#include "lib/strvec.h"
#include "session/sample-filter.h"
#include "ui/script.h"

#include <stdbool.h>

struct data_error;
struct evsel;
struct session;

/* struct script_view - what is printed besides the samples, and how (cmd/script fills it). */
struct script_view {
	struct script_config *cfg;  /* -F and the time/callchain options, checked */
	bool show_task_events;	    /* COMM, FORK, EXIT */
	bool show_mmap_events;
	bool show_switch_events;
	bool show_lost_events;
	bool show_round_events;	    /* also turns time ordering off, as in perf */
	bool show_namespace_events;
	bool show_cgroup_events;
	bool show_bpf_events;
	bool show_text_poke_events;
	bool show_on_off_events;    /* the --switch-on/--switch-off samples themselves */
	bool dump_raw;		    /* -D: the raw dump, each kernel record followed by its line */
	bool dump_unsorted;	    /* ... in file order */
};

/*
 * struct script_select - which samples are printed, parsed and checked by
 * cmd/script from --comm, --symbols, --dsos, --pid, --tid, --cpu, --time,
 * --switch-on/--switch-off; and where callchains stop (--stop-bt).
 */
struct script_select {
	struct strvec comms, syms, dsos, stop_bt;
	bool has_comms, has_syms, has_dsos; /* the list was given (an empty one selects nothing) */
	struct u64map pids, tids;	    /* keys: the ids (as s64) */
	bool has_pids, has_tids;
	struct cpu_bitmap cpus;		    /* no bits: every cpu */
	struct time_span *time_spans;	    /* any of these; none: every time */
	int nr_time_spans;
	struct evsel *switch_on, *switch_off; /* NULL when not given */
};

/* script_select_init - selects everything. */
void script_select_init(struct script_select *sel);

void script_select_release(struct script_select *sel);

/*
 * struct script_event_dump - --per-event-dump: the file of one event,
 * opened by cmd/script (@path owned, @fd closed by the run; -1: none)
 */
struct script_event_dump {
	char *path;
	int fd;
};

struct script_run;

/*
 * script_run_new - perf script's tool on @session (borrowed), printing to
 * stdout as @view says (borrowed) the samples @sel selects (borrowed).
 * @dumps: NULL, or one entry per event (by evsel->idx) for
 * --per-event-dump, owned from here on.
 */
struct script_run *script_run_new(struct session *session, const struct script_view *view,
				  const struct script_select *sel, struct script_event_dump *dumps);

/*
 * script_run_process - read the whole file through the tool (with -D as
 * the raw dump). Returns 0, -EPIPE when stdout was closed, or the
 * session's -errno with @err filled; the output so far is flushed so that
 * the caller's message follows it.
 */
int script_run_process(struct script_run *r, struct data_error *err);

/*
 * script_run_finish - after script_run_process() returned @err: the
 * --per-event-dump summary lines, the last output, and (when @err >= 0)
 * perf's warnings about lost records and dropped samples on stderr.
 */
void script_run_finish(struct script_run *r, int err);

void script_run_free(struct script_run *r);

#endif
