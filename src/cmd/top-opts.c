/* SPDX-License-Identifier: MIT */
/* sonde top: option helpers too long for the table in cmd/top.c. */
#include "cmd/top.h"

#include "lib/optspec.h"

#include <stdio.h>

const char top_call_graph_help[] =
	"setup and enables call-graph (stack chain/backtrace):\n\n"
	"\t\t\t\trecord_mode:\tcall graph recording mode (fp|dwarf|lbr)\n"
	"\t\t\t\trecord_size:\tif record_mode is 'dwarf', max size of stack recording (<bytes>)\n"
	"\t\t\t\t\t\tdefault: 8192 (bytes)\n"
	"\t\t\t\tprint_type:\tcall graph printing style (graph|flat|fractal|folded|none)\n"
	"\t\t\t\tthreshold:\tminimum call graph inclusion threshold (<percent>)\n"
	"\t\t\t\tprint_limit:\tmaximum number of call graph entry (<number>)\n"
	"\t\t\t\torder:\t\tcall graph order (caller|callee)\n"
	"\t\t\t\tsort_key:\tcall graph sort key (function|address)\n"
	"\t\t\t\tbranch:\t\tinclude last branch info to call graph (branch)\n"
	"\t\t\t\tvalue:\t\tcall graph value (percent|period|count)\n\n"
	"\t\t\t\tDefault: fp,graph,0.5,caller,function";

int top_opt_mmap_pages(const struct opt_spec *opt, const char *arg, int unset)
{
	struct top *top = opt->dest;
	size_t pages;

	if (unset) {
		top->mmap_pages = 0;
		return 0;
	}
	if (perf_mmap_pages_parse(arg, &pages)) {
		fprintf(stderr, "Invalid argument for --mmap_pages/-m\n");
		return -1;
	}
	top->mmap_pages = pages;
	return 0;
}
