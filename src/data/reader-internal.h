/* SPDX-License-Identifier: MIT */
/* The reader's state and the helpers reader.c and reader-header.c share (not for other files). */
#ifndef SONDE_DATA_READER_INTERNAL_H
#define SONDE_DATA_READER_INTERNAL_H

#include "data/reader.h"
#include "lib/hashmap.h"
#include "lib/util.h"

#include <stdbool.h>
#include <stddef.h>
#include <zstd.h>

struct data_reader {
	char *path;
	int fd;
	bool is_pipe;	     /* pipe-format records (HEADER_ATTR, HEADER_FEATURE) */
	bool is_stream;	     /* read(2) from a pipe, not mmap'ed */
	bool data_size_zero;	/* killed record: records read up to EOF */
	bool hdr_data_size_zero; /* the header said data.size 0 (perf warns) */
	const u8 *map;	     /* whole file, file mode and pipe-format files */
	u64 map_size;
	struct perf_header hdr;
	struct evlist *evlist;
	struct u64map id_map; /* sample id -> evsel */
	/*
	 * the last evsel found per id, direct-mapped by the id's low bits: a
	 * file's ids are mostly consecutive numbers, and this is asked once per
	 * record; a hash probe there cost more than the rest of the lookup
	 */
	struct id_cache_slot {
		u64 id;
		struct evsel *evsel; /* NULL: empty */
	} id_cache[32];
	struct evsel **evsels; /* by idx */
	int nr_evsels;
	int id_hdr_size;
	struct id_layout ids; /* where the event id sits in records (from the first attr) */

	/* salvage of a damaged (truncated) file: the first damage found, reported once */
	bool damaged;
	u64 damage_off;
	char damage_msg[240];
	data_damage_fn *damage_cb;
	void *damage_arg;
	bool data_cut;	     /* the file ends before the data section does */

	/* iteration */
	u64 data_start, data_end, pos;
	u64 dropped_to;	     /* file pages before this offset were given back (drop_consumed) */
	u64 held_from;	     /* ... but none from here on: kept records live there (~0: none) */
	const u8 *cur;	     /* the mapping records are read from: map, or a data.N file */

	/* directory mode (perf record --threads): dir/data then dir/data.N */
	bool is_dir;
	char *main_path;     /* dir/data */
	char **dir_files;    /* dir/data.N, in N order */
	int nr_dir_files, cur_file; /* cur_file -1: the main file */
	const u8 *xmap;
	u64 xmap_size, main_end;

	/* streaming input: bytes [buf_off, buf_off + buf_len) of the stream live in buf */
	u8 *sbuf;
	size_t sbuf_len, sbuf_alloc, sbuf_head; /* head: consumed bytes at the front */
	u64 stream_off;	/* stream offset of sbuf[sbuf_head] */
	bool stream_eof;
	bool no_compact;	/* pipe pre-scan: keep every byte so we can rewind */
	bool prescanned;	/* pipe header records were applied already ... */
	u64 prescan_end;	/* ... up to this stream offset */
	u64 applied_end;	/* pipe header records before this offset were applied */

	/* byte-swapped records are copied here */
	u8 *swapbuf;
	size_t swapbuf_alloc;

	/* decompression */
	ZSTD_DCtx *zctx;
	u8 *dbuf;
	size_t dbuf_len, dbuf_pos, dbuf_alloc;
	u64 dbuf_base;	/* running decompressed offset of dbuf[0] */
	u64 comp_off;	/* file offset of the current COMPRESSED record */
	bool in_comp;	/* the last returned record came from dbuf */
};

/* reader_set_err - fill @err (may be NULL): @off, positive @errnum and the message. */
void reader_set_err(struct data_error *err, u64 off, int errnum, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/*
 * reader_note_damage - remember the first damage of a truncated file and
 * report it once through the damage callback; later damage is ignored.
 */
void reader_note_damage(struct data_reader *r, u64 off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* reader_add_attr - a new evsel for @attr with its @nr_ids sample ids, appended to the evlist. */
void reader_add_attr(struct data_reader *r, const struct perf_event_attr *attr, const u64 *ids,
		     u32 nr_ids);
/*
 * reader_open_file_mode - read the file-mode header of the mapped file: attrs,
 * feature sections and the data section bounds (clamped, with the damage noted,
 * for a file cut short). Returns 0 or -EINVAL with @err filled.
 */
int reader_open_file_mode(struct data_reader *r, struct data_error *err);

#endif
