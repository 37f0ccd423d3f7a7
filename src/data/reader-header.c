/* SPDX-License-Identifier: MIT */
/* perf.data file-mode header: attrs section, feature sections, data section bounds and salvage of a cut file. */
#include "data/reader-internal.h"
#include "data/feature.h"
#include "data/sample.h"
#include "lib/xalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static u64 sw64(u64 v, bool swap)
{
	return swap ? __builtin_bswap64(v) : v;
}

static u32 sw32(u32 v, bool swap)
{
	return swap ? __builtin_bswap32(v) : v;
}

static int read_attrs(struct data_reader *r, struct data_error *err)
{
	struct perf_header *h = &r->hdr;
	bool swap = h->needs_swap;
	u64 stride = h->attr_entry_size, nr;

	if (h->attr_size == 0)
		return 0;
	if (stride < PERF_ATTR_SIZE_VER0 + 16 || stride > 4096) {
		reader_set_err(err, 16, EINVAL, "attr_size %llu in the header is invalid",
			(unsigned long long)stride);
		return -EINVAL;
	}
	if (h->attr_offset > r->map_size || h->attr_size > r->map_size - h->attr_offset) {
		reader_set_err(err, 24, EINVAL,
			"attrs section [%#llx, +%#llx) is past the end of the file (%#llx bytes)",
			(unsigned long long)h->attr_offset, (unsigned long long)h->attr_size,
			(unsigned long long)r->map_size);
		return -EINVAL;
	}
	if (h->attr_size % stride) {
		reader_set_err(err, 32, EINVAL, "attrs section size %llu is not a multiple of %llu",
			(unsigned long long)h->attr_size, (unsigned long long)stride);
		return -EINVAL;
	}
	nr = h->attr_size / stride;
	for (u64 i = 0; i < nr; i++) {
		u64 off = h->attr_offset + i * stride;
		const u8 *p = r->map + off;
		struct perf_event_attr attr;
		u32 asz;
		u64 ids_off, ids_size, *ids;

		memcpy(&asz, p + 4, 4);
		asz = sw32(asz, swap);
		if (asz == 0)
			asz = PERF_ATTR_SIZE_VER0;
		if (asz > stride - 16 || asz < PERF_ATTR_SIZE_VER0) {
			reader_set_err(err, off + 4, EINVAL, "attr %llu has size %u, entries are %llu bytes",
				(unsigned long long)i, asz, (unsigned long long)stride);
			return -EINVAL;
		}
		memset(&attr, 0, sizeof(attr));
		memcpy(&attr, p, MIN((size_t)asz, sizeof(attr)));
		if (swap)
			perf_attr_swap(&attr, MIN((size_t)asz, sizeof(attr)));
		attr.size = asz;
		memcpy(&ids_off, p + stride - 16, 8);
		memcpy(&ids_size, p + stride - 8, 8);
		ids_off = sw64(ids_off, swap);
		ids_size = sw64(ids_size, swap);
		if (ids_off > r->map_size || ids_size > r->map_size - ids_off || ids_size % 8) {
			reader_set_err(err, off + stride - 16, EINVAL,
				"ids of attr %llu [%#llx, +%#llx) are outside the file",
				(unsigned long long)i, (unsigned long long)ids_off,
				(unsigned long long)ids_size);
			return -EINVAL;
		}
		ids = ids_size ? xmalloc(ids_size) : NULL;
		if (ids_size)
			memcpy(ids, r->map + ids_off, ids_size);
		for (u64 k = 0; k < ids_size / 8; k++)
			ids[k] = sw64(ids[k], swap);
		reader_add_attr(r, &attr, ids, ids_size / 8);
		free(ids);
	}
	return 0;
}

static u64 nr_announced_features(const struct perf_header *h)
{
	u64 nr = 0;

	for (int w = 0; w < HEADER_FEAT_BITS / 64; w++)
		nr += __builtin_popcountll(h->features[w]);
	return nr;
}

/* a truncated file: the announced features are gone (perf prints nothing for them) */
static void lose_all_features(struct perf_header *h)
{
	memcpy(h->feat_lost, h->features, sizeof(h->feat_lost));
}

