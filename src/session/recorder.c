/* SPDX-License-Identifier: MIT */
/* Recording data path: rings -> writer, sample/lost accounting, DSO hits for build-ids. */
#define PR_PREFIX "recorder"
#include "session/recorder.h"
#include "core/cpumap.h"
#include "core/evlist.h"
#include "core/evsel.h"
#include "core/threadmap.h"
#include "data/writer.h"
#include "lib/debug.h"
#include "lib/xalloc.h"
#include "symbol/elf.h"

#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

/* the executable mappings of one process, newest last */
struct rmap {
	u64 start, end;
	struct recorder_dso *dso;
};

struct recorder_maps {
	struct rmap *v;
	int nr, alloc;
};

void recorder_init(struct recorder *r, struct data_writer *w, struct perf_mmap_set *rings,
		   struct evlist *evlist, bool track_hits)
{
	struct evsel *evsel;

	memset(r, 0, sizeof(*r));
	r->w = w;
	r->rings = rings;
	r->track_hits = track_hits;
	u64map_init(&r->type_by_id);
	u64map_init(&r->maps_by_pid);
	u64map_init(&r->dso_by_name);
	strpool_init(&r->names);
	evsel = evlist_first(evlist);
	if (evsel) {
		r->sample_type = evsel->attr.sample_type;
		r->has_identifier = !!(r->sample_type & PERF_SAMPLE_IDENTIFIER);
	}
	evlist_for_each_entry(evlist, evsel) {
		int nr = evlist->cpus && evlist->threads ? evlist->cpus->nr * evlist->threads->nr : 0;

		if (!evsel->ids)
			continue;
		for (int i = 0; i < nr; i++)
			if (evsel->fd && evsel->fd[i] >= 0)
				u64map_set(&r->type_by_id, evsel->ids[i],
					   (void *)(uintptr_t)(evsel->attr.sample_type | 1ULL << 63));
	}
}

static int free_maps(uint64_t key, void *val, void *arg)
{
	struct recorder_maps *m = val;

	(void)key;
	(void)arg;
	free(m->v);
	free(m);
	return 0;
}

void recorder_release(struct recorder *r)
{
	u64map_for_each(&r->maps_by_pid, free_maps, NULL);
	u64map_release(&r->maps_by_pid);
	u64map_release(&r->type_by_id);
	u64map_release(&r->dso_by_name);
	for (int i = 0; i < r->nr_dsos; i++)
		free(r->dsos[i]);
	free(r->dsos);
	strpool_release(&r->names);
	free(r->linear);
}

/* ---- map tracking ---- */

static struct recorder_dso *dso_findnew(struct recorder *r, const char *name, u16 cpumode)
{
	const char *iname = strpool_intern(&r->names, name);
	struct recorder_dso *dso = u64map_find(&r->dso_by_name, (uintptr_t)iname);

	if (dso)
		return dso;
	dso = xzalloc(sizeof(*dso));
	dso->name = iname;
	dso->cpumode = cpumode;
	if (r->nr_dsos == r->alloc_dsos) {
		r->alloc_dsos = r->alloc_dsos ? r->alloc_dsos * 2 : 16;
		r->dsos = xreallocarray(r->dsos, r->alloc_dsos, sizeof(*r->dsos));
	}
	r->dsos[r->nr_dsos++] = dso;
	u64map_set(&r->dso_by_name, (uintptr_t)iname, dso);
	return dso;
}

static struct recorder_maps *maps_findnew(struct recorder *r, u32 pid)
{
	struct recorder_maps *m = u64map_find(&r->maps_by_pid, pid);

	if (!m) {
		m = xzalloc(sizeof(*m));
		u64map_set(&r->maps_by_pid, pid, m);
	}
	return m;
}

static void maps_add(struct recorder_maps *m, u64 start, u64 len, struct recorder_dso *dso)
{
	if (m->nr == m->alloc) {
		m->alloc = m->alloc ? m->alloc * 2 : 16;
		m->v = xreallocarray(m->v, m->alloc, sizeof(*m->v));
	}
	m->v[m->nr++] = (struct rmap){ start, start + len, dso };
}

