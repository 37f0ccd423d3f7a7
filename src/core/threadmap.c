/* SPDX-License-Identifier: MIT */
/* Thread maps: parse pid/tid lists and walk /proc/PID/task. */
#include "core/threadmap.h"
#include "lib/util.h"
#include "lib/xalloc.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void map_add(struct thread_map *map, pid_t pid, size_t *alloc)
{
	for (int i = 0; i < map->nr; i++)
		if (map->pids[i] == pid)
			return;
	map->pids = xgrow(map->pids, (size_t)map->nr + 1, alloc, sizeof(*map->pids));
	map->pids[map->nr++] = pid;
}

struct thread_map *thread_map_new_pid(pid_t pid)
{
	struct thread_map *map = xzalloc(sizeof(*map));

	map->nr = 1;
	map->pids = xmalloc(sizeof(pid_t));
	map->pids[0] = pid;
	return map;
}

struct thread_map *thread_map_new_dummy(void)
{
	return thread_map_new_pid(-1);
}

static int parse_list(const char *str, bool all_tasks, struct thread_map **out)
{
	struct thread_map *map = xzalloc(sizeof(*map));
	size_t alloc = 0;
	const char *p = str;

	while (p && *p) {
		char *end;
		long pid;

		/* perf accepts "1,2" and "1 2"; skip separators */
		if (*p == ',' || *p == ' ') {
			p++;
			continue;
		}
		if (!isdigit((unsigned char)*p))
			goto inval;
		pid = strtol(p, &end, 10);
		p = end;
		if (*p && *p != ',' && *p != ' ')
			goto inval;
		if (all_tasks) {
			char path[64];
			struct dirent *de;
			DIR *dir;

			snprintf(path, sizeof(path), "/proc/%ld/task", pid);
			dir = opendir(path);
			if (!dir)
				goto srch;
			while ((de = readdir(dir))) {
				if (!isdigit((unsigned char)de->d_name[0]))
					continue;
				map_add(map, (pid_t)atoi(de->d_name), &alloc);
			}
			closedir(dir);
		} else {
			/* a tid is taken as given: the open reports a missing one (perf's way) */
			map_add(map, (pid_t)pid, &alloc);
		}
	}
	if (!map->nr)
		goto inval;
	*out = map;
	return 0;
inval:
	thread_map_free(map);
	return -EINVAL;
srch:
	thread_map_free(map);
	return -ESRCH;
}

int thread_map_new_by_pid_str(const char *str, struct thread_map **out)
{
	return parse_list(str, true, out);
}

int thread_map_new_by_tid_str(const char *str, struct thread_map **out)
{
	return parse_list(str, false, out);
}

struct thread_map *thread_map_new_all(void)
{
	struct thread_map *map = xzalloc(sizeof(*map));
	size_t alloc = 0;
	DIR *proc = opendir("/proc");
	struct dirent *pe;

	while (proc && (pe = readdir(proc))) {
		char path[300];
		DIR *task;
		struct dirent *te;

		if (!isdigit((unsigned char)pe->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/task", pe->d_name);
		task = opendir(path);
		if (!task)
			continue; /* exited meanwhile */
		while ((te = readdir(task))) {
			if (!isdigit((unsigned char)te->d_name[0]))
				continue;
			map->pids = xgrow(map->pids, (size_t)map->nr + 1, &alloc, sizeof(*map->pids));
			map->pids[map->nr++] = (pid_t)atoi(te->d_name);
		}
		closedir(task);
	}
	if (proc)
		closedir(proc);
	return map;
}

void thread_map_free(struct thread_map *map)
{
	if (!map)
		return;
	if (map->comms)
		for (int i = 0; i < map->nr; i++)
			free(map->comms[i]);
	free(map->comms);
	free(map->pids);
	free(map);
}

const char *thread_map_comm(struct thread_map *map, int idx)
{
	char path[64];

	if (!map->comms)
		map->comms = xcalloc(map->nr, sizeof(char *));
	if (!map->comms[idx]) {
		snprintf(path, sizeof(path), "/proc/%d/comm", map->pids[idx]);
		map->comms[idx] = read_sysfs_str(path);
		if (!map->comms[idx])
			map->comms[idx] = xstrdup("");
	}
	return map->comms[idx];
}
