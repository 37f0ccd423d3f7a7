/* SPDX-License-Identifier: MIT */
/* Live evlists: maps from a target, the corked workload, open/enable/read/close over cpus x threads. */
#define PR_PREFIX "evlist"
#include "core/evlist-open.h"
#include "core/cpumap.h"
#include "core/sys.h"
#include "core/threadmap.h"
#include "lib/debug.h"
#include "lib/xalloc.h"

#include <errno.h>
#include <sched.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

int evlist_create_maps(struct evlist *evlist, const struct target *target)
{
	int err;

	cpu_map_free(evlist->cpus);
	thread_map_free(evlist->threads);
	evlist->cpus = NULL;
	evlist->threads = NULL;

	if (target->pid || target->tid) {
		err = target->pid ? thread_map_new_by_pid_str(target->pid, &evlist->threads) :
				    thread_map_new_by_tid_str(target->tid, &evlist->threads);
		if (err)
			return err;
		/* a task target ignores -C/-a, as perf does ("PID/TID switch overriding CPU") */
		evlist->cpus = cpu_map_dummy_new();
		return 0;
	}
	if (target->system_wide && target->per_thread && !target->cpu_list) {
		/* --per-thread -a: every thread of the system, on any cpu */
		evlist->cpus = cpu_map_dummy_new();
		evlist->threads = thread_map_new_all();
		return evlist->threads->nr ? 0 : -ESRCH;
	}
	if (target->system_wide || target->cpu_list) {
		evlist->cpus = cpu_map_new(target->cpu_list);
		if (!evlist->cpus)
			return -EINVAL;
		evlist->threads = thread_map_new_dummy();
		return 0;
	}
	/* a workload (or nothing): one per-task fd per event, the pid filled in at fork */
	evlist->cpus = cpu_map_dummy_new();
	evlist->threads = thread_map_new_dummy();
	return 0;
}

int evlist_prepare_workload(struct evlist *evlist, const char *const *argv)
{
	int cork[2], status[2];
	pid_t pid;

	if (pipe2(cork, O_CLOEXEC) < 0)
		return -errno;
	if (pipe2(status, O_CLOEXEC) < 0) {
		int err = -errno;

		close(cork[0]);
		close(cork[1]);
		return err;
	}
	pid = fork();
	if (pid < 0) {
		int err = -errno;

		close(cork[0]);
		close(cork[1]);
		close(status[0]);
		close(status[1]);
		return err;
	}
	if (pid == 0) {
		char c;
		int e;

		close(cork[1]);
		close(status[0]);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGCHLD, SIG_DFL);
		/* wait for the parent to open the counters; EOF means it gave up */
		if (read(cork[0], &c, 1) != 1)
			_exit(127);
		execvp(argv[0], (char *const *)argv);
		/* report the exec errno through the close-on-exec status pipe */
		e = errno;
		(void)!write(status[1], &e, sizeof(e));
		_exit(127);
	}
	close(cork[0]);
	close(status[1]);
	evlist->workload.pid = pid;
	evlist->workload.cork_fd = cork[1];
	evlist->workload.status_fd = status[0];
	if (evlist->threads && evlist->threads->nr == 1 && evlist->threads->pids[0] == -1 &&
	    evlist->cpus && cpu_map_is_dummy(evlist->cpus))
		evlist->threads->pids[0] = pid;
	return 0;
}

