/* SPDX-License-Identifier: MIT */
/*
 * The perf_event mmap ring: one control page plus 2^n data pages that the
 * kernel fills with records. Forward rings (the kernel stops at data_tail)
 * and overwrite/backward rings (write_backward: the kernel overwrites the
 * oldest data; read after pausing). Records that wrap around the end of the
 * ring are copied into a bounce buffer so callers always see them whole.
 */
#ifndef SONDE_CORE_MMAP_H
#define SONDE_CORE_MMAP_H

#include "lib/util.h"

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>

struct evlist;

/*
 * struct perf_mmap - one ring. All positions are the kernel's free-running
 * u64 byte counters (data_head/data_tail); "& mask" turns them into offsets.
 */
struct perf_mmap {
	void *base;		/* control page (struct perf_event_mmap_page), then data */
	unsigned char *data;	/* first data byte */
	size_t map_len;		/* bytes mapped (0 for a memory ring: not unmapped) */
	u64 mask;		/* data size - 1 */
	int fd;			/* fd the ring is mapped on (others SET_OUTPUT to it) */
	int cpu;		/* cpu number, or -1 for a per-thread ring */
	int tid;		/* thread for a per-thread ring, else -1 */
	bool overwrite;		/* backward ring: read-only mapping, no data_tail */
	bool paused;		/* overwrite ring paused by perf_mmap_read_init */
	u64 prev;		/* forward: consumed position; backward: head of the last read */
	u64 start, end;		/* the window of the current read (start advances) */
	void *bounce;		/* owned: copy of a record that wraps */
	size_t bounce_size;
	u64 nr_reads;		/* read_init calls that found data ("woken up" accounting) */
};

/*
 * perf_mmap_open - map @nr_pages data pages (a power of two) on @fd.
 * Overwrite rings are mapped read-only so the kernel ignores data_tail.
 * Returns 0 or -errno (EPERM/ENOMEM when over perf_event_mlock_kb).
 */
int perf_mmap_open(struct perf_mmap *m, int fd, size_t nr_pages, bool overwrite, int cpu, int tid);

/*
 * perf_mmap_init_mem - use @base (a control page of page_size bytes then
 * @data_size bytes, a power of two) as a ring: for tests, or for rings the
 * caller maps itself. The memory stays the caller's.
 */
void perf_mmap_init_mem(struct perf_mmap *m, void *base, size_t data_size, bool overwrite);

/* perf_mmap_release - unmap and free the bounce buffer; safe on a zeroed struct. */
void perf_mmap_release(struct perf_mmap *m);

/*
 * perf_mmap_read_init - snapshot the kernel's head and set the window of
 * records to read. Overwrite rings are paused until perf_mmap_read_done.
 * Returns 0 with data, -EAGAIN when the ring is empty.
 */
int perf_mmap_read_init(struct perf_mmap *m);

/*
 * perf_mmap_read_event - the next whole record of the window, or NULL at
 * its end (or at a corrupt size). Valid until the next call. A record that
 * wraps is returned from the bounce buffer.
 */
union perf_event *perf_mmap_read_event(struct perf_mmap *m);

/*
 * perf_mmap_window - the raw bytes of the window [start, end) as one or two
 * pieces (two when it wraps). Returns the number of pieces (0 when empty).
 * For writing a ring to a file without copying each record.
 */
int perf_mmap_window(const struct perf_mmap *m, u64 start, u64 end, const void *ptr[2],
		     size_t len[2]);

/*
 * perf_mmap_read_done - give the window back to the kernel: forward rings
 * store data_tail = end; overwrite rings resume.
 */
void perf_mmap_read_done(struct perf_mmap *m);

/* perf_mmap_head - the kernel's data_head (acquire); perf_mmap_tail - data_tail. */
u64 perf_mmap_head(const struct perf_mmap *m);

/*
 * struct perf_mmap_set - the rings of a recording: one per cpu (per-cpu
 * mode), or one per thread (per-thread mode, cpus = {-1}).
 */
struct perf_mmap_set {
	struct perf_mmap *rings; /* owned */
	int nr;
};

/*
 * perf_mmap_set_open - map one ring per cpu (or per thread when the only
 * cpu is -1) over the open events of @evlist, and redirect the output of
 * every other fd on that cpu/thread into it (PERF_EVENT_IOC_SET_OUTPUT),
 * as perf does: group members and further events share their cpu's ring.
 * @fd_at(evsel, cpu_idx, thread_idx) and counts come from the caller's maps.
 * Returns 0 or -errno (then nothing stays mapped).
 */
struct evsel;
int perf_mmap_set_open(struct perf_mmap_set *set, struct evlist *evlist, int nr_cpus,
		       const int *cpus, int nr_threads, const int *tids, size_t nr_pages,
		       bool overwrite);
void perf_mmap_set_release(struct perf_mmap_set *set);

/*
 * perf_mmap_pages_parse - "-m" argument: a page count ("128") or a size
 * with suffix B/K/M/G ("512K"); rounded up to a power of two pages.
 * Returns 0 with *@pages set, -EINVAL on junk, -ERANGE when too big.
 */
int perf_mmap_pages_parse(const char *str, size_t *pages);

/*
 * perf_mmap_default_pages - perf's default: 512 KiB of data per ring
 * (perf_event_mlock_kb minus the control page), in pages, when running as
 * root; otherwise limited by the mlock budget.
 */
size_t perf_mmap_default_pages(void);

#endif
