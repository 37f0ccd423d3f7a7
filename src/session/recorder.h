/* SPDX-License-Identifier: MIT */
/*
 * The data path of a recording: drain the rings into the perf.data writer,
 * count samples and lost records, note first/last sample times, and track
 * which DSOs got samples (from the MMAP/MMAP2/FORK/COMM records passing by)
 * so that their build-ids can be written without reading the file back.
 */
#ifndef SONDE_SESSION_RECORDER_H
#define SONDE_SESSION_RECORDER_H

#include "core/mmap.h"
#include "data/event.h"
#include "lib/hashmap.h"
#include "lib/util.h"

#include <stdbool.h>

struct data_writer;
struct evlist;

struct recorder_dso {
	const char *name;	/* interned in recorder->names */
	u16 cpumode;		/* PERF_RECORD_MISC_KERNEL or _USER */
	bool hit;
};

struct recorder {
	struct data_writer *w;
	struct perf_mmap_set *rings;
	/* sample layout: ids to sample_type when the file has several layouts */
	u64 sample_type;	/* of the first event */
	bool has_identifier;
	struct u64map type_by_id; /* id -> (void *)(uintptr_t)sample_type */
	bool track_hits;	/* false with -B/--no-buildid */
	bool buildid_all;	/* --buildid-all: every DSO seen */
	const char *buildid_cache; /* build-id cache root to fill (~/.debug), NULL: none (-N) */
	/* accounting */
	u64 nr_samples;
	u64 nr_events;		/* every record written (perf's "Processed N events") */
	u64 nr_lost_records, nr_lost;
	u64 nr_lost_samples;	/* from the PERF_FORMAT_LOST counts at the end */
	u64 first_time, last_time;
	u64 nr_chunks;		/* ring reads that found data */
	u64 bytes_read;		/* uncompressed ring bytes */
	/* dso hit tracking */
	struct strpool names;
	struct u64map maps_by_pid; /* pid -> struct recorder_maps * */
	struct recorder_dso **dsos; /* owned */
	int nr_dsos, alloc_dsos;
	struct u64map dso_by_name; /* (uintptr_t)interned name -> struct recorder_dso * */
	struct recorder_dso *kernel;
	void *linear;		/* owned: wrapped windows are copied here whole */
	size_t linear_size;
};

/* recorder_init - @evlist gives the sample layouts (after the events were opened). */
void recorder_init(struct recorder *r, struct data_writer *w, struct perf_mmap_set *rings,
		   struct evlist *evlist, bool track_hits);
void recorder_release(struct recorder *r);

/*
 * recorder_write_synth - write one synthesized record (uncompressed) and
 * learn the maps it describes. Matches synth_emit_fn. Returns 0 or -errno.
 */
int recorder_write_synth(void *recorder, union perf_event *ev);

/*
 * recorder_read_rings - one pass over every ring: write what each holds
 * and account for it. *@nr_read receives the number of rings that had data.
 * Returns 0 or -errno (a write error).
 */
int recorder_read_rings(struct recorder *r, int *nr_read);

/*
 * recorder_write_lost_samples - LOST_SAMPLES records (with each event's
 * sample_id trailer) for every fd of @evlist whose PERF_FORMAT_LOST count
 * is not zero, as perf writes at the end of a recording. Returns 0 or -errno.
 */
int recorder_write_lost_samples(struct recorder *r, struct evlist *evlist);

/*
 * recorder_add_build_ids - BUILD_ID entries for the DSOs that got samples
 * (all seen DSOs with buildid_all) whose build-id can be read.
 * Returns the number of entries added.
 */
int recorder_add_build_ids(struct recorder *r);

#endif
