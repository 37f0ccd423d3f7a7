/* SPDX-License-Identifier: MIT */
/* perf.data writer: file and pipe layouts, feature payload encoding, zstd COMPRESSED records. */
#include "data/writer.h"
#include "data/reader.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

#define WBUF_SIZE (256 * 1024)
/* a COMPRESSED record carries at most this many compressed bytes (u16 size) */
#define COMP_CHUNK (65535 - 8 - 7)

struct wattr {
	struct perf_event_attr attr;
	u64 *ids;
	u32 nr_ids;
	char *name;
	u64 ids_offset;
};

struct wgroup {
	char *name;
	u32 leader, nr;
};

struct data_writer {
	int fd;
	bool own_fd;
	bool is_pipe;
	bool started;
	bool failed;
	struct data_writer_opts opts;
	struct wattr *attrs;
	int nr_attrs;
	struct wgroup *groups;
	int nr_groups;
	/* encoded feature payloads (host or target order) */
	struct strbuf feat[HEADER_LAST_FEATURE];
	bool has_feat[HEADER_LAST_FEATURE];
	bool feat_raw[HEADER_LAST_FEATURE]; /* set by the caller: do not regenerate */
	struct strbuf build_ids;
	int nr_build_ids;

	u64 data_offset, data_size; /* data section */
	u64 uncompressed;
	u8 *buf;
	size_t buf_len;
	ZSTD_CCtx *cctx;
	u8 *cbuf;
	size_t cbuf_alloc;
	u8 *swapbuf;
};

/* ---- low-level output ---- */

static int flush_buf(struct data_writer *w)
{
	int ret;

	if (!w->buf_len)
		return 0;
	ret = write_full(w->fd, w->buf, w->buf_len);
	w->buf_len = 0;
	if (ret)
		w->failed = true;
	return ret;
}

static int out(struct data_writer *w, const void *p, size_t len)
{
	if (w->buf_len + len > WBUF_SIZE) {
		int ret = flush_buf(w);

		if (ret)
			return ret;
		if (len > WBUF_SIZE) {
			ret = write_full(w->fd, p, len);
			if (ret)
				w->failed = true;
			return ret;
		}
	}
	memcpy(w->buf + w->buf_len, p, len);
	w->buf_len += len;
	return 0;
}

/* ---- payload encoding (perf's layouts) ---- */

static void put32(struct data_writer *w, struct strbuf *sb, u32 v)
{
	if (w->opts.swap)
		v = __builtin_bswap32(v);
	strbuf_add(sb, &v, 4);
}

static void put64(struct data_writer *w, struct strbuf *sb, u64 v)
{
	if (w->opts.swap)
		v = __builtin_bswap64(v);
	strbuf_add(sb, &v, 8);
}

/* a header string: u32 length (NUL included, rounded up to 64), the bytes, zero padding */
static void putstr(struct data_writer *w, struct strbuf *sb, const char *s)
{
	size_t n = strlen(s) + 1, len = PERF_ALIGN(n, 64);

	put32(w, sb, len);
	strbuf_add(sb, s, n - 1);
	strbuf_addchars(sb, 0, len - (n - 1));
}

static struct strbuf *feat_begin(struct data_writer *w, int feat)
{
	strbuf_reset(&w->feat[feat]);
	w->has_feat[feat] = true;
	w->feat_raw[feat] = false;
	return &w->feat[feat];
}

/* ---- open / free ---- */

static struct data_writer *writer_new(int fd, bool own, bool is_pipe,
				      const struct data_writer_opts *opts)
{
	struct data_writer *w = xzalloc(sizeof(*w));

	w->fd = fd;
	w->own_fd = own;
	w->is_pipe = is_pipe;
	if (opts)
		w->opts = *opts;
	if (w->opts.force_pipe)
		w->is_pipe = true;
	for (int i = 0; i < HEADER_LAST_FEATURE; i++)
		strbuf_init(&w->feat[i], 0);
	strbuf_init(&w->build_ids, 0);
	w->buf = xmalloc(WBUF_SIZE);
	return w;
}

struct data_writer *data_writer_open(const char *path, const struct data_writer_opts *opts,
				     int *errp)
{
	int fd;

	if (!strcmp(path, "-"))
		return writer_new(1, false, true, opts);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		if (errp)
			*errp = -errno;
		return NULL;
	}
	return writer_new(fd, true, false, opts);
}

