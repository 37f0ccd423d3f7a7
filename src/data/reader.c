/* SPDX-License-Identifier: MIT */
/* perf.data reader: open/close, pipe header records, ids to events, and the record stream (file, pipe, compressed, swapped). */
#include "data/reader-internal.h"
#include "core/evlist.h"
#include "core/evsel.h"
#include "core/evlist-open.h"
#include "data/feature.h"
#include "data/sample.h"
#include "lib/hashmap.h"
#include "lib/util.h"
#include "lib/xalloc.h"

#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

/* perf records are at most 64 kB (u16 size); the pipe buffer holds a few */
#define STREAM_CHUNK (256 * 1024)
/* a COMPRESSED record never expands beyond this (bomb guard) */
#define MAX_DECOMP (64ULL << 20)

void reader_set_err(struct data_error *err, u64 off, int errnum, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return;
	err->offset = off;
	err->errnum = errnum;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
}

void reader_note_damage(struct data_reader *r, u64 off, const char *fmt, ...)
{
	va_list ap;

	if (r->damaged)
		return;
	r->damaged = true;
	r->damage_off = off;
	va_start(ap, fmt);
	vsnprintf(r->damage_msg, sizeof(r->damage_msg), fmt, ap);
	va_end(ap);
	if (r->damage_cb)
		r->damage_cb(r->damage_arg, off, r->damage_msg);
}

void data_reader_on_damage(struct data_reader *r, data_damage_fn *fn, void *arg)
{
	r->damage_cb = fn;
	r->damage_arg = arg;
	if (fn && r->damaged)
		fn(arg, r->damage_off, r->damage_msg);
}

bool data_reader_damage(const struct data_reader *r, u64 *off, const char **what)
{
	if (r->damaged) {
		if (off)
			*off = r->damage_off;
		if (what)
			*what = r->damage_msg;
	}
	return r->damaged;
}

static const char *const event_names[] = {
	[0] = "TOTAL",
	[PERF_RECORD_MMAP] = "MMAP",
	[PERF_RECORD_LOST] = "LOST",
	[PERF_RECORD_COMM] = "COMM",
	[PERF_RECORD_EXIT] = "EXIT",
	[PERF_RECORD_THROTTLE] = "THROTTLE",
	[PERF_RECORD_UNTHROTTLE] = "UNTHROTTLE",
	[PERF_RECORD_FORK] = "FORK",
	[PERF_RECORD_READ] = "READ",
	[PERF_RECORD_SAMPLE] = "SAMPLE",
	[PERF_RECORD_MMAP2] = "MMAP2",
	[PERF_RECORD_AUX] = "AUX",
	[PERF_RECORD_ITRACE_START] = "ITRACE_START",
	[PERF_RECORD_LOST_SAMPLES] = "LOST_SAMPLES",
	[PERF_RECORD_SWITCH] = "SWITCH",
	[PERF_RECORD_SWITCH_CPU_WIDE] = "SWITCH_CPU_WIDE",
	[PERF_RECORD_NAMESPACES] = "NAMESPACES",
	[PERF_RECORD_KSYMBOL] = "KSYMBOL",
	[PERF_RECORD_BPF_EVENT] = "BPF_EVENT",
	[PERF_RECORD_CGROUP] = "CGROUP",
	[PERF_RECORD_TEXT_POKE] = "TEXT_POKE",
	[PERF_RECORD_AUX_OUTPUT_HW_ID] = "AUX_OUTPUT_HW_ID",
	[PERF_RECORD_HEADER_ATTR] = "ATTR",
	[PERF_RECORD_HEADER_EVENT_TYPE] = "EVENT_TYPE",
	[PERF_RECORD_HEADER_TRACING_DATA] = "TRACING_DATA",
	[PERF_RECORD_HEADER_BUILD_ID] = "BUILD_ID",
	[PERF_RECORD_FINISHED_ROUND] = "FINISHED_ROUND",
	[PERF_RECORD_ID_INDEX] = "ID_INDEX",
	[PERF_RECORD_AUXTRACE_INFO] = "AUXTRACE_INFO",
	[PERF_RECORD_AUXTRACE] = "AUXTRACE",
	[PERF_RECORD_AUXTRACE_ERROR] = "AUXTRACE_ERROR",
	[PERF_RECORD_THREAD_MAP] = "THREAD_MAP",
	[PERF_RECORD_CPU_MAP] = "CPU_MAP",
	[PERF_RECORD_STAT_CONFIG] = "STAT_CONFIG",
	[PERF_RECORD_STAT] = "STAT",
	[PERF_RECORD_STAT_ROUND] = "STAT_ROUND",
	[PERF_RECORD_EVENT_UPDATE] = "EVENT_UPDATE",
	[PERF_RECORD_TIME_CONV] = "TIME_CONV",
	[PERF_RECORD_HEADER_FEATURE] = "FEATURE",
	[PERF_RECORD_COMPRESSED] = "COMPRESSED",
	[PERF_RECORD_FINISHED_INIT] = "FINISHED_INIT",
};

const char *perf_event_name(u32 type)
{
	if (type < ARRAY_SIZE(event_names) && event_names[type])
		return event_names[type];
	return "UNKNOWN";
}

/* ---- ids and evsels ---- */

/*
 * Where the event id lives, from perf_event_open(2):
 * - a SAMPLE record starts { header; [identifier]; [ip]; [pid,tid]; [time]; [addr]; [id]; ... },
 *   every bracketed field 8 bytes and present when its sample_type bit is set;
 * - any other kernel record ends with the sample_id trailer (sample_id_all)
 *   { [pid,tid]; [time]; [id]; [stream_id]; [cpu,res]; [identifier] }.
 * PERF_SAMPLE_IDENTIFIER puts the id first in a sample and last in a trailer,
 * so events with different sample_types can still be told apart.
 */
