/* SPDX-License-Identifier: MIT */
/* report --stdio's text: the header lines, each event's histogram, the tip and the -T table. */
#include "ui/report-hists.h"

#include "core/evlist.h"
#include "core/evsel.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include "lib/xalloc.h"
#include "session/report.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* sonde's own tips, one shown at the end of a report as perf shows one of its own */
static const char *const tips[] = {
	"To see callers instead of callees: sonde report -G",
	"To only show entries above a threshold: sonde report --percent-limit 2",
	"To group by process and library: sonde report --sort comm,dso",
	"To count samples per entry: sonde report -n",
	"To see call chains folded on one line: sonde report -g folded",
	"To profile a command with call chains: sonde record -g -- <command>",
};


/*
 * struct text_grid - cells of text laid out in right-aligned columns, two
 * spaces apart, each as wide as its widest cell (the heading included):
 * the layout of perf's -T tables.
 */
struct text_grid {
	int nr_cols, nr_rows;	/* nr_rows counts the heading row */
	char **cell;		/* [row * nr_cols + col], owned */
};

static void text_grid_init(struct text_grid *g, int nr_cols, int nr_rows)
{
	g->nr_cols = nr_cols;
	g->nr_rows = nr_rows;
	g->cell = xcalloc((size_t)nr_cols * nr_rows, sizeof(*g->cell));
}

static void text_grid_set(struct text_grid *g, int row, int col, char *text)
{
	free(g->cell[row * g->nr_cols + col]);
	g->cell[row * g->nr_cols + col] = text;
}

/*
 * text_grid_print - row 0 after "# ", the others after "  ", each followed
 * by @row_end.
 */
static void text_grid_print(const struct text_grid *g, const char *row_end, FILE *out)
{
	int *width = xcalloc(g->nr_cols ? g->nr_cols : 1, sizeof(*width));

	for (int r = 0; r < g->nr_rows; r++)
		for (int c = 0; c < g->nr_cols; c++) {
			int w = (int)strlen(g->cell[r * g->nr_cols + c]);

			if (w > width[c])
				width[c] = w;
		}
	for (int r = 0; r < g->nr_rows; r++) {
		fputs(r ? "  " : "# ", out);
		for (int c = 0; c < g->nr_cols; c++)
			fprintf(out, "%s%*s", c ? "  " : "", width[c], g->cell[r * g->nr_cols + c]);
		fputs(r ? row_end : "\n", out);
	}
	free(width);
}

static void text_grid_release(struct text_grid *g)
{
	for (int i = 0; i < g->nr_cols * g->nr_rows; i++)
		free(g->cell[i]);
	free(g->cell);
}

/*
 * fprint_thread_values - perf's -T table: a PID, TID, <event>... heading
 * and one row per thread. With @raw (--pretty raw) the heading is PID, TID,
 * Name, Raw (the event's index, hex) and Count, with one row per thread and
 * event, and perf ends none of those rows with a newline.
 */
static void fprint_thread_values(const struct report_thread_values *tv, bool raw, FILE *out)
{
	static const char *const raw_heading[] = { "PID", "TID", "Name", "Raw", "Count" };
	struct text_grid g;

	if (raw) {
		text_grid_init(&g, 5, 1 + tv->nr_threads * tv->nr_counters);
		for (int c = 0; c < 5; c++)
			text_grid_set(&g, 0, c, xstrdup(raw_heading[c]));
		for (int t = 0, row = 1; t < tv->nr_threads; t++)
			for (int e = 0; e < tv->nr_counters; e++, row++) {
				text_grid_set(&g, row, 0, xasprintf("%d", tv->pid[t]));
				text_grid_set(&g, row, 1, xasprintf("%d", tv->tid[t]));
				text_grid_set(&g, row, 2, xstrdup(tv->counter_name[e]));
				text_grid_set(&g, row, 3, xasprintf("%x", tv->counter_evsel[e]));
				text_grid_set(&g, row, 4, xasprintf("%llu",
							(unsigned long long)tv->value[t][e]));
			}
		text_grid_print(&g, "", out);
	} else {
		text_grid_init(&g, 2 + tv->nr_counters, 1 + tv->nr_threads);
		text_grid_set(&g, 0, 0, xstrdup("PID"));
		text_grid_set(&g, 0, 1, xstrdup("TID"));
		for (int e = 0; e < tv->nr_counters; e++)
			text_grid_set(&g, 0, 2 + e, xstrdup(tv->counter_name[e]));
		for (int t = 0; t < tv->nr_threads; t++) {
			text_grid_set(&g, 1 + t, 0, xasprintf("%d", tv->pid[t]));
			text_grid_set(&g, 1 + t, 1, xasprintf("%d", tv->tid[t]));
			for (int e = 0; e < tv->nr_counters; e++)
				text_grid_set(&g, 1 + t, 2 + e,
					      xasprintf("%llu", (unsigned long long)tv->value[t][e]));
		}
		text_grid_print(&g, "\n", out);
	}
	text_grid_release(&g);
}

