/* SPDX-License-Identifier: MIT */
/*
 * Live side of an evlist: build cpu/thread maps from a target, fork a corked
 * workload, open every event over cpus x threads (with groups), enable,
 * disable, read counts and close. Used by stat, record and top.
 */
#ifndef SONDE_CORE_EVLIST_OPEN_H
#define SONDE_CORE_EVLIST_OPEN_H

#include "core/evlist.h"

#include <stddef.h>

/*
 * evlist_create_maps - set evlist->cpus/threads from @target: -p/-t lists,
 * -a/-C cpu lists, or the dummy maps for a workload (its thread map is set
 * to the child's pid by evlist_prepare_workload). Returns 0, -EINVAL for a
 * malformed list, -ESRCH for a missing process.
 */
int evlist_create_maps(struct evlist *evlist, const struct target *target);

/*
 * evlist_prepare_workload - fork @argv as the workload, stopped before its
 * exec until evlist_start_workload() (the cork), so that counting starts at
 * exec with enable_on_exec. When evlist->threads is the dummy map it is
 * replaced by the child's pid. Returns 0 or -errno (fork/pipe failures).
 */
int evlist_prepare_workload(struct evlist *evlist, const char *const *argv);

/*
 * evlist_start_workload - release the corked child and wait for its exec.
 * Returns 0 once exec succeeded, or -errno of the failed exec (the child
 * has exited then; evlist->workload.pid is reaped and set to 0).
 */
int evlist_start_workload(struct evlist *evlist);

/* evlist_wait_workload - waitpid() the workload; returns its wait status or -errno. */
int evlist_wait_workload(struct evlist *evlist, int *status, int options);

/*
 * evsel_open - open @evsel on every cpu x thread of the maps. Group members
 * open with their leader's fd. Returns 0, or -errno of the first failure
 * (evsel->open_errno set, evsel->open_fail_cpu/thread record where; fds of
 * this evsel that were opened are closed again).
 */
int evsel_open(struct evsel *evsel, struct cpu_map *cpus, struct thread_map *threads);
/*
 * evsel_reset_missing_features - forget the kernel features found missing
 * by earlier opens (perf's fallbacks: no O_CLOEXEC flag, no
 * exclude_guest/host, no sample_id_all). For tests.
 */
void evsel_reset_missing_features(void);
/* evsel_close - close every fd of @evsel (the arrays stay allocated). */
void evsel_close(struct evsel *evsel);
/* evsel_nr_fds - cpus x threads the fd arrays have room for (0 before opening). */
int evsel_nr_fds(const struct evsel *evsel);

/*
 * evsel_read_counts - read every fd of @evsel into evsel->counts (val, ena,
 * run; a closed fd or a failed read leaves zeros). Group members are read
 * through their leader's group read when the leader has PERF_FORMAT_GROUP.
 * Returns 0 or -errno of the first failed read.
 */
int evsel_read_counts(struct evsel *evsel);

/* evlist_enable / evlist_disable - ioctl every open fd (leaders carry their groups). */
void evlist_enable(struct evlist *evlist);
void evlist_disable(struct evlist *evlist);
/* evsel_enable / evsel_disable - the same for one event. */
void evsel_enable(struct evsel *evsel);
void evsel_disable(struct evsel *evsel);
/* evlist_close - close every fd of every event. */
void evlist_close(struct evlist *evlist);

/*
 * evlist_strerror_open - perf's explanation of an open failure @err
 * (positive errno) of @evsel into @buf, without "Error:\n". @target may be
 * NULL. Returns @buf.
 */
char *evlist_strerror_open(const struct evsel *evsel, const struct target *target, int err,
			   char *buf, size_t len);

/*
 * evsel_fallback_exclude_kernel - when @err is EACCES/EPERM and the paranoid
 * level forbids kernel counting, switch @evsel to user-only counting
 * (exclude_kernel/hv, name gets ":u") as perf does. Returns true when the
 * caller should retry the open.
 */
bool evsel_fallback_exclude_kernel(struct evsel *evsel, int err);

/* evsel_is_unsupported_errno - the errors perf stat shows as "<not supported>". */
bool evsel_is_unsupported_errno(int err);

#endif