static const u64 sample_head_fields[] = {
	PERF_SAMPLE_IDENTIFIER, PERF_SAMPLE_IP, PERF_SAMPLE_TID,
	PERF_SAMPLE_TIME, PERF_SAMPLE_ADDR, PERF_SAMPLE_ID,
};
static const u64 trailer_fields[] = {
	PERF_SAMPLE_TID, PERF_SAMPLE_TIME, PERF_SAMPLE_ID,
	PERF_SAMPLE_STREAM_ID, PERF_SAMPLE_CPU, PERF_SAMPLE_IDENTIFIER,
};

void id_layout_init(struct id_layout *lay, const struct perf_event_attr *attr)
{
	u64 t = attr->sample_type;
	u64 id_bit = (t & PERF_SAMPLE_IDENTIFIER) ? PERF_SAMPLE_IDENTIFIER :
		     (t & PERF_SAMPLE_ID) ? PERF_SAMPLE_ID : 0;
	int off = sizeof(struct perf_event_header);
	bool counting = false;

	lay->sample_off = lay->trailer_off = -1;
	if (!id_bit)
		return;
	for (size_t i = 0; i < ARRAY_SIZE(sample_head_fields); i++) {
		if (sample_head_fields[i] == id_bit) {
			lay->sample_off = off;
			break;
		}
		if (t & sample_head_fields[i])
			off += 8;
	}
	if (!attr->sample_id_all)
		return;
	/* count the id field and everything after it: the distance back from the end */
	off = 0;
	for (size_t i = 0; i < ARRAY_SIZE(trailer_fields); i++) {
		if (trailer_fields[i] == id_bit)
			counting = true;
		if (counting && (t & trailer_fields[i]))
			off += 8;
	}
	lay->trailer_off = off;
}

bool id_layout_find(const struct id_layout *lay, const union perf_event *ev, u16 size, u32 type,
		    u64 *id)
{
	if (type == PERF_RECORD_SAMPLE) {
		if (lay->sample_off < 0 || (u32)lay->sample_off + 8 > size)
			return false;
		memcpy(id, (const u8 *)ev + lay->sample_off, 8);
		return true;
	}
	if (type >= PERF_RECORD_USER_TYPE_START || lay->trailer_off <= 0 ||
	    (u32)lay->trailer_off + sizeof(struct perf_event_header) > size)
		return false;
	memcpy(id, (const u8 *)ev + size - lay->trailer_off, 8);
	return true;
}

void reader_add_attr(struct data_reader *r, const struct perf_event_attr *attr, const u64 *ids,
		     u32 nr_ids)
{
	struct perf_header *h = &r->hdr;
	struct perf_header_attr *ha;
	struct evsel *evsel;

	h->attrs = xreallocarray(h->attrs, h->nr_attrs + 1, sizeof(*h->attrs));
	ha = &h->attrs[h->nr_attrs++];
	memset(ha, 0, sizeof(*ha));
	ha->attr = *attr;
	ha->nr_ids = nr_ids;
	ha->ids = nr_ids ? xmemdup(ids, nr_ids * sizeof(u64)) : NULL;
	id_layout_init(&ha->ids_at, attr);

	evsel = evsel_new(attr);
	evsel->attr.size = attr->size;
	evlist_add(r->evlist, evsel);
	r->evsels = xreallocarray(r->evsels, r->nr_evsels + 1, sizeof(*r->evsels));
	r->evsels[r->nr_evsels++] = evsel;
	for (u32 i = 0; i < nr_ids; i++)
		u64map_set(&r->id_map, ids[i], evsel);
	/* an id may have moved to this attr: forget what was looked up */
	memset(r->id_cache, 0, sizeof(r->id_cache));
	if (r->nr_evsels == 1) {
		r->id_hdr_size = perf_event_id_hdr_size(attr);
		r->ids = ha->ids_at;
	}
}

/* names and groups, once the features are known */
static void finish_evlist(struct data_reader *r)
{
	struct perf_header *h = &r->hdr;

	for (int i = 0; i < r->nr_evsels; i++) {
		struct evsel *evsel = r->evsels[i];

		if (evsel->name)
			continue;
		if (i < h->nr_attrs && h->attrs[i].name)
			evsel->name = xstrdup(h->attrs[i].name);
		else
			evsel_set_name_from_attr(evsel);
		if (!evsel->name)
			evsel->name = xasprintf("unknown-%u-%#llx", evsel->attr.type,
						(unsigned long long)evsel->attr.config);
	}
	r->evlist->nr_groups = 0;
	for (int g = 0; g < h->nr_groups; g++) {
		u32 leader = h->group_desc[g].leader_idx, nr = h->group_desc[g].nr_members;

		if (leader >= (u32)r->nr_evsels || nr == 0 || nr > (u32)r->nr_evsels - leader)
			continue;
		struct evsel *l = r->evsels[leader];

		l->nr_members = nr;
		if (h->group_desc[g].name && h->group_desc[g].name[0] &&
		    strcmp(h->group_desc[g].name, "{anon_group}") && !l->group_name)
			l->group_name = xstrdup(h->group_desc[g].name);
		for (u32 m = 1; m < nr; m++)
			r->evsels[leader + m]->leader = l;
		if (nr > 1)
			r->evlist->nr_groups++;
	}
}

/* ---- stream access ---- */

