/* SPDX-License-Identifier: MIT */
/* Sample decoding (every sample_type bit) and byte-swapping of records and attrs. */
#ifndef SONDE_DATA_SAMPLE_H
#define SONDE_DATA_SAMPLE_H

#include "data/event.h"
#include "lib/util.h"

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>

/*
 * perf_sample_parse - decode a SAMPLE record (or the sample_id trailer of
 * any other kernel record when attr->sample_id_all) into @sample.
 * Returns 0, or -EINVAL when the record is too short for its sample_type.
 */
int perf_sample_parse(const struct perf_event_attr *attr, const union perf_event *ev,
		      struct perf_sample *sample);

/*
 * perf_sample_parse_id - the sample_id trailer of a non-SAMPLE record in
 * @attr's layout, read from the record's end backwards as perf does: a
 * record shorter than body + trailer gives the fields that fit, overlapping
 * its body; the others keep what @sample held. Whatever attr->sample_id_all says.
 */
void perf_sample_parse_id(const struct perf_event_attr *attr, const union perf_event *ev,
			  struct perf_sample *sample);

/* perf_sample_read_value_size - bytes of one read value {value,[id],[lost]} for @read_format. */
static inline int perf_sample_read_value_size(u64 read_format)
{
	int sz = 8;

	if (read_format & PERF_FORMAT_ID)
		sz += 8;
	if (read_format & PERF_FORMAT_LOST)
		sz += 8;
	return sz;
}

/*
 * perf_event_swap - convert a record of an opposite-endian file to host order
 * in place (@to_host true), or a host record to the other order (@to_host
 * false, used by the writer to make byte-swapped files). @attr is the record's
 * event (needed for SAMPLE bodies and sample_id trailers; may be NULL for
 * perf-tool records). Returns 0 or -EINVAL when the record is inconsistent.
 */
int perf_event_swap(union perf_event *ev, const struct perf_event_attr *attr, bool to_host);
/* perf_attr_swap - byte-swap a perf_event_attr of @size bytes in place (bit fields included). */
void perf_attr_swap(struct perf_event_attr *attr, size_t size);

#endif