struct data_writer *data_writer_open_fd(int fd, bool is_pipe, const struct data_writer_opts *opts)
{
	return writer_new(fd, false, is_pipe, opts);
}

void data_writer_free(struct data_writer *w)
{
	if (!w)
		return;
	/* written records reach the file; the header stays the placeholder (detectable) */
	if (w->started)
		flush_buf(w);
	if (w->own_fd)
		close(w->fd);
	for (int i = 0; i < w->nr_attrs; i++) {
		free(w->attrs[i].ids);
		free(w->attrs[i].name);
	}
	free(w->attrs);
	for (int i = 0; i < w->nr_groups; i++)
		free(w->groups[i].name);
	free(w->groups);
	for (int i = 0; i < HEADER_LAST_FEATURE; i++)
		strbuf_release(&w->feat[i]);
	strbuf_release(&w->build_ids);
	free(w->buf);
	free(w->cbuf);
	free(w->swapbuf);
	if (w->cctx)
		ZSTD_freeCCtx(w->cctx);
	free(w);
}

/* ---- events and features ---- */

void data_writer_add_attr(struct data_writer *w, const struct perf_event_attr *attr,
			  const u64 *ids, u32 nr_ids, const char *name)
{
	struct wattr *a;

	w->attrs = xreallocarray(w->attrs, w->nr_attrs + 1, sizeof(*w->attrs));
	a = &w->attrs[w->nr_attrs++];
	memset(a, 0, sizeof(*a));
	a->attr = *attr;
	a->attr.size = sizeof(a->attr);
	a->nr_ids = nr_ids;
	a->ids = nr_ids ? xmemdup(ids, nr_ids * sizeof(u64)) : NULL;
	a->name = name ? xstrdup(name) : NULL;
}

void data_writer_add_group(struct data_writer *w, const char *name, u32 leader_idx,
			   u32 nr_members)
{
	w->groups = xreallocarray(w->groups, w->nr_groups + 1, sizeof(*w->groups));
	w->groups[w->nr_groups].name = name ? xstrdup(name) : NULL;
	w->groups[w->nr_groups].leader = leader_idx;
	w->groups[w->nr_groups].nr = nr_members;
	w->nr_groups++;
}

void data_writer_set_string(struct data_writer *w, int feat, const char *s)
{
	putstr(w, feat_begin(w, feat), s ? s : "");
}

void data_writer_set_nrcpus(struct data_writer *w, u32 avail, u32 online)
{
	struct strbuf *sb = feat_begin(w, HEADER_NRCPUS);

	put32(w, sb, avail);
	put32(w, sb, online);
}

void data_writer_set_total_mem(struct data_writer *w, u64 kb)
{
	put64(w, feat_begin(w, HEADER_TOTAL_MEM), kb);
}

void data_writer_set_cmdline(struct data_writer *w, int argc, const char *const *argv)
{
	struct strbuf *sb = feat_begin(w, HEADER_CMDLINE);

	put32(w, sb, argc);
	for (int i = 0; i < argc; i++)
		putstr(w, sb, argv[i]);
}

void data_writer_set_sample_time(struct data_writer *w, u64 first, u64 last)
{
	struct strbuf *sb = feat_begin(w, HEADER_SAMPLE_TIME);

	put64(w, sb, first);
	put64(w, sb, last);
}

void data_writer_set_clockid(struct data_writer *w, u64 res_ns)
{
	put64(w, feat_begin(w, HEADER_CLOCKID), res_ns);
}

void data_writer_set_clock_data(struct data_writer *w, u32 clockid, u64 wall_ns, u64 clk_ns)
{
	struct strbuf *sb = feat_begin(w, HEADER_CLOCK_DATA);

	put32(w, sb, 1);
	put32(w, sb, clockid);
	put64(w, sb, wall_ns);
	put64(w, sb, clk_ns);
}

void data_writer_set_tracing_data(struct data_writer *w, const void *data, size_t size)
{
	strbuf_add(feat_begin(w, HEADER_TRACING_DATA), data, size);
	w->feat_raw[HEADER_TRACING_DATA] = true;
}

