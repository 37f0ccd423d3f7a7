/* SPDX-License-Identifier: MIT */
/* Unit tests for data/synthesize: records from a fake /proc tree, perf's layouts. */
#include "test.h"
#include "core/cpumap.h"
#include "core/threadmap.h"
#include "data/event.h"
#include "data/synthesize.h"
#include "lib/util.h"
#include "lib/xalloc.h"

#include <sys/mman.h>
#include <sys/stat.h>

struct captured {
	unsigned char buf[8192];
	size_t len;
	int nr;
	u32 types[64];
};

static int capture(void *arg, union perf_event *ev)
{
	struct captured *c = arg;

	if (c->nr < 64)
		c->types[c->nr] = ev->header.type;
	c->nr++;
	if (c->len + ev->header.size <= sizeof(c->buf)) {
		memcpy(c->buf + c->len, ev, ev->header.size);
		c->len += ev->header.size;
	}
	return 0;
}

static void write_file(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	ASSERT_TRUE(f != NULL);
	fputs(text, f);
	fclose(f);
}

/* a process 100 with a second thread 101, an executable and a data mapping */
static const char *fake_proc(void)
{
	static char root[400];
	char d[512];

	snprintf(root, sizeof(root), "%s/proc", test_tmpdir());
	mkdir(root, 0755);
	snprintf(d, sizeof(d), "%s/100", root);
	mkdir(d, 0755);
	write_file(d, "status", "Name:\tburner\nUmask:\t0022\nState:\tR\nTgid:\t100\nNgid:\t0\nPid:\t100\nPPid:\t1\n");
	write_file(d, "maps",
		   "55d0a0000000-55d0a0004000 r-xp 00002000 fe:00 248139                     /usr/bin/burner\n"
		   "55d0a0004000-55d0a0005000 rw-p 00006000 fe:00 248139                     /usr/bin/burner\n"
		   "7f0000000000-7f0000001000 r-xp 00000000 00:00 0 \n"
		   "7ffd00000000-7ffd00002000 r-xp 00000000 00:00 0                          [vdso]\n");
	snprintf(d, sizeof(d), "%s/100/task", root);
	mkdir(d, 0755);
	snprintf(d, sizeof(d), "%s/100/task/100", root);
	mkdir(d, 0755);
	write_file(d, "status", "Name:\tburner\nTgid:\t100\nPid:\t100\nPPid:\t1\n");
	snprintf(d, sizeof(d), "%s/100/task/101", root);
	mkdir(d, 0755);
	write_file(d, "status", "Name:\tworker-thread-name-long\nTgid:\t100\nPid:\t101\nPPid:\t1\n");
	return root;
}

TEST(synth_trailer_size)
{
	EXPECT_EQ(synth_trailer_size(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
				   PERF_SAMPLE_PERIOD), 16);
	EXPECT_EQ(synth_trailer_size(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
				   PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER), 32);
	EXPECT_EQ(synth_trailer_size(PERF_SAMPLE_IP), 0);
}

TEST(synth_comm_and_mmaps_of_a_task)
{
	struct captured c = { .len = 0 };
	struct synth s;
	union perf_event *ev;
	pid_t tids[] = { 100 };

	synth_init(&s, capture, &c, 16, fake_proc());
	EXPECT_EQ(synth_thread_map_tasks(&s, tids, 1, true), 0);
	/* COMM, then the executable maps only: burner, //anon, [vdso] */
	EXPECT_EQ(c.nr, 4);
	EXPECT_EQ(c.types[0], PERF_RECORD_COMM);
	ev = (union perf_event *)c.buf;
	EXPECT_STREQ(ev->comm.comm, "burner");
	EXPECT_EQ(ev->comm.pid, 100);
	/* 8 header + 8 pid/tid + "burner\0" padded to 8 + 16 trailer */
	EXPECT_EQ(ev->header.size, 8 + 8 + 8 + 16);
	ev = (union perf_event *)(c.buf + ev->header.size);
	EXPECT_EQ(ev->header.type, PERF_RECORD_MMAP2);
	EXPECT_EQ(ev->header.misc, PERF_RECORD_MISC_USER);
	EXPECT_UEQ(ev->mmap2.start, 0x55d0a0000000ULL);
	EXPECT_UEQ(ev->mmap2.len, 0x4000);
	EXPECT_UEQ(ev->mmap2.pgoff, 0x2000);
	EXPECT_EQ(ev->mmap2.maj, 0xfe);
	EXPECT_EQ(ev->mmap2.min, 0);
	EXPECT_EQ(ev->mmap2.ino, 248139);
	EXPECT_EQ(ev->mmap2.prot, PROT_READ | PROT_EXEC);
	EXPECT_EQ(ev->mmap2.flags, MAP_PRIVATE);
	EXPECT_STREQ(ev->mmap2.filename, "/usr/bin/burner");
	/* 72 fixed + 16 name + 16 trailer, trailer zeroed */
	EXPECT_EQ(ev->header.size, 72 + 16 + 16);
	for (int i = 0; i < 16; i++)
		EXPECT_EQ(((unsigned char *)ev)[ev->header.size - 16 + i], 0);
	ev = (union perf_event *)((char *)ev + ev->header.size);
	EXPECT_STREQ(ev->mmap2.filename, "//anon");
	ev = (union perf_event *)((char *)ev + ev->header.size);
	EXPECT_STREQ(ev->mmap2.filename, "[vdso]");
	synth_release(&s);
}

