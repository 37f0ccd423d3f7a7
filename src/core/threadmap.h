/* SPDX-License-Identifier: MIT */
/* Thread lists for per-task events: from -p PID lists (all their threads), -t TID lists, or {-1}. */
#ifndef SONDE_CORE_THREADMAP_H
#define SONDE_CORE_THREADMAP_H

#include <sys/types.h>

struct thread_map {
	int nr;
	pid_t *pids;  /* owned; -1 means "any thread" (cpu-wide events) */
	char **comms; /* owned, lazily filled by thread_map_comm() */
};

/* thread_map_new_dummy - the one-entry map {-1}. */
struct thread_map *thread_map_new_dummy(void);
/* thread_map_new_pid - a map holding just @pid (the forked workload). */
struct thread_map *thread_map_new_pid(pid_t pid);
/*
 * thread_map_new_by_pid_str - every thread of each pid in "1,2" (from
 * /proc/PID/task). Returns 0 and sets *@out, -EINVAL for a malformed list,
 * -ESRCH when a process does not exist.
 */
int thread_map_new_by_pid_str(const char *str, struct thread_map **out);
/* thread_map_new_by_tid_str - the threads "1,2" themselves; errors as above. */
int thread_map_new_by_tid_str(const char *str, struct thread_map **out);
/* thread_map_new_all - every thread of every process now in /proc (--per-thread -a). */
struct thread_map *thread_map_new_all(void);
void thread_map_free(struct thread_map *map);
/* thread_map_comm - the command name of thread @idx ("" when gone); owned by the map. */
const char *thread_map_comm(struct thread_map *map, int idx);

#endif
