/* SPDX-License-Identifier: MIT */
/*
 * Records synthesized by the recorder rather than the kernel: the state of
 * processes that already run (COMM, FORK, MMAP2 from /proc), the kernel and
 * module maps, and the perf-tool records of a recording's start
 * (ID_INDEX, THREAD_MAP, CPU_MAP, TIME_CONV, FINISHED_INIT, FINISHED_ROUND).
 * Each record goes to a callback; nothing is written here.
 */
#ifndef SONDE_DATA_SYNTHESIZE_H
#define SONDE_DATA_SYNTHESIZE_H

#include "data/event.h"
#include "lib/util.h"

#include <stdbool.h>
#include <sys/types.h>

struct evlist;
struct cpu_map;
struct thread_map;

/* synth_emit_fn - receives one record (valid during the call). Non-zero stops synthesis. */
typedef int synth_emit_fn(void *arg, union perf_event *ev);

/*
 * struct synth - where records go and how kernel-type records are shaped.
 * Kernel-type records (COMM, FORK, MMAP, MMAP2) get a zero-filled
 * sample_id trailer of @trailer_size bytes, as perf writes them, so that
 * every record of the file has the same trailer layout.
 */
struct synth {
	synth_emit_fn *emit;
	void *arg;
	size_t trailer_size;	/* perf_event_id_hdr_size() of the first event */
	bool mmap_data;		/* also non-executable mappings (record -d) */
	bool buildid_mmap;	/* MMAP2 with the file's build-id instead of dev/inode */
	bool namespaces;	/* NAMESPACES after each synthesized task (record --namespaces) */
	const char *proc;	/* "/proc" (a fake tree in tests) */
	void *buf;		/* owned scratch record buffer */
	u64 nr_records;		/* records emitted */
};

/* synth_init - set up @s; @proc NULL means "/proc". */
void synth_init(struct synth *s, synth_emit_fn *emit, void *arg, size_t trailer_size,
		const char *proc);
void synth_release(struct synth *s);

/*
 * synth_kernel_mmap - the MMAP of the kernel text as perf writes it:
 * pid -1, "[kernel.kallsyms]_text", start = pgoff = address of _text
 * (or _stext), len up to _etext (from /proc/iomem's "Kernel code" span, or
 * a kallsyms scan). misc = KERNEL. Returns 0, -ENOENT without kallsyms
 * addresses (kptr_restrict), or the emit result.
 */
int synth_kernel_mmap(struct synth *s);
/* synth_modules - one MMAP per /proc/modules line ("/lib/modules/.../x.ko" when found). */
int synth_modules(struct synth *s);

/*
 * synth_comm - COMM of thread @tid from /proc/TID/status (Name, Tgid).
 * *@tgid receives the thread group id. Returns 0, -ESRCH when gone.
 */
int synth_comm(struct synth *s, pid_t tid, pid_t *tgid);
/* synth_mmaps - MMAP2 for each executable mapping of @pid (all mappings with mmap_data). */
int synth_mmaps(struct synth *s, pid_t pid);
/*
 * synth_thread_map_tasks - perf's synthesis for -p/-t/workload targets:
 * COMM per thread of @threads, MMAP2s for thread-group leaders, and the
 * leader's COMM/MMAP2s when the leader is not in the map.
 */
int synth_thread_map_tasks(struct synth *s, const pid_t *tids, int nr, bool needs_mmap);
/*
 * synth_namespaces - NAMESPACES of thread @tid (net, uts, ipc, pid, user,
 * mnt, cgroup: st_dev/st_ino of /proc/TID/ns/NAME, zero when unreadable).
 */
int synth_namespaces(struct synth *s, pid_t tgid, pid_t tid);
/*
 * synth_cgroups - one CGROUP per directory of the cgroup hierarchy perf
 * uses (the v1 "perf_event" mount, else the cgroup2 mount), parent first:
 * id from name_to_handle_at, path relative to the mount ("/" for the root).
 * @mounts NULL means /proc/self/mounts. Returns 0 when none is mounted.
 */
int synth_cgroups(struct synth *s, const char *mounts);
/*
 * synth_all_tasks - perf's synthesis for -a/-C: for every process in /proc,
 * FORK + COMM for each of its threads and MMAP2s for the leader.
 */
int synth_all_tasks(struct synth *s, bool needs_mmap);
/*
 * synth_process - synth_all_tasks() for the one process @pid: FORK + COMM per
 * thread, the MMAP2s of the leader with @needs_mmap. 0 when it is gone.
 */
int synth_process(struct synth *s, pid_t pid, bool needs_mmap);

/* synth_id_index - ID_INDEX: one {id, evsel idx, cpu, tid} per open fd of @evlist. */
int synth_id_index(struct synth *s, struct evlist *evlist, const struct cpu_map *cpus,
		   const struct thread_map *threads);
/* synth_thread_map - THREAD_MAP of @threads (pid and comm). */
int synth_thread_map(struct synth *s, struct thread_map *threads);
/* synth_cpu_map - CPU_MAP of @cpus: RANGE form when contiguous (as perf), else the list. */
int synth_cpu_map(struct synth *s, const struct cpu_map *cpus);
/*
 * synth_time_conv - TIME_CONV from a ring's control page (time_shift,
 * time_mult, time_zero, cap_user_time_zero...). @pc may be NULL: all zero.
 */
int synth_time_conv(struct synth *s, const void *pc);
/* synth_header_only - a record that is only a header (FINISHED_INIT, FINISHED_ROUND). */
int synth_header_only(struct synth *s, u32 type);

/*
 * synth_event_update_name/unit/scale - EVENT_UPDATE records for the event
 * with sample id @id.
 */
int synth_event_update_unit(struct synth *s, u64 id, const char *unit);
int synth_event_update_scale(struct synth *s, u64 id, double scale);
int synth_event_update_name(struct synth *s, u64 id, const char *name);

#endif
