/* SPDX-License-Identifier: MIT */
/* Synthesized records: /proc state of running processes, kernel maps, recording set-up records. */
#define PR_PREFIX "synth"
#include "data/synthesize.h"
#include "core/cpumap.h"
#include "core/evlist.h"
#include "core/evsel.h"
#include "core/threadmap.h"
#include "lib/debug.h"
#include "lib/xalloc.h"
#include "symbol/elf.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* big enough for any synthesized record: MMAP2 with a PATH_MAX name plus trailer */
#define SYNTH_BUF_SIZE (64 * 1024)

void synth_init(struct synth *s, synth_emit_fn *emit, void *arg, size_t trailer_size,
		const char *proc)
{
	memset(s, 0, sizeof(*s));
	s->emit = emit;
	s->arg = arg;
	s->trailer_size = trailer_size;
	s->proc = proc ? proc : "/proc";
	s->buf = xzalloc(SYNTH_BUF_SIZE);
}

void synth_release(struct synth *s)
{
	free(s->buf);
	s->buf = NULL;
}

static int emit(struct synth *s, union perf_event *ev)
{
	s->nr_records++;
	return s->emit(s->arg, ev);
}

/* start a kernel-type record in the scratch buffer, zeroed up to @body + trailer */
static union perf_event *start_record(struct synth *s, u32 type, u16 misc, size_t body)
{
	union perf_event *ev = s->buf;
	size_t size = body + s->trailer_size;

	memset(ev, 0, size);
	ev->header.type = type;
	ev->header.misc = misc;
	ev->header.size = (u16)size;
	return ev;
}

/* ---- kernel ---- */

/* _text (or _stext) and _etext from kallsyms; stops early once both are known */
static int kallsyms_text(u64 *text, u64 *etext, bool need_end)
{
	FILE *f = fopen("/proc/kallsyms", "re");
	char line[512];
	u64 stext = 0;

	*text = *etext = 0;
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long addr;
		char type, name[256];

		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3)
			continue;
		if (!strcmp(name, "_text"))
			*text = addr;
		else if (!strcmp(name, "_stext"))
			stext = addr;
		else if (!strcmp(name, "_etext"))
			*etext = addr;
		if (*text && (!need_end || *etext))
			break;
		/* _text sits in the first lines; give up on it after those */
	}
	fclose(f);
	if (!*text)
		*text = stext;
	/* kptr_restrict shows zeros */
	return *text ? 0 : -ENOENT;
}

/* the span of "Kernel code" in /proc/iomem equals _etext - _text */
static u64 iomem_kernel_code_len(void)
{
	FILE *f = fopen("/proc/iomem", "re");
	char line[256];
	u64 len = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long a, b;

		if (strstr(line, ": Kernel code") && sscanf(line, " %llx-%llx", &a, &b) == 2) {
			/* all zeros without CAP_SYS_ADMIN */
			if (b > a)
				len = b - a + 1;
			break;
		}
	}
	fclose(f);
	return len;
}

int synth_kernel_mmap(struct synth *s)
{
	static const char name[] = "[kernel.kallsyms]_text";
	size_t nlen = PERF_ALIGN(sizeof(name), 8);
	union perf_event *ev;
	u64 text, etext, len;
	int err;

	len = iomem_kernel_code_len();
	err = kallsyms_text(&text, &etext, !len);
	if (err)
		return err;
	if (!len)
		len = etext > text ? etext - text : 0;
	ev = start_record(s, PERF_RECORD_MMAP, PERF_RECORD_MISC_KERNEL,
			  sizeof(struct perf_record_mmap) + nlen);
	ev->mmap.pid = (u32)-1;
	ev->mmap.tid = 0;
	ev->mmap.start = text;
	ev->mmap.len = len;
	ev->mmap.pgoff = text;
	memcpy(ev->mmap.filename, name, sizeof(name));
	return emit(s, ev);
}

