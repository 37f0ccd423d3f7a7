/* SPDX-License-Identifier: MIT */
/* Feature sections: names, decoding of every perf 6.1 payload, and release. */
#include "data/feature.h"
#include "data/event.h"
#include "lib/xalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const feat_names[HEADER_LAST_FEATURE] = {
	[HEADER_RESERVED] = "RESERVED",
	[HEADER_TRACING_DATA] = "TRACING_DATA",
	[HEADER_BUILD_ID] = "BUILD_ID",
	[HEADER_HOSTNAME] = "HOSTNAME",
	[HEADER_OSRELEASE] = "OSRELEASE",
	[HEADER_VERSION] = "VERSION",
	[HEADER_ARCH] = "ARCH",
	[HEADER_NRCPUS] = "NRCPUS",
	[HEADER_CPUDESC] = "CPUDESC",
	[HEADER_CPUID] = "CPUID",
	[HEADER_TOTAL_MEM] = "TOTAL_MEM",
	[HEADER_CMDLINE] = "CMDLINE",
	[HEADER_EVENT_DESC] = "EVENT_DESC",
	[HEADER_CPU_TOPOLOGY] = "CPU_TOPOLOGY",
	[HEADER_NUMA_TOPOLOGY] = "NUMA_TOPOLOGY",
	[HEADER_BRANCH_STACK] = "BRANCH_STACK",
	[HEADER_PMU_MAPPINGS] = "PMU_MAPPINGS",
	[HEADER_GROUP_DESC] = "GROUP_DESC",
	[HEADER_AUXTRACE] = "AUXTRACE",
	[HEADER_STAT] = "STAT",
	[HEADER_CACHE] = "CACHE",
	[HEADER_SAMPLE_TIME] = "SAMPLE_TIME",
	[HEADER_MEM_TOPOLOGY] = "MEM_TOPOLOGY",
	[HEADER_CLOCKID] = "CLOCKID",
	[HEADER_DIR_FORMAT] = "DIR_FORMAT",
	[HEADER_BPF_PROG_INFO] = "BPF_PROG_INFO",
	[HEADER_BPF_BTF] = "BPF_BTF",
	[HEADER_COMPRESSED] = "COMPRESSED",
	[HEADER_CPU_PMU_CAPS] = "CPU_PMU_CAPS",
	[HEADER_CLOCK_DATA] = "CLOCK_DATA",
	[HEADER_HYBRID_TOPOLOGY] = "HYBRID_TOPOLOGY",
	[HEADER_PMU_CAPS] = "PMU_CAPS",
};

const char *perf_header_feat_name(int feat)
{
	if (feat >= 0 && feat < HEADER_LAST_FEATURE && feat_names[feat])
		return feat_names[feat];
	return "UNKNOWN";
}

/* a bounded reader over a payload */
struct fbuf {
	const u8 *base;
	u64 size, pos;
	bool swap;
	char *msg;
	size_t msg_len;
	bool failed;
};

static void ffail(struct fbuf *b, const char *what)
{
	if (!b->failed)
		snprintf(b->msg, b->msg_len, "%s at payload offset %llu of %llu", what,
			 (unsigned long long)b->pos, (unsigned long long)b->size);
	b->failed = true;
}

static bool fneed(struct fbuf *b, u64 n, const char *what)
{
	if (b->failed)
		return false;
	if (n > b->size - b->pos) {
		ffail(b, what);
		return false;
	}
	return true;
}

static u32 f32(struct fbuf *b)
{
	u32 v = 0;

	if (!fneed(b, 4, "truncated u32"))
		return 0;
	memcpy(&v, b->base + b->pos, 4);
	b->pos += 4;
	return b->swap ? __builtin_bswap32(v) : v;
}

static u64 f64(struct fbuf *b)
{
	u64 v = 0;

	if (!fneed(b, 8, "truncated u64"))
		return 0;
	memcpy(&v, b->base + b->pos, 8);
	b->pos += 8;
	return b->swap ? __builtin_bswap64(v) : v;
}

