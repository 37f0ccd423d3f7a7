/* SPDX-License-Identifier: MIT */
/* data convert --to-sqlite: perf.data in the table layout of perf's export-to-sqlite.py. */
#ifndef SONDE_UI_EXPORT_SQLITE_H
#define SONDE_UI_EXPORT_SQLITE_H

#include "lib/strbuf.h"
#include "session/session.h"

/* export_sqlite_load - load libsqlite3 (dlopen, once). Returns 0, -ENOENT or -ENOSYS. */
int export_sqlite_load(void);

/*
 * export_sqlite - every sample of @session into a new SQLite database at
 * @path (which must not exist): perf's tables (selected_events, machines,
 * threads, comms, comm_threads, dsos, symbols, branch_types, samples,
 * call_paths) and views. Returns the number of samples, -errno from the
 * reader with @err filled, or another -errno with @msg saying why.
 */
long export_sqlite(struct session *session, const char *path, struct data_error *err,
		   struct strbuf *msg);

#endif
