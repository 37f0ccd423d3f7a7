/* SPDX-License-Identifier: MIT */
/* The memory sampling events of perf mem/c2c record (Intel PEBS load latency and stores, AMD IBS op) and c2c record's line. */
#ifndef SONDE_CORE_MEM_EVENTS_H
#define SONDE_CORE_MEM_EVENTS_H

#include <stdbool.h>

struct strvec;

/* which accesses to sample */
enum {
	MEM_EVENTS_LOAD = 1 << 0,
	MEM_EVENTS_STORE = 1 << 1,
};

#define MEM_EVENTS_DEFAULT_LDLAT 30

/*
 * mem_events_find - the -e strings that sample @kinds of access with the
 * PMUs here (PMU_SYSFS_DIR, or $SONDE_PMU_DIR), pushed into @out:
 * Intel, per core PMU with the aliases ("cpu", or cpu_core and cpu_atom
 * on hybrid parts): "PMU/mem-loads,ldlat=N/P" (grouped behind
 * "PMU/mem-loads-aux/" where that alias exists) and "PMU/mem-stores/P";
 * AMD: "ibs_op//" once for both. Returns how many were pushed; 0 when
 * none can be sampled (perf's "memory events not supported").
 */
int mem_events_find(unsigned int kinds, unsigned int ldlat, struct strvec *out);

/* struct c2c_record_opts - perf c2c record's own options */
struct c2c_record_opts {
	unsigned int kinds;	/* -e ldlat-loads / ldlat-stores; 0: both */
	unsigned int ldlat;	/* -l; 0: MEM_EVENTS_DEFAULT_LDLAT */
	bool all_kernel, all_user; /* -k, -u */
};

/*
 * c2c_record_argv - perf record's words for c2c record: "record -W -d
 * --phys-data --sample-cpu", the events (-e each), --all-kernel/--all-user,
 * then @nr_rest words of @rest (record options and the workload). Returns
 * the number of events; 0 (and @out untouched) without memory events.
 */
int c2c_record_argv(const struct c2c_record_opts *o, int nr_rest, const char *const *rest,
		    struct strvec *out);

#endif