int synth_modules(struct synth *s)
{
	FILE *f = fopen("/proc/modules", "re");
	char line[1024];
	int err = 0;

	if (!f)
		return 0; /* no modules on this kernel */
	while (!err && fgets(line, sizeof(line), f)) {
		char mod[256], path[512];
		unsigned long long size, addr;
		union perf_event *ev;
		size_t nlen;

		if (sscanf(line, "%255s %llu %*s %*s %*s %llx", mod, &size, &addr) != 3 || !addr)
			continue;
		/* perf names module maps by their .ko path when it can find it; "[name]" otherwise */
		snprintf(path, sizeof(path), "[%s]", mod);
		nlen = PERF_ALIGN(strlen(path) + 1, 8);
		ev = start_record(s, PERF_RECORD_MMAP, PERF_RECORD_MISC_KERNEL,
				  sizeof(struct perf_record_mmap) + nlen);
		ev->mmap.pid = (u32)-1;
		ev->mmap.start = addr;
		ev->mmap.len = size;
		ev->mmap.pgoff = 0;
		strcpy(ev->mmap.filename, path);
		err = emit(s, ev);
	}
	fclose(f);
	return err;
}

/* ---- tasks ---- */

struct task_status {
	char name[16];
	pid_t tgid, ppid;
};

static int read_status(struct synth *s, pid_t pid, pid_t tid, struct task_status *st)
{
	char path[64], buf[2048];
	int fd;
	ssize_t n;
	char *p;

	if (pid > 0 && pid != tid)
		snprintf(path, sizeof(path), "%s/%d/task/%d/status", s->proc, pid, tid);
	else
		snprintf(path, sizeof(path), "%s/%d/status", s->proc, tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -ESRCH;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -ESRCH;
	buf[n] = 0;
	memset(st, 0, sizeof(*st));
	st->tgid = tid;
	for (p = buf; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		if (!strncmp(p, "Name:", 5)) {
			char *v = p + 5, *e;

			while (*v == ' ' || *v == '\t')
				v++;
			e = strchr(v, '\n');
			size_t len = e ? (size_t)(e - v) : strlen(v);
			if (len > 15)
				len = 15;
			memcpy(st->name, v, len);
			st->name[len] = 0;
		} else if (!strncmp(p, "Tgid:", 5)) {
			st->tgid = atoi(p + 5);
		} else if (!strncmp(p, "PPid:", 5)) {
			st->ppid = atoi(p + 5);
			break; /* PPid follows Name and Tgid */
		}
	}
	return 0;
}

static int emit_comm(struct synth *s, pid_t tgid, pid_t tid, const char *name)
{
	size_t nlen = PERF_ALIGN(strlen(name) + 1, 8);
	union perf_event *ev = start_record(s, PERF_RECORD_COMM, 0,
					    sizeof(struct perf_record_comm) + nlen);

	ev->comm.pid = tgid;
	ev->comm.tid = tid;
	strcpy(ev->comm.comm, name);
	return emit(s, ev);
}

int synth_comm(struct synth *s, pid_t tid, pid_t *tgid)
{
	struct task_status st;
	int err = read_status(s, 0, tid, &st);

	if (err)
		return err;
	if (tgid)
		*tgid = st.tgid;
	return emit_comm(s, st.tgid, tid, st.name);
}

static unsigned int prot_of(const char *perms)
{
	unsigned int prot = 0;

	if (perms[0] == 'r')
		prot |= PROT_READ;
	if (perms[1] == 'w')
		prot |= PROT_WRITE;
	if (perms[2] == 'x')
		prot |= PROT_EXEC;
	return prot;
}

int synth_mmaps(struct synth *s, pid_t pid)
{
	char path[64], line[4096 + 256];
	FILE *f;
	int err = 0;

	snprintf(path, sizeof(path), "%s/%d/maps", s->proc, pid);
	f = fopen(path, "re");
	if (!f)
		return 0; /* gone, or a kernel thread without maps */
	while (!err && fgets(line, sizeof(line), f)) {
		unsigned long long start, end, pgoff, ino;
		unsigned int maj, min;
		char perms[8];
		int name_off = 0;
		const char *name;
		union perf_event *ev;
		size_t nlen;
		u16 misc = PERF_RECORD_MISC_USER;

		if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %n", &start, &end, perms, &pgoff,
			   &maj, &min, &ino, &name_off) < 7)
			continue;
		if (perms[2] != 'x') {
			if (!s->mmap_data)
				continue;
			misc |= PERF_RECORD_MISC_MMAP_DATA;
		}
		name = line + name_off;
		line[strcspn(line, "\n")] = 0;
		if (!*name) {
			if (perms[2] != 'x')
				continue; /* anonymous data: perf skips it */
			name = "//anon";
		}
		nlen = PERF_ALIGN(strlen(name) + 1, 8);
		ev = start_record(s, PERF_RECORD_MMAP2, misc,
				  sizeof(struct perf_record_mmap2) + nlen);
		ev->mmap2.pid = pid;
		ev->mmap2.tid = pid;
		ev->mmap2.start = start;
		ev->mmap2.len = end - start;
		ev->mmap2.pgoff = pgoff;
		ev->mmap2.maj = maj;
		ev->mmap2.min = min;
		ev->mmap2.ino = ino;
		ev->mmap2.ino_generation = 0;
		if (s->buildid_mmap && name[0] == '/') {
			u8 bid[20];
			int n = buildid_read_path(name, bid, sizeof(bid));

			if (n > 0) {
				/* the build-id replaces maj/min/ino in the record */
				memset(&ev->mmap2.maj, 0, 24);
				ev->mmap2.build_id_size = (u8)n;
				memcpy(ev->mmap2.build_id, bid, n);
				ev->header.misc |= PERF_RECORD_MISC_MMAP_BUILD_ID;
			}
		}
		ev->mmap2.prot = prot_of(perms);
		ev->mmap2.flags = perms[3] == 's' ? MAP_SHARED : MAP_PRIVATE;
		strcpy(ev->mmap2.filename, name);
		err = emit(s, ev);
	}
	fclose(f);
	return err;
}

