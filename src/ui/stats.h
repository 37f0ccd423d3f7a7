/* SPDX-License-Identifier: MIT */
/* The "Aggregated stats" tables of perf report --stats and -D. */
#ifndef SONDE_UI_STATS_H
#define SONDE_UI_STATS_H

#include "data/event.h"
#include "data/reader.h"
#include "session/session.h"

#include <stdio.h>

/* struct record_stats - counts per record type ([0] is the total) and per event. */
struct record_stats {
	u64 nr_events[PERF_RECORD_HEADER_MAX];
	u64 *nr_samples;      /* per evsel idx (owned), SAMPLE records */
	u64 *nr_lost_samples; /* per evsel idx (owned), lost samples from LOST_SAMPLES */
	int nr_evsels;
	u64 total_lost_samples; /* sum of LOST_SAMPLES.lost over all events */
	bool no_evsel_lost;	/* do not count lost samples per event (report -D does not) */
};

/* record_stats_init / _release - sized for @reader's events. */
void record_stats_init(struct record_stats *st, struct data_reader *reader);
void record_stats_release(struct record_stats *st);
/*
 * record_stats_add - count one record. @evsel_idx is the record's event (-1
 * unknown); a COMPRESSED record is counted, and so is each record inside it.
 */
void record_stats_add(struct record_stats *st, const union perf_event *ev, int evsel_idx);

/*
 * stats_warn_lost - perf's end-of-session warnings on stderr: "Processed N
 * events and lost M chunks!" (LOST records) and "Processed N samples and
 * lost X%!" (LOST_SAMPLES above 5%).
 */
void stats_warn_lost(const struct record_stats *st);

/* stats_fprintf - "\nAggregated stats:" then perf's table, then "<event> stats:" per event with samples. */
void stats_fprintf(FILE *fp, const struct record_stats *st, struct data_reader *reader);

/*
 * report_stats - count every record of @session's file, as a tool on the
 * session, and print the stats table (report --stats). Returns 0, or the
 * session's -errno with @err filled (the caller reports it).
 */
int report_stats(FILE *fp, struct session *session, struct data_error *err);

#endif