/* perf_header_string: u32 len (padded length) then bytes; the string ends at the first NUL */
static char *fstr(struct fbuf *b)
{
	u32 len = f32(b);
	char *s;

	if (!fneed(b, len, "string length past the end of the section"))
		return NULL;
	s = xstrndup((const char *)b->base + b->pos, len);
	b->pos += len;
	return s;
}

/* a count that must fit in what is left given a minimum element size */
static u64 fcount(struct fbuf *b, u64 nr, u64 min_elem, const char *what)
{
	if (b->failed)
		return 0;
	if (min_elem && nr > (b->size - b->pos) / min_elem) {
		ffail(b, what);
		return 0;
	}
	return nr;
}

static char **fstrlist(struct fbuf *b, int *nr_out)
{
	u32 nr = f32(b);
	char **v;

	nr = fcount(b, nr, 4, "string list count larger than the section");
	v = xcalloc(nr + 1, sizeof(*v));
	for (u32 i = 0; i < nr && !b->failed; i++)
		v[i] = fstr(b);
	*nr_out = b->failed ? 0 : (int)nr;
	return v;
}

static void free_strv(char **v)
{
	if (!v)
		return;
	for (char **p = v; *p; p++)
		free(*p);
	free(v);
}

static void parse_build_ids(struct perf_header *h, struct fbuf *b)
{
	while (!b->failed && b->size - b->pos >= 8) {
		u64 start = b->pos;
		u32 type;
		u16 misc, size;
		struct build_id_entry *e;
		u64 fn_len;

		type = f32(b);
		(void)type;
		if (!fneed(b, 4, "truncated build-id record"))
			return;
		memcpy(&misc, b->base + b->pos, 2);
		memcpy(&size, b->base + b->pos + 2, 2);
		if (b->swap) {
			misc = __builtin_bswap16(misc);
			size = __builtin_bswap16(size);
		}
		b->pos += 4;
		if (size < 8 + 4 + 24 || size > b->size - start) {
			b->pos = start;
			ffail(b, "build-id record size out of range");
			return;
		}
		h->build_ids = xreallocarray(h->build_ids, h->nr_build_ids + 1, sizeof(*h->build_ids));
		e = &h->build_ids[h->nr_build_ids++];
		memset(e, 0, sizeof(*e));
		e->pid = (s32)f32(b);
		memcpy(e->build_id, b->base + b->pos, 20);
		e->size = (misc & PERF_RECORD_MISC_BUILD_ID_SIZE) ? b->base[b->pos + 20] : 20;
		if (e->size > 20)
			e->size = 20;
		b->pos += 24;
		e->cpumode = misc & PERF_RECORD_MISC_CPUMODE_MASK;
		fn_len = start + size - b->pos;
		e->filename = xstrndup((const char *)b->base + b->pos, fn_len);
		b->pos = start + size;
	}
}

static void parse_event_desc(struct perf_header *h, struct fbuf *b)
{
	u32 nr = f32(b), asz = f32(b);

	if (b->failed)
		return;
	if (asz < PERF_ATTR_SIZE_VER0 || asz > 4096) {
		ffail(b, "attr size out of range");
		return;
	}
	nr = fcount(b, nr, asz + 8, "event count larger than the section");
	for (u32 i = 0; i < nr && !b->failed; i++) {
		struct perf_event_attr attr;
		u32 nr_ids;
		char *name;

		if (!fneed(b, asz, "truncated attr"))
			return;
		memset(&attr, 0, sizeof(attr));
		memcpy(&attr, b->base + b->pos, MIN((size_t)asz, sizeof(attr)));
		b->pos += asz;
		nr_ids = f32(b);
		name = fstr(b);
		nr_ids = fcount(b, nr_ids, 8, "id count larger than the section");
		if (b->failed) {
			free(name);
			return;
		}
		/* match by position: perf writes EVENT_DESC in attr order */
		if ((int)i < h->nr_attrs) {
			free(h->attrs[i].name);
			h->attrs[i].name = name;
		} else {
			free(name);
		}
		b->pos += (u64)nr_ids * 8;
	}
}