int synth_namespaces(struct synth *s, pid_t tgid, pid_t tid)
{
	/* the kernel's order (NET_NS_INDEX .. CGROUP_NS_INDEX) */
	static const char *const names[] = { "net", "uts", "ipc", "pid", "user", "mnt", "cgroup" };
	const size_t nr = sizeof(names) / sizeof(names[0]);
	size_t body = 8 + 8 + 8 + nr * 16;
	union perf_event *ev = start_record(s, PERF_RECORD_NAMESPACES, 0, body);
	u8 *p = (u8 *)ev + 8;
	u32 ids[2] = { (u32)tgid, (u32)tid };
	u64 n = nr;

	memcpy(p, ids, 8);
	memcpy(p + 8, &n, 8);
	for (size_t i = 0; i < nr; i++) {
		char path[128];
		struct stat st;
		u64 link[2] = { 0, 0 };

		snprintf(path, sizeof(path), "%s/%d/ns/%s", s->proc, tid, names[i]);
		if (!stat(path, &st)) {
			link[0] = st.st_dev;
			link[1] = st.st_ino;
		}
		memcpy(p + 16 + i * 16, link, 16);
	}
	return emit(s, ev);
}

static int emit_cgroup(struct synth *s, const char *path, const char *rel)
{
	struct {
		struct file_handle fh;
		u8 buf[64];
	} h;
	union perf_event *ev;
	size_t len;
	int mount_id;
	u64 id;

	h.fh.handle_bytes = sizeof(h.buf);
	if (name_to_handle_at(AT_FDCWD, path, &h.fh, &mount_id, 0) || h.fh.handle_bytes < 8)
		return 0; /* perf skips what it cannot identify */
	memcpy(&id, h.fh.f_handle, 8);
	if (!*rel)
		rel = "/";
	len = PERF_ALIGN(strlen(rel) + 1, 8);
	if (8 + 8 + len + s->trailer_size > SYNTH_BUF_SIZE)
		return 0;
	ev = start_record(s, PERF_RECORD_CGROUP, 0, 8 + 8 + len);
	memcpy((u8 *)ev + 8, &id, 8);
	memcpy((u8 *)ev + 16, rel, strlen(rel));
	return emit(s, ev);
}

