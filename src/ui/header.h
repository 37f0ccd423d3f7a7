/* SPDX-License-Identifier: MIT */
/* perf.data header printers (report --header/-I, script --header, evlist -v) and the shared file opener. */
#ifndef SONDE_UI_HEADER_H
#define SONDE_UI_HEADER_H

#include "data/reader.h"

#include <stdbool.h>
#include <stdio.h>

/*
 * attr_print_fn - called for each non-zero attr field perf prints, in perf's
 * order, with its name ("type", "{ sample_period, sample_freq }", ...) and
 * formatted value. Returns characters printed.
 */
typedef int attr_print_fn(FILE *fp, const char *name, const char *val, void *arg);

/* perf_attr_fprintf - walk @attr like perf's perf_event_attr__fprintf. Returns characters printed. */
int perf_attr_fprintf(FILE *fp, const struct perf_event_attr *attr, attr_print_fn *fn, void *arg);

/* sample_type_str / read_format_str - "IP|TID|TIME" style names into @buf. */
void sample_type_str(char *buf, size_t len, u64 sample_type);
void read_format_str(char *buf, size_t len, u64 read_format);

/*
 * header_fprintf - the "# ========" header block perf report --header-only
 * prints: file info, every feature (full = -I: the detailed ones too), the
 * "missing features" line. Pipe input: the top block, then the features
 * that arrived, without the closing lines (as perf).
 */
void header_fprintf(FILE *fp, struct data_reader *reader, bool full);

/*
 * data_open_for_read - open @path (NULL: "-" when stdin is a FIFO, else
 * "perf.data") for a reading command with perf's checks and messages on
 * stderr: missing file ("failed to open ...: ... (try 'perf record' first)"),
 * empty file ("zero-sized data (...), nothing to do!"), ownership (unless
 * @force), corrupt header (the offset and what was wrong, then perf's
 * "incompatible file format" line). Returns the reader, or NULL after
 * printing (the command exits 255).
 */
struct data_reader *data_open_for_read(const char *path, bool force);

/* data_error_print - "<path>: corrupt perf.data at offset 0x..: <msg>" on stderr. */
void data_error_print(const char *path, const struct data_error *err);

#endif
