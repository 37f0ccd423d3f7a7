/* SPDX-License-Identifier: MIT */
/* Helpers of "list" that read more than sysfs: SDT events from the build-id cache. */
#ifndef SONDE_UI_LIST_H
#define SONDE_UI_LIST_H

#include <stdbool.h>

struct strvec;

/*
 * list_sdt_events - the SDT events cached by "buildid-cache --add" (the
 * "%group:event=..." lines of each cache entry's probes file), for the
 * entries whose original binary still has the cached build-id, as perf
 * lists them: sorted by "group:event@buildid", names that occur in
 * several binaries shown as "group:event@path(12-hex build-id)". Appends
 * the display names to @out. NULL globs match everything.
 */
void list_sdt_events(const char *sys_glob, const char *ev_glob, bool name_only,
		     struct strvec *out);

#endif
