/* SPDX-License-Identifier: MIT */
/* perf.data record layouts (kernel and perf-tool records) and the decoded sample. */
#ifndef SONDE_DATA_EVENT_H
#define SONDE_DATA_EVENT_H

#include "lib/util.h"

#include <linux/perf_event.h>
#include <stdbool.h>

/* perf-tool record types (user records, >= PERF_RECORD_USER_TYPE_START) */
enum perf_user_event_type {
	PERF_RECORD_USER_TYPE_START = 64,
	PERF_RECORD_HEADER_ATTR = 64,
	PERF_RECORD_HEADER_EVENT_TYPE = 65,
	PERF_RECORD_HEADER_TRACING_DATA = 66,
	PERF_RECORD_HEADER_BUILD_ID = 67,
	PERF_RECORD_FINISHED_ROUND = 68,
	PERF_RECORD_ID_INDEX = 69,
	PERF_RECORD_AUXTRACE_INFO = 70,
	PERF_RECORD_AUXTRACE = 71,
	PERF_RECORD_AUXTRACE_ERROR = 72,
	PERF_RECORD_THREAD_MAP = 73,
	PERF_RECORD_CPU_MAP = 74,
	PERF_RECORD_STAT_CONFIG = 75,
	PERF_RECORD_STAT = 76,
	PERF_RECORD_STAT_ROUND = 77,
	PERF_RECORD_EVENT_UPDATE = 78,
	PERF_RECORD_TIME_CONV = 79,
	PERF_RECORD_HEADER_FEATURE = 80,
	PERF_RECORD_COMPRESSED = 81,
	PERF_RECORD_FINISHED_INIT = 82,
	PERF_RECORD_HEADER_MAX
};

/* Bodies of the records sonde reads and writes. All sizes are in header.size. */
struct perf_record_mmap {
	struct perf_event_header header;
	u32 pid, tid;
	u64 start, len, pgoff;
	char filename[]; /* NUL-terminated, padded to 8 */
};

struct perf_record_mmap2 {
	struct perf_event_header header;
	u32 pid, tid;
	u64 start, len, pgoff;
	union {
		struct {
			u32 maj, min;
			u64 ino, ino_generation;
		};
		struct {
			u8 build_id_size;
			u8 reserved_1;
			u16 reserved_2;
			u8 build_id[20];
		};
	};
	u32 prot, flags;
	char filename[];
};

struct perf_record_comm {
	struct perf_event_header header;
	u32 pid, tid;
	char comm[];
};

/* FORK and EXIT share a layout */
struct perf_record_fork {
	struct perf_event_header header;
	u32 pid, ppid, tid, ptid;
	u64 time;
};

struct perf_record_lost {
	struct perf_event_header header;
	u64 id, lost;
};

struct perf_record_lost_samples {
	struct perf_event_header header;
	u64 lost;
};

/* THROTTLE and UNTHROTTLE */
struct perf_record_throttle {
	struct perf_event_header header;
	u64 time, id, stream_id;
};

struct perf_record_switch {
	struct perf_event_header header;
	u32 next_prev_pid, next_prev_tid; /* only in SWITCH_CPU_WIDE */
};

struct perf_record_ksymbol {
	struct perf_event_header header;
	u64 addr;
	u32 len;
	u16 ksym_type, flags;
	char name[];
};

struct perf_record_header_attr {
	struct perf_event_header header;
	struct perf_event_attr attr; /* attr.size bytes, then u64 ids to the end */
};

struct perf_record_id_index_entry {
	u64 id, idx, cpu, tid;
};

struct perf_record_id_index {
	struct perf_event_header header;
	u64 nr;
	struct perf_record_id_index_entry entries[];
};

struct perf_record_header_build_id {
	struct perf_event_header header; /* misc = cpumode | PERF_RECORD_MISC_BUILD_ID_SIZE */
	s32 pid;
	u8 build_id[24]; /* 20 used; byte 20 is the size when misc has BUILD_ID_SIZE */
	char filename[];
};

#ifndef PERF_RECORD_MISC_BUILD_ID_SIZE
#define PERF_RECORD_MISC_BUILD_ID_SIZE (1 << 15)
#endif

struct perf_record_thread_map_entry {
	u64 pid;
	char comm[16];
};

