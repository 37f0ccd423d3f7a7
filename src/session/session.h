/* SPDX-License-Identifier: MIT */
/*
 * A session: one perf.data file turned into a model. It owns the reader,
 * the name pool, the machine (threads, maps, dsos, frames) and the ordered
 * events queue; records are delivered in timestamp order, flushed on
 * FINISHED_ROUND and at the end, as perf does.
 */
#ifndef SONDE_SESSION_SESSION_H
#define SONDE_SESSION_SESSION_H

#include "data/event.h"
#include "data/reader.h"
#include "lib/hashmap.h"
#include "session/machine.h"
#include "session/ordered-events.h"

#include <stdbool.h>

struct evsel;
struct session;

/*
 * struct tool - what a command does with the records. Every callback may be
 * NULL. The machine is updated before the callback for COMM/FORK/EXIT/MMAP.
 * A non-zero return stops session_process() with that value.
 */
struct tool {
	int (*sample)(struct tool *tool, struct session *session, const union perf_event *ev,
		      const struct perf_sample *sample, struct evsel *evsel);
	int (*other)(struct tool *tool, struct session *session, const union perf_event *ev,
		     const struct perf_sample *sample);
	/*
	 * every record as read, in file order, before any ordering or model
	 * update (raw dumps' tool records, record counts); @pos says where
	 */
	int (*read)(struct tool *tool, struct session *session, const union perf_event *ev,
		    const struct record_pos *pos);
	/*
	 * at delivery, each kernel record whole, once, instead of sample and
	 * other (raw dumps); the machine is updated first
	 */
	int (*event)(struct tool *tool, struct session *session, const union perf_event *ev,
		     const struct record_pos *pos);
	bool ordered;	/* deliver in timestamp order (perf's default for report) */
	/*
	 * with @ordered and only @sample: the file may be read and ordered on
	 * a second thread while this one delivers (same records, same order;
	 * callbacks stay on the calling thread)
	 */
	bool two_threads;
	/* progress: called about every 64k records with bytes done and total (0: unknown) */
	void (*progress)(struct tool *tool, u64 done, u64 total);
	void *progress_arg; /* for the progress callback */
};

struct session_stats {
	u64 nr_events[PERF_RECORD_HEADER_MAX]; /* per record type */
	u64 total_lost;			       /* LOST records, sum of lost */
	u64 total_lost_samples;		       /* LOST_SAMPLES records, sum of lost */
	u64 nr_unordered;		       /* records older than the last flush */
	u64 nr_bad_samples;		       /* samples that failed to parse */
};

/*
 * The ordered queue's memory bound: past it the older half is delivered
 * without waiting for a round marker (pipes and files that have none).
 */
#define SESSION_QUEUE_BYTES ((size_t)64 << 20)

struct session {
	struct data_reader *reader; /* owned unless borrowed_reader */
	bool borrowed_reader;
	struct evlist *evlist;	    /* borrowed from the reader */
	struct strpool names;	    /* every interned name: comms, dsos, symbols */
	struct machine machine;
	struct session_stats stats;
	struct ordered_events *oq;  /* owned, made by the first ordered session_process() */
	u64 next_flush;		    /* at the next round marker, deliver up to this time */
	const union perf_event *held; /* the oldest record queued in the file's mapping, or NULL */
	u64 file_size;
	struct u64map read_values; /* sample id -> last counter value (PERF_SAMPLE_READ) */
	int sample_time_off;  /* fast timestamp lookup for ordering, -1: parse */
	int trailer_time_off;
};

/*
 * session_open - open @path with the data reader and set up an empty model.
 * Returns the session (caller frees with session_free) or NULL with @err
 * filled (the reader's error).
 */
struct session *session_open(const char *path, const struct machine_opts *opts,
			     struct data_error *err);
/*
 * session_new - a session on an already open @reader (e.g. from the checked
 * opener, after --header printing); the session owns the reader and closes
 * it in session_free(). Never NULL.
 */
struct session *session_new(struct data_reader *reader, const struct machine_opts *opts);
/*
 * session_new_borrowed - session_new() for a reader the caller keeps: it
 * stays open after session_free(). Never NULL.
 */
struct session *session_new_borrowed(struct data_reader *reader, const struct machine_opts *opts);
/* session_free - free the model, the queue, and the reader unless borrowed; NULL is fine. */
void session_free(struct session *session);

/*
 * session_process - read every record, update the machine and call @tool.
 * Returns 0, the first non-zero callback result, or -errno from the
 * reader with @err filled.
 */
int session_process(struct session *session, struct tool *tool, struct data_error *err);

/*
 * session_mark_hit - a tool's sample callback: the dso the sample's ip lands
 * in is hit (dso->is_hit; perf marks the sample address only, not the
 * callchain), for the build-id lists of archive and buildid-list. Returns 0.
 */
int session_mark_hit(struct tool *tool, struct session *session, const union perf_event *ev,
		     const struct perf_sample *sample, struct evsel *evsel);

/*
 * session_deliver_event - one kernel record that did not come from the
 * reader (a live session's rings, synthesized /proc state): update the
 * machine and call @tool at once, without ordering. Tool records
 * (PERF_RECORD_USER_TYPE_START and up) are counted and skipped.
 * Returns the callback's result.
 */
int session_deliver_event(struct session *session, struct tool *tool, const union perf_event *ev);

#endif