static void unmap_dir_file(struct data_reader *r)
{
	if (r->xmap)
		munmap((void *)r->xmap, r->xmap_size);
	r->xmap = NULL;
	r->xmap_size = 0;
}

/* move on to the next data.N file of a directory: its whole content is records */
static int next_dir_file(struct data_reader *r)
{
	struct stat st;
	int fd;

	unmap_dir_file(r);
	r->cur_file++;
	r->cur = NULL;
	r->pos = r->data_end = 0;
	fd = open(r->dir_files[r->cur_file], O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return -EIO;
	}
	if (st.st_size) {
		r->xmap = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (r->xmap == MAP_FAILED) {
			r->xmap = NULL;
			close(fd);
			return -EIO;
		}
		r->xmap_size = st.st_size;
	}
	close(fd);
	r->cur = r->xmap;
	r->data_end = r->xmap_size;
	return 0;
}

static int cmp_dir_file(const void *a, const void *b)
{
	const char *x = strrchr(*(char *const *)a, '.'), *y = strrchr(*(char *const *)b, '.');

	return atoi(x + 1) - atoi(y + 1);
}

/* the data.N files of directory @dir */
static void list_dir_files(struct data_reader *r, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		char *end;

		if (strncmp(de->d_name, "data.", 5) || !de->d_name[5])
			continue;
		strtol(de->d_name + 5, &end, 10);
		if (*end)
			continue;
		r->dir_files = xreallocarray(r->dir_files, r->nr_dir_files + 1, sizeof(char *));
		r->dir_files[r->nr_dir_files++] = xasprintf("%s/%s", dir, de->d_name);
	}
	closedir(d);
	if (r->nr_dir_files)
		qsort(r->dir_files, r->nr_dir_files, sizeof(char *), cmp_dir_file);
}

/*
 * peek - pointer to @len bytes at the current position, or NULL at EOF
 * (*short_read set when some but not all bytes exist).
 */
static const u8 *peek(struct data_reader *r, size_t len, bool *short_read, int *errp)
{
	*short_read = false;
	*errp = 0;
	if (!r->is_stream) {
		while (r->pos >= r->data_end && r->is_dir && r->cur_file + 1 < r->nr_dir_files) {
			if (next_dir_file(r) < 0) {
				*errp = -EIO;
				return NULL;
			}
		}
		if (r->pos >= r->data_end)
			return NULL;
		if (len > r->data_end - r->pos) {
			*short_read = true;
			return NULL;
		}
		return r->cur + r->pos;
	}
	while (r->sbuf_len - r->sbuf_head < len) {
		ssize_t n;

		if (r->stream_eof) {
			if (r->sbuf_len != r->sbuf_head)
				*short_read = true;
			return NULL;
		}
		if (r->sbuf_head && !r->no_compact) {
			memmove(r->sbuf, r->sbuf + r->sbuf_head, r->sbuf_len - r->sbuf_head);
			r->sbuf_len -= r->sbuf_head;
			r->sbuf_head = 0;
		}
		if (r->sbuf_alloc < r->sbuf_head + len + STREAM_CHUNK) {
			r->sbuf_alloc = r->sbuf_head + len + STREAM_CHUNK;
			r->sbuf = xrealloc(r->sbuf, r->sbuf_alloc);
		}
		n = read(r->fd, r->sbuf + r->sbuf_len, r->sbuf_alloc - r->sbuf_len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			*errp = -errno;
			return NULL;
		}
		if (n == 0)
			r->stream_eof = true;
		r->sbuf_len += n;
	}
	return r->sbuf + r->sbuf_head;
}

static void advance(struct data_reader *r, size_t len)
{
	r->pos += len;
	if (r->is_stream)
		r->sbuf_head += len;
}

/* ---- pipe-mode header records ---- */

static int pipe_attr_record(struct data_reader *r, const union perf_event *ev, u64 off,
			    struct data_error *err)
{
	struct perf_event_attr attr;
	u32 asz = ev->attr.attr.size;
	u64 body = ev->header.size - sizeof(ev->header);

	if (asz == 0)
		asz = PERF_ATTR_SIZE_VER0;
	if (asz > body || asz < PERF_ATTR_SIZE_VER0 || (body - asz) % 8) {
		reader_set_err(err, off, EINVAL, "HEADER_ATTR record with attr.size %u does not fit its %u bytes",
			asz, ev->header.size);
		return -EINVAL;
	}
	memset(&attr, 0, sizeof(attr));
	memcpy(&attr, &ev->attr.attr, MIN((size_t)asz, sizeof(attr)));
	attr.size = asz;
	reader_add_attr(r, &attr, (const u64 *)((const u8 *)&ev->attr.attr + asz), (body - asz) / 8);
	return 0;
}

static int pipe_feature_record(struct data_reader *r, const union perf_event *ev, u64 off,
			       struct data_error *err)
{
	struct perf_header *h = &r->hdr;
	char msg[200];
	u64 feat, bad = 0;

	if (ev->header.size < 16) {
		reader_set_err(err, off, EINVAL, "HEADER_FEATURE record of %u bytes is too short",
			ev->header.size);
		return -EINVAL;
	}
	memcpy(&feat, (const u8 *)ev + 8, 8);
	if (feat >= HEADER_LAST_FEATURE || feat == 0)
		return 0; /* end marker or a newer feature */
	perf_header_set_feat(h, feat);
	if (perf_header_parse_feature(h, feat, (const u8 *)ev + 16, ev->header.size - 16,
				      h->needs_swap, msg,
				      sizeof(msg), &bad) < 0) {
		reader_set_err(err, off + 16 + bad, EINVAL, "feature %s: %s", perf_header_feat_name(feat),
			msg);
		return -EINVAL;
	}
	if (feat == HEADER_EVENT_DESC || feat == HEADER_GROUP_DESC) {
		for (int i = 0; i < r->nr_evsels; i++)
			FREE_AND_NULL(r->evsels[i]->name);
		finish_evlist(r);
	}
	return 0;
}