struct perf_record_time_conv {
	struct perf_event_header header;
	u64 time_shift, time_mult, time_zero, time_cycles, time_mask;
	u8 cap_user_time_zero, cap_user_time_short, reserved[6];
};

struct perf_record_compressed {
	struct perf_event_header header;
	char data[]; /* zstd frames holding ordinary records; NOT padded to 8 */
};

/* union perf_event - any record, by its header. */
union perf_event {
	struct perf_event_header header;
	struct perf_record_mmap mmap;
	struct perf_record_mmap2 mmap2;
	struct perf_record_comm comm;
	struct perf_record_fork fork;
	struct perf_record_lost lost;
	struct perf_record_lost_samples lost_samples;
	struct perf_record_throttle throttle;
	struct perf_record_switch context_switch;
	struct perf_record_ksymbol ksymbol;
	struct perf_record_header_attr attr;
	struct perf_record_id_index id_index;
	struct perf_record_header_build_id build_id;
	struct perf_record_time_conv time_conv;
	struct perf_record_compressed compressed;
};

/* a callchain as in PERF_SAMPLE_CALLCHAIN: nr then ips (context markers included) */
struct ip_callchain {
	u64 nr;
	u64 ips[];
};

struct branch_entry {
	u64 from, to, flags;
};

struct branch_stack {
	u64 nr;
	u64 hw_idx; /* present only with PERF_SAMPLE_BRANCH_HW_INDEX */
	struct branch_entry entries[];
};

struct regs_dump {
	u64 abi;
	u64 mask;
	const u64 *regs; /* points into the record */
};

struct stack_dump {
	u64 size;
	const char *data; /* points into the record */
	u64 dyn_size;
};

struct sample_read_value {
	u64 value, id, lost;
};

/*
 * struct perf_sample - a decoded PERF_RECORD_SAMPLE (or the sample_id
 * trailer of another record). Pointers point into the record, so a
 * sample is valid only as long as its record. Fields absent from the
 * sample_type are 0 / NULL (pid/tid/cpu: -1 when absent).
 */
struct perf_sample {
	u64 ip;
	u32 pid, tid;
	u64 time;
	u64 addr;
	u64 id;
	u64 stream_id;
	u64 period;
	u64 weight;
	u64 transaction;
	u64 insn_cnt, cyc_cnt;
	u32 cpu;
	u32 raw_size;
	u64 data_src;
	u64 phys_addr;
	u64 data_page_size, code_page_size;
	u64 cgroup;
	u16 cpumode; /* header.misc & PERF_RECORD_MISC_CPUMODE_MASK */
	u16 misc;
	bool no_hw_idx;
	const void *raw_data;
	u64 aux_size;
	const void *aux_data; /* PERF_SAMPLE_AUX bytes, points into the record */
	const struct ip_callchain *callchain;
	const struct branch_stack *branch_stack;
	struct regs_dump user_regs, intr_regs;
	struct stack_dump user_stack;
	struct {
		u64 time_enabled, time_running;
		u64 nr; /* group reads */
		const struct sample_read_value *values; /* nr entries of perf_sample_read_value_size() bytes */
		struct sample_read_value one;
	} read;
};

/*
 * callchain_context_cpumode - the cpumode (PERF_RECORD_MISC_*) that a
 * callchain context marker (PERF_CONTEXT_KERNEL, _USER, ...) switches to,
 * or -1 for a value at or above PERF_CONTEXT_MAX that is no known marker.
 */
static inline int callchain_context_cpumode(u64 ip)
{
	switch (ip) {
	case PERF_CONTEXT_HV:
		return PERF_RECORD_MISC_HYPERVISOR;
	case PERF_CONTEXT_KERNEL:
		return PERF_RECORD_MISC_KERNEL;
	case PERF_CONTEXT_USER:
		return PERF_RECORD_MISC_USER;
	case PERF_CONTEXT_GUEST_KERNEL:
		return PERF_RECORD_MISC_GUEST_KERNEL;
	case PERF_CONTEXT_GUEST_USER:
		return PERF_RECORD_MISC_GUEST_USER;
	default:
		return -1;
	}
}

/* the name perf prints for a record type ("SAMPLE", "MMAP2", "FINISHED_ROUND", ...), or "UNKNOWN" */
const char *perf_event_name(u32 type);

#endif
