/* SPDX-License-Identifier: MIT */
/* report's internals shared by cmd/report.c (options), report-keys.c and report-run.c. */
#ifndef SONDE_CMD_REPORT_H
#define SONDE_CMD_REPORT_H

#include "session/hists.h"
#include "symbol/symtab.h"

#include <stdbool.h>
#include <stdio.h>

struct data_reader;

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
	bool mem_mode;		   /* --mem-mode */
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
	bool intel;		   /* -M intel: the TUI's annotations in Intel syntax */
	/* progress line on stderr when the load takes more than a second (terminal only) */
	bool show_progress;
	bool tui;		   /* the histogram browser instead of the stdio text */
	char **switch_to;	   /* the TUI's data file switch: the file chosen (owned), or NULL */
};

/*
 * report_hists_run - the histogram report of @a->reader (or @a->input,
 * opened here) printed to @out. Returns the exit status: 0, or perf's
 * status after its message on stderr (255 fatal, 129 a bad option value,
 * 234 a bad --time; 0 after some of perf's errors).
 */
int report_hists_run(const struct report_hist_args *a, FILE *out);

struct session;
struct report;
struct report_print_args;

/*
 * report_tui - browse @rep (loaded from @s, read from @input) in the
 * histogram browser with report's hooks: annotate, the script menus and
 * the data file switch (the chosen file into *@a->switch_to). Returns the
 * exit status (255 after the message when there is no usable terminal).
 */
int report_tui(const struct report_hist_args *a, struct session *s, struct report *rep,
	       struct report_print_args *pa, const char *input);

/*
 * report_parse_sort - --sort: keys, and output fields in their place. As
 * perf does, a list with output fields orders the rows by that list
 * (overhead first unless it names an overhead field); "p_stage_cyc"
 * (powerpc only) adds nothing; a list that contains "symbol" gets the
 * "IPC" column. Prints perf's error and returns -EINVAL for an unknown key.
 */
int report_parse_sort(const char *s, struct hists_opts *ho);

/*
 * report_parse_fields - -F: the columns, in order; the --sort keys parsed
 * before (ho->nr_sort_first of them) lead the sort order and are shown
 * after the fields when -F lacks them. Prints perf's error and returns
 * -EINVAL for an unknown field.
 */
int report_parse_fields(const char *s, struct hists_opts *ho);

/*
 * report_parse_callchain - -g: graph|flat|fractal|folded|none,
 * caller|callee, the threshold and the print limit (*@none for "none").
 * Returns -EINVAL for a word it does not know.
 */
int report_parse_callchain(const char *s, struct callchain_opts *cc, bool *none);

/* report_sort_list_add - one more column to order the rows by (while there is room). */
void report_sort_list_add(struct hists_opts *ho, enum hist_column type, enum sort_key key);

/* report_has_key - @k is one of the sort keys in @ho */
bool report_has_key(const struct hists_opts *ho, enum sort_key k);

#endif
