/* SPDX-License-Identifier: MIT */
/* Feature sections gathered from the running system (what perf record writes about the machine). */
#include "data/writer.h"
#include "core/sys.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include "lib/xalloc.h"

#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

/* perf_header_string encoding, host order (these payloads are set raw) */
static void put32(struct strbuf *sb, u32 v)
{
	strbuf_add(sb, &v, 4);
}

static void put64(struct strbuf *sb, u64 v)
{
	strbuf_add(sb, &v, 8);
}

static void putstr(struct strbuf *sb, const char *s)
{
	size_t n = strlen(s) + 1, len = PERF_ALIGN(n, 64);

	put32(sb, len);
	strbuf_add(sb, s, n - 1);
	strbuf_addchars(sb, 0, len - (n - 1));
}

static char *sysfs_fmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static char *sysfs_fmt(const char *fmt, ...)
{
	char path[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	return read_sysfs_str(path);
}

/* add @s to the string list @v (nr in *@nr) unless present; takes ownership */
static void add_unique(char ***v, int *nr, char *s)
{
	for (int i = 0; i < *nr; i++)
		if (!strcmp((*v)[i], s)) {
			free(s);
			return;
		}
	*v = xreallocarray(*v, *nr + 1, sizeof(char *));
	(*v)[(*nr)++] = s;
}

static void put_strlist(struct strbuf *sb, char **v, int nr)
{
	put32(sb, nr);
	for (int i = 0; i < nr; i++)
		putstr(sb, v[i]);
}

static void free_list(char **v, int nr)
{
	for (int i = 0; i < nr; i++)
		free(v[i]);
	free(v);
}

static void cpu_topology(struct data_writer *w, int nr_cpus)
{
	struct strbuf sb = STRBUF_INIT;
	char **core = NULL, **thread = NULL, **die = NULL;
	int nc = 0, nt = 0, nd = 0;
	u32 *ids = xcalloc(nr_cpus * 3 + 1, sizeof(u32));
	char *s;

	for (int cpu = 0; cpu < nr_cpus; cpu++) {
		long long v;
		char path[256];

		s = sysfs_fmt("/sys/devices/system/cpu/cpu%d/topology/core_siblings_list", cpu);
		if (s)
			add_unique(&core, &nc, s);
		s = sysfs_fmt("/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list", cpu);
		if (s)
			add_unique(&thread, &nt, s);
		s = sysfs_fmt("/sys/devices/system/cpu/cpu%d/topology/die_cpus_list", cpu);
		if (s)
			add_unique(&die, &nd, s);
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/core_id", cpu);
		ids[cpu * 3] = read_sysfs_int(path, &v) ? (u32)-1 : (u32)v;
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/topology/physical_package_id", cpu);
		ids[cpu * 3 + 1] = read_sysfs_int(path, &v) ? (u32)-1 : (u32)v;
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/die_id", cpu);
		ids[cpu * 3 + 2] = read_sysfs_int(path, &v) ? 0 : (u32)v;
	}
	if (nc && nt) {
		put_strlist(&sb, core, nc);
		put_strlist(&sb, thread, nt);
		for (int cpu = 0; cpu < nr_cpus; cpu++) {
			put32(&sb, ids[cpu * 3]);
			put32(&sb, ids[cpu * 3 + 1]);
		}
		if (nd) {
			put_strlist(&sb, die, nd);
			for (int cpu = 0; cpu < nr_cpus; cpu++)
				put32(&sb, ids[cpu * 3 + 2]);
		}
		data_writer_set_feature_raw(w, HEADER_CPU_TOPOLOGY, sb.buf, sb.len);
	}
	free_list(core, nc);
	free_list(thread, nt);
	free_list(die, nd);
	free(ids);
	strbuf_release(&sb);
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* numbers N of "prefixN" entries in @dir, sorted */
static int *list_numbered(const char *dir, const char *prefix, int *nr)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int *v = NULL, n = 0;
	size_t alloc = 0;
	size_t pl = strlen(prefix);

	*nr = 0;
	if (!d)
		return NULL;
	while ((de = readdir(d))) {
		char *end;
		long x;

		if (strncmp(de->d_name, prefix, pl) || !de->d_name[pl])
			continue;
		x = strtol(de->d_name + pl, &end, 10);
		if (*end)
			continue;
		v = xgrow(v, n + 1, &alloc, sizeof(*v));
		v[n++] = x;
	}
	closedir(d);
	if (n)
		qsort(v, n, sizeof(int), cmp_int);
	*nr = n;
	return v;
}

static void numa_topology(struct data_writer *w)
{
	struct strbuf sb = STRBUF_INIT;
	int nr, *nodes = list_numbered("/sys/devices/system/node", "node", &nr);

	if (!nr) {
		free(nodes);
		return;
	}
	put32(&sb, nr);
	for (int i = 0; i < nr; i++) {
		char path[256], key[64], *v;
		u64 total = 0, freem = 0;

		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/meminfo", nodes[i]);
		snprintf(key, sizeof(key), "Node %d MemTotal", nodes[i]);
		v = sys_proc_field(path, key);
		if (v)
			total = strtoull(v, NULL, 10);
		free(v);
		snprintf(key, sizeof(key), "Node %d MemFree", nodes[i]);
		v = sys_proc_field(path, key);
		if (v)
			freem = strtoull(v, NULL, 10);
		free(v);
		put32(&sb, nodes[i]);
		put64(&sb, total);
		put64(&sb, freem);
		v = sysfs_fmt("/sys/devices/system/node/node%d/cpulist", nodes[i]);
		putstr(&sb, v ? v : "");
		free(v);
	}
	data_writer_set_feature_raw(w, HEADER_NUMA_TOPOLOGY, sb.buf, sb.len);
	free(nodes);
	strbuf_release(&sb);
}

static void pmu_mappings(struct data_writer *w)
{
	struct strbuf sb = STRBUF_INIT, body = STRBUF_INIT;
	DIR *d = opendir("/sys/bus/event_source/devices");
	struct dirent *de;
	u32 nr = 0;

	if (!d)
		return;
	while ((de = readdir(d))) {
		char *t;

		if (de->d_name[0] == '.')
			continue;
		t = sysfs_fmt("/sys/bus/event_source/devices/%s/type", de->d_name);
		if (!t)
			continue;
		put32(&body, strtoul(t, NULL, 10));
		putstr(&body, de->d_name);
		free(t);
		nr++;
	}
	closedir(d);
	put32(&sb, nr);
	strbuf_add(&sb, body.buf, body.len);
	data_writer_set_feature_raw(w, HEADER_PMU_MAPPINGS, sb.buf, sb.len);
	strbuf_release(&sb);
	strbuf_release(&body);
}

struct cache_ent {
	u32 level, line, sets, ways;
	char *type, *size, *map;
};

static int cmp_cache(const void *a, const void *b)
{
	const struct cache_ent *x = a, *y = b;

	if (x->level != y->level)
		return x->level < y->level ? -1 : 1;
	return 0;
}

static void caches(struct data_writer *w, int nr_cpus)
{
	struct cache_ent *c = NULL;
	int n = 0;
	size_t alloc = 0;
	struct strbuf sb = STRBUF_INIT;

	for (int cpu = 0; cpu < nr_cpus; cpu++) {
		for (int idx = 0; idx < 10; idx++) {
			char base[256], path[300];
			long long v;
			struct cache_ent e = { 0 };
			bool dup = false;

			snprintf(base, sizeof(base), "/sys/devices/system/cpu/cpu%d/cache/index%d", cpu,
				 idx);
			snprintf(path, sizeof(path), "%s/level", base);
			if (read_sysfs_int(path, &v))
				break;
			e.level = v;
			snprintf(path, sizeof(path), "%s/coherency_line_size", base);
			e.line = read_sysfs_int(path, &v) ? 0 : v;
			snprintf(path, sizeof(path), "%s/number_of_sets", base);
			e.sets = read_sysfs_int(path, &v) ? 0 : v;
			snprintf(path, sizeof(path), "%s/ways_of_associativity", base);
			e.ways = read_sysfs_int(path, &v) ? 0 : v;
			e.type = sysfs_fmt("%s/type", base);
			e.size = sysfs_fmt("%s/size", base);
			e.map = sysfs_fmt("%s/shared_cpu_list", base);
			if (!e.type || !e.size || !e.map) {
				free(e.type);
				free(e.size);
				free(e.map);
				continue;
			}
			for (int i = 0; i < n; i++)
				if (c[i].level == e.level && !strcmp(c[i].type, e.type) &&
				    !strcmp(c[i].map, e.map))
					dup = true;
			if (dup) {
				free(e.type);
				free(e.size);
				free(e.map);
				continue;
			}
			c = xgrow(c, n + 1, &alloc, sizeof(*c));
			c[n++] = e;
		}
	}
	if (!n)
		return;
	/* perf lists level 1 first, then 2, ...; stable within a level */
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && cmp_cache(&c[j - 1], &c[j]) > 0; j--) {
			struct cache_ent t = c[j];

			c[j] = c[j - 1];
			c[j - 1] = t;
		}
	put32(&sb, 1);
	put32(&sb, n);
	for (int i = 0; i < n; i++) {
		put32(&sb, c[i].level);
		put32(&sb, c[i].line);
		put32(&sb, c[i].sets);
		put32(&sb, c[i].ways);
		putstr(&sb, c[i].type);
		putstr(&sb, c[i].size);
		putstr(&sb, c[i].map);
		free(c[i].type);
		free(c[i].size);
		free(c[i].map);
	}
	free(c);
	data_writer_set_feature_raw(w, HEADER_CACHE, sb.buf, sb.len);
	strbuf_release(&sb);
}

