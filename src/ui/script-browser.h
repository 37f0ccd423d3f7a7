/* SPDX-License-Identifier: MIT */
/* The TUIs' script runs (perf's 'r' menu), their output viewer, and the small menus and boxes they share. */
#ifndef SONDE_UI_SCRIPT_BROWSER_H
#define SONDE_UI_SCRIPT_BROWSER_H

#include <curses.h>
#include <stddef.h>

/*
 * struct script_menu - what perf's "Run available scripts" menu offers: the
 * command's data file and the built-in scripts that apply to it. A chosen
 * entry runs `@exe script ... -i @input` (argv, no shell).
 */
struct script_menu {
	const char *exe;		/* the program to run ("/proc/self/exe") */
	const char *prog;		/* its argv[0] */
	const char *input;		/* the data file */
	const char *const *scripts;	/* built-in script names, in the menu's order */
	int nr_scripts;
};

/* struct tui_attrs - the caller's colours: the title bar, the selected line */
struct tui_attrs {
	attr_t title;
	attr_t selected;
};

/*
 * tui_menu - perf's option menu on stdscr: an empty title bar, @items (the
 * selection on @sel), the hint line @hint. Returns the index chosen with
 * Enter/Right, or -1 after Esc/Left/q.
 */
int tui_menu(const char *const *items, int nr, int sel, const char *hint,
	     const struct tui_attrs *at);

/*
 * tui_text_browse - @text in a pager as less shows it (lines wrapped at the
 * screen width, ':' or "(END)" on the last line) until q/Esc.
 */
void tui_text_browse(const char *text, size_t len, const struct tui_attrs *at);

/*
 * tui_prompt - perf's input box: @title on its top border, @text above a
 * framed field. Returns the typed text (malloc'd), or NULL after Esc.
 */
char *tui_prompt(const char *title, const char *text);

/*
 * script_menu_run - perf's 'r' menu: its four "Show ... samples" entries
 * and @m's scripts; the chosen one runs with @filter_opt @filter_val added
 * ("-S" SYM, "-c" COMM; NULL: all samples) and its output is shown. Returns
 * 0 when something ran, 1 when the menu was left, -errno when the run
 * could not start.
 */
int script_menu_run(const struct script_menu *m, const char *filter_opt, const char *filter_val,
		    const struct tui_attrs *at);

#endif
