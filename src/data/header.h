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
	u64 data_offset, data_size;
	u64 features[HEADER_FEAT_BITS / 64]; /* bitmap */
	struct perf_file_section feat_sec[HEADER_LAST_FEATURE]; /* file offsets; 0 when absent */
	void *feat_raw[HEADER_LAST_FEATURE];	/* owned copies of payloads, host byte order not applied */
	u64 feat_raw_size[HEADER_LAST_FEATURE];

	char *hostname, *os_release, *version, *arch, *cpudesc, *cpuid;
	u32 nr_cpus_avail, nr_cpus_online;
	u64 total_mem; /* kB */
	char **cmdline; /* NULL-terminated */
	int nr_cmdline;
	struct build_id_entry *build_ids;
	int nr_build_ids;
	u64 first_sample_time, last_sample_time;
	u64 clockid_res_ns;
	struct {
		char **names; /* NULL-terminated pmu names indexed in order */
		u32 *types;
		int nr;
	} pmu_mappings;
	struct {
		char *name; /* owned, may be "" */
		u32 leader_idx, nr_members;
	} *group_desc;
	int nr_groups;
	/* TRACING_DATA blob (file feature or pipe record), owned, for libtraceevent */
	void *tracing_data;
	u64 tracing_data_size;
	struct {
		u32 version, type, level, ratio, mmap_len;
	} comp;
	/* CPU_TOPOLOGY */
	char **core_siblings, **thread_siblings, **die_siblings;
	int nr_core_siblings, nr_thread_siblings, nr_die_siblings;
	struct {
		u32 core_id, socket_id, die_id;
	} *cpu_topo; /* nr_cpus_avail entries, may be NULL */
};

static inline bool perf_header_has_feat(const struct perf_header *h, int feat)
{
	return (h->features[feat / 64] >> (feat % 64)) & 1;
}

/* the feature's name as perf prints it ("HOSTNAME", "BUILD_ID", ...) */
const char *perf_header_feat_name(int feat);

#endif
