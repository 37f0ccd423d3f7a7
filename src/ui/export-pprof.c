/* SPDX-License-Identifier: MIT */
/* pprof's profile.proto written by hand (protobuf wire format) and gzipped with zlib. */
#include "ui/export-pprof.h"

#include "lib/hashmap.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/*
 * Field numbers of profile.proto (github.com/google/pprof/proto/profile.proto):
 * Profile: sample_type 1, sample 2, mapping 3, location 4, function 5,
 * string_table 6, time_nanos 9, duration_nanos 10, period_type 11, period 12.
 * ValueType: type 1, unit 2. Sample: location_id 1 (packed), value 2 (packed).
 * Location: id 1, mapping_id 2, address 3, line 4. Line: function_id 1, line 2.
 * Function: id 1, name 2, system_name 3, filename 4.
 */

struct pframe {
	const char *name, *file; /* interned */
	u64 addr;
	bool set;
};

struct pprof {
	struct strpool pool;
	struct u64map str_ids; /* interned -> index + 1 */
	const char **strs;
	size_t nr_strs, alloc_strs;
	struct strbuf samples; /* encoded Sample messages, each with its tag */
	struct pframe *frames;
	size_t nr_frames, alloc_frames;
	const char *event;
};

static void put_varint(struct strbuf *sb, u64 v)
{
	while (v >= 0x80) {
		strbuf_addch(sb, (char)(v | 0x80));
		v >>= 7;
	}
	strbuf_addch(sb, (char)v);
}

static void put_tag(struct strbuf *sb, u32 field, u32 wire)
{
	put_varint(sb, (u64)field << 3 | wire);
}

static void put_uint(struct strbuf *sb, u32 field, u64 v)
{
	if (!v)
		return;
	put_tag(sb, field, 0);
	put_varint(sb, v);
}

static void put_bytes(struct strbuf *sb, u32 field, const void *data, size_t len)
{
	put_tag(sb, field, 2);
	put_varint(sb, len);
	strbuf_add(sb, data, len);
}

/* the string table index of @s ("" is 0) */
static u64 str_id(struct pprof *p, const char *s)
{
	const char *in = strpool_intern(&p->pool, s ? s : "");
	uintptr_t id = (uintptr_t)u64map_find(&p->str_ids, (u64)(uintptr_t)in);

	if (id)
		return id - 1;
	p->strs = xgrow(p->strs, p->nr_strs + 1, &p->alloc_strs, sizeof(*p->strs));
	p->strs[p->nr_strs++] = in;
	u64map_set(&p->str_ids, (u64)(uintptr_t)in, (void *)(uintptr_t)p->nr_strs);
	return p->nr_strs - 1;
}

struct pprof *pprof_new(const char *event)
{
	struct pprof *p = xzalloc(sizeof(*p));

	strpool_init(&p->pool);
	u64map_init(&p->str_ids);
	strbuf_init(&p->samples, 1 << 16);
	str_id(p, "");
	p->event = strpool_intern(&p->pool, event);
	return p;
}

void pprof_free(struct pprof *p)
{
	if (!p)
		return;
	strpool_release(&p->pool);
	u64map_release(&p->str_ids);
	strbuf_release(&p->samples);
	free(p->strs);
	free(p->frames);
	free(p);
}

void pprof_add_sample(struct pprof *p, const u32 *ids, u32 nr, u64 period)
{
	struct strbuf msg = STRBUF_INIT, packed = STRBUF_INIT;

	for (u32 i = 0; i < nr; i++)
		put_varint(&packed, (u64)ids[i] + 1); /* location ids start at 1 */
	if (packed.len)
		put_bytes(&msg, 1, packed.buf, packed.len);
	strbuf_setlen(&packed, 0);
	put_varint(&packed, 1);
	put_varint(&packed, period);
	put_bytes(&msg, 2, packed.buf, packed.len);
	put_bytes(&p->samples, 2, msg.buf, msg.len);
	strbuf_release(&msg);
	strbuf_release(&packed);
}