/* ---- open / close ---- */

static int read_magic(struct data_reader *r, const u8 *p, struct data_error *err)
{
	u64 magic, size;

	memcpy(&magic, p, 8);
	memcpy(&size, p + 8, 8);
	if (magic == PERF_MAGIC) {
		r->hdr.needs_swap = false;
	} else if (magic == __builtin_bswap64(PERF_MAGIC)) {
		r->hdr.needs_swap = true;
		size = __builtin_bswap64(size);
	} else if (!memcmp(p, "PERFFILE", 8)) {
		reader_set_err(err, 0, EINVAL, "obsolete perf.data version 1 (PERFFILE) is not supported");
		return -EINVAL;
	} else {
		reader_set_err(err, 0, EINVAL, "not a perf.data file (bad magic %016llx)",
			(unsigned long long)magic);
		return -EINVAL;
	}
	r->hdr.header_size = size;
	if (size == 16) {
		r->is_pipe = true;
	} else if (size != sizeof(struct perf_file_header)) {
		reader_set_err(err, 8, EINVAL, "header size %llu is neither 104 (file) nor 16 (pipe)",
			(unsigned long long)size);
		return -EINVAL;
	}
	r->hdr.is_pipe = r->is_pipe;
	return 0;
}

struct data_reader *data_reader_open(const char *path, struct data_error *err)
{
	struct data_reader *r = xzalloc(sizeof(*r));
	struct stat st;
	int ret = 0;

	r->path = xstrdup(path);
	r->fd = -1;
	r->ids.sample_off = r->ids.trailer_off = -1;
	r->held_from = ~0ULL;
	r->evlist = evlist_new();
	u64map_init(&r->id_map);

	if (!strcmp(path, "-")) {
		r->fd = dup(0);
	} else {
		r->fd = open(path, O_RDONLY | O_CLOEXEC);
	}
	if (r->fd < 0) {
		reader_set_err(err, 0, errno, "%s", strerror(errno));
		goto fail;
	}
	if (fstat(r->fd, &st) < 0) {
		reader_set_err(err, 0, errno, "%s", strerror(errno));
		goto fail;
	}
	if (S_ISDIR(st.st_mode)) {
		/* perf record --threads: dir/data holds the header and the main records */
		r->is_dir = true;
		r->cur_file = -1;
		r->main_path = xasprintf("%s/data", path);
		list_dir_files(r, path);
		close(r->fd);
		r->fd = open(r->main_path, O_RDONLY | O_CLOEXEC);
		if (r->fd < 0 || fstat(r->fd, &st) < 0) {
			reader_set_err(err, 0, errno, "%s: %s", r->main_path, strerror(errno));
			goto fail;
		}
	}
	r->hdr.mtime = st.st_mtime;
	if (S_ISREG(st.st_mode)) {
		r->map_size = st.st_size;
		r->hdr.file_size = st.st_size;
		if (r->map_size == 0) {
			reader_set_err(err, 0, EINVAL, "file is empty");
			goto fail;
		}
		r->map = mmap(NULL, r->map_size, PROT_READ, MAP_PRIVATE, r->fd, 0);
		if (r->map == MAP_FAILED) {
			r->map = NULL;
			reader_set_err(err, 0, errno, "cannot mmap: %s", strerror(errno));
			goto fail;
		}
		madvise((void *)r->map, r->map_size, MADV_SEQUENTIAL);
		if (r->map_size < 16) {
			reader_set_err(err, r->map_size, EINVAL, "file is too short for a perf.data header");
			goto fail;
		}
		r->cur = r->map;
		if (read_magic(r, r->map, err))
			goto fail;
		if (r->is_pipe) {
			r->data_start = 16;
			r->data_end = r->map_size;
			r->pos = 16;
			r->hdr.data_offset = 16;
			r->hdr.data_size = r->map_size - 16;
		} else if (reader_open_file_mode(r, err)) {
			goto fail;
		}
	} else {
		u8 head[16];
		ssize_t n = read_full(r->fd, head, 16);

		r->is_stream = true;
		if (n < 0) {
			reader_set_err(err, 0, -n, "%s", strerror(-n));
			goto fail;
		}
		if (n < 16) {
			reader_set_err(err, n, EINVAL, "input is too short for a perf.data header");
			goto fail;
		}
		if (read_magic(r, head, err))
			goto fail;
		if (!r->is_pipe) {
			reader_set_err(err, 8, EINVAL,
				"file-mode perf.data on a pipe: use a file, or record with -o -");
			goto fail;
		}
		r->pos = r->data_start = r->stream_off = 16;
		r->data_end = ~0ULL;
		r->hdr.data_offset = 16;
	}
	if (r->is_pipe) {
		/*
		 * Read ahead over the leading HEADER_* records so that the events and
		 * features are known at open time, then rewind: the stream buffer is
		 * not compacted meanwhile, so a pipe can be rewound too.
		 */
		union perf_event *ev = NULL;
		u64 off = 0, save_pos = r->pos;
		size_t save_head = r->sbuf_head;

		r->no_compact = true;
		r->prescan_end = ~0ULL;
		while ((ret = data_reader_next(r, &ev, &off, err)) > 0) {
			u32 t = ev->header.type;

			if (t != PERF_RECORD_HEADER_ATTR && t != PERF_RECORD_HEADER_FEATURE &&
			    t != PERF_RECORD_HEADER_TRACING_DATA && t != PERF_RECORD_HEADER_BUILD_ID &&
			    t != PERF_RECORD_HEADER_EVENT_TYPE) {
				r->prescan_end = off;
				break;
			}
		}
		r->no_compact = false;
		if (ret < 0)
			goto fail;
		r->pos = save_pos;
		r->sbuf_head = save_head;
		r->prescanned = true;
	}
	finish_evlist(r);
	return r;
fail:
	data_reader_close(r);
	return NULL;
}