static void parse_cpu_topology(struct perf_header *h, struct fbuf *b)
{
	h->core_siblings = fstrlist(b, &h->nr_core_siblings);
	h->thread_siblings = fstrlist(b, &h->nr_thread_siblings);
	if (b->failed)
		return;
	if (b->pos == b->size)
		return; /* old files: no core/socket ids */
	if (h->nr_cpus_avail == 0 || h->nr_cpus_avail > (b->size - b->pos) / 8)
		return;
	h->cpu_topo = xcalloc(h->nr_cpus_avail, sizeof(*h->cpu_topo));
	h->nr_cpu_topo = h->nr_cpus_avail;
	for (u32 i = 0; i < h->nr_cpus_avail; i++) {
		h->cpu_topo[i].core_id = f32(b);
		h->cpu_topo[i].socket_id = f32(b);
	}
	if (b->pos == b->size)
		return;
	h->die_siblings = fstrlist(b, &h->nr_die_siblings);
	if (b->failed || h->nr_cpus_avail > (b->size - b->pos) / 4)
		return;
	for (u32 i = 0; i < h->nr_cpus_avail; i++)
		h->cpu_topo[i].die_id = f32(b);
	h->has_die_info = true;
}

static void parse_numa(struct perf_header *h, struct fbuf *b)
{
	u32 nr = fcount(b, f32(b), 24, "node count larger than the section");

	h->numa_nodes = xcalloc(nr ? nr : 1, sizeof(*h->numa_nodes));
	for (u32 i = 0; i < nr && !b->failed; i++) {
		struct perf_numa_node *n = &h->numa_nodes[i];

		n->node = f32(b);
		n->mem_total = f64(b);
		n->mem_free = f64(b);
		n->cpus = fstr(b);
		h->nr_numa_nodes = i + 1;
	}
}

static void parse_pmu_mappings(struct perf_header *h, struct fbuf *b)
{
	u32 nr = fcount(b, f32(b), 8, "pmu count larger than the section");

	h->pmu_mappings.names = xcalloc(nr + 1, sizeof(char *));
	h->pmu_mappings.types = xcalloc(nr + 1, sizeof(u32));
	for (u32 i = 0; i < nr && !b->failed; i++) {
		h->pmu_mappings.types[i] = f32(b);
		h->pmu_mappings.names[i] = fstr(b);
		if (!b->failed)
			h->pmu_mappings.nr = i + 1;
	}
}

static void parse_group_desc(struct perf_header *h, struct fbuf *b)
{
	u32 nr = fcount(b, f32(b), 12, "group count larger than the section");

	h->group_desc = xcalloc(nr ? nr : 1, sizeof(*h->group_desc));
	for (u32 i = 0; i < nr && !b->failed; i++) {
		h->group_desc[i].name = fstr(b);
		h->group_desc[i].leader_idx = f32(b);
		h->group_desc[i].nr_members = f32(b);
		if (!b->failed)
			h->nr_groups = i + 1;
	}
}

static void parse_cache(struct perf_header *h, struct fbuf *b)
{
	u32 version = f32(b), nr;

	if (b->failed)
		return;
	if (version != 1) {
		ffail(b, "unknown CACHE version");
		return;
	}
	nr = fcount(b, f32(b), 28, "cache count larger than the section");
	h->caches = xcalloc(nr ? nr : 1, sizeof(*h->caches));
	for (u32 i = 0; i < nr && !b->failed; i++) {
		struct perf_cache_level *c = &h->caches[i];

		c->level = f32(b);
		c->line_size = f32(b);
		c->sets = f32(b);
		c->ways = f32(b);
		c->type = fstr(b);
		c->size = fstr(b);
		c->map = fstr(b);
		h->nr_caches = i + 1;
	}
}

