/* SPDX-License-Identifier: MIT */
/*
 * sonde probe's parts: cmd/probe.c (options, adding) and
 * cmd/probe-events.c (--list, --del, --funcs). Each returns the exit status.
 */
#ifndef SONDE_CMD_PROBE_H
#define SONDE_CMD_PROBE_H

struct strvec;

/* probe_cmd_list - --list: k/uprobe events matching @filter (NULL: all), in perf's layout. */
int probe_cmd_list(const char *filter);
/* probe_cmd_del - --del: remove the events matching each glob of @globs. */
int probe_cmd_del(const struct strvec *globs);
/*
 * probe_cmd_funcs - --funcs: the symbol names of the binary @path (NULL:
 * the kernel) that pass the filter @rules, sorted.
 */
int probe_cmd_funcs(const char *path, const char *rules);

#endif
