/* SPDX-License-Identifier: MIT */
/*
 * Sampling configuration of a recording: the record options that shape
 * each perf_event_attr (as perf 6.1's record sets them), the tracking
 * dummy event, and opening the events for sampling with perf's fallbacks
 * (cycles -> cpu-clock, lower precise_ip) and kernel sample ids.
 */
#ifndef SONDE_CORE_RECORD_CONFIG_H
#define SONDE_CORE_RECORD_CONFIG_H

#include "core/evlist.h"
#include "lib/util.h"

#include <stdbool.h>

enum callchain_mode {
	CALLCHAIN_NONE,
	CALLCHAIN_FP,
	CALLCHAIN_DWARF,
	CALLCHAIN_LBR,
};

/* x86-64 user registers perf asks for with --call-graph dwarf (AX..R15 without segment regs) */
#define PERF_REGS_MASK_X86_64 0xff0fffULL
#define CALLCHAIN_DWARF_DEFAULT_SIZE 8192

struct record_opts {
	struct target target;
	u64 freq;		/* -F, 0 for a fixed period */
	u64 default_interval;	/* -c, or the per-event default when freq is 0 */
	bool user_freq;		/* -F given */
	bool user_interval;	/* -c given */
	bool no_inherit;	/* -i */
	bool no_inherit_set;
	bool sample_address;	/* -d (and dwarf call graphs) */
	bool sample_time;	/* on unless --no-timestamp */
	bool sample_time_set;	/* -T given */
	bool raw_samples;	/* -R */
	bool sample_cpu;	/* --sample-cpu */
	bool sample_weight;	/* -W */
	bool sample_phys_addr;
	bool period_set, period; /* -P / --no-period */
	bool no_samples;	/* -n */
	bool inherit_stat;	/* -s */
	bool running_time;
	bool record_switch_events;
	bool record_namespaces;
	bool record_cgroup;
	bool no_bpf_event;
	bool overwrite;
	bool pipe_output;	/* -o -: every sample carries its id */
	bool sample_identifier;	/* --sample-identifier */
	bool use_clockid;
	int clockid;
	bool all_user, all_kernel;
	bool group;		/* --group */
	bool no_buffering;
	bool kernel_callchains, user_callchains;
	u64 branch_stack;	/* -b / -j */
	u64 sample_regs_intr;	/* -I */
	u64 sample_regs_user;	/* --user-regs */
	enum callchain_mode callchain;
	u32 dwarf_size;
	u16 max_stack;		/* attr.sample_max_stack: "fp,N", 0 for the kernel limit */
	bool mmap_pages_set;
	int initial_delay;	/* -D ms; -1: start disabled */
	bool build_id;		/* --buildid-mmap: MMAP2 records carry build-ids */
	bool sample_data_page_size;	/* --data-page-size */
	bool sample_code_page_size;	/* --code-page-size */
	bool sample_transaction;	/* --transaction */
};

/* record_opts_init - perf's defaults: -F 4000, timestamps on, inherit on. */
void record_opts_init(struct record_opts *opts);

/*
 * record_parse_callchain - "fp", "dwarf[,size]", "lbr" (and "no") into @opts.
 * Returns 0 or -EINVAL (bad mode or size; the caller prints perf's error).
 */
int record_parse_callchain(struct record_opts *opts, const char *arg);

/*
 * record_add_default_event - perf's default "cycles:P" (hardware cycles
 * with the highest precise level). The fallback to cpu-clock happens at open.
 */
void record_add_default_event(struct evlist *evlist);

/*
 * record_config_evlist - set every attr of @evlist from @opts as perf 6.1
 * does: sample_type, read_format, freq/period, tracking bits on the
 * tracking event (the first, or an added "dummy:HG" for cpu targets),
 * disabled/enable_on_exec, sample ids when several events. @has_cpu is
 * true for -a/-C targets, @per_thread when the cpu map is {-1}.
 */
void record_config_evlist(struct evlist *evlist, struct record_opts *opts, bool has_cpu,
			  bool per_thread);

/*
 * record_open_evlist - open every event on @cpus x @threads for sampling,
 * read each fd's kernel id (PERF_EVENT_IOC_ID) into evsel->ids, apply
 * perf's fallbacks (hardware cycles missing -> "cpu-clock" with the same
 * modifiers; precise_ip too high -> lower it). On failure returns -errno,
 * *@failed is the event that failed. @fallback_msg receives perf's
 * warning text when a fallback happened (may be empty).
 */
struct cpu_map;
struct thread_map;
int record_open_evlist(struct evlist *evlist, struct cpu_map *cpus, struct thread_map *threads,
		       struct evsel **failed, char *fallback_msg, size_t msg_len);

/* record_id_hdr_size - the sample_id trailer size of the file's records. */
size_t record_id_hdr_size(struct evlist *evlist);

/*
 * record_uid_tid_list - "-u USER" (name or number): the threads of that
 * user's processes as a comma-separated tid list (caller frees), or NULL
 * with *@err = -EINVAL (unknown user) or -ESRCH (no process).
 */
char *record_uid_tid_list(const char *user, int *err);

/* record_max_sample_rate - perf_event_max_sample_rate (100000 when unreadable). */
u64 record_max_sample_rate(void);

#endif