struct data_reader *data_reader_new_live(const struct evlist *evlist)
{
	struct data_reader *r = xzalloc(sizeof(*r));
	const struct evsel *src;

	r->path = xstrdup("[live]");
	r->fd = -1;
	r->ids.sample_off = r->ids.trailer_off = -1;
	r->held_from = ~0ULL;
	r->evlist = evlist_new();
	u64map_init(&r->id_map);
	evlist_for_each_entry(evlist, src) {
		int nr = evsel_nr_fds(src);
		u32 nr_ids = 0;
		u64 *ids = xcalloc(nr ? nr : 1, sizeof(u64));

		for (int i = 0; i < nr && src->ids; i++)
			if (src->fd[i] >= 0)
				ids[nr_ids++] = src->ids[i];
		reader_add_attr(r, &src->attr, ids, nr_ids);
		free(ids);
		if (src->name)
			r->evsels[r->nr_evsels - 1]->name = xstrdup(src->name);
	}
	finish_evlist(r);
	return r;
}

void data_reader_close(struct data_reader *r)
{
	if (!r)
		return;
	if (r->map)
		munmap((void *)r->map, r->map_size);
	unmap_dir_file(r);
	for (int i = 0; i < r->nr_dir_files; i++)
		free(r->dir_files[i]);
	free(r->dir_files);
	free(r->main_path);
	if (r->fd >= 0)
		close(r->fd);
	evlist_free(r->evlist);
	u64map_release(&r->id_map);
	perf_header_release(&r->hdr);
	free(r->evsels);
	free(r->sbuf);
	free(r->swapbuf);
	free(r->dbuf);
	if (r->zctx)
		ZSTD_freeDCtx(r->zctx);
	free(r->path);
	free(r);
}

const struct perf_header *data_reader_header(const struct data_reader *r)
{
	return &r->hdr;
}

struct evlist *data_reader_evlist(struct data_reader *r)
{
	return r->evlist;
}

const char *data_reader_cur_path(const struct data_reader *r)
{
	if (!r->is_dir)
		return r->path;
	return r->cur_file < 0 ? r->main_path : r->dir_files[r->cur_file];
}

bool data_reader_is_dir(const struct data_reader *r)
{
	return r->is_dir;
}

bool data_reader_is_pipe(const struct data_reader *r)
{
	return r->is_pipe;
}

const char *data_reader_path(const struct data_reader *r)
{
	return r->path;
}

bool data_reader_data_size_was_zero(const struct data_reader *r)
{
	return r->hdr_data_size_zero;
}

int data_reader_id_hdr_size(const struct data_reader *r)
{
	return r->id_hdr_size;
}

bool data_reader_in_compressed(const struct data_reader *r, u64 *file_off)
{
	if (r->in_comp && file_off)
		*file_off = r->comp_off;
	return r->in_comp;
}

const struct perf_header_attr *data_reader_evsel_attr(const struct data_reader *r,
						      const struct evsel *evsel)
{
	for (int i = 0; i < r->nr_evsels && i < r->hdr.nr_attrs; i++)
		if (r->evsels[i] == evsel)
			return &r->hdr.attrs[i];
	return NULL;
}

int data_reader_rewind(struct data_reader *r)
{
	if (r->is_stream)
		return -ESPIPE;
	if (r->is_dir) {
		unmap_dir_file(r);
		r->cur_file = -1;
		r->cur = r->map;
		r->data_end = r->main_end;
	}
	r->pos = r->data_start;
	r->dropped_to = 0;
	r->held_from = ~0ULL;
	r->dbuf_len = r->dbuf_pos = 0;
	r->dbuf_base = 0;
	r->in_comp = false;
	return 0;
}

struct evsel *data_reader_evsel_for_id(struct data_reader *r, u64 id)
{
	struct id_cache_slot *slot = &r->id_cache[id % ARRAY_SIZE(r->id_cache)];
	struct evsel *evsel;

	if (r->nr_evsels == 0)
		return NULL;
	/* synthesized records carry id 0: they belong to the first event (as in perf) */
	if (r->nr_evsels == 1 || id == 0)
		return r->evsels[0];
	if (slot->evsel && slot->id == id)
		return slot->evsel;
	evsel = u64map_find(&r->id_map, id);
	if (evsel) {
		slot->id = id;
		slot->evsel = evsel;
	}
	return evsel;
}

struct evsel *data_reader_evsel_for_event(struct data_reader *r, const union perf_event *ev)
{
	u64 id;

	if (r->nr_evsels <= 1)
		return r->nr_evsels ? r->evsels[0] : NULL;
	if (!id_layout_find(&r->ids, ev, ev->header.size, ev->header.type, &id))
		return r->evsels[0];
	return data_reader_evsel_for_id(r, id);
}

int data_reader_parse_sample(struct data_reader *r, const union perf_event *ev,
			     struct perf_sample *sample, struct evsel **evselp)
{
	struct evsel *evsel = data_reader_evsel_for_event(r, ev);

