/* SPDX-License-Identifier: MIT */
/*
 * The histogram path of `report --stdio`: option values in, the whole
 * stdio report out. cmd/report.c parses the command line and calls
 * report_hists_run(); everything else lives in session/ and ui/.
 */
#ifndef SONDE_UI_REPORT_HISTS_H
#define SONDE_UI_REPORT_HISTS_H

#include "symbol/symtab.h"

struct data_reader;

#include <stdbool.h>
#include <stdio.h>

/* struct report_hist_args - perf report's options as given (strings borrowed). */
struct report_hist_args {
	const char *input;	   /* -i, default "perf.data" */
	struct data_reader *reader; /* already open (borrowed), or NULL: open @input */
	const char *sort;	   /* -s/--sort, NULL: perf's default */
	const char *fields;	   /* -F/--fields */
	const char *callchain;	   /* -g/--call-graph argument, NULL: default */
	bool no_callchain;	   /* -g none / --no-call-graph? */
	int children;		   /* -1 default (on when callchains exist), 0, 1 */
	bool inverted;		   /* -G */
	const char *percent_limit; /* --percent-limit */
	bool percent_limit_last;   /* --percent-limit given after -g */
	const char *percentage;	   /* --percentage relative|absolute */
	bool show_nr_samples;	   /* -n */
	bool show_total_period;	   /* --show-total-period */
	bool quiet;		   /* -q */
	bool show_header;	   /* --header: the header was printed already by the caller */
	int group;		   /* --group: 1, --no-group: 0, -1: when the file has groups */
	bool threads;		   /* -T */
	bool threads_raw;	   /* -T with --pretty raw */
	const char *comms, *pids, *tids, *dsos, *symbols, *cpus, *time;
	const char *parent;	   /* -p regex */
	u64 time_quantum;	   /* --time-quantum in ns, 0: perf's 100ms */
	int max_stack;		   /* --max-stack, 0: default 127 */
	const char *field_sep;	   /* -t: columns joined by this, no padding between */
	bool hide_unresolved;	   /* -U: samples without a symbol are dropped */
	bool exclude_other;	   /* -x: entries without a parent match are hidden */
	const char *symbol_filter; /* --symbol-filter: entries whose symbol contains it */
	const char *switch_on, *switch_off; /* event names */
	bool show_on_off_events;
	const struct symbol_opts *symbol_opts;
	/* progress line on stderr when the load takes more than a second (terminal only) */
	bool show_progress;
};

/*
 * report_hists_run - load @a->input and print the report to @out.
 * Returns 0, or perf's exit status after printing the error on stderr
 * (255 fatal, 129 for a bad option value).
 */
int report_hists_run(const struct report_hist_args *a, FILE *out);

#endif
