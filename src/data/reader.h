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
struct data_reader;

/*
 * struct data_error - what went wrong and where, for the message
 * "perf.data: <offset 0x...>: <what>" the command prints.
 */
struct data_error {
	u64 offset;	/* file offset of the bad bytes */
	char msg[256];	/* what was wrong, lower case, no full stop */
};

/*
 * data_reader_open - open @path ("-" or a pipe/FIFO: pipe mode) and read
 * its header, attrs and feature sections (file mode) or the leading
 * HEADER_* records (pipe mode).
 * Returns a reader owned by the caller (data_reader_close), or NULL with
 * @err filled and errno-like code in @err->msg.
 */
struct data_reader *data_reader_open(const char *path, struct data_error *err);
void data_reader_close(struct data_reader *reader);

/* data_reader_header - the parsed header and features (owned by the reader). */
const struct perf_header *data_reader_header(const struct data_reader *reader);

/*
 * data_reader_evlist - events rebuilt from the attrs (names from EVENT_DESC
 * when present, else from the attr). Owned by the reader; no fds.
 */
struct evlist *data_reader_evlist(struct data_reader *reader);

/*
 * data_reader_next - the next record of the data section in file order,
 * in host byte order, with COMPRESSED records transparently expanded.
 * @ev points into the reader's buffers and is valid until the next call
 * (copy it to keep it). @offset receives the record's file offset (for
 * compressed payloads: the offset of the COMPRESSED record).
 * Returns 1 with a record, 0 at the end, or -errno with @err filled
 * (-EINVAL for a corrupt record: size 0, past the end, too small for its type).
 */
int data_reader_next(struct data_reader *reader, union perf_event **ev, u64 *offset,
		     struct data_error *err);

/*
 * perf_sample_parse - decode a SAMPLE record (or the sample_id trailer of
 * any other kernel record when attr->sample_id_all) into @sample.
 * Returns 0, or -EINVAL when the record is too short for its sample_type.
 */
int perf_sample_parse(const struct perf_event_attr *attr, const union perf_event *ev,
		      struct perf_sample *sample);

/*
 * data_reader_attr_for_id - the attr/evsel a sample id belongs to (via
 * the id arrays / ID_INDEX / HEADER_ATTR ids); the first event when the
 * file has a single event or no ids. NULL when unknown.
 */
struct evsel *data_reader_evsel_for_id(struct data_reader *reader, u64 id);
/* data_reader_evsel_for_event - find the evsel of a record by its id field (sample_type-aware). */
struct evsel *data_reader_evsel_for_event(struct data_reader *reader, const union perf_event *ev);

#endif
