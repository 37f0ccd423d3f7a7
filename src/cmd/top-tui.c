/* SPDX-License-Identifier: MIT */
/* sonde top's TUI: the report browser over the live histograms, refreshed every -d seconds. */
#include "cmd/annotate.h"
#include "cmd/top.h"

#include "core/evlist.h"
#include "core/evsel.h"
#include "lib/optspec.h"
#include "lib/util.h"
#include "lib/xalloc.h"
#include "session/session.h"
#include "ui/hists-browser.h"
#include "ui/top.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* struct top_tui - the browser's view of top: what is due when */
struct top_tui {
	struct top *top;
	u64 next_refresh;
	bool age_due;		/* the last refresh was shown: decay before the next one */
	struct top_stats st;	/* the header of the last refresh */
};

static void sort_all(struct top *top)
{
	for (int i = 0; i < top->rep.nr_hists; i++)
		top_prepare_view(top, &top->rep.hists[i]);
}

/* tui_update - read the rings; at each -d boundary new numbers, sorted: true */
static bool tui_update(void *arg)
{
	struct top_tui *t = arg;
	struct top *top = t->top;
	bool changed = false;

	if (t->age_due) {
		size_t before = 0, after = 0;
		bool reaped;

		for (int i = 0; i < top->rep.nr_hists; i++)
			before += top->rep.hists[i].nr_chunks;
		reaped = top_age(top);
		for (int i = 0; i < top->rep.nr_hists; i++)
			after += top->rep.hists[i].nr_chunks;
		t->age_due = false;
		/*
		 * a histogram that started afresh: the browser holds none of its
		 * entries; threads freed: the removed entries it shows may name them
		 */
		if (after != before || top->zero || reaped) {
			sort_all(top);
			changed = true;
		}
	}
	top_read_rings(top);
	if (monotonic_ns() >= t->next_refresh) {
		top_take_stats(top, &t->st);
		sort_all(top);
		t->age_due = true;
		t->next_refresh = monotonic_ns() + (u64)top->delay_secs * NSEC_PER_SEC;
		changed = true;
	}
	return changed;
}

/* tui_title - perf top's TUI title: the samples and event count of @ev, the rate, lost and drop */
static void tui_title(void *arg, const struct hist_browser_event *ev, char *buf, size_t size)
{
	struct top_tui *t = arg;
	struct evsel *first = evlist_first(t->top->evlist);
	unsigned long long n;
	char unit, rate[64] = "";

	hists_browser_sample_unit(ev->hists->nr_samples, &n, &unit);
	if (t->top->opts.freq)
		snprintf(rate, sizeof(rate), ", %llu Hz", (unsigned long long)first->attr.sample_freq);
	snprintf(buf, size,
		 "Samples: %llu%c of event '%s'%s, Event count (approx.): %llu lost: %llu/%llu "
		 "drop: %llu/%llu",
		 n, unit, ev->name ? ev->name : "", rate,
		 (unsigned long long)ev->hists->total_period, t->st.lost, t->st.lost_total,
		 t->st.drop, t->st.drop_total);
}

/* tui_key - top's own keys: z (zero), K and U (hide kernel / user), s (annotate), f (freeze) */
static bool tui_key(void *arg, int key, char *status, size_t size)
{
	struct top_tui *t = arg;
	struct top *top = t->top;

	switch (key) {
	case 'z':
		top->zero = !top->zero;
		snprintf(status, size, "Sample zeroing %s", top->zero ? "on" : "off");
		return false;
	case 'K':
		top->hide_kernel = !top->hide_kernel;
		break;
	case 'U':
		top->hide_user = !top->hide_user;
		break;
	case 's':
		/* the stdio form's "annotate a symbol"; the browser's key is 'a' */
		snprintf(status, size, "Press 'a' to annotate the selected symbol");
		return false;
	case 'f':
		top->paused = !top->paused;
		snprintf(status, size, "%s", top->paused ? "Display frozen: press f to go on"
							   : "Display running");
		return false;
	default:
		return false;
	}
	sort_all(top);
	return true;
}

/*
 * tui_annotate - 'a': the annotate browser on the selected symbol, from the
 * addresses top has counted; sampling waits while it is shown (the rings
 * may drop what comes meanwhile, counted as lost)
 */
static int tui_annotate(void *arg, const struct hist_entry *e, const struct frame *f, char *msg,
			size_t size)
{
	struct top_tui *t = arg;
	struct top *top = t->top;
	bool intel = top->disassembler_style && strstr(top->disassembler_style, "intel");

	if (!f->sym || !f->dso || !top->has_annot) {
		snprintf(msg, size, "No symbol to annotate");
		return -ENOENT;
	}
	for (int i = 0; i < top->rep.nr_hists; i++) {
		const struct hists *h = &top->rep.hists[i];

		for (size_t k = 0; k < h->nr_entries; k++)
			if (h->entries[k] == e)
				return annotate_tui_live(top->session->evlist, &top->annot,
							 f->sym, i, h->nr_samples,
							 h->total_period, intel, msg, size);
	}
	snprintf(msg, size, "No symbol to annotate");
	return -ENOENT;
}

int top_tui_loop(struct top *top)
{
	struct hist_browser_event evs[64];
	struct top_tui t = { .top = top };
	struct hist_browser_ops ops = {
		.update_ms = 100,
		.update = tui_update,
		.title = tui_title,
		.key = tui_key,
		.annotate = tui_annotate,
		.arg = &t,
	};
	char hint[128];
	struct evsel *evsel;
	int nr = 0, ret;

	evlist_for_each_entry(top->session->evlist, evsel) {
		if (evsel->attr.type == PERF_TYPE_SOFTWARE && evsel->attr.config == PERF_COUNT_SW_DUMMY)
			continue;
		if (nr < (int)ARRAY_SIZE(evs) && evsel->idx < top->rep.nr_hists) {
			evs[nr].hists = &top->rep.hists[evsel->idx];
			evs[nr].name = evsel->name;
			nr++;
		}
	}
	/* perf top's last line */
	snprintf(hint, sizeof(hint), "For a higher level overview, try: %s top --sort comm,dso",
		 prog_name);
	ops.help_line = hint;
	top->last_refresh = monotonic_ns();
	top_take_stats(top, &t.st);
	t.next_refresh = monotonic_ns() + (u64)top->delay_secs * NSEC_PER_SEC;
	sort_all(top);
	ret = hists_browse(evs, nr, &top->po, &ops);
	if (ret == -EMSGSIZE) {
		fprintf(stderr, "Error: the terminal is too small for the TUI (needs %dx%d), use --stdio\n",
			HIST_BROWSER_MIN_COLS, HIST_BROWSER_MIN_ROWS);
		return 255;
	}
	if (ret == -ENOTTY)
		return top_stdio_loop(top);
	return 0;
}
