/* SPDX-License-Identifier: MIT */
/*
 * perf.data reader: file mode (mmap'ed) and pipe mode (streamed), either
 * byte order, all perf 6.1 record types, feature sections, compressed records.
 * One reader shared by every command.
 */
#ifndef SONDE_DATA_READER_H
#define SONDE_DATA_READER_H

#include "data/event.h"
#include "data/header.h"
#include "lib/util.h"

#include <stdbool.h>

struct evlist;
struct evsel;
struct data_reader;

/*
 * struct data_error - what went wrong and where, for the message
 * "perf.data: <offset 0x...>: <what>" the command prints.
 */
struct data_error {
	u64 offset;	/* file offset of the bad bytes */
	char msg[256];	/* what was wrong, lower case, no full stop */
	int errnum;	/* positive errno (EINVAL for corrupt data, ENOENT, EACCES, ...) */
};

/* ---- opening: the file, its header and its events ---- */

/*
 * data_reader_open - open @path ("-" or a pipe/FIFO: pipe mode) and read
 * its header, attrs and feature sections (file mode) or the leading
 * HEADER_* records (pipe mode).
 * A directory (perf record --threads) is read as dir/data then dir/data.N.
 * Returns a reader owned by the caller (data_reader_close), or NULL with
 * @err filled: @err->errnum EINVAL for a corrupt or truncated file (the
 * offset and what was wrong in @err), another errno for open/mmap failures.
 * Every size in the file is checked against the file before use.
 */
struct data_reader *data_reader_open(const char *path, struct data_error *err);
void data_reader_close(struct data_reader *reader);
/*
 * data_reader_new_live - a reader with no file for records that come from
 * the rings of a live session (top): the attrs, names and kernel sample ids
 * of @evlist's open events (copied), so that records parse as a file's do.
 * data_reader_next() finds no records. Never NULL; close as any reader.
 */
struct data_reader *data_reader_new_live(const struct evlist *evlist);

/* data_reader_header - the parsed header and features (owned by the reader). */
const struct perf_header *data_reader_header(const struct data_reader *reader);

/*
 * data_reader_evlist - events rebuilt from the attrs (names from EVENT_DESC
 * when present, else from the attr). Owned by the reader; no fds.
 */
struct evlist *data_reader_evlist(struct data_reader *reader);
/*
 * data_reader_evsel_attr - the perf_header_attr (original attr.size, ids,
 * EVENT_DESC name) of an evsel of this reader's evlist; NULL if unknown.
 */
const struct perf_header_attr *data_reader_evsel_attr(const struct data_reader *reader,
						      const struct evsel *evsel);

/* data_reader_path - the path given to data_reader_open ("-" for stdin). */
const char *data_reader_path(const struct data_reader *reader);
/* data_reader_is_pipe - true for pipe-format input (stream or a pipe-format file). */
bool data_reader_is_pipe(const struct data_reader *reader);
/*
 * Directory mode (perf record --threads writes dir/data and dir/data.N):
 * data_reader_open(dir) reads dir/data, then every data.N file in order.
 * data_reader_is_dir - true in directory mode.
 * data_reader_cur_path - the file the last record came from ("dir/data.1");
 * the path given to open for a plain file.
 */
bool data_reader_is_dir(const struct data_reader *reader);
const char *data_reader_cur_path(const struct data_reader *reader);
/*
 * data_reader_data_size_was_zero - the header said data.size 0 (a record that
 * was killed before it could rewrite the header); the reader then reads to EOF.
 */
bool data_reader_data_size_was_zero(const struct data_reader *reader);

/* ---- the record stream ---- */

/*
 * data_reader_next - the next record of the data section in file order,
 * in host byte order, with COMPRESSED records transparently expanded.
 * @ev points into the reader's buffers and is valid until the next call
 * (copy it to keep it). @offset receives the record's file offset (for
 * compressed payloads: the offset of the COMPRESSED record).
 * Pipe-only records: the tracing data that follows a HEADER_TRACING_DATA
 * record is consumed by the reader and kept in header->tracing_data;
 * HEADER_ATTR / HEADER_FEATURE records update the header and evlist and are
 * still returned (for -D and --stats).
 * Returns 1 with a record, 0 at the end, or -errno with @err filled
 * (-EINVAL for a corrupt record: size 0, past the end, too small for its type).
 */
