/* SPDX-License-Identifier: MIT */
/* Unit tests for session/recorder: DSO hit tracking from the records that pass by. */
#include "test.h"
#include "core/evlist.h"
#include "core/evsel.h"
#include "data/event.h"
#include "data/writer.h"
#include "lib/xalloc.h"
#include "session/recorder.h"

static struct recorder_dso *dso_named(struct recorder *r, const char *name)
{
	for (int i = 0; i < r->nr_dsos; i++)
		if (!strcmp(r->dsos[i]->name, name))
			return r->dsos[i];
	return NULL;
}

static void put_mmap2(struct recorder *r, u32 pid, u64 start, u64 len, const char *name)
{
	u64 buf[64] = { 0 };
	union perf_event *ev = (void *)buf;
	size_t n = PERF_ALIGN(strlen(name) + 1, 8);

	ev->header.type = PERF_RECORD_MMAP2;
	ev->header.misc = PERF_RECORD_MISC_USER;
	ev->header.size = sizeof(struct perf_record_mmap2) + n;
	ev->mmap2.pid = ev->mmap2.tid = pid;
	ev->mmap2.start = start;
	ev->mmap2.len = len;
	strcpy(ev->mmap2.filename, name);
	EXPECT_EQ(recorder_write_synth(r, ev), 0);
}

/* a SAMPLE with IP|TID|TIME */
static void put_sample(struct recorder *r, u32 pid, u64 ip, u64 time, u16 cpumode)
{
	u64 buf[64] = { 0 };
	union perf_event *ev = (void *)buf;

	ev->header.type = PERF_RECORD_SAMPLE;
	ev->header.misc = cpumode;
	ev->header.size = 4 * sizeof(u64);
	buf[1] = ip;
	buf[2] = (u64)pid | (u64)pid << 32;
	buf[3] = time;
	EXPECT_EQ(recorder_write_synth(r, ev), 0);
}

static void put_task(struct recorder *r, u32 type, u32 pid, u32 ppid, u16 misc)
{
	u64 buf[64] = { 0 };
	union perf_event *ev = (void *)buf;

	ev->header.type = type;
	ev->header.misc = misc;
	if (type == PERF_RECORD_FORK) {
		ev->header.size = sizeof(struct perf_record_fork);
		ev->fork.pid = ev->fork.tid = pid;
		ev->fork.ppid = ev->fork.ptid = ppid;
	} else {
		ev->header.size = sizeof(struct perf_record_comm) + 8;
		ev->comm.pid = ev->comm.tid = pid;
		strcpy(ev->comm.comm, "x");
	}
	EXPECT_EQ(recorder_write_synth(r, ev), 0);
}

TEST(recorder_hits_follow_maps_forks_and_exec)
{
	char path[512];
	struct perf_event_attr attr = { .type = PERF_TYPE_SOFTWARE,
					.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID |
						       PERF_SAMPLE_TIME };
	struct evlist *evlist = evlist_new();
	struct data_writer *w;
	struct perf_mmap_set rings = { 0 };
	struct recorder r;
	int err = 0;

	evlist_add(evlist, evsel_new(&attr));
	snprintf(path, sizeof(path), "%s/r.data", test_tmpdir());
	w = data_writer_open(path, NULL, &err);
	ASSERT_TRUE(w != NULL);
	data_writer_add_attr(w, &attr, NULL, 0, "cpu-clock");
	ASSERT_TRUE(data_writer_start(w) == 0);
	recorder_init(&r, w, &rings, evlist, true);

	put_mmap2(&r, 10, 0x1000, 0x1000, "/bin/a");
	put_mmap2(&r, 10, 0x5000, 0x1000, "/lib/b.so");
	put_sample(&r, 10, 0x1800, 100, PERF_RECORD_MISC_USER);
	EXPECT_TRUE(dso_named(&r, "/bin/a")->hit);
	EXPECT_TRUE(!dso_named(&r, "/lib/b.so")->hit);

	/* a forked child sees its parent's maps */
	put_task(&r, PERF_RECORD_FORK, 11, 10, 0);
	put_sample(&r, 11, 0x5004, 200, PERF_RECORD_MISC_USER);
	EXPECT_TRUE(dso_named(&r, "/lib/b.so")->hit);

	/* exec drops them; a newer map over the same range wins */
	put_task(&r, PERF_RECORD_COMM, 11, 0, PERF_RECORD_MISC_COMM_EXEC);
	put_mmap2(&r, 11, 0x1000, 0x1000, "/bin/c");
	put_mmap2(&r, 11, 0x1000, 0x1000, "/bin/d");
	put_sample(&r, 11, 0x1010, 300, PERF_RECORD_MISC_USER);
	EXPECT_TRUE(dso_named(&r, "/bin/d")->hit);
	EXPECT_TRUE(!dso_named(&r, "/bin/c")->hit);

	/* unknown pids and addresses are counted, not fatal */
	put_sample(&r, 99, 0x1010, 50, PERF_RECORD_MISC_USER);
	EXPECT_EQ(r.nr_samples, 4);
	EXPECT_UEQ(r.first_time, 50);
	EXPECT_UEQ(r.last_time, 300);

	recorder_release(&r);
	data_writer_free(w);
	evlist_free(evlist);
}
