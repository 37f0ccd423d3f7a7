/* SPDX-License-Identifier: MIT */
/* Opening a perf.data for a reading command, with perf's checks and messages. */
#ifndef SONDE_CMD_OPEN_H
#define SONDE_CMD_OPEN_H

#include "data/reader.h"

#include <stdbool.h>
#include <stddef.h>

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

/*
 * data_kcore_dir - "PATH/kcore_dir" when @r reads a perf.data directory
 * holding one (perf record --kcore), written into @buf and returned; NULL
 * otherwise.
 */
const char *data_kcore_dir(struct data_reader *r, char *buf, size_t size);

#endif
