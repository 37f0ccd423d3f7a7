/* SPDX-License-Identifier: MIT */
/* sonde mem report (cmd/mem-report.c), called by cmd/mem.c. */
#ifndef SONDE_CMD_MEM_H
#define SONDE_CMD_MEM_H

#include <stdbool.h>

/* struct mem_report_opts - perf mem's options as they bear on its report */
struct mem_report_opts {
	const char *input, *cpus, *type, *sep;
	bool dump, force, phys, hide_unresolved, page_size;
	const char **extra; /* report options after the word ("--stdio", ...) */
	int nr_extra;
};

/*
 * mem_report_run - perf mem report: report --mem-mode -n with mem's sort
 * order for @o->type, or (-D) one line per sample. Returns the exit status.
 */
int mem_report_run(const struct mem_report_opts *o);

/* mem_have_events - a PMU here samples memory accesses (Intel mem-loads/mem-stores, AMD IBS op) */
bool mem_have_events(void);
/* mem_refuse_live - perf's "failed: memory events not supported"; returns 255 */
int mem_refuse_live(void);
/* mem_record_not_done - @cmd record on a machine with memory events: not done yet; returns 1 */
int mem_record_not_done(const char *cmd);

#endif
