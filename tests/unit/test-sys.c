/* SPDX-License-Identifier: MIT */
/* Unit tests for the PERF_TEST_ATTR dump and the kernel capability probe. */
#include "test.h"
#include "core/sys.h"

#include <string.h>

TEST(attr_dump_layout_is_perfs)
{
	struct perf_event_attr a;
	char buf[4096];
	size_t n;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	a.read_format = 3;
	a.disabled = 1;
	a.inherit = 1;
	a.enable_on_exec = 1;
	a.exclude_guest = 1;
	a.sample_type = PERF_SAMPLE_IDENTIFIER;
	n = sys_attr_dump(buf, sizeof(buf), &a, 3, -1, -1, 1234, PERF_FLAG_FD_CLOEXEC);
	EXPECT_EQ(n, strlen(buf));
	EXPECT_TRUE(!strncmp(buf, "[event-1-1-3]\nfd=3\ngroup_fd=-1\ncpu=-1\npid=1234\nflags=8\n"
				  "type=1\nsize=128\nconfig=1\nsample_period=0\nsample_type=65536\n"
				  "read_format=3\ndisabled=1\ninherit=1\n",
			     strlen("[event-1-1-3]\nfd=3\ngroup_fd=-1\ncpu=-1\npid=1234\nflags=8\n"
				    "type=1\nsize=128\nconfig=1\nsample_period=0\nsample_type=65536\n"
				    "read_format=3\ndisabled=1\ninherit=1\n")));
	EXPECT_TRUE(strstr(buf, "\nenable_on_exec=1\n"));
	EXPECT_TRUE(strstr(buf, "\nexclude_guest=1\n"));
	/* the last key perf writes */
	EXPECT_TRUE(n > 20 && !strcmp(buf + n - strlen("sample_stack_user=0\n"), "sample_stack_user=0\n"));
}

TEST(attr_dump_truncates_safely)
{
	struct perf_event_attr a;
	char buf[16];

	memset(&a, 0, sizeof(a));
	EXPECT_EQ(sys_attr_dump(buf, sizeof(buf), &a, 3, -1, 0, 1, 0), sizeof(buf));
	EXPECT_EQ(buf[sizeof(buf) - 1], 0);
}

TEST(kernel_caps_probe_is_consistent)
{
	struct kernel_caps c;

	kernel_caps_probe(&c);
	EXPECT_TRUE(c.paranoid >= -1 && c.paranoid <= 4);
	EXPECT_TRUE(!c.has_kprobes || c.has_tracefs);
	EXPECT_TRUE(!c.has_uprobes || c.has_tracefs);
	EXPECT_TRUE(!c.has_tracefs || c.tracefs);
}