static void parse_mem_topology(struct perf_header *h, struct fbuf *b)
{
	u64 nr;

	h->mem_topo.version = f64(b);
	h->mem_topo.block_size = f64(b);
	nr = fcount(b, f64(b), 24, "memory node count larger than the section");
	h->mem_topo.nodes = xcalloc(nr ? nr : 1, sizeof(*h->mem_topo.nodes));
	for (u64 i = 0; i < nr && !b->failed; i++) {
		struct perf_mem_node *n = &h->mem_topo.nodes[i];
		u64 words;

		u64 bits;

		n->node = f64(b);
		f64(b); /* the node's size field; the bitmap length below is what counts */
		bits = f64(b);
		/* perf writes the bitmap length in bits, then the bits in u64 words */
		words = (bits + 63) / 64;
		words = fcount(b, words, 8, "memory bitmap larger than the section");
		n->bitmap = xcalloc(words ? words : 1, 8);
		for (u64 w = 0; w < words; w++)
			n->bitmap[w] = f64(b);
		n->size = b->failed ? 0 : bits;
		h->mem_topo.nr = i + 1;
	}
}

static void parse_pmu_caps(struct perf_header *h, struct fbuf *b, bool cpu_only)
{
	u32 nr_pmu = cpu_only ? 1 : fcount(b, f32(b), 8, "pmu count larger than the section");

	for (u32 i = 0; i < nr_pmu && !b->failed; i++) {
		struct perf_pmu_caps *pc;
		u32 nr = fcount(b, f32(b), 8, "capability count larger than the section");

		h->pmu_caps = xreallocarray(h->pmu_caps, h->nr_pmu_caps + 1, sizeof(*h->pmu_caps));
		pc = &h->pmu_caps[h->nr_pmu_caps++];
		memset(pc, 0, sizeof(*pc));
		pc->names = xcalloc(nr + 1, sizeof(char *));
		pc->values = xcalloc(nr + 1, sizeof(char *));
		for (u32 k = 0; k < nr && !b->failed; k++) {
			pc->names[k] = fstr(b);
			pc->values[k] = fstr(b);
			if (!b->failed)
				pc->nr = k + 1;
		}
		pc->pmu_name = cpu_only ? xstrdup("cpu") : fstr(b);
	}
}

/* drop what an earlier copy of @feat left (a pipe may repeat a feature record) */
static void release_feature(struct perf_header *h, int feat)
{
	switch (feat) {
	case HEADER_CPU_TOPOLOGY:
		free_strv(h->core_siblings);
		free_strv(h->thread_siblings);
		free_strv(h->die_siblings);
		free(h->cpu_topo);
		h->core_siblings = h->thread_siblings = h->die_siblings = NULL;
		h->cpu_topo = NULL;
		h->nr_core_siblings = h->nr_thread_siblings = h->nr_die_siblings = 0;
		h->nr_cpu_topo = 0;
		h->has_die_info = false;
		break;
	case HEADER_NUMA_TOPOLOGY:
		for (int i = 0; i < h->nr_numa_nodes; i++)
			free(h->numa_nodes[i].cpus);
		FREE_AND_NULL(h->numa_nodes);
		h->nr_numa_nodes = 0;
		break;
	case HEADER_PMU_MAPPINGS:
		free_strv(h->pmu_mappings.names);
		FREE_AND_NULL(h->pmu_mappings.types);
		h->pmu_mappings.names = NULL;
		h->pmu_mappings.nr = 0;
		break;
	case HEADER_GROUP_DESC:
		for (int i = 0; h->group_desc && i < h->nr_groups; i++)
			free(h->group_desc[i].name);
		FREE_AND_NULL(h->group_desc);
		h->nr_groups = 0;
		break;
	case HEADER_CACHE:
		for (int i = 0; i < h->nr_caches; i++) {
			free(h->caches[i].type);
			free(h->caches[i].size);
			free(h->caches[i].map);
		}
		FREE_AND_NULL(h->caches);
		h->nr_caches = 0;
		break;
	case HEADER_MEM_TOPOLOGY:
		for (int i = 0; i < h->mem_topo.nr; i++)
			free(h->mem_topo.nodes[i].bitmap);
		FREE_AND_NULL(h->mem_topo.nodes);
		h->mem_topo.nr = 0;
		break;
	case HEADER_HYBRID_TOPOLOGY:
		for (int i = 0; i < h->nr_hybrid; i++) {
			free(h->hybrid[i].pmu_name);
			free(h->hybrid[i].cpus);
		}
		FREE_AND_NULL(h->hybrid);
		h->nr_hybrid = 0;
		break;
	default:
		break;
	}
}

