/* SPDX-License-Identifier: MIT */
/* perf's "Browse map details": the symbols of one DSO in a TUI list. */
#ifndef SONDE_UI_MAP_BROWSER_H
#define SONDE_UI_MAP_BROWSER_H

#include "ui/script-browser.h"

struct dso;

/*
 * map_browse - @dso's symbols by address, one a line ("START END B NAME",
 * B: g global, l local, w weak) under its path, until Esc/q/Left.
 */
void map_browse(const struct dso *dso, const struct tui_attrs *at);

#endif