static void track_mmap(struct recorder *r, u32 pid, u64 start, u64 len, const char *name,
		       u16 misc)
{
	u16 cpumode = misc & PERF_RECORD_MISC_CPUMODE_MASK;

	if (misc & PERF_RECORD_MISC_MMAP_DATA)
		return;
	if (cpumode == PERF_RECORD_MISC_KERNEL || pid == (u32)-1) {
		/* "[kernel.kallsyms]_text" names the kernel dso "[kernel.kallsyms]" */
		if (!strncmp(name, "[kernel.kallsyms]", 17)) {
			r->kernel = dso_findnew(r, "[kernel.kallsyms]", PERF_RECORD_MISC_KERNEL);
			return;
		}
		maps_add(maps_findnew(r, (u32)-1), start, len,
			 dso_findnew(r, name, PERF_RECORD_MISC_KERNEL));
		return;
	}
	maps_add(maps_findnew(r, pid), start, len, dso_findnew(r, name, PERF_RECORD_MISC_USER));
}

static void track_fork(struct recorder *r, u32 pid, u32 ppid)
{
	struct recorder_maps *parent, *child;

	if (pid == ppid)
		return; /* a new thread shares its process's maps */
	parent = u64map_find(&r->maps_by_pid, ppid);
	child = maps_findnew(r, pid);
	child->nr = 0;
	if (parent)
		for (int i = 0; i < parent->nr; i++)
			maps_add(child, parent->v[i].start, parent->v[i].end - parent->v[i].start,
				 parent->v[i].dso);
}

static void mark_hit(struct recorder *r, u32 pid, u64 ip, u16 cpumode)
{
	struct recorder_maps *m;

	if (cpumode == PERF_RECORD_MISC_KERNEL) {
		m = u64map_find(&r->maps_by_pid, (u32)-1);
		if (m)
			for (int i = 0; i < m->nr; i++)
				if (ip >= m->v[i].start && ip < m->v[i].end) {
					m->v[i].dso->hit = true;
					return;
				}
		if (r->kernel)
			r->kernel->hit = true;
		return;
	}
	m = u64map_find(&r->maps_by_pid, pid);
	if (!m)
		return;
	/* newest mappings win, as a later mmap hides an older one */
	for (int i = m->nr - 1; i >= 0; i--)
		if (ip >= m->v[i].start && ip < m->v[i].end) {
			m->v[i].dso->hit = true;
			return;
		}
}

/* ---- per-record accounting ---- */

static u64 sample_type_of(struct recorder *r, const union perf_event *ev)
{
	if (r->has_identifier && ev->header.size >= 16) {
		u64 id = *(const u64 *)((const char *)ev + 8);
		void *v = u64map_find(&r->type_by_id, id);

		if (v)
			return (u64)(uintptr_t)v & ~(1ULL << 63);
	}
	return r->sample_type;
}

static void account_sample(struct recorder *r, const union perf_event *ev)
{
	u64 st = sample_type_of(r, ev);
	const u64 *p = (const u64 *)((const char *)ev + sizeof(ev->header));
	const u64 *end = (const u64 *)((const char *)ev + ev->header.size);
	u64 ip = 0;
	u32 pid = 0;

	r->nr_samples++;
	if (st & PERF_SAMPLE_IDENTIFIER)
		p++;
	if (st & PERF_SAMPLE_IP)
		ip = p < end ? *p++ : 0;
	if (st & PERF_SAMPLE_TID)
		pid = p < end ? (u32)*p++ : 0;
	if ((st & PERF_SAMPLE_TIME) && p < end) {
		u64 t = *p;

		if (!r->first_time || t < r->first_time)
			r->first_time = t;
		if (t > r->last_time)
			r->last_time = t;
	}
	if (r->track_hits)
		mark_hit(r, pid, ip, ev->header.misc & PERF_RECORD_MISC_CPUMODE_MASK);
}

static void account(struct recorder *r, const union perf_event *ev)
{
	r->nr_events++;
	switch (ev->header.type) {
	case PERF_RECORD_SAMPLE:
		account_sample(r, ev);
		break;
	case PERF_RECORD_MMAP:
		if (r->track_hits)
			track_mmap(r, ev->mmap.pid, ev->mmap.start, ev->mmap.len, ev->mmap.filename,
				   ev->header.misc);
		break;
	case PERF_RECORD_MMAP2:
		if (r->track_hits)
			track_mmap(r, ev->mmap2.pid, ev->mmap2.start, ev->mmap2.len,
				   ev->mmap2.filename, ev->header.misc);
		break;
	case PERF_RECORD_FORK:
		if (r->track_hits)
			track_fork(r, ev->fork.pid, ev->fork.ppid);
		break;
	case PERF_RECORD_COMM:
		/* exec replaces the address space */
		if (r->track_hits && (ev->header.misc & PERF_RECORD_MISC_COMM_EXEC)) {
			struct recorder_maps *m = u64map_find(&r->maps_by_pid, ev->comm.pid);

			if (m)
				m->nr = 0;
		}
		break;
	case PERF_RECORD_LOST:
		r->nr_lost_records++;
		r->nr_lost += ev->lost.lost;
		break;
	default:
		break;
	}
}

