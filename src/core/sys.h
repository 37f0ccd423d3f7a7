/* SPDX-License-Identifier: MIT */
/* The perf_event_open system call, its PERF_TEST_ATTR dump hook, and run-time kernel probes. */
#ifndef SONDE_CORE_SYS_H
#define SONDE_CORE_SYS_H

#include "lib/util.h"

#include <linux/perf_event.h>
#include <stdbool.h>
#include <sys/types.h>

/*
 * sys_perf_event_open - perf_event_open(2). Returns the fd, or -errno.
 * When the environment has PERF_TEST_ATTR=DIR, each successful open also
 * writes DIR/event-<type>-<config>-<fd>, the key=value dump perf writes
 * (used by the differential attr tests).
 */
int sys_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
			unsigned long flags);

/*
 * sys_attr_dump - write perf's PERF_TEST_ATTR text for one open into @fp-less
 * buffer form: appends "key=value\n" lines to @out (size @len). Returns the
 * number of bytes written (truncated at @len). Exposed for unit tests.
 */
size_t sys_attr_dump(char *out, size_t len, const struct perf_event_attr *attr, int fd,
		     int group_fd, int cpu, pid_t pid, unsigned long flags);

/*
 * sys_raise_nofile_limit - raise RLIMIT_NOFILE's soft limit to its hard limit
 * (and the hard limit too when privileged). Returns the new soft limit.
 */
long sys_raise_nofile_limit(void);

/* What this kernel offers, probed at run time (never assumed at build time). */
struct kernel_caps {
	bool has_hw_counters;	/* a hardware "cycles" counter can be opened */
	bool has_kprobes;	/* tracefs kprobe_events exists */
	bool has_uprobes;	/* tracefs uprobe_events exists */
	bool has_tracefs;	/* tracefs is mounted (events/ readable) */
	bool has_breakpoints;	/* the breakpoint PMU exists */
	const char *tracefs;	/* mount point found, or NULL */
	int paranoid;		/* /proc/sys/kernel/perf_event_paranoid (2 when unreadable) */
	int max_sample_rate;	/* /proc/sys/kernel/perf_event_max_sample_rate, 0 when unreadable */
	int mlock_kb;		/* /proc/sys/kernel/perf_event_mlock_kb, 0 when unreadable */
};

/* kernel_caps_probe - fill @caps by looking at /proc, /sys and one test open. */
void kernel_caps_probe(struct kernel_caps *caps);

/*
 * sys_proc_field - the value of "KEY<blanks>: value" (first match) in the
 * /proc file @path, newline cut. Returns a new string the caller frees, or
 * NULL when the file or key is missing.
 */
char *sys_proc_field(const char *path, const char *key);

/* sys_cpu_is_amd - this host's CPUs are AMD's (or Hygon's), from /proc/cpuinfo. */
bool sys_cpu_is_amd(void);

/* sys_paranoid - perf_event_paranoid now (2 when unreadable, the kernel default). */
int sys_paranoid(void);

#endif