	if (evselp)
		*evselp = evsel;
	if (!evsel) {
		memset(sample, 0, sizeof(*sample));
		sample->pid = sample->tid = sample->cpu = (u32)-1;
		return ev->header.type == PERF_RECORD_SAMPLE ? -EINVAL : 0;
	}
	return perf_sample_parse(&evsel->attr, ev, sample);
}

/* ---- the record stream ---- */

/* pipe header records are applied once: in the open-time pre-scan, or when first met after it */
static bool apply_hdr(struct data_reader *r, u64 off)
{
	/* offsets only grow in one pass; a rewound pass skips what was applied */
	if (off < r->applied_end)
		return false;
	r->applied_end = off + 1;
	return true;
}

static int ensure_swapbuf(struct data_reader *r, size_t len)
{
	if (r->swapbuf_alloc < len) {
		r->swapbuf_alloc = len < 65536 ? 65536 : len;
		r->swapbuf = xrealloc(r->swapbuf, r->swapbuf_alloc);
	}
	return 0;
}

/* decompress a COMPRESSED record's payload, appending to what is left in dbuf */
static int decompress(struct data_reader *r, const u8 *src, size_t len, u64 off,
		      struct data_error *err)
{
	ZSTD_inBuffer in = { src, len, 0 };
	size_t left = r->dbuf_len - r->dbuf_pos;

	if (!r->zctx)
		r->zctx = ZSTD_createDCtx();
	if (r->dbuf_pos) {
		memmove(r->dbuf, r->dbuf + r->dbuf_pos, left);
		r->dbuf_base += r->dbuf_pos;
		r->dbuf_len = left;
		r->dbuf_pos = 0;
	}
	while (in.pos < in.size) {
		ZSTD_outBuffer out;
		size_t ret;

		if (r->dbuf_alloc - r->dbuf_len < 65536) {
			size_t na = r->dbuf_alloc ? r->dbuf_alloc * 2 : 1 << 20;

			if (na > MAX_DECOMP) {
				reader_set_err(err, off, EINVAL,
					"COMPRESSED record expands beyond %llu MB",
					(unsigned long long)(MAX_DECOMP >> 20));
				return -EINVAL;
			}
			r->dbuf = xrealloc(r->dbuf, na);
			r->dbuf_alloc = na;
		}
		out.dst = r->dbuf + r->dbuf_len;
		out.size = r->dbuf_alloc - r->dbuf_len;
		out.pos = 0;
		ret = ZSTD_decompressStream(r->zctx, &out, &in);
		if (ZSTD_isError(ret)) {
			reader_set_err(err, off, EINVAL, "COMPRESSED record: zstd: %s",
				ZSTD_getErrorName(ret));
			ZSTD_DCtx_reset(r->zctx, ZSTD_reset_session_only);
			return -EINVAL;
		}
		r->dbuf_len += out.pos;
		if (out.pos == 0 && ret != 0 && in.pos == in.size)
			break;
	}
	return 0;
}

/* the next record out of dbuf: 1, 0 when dbuf has no whole record, -EINVAL */
static int next_decompressed(struct data_reader *r, union perf_event **evp, u64 *offset,
			     struct data_error *err)
{
	struct perf_event_header hdr;
	size_t left = r->dbuf_len - r->dbuf_pos;
	u8 *p;

	if (left < sizeof(hdr))
		return 0;
	p = r->dbuf + r->dbuf_pos;
	memcpy(&hdr, p, sizeof(hdr));
	if (r->hdr.needs_swap)
		hdr.size = __builtin_bswap16(hdr.size);
	if (hdr.size < sizeof(hdr)) {
		reader_set_err(err, r->comp_off, EINVAL,
			"record of size %u inside the COMPRESSED record (decompressed offset %#llx)",
			hdr.size, (unsigned long long)(r->dbuf_base + r->dbuf_pos));
		return -EINVAL;
	}
	if (left < hdr.size)
		return 0;
	/* records in dbuf start 8-aligned only if the writer kept them so; copy when not */
	if (((uintptr_t)p & 7) || r->hdr.needs_swap) {
		ensure_swapbuf(r, hdr.size);
		memcpy(r->swapbuf, p, hdr.size);
		p = r->swapbuf;
	}
	*evp = (union perf_event *)p;
	*offset = r->dbuf_base + r->dbuf_pos;
	r->dbuf_pos += hdr.size;
	r->in_comp = true;
	return 1;
}

static int min_size(u32 type)
{
	switch (type) {
	case PERF_RECORD_MMAP:
		return sizeof(struct perf_record_mmap);
	case PERF_RECORD_MMAP2:
		return sizeof(struct perf_record_mmap2);
	case PERF_RECORD_COMM:
		return sizeof(struct perf_record_comm);
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		return sizeof(struct perf_record_fork);
	case PERF_RECORD_LOST:
		return sizeof(struct perf_record_lost);
	case PERF_RECORD_LOST_SAMPLES:
		return sizeof(struct perf_record_lost_samples);
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		return sizeof(struct perf_record_throttle);
	case PERF_RECORD_KSYMBOL:
		return sizeof(struct perf_record_ksymbol);
	case PERF_RECORD_HEADER_ATTR:
		return 8 + PERF_ATTR_SIZE_VER0;
	case PERF_RECORD_ID_INDEX:
		return 16;
	case PERF_RECORD_HEADER_BUILD_ID:
		return sizeof(struct perf_record_header_build_id);
	case PERF_RECORD_TIME_CONV:
		return 8 + 3 * 8;
	case PERF_RECORD_HEADER_FEATURE:
		return 16;
	case PERF_RECORD_HEADER_TRACING_DATA:
		return 12;
	case PERF_RECORD_NAMESPACES:
	case PERF_RECORD_BPF_EVENT:
	case PERF_RECORD_EVENT_UPDATE:
		return 24;
	case PERF_RECORD_CGROUP:
	case PERF_RECORD_SWITCH_CPU_WIDE:
	case PERF_RECORD_ITRACE_START:
	case PERF_RECORD_AUX_OUTPUT_HW_ID:
	case PERF_RECORD_THREAD_MAP:
		return 16;
	case PERF_RECORD_AUX:
		return 32;
	case PERF_RECORD_TEXT_POKE:
		return 20;
	case PERF_RECORD_CPU_MAP:
		return 10;
	default:
		return 8;
	}
}

