/* SPDX-License-Identifier: MIT */
/* perf.data file header, feature bits and the parsed feature payloads. */
#ifndef SONDE_DATA_HEADER_H
#define SONDE_DATA_HEADER_H

#include "lib/util.h"

#include <linux/perf_event.h>
#include <stdbool.h>

enum perf_header_feature {
	HEADER_RESERVED = 0,
	HEADER_TRACING_DATA = 1,
	HEADER_BUILD_ID,
	HEADER_HOSTNAME,
	HEADER_OSRELEASE,
	HEADER_VERSION,
	HEADER_ARCH,
	HEADER_NRCPUS,
	HEADER_CPUDESC,
	HEADER_CPUID,
	HEADER_TOTAL_MEM,
	HEADER_CMDLINE,
	HEADER_EVENT_DESC,
	HEADER_CPU_TOPOLOGY,
	HEADER_NUMA_TOPOLOGY,
	HEADER_BRANCH_STACK,
	HEADER_PMU_MAPPINGS,
	HEADER_GROUP_DESC,
	HEADER_AUXTRACE,
	HEADER_STAT,
	HEADER_CACHE,
	HEADER_SAMPLE_TIME,
	HEADER_MEM_TOPOLOGY,
	HEADER_CLOCKID,
	HEADER_DIR_FORMAT,
	HEADER_BPF_PROG_INFO,
	HEADER_BPF_BTF,
	HEADER_COMPRESSED,
	HEADER_CPU_PMU_CAPS,
	HEADER_CLOCK_DATA,
	HEADER_HYBRID_TOPOLOGY,
	HEADER_PMU_CAPS,
	HEADER_LAST_FEATURE, /* 32 in perf 6.1 */
	HEADER_FEAT_BITS = 256,
};

struct perf_file_section {
	u64 offset, size;
};

/* the 104-byte on-disk file header */
struct perf_file_header {
	u64 magic; /* "PERFILE2" */
	u64 size;
	u64 attr_size;
	struct perf_file_section attrs;
	struct perf_file_section data;
	struct perf_file_section event_types;
	u64 adds_features[HEADER_FEAT_BITS / 64];
};

#define PERF_MAGIC 0x32454c4946524550ULL /* "PERFILE2" little-endian */

/* one BUILD_ID feature / HEADER_BUILD_ID record entry */
struct build_id_entry {
	s32 pid;
	u16 cpumode;
	u8 size;	/* bytes of build_id used: 20 for SHA1 */
	u8 build_id[20];
	char *filename; /* owned */
};

/*
 * struct perf_header - everything a perf.data header says, parsed.
 * Strings and arrays are owned by the header (freed by perf_header_release).
 * Raw feature payloads are kept too, for header printers and for
 * features sonde does not decode.
 */
struct perf_header {
	bool is_pipe;
	bool needs_swap;
	/* file layout */
	u64 header_size;	/* 104 (file) or 16 (pipe) */
	u64 file_size;		/* bytes in the file (0 for a pipe) */
	s64 mtime;		/* file modification time (seconds) for "captured on" */
	u64 attr_offset, attr_size; /* attrs section, file mode */
	u64 attr_entry_size;	/* header.attr_size (stride) */
	u64 data_offset, data_size;
	u64 feat_offset;	/* feature table offset = data_offset + data_size */

	/* attrs section (or HEADER_ATTR records), in file order */
	struct perf_header_attr *attrs;
	int nr_attrs;

	/* features: the bitmap, where each section is, and its raw payload */
	u64 features[HEADER_FEAT_BITS / 64]; /* bitmap */
	/* features the bitmap announces whose sections lie past the end of a truncated file */
	u64 feat_lost[HEADER_FEAT_BITS / 64];
	struct perf_file_section feat_sec[HEADER_LAST_FEATURE]; /* file offsets; 0 when absent */
	void *feat_raw[HEADER_LAST_FEATURE];	/* owned copies of payloads, host byte order not applied */
	u64 feat_raw_size[HEADER_LAST_FEATURE];

	/* the machine and the command line */
	char *hostname, *os_release, *version, *arch, *cpudesc, *cpuid;
	u32 nr_cpus_avail, nr_cpus_online;
	u64 total_mem; /* kB */
	char **cmdline; /* NULL-terminated */
	int nr_cmdline;