static int read_features(struct data_reader *r, struct data_error *err)
{
	struct perf_header *h = &r->hdr;
	u64 nr = nr_announced_features(h), table = h->data_offset + h->data_size;
	int idx = 0, nr_lost = 0, first_lost = -1;
	struct perf_file_section first_sec = { 0, 0 };

	if (!nr)
		return 0;
	if (table > r->map_size || nr * 16 > r->map_size - table) {
		lose_all_features(h);
		reader_note_damage(r, table,
			    "truncated file: the feature table (%llu entries) is past the end of the file (%#llx bytes); the features are ignored",
			    (unsigned long long)nr, (unsigned long long)r->map_size);
		return 0;
	}
	(void)err;
	for (int feat = 0; feat < HEADER_LAST_FEATURE; feat++) {
		struct perf_file_section sec;
		char msg[200];
		u64 bad = 0;

		if (!perf_header_has_feat(h, feat))
			continue;
		memcpy(&sec, r->map + table + idx * 16, 16);
		idx++;
		sec.offset = sw64(sec.offset, h->needs_swap);
		sec.size = sw64(sec.size, h->needs_swap);
		if (sec.offset > r->map_size || sec.size > r->map_size - sec.offset) {
			/* cut short by the end of the file: drop this feature, keep the others */
			h->feat_lost[feat / 64] |= 1ULL << (feat % 64);
			if (first_lost < 0) {
				first_lost = feat;
				first_sec = sec;
			}
			nr_lost++;
			continue;
		}
		h->feat_sec[feat] = sec;
		if (perf_header_parse_feature(h, feat, r->map + sec.offset, sec.size, h->needs_swap,
					      msg, sizeof(msg), &bad) < 0) {
			reader_set_err(err, sec.offset + bad, EINVAL, "feature %s: %s",
				perf_header_feat_name(feat), msg);
			return -EINVAL;
		}
	}
	if (first_lost >= 0) {
		char more[32] = "";

		if (nr_lost > 1)
			snprintf(more, sizeof(more), " and %d more", nr_lost - 1);
		reader_note_damage(r, first_sec.offset,
			    "truncated file: feature %s section [%#llx, +%#llx)%s %s past the end of the file (%#llx bytes) and ignored",
			    perf_header_feat_name(first_lost), (unsigned long long)first_sec.offset,
			    (unsigned long long)first_sec.size,
			    more, nr_lost > 1 ? "are" : "is", (unsigned long long)r->map_size);
	}
	return 0;
}

/*
 * A data section that runs to the end of the file (cut short, or data size 0):
 * walk the record headers to the end of the last complete record, so that the
 * stream ends there and the cut record is named once, at open time.
 * A record of size < 8 stops the walk: data_reader_next reports it as corrupt.
 */
static u64 last_complete_end(struct data_reader *r, u64 start, u64 end, u64 *torn_off,
			     struct perf_event_header *torn)
{
	u64 pos = start;

	*torn_off = 0;
	while (end - pos >= sizeof(struct perf_event_header)) {
		struct perf_event_header hdr;

		memcpy(&hdr, r->map + pos, sizeof(hdr));
		if (r->hdr.needs_swap) {
			hdr.type = __builtin_bswap32(hdr.type);
			hdr.size = __builtin_bswap16(hdr.size);
		}
		if (hdr.size < sizeof(hdr)) {
			*torn_off = ~0ULL; /* not a cut: corrupt, data_reader_next says so */
			return end;
		}
		if (hdr.size > end - pos) {
			*torn_off = pos;
			*torn = hdr;
			return pos;
		}
		pos += hdr.size;
	}
	if (pos < end) {
		/* fewer than 8 bytes: a cut record header */
		*torn_off = pos;
		memset(torn, 0, sizeof(*torn));
	}
	return pos;
}