void data_writer_add_build_id(struct data_writer *w, s32 pid, u16 cpumode, const u8 *build_id,
			      u8 size, const char *filename)
{
	struct strbuf *sb = &w->build_ids;
	size_t n = strlen(filename) + 1, fl = PERF_ALIGN(n, 64);
	u16 misc = cpumode | PERF_RECORD_MISC_BUILD_ID_SIZE, rsize = 8 + 4 + 24 + fl;
	u8 id[24] = { 0 };

	if (size > 20)
		size = 20;
	memcpy(id, build_id, size);
	id[20] = size;
	put32(w, sb, PERF_RECORD_HEADER_BUILD_ID);
	if (w->opts.swap) {
		misc = __builtin_bswap16(misc);
		rsize = __builtin_bswap16(rsize);
	}
	strbuf_add(sb, &misc, 2);
	strbuf_add(sb, &rsize, 2);
	put32(w, sb, (u32)pid);
	strbuf_add(sb, id, 24);
	strbuf_add(sb, filename, n - 1);
	strbuf_addchars(sb, 0, fl - (n - 1));
	w->nr_build_ids++;
	w->has_feat[HEADER_BUILD_ID] = true;
}

void data_writer_set_feature_raw(struct data_writer *w, int feat, const void *payload,
				 size_t size)
{
	if (feat <= 0 || feat >= HEADER_LAST_FEATURE)
		return;
	strbuf_add(feat_begin(w, feat), payload, size);
	w->feat_raw[feat] = true;
}

void data_writer_clear_feature(struct data_writer *w, int feat)
{
	if (feat <= 0 || feat >= HEADER_LAST_FEATURE)
		return;
	strbuf_reset(&w->feat[feat]);
	w->has_feat[feat] = false;
	w->feat_raw[feat] = false;
	if (feat == HEADER_BUILD_ID) {
		strbuf_reset(&w->build_ids);
		w->nr_build_ids = 0;
	}
}

/* the features derived from the attrs, groups and options */
static void encode_derived(struct data_writer *w)
{
	struct strbuf *sb;

	if (!w->feat_raw[HEADER_EVENT_DESC]) {
		sb = feat_begin(w, HEADER_EVENT_DESC);
		put32(w, sb, w->nr_attrs);
		put32(w, sb, sizeof(struct perf_event_attr));
		for (int i = 0; i < w->nr_attrs; i++) {
			struct perf_event_attr a = w->attrs[i].attr;

			if (w->opts.swap)
				perf_attr_swap(&a, sizeof(a));
			strbuf_add(sb, &a, sizeof(a));
			put32(w, sb, w->attrs[i].nr_ids);
			putstr(w, sb, w->attrs[i].name ? w->attrs[i].name : "");
			for (u32 k = 0; k < w->attrs[i].nr_ids; k++)
				put64(w, sb, w->attrs[i].ids[k]);
		}
	}
	if (w->nr_groups && !w->feat_raw[HEADER_GROUP_DESC]) {
		sb = feat_begin(w, HEADER_GROUP_DESC);
		put32(w, sb, w->nr_groups);
		for (int i = 0; i < w->nr_groups; i++) {
			putstr(w, sb, w->groups[i].name ? w->groups[i].name : "{anon_group}");
			put32(w, sb, w->groups[i].leader);
			put32(w, sb, w->groups[i].nr);
		}
	}
	if (w->opts.comp_level && !w->feat_raw[HEADER_COMPRESSED]) {
		u64 ratio = w->data_size ? (w->uncompressed + w->data_size / 2) / w->data_size : 0;

		sb = feat_begin(w, HEADER_COMPRESSED);
		put32(w, sb, 0);
		put32(w, sb, 1); /* zstd */
		put32(w, sb, w->opts.comp_level);
		put32(w, sb, ratio ? ratio : 1);
		put32(w, sb, w->opts.comp_mmap_len ? w->opts.comp_mmap_len : 528384);
	}
	if (w->nr_build_ids) {
		sb = feat_begin(w, HEADER_BUILD_ID);
		strbuf_add(sb, w->build_ids.buf, w->build_ids.len);
	}
}

/* ---- start ---- */

static int write_pipe_record(struct data_writer *w, u32 type, const void *a, size_t alen,
			     const void *b, size_t blen)
{
	struct perf_event_header h = { .type = type, .size = 8 + alen + blen };

	if (8 + alen + blen > 65535)
		return -E2BIG;
	if (w->opts.swap) {
		h.type = __builtin_bswap32(h.type);
		h.size = __builtin_bswap16(h.size);
	}
	if (out(w, &h, 8) || out(w, a, alen) || (blen && out(w, b, blen)))
		return -EIO;
	w->data_size += 8 + alen + blen;
	return 0;
}