static int next_raw(struct data_reader *r, union perf_event **evp, u64 *offset,
		    struct data_error *err)
{
	struct perf_event_header hdr;
	const u8 *p;
	bool shrt;
	int e;

	p = peek(r, sizeof(hdr), &shrt, &e);
	if (!p) {
		if (e) {
			reader_set_err(err, r->pos, -e, "read error: %s", strerror(-e));
			return e;
		}
		if (shrt && (r->is_pipe || r->data_size_zero || r->data_cut)) {
			/* a pipe recording cut short: its complete records were read */
			reader_note_damage(r, r->pos,
				    "truncated file: a record header here is cut short by the end of the input and dropped; the records before it are read");
			return 0;
		}
		if (shrt) {
			reader_set_err(err, r->pos, EINVAL, "truncated record header at the end of the data");
			return -EINVAL;
		}
		return 0;
	}
	memcpy(&hdr, p, sizeof(hdr));
	if (r->hdr.needs_swap) {
		hdr.type = __builtin_bswap32(hdr.type);
		hdr.size = __builtin_bswap16(hdr.size);
	}
	if (hdr.size < sizeof(hdr)) {
		reader_set_err(err, r->pos, EINVAL, "record of type %u has invalid size %u", hdr.type,
			hdr.size);
		return -EINVAL;
	}
	p = peek(r, hdr.size, &shrt, &e);
	if (!p) {
		if (e) {
			reader_set_err(err, r->pos, -e, "read error: %s", strerror(-e));
			return e;
		}
		if (r->is_pipe || r->data_size_zero || r->data_cut) {
			/* the input ends inside this record: keep what came before it */
			reader_note_damage(r, r->pos,
				    "truncated file: the %s record of %u bytes here is cut short by the end of the input and dropped; the records before it are read",
				    perf_event_name(hdr.type), hdr.size);
			return 0;
		}
		reader_set_err(err, r->pos, EINVAL,
			"record of type %u and size %u runs past the end of the data (%#llx)",
			hdr.type, hdr.size,
			(unsigned long long)(r->is_stream ? r->pos : r->data_end));
		return -EINVAL;
	}
	if (hdr.size < min_size(hdr.type)) {
		reader_set_err(err, r->pos, EINVAL, "%s record of size %u is too short (at least %d)",
			perf_event_name(hdr.type), hdr.size, min_size(hdr.type));
		return -EINVAL;
	}
	*offset = r->pos;
	if (r->hdr.needs_swap || ((uintptr_t)p & 7) || r->is_stream) {
		/* unaligned (after unpadded records) or swapped or streamed: copy */
		ensure_swapbuf(r, hdr.size);
		memcpy(r->swapbuf, p, hdr.size);
		p = r->swapbuf;
	}
	*evp = (union perf_event *)p;
	advance(r, hdr.size);
	return 1;
}

static int swap_record(struct data_reader *r, union perf_event *ev, u64 off, struct data_error *err)
{
	const struct perf_event_attr *attr = NULL;
	u32 type = __builtin_bswap32(ev->header.type);

	if (type < PERF_RECORD_USER_TYPE_START && r->nr_evsels) {
		/* the id is needed before the body is swapped: find it on a swapped copy */
		struct evsel *evsel = r->evsels[0];

		if (r->nr_evsels > 1) {
			u64 id = 0;

			id_layout_find(&r->ids, ev, __builtin_bswap16(ev->header.size), type, &id);
			evsel = data_reader_evsel_for_id(r, __builtin_bswap64(id));
			if (!evsel)
				evsel = r->evsels[0];
		}
		attr = &evsel->attr;
	}
	if (perf_event_swap(ev, attr, true) < 0) {
		reader_set_err(err, off, EINVAL, "cannot byte-swap %s record", perf_event_name(type));
		return -EINVAL;
	}
	return 0;
}

/*
 * drop_consumed - a record is valid only until the next call, so the file
 * pages of the data section behind @upto are not needed again: give them
 * back every 8 MiB (they fault in again from the page cache after a
 * rewind). Peak memory then follows the reader's window, not the file size.
 * Only the main file's data section of a seekable file: pipe-format files
 * keep pointers into their mapping, and the header and features lie
 * outside the range. Records a caller keeps (data_reader_hold) keep their
 * pages: giving them back would only fault them in again.
 */
static void drop_consumed(struct data_reader *r, u64 upto)
{
	const u64 step = (u64)8 << 20;
	u64 page, from, to;

	if (r->is_pipe || r->is_stream || r->cur != r->map)
		return;
	if (upto > r->held_from)
		upto = r->held_from;
	if (upto < r->dropped_to + step)
		return;
	page = (u64)sysconf(_SC_PAGESIZE);
	from = (r->data_start + page - 1) / page * page;
	if (from < r->dropped_to)
		from = r->dropped_to;
	to = upto / page * page;
	if (to > from)
		madvise((void *)(r->map + from), to - from, MADV_DONTNEED);
	r->dropped_to = to;
}

