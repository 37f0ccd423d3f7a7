/* SPDX-License-Identifier: MIT */
/* Feature sections: names, decoding of every perf 6.1 payload, and release. */
#ifndef SONDE_DATA_FEATURE_H
#define SONDE_DATA_FEATURE_H

#include "data/header.h"
#include "lib/util.h"

#include <stdbool.h>
#include <stddef.h>

/* the feature's name as perf prints it ("HOSTNAME", "BUILD_ID", ...) */
const char *perf_header_feat_name(int feat);

/* perf_header_release - free everything the header owns and zero it. */
void perf_header_release(struct perf_header *h);

/*
 * perf_header_parse_feature - decode one feature payload (@size bytes at @buf,
 * in file byte order; @swap when the file is opposite-endian) into @h.
 * The raw payload is also kept in h->feat_raw. Returns 0, or -EINVAL with a
 * message in @msg (at most @msg_len bytes) and *@bad_off set to the offset
 * within the payload of the bad bytes.
 */
int perf_header_parse_feature(struct perf_header *h, int feat, const void *buf, u64 size,
			      bool swap, char *msg, size_t msg_len, u64 *bad_off);

#endif
