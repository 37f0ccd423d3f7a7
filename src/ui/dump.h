/* SPDX-License-Identifier: MIT */
/* perf report -D / --dump-raw-trace: every record, hex-dumped and decoded, in perf 6.1's layout. */
#ifndef SONDE_UI_DUMP_H
#define SONDE_UI_DUMP_H

#include "data/reader.h"

#include <stdbool.h>
#include <stdio.h>

/*
 * dump_raw_trace - print every record of @reader as perf report -D does:
 * perf-tool records when read, kernel records when delivered by the
 * timestamp-ordered queue (@ordered; flushed on FINISHED_ROUND and at the
 * end), samples with their callchain/branch/regs/read details and the
 * thread/dso lines, then the "Aggregated stats" table.
 * Returns 0, or -EINVAL after printing the data error to stderr.
 */
int dump_raw_trace(FILE *fp, struct data_reader *reader, bool ordered);

/*
 * struct dump_hooks - what perf script -D adds to the raw dump: its own
 * line after each kernel record (the sample's script line), THREAD_MAP and
 * CPU_MAP handled (no ": unhandled!"), no "Aggregated stats" table.
 */
struct dump_hooks {
	/* called after each kernel record's dump lines, in delivery order; flush @fp first */
	void (*after_record)(void *arg, const union perf_event *ev);
	void *arg;
	bool no_stats;
	bool handles_maps;
	/* report -D --stats: perf's counting tool handles nothing ("unhandled!"), unordered */
	bool stats_tool;
};

/* dump_raw_trace_hooks - dump_raw_trace() with @hooks (may be NULL). */
int dump_raw_trace_hooks(FILE *fp, struct data_reader *reader, bool ordered,
			 const struct dump_hooks *hooks);

/* dump_has_sample_id_all - the first event has sample_id_all (else perf -D runs unordered). */
bool dump_has_sample_id_all(struct data_reader *reader);

/* dump_hex - perf's ". ... raw event: size N bytes" block for @len bytes at @p. */
void dump_hex(FILE *fp, const void *p, size_t len);

#endif
