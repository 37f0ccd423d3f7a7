/* SPDX-License-Identifier: MIT */
/* The session's two-thread delivery (tool.two_threads) against the one-thread one: same samples, same order, same stop. */
#include "test.h"

#include "data/reader.h"
#include "data/writer.h"
#include "lib/xalloc.h"
#include "session/session.h"

#include <string.h>

#define NR_ROUNDS 6
#define PER_RUN 1500 /* two runs a round: 18000 samples, several batches */
#define PID 4343
#define BASE 5000000000ULL

struct two_sample {
	struct perf_event_header h;
	u64 ip;
	u32 pid, tid;
	u64 time, period;
};

/* the samples a tool saw, in order */
struct seen {
	u64 time, ip;
};

struct seen_tool {
	struct tool tool;
	struct seen *seen;
	size_t nr, alloc;
	size_t stop_at; /* return 7 at this sample (1-based), 0: never */
};

static int seen_sample(struct tool *tool, struct session *s, const union perf_event *ev,
		       const struct perf_sample *sample, struct evsel *evsel)
{
	struct seen_tool *t = (struct seen_tool *)tool;

	(void)s, (void)ev, (void)evsel;
	t->seen = xgrow(t->seen, t->nr + 1, &t->alloc, sizeof(*t->seen));
	t->seen[t->nr++] = (struct seen){ sample->time, sample->ip };
	return t->stop_at && t->nr == t->stop_at ? 7 : 0;
}

static void put_sample(struct data_writer *w, u64 time, u64 ip)
{
	struct two_sample smp = { .h = { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, sizeof(smp) },
				  .ip = ip, .pid = PID, .tid = PID, .time = time, .period = 1 };

	EXPECT_EQ(data_writer_write(w, &smp, sizeof(smp)), 0);
}

/*
 * each round: two ascending runs (as two CPUs' rings), the second's
 * timestamps between the first's; a COMM without a timestamp first
 */
static char *write_file(void)
{
	char *path = xasprintf("%s/two.data", test_tmpdir());
	struct perf_event_attr attr = { 0 };
	struct data_writer *w;
	u64 id = 9;
	int err = 0;
	u8 buf[128] = { 0 };
	struct perf_record_comm *c = (void *)buf;
	struct perf_event_header round = { PERF_RECORD_FINISHED_ROUND, 0, sizeof(round) };

	w = data_writer_open(path, NULL, &err);
	EXPECT_TRUE(w != NULL);
	if (!w)
		return path;
	attr.type = PERF_TYPE_SOFTWARE;
	attr.size = sizeof(attr);
	attr.config = PERF_COUNT_SW_TASK_CLOCK;
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD;
	attr.sample_id_all = 1;
	attr.comm = 1;
	data_writer_add_attr(w, &attr, &id, 1, "task-clock");
	EXPECT_EQ(data_writer_start(w), 0);
	/* COMM with a zero time in its trailer ({pid, tid}, time) */
	c->header.type = PERF_RECORD_COMM;
	c->header.size = sizeof(*c) + 8 + 16;
	c->pid = c->tid = PID;
	strcpy(c->comm, "two");
	memcpy(buf + sizeof(*c) + 8, &c->pid, 4);
	memcpy(buf + sizeof(*c) + 12, &c->tid, 4);
	EXPECT_EQ(data_writer_write(w, buf, c->header.size), 0);
	for (u64 r = 0; r < NR_ROUNDS; r++) {
		u64 base = BASE + r * 4 * PER_RUN;

		for (u64 i = 0; i < PER_RUN; i++)
			put_sample(w, base + 2 * i, 0x400000 + r * 0x10000 + 2 * i);
		for (u64 i = 0; i < PER_RUN; i++)
			put_sample(w, base + 2 * i + 1, 0x400000 + r * 0x10000 + 2 * i + 1);
		EXPECT_EQ(data_writer_write(w, &round, sizeof(round)), 0);
	}
	EXPECT_EQ(data_writer_finish(w), 0);
	data_writer_free(w);
	return path;
}

static int run(const char *path, bool two, size_t stop_at, struct seen_tool *t)
{
	struct data_error derr = { 0 };
	struct session *s = session_open(path, NULL, &derr);
	int ret;

	memset(t, 0, sizeof(*t));
	t->tool.sample = seen_sample;
	t->tool.ordered = true;
	t->tool.two_threads = two;
	t->stop_at = stop_at;
	EXPECT_TRUE(s != NULL);
	if (!s)
		return -1;
	ret = session_process(s, &t->tool, &derr);
	session_free(s);
	return ret;
}

static void seen_release(struct seen_tool *t)
{
	free(t->seen);
}

TEST(session_two_threads_same_order)
{
	char *path = write_file();
	struct seen_tool one, two;

	EXPECT_EQ(run(path, false, 0, &one), 0);
	EXPECT_EQ(run(path, true, 0, &two), 0);
	EXPECT_EQ(one.nr, 2 * NR_ROUNDS * PER_RUN);
	EXPECT_EQ(two.nr, one.nr);
	for (size_t i = 0; i < one.nr && i < two.nr; i++) {
		if (one.seen[i].time != two.seen[i].time || one.seen[i].ip != two.seen[i].ip) {
			EXPECT_UEQ(two.seen[i].time, one.seen[i].time);
			EXPECT_UEQ(two.seen[i].ip, one.seen[i].ip);
			break;
		}
		/* and the order is the timestamps' */
		if (i)
			EXPECT_TRUE(two.seen[i].time > two.seen[i - 1].time);
	}
	seen_release(&one);
	seen_release(&two);
	free(path);
}

TEST(session_two_threads_stop)
{
	char *path = write_file();
	struct seen_tool one, two;

	/* a callback's non-zero result ends both the same way, mid-batch */
	EXPECT_EQ(run(path, false, 5001, &one), 7);
	EXPECT_EQ(run(path, true, 5001, &two), 7);
	EXPECT_EQ(one.nr, 5001);
	EXPECT_EQ(two.nr, 5001);
	seen_release(&one);
	seen_release(&two);
	free(path);
}
