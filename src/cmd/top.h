/* SPDX-License-Identifier: MIT */
/* sonde top's state, shared by cmd/top.c (options, sampling, --stdio) and cmd/top-tui.c. */
#ifndef SONDE_CMD_TOP_H
#define SONDE_CMD_TOP_H

#include "core/mmap.h"
#include "core/record-config.h"
#include "lib/strvec.h"
#include "session/hists.h"
#include "session/annotate.h"
#include "session/report.h"
#include "symbol/symtab.h"
#include "ui/hists.h"

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

struct evlist;
struct opt_spec;
struct session;
struct top_stats;

struct top {
	struct record_opts opts;   /* sampling: target, -F/-c, -g */
	struct evlist *evlist;	   /* -e, or perf's default event */
	size_t mmap_pages;	   /* -m, 0: perf's default */
	int delay_secs;		   /* -d, 2 by default */
	int print_entries;	   /* -E, 0: the screen's rows */
	int count_filter;	   /* -f (accepted) */
	int realtime_prio;	   /* -r */
	int max_stack;		   /* --max-stack */
	int children;		   /* --children: 1, --no-children: 0, -1: with -g */
	bool callchain_set;	   /* -g/--call-graph */
	char *cg_display;	   /* owned: the display part of --call-graph */
	bool zero, hide_kernel, hide_user, show_nr_samples, show_total_period;
	bool use_tui;
	bool paused;		   /* TUI 'f': samples are dropped while set */
	const char *sort, *fields, *percent_limit, *percentage;
	const char *comms, *dsos, *symbols;
	const char *symbol_filter; /* TUI '/': entries whose symbol contains it */
	int widths[16], nr_widths; /* -w */
	/* accepted for perf's command lines, no effect */
	const char *vmlinux, *disassembler_style, *objdump, *prefix, *prefix_strip, *sym_annotate;
	bool asm_raw, source, force, ignore_vmlinux, no_bpf_event;
	int nr_threads_synthesize, proc_map_timeout;
	struct symbol_opts sopts;
	struct strvec comm_list, dso_list, sym_list;
	char *tid_list;		   /* owned: -u's threads */
	/* live */
	struct perf_mmap_set rings;
	struct session *session;   /* owned, on a live reader */
	struct report rep;	   /* the report pipeline: one hists per event */
	struct annotate_hists annot; /* the TUI's: per symbol, the samples' addresses */
	bool has_annot;
	struct hists_opts ho;
	struct hists_print_opts po;
	size_t *nr_removed;	   /* per hists: entries decayed away since it started */
	bool stdin_open;
	u32 nr_new_tables;	   /* dsos whose symbols loaded since the entries were re-resolved */
	/* the header line */
	u64 last_refresh;
	u64 nr_samples, nr_kernel, nr_exact, nr_lost, lost_total;
	u64 nr_host_kernel, nr_host_user, nr_guest_kernel, nr_guest_user; /* perf kvm top's fields */
	char event_str[256];
	char target_str[256];
};

extern const char top_call_graph_help[];

/* top_opt_mmap_pages - -m PAGES (a count or a size) */
int top_opt_mmap_pages(const struct opt_spec *opt, const char *arg, int unset);
/* top_done - set by top's signal handler (cmd/top.c): the loops stop, the run ends */
extern volatile sig_atomic_t top_done;
/* top_synthesize - the kernel, modules and target tasks as records into the session (cmd/top-live.c) */
int top_synthesize(struct top *top);
/* top_read_rings - deliver what the rings hold; returns the number of rings that had data */
int top_read_rings(struct top *top);
/*
 * top_resolve_pending - entries still showing addresses of dsos whose symbols
 * have loaded since (lazily, session/symbol-loader.c) move to their symbols
 */
void top_resolve_pending(struct top *top);
/* top_take_stats - the header's numbers since the last refresh (and reset them) */
void top_take_stats(struct top *top, struct top_stats *st);
/* top_prepare_view - sort @h and mark the entries -K/-U and the filter hide */
void top_prepare_view(struct top *top, struct hists *h);
/*
 * top_age - after a refresh: zero (-z) or decay every histogram, free exited
 * processes; true when threads may have been freed (re-make views of entries)
 */
bool top_age(struct top *top);
/* top_term_size - $LINES/$COLUMNS, else stdout's window, else 25 x 80 */
void top_term_size(int *rows, int *cols);
/* top_stdio_loop - the --stdio form: a frame every -d seconds until q or a signal */
int top_stdio_loop(struct top *top);
/* top_tui_loop - the TUI form (cmd/top-tui.c): the report browser refreshed live */
int top_tui_loop(struct top *top);

#endif
