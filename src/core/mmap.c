/* SPDX-License-Identifier: MIT */
/* The perf_event mmap ring: head/tail protocol, wrap-around, overwrite mode, ring sets. */
#define PR_PREFIX "mmap"
#include "core/mmap.h"
#include "core/evlist.h"
#include "lib/debug.h"
#include "lib/xalloc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

static struct perf_event_mmap_page *ctl(const struct perf_mmap *m)
{
	return m->base;
}

/*
 * Barriers. The kernel writes records, then issues smp_wmb() and publishes
 * data_head (perf_output_put_handle). Our acquire load of data_head pairs
 * with that smp_wmb(): records up to head are visible once we see head.
 */
u64 perf_mmap_head(const struct perf_mmap *m)
{
	return __atomic_load_n(&ctl(m)->data_head, __ATOMIC_ACQUIRE);
}

/*
 * The kernel reads data_tail and then issues smp_mb() before it overwrites
 * anything (perf_output_begin). Our release store of data_tail orders all
 * our reads of the records before the store, pairing with that smp_mb():
 * the kernel never reuses bytes we are still reading.
 */
static void write_tail(struct perf_mmap *m, u64 tail)
{
	__atomic_store_n(&ctl(m)->data_tail, tail, __ATOMIC_RELEASE);
}

void perf_mmap_init_mem(struct perf_mmap *m, void *base, size_t data_size, bool overwrite)
{
	memset(m, 0, sizeof(*m));
	m->base = base;
	m->data = (unsigned char *)base + page_size;
	m->mask = data_size - 1;
	m->fd = -1;
	m->cpu = -1;
	m->tid = -1;
	m->overwrite = overwrite;
	/* a backward ring starts at 0 and grows down: nothing read yet */
	m->prev = overwrite ? 0 : perf_mmap_head(m);
}

int perf_mmap_open(struct perf_mmap *m, int fd, size_t nr_pages, bool overwrite, int cpu, int tid)
{
	size_t len = (nr_pages + 1) * (size_t)page_size;
	int prot = overwrite ? PROT_READ : PROT_READ | PROT_WRITE;
	void *base;

	if (!nr_pages || (nr_pages & (nr_pages - 1)))
		return -EINVAL;
	base = mmap(NULL, len, prot, MAP_SHARED, fd, 0);
	if (base == MAP_FAILED)
		return -errno;
	perf_mmap_init_mem(m, base, nr_pages * (size_t)page_size, overwrite);
	m->map_len = len;
	m->fd = fd;
	m->cpu = cpu;
	m->tid = tid;
	return 0;
}

void perf_mmap_release(struct perf_mmap *m)
{
	if (m->map_len && m->base)
		munmap(m->base, m->map_len);
	free(m->bounce);
	memset(m, 0, sizeof(*m));
	m->fd = -1;
}

static void set_paused(struct perf_mmap *m, bool pause)
{
	if (m->fd >= 0 && m->paused != pause)
		ioctl(m->fd, PERF_EVENT_IOC_PAUSE_OUTPUT, pause ? 1 : 0);
	m->paused = pause;
}

/*
 * A backward ring holds records from head upwards. Walk them to find where
 * valid data ends: at a zero header (never written), at the data of the
 * previous read, or after one full ring of bytes (older data is gone).
 */
static u64 backward_end(const struct perf_mmap *m, u64 head)
{
	/* positions wrap around 0 as the kernel counts down: compare distances */
	u64 size = m->mask + 1, done = 0, avail = size;

	/* prev is the head of the previous read (0 at start: the ring starts there) */
	if (m->prev - head <= size)
		avail = m->prev - head;
	while (done < avail) {
		const struct perf_event_header *h =
			(const void *)(m->data + ((head + done) & m->mask));
		/* a header never straddles the end: the kernel keeps 8-byte alignment */
		u16 hsize = h->size;

		if (!hsize || done + hsize > avail)
			break;
		done += hsize;
	}
	return head + done;
}

int perf_mmap_read_init(struct perf_mmap *m)
{
	u64 head;

	if (m->overwrite) {
		set_paused(m, true);
		head = perf_mmap_head(m);
		if (head == m->prev) {
			set_paused(m, false);
			return -EAGAIN;
		}
		m->start = head;
		m->end = backward_end(m, head);
		m->prev = head;
		if (m->start == m->end) {
			set_paused(m, false);
			return -EAGAIN;
		}
	} else {
		head = perf_mmap_head(m);
		if (head == m->prev)
			return -EAGAIN;
		m->start = m->prev;
		m->end = head;
		/* a consumer that fell a whole ring behind cannot happen with data_tail */
		if (m->end - m->start > m->mask + 1)
			m->start = m->end - (m->mask + 1);
	}
	m->nr_reads++;
	return 0;
}

union perf_event *perf_mmap_read_event(struct perf_mmap *m)
{
	u64 size = m->mask + 1, off;
	struct perf_event_header h;
	unsigned char *p;

	if (m->end - m->start < sizeof(h))
		return NULL;
	off = m->start & m->mask;
	p = m->data + off;
	if (off + sizeof(h) <= size) {
		memcpy(&h, p, sizeof(h));
	} else {
		size_t first = size - off;

		memcpy(&h, p, first);
		memcpy((char *)&h + first, m->data, sizeof(h) - first);
	}
	if (h.size < sizeof(h) || h.size > m->end - m->start)
		return NULL;
	if (off + h.size > size) {
		/* the record wraps: hand out a whole copy */
		size_t first = size - off;

		if (m->bounce_size < h.size) {
			m->bounce = xrealloc(m->bounce, h.size);
			m->bounce_size = h.size;
		}
		memcpy(m->bounce, p, first);
		memcpy((char *)m->bounce + first, m->data, h.size - first);
		p = m->bounce;
	}
	m->start += h.size;
	return (union perf_event *)p;
}