static int start_pipe(struct data_writer *w)
{
	u64 magic = PERF_MAGIC, size = 16;
	int ret;

	if (w->opts.swap) {
		magic = __builtin_bswap64(magic);
		size = __builtin_bswap64(size);
	}
	if (out(w, &magic, 8) || out(w, &size, 8))
		return -EIO;
	for (int i = 0; i < w->nr_attrs; i++) {
		struct wattr *a = &w->attrs[i];
		struct perf_event_attr attr = a->attr;
		u64 *ids = xcalloc(a->nr_ids + 1, 8);

		for (u32 k = 0; k < a->nr_ids; k++)
			ids[k] = w->opts.swap ? __builtin_bswap64(a->ids[k]) : a->ids[k];
		if (w->opts.swap)
			perf_attr_swap(&attr, sizeof(attr));
		ret = write_pipe_record(w, PERF_RECORD_HEADER_ATTR, &attr, sizeof(attr), ids,
					a->nr_ids * 8);
		free(ids);
		if (ret)
			return ret;
	}
	encode_derived(w);
	for (int feat = 1; feat < HEADER_LAST_FEATURE; feat++) {
		u64 id = w->opts.swap ? __builtin_bswap64(feat) : (u64)feat;

		if (!w->has_feat[feat] || feat == HEADER_TRACING_DATA || feat == HEADER_BUILD_ID)
			continue;
		ret = write_pipe_record(w, PERF_RECORD_HEADER_FEATURE, &id, 8, w->feat[feat].buf,
					w->feat[feat].len);
		if (ret)
			return ret;
	}
	{
		/* end marker: HEADER_LAST_FEATURE with no payload (perf 6.1 writes 32) */
		u64 id = HEADER_LAST_FEATURE;

		if (w->opts.swap)
			id = __builtin_bswap64(id);
		ret = write_pipe_record(w, PERF_RECORD_HEADER_FEATURE, &id, 8, NULL, 0);
		if (ret)
			return ret;
	}
	if (w->has_feat[HEADER_TRACING_DATA]) {
		/* header (12 bytes: size field covers the padded data that follows) then the data */
		struct {
			struct perf_event_header h;
			u32 size, pad; /* perf 6.1 writes a 16-byte record */
		} td;
		size_t len = w->feat[HEADER_TRACING_DATA].len, al = PERF_ALIGN(len, 8);
		static const u8 zero[8];

		td.h.type = PERF_RECORD_HEADER_TRACING_DATA;
		td.h.misc = 0;
		td.h.size = sizeof(td);
		td.size = al;
		td.pad = 0;
		if (w->opts.swap) {
			td.h.type = __builtin_bswap32(td.h.type);
			td.h.size = __builtin_bswap16(td.h.size);
			td.size = __builtin_bswap32(td.size);
		}
		if (out(w, &td, sizeof(td)) || out(w, w->feat[HEADER_TRACING_DATA].buf, len) ||
		    out(w, zero, al - len))
			return -EIO;
		w->data_size += sizeof(td) + al;
	}
	return 0;
}

static int write_file_header(struct data_writer *w, bool final)
{
	struct perf_file_header fh;

	memset(&fh, 0, sizeof(fh));
	fh.magic = PERF_MAGIC;
	fh.size = sizeof(fh);
	fh.attr_size = sizeof(struct perf_event_attr) + sizeof(struct perf_file_section);
	fh.attrs.offset = w->data_offset - w->nr_attrs * fh.attr_size;
	fh.attrs.size = w->nr_attrs * fh.attr_size;
	fh.data.offset = w->data_offset;
	if (final) {
		fh.data.size = w->data_size;
		for (int feat = 1; feat < HEADER_LAST_FEATURE; feat++)
			if (w->has_feat[feat])
				fh.adds_features[feat / 64] |= 1ULL << (feat % 64);
	}
	if (w->opts.swap) {
		u64 *p = (u64 *)&fh;

		for (size_t i = 0; i < sizeof(fh) / 8; i++)
			p[i] = __builtin_bswap64(p[i]);
	}
	if (pwrite(w->fd, &fh, sizeof(fh), 0) != (ssize_t)sizeof(fh))
		return -errno ? -errno : -EIO;
	return 0;
}

