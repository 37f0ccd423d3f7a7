/* SPDX-License-Identifier: MIT */
/* CPU lists and per-cpu topology read from sysfs. */
#include "core/cpumap.h"
#include "lib/util.h"
#include "lib/xalloc.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct cpu_map *map_alloc(int nr)
{
	struct cpu_map *map = xzalloc(sizeof(*map) + sizeof(int) * (nr > 0 ? nr : 1));

	map->nr = nr;
	return map;
}

static int int_cmp(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/*
 * perf's cpu list grammar, as its tools behave: items "N" or "N-M" joined by
 * commas, numbers in C notation (0x1 is cpu 1), "N-" meaning N-0; the list
 * ends at the first item that does not start with a digit ("0,,1" is cpu 0);
 * a cpu named twice, a range running down or a stray byte after a number
 * make it malformed.
 */
struct cpu_map *cpu_map_parse(const char *list)
{
	int *cpus = NULL, nr = 0;
	size_t alloc = 0;
	const char *p = list;
	struct cpu_map *map;

	if (!list)
		return NULL;
	while (isdigit((unsigned char)*p)) {
		char *end;
		unsigned long first = strtoul(p, &end, 0), last = first;

		if (*end == '-') {
			last = strtoul(end + 1, &end, 0);
			if (last < first)
				goto bad;
		}
		if ((*end && *end != ',') || last > 1UL << 20)
			goto bad;
		for (unsigned long c = first; c <= last; c++) {
			cpus = xgrow(cpus, (size_t)nr + 1, &alloc, sizeof(*cpus));
			cpus[nr++] = (int)c;
		}
		p = *end ? end + 1 : end;
	}
	if (!nr)
		goto bad;
	qsort(cpus, nr, sizeof(int), int_cmp);
	for (int i = 1; i < nr; i++)
		if (cpus[i] == cpus[i - 1])
			goto bad;
	map = map_alloc(nr);
	memcpy(map->map, cpus, sizeof(int) * nr);
	free(cpus);
	return map;
bad:
	free(cpus);
	return NULL;
}

struct cpu_map *cpu_map_online(void)
{
	char *s = read_sysfs_str("/sys/devices/system/cpu/online");
	struct cpu_map *map = s ? cpu_map_parse(s) : NULL;

	free(s);
	if (!map) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);

		if (n < 1)
			n = 1;
		map = map_alloc((int)n);
		for (int i = 0; i < n; i++)
			map->map[i] = i;
	}
	return map;
}

struct cpu_map *cpu_map_new(const char *list)
{
	return list ? cpu_map_parse(list) : cpu_map_online();
}

struct cpu_map *cpu_map_dummy_new(void)
{
	struct cpu_map *map = map_alloc(1);

	map->map[0] = -1;
	return map;
}

void cpu_map_free(struct cpu_map *map)
{
	free(map);
}

int cpu_map_idx(const struct cpu_map *map, int cpu)
{
	for (int i = 0; i < map->nr; i++)
		if (map->map[i] == cpu)
			return i;
	return -1;
}

bool cpu_map_is_dummy(const struct cpu_map *map)
{
	return map->nr == 1 && map->map[0] == -1;
}

int cpu_map_snprint(const struct cpu_map *map, char *buf, int len)
{
	int n = 0;

	if (len > 0)
		buf[0] = 0;
	for (int i = 0; i < map->nr;) {
		int j = i;

		while (j + 1 < map->nr && map->map[j + 1] == map->map[j] + 1)
			j++;
		if (j == i)
			n += snprintf(buf + n, n < len ? len - n : 0, "%s%d", i ? "," : "",
				      map->map[i]);
		else
			n += snprintf(buf + n, n < len ? len - n : 0, "%s%d-%d", i ? "," : "",
				      map->map[i], map->map[j]);
		i = j + 1;
	}
	return n;
}

static int read_topo_int(const char *root, int cpu, const char *file)
{
	char path[512];
	long long v;

	snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%d/topology/%s", root, cpu, file);
	if (read_sysfs_int(path, &v))
		return 0;
	return (int)v;
}

void cpu_topo_read(const char *root, int cpu, struct cpu_topo *topo)
{
	char path[512];
	DIR *dir;
	struct dirent *de;

	topo->socket = read_topo_int(root, cpu, "physical_package_id");
	topo->die = read_topo_int(root, cpu, "die_id");
	topo->core = read_topo_int(root, cpu, "core_id");
	topo->node = 0;
	/* the node is the nodeN link in the cpu's directory */
	snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%d", root, cpu);
	dir = opendir(path);
	if (!dir)
		return;
	while ((de = readdir(dir))) {
		if (!strncmp(de->d_name, "node", 4) && isdigit((unsigned char)de->d_name[4])) {
			topo->node = atoi(de->d_name + 4);
			break;
		}
	}
	closedir(dir);
}