static void mem_topology(struct data_writer *w)
{
	struct strbuf sb = STRBUF_INIT;
	char *bs = read_sysfs_str("/sys/devices/system/memory/block_size_bytes");
	int nr_nodes, *nodes;
	u64 block;

	if (!bs)
		return;
	block = strtoull(bs, NULL, 16);
	free(bs);
	nodes = list_numbered("/sys/devices/system/node", "node", &nr_nodes);
	put64(&sb, 1);
	put64(&sb, block);
	put64(&sb, nr_nodes);
	for (int i = 0; i < nr_nodes; i++) {
		char dir[256];
		int nr, *mem;
		u64 bits = 0, words;
		u64 *bm;

		snprintf(dir, sizeof(dir), "/sys/devices/system/node/node%d", nodes[i]);
		mem = list_numbered(dir, "memory", &nr);
		if (nr)
			bits = (u64)mem[nr - 1] + 1;
		words = (bits + 63) / 64;
		bm = xcalloc(words ? words : 1, 8);
		for (int k = 0; k < nr; k++)
			bm[mem[k] / 64] |= 1ULL << (mem[k] % 64);
		put64(&sb, nodes[i]);
		put64(&sb, bits);
		put64(&sb, bits);
		for (u64 k = 0; k < words; k++)
			put64(&sb, bm[k]);
		free(bm);
		free(mem);
	}
	free(nodes);
	data_writer_set_feature_raw(w, HEADER_MEM_TOPOLOGY, sb.buf, sb.len);
	strbuf_release(&sb);
}

