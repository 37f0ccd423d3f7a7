/* SPDX-License-Identifier: MIT */
/*
 * perf.data writer: file mode (header, ids, attrs, data, feature table and
 * payloads; header rewritten at finish) and pipe mode ("-": HEADER_ATTR and
 * HEADER_FEATURE records up front), optional zstd compression with perf's
 * COMPRESSED record framing, and byte-swapped output for tests.
 *
 * Life of a writer:
 *   w = data_writer_open("perf.data", &opts, &err);
 *   data_writer_add_attr(w, &attr, ids, nr_ids, "cycles:u");   (each event)
 *   data_writer_set_live_features(w, argc, argv);              (hostname, cpus, topology...)
 *   data_writer_start(w);              (file: header placeholder, ids, attrs; pipe: attrs+features)
 *   data_writer_write(w, rec, size);   (synthesized records, never compressed)
 *   data_writer_write_ring(w, buf, n); (ring data: compressed when opts.comp_level)
 *   data_writer_add_build_id(...); data_writer_set_sample_time(...);
 *   data_writer_finish(w);             (features, final header)
 *   data_writer_free(w);
 *
 * A file whose writer was killed before data_writer_finish() keeps the
 * placeholder header: data.size 0 and no features, which readers (perf and
 * sonde) detect as "not properly terminated" and read up to EOF.
 */
#ifndef SONDE_DATA_WRITER_H
#define SONDE_DATA_WRITER_H

#include "data/event.h"
#include "data/header.h"
#include "lib/util.h"

#include <stdbool.h>
#include <stddef.h>

struct data_writer;
struct evlist;

struct data_writer_opts {
	int comp_level;	    /* 0: no compression; 1..22: zstd level (perf -z uses 1) */
	u32 comp_mmap_len;  /* mmap_len stored in the COMPRESSED feature (ring size + page) */
	bool swap;	    /* write the opposite byte order (tests only) */
	bool force_pipe;    /* pipe layout even to a regular file */
};

/*
 * data_writer_open - create @path (truncating; "-" = stdout in pipe mode).
 * @opts may be NULL. Returns the writer (caller frees with data_writer_free),
 * or NULL with *@errp = -errno.
 */
struct data_writer *data_writer_open(const char *path, const struct data_writer_opts *opts,
				     int *errp);
/* data_writer_open_fd - same on an open fd (not closed by the writer); @is_pipe picks the layout. */
struct data_writer *data_writer_open_fd(int fd, bool is_pipe, const struct data_writer_opts *opts);

/*
 * data_writer_add_attr - declare an event before data_writer_start(): its
 * attr (written with attr.size = sizeof), kernel sample ids (copied) and
 * display name (for EVENT_DESC; may be NULL). Events keep this order.
 */
void data_writer_add_attr(struct data_writer *w, const struct perf_event_attr *attr,
			  const u64 *ids, u32 nr_ids, const char *name);
/* data_writer_add_group - a GROUP_DESC entry (leader index, members, name or NULL). */
void data_writer_add_group(struct data_writer *w, const char *name, u32 leader_idx,
			   u32 nr_members);

/* Feature setters: call before data_writer_finish() (before _start() in pipe mode). */
void data_writer_set_string(struct data_writer *w, int feat, const char *s); /* HOSTNAME, OSRELEASE, VERSION, ARCH, CPUDESC, CPUID */
void data_writer_set_nrcpus(struct data_writer *w, u32 avail, u32 online);
void data_writer_set_total_mem(struct data_writer *w, u64 kb);
void data_writer_set_cmdline(struct data_writer *w, int argc, const char *const *argv);
void data_writer_set_sample_time(struct data_writer *w, u64 first, u64 last);
void data_writer_set_clockid(struct data_writer *w, u64 res_ns);
void data_writer_set_clock_data(struct data_writer *w, u32 clockid, u64 wall_ns, u64 clk_ns);
/* data_writer_set_tracing_data - the TRACING_DATA blob (file feature, or HEADER_TRACING_DATA record in pipe mode). */
void data_writer_set_tracing_data(struct data_writer *w, const void *data, size_t size);
/* data_writer_add_build_id - one BUILD_ID entry (@size bytes of id, at most 20). */
void data_writer_add_build_id(struct data_writer *w, s32 pid, u16 cpumode, const u8 *build_id,
			      u8 size, const char *filename);
/*
 * data_writer_set_feature_raw - any feature's payload, already encoded in
 * perf's layout (host order); replaces what the other setters produced.
 * An empty payload (size 0) sets the bit with no bytes (e.g. STAT).
 */
void data_writer_set_feature_raw(struct data_writer *w, int feat, const void *payload,
				 size_t size);
/* data_writer_clear_feature - drop a feature (e.g. one set by data_writer_set_live_features). */
void data_writer_clear_feature(struct data_writer *w, int feat);

/*
 * data_writer_set_live_features - gather what perf record writes from this
 * machine: HOSTNAME, OSRELEASE, VERSION (@version, NULL = perf-compatible
 * sonde version), ARCH, NRCPUS, CPUDESC, CPUID, TOTAL_MEM, CMDLINE (@argc/@argv,
 * argv[0] replaced by the executable's path), CPU_TOPOLOGY, NUMA_TOPOLOGY,
 * PMU_MAPPINGS, CACHE, MEM_TOPOLOGY, BPF_PROG_INFO/BPF_BTF (empty), PMU_CAPS.
 * Defined in data/features-live.c. Returns 0 (missing sysfs pieces are skipped).
 */
int data_writer_set_live_features(struct data_writer *w, int argc, const char *const *argv,
				  const char *version);

/*
 * data_writer_start - write the file header placeholder, ids and attrs (file
 * mode) or the header, HEADER_ATTR, HEADER_FEATURE (and tracing data) records
 * (pipe mode). Returns 0 or -errno.
 */
int data_writer_start(struct data_writer *w);

/*
 * data_writer_write - append whole records (@len bytes, host order) to the
 * data section, uncompressed. Returns 0 or -errno.
 */
int data_writer_write(struct data_writer *w, const void *buf, size_t len);
/* data_writer_write_event - one record. */
int data_writer_write_event(struct data_writer *w, const union perf_event *ev);
/*
 * data_writer_write_ring - append records read from a ring (whole records);
 * with compression they are packed into COMPRESSED records. Returns 0 or -errno.
 */
int data_writer_write_ring(struct data_writer *w, const void *buf, size_t len);

/* data_writer_bytes - data-section bytes written so far (compressed size when compressing). */
u64 data_writer_bytes(const struct data_writer *w);
/* data_writer_uncompressed_bytes - bytes handed to data_writer_write_ring (for the ratio). */
u64 data_writer_uncompressed_bytes(const struct data_writer *w);

/*
 * data_writer_finish - flush, write the feature table and payloads (file
 * mode) and rewrite the header. Pipe mode: flush only. Returns 0 or -errno.
 */
int data_writer_finish(struct data_writer *w);
/* data_writer_free - close (if opened by path) and free; NULL is fine. Does not finish. */
void data_writer_free(struct data_writer *w);

#endif