int evlist_start_workload(struct evlist *evlist)
{
	int e = 0;
	ssize_t n;

	if (evlist->workload.cork_fd < 0)
		return 0;
	if (write(evlist->workload.cork_fd, "", 1) != 1)
		e = errno ? errno : EPIPE;
	close(evlist->workload.cork_fd);
	evlist->workload.cork_fd = -1;
	if (e)
		return -e;
	/* EOF: the exec went through (the pipe closed on exec) */
	do
		n = read(evlist->workload.status_fd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(evlist->workload.status_fd);
	evlist->workload.status_fd = -1;
	if (n == (ssize_t)sizeof(e)) {
		int st;

		waitpid(evlist->workload.pid, &st, 0);
		evlist->workload.pid = 0;
		return -e;
	}
	return 0;
}

int evlist_wait_workload(struct evlist *evlist, int *status, int options)
{
	pid_t r;

	if (!evlist->workload.pid)
		return -ECHILD;
	r = waitpid(evlist->workload.pid, status, options);
	if (r < 0)
		return -errno;
	if (r == 0)
		return 0;
	evlist->workload.pid = 0;
	return r;
}

int evsel_nr_fds(const struct evsel *evsel)
{
	if (!evsel->cpus || !evsel->threads)
		return 0;
	return evsel->cpus->nr * evsel->threads->nr;
}

static void evsel_alloc_fds(struct evsel *evsel, struct cpu_map *cpus, struct thread_map *threads)
{
	int n = cpus->nr * threads->nr;

	if (evsel->fd && evsel->cpus == cpus && evsel->threads == threads)
		return;
	free(evsel->fd);
	free(evsel->ids);
	free(evsel->counts);
	evsel->cpus = cpus;
	evsel->threads = threads;
	evsel->fd = xmalloc(sizeof(int) * n);
	for (int i = 0; i < n; i++)
		evsel->fd[i] = -1;
	evsel->ids = xcalloc(n, sizeof(u64));
	evsel->counts = xcalloc(n, sizeof(*evsel->counts));
}

void evsel_close(struct evsel *evsel)
{
	int n = evsel_nr_fds(evsel);

	for (int i = 0; evsel->fd && i < n; i++) {
		if (evsel->fd[i] >= 0)
			close(evsel->fd[i]);
		evsel->fd[i] = -1;
	}
}

/*
 * Kernel features found missing by a failed open. Like perf, once a feature
 * is found missing it stays off for every later open of this process: the
 * kernel (or a PMU) will not grow it back. Process-wide by nature.
 */
static struct {
	bool cloexec;
	bool exclude_guest;
	bool sample_id_all;
} missing;

/*
 * detect_missing_feature - after EINVAL on the first fd, turn off the next
 * feature in perf's order that the attr uses and that is not yet known
 * missing. Returns true when there is something left to retry without.
 */
static bool detect_missing_feature(const struct evsel *evsel)
{
	if (!missing.cloexec) {
		missing.cloexec = true;
		pr_debug2("switching off cloexec flag\n");
		return true;
	}
	if (!missing.exclude_guest && (evsel->attr.exclude_guest || evsel->attr.exclude_host)) {
		missing.exclude_guest = true;
		pr_debug2("switching off exclude_guest, exclude_host\n");
		return true;
	}
	if (!missing.sample_id_all && evsel->attr.sample_id_all) {
		missing.sample_id_all = true;
		pr_debug2("switching off sample_id_all\n");
		return true;
	}
	return false;
}

static void apply_missing_features(struct evsel *evsel)
{
	if (missing.exclude_guest)
		evsel->attr.exclude_guest = evsel->attr.exclude_host = 0;
	if (missing.sample_id_all)
		evsel->attr.sample_id_all = 0;
}

void evsel_reset_missing_features(void)
{
	memset(&missing, 0, sizeof(missing));
}

int evsel_open(struct evsel *evsel, struct cpu_map *cpus, struct thread_map *threads)
{
	struct evsel *leader = evsel->leader;
	int nthr = threads->nr;

	evsel_alloc_fds(evsel, cpus, threads);
	evsel->open_errno = 0;
	for (int c = 0; c < cpus->nr; c++) {
		for (int t = 0; t < nthr; t++) {
			int idx = c * nthr + t, group_fd = -1, fd;

			if (leader != evsel && leader->fd && evsel_nr_fds(leader) == cpus->nr * nthr)
				group_fd = leader->fd[idx];
retry:
			apply_missing_features(evsel);
			fd = sys_perf_event_open(&evsel->attr,
						 evsel->cgroup_fd >= 0 ? evsel->cgroup_fd : threads->pids[t],
						 cpus->map[c], group_fd,
						 (missing.cloexec ? 0 : PERF_FLAG_FD_CLOEXEC) |
							 (evsel->cgroup_fd >= 0 ? PERF_FLAG_PID_CGROUP : 0));
			if (fd == -EINVAL && idx == 0 && detect_missing_feature(evsel))
				goto retry;
			if (fd < 0) {
				/* a thread that exited since we listed it is not an error */
				if (fd == -ESRCH && nthr > 1)
					continue;
				evsel->open_errno = -fd;
				pr_debug2("sys_perf_event_open failed for %s on cpu %d pid %d: %s\n",
					 evsel->name ? evsel->name : "?", cpus->map[c],
					 threads->pids[t], strerror(-fd));
				evsel_close(evsel);
				return fd;
			}
			evsel->fd[idx] = fd;
			/* the id names the counter in a stat file too (PERF_RECORD_STAT) */
			if ((evsel->attr.read_format & PERF_FORMAT_ID) ||
			    (evsel->attr.sample_type & PERF_SAMPLE_IDENTIFIER)) {
				u64 id;

				if (!ioctl(fd, PERF_EVENT_IOC_ID, &id))
					evsel->ids[idx] = id;
			}
		}
	}
	return 0;
}

/* parse one read() result into the count for @id (or the single value) */
static int read_one(struct evsel *evsel, int idx)
{
	u64 buf[4 + 2 * 64];
	u64 fmt = evsel->attr.read_format;
	struct perf_counts_values *cv = &evsel->counts[idx];
	int fd = evsel->fd[idx];
	ssize_t n;

	memset(cv, 0, sizeof(*cv));
	if (fd < 0)
		return 0;
	if (fmt & PERF_FORMAT_GROUP) {
		u64 *p = buf, nr, *end;
		u64 *big = NULL;
		size_t sz = sizeof(buf);

		n = read(fd, buf, sz);
		if (n < 0 && errno == ENOSPC) {
			/* a group of more than 64 members */
			sz = sizeof(u64) * (3 + 2 * 4096);
			big = xmalloc(sz);
			n = read(fd, big, sz);
			p = big;
		}
		if (n < (ssize_t)sizeof(u64)) {
			int err = n < 0 ? -errno : -EIO;

			free(big);
			return err;
		}
		end = p + n / sizeof(u64);
		nr = *p++;
		if (fmt & PERF_FORMAT_TOTAL_TIME_ENABLED && p < end)
			cv->ena = *p++;
		if (fmt & PERF_FORMAT_TOTAL_TIME_RUNNING && p < end)
			cv->run = *p++;
		for (u64 i = 0; i < nr && p < end; i++) {
			u64 val = *p++, id = 0;

			if (fmt & PERF_FORMAT_ID && p < end)
				id = *p++;
			if (fmt & PERF_FORMAT_LOST && p < end)
				p++;
			if (!(fmt & PERF_FORMAT_ID) || id == evsel->ids[idx]) {
				cv->val = val;
				break;
			}
		}
		free(big);
		return 0;
	}
	n = read(fd, buf, sizeof(buf));
	if (n < (ssize_t)sizeof(u64))
		return n < 0 ? -errno : -EIO;
	{
		u64 *p = buf;

		cv->val = *p++;
		if (fmt & PERF_FORMAT_TOTAL_TIME_ENABLED)
			cv->ena = *p++;
		if (fmt & PERF_FORMAT_TOTAL_TIME_RUNNING)
			cv->run = *p++;
		if (!(fmt & (PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)))
			cv->ena = cv->run = 1;
	}
	return 0;
}

int evsel_read_counts(struct evsel *evsel)
{
	int n = evsel_nr_fds(evsel), ret = 0;

	for (int i = 0; i < n; i++) {
		int err = read_one(evsel, i);

		if (err && !ret)
			ret = err;
	}
	return ret;
}

/*
 * A cgroup event enabled from another cpu may never be scheduled in there:
 * the kernel takes the cgroup of the task current on the enabling cpu, and
 * with every task in one cgroup (the root) no cgroup switch ever comes to fix
 * it (seen on 6.18: 0 counted on the other cpus, running < enabled). So, as
 * perf does, each cgroup fd is enabled from its own cpu, and the caller's
 * affinity restored after. Without the rights to move, the ioctl is still made.
 */
static void evsel_ioctl(struct evsel *evsel, unsigned long req)
{
	int n = evsel_nr_fds(evsel), nthr = evsel->threads ? evsel->threads->nr : 1;
	bool pin = evsel->cgroup_fd >= 0 && req == PERF_EVENT_IOC_ENABLE;
	cpu_set_t saved;

	if (pin && sched_getaffinity(0, sizeof(saved), &saved) < 0)
		pin = false;
	for (int i = 0; evsel->fd && i < n; i++) {
		if (evsel->fd[i] < 0)
			continue;
		if (pin) {
			int cpu = evsel->cpus->map[i / nthr];
			cpu_set_t one;

			CPU_ZERO(&one);
			if (cpu >= 0 && cpu < CPU_SETSIZE) {
				CPU_SET(cpu, &one);
				(void)sched_setaffinity(0, sizeof(one), &one);
			}
		}
		ioctl(evsel->fd[i], req, 0);
	}
	if (pin)
		(void)sched_setaffinity(0, sizeof(saved), &saved);
}

void evsel_enable(struct evsel *evsel)
{
	evsel_ioctl(evsel, PERF_EVENT_IOC_ENABLE);
}

void evsel_disable(struct evsel *evsel)
{
	evsel_ioctl(evsel, PERF_EVENT_IOC_DISABLE);
}

void evlist_enable(struct evlist *evlist)
{
	struct evsel *evsel;

	evlist_for_each_entry(evlist, evsel)
		if (evsel_is_group_leader(evsel))
			evsel_enable(evsel);
}

void evlist_disable(struct evlist *evlist)
{
	struct evsel *evsel;

	evlist_for_each_entry(evlist, evsel)
		if (evsel_is_group_leader(evsel))
			evsel_disable(evsel);
}

void evlist_close(struct evlist *evlist)
{
	struct evsel *evsel;

	evlist_for_each_entry(evlist, evsel)
		evsel_close(evsel);
}

void evlist_release_live(struct evlist *evlist)
{
	struct evsel *evsel;

	evlist_close(evlist);
	/* the maps go away below: no evsel may keep pointing at them */
	evlist_for_each_entry(evlist, evsel) {
		if (evsel->cpus == evlist->cpus)
			evsel->cpus = NULL;
		if (evsel->threads == evlist->threads)
			evsel->threads = NULL;
	}
	if (evlist->workload.cork_fd >= 0) {
		/* closing the cork without a byte makes the child exit */
		close(evlist->workload.cork_fd);
		evlist->workload.cork_fd = -1;
	}
	if (evlist->workload.status_fd >= 0) {
		close(evlist->workload.status_fd);
		evlist->workload.status_fd = -1;
	}
	if (evlist->workload.pid > 0) {
		int st;

		if (waitpid(evlist->workload.pid, &st, WNOHANG) == 0) {
			kill(evlist->workload.pid, SIGTERM);
			waitpid(evlist->workload.pid, &st, 0);
		}
		evlist->workload.pid = 0;
	}
	cpu_map_free(evlist->cpus);
	thread_map_free(evlist->threads);
	evlist->cpus = NULL;
	evlist->threads = NULL;
}

bool evsel_is_unsupported_errno(int err)
{
	return err == EINVAL || err == ENOSYS || err == ENOENT || err == EOPNOTSUPP ||
	       err == ENXIO || err == ENODEV;
}

bool evsel_fallback_exclude_kernel(struct evsel *evsel, int err)
{
	char *name;

	if (err != EACCES && err != EPERM)
		return false;
	if (sys_paranoid() < 2 || evsel->attr.exclude_kernel)
		return false;
	evsel->attr.exclude_kernel = 1;
	evsel->attr.exclude_hv = 1;
	name = xasprintf("%s:u", evsel->name ? evsel->name : "");
	free(evsel->name);
	evsel->name = name;
	return true;
}

char *evlist_strerror_open(const struct evsel *evsel, const struct target *target, int err,
			   char *buf, size_t len)
{
	const char *name = evsel && evsel->name ? evsel->name : "?";
	int paranoid;

	if (evsel && evsel->attr.aux_output && (err == EINVAL || err == EOPNOTSUPP)) {
		snprintf(buf, len, "%s: PMU Hardware doesn't support 'aux_output' feature", name);
		return buf;
	}
	switch (err) {
	case EPERM:
	case EACCES:
		paranoid = sys_paranoid();
		snprintf(buf, len,
			 "Access to performance monitoring and observability operations is limited.\n"
			 "Consider adjusting /proc/sys/kernel/perf_event_paranoid setting to open\n"
			 "access to performance monitoring and observability operations for processes\n"
			 "without CAP_PERFMON, CAP_SYS_PTRACE or CAP_SYS_ADMIN Linux capability.\n"
			 "More information can be found at 'Perf events and tool security' document:\n"
			 "https://www.kernel.org/doc/html/latest/admin-guide/perf-security.html\n"
			 "perf_event_paranoid setting is %d:\n"
			 "  -1: Allow use of (almost) all events by all users\n"
			 "      Ignore mlock limit after perf_event_mlock_kb without CAP_IPC_LOCK\n"
			 ">= 0: Disallow raw and ftrace function tracepoint access\n"
			 ">= 1: Disallow CPU event access\n"
			 ">= 2: Disallow kernel profiling\n"
			 "To make the adjusted perf_event_paranoid setting permanent preserve it\n"
			 "in /etc/sysctl.conf (e.g. kernel.perf_event_paranoid = <setting>)",
			 paranoid);
		return buf;
	case ENOENT:
		snprintf(buf, len, "The %s event is not supported.", name);
		return buf;
	case EMFILE:
		snprintf(buf, len,
			 "Too many events are opened.\n"
			 "Probably the maximum number of open file descriptors has been reached.\n"
			 "Hint: Try again after reducing the number of events.\n"
			 "Hint: Try increasing the limit with 'ulimit -n <limit>'");
		return buf;
	case ENODEV:
		if (target && target->cpu_list) {
			snprintf(buf, len, "%s",
				 "No such device - did you specify an out-of-range profile CPU?");
			return buf;
		}
		break;
	case EINVAL:
		/* perf blames the per-thread target first: the event may work cpu-wide */
		if (target && !target->system_wide && !target->cpu_list) {
			snprintf(buf, len,
				 "Invalid event (%s) in per-thread mode, enable system wide with '-a'.",
				 name);
			return buf;
		}
		break;
	case EOPNOTSUPP:
		if (evsel && evsel->attr.precise_ip) {
			snprintf(buf, len, "%s",
				 "'precise' request may not be supported. Try removing 'p' modifier.");
			return buf;
		}
		break;
	default:
		break;
	}
	snprintf(buf, len,
		 "The sys_perf_event_open() syscall returned with %d (%s) for event (%s).\n"
		 "/bin/dmesg | grep -i perf may provide additional information.\n",
		 err, strerror(err), name);
	return buf;
}
