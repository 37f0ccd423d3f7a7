/* SPDX-License-Identifier: MIT */
/* perf report -D / --dump-raw-trace: every record, hex-dumped and decoded, in perf 6.1's layout. */
#ifndef SONDE_UI_DUMP_H
#define SONDE_UI_DUMP_H

#include "data/reader.h"
#include "session/session.h"

#include <stdbool.h>
#include <stdio.h>

/*
 * struct dump_hooks - what perf script -D adds to the raw dump: its own
 * line after each kernel record (the sample's script line), THREAD_MAP and
 * CPU_MAP handled (no ": unhandled!"), no "Aggregated stats" table.
 */
struct dump_hooks {
	/* called after each kernel record's dump lines, in delivery order; flush the stream first */
	void (*after_record)(void *arg, struct session *session, const union perf_event *ev);
	void *arg;
	bool no_stats;
	bool handles_maps;
	/* report -D --stats: perf's counting tool handles nothing ("unhandled!"), unordered */
	bool stats_tool;
};

/*
 * dump_raw_trace - print every record of @session's file as perf report -D
 * does, as a tool on the session: perf-tool records when read, kernel
 * records when delivered (timestamp order with @ordered), samples with
 * their callchain/branch/regs/read details and the thread/dso lines, then
 * the "Aggregated stats" table. @hooks may be NULL.
 * Returns 0, or the session's -errno with @err filled (the caller reports it).
 */
int dump_raw_trace(FILE *fp, struct session *session, bool ordered,
		   const struct dump_hooks *hooks, struct data_error *err);

/* dump_has_sample_id_all - the first event has sample_id_all (else perf -D runs unordered). */
bool dump_has_sample_id_all(struct data_reader *reader);

/* dump_hex - perf's ". ... raw event: size N bytes" block for @len bytes at @p. */
void dump_hex(FILE *fp, const void *p, size_t len);

#endif
