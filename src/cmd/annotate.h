/* SPDX-License-Identifier: MIT */
/* sonde annotate's TUI: its command entry and the entries for report's and top's browsers. */
#ifndef SONDE_CMD_ANNOTATE_H
#define SONDE_CMD_ANNOTATE_H

#include "core/evlist.h"
#include "session/annotate.h"
#include "session/machine.h"

#include <stddef.h>

/*
 * annotate_tui_entry - the annotate browser for @sym of @dso in @input
 * (read again, its samples of event @evsel_idx, -1: the first), inside the
 * running TUI. @nr_samples and @period: the title's numbers (0: the symbol's);
 * @intel: objdump's Intel syntax (-M intel).
 * Returns 0 after the user left it, or -errno with a message in @msg.
 */
int annotate_tui_entry(const char *input, const struct symbol_opts *sopts,
		       const struct symbol *sym, const struct dso *dso, int evsel_idx, u64 nr_samples,
		       u64 period, bool intel, char *msg, size_t size);

/*
 * annotate_tui_live - the annotate browser for @sym of event @evsel_idx
 * from a live collector (top's: @ah, read while browsing, not changed),
 * inside the running TUI; @evlist names the event. @nr_samples and
 * @period: the title's numbers. Returns 0 after the user left it, or
 * -errno with a message in @msg.
 */
int annotate_tui_live(struct evlist *evlist, const struct annotate_hists *ah,
		      const struct symbol *sym, int evsel_idx, u64 nr_samples, u64 period,
		      bool intel, char *msg, size_t size);

struct session;
struct annotate_print_opts;

/* annotate_tui_title - the browser's title line for @as (also --stdio2's) into @buf */
void annotate_tui_title(struct evlist *evlist, struct annotate_hists *ah, const struct annotate_sym *as,
			char *buf, size_t size);

/*
 * annotate_tui - sonde annotate on a terminal: the browser on the hottest
 * symbol of @ah that can be annotated (under --percent-limit's @limit),
 * its code from @cache; the scripts menu reads @input again. Returns the
 * exit status (after its message on stderr).
 */
int annotate_tui(struct session *s, struct annotate_hists *ah, struct u64map *cache,
		 const struct annotate_print_opts *po, double limit, bool quiet, const char *input);

#endif
