/* SPDX-License-Identifier: MIT */
/* cgroups for -G: find the perf_event (v1) or unified (v2) hierarchy and open a group's directory. */
#ifndef SONDE_CORE_CGROUP_H
#define SONDE_CORE_CGROUP_H

#include <stddef.h>

/*
 * cgroup_mountpoint - the mount point perf_event cgroups live under: a
 * cgroup v1 hierarchy with the perf_event controller, else the cgroup2
 * one. Returns 0 and fills @buf, or -ENOENT.
 */
int cgroup_mountpoint(char *buf, size_t len);

/*
 * cgroup_open - open cgroup @name (relative to the mount point, "/" is the
 * root) for PERF_FLAG_PID_CGROUP. Returns the fd, or -errno; @path (may
 * be NULL) receives the full path tried, for messages.
 */
int cgroup_open(const char *name, char *path, size_t len);

#endif