int recorder_write_synth(void *arg, union perf_event *ev)
{
	struct recorder *r = arg;

	account(r, ev);
	return data_writer_write(r->w, ev, ev->header.size);
}

static int read_ring(struct recorder *r, struct perf_mmap *m)
{
	union perf_event *ev;
	const void *ptr[2];
	size_t len[2];
	u64 start, end, ring_end;
	int n, err;

	if (perf_mmap_read_init(m))
		return 0;
	start = m->start;
	end = m->end;
	/* account first: read_event walks the same window without consuming it */
	while ((ev = perf_mmap_read_event(m)))
		account(r, ev);
	/*
	 * A corrupt size stops the walk: write only the whole records seen,
	 * and give the rest of the window back so the ring cannot get stuck.
	 */
	if (m->start != end)
		pr_debug("ring %d: bad record at %llu in [%llu, %llu), %llu bytes dropped\n", m->cpu,
			 (unsigned long long)m->start, (unsigned long long)start,
			 (unsigned long long)end, (unsigned long long)(end - m->start));
	ring_end = end;
	end = m->start;
	n = perf_mmap_window(m, start, end, ptr, len);
	if (n == 2) {
		/* the writer wants whole records per call: join the two pieces */
		if (r->linear_size < len[0] + len[1]) {
			r->linear_size = len[0] + len[1];
			r->linear = xrealloc(r->linear, r->linear_size);
		}
		memcpy(r->linear, ptr[0], len[0]);
		memcpy((char *)r->linear + len[0], ptr[1], len[1]);
		err = data_writer_write_ring(r->w, r->linear, len[0] + len[1]);
	} else if (n == 1) {
		err = data_writer_write_ring(r->w, ptr[0], len[0]);
	} else {
		err = 0;
	}
	r->bytes_read += end - start;
	m->end = ring_end;
	perf_mmap_read_done(m);
	r->nr_chunks++;
	return err ? err : 1;
}

int recorder_read_rings(struct recorder *r, int *nr_read)
{
	*nr_read = 0;
	for (int i = 0; i < r->rings->nr; i++) {
		int ret = read_ring(r, &r->rings->rings[i]);

		if (ret < 0)
			return ret;
		*nr_read += ret;
	}
	return 0;
}

/*
 * LOST_SAMPLES records for every fd whose PERF_FORMAT_LOST count is not
 * zero, with the sample_id trailer of its event, as perf writes at the end.
 */
int recorder_write_lost_samples(struct recorder *r, struct evlist *evlist)
{
	struct evsel *evsel;
	int ncpu = evlist->cpus->nr, nthr = evlist->threads->nr;

	evlist_for_each_entry(evlist, evsel) {
		u64 rf = evsel->attr.read_format, st = evsel->attr.sample_type;

		if (!evsel->fd || !(rf & PERF_FORMAT_LOST) || (rf & PERF_FORMAT_GROUP))
			continue;
		for (int c = 0; c < ncpu; c++) {
			for (int t = 0; t < nthr; t++) {
				int i = c * nthr + t;
				u64 v[8], rec_buf[16], *p, id = 0, lost;
				int n = 1, err;

				if (evsel->fd[i] < 0 || read(evsel->fd[i], v, sizeof(v)) <= 0)
					continue;
				n += !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED);
				n += !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING);
				if (rf & PERF_FORMAT_ID)
					id = v[n++];
				lost = v[n];
				if (!lost)
					continue;
				memset(rec_buf, 0, sizeof(rec_buf));
				rec_buf[1] = lost;
				p = &rec_buf[2];
				if (st & PERF_SAMPLE_TID)
					*p++ = (u64)(u32)evlist->threads->pids[t] |
					       (u64)(u32)evlist->threads->pids[t] << 32;
				if (st & PERF_SAMPLE_TIME)
					*p++ = 0;
				if (st & PERF_SAMPLE_ID)
					*p++ = id;
				if (st & PERF_SAMPLE_STREAM_ID)
					*p++ = 0;
				if (st & PERF_SAMPLE_CPU)
					*p++ = (u32)evlist->cpus->map[c];
				if (st & PERF_SAMPLE_IDENTIFIER)
					*p++ = id;
				{
					struct perf_event_header h = {
						.type = PERF_RECORD_LOST_SAMPLES,
						.size = (u16)((char *)p - (char *)rec_buf),
					};

					memcpy(rec_buf, &h, sizeof(h));
				}
				r->nr_lost_samples += lost;
				r->nr_events++;
				err = data_writer_write(r->w, rec_buf, (char *)p - (char *)rec_buf);
				if (err)
					return err;
			}
		}
	}
	return 0;
}