int perf_mmap_window(const struct perf_mmap *m, u64 start, u64 end, const void *ptr[2],
		     size_t len[2])
{
	u64 size = m->mask + 1, off = start & m->mask, n = end - start;

	if (!n)
		return 0;
	ptr[0] = m->data + off;
	if (off + n <= size) {
		len[0] = n;
		return 1;
	}
	len[0] = size - off;
	ptr[1] = m->data;
	len[1] = n - len[0];
	return 2;
}

void perf_mmap_read_done(struct perf_mmap *m)
{
	if (m->overwrite) {
		/* prev (set by read_init) makes the next read stop where this one began */
		set_paused(m, false);
		return;
	}
	m->prev = m->end;
	write_tail(m, m->end);
}

/* ---- ring sets ---- */

static int fd_of(struct evsel *evsel, int nr_threads, int cpu_idx, int thread_idx)
{
	if (!evsel->fd)
		return -1;
	return evsel->fd[cpu_idx * nr_threads + thread_idx];
}

/* map or redirect every fd at (cpu_idx, thread_idx) into @ring_fd, mapping the first */
static int attach_fds(struct perf_mmap_set *set, struct evlist *evlist, int nr_threads,
		      int cpu_idx, int thread_idx, int *ring_fd, size_t nr_pages, bool overwrite,
		      int cpu, int tid)
{
	struct evsel *evsel;

	evlist_for_each_entry(evlist, evsel) {
		int fd = fd_of(evsel, nr_threads, cpu_idx, thread_idx);

		if (fd < 0 || evsel->is_tool_event)
			continue;
		if (*ring_fd < 0) {
			struct perf_mmap *m = &set->rings[set->nr];
			int err = perf_mmap_open(m, fd, nr_pages, overwrite, cpu, tid);

			if (err)
				return err;
			set->nr++;
			*ring_fd = fd;
		} else if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, *ring_fd)) {
			return -errno;
		}
	}
	return 0;
}

int perf_mmap_set_open(struct perf_mmap_set *set, struct evlist *evlist, int nr_cpus,
		       const int *cpus, int nr_threads, const int *tids, size_t nr_pages,
		       bool overwrite)
{
	bool per_thread = nr_cpus == 1 && cpus[0] == -1;
	int err = 0;

	set->nr = 0;
	set->rings = xcalloc(per_thread ? nr_threads : nr_cpus, sizeof(*set->rings));
	if (per_thread) {
		/* one ring per thread; events of the same thread share it */
		for (int t = 0; t < nr_threads && !err; t++) {
			int ring_fd = -1;

			err = attach_fds(set, evlist, nr_threads, 0, t, &ring_fd, nr_pages, overwrite,
					 -1, tids ? tids[t] : -1);
		}
	} else {
		/* one ring per cpu; every thread and event on that cpu writes into it */
		for (int c = 0; c < nr_cpus && !err; c++) {
			int ring_fd = -1;

			for (int t = 0; t < nr_threads && !err; t++)
				err = attach_fds(set, evlist, nr_threads, c, t, &ring_fd, nr_pages,
						 overwrite, cpus[c], -1);
		}
	}
	if (err)
		perf_mmap_set_release(set);
	return err;
}

void perf_mmap_set_release(struct perf_mmap_set *set)
{
	for (int i = 0; i < set->nr; i++)
		perf_mmap_release(&set->rings[i]);
	free(set->rings);
	set->rings = NULL;
	set->nr = 0;
}

int perf_mmap_pages_parse(const char *str, size_t *pages)
{
	char *end;
	unsigned long long v;
	u64 bytes = 0;

	if (!str || !*str)
		return -EINVAL;
	errno = 0;
	v = strtoull(str, &end, 0);
	if (errno || end == str)
		return -EINVAL;
	if (*end) {
		u64 mult;

		switch (*end) {
		case 'B': case 'b': mult = 1; break;
		case 'K': case 'k': mult = 1ULL << 10; break;
		case 'M': case 'm': mult = 1ULL << 20; break;
		case 'G': case 'g': mult = 1ULL << 30; break;
		default: return -EINVAL;
		}
		if (end[1])
			return -EINVAL;
		bytes = v * mult;
		v = (bytes + page_size - 1) / page_size;
	}
	if (!v)
		return -EINVAL;
	if (v > (1ULL << 31))
		return -ERANGE;
	/* round up to a power of two, as the kernel requires */
	{
		u64 p = 1;

		while (p < v)
			p <<= 1;
		v = p;
	}
	*pages = v;
	return 0;
}

size_t perf_mmap_default_pages(void)
{
	long long mlock_kb = 516;
	size_t pages = 512 * 1024 / page_size, max;

	read_sysfs_int("/proc/sys/kernel/perf_event_mlock_kb", &mlock_kb);
	/* the budget covers the control page too */
	max = mlock_kb * 1024 / page_size;
	max = max > 1 ? max - 1 : 1;
	if (pages > max)
		pages = max;
	/* power of two, rounding down */
	while (pages & (pages - 1))
		pages &= pages - 1;
	return pages;
}