static int start_file(struct data_writer *w)
{
	u64 off = sizeof(struct perf_file_header);
	struct strbuf sb = STRBUF_INIT;
	int ret;

	/* ids first, then the attrs (each followed by its ids section) */
	for (int i = 0; i < w->nr_attrs; i++) {
		w->attrs[i].ids_offset = off;
		for (u32 k = 0; k < w->attrs[i].nr_ids; k++)
			put64(w, &sb, w->attrs[i].ids[k]);
		off += w->attrs[i].nr_ids * 8;
	}
	for (int i = 0; i < w->nr_attrs; i++) {
		struct perf_event_attr a = w->attrs[i].attr;

		if (w->opts.swap)
			perf_attr_swap(&a, sizeof(a));
		strbuf_add(&sb, &a, sizeof(a));
		put64(w, &sb, w->attrs[i].ids_offset);
		put64(w, &sb, w->attrs[i].nr_ids * 8);
	}
	w->data_offset = sizeof(struct perf_file_header) + sb.len;
	ret = write_file_header(w, false);
	if (!ret && lseek(w->fd, sizeof(struct perf_file_header), SEEK_SET) < 0)
		ret = -errno;
	if (!ret)
		ret = out(w, sb.buf, sb.len);
	strbuf_release(&sb);
	return ret;
}

int data_writer_start(struct data_writer *w)
{
	int ret;

	if (w->started)
		return 0;
	w->started = true;
	ret = w->is_pipe ? start_pipe(w) : start_file(w);
	if (!ret)
		ret = flush_buf(w);
	return ret;
}

/* ---- data ---- */

static struct wattr *attr_for(struct data_writer *w, const union perf_event *ev)
{
	/* byte-swapped output only: find the record's event by its id */
	const struct perf_event_attr *a0;
	u64 t, id;

	if (w->nr_attrs == 0)
		return NULL;
	if (w->nr_attrs == 1)
		return &w->attrs[0];
	a0 = &w->attrs[0].attr;
	t = a0->sample_type;
	if (ev->header.type == PERF_RECORD_SAMPLE) {
		if (t & PERF_SAMPLE_IDENTIFIER)
			memcpy(&id, (const u8 *)ev + 8, 8);
		else
			return &w->attrs[0];
	} else if (a0->sample_id_all && (t & PERF_SAMPLE_IDENTIFIER)) {
		memcpy(&id, (const u8 *)ev + ev->header.size - 8, 8);
	} else {
		return &w->attrs[0];
	}
	for (int i = 0; i < w->nr_attrs; i++)
		for (u32 k = 0; k < w->attrs[i].nr_ids; k++)
			if (w->attrs[i].ids[k] == id)
				return &w->attrs[i];
	return &w->attrs[0];
}

static int emit(struct data_writer *w, const void *buf, size_t len)
{
	int ret;

	if (!w->started && (ret = data_writer_start(w)))
		return ret;
	if (w->opts.swap) {
		const u8 *p = buf, *end = p + len;

		if (!w->swapbuf)
			w->swapbuf = xmalloc(65536);
		while (p + 8 <= end) {
			const union perf_event *ev = (const void *)p;
			u16 size = ev->header.size;
			struct wattr *a;

			if (size < 8 || size > end - p)
				return -EINVAL;
			a = ev->header.type < PERF_RECORD_USER_TYPE_START ? attr_for(w, ev) : NULL;
			memcpy(w->swapbuf, p, size);
			if (perf_event_swap((union perf_event *)w->swapbuf, a ? &a->attr : NULL,
					    false))
				return -EINVAL;
			if ((ret = out(w, w->swapbuf, size)))
				return ret;
			p += size;
		}
		w->data_size += len;
		return 0;
	}
	ret = out(w, buf, len);
	if (!ret)
		w->data_size += len;
	return ret;
}

int data_writer_write(struct data_writer *w, const void *buf, size_t len)
{
	return emit(w, buf, len);
}

int data_writer_write_event(struct data_writer *w, const union perf_event *ev)
{
	return emit(w, ev, ev->header.size);
}

static int compress_chunk(struct data_writer *w, const void *buf, size_t len);

static int write_ring_records(struct data_writer *w, const void *buf, size_t len);

/*
 * Ring data reaches the file at once (not kept in the buffer): a record
 * killed later still leaves every record read so far in the file.
 */