/* ---- build-ids ---- */

static int vdso_build_id(u8 *bid)
{
	unsigned long base = getauxval(AT_SYSINFO_EHDR);

	if (!base)
		return -ENOENT;
	/* the vdso image is one or two pages; the notes sit in the first */
	return buildid_read_mem((const void *)base, 2 * 4096, bid, 20);
}

/* the size of this process's vdso mapping (the image perf caches), 0 when unknown */
static size_t vdso_size(void)
{
	FILE *f = fopen("/proc/self/maps", "re");
	char line[512];
	size_t size = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;

		if (strstr(line, "[vdso]") && sscanf(line, "%lx-%lx", &lo, &hi) == 2 && hi > lo) {
			size = hi - lo;
			break;
		}
	}
	fclose(f);
	return size;
}

/*
 * cache_vdso - the vdso into the cache as perf puts it ([vdso]/<hex>/vdso):
 * the image of this process's vdso, the same kernel's as the workload's
 * (its build-id was just read from it), through a temporary file
 */
static void cache_vdso(const struct recorder *r, const u8 *bid, int len)
{
	unsigned long base = getauxval(AT_SYSINFO_EHDR);
	size_t size = vdso_size();
	char tmp[] = "/tmp/sonde-vdso.XXXXXX";
	int fd;

	if (!base || !size || size > (1u << 20))
		return;
	fd = mkstemp(tmp);
	if (fd < 0)
		return;
	if (write_full(fd, (const void *)base, size) == 0 && close(fd) == 0)
		buildid_cache_add(r->buildid_cache, "[vdso]", tmp, bid, (size_t)len);
	else
		close(fd);
	unlink(tmp);
}

/*
 * Put one DSO in the build-id cache unless its .build-id link is already
 * there: one lstat per DSO in the common case, a hard link (or a copy)
 * the first time. The vdso is written from this process's image, as perf
 * does, so that perf report resolves [vdso] symbols of the file.
 */
static void cache_build_id(const struct recorder *r, const struct recorder_dso *dso,
			   const u8 *bid, int len)
{
	char hex[2 * 20 + 1], path[4096];
	struct stat st;

	if (!r->buildid_cache)
		return;
	for (int i = 0; i < len; i++)
		snprintf(hex + 2 * i, 3, "%02x", bid[i]);
	snprintf(path, sizeof(path), "%s/.build-id/%.2s/%s", r->buildid_cache, hex, hex + 2);
	if (!lstat(path, &st))
		return;
	if (!strcmp(dso->name, "[vdso]"))
		cache_vdso(r, bid, len);
	else if (dso == r->kernel)
		buildid_cache_add(r->buildid_cache, "[kernel.kallsyms]", "/proc/kallsyms", bid,
				  (size_t)len);
	else
		buildid_cache_add(r->buildid_cache, dso->name, NULL, bid, (size_t)len);
}

int recorder_add_build_ids(struct recorder *r)
{
	int added = 0;

	for (int i = 0; i < r->nr_dsos; i++) {
		struct recorder_dso *dso = r->dsos[i];
		u8 bid[20];
		int len;

		/* perf writes the vdso whenever it was mapped, hit or not */
		if (!dso->hit && !r->buildid_all && strcmp(dso->name, "[vdso]"))
			continue;
		if (dso == r->kernel)
			len = buildid_read_kernel(bid, sizeof(bid));
		else if (!strcmp(dso->name, "[vdso]"))
			len = vdso_build_id(bid);
		else if (dso->name[0] == '/')
			len = buildid_read_path(dso->name, bid, sizeof(bid));
		else
			continue; /* //anon, [vsyscall], [stack]: no build-id */
		if (len <= 0)
			continue;
		data_writer_add_build_id(r->w, -1, dso->cpumode, bid, (u8)len, dso->name);
		cache_build_id(r, dso, bid, len);
		added++;
	}
	return added;
}
