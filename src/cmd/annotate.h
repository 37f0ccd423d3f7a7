/* SPDX-License-Identifier: MIT */
/* sonde annotate's TUI entry for the other commands' browsers (report's 'a' key). */
#ifndef SONDE_CMD_ANNOTATE_H
#define SONDE_CMD_ANNOTATE_H

#include "session/machine.h"

#include <stddef.h>

/*
 * annotate_tui_entry - the annotate browser for @sym of @dso in @input
 * (read again, its samples of event @evsel_idx), inside the running TUI.
 * Returns 0 after the user left it, or -errno with a message in @msg.
 */
int annotate_tui_entry(const char *input, const struct symbol_opts *sopts,
		       const struct symbol *sym, const struct dso *dso, int evsel_idx, char *msg,
		       size_t size);

#endif
