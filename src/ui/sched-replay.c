/* SPDX-License-Identifier: MIT */
/* perf sched replay's lines: the calibration, the tasks of the model, then one line per replay with running averages. */
#include "ui/sched.h"

#include "session/sched-replay.h"
#include "session/session.h"

#include <inttypes.h>
#include <stdio.h>

void sched_replay_calibrate_print(struct sched_replay *rp)
{
	u64 run_ns, sleep_ns;

	sched_replay_calibrate(rp, &run_ns, &sleep_ns);
	printf("run measurement overhead: %" PRIu64 " nsecs\n", rp->run_overhead);
	printf("sleep measurement overhead: %" PRIu64 " nsecs\n", rp->sleep_overhead);
	printf("the run test took %" PRIu64 " nsecs\n", run_ns);
	printf("the sleep test took %" PRIu64 " nsecs\n", sleep_ns);
	fflush(stdout);
}

int sched_replay(struct sched_replay *rp, struct session *session, unsigned int repeat)
{
	double avg_ms = 0, avg_cpu = 0;
	double weight = repeat;
	int ret;

	ret = sched_replay_load(rp, session);
	if (ret < 0)
		return ret;
	if (!rp->any_trace)
		fprintf(stderr, "No trace sample to read. Did you call 'perf record -R'?\n");
	printf("nr_run_events:        %" PRIu64 "\n", rp->nr_run);
	printf("nr_sleep_events:      %" PRIu64 "\n", rp->nr_sleep);
	printf("nr_wakeup_events:     %" PRIu64 "\n", rp->nr_wakeup);
	if (rp->nr_multi_target)
		printf("multi-target wakeups: %" PRIu64 "\n", rp->nr_multi_target);
	for (int i = 0; i < rp->nr_tasks; i++) {
		const struct replay_task *t = rp->tasks[i];

		printf("task %6d (%20s:%10d), nr_events: %d\n", t->nr, t->comm, t->pid, t->nr_steps);
	}
	printf("------------------------------------------------------------\n");
	fflush(stdout);
	for (unsigned int i = 1; i <= repeat; i++) {
		struct replay_result res;
		double ms, cpu;

		ret = sched_replay_run(rp, &res);
		if (ret < 0)
			return ret;
		ms = (double)res.wall_ns / 1e6;
		cpu = (double)res.cpu_ns / 1e6;
		/*
		 * a running average over the last N replays (N the repeat
		 * count): the past weighs N-1 to the new one's 1
		 */
		avg_ms = i == 1 ? ms : (avg_ms * (weight - 1) + ms) / weight;
		avg_cpu = i == 1 ? cpu : (avg_cpu * (weight - 1) + cpu) / weight;
		printf("#%-3u: %0.3f, ravg: %0.2f, cpu: %0.2f / %0.2f\n", i, ms, avg_ms, cpu, avg_cpu);
		fflush(stdout);
	}
	return 0;
}
