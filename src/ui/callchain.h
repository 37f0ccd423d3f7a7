/* SPDX-License-Identifier: MIT */
/* perf report --stdio: the callchains under an entry (graph, fractal, flat, folded). */
#ifndef SONDE_UI_CALLCHAIN_H
#define SONDE_UI_CALLCHAIN_H

#include "ui/hists.h"

#include <stdio.h>

/*
 * hist_entry_fprintf_callchain - the callchain lines perf prints below the
 * row of @e, in the -g mode of @hists. @whole is the 100% of flat and folded
 * lines (the percent columns' total). Prints nothing without a callchain.
 */
void hist_entry_fprintf_callchain(const struct hists *hists, const struct hist_entry *e,
				  const struct hists_print_opts *o, u64 whole, FILE *fp);

#endif