TEST(synth_data_maps_with_mmap_data)
{
	struct captured c = { .len = 0 };
	struct synth s;

	synth_init(&s, capture, &c, 0, fake_proc());
	s.mmap_data = true;
	EXPECT_EQ(synth_mmaps(&s, 100), 0);
	EXPECT_EQ(c.nr, 4);
	synth_release(&s);
}

TEST(synth_all_tasks_fork_then_comm)
{
	struct captured c = { .len = 0 };
	struct synth s;
	union perf_event *ev;

	synth_init(&s, capture, &c, 0, fake_proc());
	EXPECT_EQ(synth_all_tasks(&s, false), 0);
	/* thread 100: FORK, COMM; thread 101: FORK, COMM */
	EXPECT_EQ(c.nr, 4);
	EXPECT_EQ(c.types[0], PERF_RECORD_FORK);
	EXPECT_EQ(c.types[1], PERF_RECORD_COMM);
	ev = (union perf_event *)c.buf;
	EXPECT_EQ(ev->fork.pid, 100);
	EXPECT_EQ(ev->fork.ppid, 1);
	ev = (union perf_event *)((char *)ev + ev->header.size);
	ev = (union perf_event *)((char *)ev + ev->header.size);
	/* a second thread's parent is its process */
	EXPECT_EQ(ev->fork.tid, 101);
	EXPECT_EQ(ev->fork.ppid, 100);
	ev = (union perf_event *)((char *)ev + ev->header.size);
	/* comm is cut to 15 characters, like the kernel's */
	EXPECT_STREQ(ev->comm.comm, "worker-thread-n");
	synth_release(&s);
}

TEST(synth_cpu_map_forms)
{
	struct captured c = { .len = 0 };
	struct synth s;
	struct cpu_map *range = cpu_map_parse("0-3"), *list = cpu_map_parse("0,2");
	unsigned char *p;
	u16 v;

	ASSERT_TRUE(range && list);
	synth_init(&s, capture, &c, 0, NULL);
	EXPECT_EQ(synth_cpu_map(&s, range), 0);
	p = c.buf;
	EXPECT_EQ(((struct perf_event_header *)p)->size, 16);
	memcpy(&v, p + 8, 2);
	EXPECT_EQ(v, 2); /* range */
	memcpy(&v, p + 12, 2);
	EXPECT_EQ(v, 0);
	memcpy(&v, p + 14, 2);
	EXPECT_EQ(v, 3);
	EXPECT_EQ(synth_cpu_map(&s, list), 0);
	p = c.buf + 16;
	memcpy(&v, p + 8, 2);
	EXPECT_EQ(v, 0); /* list */
	memcpy(&v, p + 10, 2);
	EXPECT_EQ(v, 2);
	memcpy(&v, p + 14, 2);
	EXPECT_EQ(v, 2);
	synth_release(&s);
	cpu_map_free(range);
	cpu_map_free(list);
}

TEST(synth_thread_map_and_header_only)
{
	struct captured c = { .len = 0 };
	struct synth s;
	struct thread_map *tm = thread_map_new_pid(4242);
	u64 nr, pid;

	synth_init(&s, capture, &c, 0, NULL);
	EXPECT_EQ(synth_thread_map(&s, tm), 0);
	EXPECT_EQ(((struct perf_event_header *)c.buf)->size, 16 + 24);
	memcpy(&nr, c.buf + 8, 8);
	memcpy(&pid, c.buf + 16, 8);
	EXPECT_EQ(nr, 1);
	EXPECT_EQ(pid, 4242);
	EXPECT_EQ(synth_header_only(&s, PERF_RECORD_FINISHED_INIT), 0);
	EXPECT_EQ(c.types[1], PERF_RECORD_FINISHED_INIT);
	EXPECT_EQ(((struct perf_event_header *)(c.buf + 40))->size, 8);
	synth_release(&s);
	thread_map_free(tm);
}
