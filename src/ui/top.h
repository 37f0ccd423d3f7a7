/* SPDX-License-Identifier: MIT */
/* sonde top's screens: the PerfTop header line and the --stdio frame. */
#ifndef SONDE_UI_TOP_H
#define SONDE_UI_TOP_H

#include "ui/hists.h"

#include <stdio.h>

/* struct top_stats - the numbers of the header line, for the last interval and in all */
struct top_stats {
	double irqs_per_sec;	/* samples of the last interval per second */
	double kernel_pct;	/* of those, kernel-mode samples (%) */
	double exact_pct;	/* with PERF_RECORD_MISC_EXACT_IP (%) */
	bool guest_stats;	/* perf kvm top: kernel (host), us, guest kernel, guest us */
	double user_pct, guest_kernel_pct, guest_user_pct;
	unsigned long long lost, lost_total; /* LOST records' counts */
	unsigned long long drop, drop_total; /* samples not processed (always 0 here) */
	const char *event;	/* "4000Hz cpu-clock:pppH", "100000 cycles", "cpu-clock" */
	const char *target;	/* " (all, 2 CPUs)", " (target_pid: 12)" */
};

/* top_header_line - "   PerfTop: ... [event],  (target)" into @buf (no newline). Returns @buf. */
const char *top_header_line(const struct top_stats *st, char *buf, size_t size);

/*
 * top_print_stdio - one --stdio frame: clear screen, the header line, a
 * dashed rule of @cols - 1, a blank line, then the rows of @hists (sorted)
 * as report --stdio prints them without titles, each cut to @cols - 1.
 */
void top_print_stdio(FILE *fp, const struct top_stats *st, struct hists *hists,
		     const struct hists_print_opts *po, int cols);

#endif
