/* SPDX-License-Identifier: MIT */
/* timechart's IO model (record -I files): perf's boxes per call, merges, min-time, rows per thread and name. */
#include "cmd/timechart.h"

#include "lib/xalloc.h"
#include "trace/tep.h"

#include <stdio.h>
#include <string.h>

static int io_type_of(const char *call)
{
	static const struct {
		const char *call;
		int type;
	} calls[] = {
		{ "read", TC_IO_READ }, { "pread64", TC_IO_READ }, { "readv", TC_IO_READ },
		{ "preadv", TC_IO_READ }, { "write", TC_IO_WRITE }, { "pwrite64", TC_IO_WRITE },
		{ "writev", TC_IO_WRITE }, { "pwritev", TC_IO_WRITE }, { "sync", TC_IO_SYNC },
		{ "sync_file_range", TC_IO_SYNC }, { "fsync", TC_IO_SYNC }, { "msync", TC_IO_SYNC },
		{ "recvfrom", TC_IO_RX }, { "recvmmsg", TC_IO_RX }, { "recvmsg", TC_IO_RX },
		{ "sendto", TC_IO_TX }, { "sendmsg", TC_IO_TX }, { "sendmmsg", TC_IO_TX },
		{ "epoll_pwait", TC_IO_POLL }, { "epoll_wait", TC_IO_POLL }, { "poll", TC_IO_POLL },
		{ "ppoll", TC_IO_POLL }, { "pselect6", TC_IO_POLL }, { "select", TC_IO_POLL },
	};

	for (size_t i = 0; i < sizeof(calls) / sizeof(calls[0]); i++)
		if (!strcmp(call, calls[i].call))
			return calls[i].type;
	return -1;
}

/* a new row of @tid (perf: a pid's new name); @comm NULL: unnamed */
static struct tc_task *io_task_new(struct tc_tool *t, int tid, const char *comm)
{
	struct tc_task *task = tc_task_new(t, tid, tid, 0);

	task->first = 0;
	task->comm[0] = '\0';
	if (comm) {
		snprintf(task->comm, sizeof(task->comm), "%s", comm);
		task->comm_from_record = true;
	}
	return task;
}

/* the current row of @tid */
static struct tc_task *io_task(struct tc_tool *t, int tid)
{
	struct timechart *tc = &t->tc;

	for (int i = tc->nr_tasks - 1; i >= 0; i--)
		if (tc->tasks[i]->tid == tid)
			return tc->tasks[i];
	return io_task_new(t, tid, NULL);
}

/* the earlier row of @cur's tid named @comm, made current (last); NULL when none */
static struct tc_task *io_task_again(struct tc_tool *t, struct tc_task *cur, const char *comm)
{
	struct timechart *tc = &t->tc;

	for (int i = 0; i < tc->nr_tasks; i++) {
		struct tc_task *task = tc->tasks[i];

		if (task == cur || task->tid != cur->tid || strcmp(task->comm, comm))
			continue;
		memmove(&tc->tasks[i], &tc->tasks[i + 1], (size_t)(tc->nr_tasks - i - 1) * sizeof(task));
		tc->tasks[tc->nr_tasks - 1] = task;
		return task;
	}
	return NULL;
}

void tc_io_side_band(struct tc_tool *t, const union perf_event *ev)
{
	struct tc_task *task;

	switch (ev->header.type) {
	case PERF_RECORD_COMM:
		/*
		 * a named row that gets another name: the row it had under
		 * that name before comes back (moved last, current), else a
		 * new row from here
		 */
		task = io_task(t, (int)ev->comm.tid);
		if (!task->comm_from_record) {
			snprintf(task->comm, sizeof(task->comm), "%s", ev->comm.comm);
			task->comm_from_record = true;
		} else if (strcmp(task->comm, ev->comm.comm) && !io_task_again(t, task, ev->comm.comm)) {
			io_task_new(t, (int)ev->comm.tid, ev->comm.comm);
		}
		break;
	case PERF_RECORD_FORK: {
		/*
		 * perf's rows follow the fork's pid: a child process, or for a
		 * new thread its process; the time is the record's own
		 */
		struct tc_task *child = NULL, *parent = io_task(t, (int)ev->fork.ppid);

		for (int i = t->tc.nr_tasks - 1; i >= 0 && !child; i--)
			if (t->tc.tasks[i]->tid == (int)ev->fork.pid)
				child = t->tc.tasks[i];
		if (!child)
			child = io_task_new(t, (int)ev->fork.pid,
					    parent->comm_from_record ? parent->comm : NULL);
		if (!child->io_start)
			child->io_start = ev->fork.time;
		break;
	}
	case PERF_RECORD_EXIT:
		io_task(t, (int)ev->fork.pid)->io_end = ev->fork.time;
		break;
	default:
		break;
	}
}