int data_writer_write_ring(struct data_writer *w, const void *buf, size_t len)
{
	int ret = write_ring_records(w, buf, len);

	if (!ret)
		ret = flush_buf(w);
	return ret;
}

static int write_ring_records(struct data_writer *w, const void *buf, size_t len)
{
	size_t limit = w->opts.comp_mmap_len ? w->opts.comp_mmap_len : 528384;
	const u8 *p = buf, *end = p + len;

	w->uncompressed += len;
	if (!w->opts.comp_level || w->opts.swap)
		return emit(w, buf, len);
	/*
	 * perf decompresses one COMPRESSED record into a buffer of mmap_len
	 * bytes: compress at most that much (whole records) per frame.
	 */
	while (p < end) {
		const u8 *q = p;
		int ret;

		while (q + 8 <= end) {
			u16 size;

			memcpy(&size, q + 6, 2);
			if (size < 8 || size > end - q)
				return -EINVAL;
			if (q != p && (size_t)(q + size - p) > limit)
				break;
			q += size;
		}
		if (q == p)
			return -EINVAL;
		ret = compress_chunk(w, p, q - p);
		if (ret)
			return ret;
		p = q;
	}
	return 0;
}

static int compress_chunk(struct data_writer *w, const void *buf, size_t len)
{
	ZSTD_inBuffer in = { buf, len, 0 };
	size_t bound;
	int ret;

	if (!w->started && (ret = data_writer_start(w)))
		return ret;
	if (!w->cctx) {
		w->cctx = ZSTD_createCCtx();
		ZSTD_CCtx_setParameter(w->cctx, ZSTD_c_compressionLevel, w->opts.comp_level);
	}
	/* one zstd frame per call, cut into COMPRESSED records; the reader streams across them */
	bound = ZSTD_compressBound(len) + 64;
	if (w->cbuf_alloc < bound) {
		w->cbuf_alloc = bound;
		w->cbuf = xrealloc(w->cbuf, bound);
	}
	{
		ZSTD_outBuffer o = { w->cbuf, w->cbuf_alloc, 0 };
		size_t r;

		do {
			r = ZSTD_compressStream2(w->cctx, &o, &in, ZSTD_e_end);
			if (ZSTD_isError(r))
				return -EIO;
		} while (r != 0);
		for (size_t off = 0; off < o.pos; off += COMP_CHUNK) {
			size_t n = MIN((size_t)COMP_CHUNK, o.pos - off);
			/* perf 6.1 does not pad COMPRESSED records to 8 bytes */
			struct perf_event_header h = { .type = PERF_RECORD_COMPRESSED,
						       .size = 8 + n };

			if ((ret = out(w, &h, 8)) || (ret = out(w, w->cbuf + off, n)))
				return ret;
			w->data_size += 8 + n;
		}
	}
	return 0;
}

u64 data_writer_bytes(const struct data_writer *w)
{
	return w->data_size;
}

u64 data_writer_uncompressed_bytes(const struct data_writer *w)
{
	return w->uncompressed;
}

/* ---- finish ---- */

int data_writer_finish(struct data_writer *w)
{
	struct strbuf tab = STRBUF_INIT, pay = STRBUF_INIT;
	u64 table, off;
	int nr = 0, ret;

	if (!w->started && (ret = data_writer_start(w)))
		return ret;
	if (w->is_pipe)
		return flush_buf(w);
	encode_derived(w);
	for (int feat = 1; feat < HEADER_LAST_FEATURE; feat++)
		nr += w->has_feat[feat];
	table = w->data_offset + w->data_size;
	off = table + nr * 16;
	for (int feat = 1; feat < HEADER_LAST_FEATURE; feat++) {
		if (!w->has_feat[feat])
			continue;
		put64(w, &tab, off);
		put64(w, &tab, w->feat[feat].len);
		strbuf_add(&pay, w->feat[feat].buf, w->feat[feat].len);
		off += w->feat[feat].len;
	}
	ret = out(w, tab.buf, tab.len);
	if (!ret)
		ret = out(w, pay.buf, pay.len);
	if (!ret)
		ret = flush_buf(w);
	strbuf_release(&tab);
	strbuf_release(&pay);
	/* EINVAL: not a regular file (-o /dev/null), nothing to truncate */
	if (!ret && ftruncate(w->fd, off) < 0 && errno != EINVAL)
		ret = -errno;
	if (!ret)
		ret = write_file_header(w, true);
	return ret;
}