void pprof_add_frame(struct pprof *p, u32 id, const char *name, const char *file, u64 addr)
{
	if (id >= p->nr_frames) {
		p->frames = xgrow(p->frames, id + 1, &p->alloc_frames, sizeof(*p->frames));
		memset(p->frames + p->nr_frames, 0, (id + 1 - p->nr_frames) * sizeof(*p->frames));
		p->nr_frames = id + 1;
	}
	p->frames[id].name = strpool_intern(&p->pool, name);
	p->frames[id].file = file ? strpool_intern(&p->pool, file) : NULL;
	p->frames[id].addr = addr;
	p->frames[id].set = true;
}

static void value_type(struct pprof *p, struct strbuf *out, u32 field, const char *type,
		       const char *unit)
{
	struct strbuf vt = STRBUF_INIT;

	put_uint(&vt, 1, str_id(p, type));
	put_uint(&vt, 2, str_id(p, unit));
	put_bytes(out, field, vt.buf, vt.len);
	strbuf_release(&vt);
}

int pprof_write(struct pprof *p, FILE *out, u64 time_ns, u64 duration_ns)
{
	struct strbuf pb = STRBUF_INIT, m = STRBUF_INIT, line = STRBUF_INIT;
	bool clock = !strcmp(p->event, "cpu-clock") || !strcmp(p->event, "task-clock") ||
		     strstarts(p->event, "cpu-clock:") || strstarts(p->event, "task-clock:");
	const char *unit = clock ? "nanoseconds" : "count";
	unsigned char zbuf[1 << 16];
	z_stream zs;
	int ret = 0, zr;

	value_type(p, &pb, 1, "samples", "count");
	value_type(p, &pb, 1, p->event, unit);
	strbuf_add(&pb, p->samples.buf, p->samples.len);
	/* one function and one location per frame: function ids = location ids */
	for (size_t i = 0; i < p->nr_frames; i++) {
		const struct pframe *f = &p->frames[i];

		if (!f->set)
			continue;
		strbuf_setlen(&m, 0);
		put_uint(&m, 1, i + 1);
		put_uint(&m, 2, str_id(p, f->name));
		put_uint(&m, 3, str_id(p, f->name));
		put_uint(&m, 4, str_id(p, f->file));
		put_bytes(&pb, 5, m.buf, m.len);
		strbuf_setlen(&m, 0);
		strbuf_setlen(&line, 0);
		put_uint(&line, 1, i + 1);
		put_uint(&m, 1, i + 1);
		put_uint(&m, 3, f->addr);
		put_bytes(&m, 4, line.buf, line.len);
		put_bytes(&pb, 4, m.buf, m.len);
	}
	for (size_t i = 0; i < p->nr_strs; i++)
		put_bytes(&pb, 6, p->strs[i], strlen(p->strs[i]));
	put_uint(&pb, 9, time_ns);
	put_uint(&pb, 10, duration_ns);
	value_type(p, &pb, 11, p->event, unit);
	/* the string table was written before period_type named its strings: they exist already */
	memset(&zs, 0, sizeof(zs));
	if (deflateInit2(&zs, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
		ret = -EIO;
		goto out;
	}
	zs.next_in = (unsigned char *)pb.buf;
	zs.avail_in = (uInt)pb.len;
	do {
		zs.next_out = zbuf;
		zs.avail_out = sizeof(zbuf);
		zr = deflate(&zs, Z_FINISH);
		if (zr == Z_STREAM_ERROR ||
		    fwrite(zbuf, 1, sizeof(zbuf) - zs.avail_out, out) != sizeof(zbuf) - zs.avail_out) {
			ret = -EIO;
			break;
		}
	} while (zr != Z_STREAM_END);
	deflateEnd(&zs);
out:
	strbuf_release(&pb);
	strbuf_release(&m);
	strbuf_release(&line);
	return ret;
}