/* clamp the data section [data_offset, file end) to its complete records, reporting the cut */
static void clamp_data(struct data_reader *r, bool cut)
{
	struct perf_header *h = &r->hdr;
	struct perf_event_header torn;
	u64 torn_off, end;

	if (h->data_offset >= r->map_size) {
		r->data_start = r->data_end = r->map_size;
		if (cut)
			reader_note_damage(r, r->map_size,
				    "truncated file: it ends before the data section [%#llx, +%#llx)%s",
				    (unsigned long long)h->data_offset,
				    (unsigned long long)h->data_size,
				    nr_announced_features(h) ? "; the feature sections are lost" : "");
		return;
	}
	end = last_complete_end(r, h->data_offset, r->map_size, &torn_off, &torn);
	r->data_end = end;
	if (torn_off == ~0ULL) {
		if (cut)
			reader_note_damage(r, h->data_offset,
				    "the data section [%#llx, +%#llx) runs past the end of the file (%#llx bytes)",
				    (unsigned long long)h->data_offset,
				    (unsigned long long)h->data_size, (unsigned long long)r->map_size);
	} else if (torn_off && torn.size)
		reader_note_damage(r, torn_off,
			    "truncated file: the %s record of %u bytes here is cut short by the end of the file (%#llx bytes) and dropped; the %s before it are read",
			    perf_event_name(torn.type), torn.size, (unsigned long long)r->map_size,
			    "records");
	else if (torn_off)
		reader_note_damage(r, torn_off,
			    "truncated file: %llu bytes of a record header here are cut short by the end of the file and dropped; the records before it are read",
			    (unsigned long long)(r->map_size - torn_off));
	else if (cut)
		reader_note_damage(r, r->map_size,
			    "truncated file: it ends here, inside the data section [%#llx, +%#llx)%s",
			    (unsigned long long)h->data_offset, (unsigned long long)h->data_size,
			    nr_announced_features(h) ? "; the feature sections are lost" : "");
}

int reader_open_file_mode(struct data_reader *r, struct data_error *err)
{
	struct perf_header *h = &r->hdr;
	struct perf_file_header fh;
	bool swap = h->needs_swap;
	int ret;

	if (r->map_size < sizeof(fh)) {
		reader_set_err(err, r->map_size, EINVAL,
			"file is too short for a perf.data header (%llu of 104 bytes)",
			(unsigned long long)r->map_size);
		return -EINVAL;
	}
	memcpy(&fh, r->map, sizeof(fh));
	h->attr_entry_size = sw64(fh.attr_size, swap);
	h->attr_offset = sw64(fh.attrs.offset, swap);
	h->attr_size = sw64(fh.attrs.size, swap);
	h->data_offset = sw64(fh.data.offset, swap);
	h->data_size = sw64(fh.data.size, swap);
	for (int i = 0; i < 4; i++)
		h->features[i] = sw64(fh.adds_features[i], swap);
	/*
	 * The bitmap is an array of unsigned long in the writer's order: the
	 * u64 swap above gives the right words for 64-bit writers.
	 */
	if (h->data_offset < sizeof(fh)) {
		reader_set_err(err, 40, EINVAL, "data offset %#llx is inside the file header",
			(unsigned long long)h->data_offset);
		return -EINVAL;
	}
	/* the attrs are needed to decode anything: a file cut inside them is not usable */
	ret = read_attrs(r, err);
	if (ret)
		return ret;
	if (h->data_size == 0) {
		/*
		 * Either a finished file without records (the feature table
		 * follows at once), or a killed record: the header was never
		 * rewritten, records run to EOF and there is no feature table.
		 */
		struct data_error ferr;
		u64 saved[HEADER_FEAT_BITS / 64];
		bool was_damaged = r->damaged;

		r->hdr_data_size_zero = true;
		memcpy(saved, h->features, sizeof(saved));
		if (h->attr_size == 0 || h->data_offset >= r->map_size ||
		    !(saved[0] | saved[1] | saved[2] | saved[3]) ||
		    read_features(r, &ferr) || r->damaged != was_damaged ||
		    !perf_header_has_feat(h, HEADER_EVENT_DESC)) {
			/* the feature attempt may have set some: start over with none */
			r->damaged = was_damaged;
			r->data_size_zero = true;
			memset(h->features, 0, sizeof(h->features));
			memset(h->feat_lost, 0, sizeof(h->feat_lost));
			h->data_size = r->map_size > h->data_offset ? r->map_size - h->data_offset : 0;
		} else {
			h->feat_offset = h->data_offset;
			r->data_start = r->data_end = r->main_end = r->pos = h->data_offset;
			return 0;
		}
	}
	h->feat_offset = h->data_offset + h->data_size;
	r->data_start = h->data_offset;
	if (r->data_size_zero) {
		clamp_data(r, false);
	} else if (h->data_offset > r->map_size || h->data_size > r->map_size - h->data_offset) {
		/* cut short (crash, full disk, partial copy): every complete record is read */
		r->data_cut = true;
		lose_all_features(h);
		clamp_data(r, true);
	} else {
		r->data_end = h->data_offset + h->data_size;
		ret = read_features(r, err);
		if (ret)
			return ret;
	}
	r->main_end = r->data_end;
	r->pos = r->data_start;
	return 0;
}