int perf_header_parse_feature(struct perf_header *h, int feat, const void *buf, u64 size,
			      bool swap, char *msg, size_t msg_len, u64 *bad_off)
{
	struct fbuf b = { .base = buf, .size = size, .swap = swap, .msg = msg, .msg_len = msg_len };

	if (feat <= 0 || feat >= HEADER_LAST_FEATURE)
		return 0;
	release_feature(h, feat);
	free(h->feat_raw[feat]);
	h->feat_raw[feat] = size ? xmemdup(buf, size) : NULL;
	h->feat_raw_size[feat] = size;

	switch (feat) {
	case HEADER_TRACING_DATA:
		free(h->tracing_data);
		h->tracing_data = size ? xmemdup(buf, size) : NULL;
		h->tracing_data_size = size;
		break;
	case HEADER_BUILD_ID:
		parse_build_ids(h, &b);
		break;
	case HEADER_HOSTNAME:
		free(h->hostname);
		h->hostname = fstr(&b);
		break;
	case HEADER_OSRELEASE:
		free(h->os_release);
		h->os_release = fstr(&b);
		break;
	case HEADER_VERSION:
		free(h->version);
		h->version = fstr(&b);
		break;
	case HEADER_ARCH:
		free(h->arch);
		h->arch = fstr(&b);
		break;
	case HEADER_NRCPUS:
		h->nr_cpus_avail = f32(&b);
		h->nr_cpus_online = f32(&b);
		break;
	case HEADER_CPUDESC:
		free(h->cpudesc);
		h->cpudesc = fstr(&b);
		break;
	case HEADER_CPUID:
		free(h->cpuid);
		h->cpuid = fstr(&b);
		break;
	case HEADER_TOTAL_MEM:
		h->total_mem = f64(&b);
		break;
	case HEADER_CMDLINE:
		free_strv(h->cmdline);
		h->cmdline = fstrlist(&b, &h->nr_cmdline);
		break;
	case HEADER_EVENT_DESC:
		parse_event_desc(h, &b);
		break;
	case HEADER_CPU_TOPOLOGY:
		parse_cpu_topology(h, &b);
		break;
	case HEADER_NUMA_TOPOLOGY:
		parse_numa(h, &b);
		break;
	case HEADER_PMU_MAPPINGS:
		parse_pmu_mappings(h, &b);
		break;
	case HEADER_GROUP_DESC:
		parse_group_desc(h, &b);
		break;
	case HEADER_AUXTRACE:
		h->nr_auxtrace_index = size / 16;
		break;
	case HEADER_CACHE:
		parse_cache(h, &b);
		break;
	case HEADER_SAMPLE_TIME:
		h->first_sample_time = f64(&b);
		h->last_sample_time = f64(&b);
		break;
	case HEADER_MEM_TOPOLOGY:
		parse_mem_topology(h, &b);
		break;
	case HEADER_CLOCKID:
		h->clockid_res_ns = f64(&b);
		break;
	case HEADER_DIR_FORMAT:
		h->dir_format_version = f64(&b);
		break;
	case HEADER_BPF_PROG_INFO:
		h->nr_bpf_prog_info = f32(&b);
		break;
	case HEADER_BPF_BTF:
		h->nr_bpf_btf = f32(&b);
		break;
	case HEADER_COMPRESSED:
		h->comp.version = f32(&b);
		h->comp.type = f32(&b);
		h->comp.level = f32(&b);
		h->comp.ratio = f32(&b);
		h->comp.mmap_len = f32(&b);
		break;
	case HEADER_CPU_PMU_CAPS:
		parse_pmu_caps(h, &b, true);
		break;
	case HEADER_CLOCK_DATA:
		h->clock_data.version = f32(&b);
		h->clock_data.clockid = f32(&b);
		h->clock_data.wall_ns = f64(&b);
		h->clock_data.clockid_ns = f64(&b);
		break;
	case HEADER_HYBRID_TOPOLOGY: {
		u32 nr = fcount(&b, f32(&b), 8, "pmu count larger than the section");

		h->hybrid = xcalloc(nr ? nr : 1, sizeof(*h->hybrid));
		for (u32 i = 0; i < nr && !b.failed; i++) {
			h->hybrid[i].pmu_name = fstr(&b);
			h->hybrid[i].cpus = fstr(&b);
			h->nr_hybrid = i + 1;
		}
		break;
	}
	case HEADER_PMU_CAPS:
		parse_pmu_caps(h, &b, false);
		break;
	default:
		break;
	}
	if (b.failed) {
		if (bad_off)
			*bad_off = b.pos;
		return -EINVAL;
	}
	return 0;
}

