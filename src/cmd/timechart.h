/* SPDX-License-Identifier: MIT */
/* timechart's tool state, shared by cmd/timechart.c (options, scheduler model) and cmd/timechart-io.c (IO model). */
#ifndef SONDE_CMD_TIMECHART_H
#define SONDE_CMD_TIMECHART_H

#include "data/event.h"
#include "session/session.h"
#include "ui/timechart.h"

#include <stdbool.h>

struct data_reader;
struct tep_event;
struct tep_handle;

struct tc_tool {
	struct tool tool; /* first: the session calls back with it */
	struct timechart tc;
	struct data_reader *reader;
	struct tep_handle *tep;
	bool tep_tried;
	const char *highlight_name;
	u64 highlight_ns;
	u64 nr_sched;
	bool io;		/* the file is record -I's: perf's IO chart */
	u64 io_min_time;	/* --io-min-time, ns: shorter calls are drawn this long */
	u64 io_merge_dist;	/* --io-merge-dist, ns: calls this close share a box */
};

/* tc_task_new - a new row for @tid (@pid), first seen at @time */
struct tc_task *tc_task_new(struct tc_tool *t, int pid, int tid, u64 time);

/*
 * tc_io_side_band - a COMM, FORK or EXIT record in IO mode: rows per
 * thread and name, their bars from the fork to the exit, as perf keeps them
 */
void tc_io_side_band(struct tc_tool *t, const union perf_event *ev);

/*
 * tc_io_syscall - a sys_enter_/sys_exit_ sample (@name without the
 * system) of one of record -I's calls: boxes opened, closed, stretched to
 * --io-min-time, merged within --io-merge-dist, with perf's messages for
 * calls that enter or return out of turn
 */
void tc_io_syscall(struct tc_tool *t, const char *name, struct tep_event *ev,
		   const struct perf_sample *s);

/*
 * timechart_record - `timechart record [-P|-T|-I] [-g] [CMD]`: perf record
 * with perf's events and options for the mode. Returns record's exit status.
 */
int timechart_record(int argc, const char **argv);

#endif
