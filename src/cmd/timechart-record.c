/* SPDX-License-Identifier: MIT */
/* sonde timechart record: perf record's command line for scheduler, power or IO tracepoints, system-wide. */
#include "builtin.h"
#include "cmd/timechart.h"
#include "lib/optspec.h"
#include "lib/strvec.h"
#include "lib/util.h"
#include "lib/xalloc.h"

#include <stdbool.h>
#include <stdio.h>

static const char *const tasks_events[] = { "sched:sched_wakeup", "sched:sched_switch", NULL };
static const char *const power_events[] = { "power:cpu_frequency", "power:cpu_idle", NULL };
/* the IO calls perf's timechart -I records, enter and exit of each */
static const char *const io_calls[] = {
	"read", "pread64", "readv", "preadv", "write", "pwrite64", "writev", "pwritev", "sync",
	"sync_file_range", "fsync", "msync", "recvfrom", "recvmmsg", "recvmsg", "sendto",
	"sendmsg", "sendmmsg", "epoll_pwait", "epoll_wait", "poll", "ppoll", "pselect6", "select",
	NULL
};

/* perf's record line: system-wide, raw samples, every event */
static const char *const record_base[] = { "record", "-a", "-R", "-c", "1", NULL };

static void push_all(struct strvec *sv, const char *const *v)
{
	for (; *v; v++)
		strvec_push(sv, *v);
}

static const char *const record_usage[] = {
	"perf timechart record [<options>]",
	NULL
};

int timechart_record(int argc, const char **argv)
{
	bool io_only = false, power_only = false, tasks_only = false, callchain = false;
	struct strvec av = STRVEC_INIT;
	struct opt_spec options[] = {
		SPEC_FLAG("power-only", 'P', &power_only, "output power data only"),
		SPEC_FLAG("tasks-only", 'T', &tasks_only, "output processes data only"),
		SPEC_FLAG("callchain", 'g', &callchain, "record callchain"),
		SPEC_FLAG("io-only", 'I', &io_only, "record only IO data"),
		SPEC_END()
	};

	argc = opts_parse(argc, argv, options, record_usage, OPTS_STOP_AT_ARG);
	if (power_only && tasks_only) {
		fprintf(stderr, "-P and -T options cannot be used at the same time.\n");
		return 255;
	}
	push_all(&av, record_base);
	if (callchain)
		strvec_push(&av, "-g");
	if (io_only) {
		/* the enters first, then the exits, in perf's order of groups */
		static const int groups[][2] = { { 0, 12 }, { 12, 18 }, { 18, 24 } };

		for (size_t g = 0; g < ARRAY_SIZE(groups); g++)
			for (int dir = 0; dir < 2; dir++)
				for (int i = groups[g][0]; i < groups[g][1]; i++) {
					strvec_push(&av, "-e");
					strvec_pushf(&av, "syscalls:sys_%s_%s", dir ? "exit" : "enter",
						     io_calls[i]);
				}
	} else {
		if (!power_only)
			for (int i = 0; tasks_events[i]; i++)
				{ strvec_push(&av, "-e"); strvec_push(&av, tasks_events[i]); }
		if (!tasks_only)
			for (int i = 0; power_events[i]; i++)
				{ strvec_push(&av, "-e"); strvec_push(&av, power_events[i]); }
	}
	for (int i = 0; i < argc; i++)
		strvec_push(&av, argv[i]);
	return cmd_run_strvec(cmd_record, &av);
}