void perf_header_release(struct perf_header *h)
{
	for (int i = 0; i < HEADER_LAST_FEATURE; i++)
		free(h->feat_raw[i]);
	free(h->hostname);
	free(h->os_release);
	free(h->version);
	free(h->arch);
	free(h->cpudesc);
	free(h->cpuid);
	free_strv(h->cmdline);
	for (int i = 0; i < h->nr_build_ids; i++)
		free(h->build_ids[i].filename);
	free(h->build_ids);
	free_strv(h->pmu_mappings.names);
	free(h->pmu_mappings.types);
	if (h->group_desc)
		for (int i = 0; i < h->nr_groups; i++)
			free(h->group_desc[i].name);
	free(h->group_desc);
	free(h->tracing_data);
	free_strv(h->core_siblings);
	free_strv(h->thread_siblings);
	free_strv(h->die_siblings);
	free(h->cpu_topo);
	for (int i = 0; i < h->nr_attrs; i++) {
		free(h->attrs[i].ids);
		free(h->attrs[i].name);
	}
	free(h->attrs);
	for (int i = 0; i < h->nr_numa_nodes; i++)
		free(h->numa_nodes[i].cpus);
	free(h->numa_nodes);
	for (int i = 0; i < h->nr_caches; i++) {
		free(h->caches[i].type);
		free(h->caches[i].size);
		free(h->caches[i].map);
	}
	free(h->caches);
	for (int i = 0; i < h->mem_topo.nr; i++)
		free(h->mem_topo.nodes[i].bitmap);
	free(h->mem_topo.nodes);
	for (int i = 0; i < h->nr_pmu_caps; i++) {
		free(h->pmu_caps[i].pmu_name);
		free_strv(h->pmu_caps[i].names);
		free_strv(h->pmu_caps[i].values);
	}
	free(h->pmu_caps);
	for (int i = 0; i < h->nr_hybrid; i++) {
		free(h->hybrid[i].pmu_name);
		free(h->hybrid[i].cpus);
	}
	free(h->hybrid);
	memset(h, 0, sizeof(*h));
}
