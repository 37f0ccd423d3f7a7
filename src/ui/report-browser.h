/* SPDX-License-Identifier: MIT */
/* report's TUI entry: a loaded report shown in the histogram browser. */
#ifndef SONDE_UI_REPORT_BROWSER_H
#define SONDE_UI_REPORT_BROWSER_H

#include "ui/report-hists.h"

struct hist_browser_ops;

/*
 * report_browse - the TUI of @rep (hists sorted): the event chooser for
 * several events, the histogram browser. @ops may be NULL. Returns 0, or
 * hists_browse()'s -ENOTTY / -EMSGSIZE before anything was drawn.
 */
int report_browse(struct report *rep, struct report_print_args *pa,
		  const struct hist_browser_ops *ops);

#endif
