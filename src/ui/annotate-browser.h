/* SPDX-License-Identifier: MIT */
/* annotate's TUI (ncursesw): one symbol's disassembly with percentages, jump arrows and perf's keys. */
#ifndef SONDE_UI_ANNOTATE_BROWSER_H
#define SONDE_UI_ANNOTATE_BROWSER_H

#include "ui/annotate-stdio.h"
#include "ui/script-browser.h"

/* struct annotate_browse_args - what the browser shows */
struct annotate_browse_args {
	const struct annotate_line *lines; /* annotate_build_lines() with source */
	size_t nr_lines;
	const struct annotate_sym *as;
	const struct annotate_hists *ah;
	const char *title;	  /* the first line ("Samples: ... of event ...") */
	const char *dso_path;	  /* the second line's path */
	enum annotate_percent_type percent_type;
	bool zero_global_hits;	  /* global hits 0% (perf annotate's; report's count) */
	u64 global_hits, global_period; /* the global percentages' totals (0: @ah's) */
	/*
	 * follow - Enter on a call to @addr (an ELF address outside the
	 * symbol): browse that symbol; 0 when shown, else -errno with a
	 * message in @msg. NULL: calls are not followed.
	 */
	int (*follow)(void *arg, u64 addr, char *msg, size_t size);
	void *arg;
	/*
	 * the symbols naming branch targets outside the symbol, as perf's
	 * browser names them for a kernel symbol ("rt_mt6", no offset; an
	 * address no symbol holds: "*ffffffff8224edd9"); NULL: objdump's <name>
	 */
	const struct symtab *target_syms;
	u64 target_lo, target_hi; /* with @target_syms: the mapped range it names (0, 0: all) */
	const struct u64map *hidden_syms; /* symbol pointers @target_syms does not name, or NULL */
	const struct script_menu *scripts; /* 'r': perf's script menu, or NULL */
	u64 addr_base;		  /* a kernel's map start: the raw view's address column is as
				     wide as the addresses' distance from it (0 for user code) */
};

/*
 * annotate_browse - the annotate browser until q/Esc/Left. Inside a
 * running curses screen (the histogram browser's) it draws there; else it
 * opens its own on the terminal and restores it on return and on signals.
 * Returns 0, -ENOTTY (no terminal) or -EMSGSIZE (terminal too small),
 * the last two before anything was drawn.
 */
int annotate_browse(const struct annotate_browse_args *a);

/*
 * annotate_popup - perf's error box on a terminal: @title on its top
 * border, the lines of @text, a blank line and "Press any key...", in the
 * middle of the screen until a key is pressed. Returns 0 or -ENOTTY.
 */
int annotate_popup(const char *title, const char *text);

/*
 * annotate_stdio2_fprintf - perf annotate --stdio2: the browser's lines as
 * text (its title with the percent type, "SYM() PATH", then each line)
 */
void annotate_stdio2_fprintf(FILE *out, const struct annotate_browse_args *a);

#endif
