/* SPDX-License-Identifier: MIT */
/* perf report --stdio output: the header block, the table and the callchain graphs. */
#ifndef SONDE_UI_HISTS_H
#define SONDE_UI_HISTS_H

#include "session/hists.h"

#include <stdbool.h>
#include <stdio.h>

/* struct hists_print_opts - presentation choices (perf report's options). */
struct hists_print_opts {
	bool show_nr_samples;	/* -n */
	bool show_total_period; /* --show-total-period */
	bool total_weight;	/* --mem-mode: the event count line is perf's Total weight */
	const char *sort_order; /* --mem-mode: the sort order line, NULL: none */
	bool quiet;		/* -q: no header lines */
	double percent_limit;	/* --percent-limit */
	bool percent_absolute;	/* --percentage absolute (perf's default): filtered-out
				   samples still count in the 100% and the header */
	bool sym_first;		/* the sort order starts with "sym" (perf skips the root frame) */
	const char *event_name;
	u64 total_period_all;	/* for --percentage absolute: the total before filtering */
	u64 nr_samples_all;
	bool overhead_title;	/* -F given: the self column is "Overhead" even with children */
	bool has_dso_filter;
	bool plural;		/* "of events" in the header */
	const char *time_str;	/* --time: " (time slices: ...)" after the sample count */
	int nr_group;		/* group view: members, leader first (0: no group) */
	const u64 *group_totals; /* the 100% of each member */
	u64 group_nr_samples;	/* samples of all members, for the header */
	u64 group_period;	/* event count of all members */	/* --dsos given: no room is made for raw addresses */
	unsigned int elide_keys; /* bit per enum sort_key: columns not shown (a filter fixes them) */
	const char *field_sep;	/* -t: columns joined by it, unpadded numbers, no dot rule */
	bool verbose;		/* -v: long dso names, symbol address and symtab origin */
	const struct symbol_opts *symbol_opts; /* for -v's origin (build-id cache dir), may be NULL */
	size_t max_entries;	/* 0: every entry; else at most this many rows (top -E) */
	const int *col_widths;	/* top -w: fixed widths of the first columns, in order */
	int nr_col_widths;
};

/*
 * hists_fprintf_event_header - "# Samples: 22K of event 'x'" and
 * "# Event count (approx.): N" then "#".
 */
void hists_fprintf_event_header(const struct hists *hists, const struct hists_print_opts *o,
				FILE *fp);

/*
 * hists_fprintf - the column titles, dot rules and every entry with its
 * callchain, as perf report --stdio prints them. @hists must be sorted.
 * Returns the number of entries printed.
 */
size_t hists_fprintf(struct hists *hists, const struct hists_print_opts *o, FILE *fp);

/* hists_visible_period - the self periods of the entries no filter hides (--percentage relative) */
u64 hists_visible_period(const struct hists *hists);

/* hist_entry_sym_text - "[.] name" / "[k] 0x..." into @buf. Returns @buf. */
const char *hist_entry_sym_text(const struct hist_entry *e, char *buf, size_t size);

/*
 * struct hists_rows - the stdio table printed row by row (the TUI draws only
 * the rows on screen): the columns and their widths are set up once, from
 * the entries visible then.
 */
struct hists_rows;

/* hists_rows_new - columns of @hists (sorted) for @o (borrowed, must outlive the rows). */
struct hists_rows *hists_rows_new(struct hists *hists, const struct hists_print_opts *o);
void hists_rows_free(struct hists_rows *rows);
/* hists_rows_total - the 100% of the percent columns */
u64 hists_rows_total(const struct hists_rows *rows);
/* hists_rows_update_total - the 100% again from the hists (live data grew or decayed) */
void hists_rows_update_total(struct hists_rows *rows);
/* hists_rows_visible - @e is shown (no filter, over --percent-limit) */
bool hists_rows_visible(const struct hists_rows *rows, const struct hist_entry *e);
/* hists_rows_title - the column titles, as stdio's first title line without "# " (no newline) */
void hists_rows_title(struct hists_rows *rows, FILE *fp);
/* hists_rows_entry - @e's row as report --stdio prints it (with its newline) */
void hists_rows_entry(struct hists_rows *rows, const struct hist_entry *e, FILE *fp);

#endif
