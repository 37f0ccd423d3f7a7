/* SPDX-License-Identifier: MIT */
/* perf diff's table: a baseline's hist entries against those of other files, with delta, ratio or weighted diff. */
#ifndef SONDE_UI_DIFF_H
#define SONDE_UI_DIFF_H

#include "session/hists.h"
#include "session/report.h"

#include <stdbool.h>

enum diff_compute { DIFF_DELTA, DIFF_DELTA_ABS, DIFF_RATIO, DIFF_WDIFF };

/* struct diff_opts - perf diff's presentation options */
struct diff_opts {
	enum diff_compute compute;
	s64 w1, w2;		/* wdiff weights */
	bool show_period;	/* -p */
	bool show_formula;	/* -F */
	bool baseline_only;	/* -b */
	unsigned int elide_keys; /* bit per sort key: a one-value filter hides its column */
	bool relative;		/* --percentage relative: of what the filters leave */
	const char *sep;	/* -t: the column separator (NULL: two spaces, dots under the titles) */
	int order;		/* -o: the file whose column orders the rows (1: the first new one) */
	enum sort_key keys[SORT_NR_KEYS];
	int nr_keys;
};

/* struct diff_file - one loaded file: its name and report (hists per evsel) */
struct diff_file {
	const char *path;
	struct report *rep;
};

/*
 * diff_fprintf - perf diff's output for @files (the baseline first) on stdout:
 * per event of the baseline, the header, then every row.
 */
void diff_fprintf(struct diff_file *files, int nr_files, const struct diff_opts *o);

#endif
