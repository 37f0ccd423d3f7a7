/* SPDX-License-Identifier: MIT */
/* perf.data header printers (report --header/-I, script --header), evlist -g group text and the shared file opener. */
#ifndef SONDE_UI_HEADER_H
#define SONDE_UI_HEADER_H

#include "data/reader.h"
#include "lib/strbuf.h"

#include <stdbool.h>
#include <stdio.h>

struct evlist;
struct evsel;

/*
 * group_text - append the group @leader leads in @evlist as perf's evlist -g
 * and header show it: "name{a,b}" ("{a,b}" unnamed) for two or more events,
 * the event's own name for one.
 */
void group_text(struct strbuf *sb, struct evlist *evlist, struct evsel *leader);

/*
 * header_fprintf - the "# ========" header block perf report --header-only
 * prints: file info, every feature (full = -I: the detailed ones too), the
 * "missing features" line. Pipe input: the top block, then the features
 * that arrived, without the closing lines (as perf).
 */
void header_fprintf(FILE *fp, struct data_reader *reader, bool full);

/* data_error_print - "<path>: corrupt perf.data at offset 0x..: <msg>" on stderr. */
void data_error_print(const char *path, const struct data_error *err);

/* header_clockid_name - perf's name of uapi clock id @id (CLOCK_DATA lines, CTF --tod), "(null)" for others */
const char *header_clockid_name(u32 id);

#endif
