/* SPDX-License-Identifier: MIT */
/* Heat maps (latency, sub-second offset) as SVG with legend, axes and tooltips, or as CSV. */
#ifndef SONDE_UI_HEATMAP_H
#define SONDE_UI_HEATMAP_H

#include "lib/util.h"

#include <stdbool.h>
#include <stdio.h>

/* struct heatmap - counts on a grid: column = time bucket, row = value bucket (row 0 lowest) */
struct heatmap {
	u32 cols, rows;
	u64 *cells;	     /* cols * rows, cells[col * rows + row]; owned by the caller */
	double x0, x_step;   /* seconds from the first event: column c is [x0 + c*x_step, +x_step) */
	double y0, y_step;   /* in the y unit: row r is [y0 + r*y_step, +y_step) */
	const char *y_label; /* "Latency (us)" */
	const char *y_unit;  /* "us" */
	const char *title, *subtitle;
	const char *what;    /* "events" / "samples" */
	u64 nr_points;	     /* placed on the grid */
	u64 nr_clipped;	     /* above the last row (--max-latency) */
	bool y_log;	     /* rows on a log scale: row r is [y0 * y_step^r, y0 * y_step^(r+1)),
				y_step being a factor > 1; row 0 also holds what is below y0 */
};

/* heatmap_row_start - the lower edge of row @r (linear or log scale) */
double heatmap_row_start(const struct heatmap *hm, u32 r);

/*
 * heatmap_write_svg - @hm as a self-contained SVG: one rectangle per
 * non-empty cell, coloured by count (white to dark red), each with a
 * tooltip; axis labels and ticks; a legend of the colour scale. @width is
 * the picture width in pixels (0: 1200). Returns 0 or -EIO.
 */
int heatmap_write_svg(FILE *out, const struct heatmap *hm, int width);

/* heatmap_write_csv - "time_s,value,count" per non-empty cell (bucket starts). Returns 0 or -EIO. */
int heatmap_write_csv(FILE *out, const struct heatmap *hm);

#endif
