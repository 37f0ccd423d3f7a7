/* SPDX-License-Identifier: MIT */
/* Unit tests for data/synthesize's record --namespaces / --all-cgroups records. */
#include "test.h"
#include "data/event.h"
#include "data/synthesize.h"
#include "lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct cap {
	int nr;
	u32 types[16];
	u16 sizes[16];
	char paths[16][64];
	u64 words[16][3];
};

static int cap_emit(void *arg, union perf_event *ev)
{
	struct cap *c = arg;

	if (c->nr < 16) {
		c->types[c->nr] = ev->header.type;
		c->sizes[c->nr] = ev->header.size;
		memcpy(c->words[c->nr], (u8 *)ev + 8, 24);
		if (ev->header.type == PERF_RECORD_CGROUP)
			snprintf(c->paths[c->nr], sizeof(c->paths[0]), "%s", (char *)ev + 16);
	}
	c->nr++;
	return 0;
}

TEST(synth_namespaces_layout)
{
	struct cap c = { 0 };
	struct synth s;
	struct stat st;
	u64 dev, ino;
	char path[64];

	synth_init(&s, cap_emit, &c, 16, NULL);
	EXPECT_EQ(synth_namespaces(&s, getpid(), getpid()), 0);
	synth_release(&s);
	ASSERT_TRUE(c.nr == 1);
	EXPECT_EQ(c.types[0], PERF_RECORD_NAMESPACES);
	/* header, pid/tid, nr, 7 x {dev, ino}, then the 16-byte sample_id trailer */
	EXPECT_EQ(c.sizes[0], 8 + 8 + 8 + 7 * 16 + 16);
	EXPECT_EQ((u32)c.words[0][0], (u32)getpid());
	EXPECT_UEQ(c.words[0][1], 7);
	/* the first link is the net namespace */
	snprintf(path, sizeof(path), "/proc/%d/ns/net", getpid());
	if (stat(path, &st))
		test_skip("no /proc/PID/ns/net here");
	dev = st.st_dev;
	ino = st.st_ino;
	EXPECT_UEQ(c.words[0][2], dev);
	(void)ino;
}

TEST(synth_cgroups_walks_the_mount)
{
	char dir[] = "/tmp/sonde-cg.XXXXXX", mounts[128], sub[160], deeper[200];
	struct cap c = { 0 };
	struct synth s;
	FILE *f;

	ASSERT_TRUE(mkdtemp(dir) != NULL);
	snprintf(sub, sizeof(sub), "%s/a", dir);
	snprintf(deeper, sizeof(deeper), "%s/a/b", dir);
	ASSERT_TRUE(!mkdir(sub, 0755) && !mkdir(deeper, 0755));
	snprintf(mounts, sizeof(mounts), "%s/mounts", dir);
	f = fopen(mounts, "w");
	ASSERT_TRUE(f != NULL);
	/* a v1 hierarchy without perf_event is skipped; the cgroup2 mount is used */
	fprintf(f, "cgroup /nonexistent cgroup rw,cpu 0 0\ncgroup2 %s cgroup2 rw 0 0\n", dir);
	fclose(f);
	synth_init(&s, cap_emit, &c, 8, NULL);
	EXPECT_EQ(synth_cgroups(&s, mounts), 0);
	synth_release(&s);
	if (c.nr == 0) {
		rmdir(deeper), rmdir(sub), unlink(mounts), rmdir(dir);
		test_skip("no file handles on /tmp");
	}
	ASSERT_TRUE(c.nr == 3);
	EXPECT_EQ(c.types[0], PERF_RECORD_CGROUP);
	EXPECT_STREQ(c.paths[0], "/");
	EXPECT_STREQ(c.paths[1], "/a");
	EXPECT_STREQ(c.paths[2], "/a/b");
	/* header, id, "/a/b\0" padded to 8, trailer */
	EXPECT_EQ(c.sizes[2], 8 + 8 + 8 + 8);
	EXPECT_TRUE(c.words[0][0] != c.words[1][0]);
	rmdir(deeper);
	rmdir(sub);
	unlink(mounts);
	rmdir(dir);
}
