/* SPDX-License-Identifier: MIT */
/* Flame graphs drawn from folded stacks: interactive SVG or HTML, and the folded text. */
#ifndef SONDE_UI_FLAMEGRAPH_H
#define SONDE_UI_FLAMEGRAPH_H

#include "session/stacks.h"

#include <stdbool.h>
#include <stdio.h>

/* struct flame_style - how the picture looks */
struct flame_style {
	const char *title;    /* NULL: "Flame Graph" (diff: "Differential Flame Graph") */
	const char *subtitle; /* NULL: none */
	const char *colors;   /* palette: java (kinds, default), hot, mem, io, red, green, blue,
				 aqua, yellow, purple, orange */
	const char *count_name; /* "samples" or the weight's name */
	int width;	      /* pixels, 0: 1200 */
	double minwidth;      /* frames narrower (pixels) are not drawn, <0: 0.1 */
	bool inverted;	      /* icicle: root at the top */
	bool html;	      /* an HTML page around the SVG */
	bool diff;	      /* colour by growth from side 0 to side 1 */
};

/* flame_palette_valid - whether @name is a palette flamegraph_write() knows */
bool flame_palette_valid(const char *name);

/*
 * flamegraph_write - @st as a self-contained interactive SVG (or HTML
 * page) on @out: frames sized by weight (side 1 for a diff), tooltips,
 * click to zoom, reset, search with the matched share. Returns 0 or -EIO.
 */
int flamegraph_write(FILE *out, const struct stacks *st, const struct flame_style *style);

/*
 * flamegraph_write_folded - @st as stackcollapse-perf.pl's text: one
 * "frame;frame;... count" line per stack, sorted bytewise; counts are
 * samples (weights with @weights); a diff prints both sides' counts, as
 * difffolded.pl does. Returns 0 or -EIO.
 */
int flamegraph_write_folded(FILE *out, const struct stacks *st, bool weights, bool diff);

#endif
