/* SPDX-License-Identifier: MIT */
/*
 * tracefs lookups for event parsing and listing: where tracefs is, which
 * tracepoint subsystems and events exist, and their ids.
 */
#ifndef SONDE_TRACE_TRACEFS_H
#define SONDE_TRACE_TRACEFS_H

#include <stdbool.h>

struct strvec;

/*
 * tracefs_root - the tracefs directory that has events/: /sys/kernel/tracing
 * or /sys/kernel/debug/tracing. When /sys/kernel/tracing exists but is
 * empty (not mounted) and we are root, tracefs is mounted there first, as
 * perf does. Returns a static string, or NULL when there is no tracefs.
 * SONDE_TRACEFS in the environment overrides the search (tests).
 */
const char *tracefs_root(void);

/*
 * tracefs_events_dir - "<root>/events" for error texts, even without a
 * tracefs (then the default /sys/kernel/tracing/events). Static string.
 */
const char *tracefs_events_dir(void);

/*
 * tracefs_list_systems - append the tracepoint subsystems (directories of
 * events/ that hold events), sorted when @sorted, else in directory order
 * as perf expands globs. Returns 0 or -errno.
 */
int tracefs_list_systems(struct strvec *out, bool sorted);

/*
 * tracefs_list_events - append the events of @sys (directories that have an
 * "id" file), sorted or in directory order. Returns 0 or -errno.
 */
int tracefs_list_events(const char *sys, struct strvec *out, bool sorted);

/* tracefs_event_id - the id of @sys:@name, or -errno (-ENOENT: no such event). */
int tracefs_event_id(const char *sys, const char *name);

/*
 * tracefs_id_to_name - "sys:name" of tracepoint @id into a malloc'ed string
 * (caller frees), or NULL when no event has that id. Scans every event.
 */
char *tracefs_id_to_name(int id);

/* tracefs_is_glob - whether @s has glob characters (*, ?, [). */
bool tracefs_is_glob(const char *s);

#endif
