/* SPDX-License-Identifier: MIT */
/* c2c report --stdio: perf's statistics tables, the cacheline table and the per-offset Pareto. */
#ifndef SONDE_UI_C2C_H
#define SONDE_UI_C2C_H

#include "session/c2c.h"

#include <stdbool.h>
#include <stdio.h>

struct evlist;

/* struct c2c_print_opts - report options that shape the text */
struct c2c_print_opts {
	const char *coalesce_text; /* "tid,iaddr": as given to -c, in its order */
	int node_info;		   /* -N count: 0 node list, 1 stats, 2+ cpu list */
	bool full_symbols;
	bool show_all;
	bool stats_only;	   /* --stats */
	bool no_source;		   /* --no-source: no Source:Line column */
};

/*
 * c2c_print - perf c2c report --stdio for the sorted model @c: Trace Event
 * Information, Global Shared Cache Line Event Information, c2c details and,
 * unless stats_only, the Shared Data Cache Line Table and the Pareto.
 */
void c2c_print(FILE *fp, struct c2c *c, const struct evlist *evlist,
	       const struct c2c_print_opts *o);

#endif