/* the directory itself, then each subdirectory in readdir order, as perf walks */
static int walk_cgroups(struct synth *s, char *path, size_t cap, size_t mount_len, int depth)
{
	size_t len = strlen(path);
	struct dirent *d;
	DIR *dir;
	int err;

	err = emit_cgroup(s, path, path + mount_len);
	if (err || depth > 64)
		return err;
	dir = opendir(path);
	if (!dir)
		return 0;
	while (!err && (d = readdir(dir))) {
		if (d->d_type != DT_DIR || !strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
			continue;
		if (len + 1 + strlen(d->d_name) + 1 > cap)
			continue;
		snprintf(path + len, cap - len, "/%s", d->d_name);
		err = walk_cgroups(s, path, cap, mount_len, depth + 1);
		path[len] = 0;
	}
	closedir(dir);
	return err;
}

int synth_cgroups(struct synth *s, const char *mounts)
{
	char line[4096], v1[PATH_MAX] = "", v2[PATH_MAX] = "";
	FILE *f = fopen(mounts ? mounts : "/proc/self/mounts", "re");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char dev[256], dir[PATH_MAX], type[64], opts[1024];

		if (sscanf(line, "%255s %4095s %63s %1023s", dev, dir, type, opts) != 4)
			continue;
		if (!strcmp(type, "cgroup2") && !v2[0]) {
			snprintf(v2, sizeof(v2), "%s", dir);
		} else if (!strcmp(type, "cgroup")) {
			char *tok, *save = NULL;

			for (tok = strtok_r(opts, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
				if (!strcmp(tok, "perf_event"))
					break;
			if (tok) {
				snprintf(v1, sizeof(v1), "%s", dir);
				break;
			}
		}
	}
	fclose(f);
	{
		char path[PATH_MAX];
		const char *mnt = v1[0] ? v1 : v2;

		if (!mnt[0])
			return 0;
		snprintf(path, sizeof(path), "%s", mnt);
		return walk_cgroups(s, path, sizeof(path), strlen(mnt), 0);
	}
}

/* one thread, not fully: COMM, and MMAP2s when it leads its group */
static int synth_task_light(struct synth *s, pid_t tid, bool needs_mmap, pid_t *tgid)
{
	int err = synth_comm(s, tid, tgid);

	if (err)
		return err == -ESRCH ? 0 : err;
	if (s->namespaces && (err = synth_namespaces(s, *tgid, tid)))
		return err;
	if (*tgid == tid && needs_mmap)
		return synth_mmaps(s, tid);
	return 0;
}

int synth_thread_map_tasks(struct synth *s, const pid_t *tids, int nr, bool needs_mmap)
{
	for (int i = 0; i < nr; i++) {
		pid_t tgid = -1;
		int err;

		if (tids[i] <= 0)
			continue;
		err = synth_task_light(s, tids[i], needs_mmap, &tgid);
		if (err)
			return err;
		if (tgid > 0 && tgid != tids[i]) {
			bool in_map = false;

			for (int j = 0; j < nr; j++)
				in_map |= tids[j] == tgid;
			if (!in_map && (err = synth_task_light(s, tgid, needs_mmap, &tgid)))
				return err;
		}
	}
	return 0;
}

static int emit_fork(struct synth *s, pid_t tgid, pid_t tid, pid_t ppid)
{
	union perf_event *ev = start_record(s, PERF_RECORD_FORK, PERF_RECORD_MISC_FORK_EXEC,
					    sizeof(struct perf_record_fork));

	/* the main thread's parent is its ppid; other threads are children of the main thread */
	ev->fork.pid = tgid;
	ev->fork.tid = tid;
	ev->fork.ppid = tgid == tid ? ppid : tgid;
	ev->fork.ptid = tgid == tid ? ppid : tgid;
	return emit(s, ev);
}

static int numeric_filter(const struct dirent *d)
{
	return d->d_name[0] >= '0' && d->d_name[0] <= '9';
}

int synth_process(struct synth *s, pid_t pid, bool needs_mmap)
{
	char path[64];
	struct dirent **tasks;
	int n, err = 0;

	snprintf(path, sizeof(path), "%s/%d/task", s->proc, pid);
	n = scandir(path, &tasks, numeric_filter, NULL);
	if (n < 0)
		return 0;
	for (int i = 0; i < n; i++) {
		pid_t tid = atoi(tasks[i]->d_name);
		struct task_status st;

		if (!err && !read_status(s, pid, tid, &st)) {
			err = emit_fork(s, st.tgid, tid, st.ppid);
			if (!err && s->namespaces)
				err = synth_namespaces(s, st.tgid, tid);
			if (!err)
				err = emit_comm(s, st.tgid, tid, st.name);
			/* kernel threads have no maps; synth_mmaps finds an empty file */
			if (!err && tid == pid && needs_mmap)
				err = synth_mmaps(s, pid);
		}
		free(tasks[i]);
	}
	free(tasks);
	return err;
}

static int pid_sort(const struct dirent **a, const struct dirent **b)
{
	long x = atol((*a)->d_name), y = atol((*b)->d_name);

	return x < y ? -1 : x > y;
}

int synth_all_tasks(struct synth *s, bool needs_mmap)
{
	struct dirent **procs;
	int n, err = 0;

	n = scandir(s->proc, &procs, numeric_filter, pid_sort);
	if (n < 0)
		return -errno;
	for (int i = 0; i < n; i++) {
		if (!err)
			err = synth_process(s, atoi(procs[i]->d_name), needs_mmap);
		free(procs[i]);
	}
	free(procs);
	return err;
}

/* ---- recording set-up records ---- */

int synth_id_index(struct synth *s, struct evlist *evlist, const struct cpu_map *cpus,
		   const struct thread_map *threads)
{
	struct evsel *evsel;
	size_t nr = 0, max;
	union perf_event *ev = s->buf;
	int err = 0;

	/* records are at most 64 KiB: split into several ID_INDEX records like perf */
	max = (0xffff - sizeof(struct perf_record_id_index)) / sizeof(struct perf_record_id_index_entry);
	if (max * sizeof(struct perf_record_id_index_entry) + sizeof(struct perf_record_id_index) >
	    SYNTH_BUF_SIZE)
		max = (SYNTH_BUF_SIZE - sizeof(struct perf_record_id_index)) /
		      sizeof(struct perf_record_id_index_entry);
	memset(ev, 0, sizeof(struct perf_record_id_index));
	evlist_for_each_entry(evlist, evsel) {
		if (!evsel->ids || !evsel->fd)
			continue;
		for (int c = 0; c < cpus->nr; c++) {
			for (int t = 0; t < threads->nr; t++) {
				int i = c * threads->nr + t;
				struct perf_record_id_index_entry *e;

				if (evsel->fd[i] < 0)
					continue;
				e = &ev->id_index.entries[nr++];
				e->id = evsel->ids[i];
				e->idx = evsel->idx;
				e->cpu = (u64)(s64)cpus->map[c];
				e->tid = (u64)(s64)threads->pids[t];
				if (nr == max) {
					ev->id_index.header.type = PERF_RECORD_ID_INDEX;
					ev->id_index.header.size = sizeof(ev->id_index) + nr * sizeof(*e);
					ev->id_index.nr = nr;
					if ((err = emit(s, ev)))
						return err;
					nr = 0;
				}
			}
		}
	}
	if (!nr)
		return 0;
	ev->id_index.header.type = PERF_RECORD_ID_INDEX;
	ev->id_index.header.misc = 0;
	ev->id_index.header.size =
		sizeof(ev->id_index) + nr * sizeof(struct perf_record_id_index_entry);
	ev->id_index.nr = nr;
	return emit(s, ev);
}

int synth_thread_map(struct synth *s, struct thread_map *threads)
{
	union perf_event *ev = s->buf;
	struct perf_record_thread_map_entry *e;
	size_t size = 16 + threads->nr * sizeof(*e);
	u64 *nr = (u64 *)((char *)ev + 8);

	if (size > SYNTH_BUF_SIZE || size > 0xffff)
		return -E2BIG;
	memset(ev, 0, size);
	ev->header.type = PERF_RECORD_THREAD_MAP;
	ev->header.size = size;
	*nr = threads->nr;
	e = (void *)((char *)ev + 16);
	for (int i = 0; i < threads->nr; i++) {
		e[i].pid = (u64)(s64)threads->pids[i];
		/* the comm as known now (perf leaves it empty for a corked workload) */
		if (threads->comms && threads->comms[i])
			strncpy(e[i].comm, threads->comms[i], sizeof(e[i].comm) - 1);
	}
	return emit(s, ev);
}

int synth_cpu_map(struct synth *s, const struct cpu_map *cpus)
{
	union perf_event *ev = s->buf;
	unsigned char *p = (unsigned char *)ev + 8;
	bool contiguous = cpus->nr > 0 && cpus->map[0] >= 0;
	size_t size;

	for (int i = 1; i < cpus->nr && contiguous; i++)
		contiguous = cpus->map[i] == cpus->map[i - 1] + 1;
	memset(ev, 0, 64);
	ev->header.type = PERF_RECORD_CPU_MAP;
	if (contiguous) {
		/* u16 type=2 (range); u8 any_cpu; u8 pad; u16 start, end */
		u16 v[3] = { 2, 0, 0 };

		v[1] = (u16)cpus->map[0];
		v[2] = (u16)cpus->map[cpus->nr - 1];
		memcpy(p, &v[0], 2);
		p[2] = 0;
		memcpy(p + 4, &v[1], 2);
		memcpy(p + 6, &v[2], 2);
		size = 16;
	} else {
		/* u16 type=0 (cpus); u16 nr; u16 cpu[nr] (-1 = any) */
		u16 t = 0, n = cpus->nr;

		size = PERF_ALIGN(8 + 4 + 2 * (size_t)cpus->nr, 8);
		if (size > SYNTH_BUF_SIZE)
			return -E2BIG;
		memset(ev, 0, size);
		ev->header.type = PERF_RECORD_CPU_MAP;
		memcpy(p, &t, 2);
		memcpy(p + 2, &n, 2);
		for (int i = 0; i < cpus->nr; i++) {
			u16 c = (u16)cpus->map[i];

			memcpy(p + 4 + 2 * i, &c, 2);
		}
	}
	ev->header.size = size;
	return emit(s, ev);
}

int synth_time_conv(struct synth *s, const void *pcv)
{
	const struct perf_event_mmap_page *pc = pcv;
	union perf_event *ev = s->buf;

	/* perf writes TIME_CONV only when the kernel offers a TSC conversion */
	if (!pc || !pc->cap_user_time_zero)
		return 0;
	memset(ev, 0, sizeof(ev->time_conv));
	ev->header.type = PERF_RECORD_TIME_CONV;
	ev->header.size = sizeof(ev->time_conv);
	ev->time_conv.time_shift = pc->time_shift;
	ev->time_conv.time_mult = pc->time_mult;
	ev->time_conv.time_zero = pc->time_zero;
	ev->time_conv.time_cycles = pc->time_cycles;
	ev->time_conv.time_mask = pc->time_mask;
	ev->time_conv.cap_user_time_zero = pc->cap_user_time_zero;
	ev->time_conv.cap_user_time_short = pc->cap_user_time_short;
	return emit(s, ev);
}

int synth_header_only(struct synth *s, u32 type)
{
	union perf_event *ev = s->buf;

	memset(ev, 0, 8);
	ev->header.type = type;
	ev->header.size = 8;
	return emit(s, ev);
}

/* EVENT_UPDATE: u64 type; u64 id; payload */
static int emit_event_update(struct synth *s, u64 type, u64 id, const void *data, size_t len)
{
	union perf_event *ev = s->buf;
	size_t size = PERF_ALIGN(24 + len, 8);
	u64 *w = (u64 *)ev;

	if (size > SYNTH_BUF_SIZE)
		return -E2BIG;
	memset(ev, 0, size);
	ev->header.type = PERF_RECORD_EVENT_UPDATE;
	ev->header.size = size;
	w[1] = type;
	w[2] = id;
	memcpy((char *)ev + 24, data, len);
	return emit(s, ev);
}

int synth_event_update_unit(struct synth *s, u64 id, const char *unit)
{
	return emit_event_update(s, 0, id, unit, strlen(unit) + 1);
}

int synth_event_update_scale(struct synth *s, u64 id, double scale)
{
	return emit_event_update(s, 1, id, &scale, sizeof(scale));
}

int synth_event_update_name(struct synth *s, u64 id, const char *name)
{
	return emit_event_update(s, 2, id, name, strlen(name) + 1);
}
