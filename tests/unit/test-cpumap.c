/* SPDX-License-Identifier: MIT */
/* Unit tests for cpu lists, thread lists and sysfs topology. */
#include "test.h"
#include "core/cpumap.h"
#include "core/threadmap.h"

#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

TEST(cpumap_parse_ranges)
{
	struct cpu_map *m = cpu_map_parse("0-3,6,8-9");
	char buf[64];

	ASSERT_TRUE(m);
	EXPECT_EQ(m->nr, 7);
	EXPECT_EQ(m->map[0], 0);
	EXPECT_EQ(m->map[3], 3);
	EXPECT_EQ(m->map[4], 6);
	EXPECT_EQ(m->map[6], 9);
	cpu_map_snprint(m, buf, sizeof(buf));
	EXPECT_STREQ(buf, "0-3,6,8-9");
	EXPECT_EQ(cpu_map_idx(m, 8), 5);
	EXPECT_EQ(cpu_map_idx(m, 5), -1);
	cpu_map_free(m);
}

TEST(cpumap_sorted_unique)
{
	struct cpu_map *m = cpu_map_parse("3,1,2");

	ASSERT_TRUE(m);
	EXPECT_EQ(m->nr, 3);
	EXPECT_EQ(m->map[0], 1);
	EXPECT_EQ(m->map[2], 3);
	cpu_map_free(m);
	/* as perf: C notation, "N-" is N-0, the list ends at an item without a digit */
	m = cpu_map_parse("0x2");
	ASSERT_TRUE(m);
	EXPECT_EQ(m->nr, 1);
	EXPECT_EQ(m->map[0], 2);
	cpu_map_free(m);
	m = cpu_map_parse("0-");
	ASSERT_TRUE(m);
	EXPECT_EQ(m->nr, 1);
	EXPECT_EQ(m->map[0], 0);
	cpu_map_free(m);
	m = cpu_map_parse("0,,1");
	ASSERT_TRUE(m);
	EXPECT_EQ(m->nr, 1);
	cpu_map_free(m);
}

TEST(cpumap_rejects_junk)
{
	EXPECT_TRUE(!cpu_map_parse(""));
	EXPECT_TRUE(!cpu_map_parse("a"));
	EXPECT_TRUE(!cpu_map_parse("3-1"));
	EXPECT_TRUE(!cpu_map_parse(",1"));
	EXPECT_TRUE(!cpu_map_parse(" 1"));
	EXPECT_TRUE(!cpu_map_parse("1 "));
	EXPECT_TRUE(!cpu_map_parse("1,1"));	/* perf refuses a cpu named twice */
	EXPECT_TRUE(!cpu_map_parse("0-1,1"));
	EXPECT_TRUE(!cpu_map_parse("-1"));
	EXPECT_TRUE(!cpu_map_parse("1-"));
	EXPECT_TRUE(!cpu_map_parse(NULL));
}

TEST(cpumap_dummy_and_online)
{
	struct cpu_map *d = cpu_map_dummy_new(), *o = cpu_map_online();

	EXPECT_TRUE(cpu_map_is_dummy(d));
	EXPECT_EQ(d->map[0], -1);
	ASSERT_TRUE(o && o->nr >= 1);
	EXPECT_TRUE(!cpu_map_is_dummy(o));
	EXPECT_EQ(o->nr, sysconf(_SC_NPROCESSORS_ONLN));
	cpu_map_free(d);
	cpu_map_free(o);
}

static void put(const char *root, const char *rel, const char *text)
{
	char path[512], cmd[600];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	ASSERT_TRUE(system(cmd) == 0);
	f = fopen(path, "w");
	ASSERT_TRUE(f);
	fputs(text, f);
	fclose(f);
}

TEST(cpu_topology_from_a_fake_sysfs)
{
	const char *root = test_tmpdir();
	struct cpu_topo t;
	char path[512];

	put(root, "devices/system/cpu/cpu3/topology/physical_package_id", "1\n");
	put(root, "devices/system/cpu/cpu3/topology/die_id", "2\n");
	put(root, "devices/system/cpu/cpu3/topology/core_id", "7\n");
	snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu3/node1", root);
	ASSERT_TRUE(mkdir(path, 0755) == 0);
	cpu_topo_read(root, 3, &t);
	EXPECT_EQ(t.socket, 1);
	EXPECT_EQ(t.die, 2);
	EXPECT_EQ(t.core, 7);
	EXPECT_EQ(t.node, 1);
	/* missing files read as 0, as perf does */
	cpu_topo_read(root, 5, &t);
	EXPECT_EQ(t.socket, 0);
	EXPECT_EQ(t.core, 0);
	EXPECT_EQ(t.node, 0);
}

TEST(threadmap_pid_lists)
{
	struct thread_map *m = NULL;
	char str[32];

	snprintf(str, sizeof(str), "%d", (int)getpid());
	EXPECT_EQ(thread_map_new_by_pid_str(str, &m), 0);
	ASSERT_TRUE(m && m->nr >= 1);
	EXPECT_EQ(m->pids[0], getpid());
	EXPECT_TRUE(thread_map_comm(m, 0)[0] != 0);
	thread_map_free(m);

	m = NULL;
	EXPECT_EQ(thread_map_new_by_pid_str("999999999", &m), -ESRCH);
	EXPECT_EQ(thread_map_new_by_pid_str("12x", &m), -EINVAL);
	EXPECT_EQ(thread_map_new_by_pid_str("", &m), -EINVAL);
	EXPECT_TRUE(m == NULL);

	/* tids are taken as given: the open reports missing ones */
	EXPECT_EQ(thread_map_new_by_tid_str("5,7,5", &m), 0);
	ASSERT_TRUE(m);
	EXPECT_EQ(m->nr, 2);
	EXPECT_EQ(m->pids[1], 7);
	thread_map_free(m);

	m = thread_map_new_dummy();
	EXPECT_EQ(m->nr, 1);
	EXPECT_EQ(m->pids[0], -1);
	thread_map_free(m);
}