int data_writer_set_live_features(struct data_writer *w, int argc, const char *const *argv,
				  const char *version)
{
	struct utsname u;
	long avail = sysconf(_SC_NPROCESSORS_CONF), online = sysconf(_SC_NPROCESSORS_ONLN);
	char *s, *vendor, *family, *model, *stepping;
	u32 zero = 0;

	if (uname(&u) == 0) {
		data_writer_set_string(w, HEADER_HOSTNAME, u.nodename);
		data_writer_set_string(w, HEADER_OSRELEASE, u.release);
		data_writer_set_string(w, HEADER_ARCH, u.machine);
	}
	data_writer_set_string(w, HEADER_VERSION, version ? version : SONDE_VERSION);
	data_writer_set_nrcpus(w, avail > 0 ? avail : 1, online > 0 ? online : 1);
	s = sys_proc_field("/proc/cpuinfo", "model name");
	if (s) {
		/* perf squeezes runs of spaces in the model name */
		char *d = s;

		for (char *p = s; *p; p++)
			if (!(*p == ' ' && (p == s || p[-1] == ' ')))
				*d++ = *p;
		*d = 0;
		data_writer_set_string(w, HEADER_CPUDESC, s);
		free(s);
	}
	vendor = sys_proc_field("/proc/cpuinfo", "vendor_id");
	family = sys_proc_field("/proc/cpuinfo", "cpu family");
	model = sys_proc_field("/proc/cpuinfo", "model");
	stepping = sys_proc_field("/proc/cpuinfo", "stepping");
	if (vendor && family && model) {
		s = xasprintf("%s,%s,%s,%s", vendor, family, model, stepping ? stepping : "0");
		data_writer_set_string(w, HEADER_CPUID, s);
		free(s);
	}
	free(vendor);
	free(family);
	free(model);
	free(stepping);
	s = sys_proc_field("/proc/meminfo", "MemTotal");
	if (s) {
		data_writer_set_total_mem(w, strtoull(s, NULL, 10));
		free(s);
	}
	if (argc > 0) {
		const char **v = xcalloc(argc + 1, sizeof(char *));
		char exe[4096];
		ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

		if (n > 0) {
			exe[n] = 0;
			v[0] = exe;
		} else {
			v[0] = argv[0];
		}
		for (int i = 1; i < argc; i++)
			v[i] = argv[i];
		data_writer_set_cmdline(w, argc, v);
		free(v);
	}
	cpu_topology(w, avail > 0 ? avail : 1);
	numa_topology(w);
	pmu_mappings(w);
	caches(w, avail > 0 ? avail : 1);
	mem_topology(w);
	data_writer_set_feature_raw(w, HEADER_BPF_PROG_INFO, &zero, 4);
	data_writer_set_feature_raw(w, HEADER_BPF_BTF, &zero, 4);
	data_writer_set_feature_raw(w, HEADER_PMU_CAPS, &zero, 4);
	return 0;
}
