/* SPDX-License-Identifier: MIT */
/* report's TUI: the events of a loaded report handed to the histogram browser. */
#include "ui/report-browser.h"

#include "core/evlist.h"
#include "core/evsel.h"
#include "lib/xalloc.h"
#include "session/report.h"
#include "ui/hists-browser.h"

#include <errno.h>
#include <stdlib.h>

int report_browse(struct report *rep, struct report_print_args *pa,
		  const struct hist_browser_ops *ops)
{
	struct evlist *evlist = rep->session->evlist;
	struct hist_browser_event *evs = xcalloc(rep->nr_hists ? rep->nr_hists : 1, sizeof(*evs));
	struct evsel *evsel;
	int nr = 0, ret;

	/* the events with samples, in the file's order (perf's "Available samples") */
	evlist_for_each_entry(evlist, evsel) {
		struct hists *h = &rep->hists[evsel->idx];

		if (!h->nr_samples)
			continue;
		evs[nr].hists = h;
		evs[nr].name = evsel->name;
		nr++;
	}
	pa->po.nr_group = 0;
	pa->po.quiet = true;
	ret = nr ? hists_browse(evs, nr, &pa->po, ops) : 0;
	free(evs);
	return ret;
}