/* a call enters: its box opens; a task's call entered while another is open drops both (perf's message) */
static void io_enter(struct tc_tool *t, struct tc_task *task, int type, int fd, u64 time)
{
	struct tc_io *last = task->nr_ios ? &task->ios[task->nr_ios - 1] : NULL;

	/* a call still open: perf drops it, and this one */
	if (last && !last->end) {
		fprintf(stderr, "Skip invalid start event: previous event already started!\n");
		task->nr_ios--;
		return;
	}
	if (task->nr_ios == task->alloc_ios) {
		task->alloc_ios = task->alloc_ios ? 2 * task->alloc_ios : 16;
		task->ios = xrealloc(task->ios, task->alloc_ios * sizeof(*task->ios));
	}
	last = &task->ios[task->nr_ios++];
	memset(last, 0, sizeof(*last));
	last->start = time;
	last->enter = time;
	last->type = (u8)type;
	last->fd = fd;
	if (!task->io_start)
		task->io_start = time;
	(void)t;
}

/* a call returns: its box at least --io-min-time long, fitted to the box before, merged into it when it may */
static void io_exit(struct tc_tool *t, struct tc_task *task, int type, s64 ret, u64 time)
{
	struct tc_io *last = task->nr_ios ? &task->ios[task->nr_ios - 1] : NULL, *prev;

	if (!last)
		return;
	if (last->end) {
		fprintf(stderr, "Skip invalid end event: previous event already ended!\n");
		return;
	}
	if (last->type != type) {
		fprintf(stderr, "Skip invalid end event: invalid event type!\n");
		return;
	}
	last->err = ret < 0 ? ret : 0;
	if (ret > 0 && type != TC_IO_SYNC && type != TC_IO_POLL)
		last->bytes = (u64)ret;
	task->io_bytes += last->bytes;
	last->end = time;
	if (time - last->enter < t->io_min_time)
		last->end = last->enter + t->io_min_time;
	prev = task->nr_ios > 1 ? &task->ios[task->nr_ios - 2] : NULL;
	/* a box still drawn when this call began is cut short there, or when it is an error's, this one starts after it */
	if (prev && prev->end > last->start) {
		if (prev->err)
			last->start = prev->end;
		else
			prev->end = last->start;
	}
	/* the same class, fd and result, starting within --io-merge-dist of its end */
	if (prev && prev->end && prev->type == type && prev->fd == last->fd &&
	    prev->err == last->err &&
	    (last->start <= prev->end || last->start - prev->end <= t->io_merge_dist)) {
		prev->end = last->end;
		prev->bytes += last->bytes;
		prev->merges++;
		task->nr_ios--;
	}
}

void tc_io_syscall(struct tc_tool *t, const char *name, struct tep_event *ev,
		   const struct perf_sample *s)
{
	struct tc_task *task = io_task(t, (int)s->tid);
	bool enter = !strncmp(name, "sys_enter_", 10);
	int type = io_type_of(name + (enter ? 10 : 9));

	if (type < 0)
		return;
	t->tc.io_mode = true;
	if (enter) {
		u64 fd = 0;

		trace_tep_field_u64(ev, s->raw_data, s->raw_size, "fd", &fd);
		io_enter(t, task, type, (int)fd, s->time);
	} else {
		u64 ret = 0;

		trace_tep_field_u64(ev, s->raw_data, s->raw_size, "ret", &ret);
		io_exit(t, task, type, (s64)ret, s->time);
	}
}
