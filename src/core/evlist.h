/* SPDX-License-Identifier: MIT */
/* The list of events of one session or live run, their targets and open fds. */
#ifndef SONDE_CORE_EVLIST_H
#define SONDE_CORE_EVLIST_H

#include "core/evsel.h"
#include "lib/list.h"

#include <stdbool.h>
#include <sys/types.h>

struct cpu_map;
struct thread_map;

/*
 * struct target - what to monitor. At most one of pid/tid/cpu-wide/
 * workload is the primary target; perf's rules for combining them apply.
 */
struct target {
	const char *pid;     /* "-p 1,2" (borrowed from argv) */
	const char *tid;     /* "-t" */
	const char *cpu_list; /* "-C 0-1" */
	const char *uid_str; /* "-u" */
	uid_t uid;
	bool system_wide;    /* -a */
	bool per_thread;     /* --per-thread */
	bool has_workload;   /* a command to fork */
};

/*
 * struct evlist - ordered events plus the maps they are opened on.
 * Owns its evsels, maps and (live) the forked workload.
 */
struct evlist {
	struct list_head entries; /* struct evsel, in command-line order */
	int nr_entries;
	int nr_groups;
	struct cpu_map *cpus;	    /* owned */
	struct thread_map *threads; /* owned */
	struct {
		pid_t pid;	/* forked workload, 0 when none */
		int cork_fd;	/* write end of the pipe that releases the workload's exec */
		int status_fd;	/* read end of the close-on-exec pipe reporting a failed exec */
	} workload;
};

/* evlist_new - an empty list; never NULL. */
struct evlist *evlist_new(void);
/* evlist_free - free every evsel and map, close fds; NULL is fine. */
void evlist_free(struct evlist *evlist);
/* evlist_add - append @evsel (the evlist takes ownership) and set its idx. */
void evlist_add(struct evlist *evlist, struct evsel *evsel);
/* evlist_first / evlist_last - NULL when empty. */
struct evsel *evlist_first(struct evlist *evlist);
struct evsel *evlist_last(struct evlist *evlist);
/* evlist_find_by_name - first event whose name equals @name, or NULL. */
struct evsel *evlist_find_by_name(struct evlist *evlist, const char *name);

/*
 * evlist_release_live - close fds, unmap rings, free cpu/thread maps and reap
 * the workload; called by evlist_free(). Defined in core/evlist-open.c.
 */
void evlist_release_live(struct evlist *evlist);

#define evlist_for_each_entry(evlist, evsel) list_for_each_entry(evsel, &(evlist)->entries, node)

#endif
