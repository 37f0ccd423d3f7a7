/* SPDX-License-Identifier: MIT */
/* data convert --to-ctf: samples as a CTF trace through libbabeltrace-ctf's writer, loaded on first use. */
#ifndef SONDE_UI_EXPORT_CTF_H
#define SONDE_UI_EXPORT_CTF_H

#include "lib/strbuf.h"
#include "session/session.h"

/* export_ctf_load - dlopen libbabeltrace-ctf.so.1; 0, or -ENOENT/-ENOSYS when absent */
int export_ctf_load(void);

/*
 * export_ctf - every sample of @session into a CTF trace in directory @path
 * (one stream per CPU, perf's event fields), with @all also the COMM, EXIT,
 * FORK, MMAP and MMAP2 records (perf_comm... events; *@nr_others counts
 * them); with @tod the clock is offset to the wall time of the file's
 * CLOCK_DATA (-EINVAL and perf's message without it); *@bytes: the size of the records converted (perf's "wrote" figure). Returns the number of samples,
 * -errno from the reader with @err filled, or another -errno with @msg
 * saying why (unsupported sample fields, writer errors).
 */
long export_ctf(struct session *session, const char *path, bool all, bool tod,
		struct data_error *err, struct strbuf *msg, u64 *bytes, long *nr_others);

#endif
