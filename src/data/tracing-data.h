/* SPDX-License-Identifier: MIT */
/*
 * The TRACING_DATA blob (perf.data feature 1 / HEADER_TRACING_DATA record,
 * version "0.6") built from tracefs: header_page, header_event, the format
 * files of the recorded tracepoints grouped by system, printk_formats and
 * saved_cmdlines, so that readers (libtraceevent) can decode the raw fields.
 */
#ifndef SONDE_DATA_TRACING_DATA_H
#define SONDE_DATA_TRACING_DATA_H

struct strbuf;

/*
 * tracing_data_build - append the blob for the tracepoints @names
 * ("sys:event", @nr of them; duplicates are fine) to @out.
 * Returns 0, or -errno when tracefs is missing.
 */
int tracing_data_build(struct strbuf *out, const char *const *names, int nr);

#endif
