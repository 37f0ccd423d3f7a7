/* SPDX-License-Identifier: MIT */
/*
 * The text of `report --stdio` once the histograms are made: cmd/report-run.c
 * decides what to show (struct report_print_args), this prints it.
 */
#ifndef SONDE_UI_REPORT_HISTS_H
#define SONDE_UI_REPORT_HISTS_H

#include "ui/hists.h"

#include <stdbool.h>
#include <stdio.h>

struct report;
struct tool;

/* struct report_print_args - what the stdio report shows (decided by cmd/). */
struct report_print_args {
	struct hists_print_opts po; /* the columns; the event fields are filled per event */
	bool quiet;		    /* -q: no header lines, no tip */
	bool show_header;	    /* the header (or the banner about it) came first */
	const char *comm, *dso, *symbol; /* a lone --comm/--dsos/--symbols value, or NULL */
	int group;		    /* --group: 1, --no-group: 0, -1: as the file has them */
	bool group_view;	    /* events shown by group, leaders only */
	bool one_group;		    /* --group on a file without groups: all events in one */
	bool has_groups;	    /* the file has groups */
	bool threads, threads_raw;  /* -T, with --pretty raw */
};

/*
 * report_fprintf - the whole stdio report of @rep (its hists sorted and
 * linked by group): the header lines, each event's histogram, perf's
 * "Tip" and the -T table.
 */
void report_fprintf(struct report *rep, struct report_print_args *pa, FILE *out);

/* struct report_progress - the "Processing events..." line (terminals only, after 1s) */
struct report_progress {
	u64 start_ns;
	bool shown;
};

/* report_progress_start - show @pl's line while @tool's session loads (when stderr is a tty). */
void report_progress_start(struct report_progress *pl, struct tool *tool);
/* report_progress_end - erase the line if it was shown. */
void report_progress_end(struct report_progress *pl);

#endif
