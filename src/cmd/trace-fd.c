/* SPDX-License-Identifier: MIT */
/* sonde trace's fd paths and comms for the argument beautifiers: read from /proc once, forgotten on close and reuse. */
#include "cmd/trace.h"

#include "lib/xalloc.h"
#include "trace/syscall-fmt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *trace_thread_comm(void *priv, int tid)
{
	struct trace *trace = priv;
	struct trace_thread *t = tid > 0 ? u64map_find(&trace->threads, (u64)tid) : NULL;

	/* a file's machine knows the idle task */
	if (tid == 0 && trace->replay)
		return "swapper";
	return t ? t->comm : NULL;
}

/* fd_slot - the path cache entry of @fd in @t's process, grown as needed */
static char **fd_slot(struct trace *trace, struct trace_thread *t, int fd)
{
	struct trace_thread *proc = t->pid > 0 && t->pid != t->tid ?
					    trace_thread_findnew(trace, t->pid, t->pid) : t;

	if (fd < 0 || fd > 65535)
		return NULL;
	if (fd >= proc->nr_fd_paths) {
		int nr = fd + 16;

		proc->fd_paths = xrealloc(proc->fd_paths, nr * sizeof(char *));
		memset(proc->fd_paths + proc->nr_fd_paths, 0, (nr - proc->nr_fd_paths) * sizeof(char *));
		proc->nr_fd_paths = nr;
	}
	return &proc->fd_paths[fd];
}

/* failed lookups are remembered as this (not retried until the fd changes) */
static char no_path[1];

/* thread_fd_path - for the beautifiers: the path of an fd, read from /proc once */
static const char *thread_fd_path(void *priv, int fd)
{
	struct trace *trace = priv;
	struct trace_thread *t = trace->cur;
	char **slot, link[64], buf[4096];
	ssize_t n;

	if (!t || !(slot = fd_slot(trace, t, fd)))
		return NULL;
	if (trace->selected) {
		/* close/dup may not be traced: a cached path could be stale, read it every time */
		snprintf(link, sizeof(link), "/proc/%d/fd/%d", t->pid > 0 ? t->pid : t->tid, fd);
		n = readlink(link, trace->fd_scratch, sizeof(trace->fd_scratch) - 1);
		if (n <= 0)
			return NULL;
		trace->fd_scratch[n] = '\0';
		return trace->fd_scratch;
	}
	if (!*slot) {
		snprintf(link, sizeof(link), "/proc/%d/fd/%d", t->pid > 0 ? t->pid : t->tid, fd);
		n = readlink(link, buf, sizeof(buf) - 1);
		if (n > 0) {
			buf[n] = '\0';
			*slot = xstrdup(buf);
		} else {
			*slot = no_path;
		}
	}
	return *slot == no_path ? NULL : *slot;
}

static void fd_forget(struct trace *trace, struct trace_thread *t, int fd)
{
	char **slot = fd_slot(trace, t, fd);

	if (slot && *slot) {
		if (*slot != no_path)
			free(*slot);
		*slot = NULL;
	}
}

void trace_fd_update(struct trace *trace, struct trace_thread *t, const char *name,
		     const u64 *args, s64 ret)
{
	static const char *const new_fd_prefixes[] = { "open", "dup", "socket", "accept", "memfd",
							 "eventfd", "epoll_create", "timerfd_create",
							 "signalfd", "inotify_init", "fanotify_init",
							 "pidfd_open", "creat", NULL };

	if (!name)
		return;
	if (!strcmp(name, "close") && ret == 0) {
		fd_forget(trace, t, (int)args[0]);
		return;
	}
	if (ret < 0)
		return;
	for (int i = 0; new_fd_prefixes[i]; i++)
		if (!strncmp(name, new_fd_prefixes[i], strlen(new_fd_prefixes[i]))) {
			fd_forget(trace, t, (int)ret);
			return;
		}
}

const struct syscall_fmt_cb *trace_fmt_cb(struct trace *trace, struct trace_thread *t)
{
	static struct syscall_fmt_cb cb = { .comm = trace_thread_comm, .fd_path = thread_fd_path };

	cb.priv = trace;
	trace->cur = t;
	return &cb;
}

void trace_thread_free_fds(struct trace_thread *t)
{
	for (int i = 0; i < t->nr_fd_paths; i++)
		if (t->fd_paths[i] != no_path)
			free(t->fd_paths[i]);
	free(t->fd_paths);
	t->fd_paths = NULL;
	t->nr_fd_paths = 0;
}
