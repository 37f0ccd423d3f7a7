/* SPDX-License-Identifier: MIT */
/* CPU lists ("0-3,6") and the topology (socket, die, core, node) of each CPU. */
#ifndef SONDE_CORE_CPUMAP_H
#define SONDE_CORE_CPUMAP_H

#include <stdbool.h>

/* struct cpu_map - sorted, unique cpu numbers; a "dummy" map holds one -1 (any cpu). */
struct cpu_map {
	int nr;
	int map[];
};

/*
 * cpu_map_new - parse @list ("0-3,6", "1,2") or, when NULL, the online cpus.
 * Returns a new map (caller frees with cpu_map_free) or NULL when @list is malformed.
 */
struct cpu_map *cpu_map_new(const char *list);
/*
 * cpu_map_parse - parse a cpu list with perf's grammar ("0-3,6", "0x1", a
 * list ending at an item that starts with no digit), without looking at
 * the machine. NULL when malformed, empty, or a cpu is named twice.
 */
struct cpu_map *cpu_map_parse(const char *list);
/* cpu_map_dummy_new - the one-entry map {-1} used for per-task events. */
struct cpu_map *cpu_map_dummy_new(void);
/* cpu_map_online - the online cpus (from sysfs; cpu 0..nprocs-1 when unreadable). */
struct cpu_map *cpu_map_online(void);
void cpu_map_free(struct cpu_map *map);
/* cpu_map_idx - index of @cpu in @map, -1 when absent. */
int cpu_map_idx(const struct cpu_map *map, int cpu);
/* cpu_map_is_dummy - true for the {-1} map. */
bool cpu_map_is_dummy(const struct cpu_map *map);
/* cpu_map_snprint - print as a compact list ("0-3,6"); returns the length written. */
int cpu_map_snprint(const struct cpu_map *map, char *buf, int len);

/* The place of one cpu in the machine; -1 fields are unknown. */
struct cpu_topo {
	int socket;
	int die;
	int core;
	int node;
};

/*
 * cpu_topo_read - read @cpu's topology from sysfs below @sysfs_root
 * ("/sys" normally; a fake tree in unit tests). Missing files give 0
 * (perf's behaviour on machines without the files), never an error.
 */
void cpu_topo_read(const char *sysfs_root, int cpu, struct cpu_topo *topo);

#endif
