/* SPDX-License-Identifier: MIT */
/* perf script's scripting options (-s, -g, -l) and built-in scripts: the hooks cmd/script.c calls. */
#ifndef SONDE_CMD_SCRIPT_LANG_H
#define SONDE_CMD_SCRIPT_LANG_H

#include "lib/optspec.h"
#include "cmd/script.h"
#include "ui/script-browser.h"

#include <stdbool.h>

struct evlist;

/* option callbacks for -s/--script and -g/--gen-script */
int script_lang_opt_script(const struct opt_spec *opt, const char *arg, int unset);
int script_lang_opt_gen(const struct opt_spec *opt, const char *arg, int unset);

/* script_lang_list - -l: the built-in scripts, as perf lists them */
void script_lang_list(void);

/*
 * script_lang_menu - the built-in scripts perf's TUIs offer ('r') for a file
 * whose events are named @events: their names (static) into @out, in perf's
 * menu order, at most @max. Returns how many.
 */
int script_lang_menu(const char *const *events, int nr_events, const char **out, int max);

/*
 * script_lang_tui_menu - @m for the TUIs' 'r' menu over @input (NULL:
 * perf.data) whose events are @evlist's: this program's script command and
 * the scripts that apply (@names: room for @max of them, as @m's list)
 */
void script_lang_tui_menu(struct script_menu *m, const struct evlist *evlist, const char *input,
			  const char **names, int max);

/* script_lang_wanted - -s or -g was given, or @argc arguments remain (record/report NAME) */
bool script_lang_wanted(int argc);

/*
 * script_lang_run - run what script_lang_wanted() saw: a Python script, the
 * skeleton generator, or a built-in script's record or report side.
 * Returns the exit status.
 */
int script_lang_run(struct script_opts *o, int argc, const char **argv);

#endif