int data_reader_next(struct data_reader *reader, union perf_event **ev, u64 *offset,
		     struct data_error *err);
/*
 * data_reader_record_kept - true when @ev, a record data_reader_next()
 * returned, lies in the file's mapping rather than in a buffer of the
 * reader's (not byte-swapped, not decompressed, not streamed, not realigned):
 * it then stays readable at that address until data_reader_close(), and a
 * queue may keep the pointer instead of a copy. Pages behind the read
 * position are still given back to the kernel every 8 MiB (they read in
 * again from the page cache) unless data_reader_hold() keeps them.
 */
bool data_reader_record_kept(const struct data_reader *reader, const union perf_event *ev);
/*
 * data_reader_hold - keep the mapping's pages from kept record @ev on
 * (the oldest record a queue still holds); NULL lets them all go.
 */
void data_reader_hold(struct data_reader *reader, const union perf_event *ev);
/*
 * data_reader_rewind - restart data_reader_next() at the first record.
 * Returns 0, or -ESPIPE for a real pipe.
 */
int data_reader_rewind(struct data_reader *reader);
/*
 * data_reader_in_compressed - true when the last record returned came out of a
 * COMPRESSED record; @offset then was the offset inside the decompressed stream
 * (perf's -D prints that one), and this returns the COMPRESSED record's offset in @file_off.
 */
bool data_reader_in_compressed(const struct data_reader *reader, u64 *file_off);

/* ---- records to events and samples ---- */

/*
 * data_reader_evsel_for_id - the evsel a sample id belongs to (via the id
 * arrays / ID_INDEX / HEADER_ATTR ids); the first event when the file has a
 * single event or no ids. NULL when unknown.
 */
struct evsel *data_reader_evsel_for_id(struct data_reader *reader, u64 id);
/* data_reader_evsel_for_event - find the evsel of a record by its id field (sample_type-aware). */
struct evsel *data_reader_evsel_for_event(struct data_reader *reader, const union perf_event *ev);
/*
 * data_reader_parse_sample - perf_sample_parse with the attr of the record's evsel
 * (found by id); also returns that evsel in @evsel (may be NULL). Returns 0 or -EINVAL.
 */
int data_reader_parse_sample(struct data_reader *reader, const union perf_event *ev,
			     struct perf_sample *sample, struct evsel **evsel);
/* data_reader_id_hdr_size - bytes of the sample_id trailer of non-SAMPLE records (0 without sample_id_all). */
int data_reader_id_hdr_size(const struct data_reader *reader);

/* id_layout_init - where records of @attr carry their id (perf_event_open(2) sample layout). */
void id_layout_init(struct id_layout *lay, const struct perf_event_attr *attr);
/*
 * id_layout_find - the id of record @ev (@size and @type in host order; the
 * body may still be in file order). Returns false when the record has none.
 */
bool id_layout_find(const struct id_layout *lay, const union perf_event *ev, u16 size, u32 type,
		    u64 *id);

/* ---- damaged files ---- */

/*
 * Salvage of damaged files: a file cut short (crash, full disk, partial
 * copy) still gives every complete record it holds. Feature sections past the
 * end of the file are dropped (perf_header_feat_is_lost), the data section is
 * clamped to the file and a record cut by the end of the file ends the stream
 * (data_reader_next returns 0). The first such damage is reported once through
 * the callback: @off is the file offset of the damaged part, @what says what
 * was lost (lower case, no full stop). A damaged header or attrs section still
 * fails data_reader_open.
 */
typedef void data_damage_fn(void *arg, u64 off, const char *what);
/*
 * data_reader_on_damage - call @fn once, when the first damage is found (at
 * once when data_reader_open already found it). Pass NULL to stop reporting.
 */
void data_reader_on_damage(struct data_reader *reader, data_damage_fn *fn, void *arg);
/* data_reader_damage - true when damage was found so far; its offset and text in @off/@what. */
bool data_reader_damage(const struct data_reader *reader, u64 *off, const char **what);

#endif
