/* SPDX-License-Identifier: MIT */
/* The histogram browser of report's and top's TUI (ncursesw): rows, callchains, zooms, filter, event chooser. */
#ifndef SONDE_UI_HISTS_BROWSER_H
#define SONDE_UI_HISTS_BROWSER_H

#include "ui/hists.h"
#include "ui/script-browser.h"

#include <stdbool.h>

struct strvec;
#include <stddef.h>

/* struct hist_browser_event - one event the browser can show */
struct hist_browser_event {
	struct hists *hists;	/* sorted; entries' filtered flags are the command's */
	const char *name;	/* the event's name */
};

/*
 * struct hist_browser_ops - what the command adds: a live source (top) and
 * the annotate hook. Every member may be NULL / 0.
 */
struct hist_browser_ops {
	int update_ms;		/* call update after each key and when none came for this long */
	/*
	 * update - new data: the command updates and re-sorts the hists (the
	 * title callback gives the header line).
	 */
	bool (*update)(void *arg); /* true: the entries changed (re-sorted), rebuild the view */
	/* title - the first line instead of report's, for @ev (top's) */
	void (*title)(void *arg, const struct hist_browser_event *ev, char *title, size_t size);
	const char *help_line;	/* the last line's text (NULL: "Press '?' for help on key bindings") */
	/*
	 * key - a key the browser does not handle (top's z, K, U, f): return
	 * true when the view must be rebuilt; @status may receive a message.
	 */
	bool (*key)(void *arg, int key, char *status, size_t size);
	/*
	 * annotate - 'a' on @e's row (@f is its frame) or on one of its chain
	 * lines (@f: the line's frame): returns 0 when it showed the
	 * annotation, or -errno with a message for the status line in @msg.
	 */
	int (*annotate)(void *arg, const struct hist_entry *e, const struct frame *f, char *msg,
			size_t size);
	/* scripts - 'r' and the menu's "Run scripts for ..." items; NULL: none */
	const struct script_menu *scripts;
	/*
	 * data_files - the menu's "Switch to another data file in PWD": the
	 * perf.data files of the current directory into @files (NULL: no item)
	 */
	void (*data_files)(void *arg, struct strvec *files);
	/* switch_file - @path was chosen: the browser ends, the command reopens it */
	void (*switch_file)(void *arg, const char *path);
	void *arg;
};

/*
 * hists_browse - the TUI on the terminal: the event chooser first when
 * there are several events, else the histogram browser of @evs[0]; until
 * the user quits. @po: the columns (its elide_keys and filters are the
 * command's; the browser adds its zooms). The terminal is restored on
 * return and when a signal ends the process.
 * Returns 0, -ENOTTY (no terminal), -EMSGSIZE (the terminal is too small:
 * fewer than HIST_BROWSER_MIN_ROWS x HIST_BROWSER_MIN_COLS), after writing
 * nothing to the screen.
 */
#define HIST_BROWSER_MIN_ROWS 5
#define HIST_BROWSER_MIN_COLS 40
int hists_browse(struct hist_browser_event *evs, int nr, const struct hists_print_opts *po,
		 const struct hist_browser_ops *ops);

/* hists_browser_sample_unit - the header's sample count: "238 ", "22K" (number and unit char) */
void hists_browser_sample_unit(unsigned long long n, unsigned long long *out, char *unit);

#endif