	/* CPU_TOPOLOGY */
	char **core_siblings, **thread_siblings, **die_siblings;
	int nr_core_siblings, nr_thread_siblings, nr_die_siblings;
	struct {
		u32 core_id, socket_id, die_id;
	} *cpu_topo; /* nr_cpus_avail entries, may be NULL */
	int nr_cpu_topo;
	bool has_die_info;
	/* NUMA_TOPOLOGY, CACHE, MEM_TOPOLOGY, HYBRID_TOPOLOGY */
	struct perf_numa_node *numa_nodes;
	int nr_numa_nodes;
	struct perf_cache_level *caches;
	int nr_caches;
	struct {
		u64 version, block_size;
		struct perf_mem_node *nodes;
		int nr;
	} mem_topo;
	struct {
		char *pmu_name, *cpus;
	} *hybrid;
	int nr_hybrid;

	/* PMU_MAPPINGS, PMU_CAPS and CPU_PMU_CAPS ("cpu") */
	struct {
		char **names; /* NULL-terminated pmu names indexed in order */
		u32 *types;
		int nr;
	} pmu_mappings;
	struct perf_pmu_caps *pmu_caps;
	int nr_pmu_caps;

	/* GROUP_DESC */
	struct {
		char *name; /* owned, may be "" */
		u32 leader_idx, nr_members;
	} *group_desc;
	int nr_groups;

	/* BUILD_ID */
	struct build_id_entry *build_ids;
	int nr_build_ids;

	/* SAMPLE_TIME, CLOCKID, CLOCK_DATA */
	u64 first_sample_time, last_sample_time;
	u64 clockid_res_ns;
	struct {
		u32 version, clockid;
		u64 wall_ns, clockid_ns;
	} clock_data;

	/* TRACING_DATA blob (file feature or pipe record), owned, for libtraceevent */
	void *tracing_data;
	u64 tracing_data_size;
	/* COMPRESSED */
	struct {
		u32 version, type, level, ratio, mmap_len;
	} comp;
	/* DIR_FORMAT, BPF_PROG_INFO, BPF_BTF, AUXTRACE (counted, not decoded) */
	u64 dir_format_version;
	u32 nr_bpf_prog_info, nr_bpf_btf;
	u64 nr_auxtrace_index;
};

/*
 * struct id_layout - where the event id sits in the records of one attr
 * (computed once from its sample_type and sample_id_all).
 */
struct id_layout {
	int sample_off;	 /* bytes from the start of a SAMPLE record to the id, -1: none */
	int trailer_off; /* bytes from the end of a non-sample kernel record back to the id, -1: none */
};

/* one attrs-section entry (or HEADER_ATTR record in pipe mode) */
struct perf_header_attr {
	struct perf_event_attr attr; /* zero-extended to sizeof, host order */
	u64 *ids;		     /* owned */
	u32 nr_ids;
	char *name;		     /* owned, from EVENT_DESC; NULL when absent */
	struct id_layout ids_at;     /* where this attr's records carry their id */
};

struct perf_numa_node {
	u32 node;
	u64 mem_total, mem_free; /* kB */
	char *cpus;		 /* owned cpu list "0-1" */
};

struct perf_cache_level {
	u32 level, line_size, sets, ways;
	char *type, *size, *map; /* owned */
};

struct perf_mem_node {
	u64 node, size; /* size in bits of the bitmap */
	u64 *bitmap;	/* owned, (size+63)/64 words */
};

struct perf_pmu_caps {
	char *pmu_name; /* owned */
	int nr;
	char **names, **values; /* owned */
};

static inline bool perf_header_has_feat(const struct perf_header *h, int feat)
{
	return (h->features[feat / 64] >> (feat % 64)) & 1;
}

/* perf_header_feat_is_lost - the feature was announced but its section is past the end of the file */
static inline bool perf_header_feat_is_lost(const struct perf_header *h, int feat)
{
	return (h->feat_lost[feat / 64] >> (feat % 64)) & 1;
}

static inline void perf_header_set_feat(struct perf_header *h, int feat)
{
	h->features[feat / 64] |= 1ULL << (feat % 64);
}

#endif