bool data_reader_record_kept(const struct data_reader *r, const union perf_event *ev)
{
	const u8 *p = (const u8 *)ev;

	return r->map && !r->is_stream && p >= r->map && p < r->map + r->map_size;
}

void data_reader_hold(struct data_reader *r, const union perf_event *ev)
{
	r->held_from = ev && data_reader_record_kept(r, ev) ? (u64)((const u8 *)ev - r->map) : ~0ULL;
}

/*
 * next_mapped - the common case at the cost of a few compares: a whole,
 * aligned kernel record in the mapping, in host order, nothing
 * decompressed pending. 0 sends the caller down the general path.
 */
static inline int next_mapped(struct data_reader *r, union perf_event **evp, u64 *offset)
{
	struct perf_event_header hdr;
	const u8 *p;

	if (r->is_stream || r->hdr.needs_swap || r->dbuf_len > r->dbuf_pos ||
	    r->pos >= r->data_end || r->data_end - r->pos < sizeof(hdr))
		return 0;
	p = r->cur + r->pos;
	memcpy(&hdr, p, sizeof(hdr));
	if (hdr.type >= PERF_RECORD_USER_TYPE_START || ((uintptr_t)p & 7) ||
	    hdr.size > r->data_end - r->pos || hdr.size < min_size(hdr.type))
		return 0;
	*offset = r->pos;
	*evp = (union perf_event *)p;
	r->in_comp = false;
	r->pos += hdr.size;
	drop_consumed(r, *offset);
	return 1;
}

int data_reader_next(struct data_reader *r, union perf_event **evp, u64 *offset,
		     struct data_error *err)
{
	union perf_event *ev = NULL;
	int ret;

	if (next_mapped(r, evp, offset))
		return 1;
	for (;;) {
		if (r->dbuf_len > r->dbuf_pos) {
			ret = next_decompressed(r, evp, offset, err);
			if (ret < 0)
				return ret;
			if (ret > 0) {
				if (r->hdr.needs_swap && swap_record(r, *evp, r->comp_off, err))
					return -EINVAL;
				return 1;
			}
		}
		r->in_comp = false;
		ret = next_raw(r, &ev, offset, err);
		if (ret > 0)
			drop_consumed(r, *offset);
		if (ret <= 0) {
			if (ret == 0 && r->dbuf_len > r->dbuf_pos) {
				reader_set_err(err, r->comp_off, EINVAL,
					"compressed data ends in the middle of a record");
				return -EINVAL;
			}
			return ret;
		}
		if (r->hdr.needs_swap && swap_record(r, ev, *offset, err))
			return -EINVAL;
		switch (ev->header.type) {
		case PERF_RECORD_HEADER_ATTR:
			if (r->is_pipe && apply_hdr(r, *offset) && pipe_attr_record(r, ev, *offset, err))
				return -EINVAL;
			break;
		case PERF_RECORD_HEADER_FEATURE:
			if (r->is_pipe && apply_hdr(r, *offset) && pipe_feature_record(r, ev, *offset, err))
				return -EINVAL;
			break;
		case PERF_RECORD_HEADER_TRACING_DATA: {
			u32 size;
			const u8 *p;
			bool shrt;
			int e;

			memcpy(&size, (const u8 *)ev + 8, 4);
			if (r->hdr.needs_swap)
				size = __builtin_bswap32(size);
			/* the tracing data follows the record in the stream */
			if (!r->is_stream && size > r->data_end - r->pos) {
				reader_set_err(err, *offset, EINVAL,
					"tracing data of %u bytes runs past the end of the file", size);
				return -EINVAL;
			}
			if (size > (1U << 30)) {
				reader_set_err(err, *offset, EINVAL, "tracing data size %u is too large", size);
				return -EINVAL;
			}
			{
				/* keep the record: it may live in swapbuf which peek does not touch */
				u64 rec_off = *offset;
				union perf_event saved;

				memcpy(&saved, ev, MIN((size_t)ev->header.size, sizeof(saved)));
				p = peek(r, size, &shrt, &e);
				if (!p && size) {
					reader_set_err(err, rec_off, EINVAL, "tracing data is truncated");
					return -EINVAL;
				}
				if (apply_hdr(r, rec_off)) {
					free(r->hdr.tracing_data);
					r->hdr.tracing_data = size ? xmemdup(p, size) : NULL;
					r->hdr.tracing_data_size = size;
					perf_header_set_feat(&r->hdr, HEADER_TRACING_DATA);
				}
				advance(r, size);
				ensure_swapbuf(r, sizeof(saved));
				memcpy(r->swapbuf, &saved, MIN((size_t)saved.header.size, sizeof(saved)));
				ev = (union perf_event *)r->swapbuf;
			}
			break;
		}
		case PERF_RECORD_HEADER_BUILD_ID:
			/* pipe mode (perf inject): same layout as one BUILD_ID feature entry */
			if (apply_hdr(r, *offset)) {
				char msg[200];
				u64 bad = 0;

				perf_header_parse_feature(&r->hdr, HEADER_BUILD_ID, ev, ev->header.size,
							  false, msg, sizeof(msg), &bad);
				perf_header_set_feat(&r->hdr, HEADER_BUILD_ID);
			}
			break;
		case PERF_RECORD_COMPRESSED:
			r->comp_off = *offset;
			ret = decompress(r, (const u8 *)ev + 8, ev->header.size - 8, *offset, err);
			if (ret)
				return ret;
			break;
		default:
			break;
		}
		*evp = ev;
		return 1;
	}
}