static void progress_cb(struct tool *tool, u64 done, u64 total)
{
	struct report_progress *pl = tool->progress_arg;
	u64 now = monotonic_ns();

	if (now - pl->start_ns < NSEC_PER_SEC || !total)
		return;
	fprintf(stderr, "\rProcessing events... %3u%%", (unsigned)(done * 100 / total));
	pl->shown = true;
}

void report_progress_start(struct report_progress *pl, struct tool *tool)
{
	pl->start_ns = monotonic_ns();
	pl->shown = false;
	if (isatty(2)) {
		tool->progress = progress_cb;
		tool->progress_arg = pl;
	}
}

void report_progress_end(struct report_progress *pl)
{
	if (pl->shown)
		fputs("\r\033[K", stderr);
}

/* fprint_event - one event (or group, led by @evsel) of @rep: its header lines and histogram */
static void fprint_event(struct report *rep, struct evsel *evsel, struct report_print_args *pa,
			 FILE *out)
{
	struct evlist *evlist = rep->session->evlist;
	struct hists *h = &rep->hists[evsel->idx];
	struct hists_print_opts *po = &pa->po;
	struct strbuf gname = STRBUF_INIT;
	u64 totals[64];

	po->nr_group = 0;
	if (pa->group_view && evsel->nr_members > 1) {
		struct evsel *m;
		int nr = 0;

		po->group_nr_samples = po->group_period = 0;
		if (!pa->one_group)
			strbuf_addf(&gname, "%s { ", evsel->group_name ? evsel->group_name
								: "anon group");
		evlist_for_each_entry(evlist, m) {
			if (m->leader != evsel || nr == (int)ARRAY_SIZE(totals))
				continue;
			strbuf_addf(&gname, "%s%s", nr ? ", " : "", m->name);
			totals[nr++] = rep->hists[m->idx].total_period;
			po->group_nr_samples += rep->hists[m->idx].nr_samples;
			po->group_period += rep->hists[m->idx].total_period;
		}
		if (!pa->one_group)
			strbuf_addstr(&gname, " }");
		po->nr_group = nr;
		po->group_totals = totals;
		if (!po->group_nr_samples)
			goto out;
	} else if (!h->nr_samples) {
		goto out;
	}
	po->event_name = po->nr_group ? gname.buf : evsel->name;
	/*
	 * perf says "events" for a group leader even when showing it alone;
	 * an explicit --no-group makes the first event the leader of all
	 */
	po->plural = po->nr_group > 1 || evsel->nr_members > 1 ||
		     (pa->group == 0 && !pa->has_groups && evsel == evlist_first(evlist) &&
		      evlist->nr_entries > 1);
	po->total_period_all = rep->total_period_all[evsel->idx];
	po->nr_samples_all = rep->nr_samples_all[evsel->idx];
	if (!pa->quiet)
		hists_fprintf_event_header(h, po, out);
	hists_fprintf(h, po, out);
	fputs("\n\n", out);
out:
	po->group_totals = NULL;
	strbuf_release(&gname);
}

void report_fprintf(struct report *rep, struct report_print_args *pa, FILE *out)
{
	struct session *s = rep->session;
	struct evsel *evsel;

	if (!pa->quiet) {
		if (!pa->show_header)
			fputs("# To display the perf.data header info, please use "
			      "--header/--header-only options.\n#\n",
			      out);
		if (pa->comm)
			fprintf(out, "# comm: %s\n", pa->comm);
		if (pa->dso)
			fprintf(out, "# dso: %s\n", pa->dso);
		if (pa->symbol)
			fprintf(out, "# symbol: %s\n", pa->symbol);
		fprintf(out, "#\n# Total Lost Samples: %llu\n#\n",
			(unsigned long long)s->stats.total_lost_samples);
	}
	evlist_for_each_entry(s->evlist, evsel)
		if (!pa->group_view || evsel_is_group_leader(evsel))
			fprint_event(rep, evsel, pa, out);
	if (!pa->quiet)
		fprintf(out, "#\n# (Tip: %s)\n#\n", tips[(unsigned)time(NULL) % ARRAY_SIZE(tips)]);
	/* -T: the per-thread counter table; its rows come from READ records (record -s) */
	if (pa->threads)
		fprint_thread_values(&rep->tv, pa->threads_raw, out);
}
