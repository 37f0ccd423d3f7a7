/* SPDX-License-Identifier: MIT */
/* Unit tests for the live evlist: maps from targets, corked workloads, opens, group reads, errors. */
#include "test.h"
#include "core/cpumap.h"
#include "core/evlist-open.h"
#include "core/threadmap.h"
#include "lib/xalloc.h"

#include <errno.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static struct evsel *sw_evsel(u64 config, const char *name)
{
	struct perf_event_attr attr = { .type = PERF_TYPE_SOFTWARE, .config = config };
	struct evsel *e = evsel_new(&attr);

	e->name = xstrdup(name);
	e->attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	return e;
}

TEST(evlist_maps_from_targets)
{
	struct evlist *evlist = evlist_new();
	struct target t;
	char pid[32];

	memset(&t, 0, sizeof(t));
	EXPECT_EQ(evlist_create_maps(evlist, &t), 0);
	EXPECT_TRUE(cpu_map_is_dummy(evlist->cpus));
	EXPECT_EQ(evlist->threads->pids[0], -1);

	t.system_wide = true;
	EXPECT_EQ(evlist_create_maps(evlist, &t), 0);
	EXPECT_EQ(evlist->cpus->nr, sysconf(_SC_NPROCESSORS_ONLN));
	EXPECT_EQ(evlist->threads->pids[0], -1);

	memset(&t, 0, sizeof(t));
	t.cpu_list = "0";
	EXPECT_EQ(evlist_create_maps(evlist, &t), 0);
	EXPECT_EQ(evlist->cpus->nr, 1);
	t.cpu_list = "0-x";
	EXPECT_EQ(evlist_create_maps(evlist, &t), -EINVAL);

	memset(&t, 0, sizeof(t));
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	t.pid = pid;
	EXPECT_EQ(evlist_create_maps(evlist, &t), 0);
	EXPECT_TRUE(cpu_map_is_dummy(evlist->cpus));
	EXPECT_EQ(evlist->threads->pids[0], getpid());
	t.pid = "999999999";
	EXPECT_EQ(evlist_create_maps(evlist, &t), -ESRCH);
	evlist_free(evlist);
}

TEST(workload_cork_and_exec_status)
{
	struct evlist *evlist = evlist_new();
	struct target t;
	const char *ok[] = { "sh", "-c", "exit 7", NULL };
	const char *bad[] = { "/nonexistent/program", NULL };
	int status = 0;

	memset(&t, 0, sizeof(t));
	ASSERT_TRUE(evlist_create_maps(evlist, &t) == 0);
	EXPECT_EQ(evlist_prepare_workload(evlist, ok), 0);
	EXPECT_TRUE(evlist->workload.pid > 0);
	/* the child's pid became the thread map */
	EXPECT_EQ(evlist->threads->pids[0], evlist->workload.pid);
	EXPECT_EQ(evlist_start_workload(evlist), 0);
	EXPECT_TRUE(evlist_wait_workload(evlist, &status, 0) > 0);
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 7);

	evlist->threads->pids[0] = -1;
	EXPECT_EQ(evlist_prepare_workload(evlist, bad), 0);
	EXPECT_EQ(evlist_start_workload(evlist), -ENOENT);
	EXPECT_EQ(evlist->workload.pid, 0);
	evlist_free(evlist);
}

TEST(workload_never_started_is_reaped)
{
	struct evlist *evlist = evlist_new();
	struct target t;
	const char *argv[] = { "sleep", "100", NULL };
	pid_t pid;

	memset(&t, 0, sizeof(t));
	ASSERT_TRUE(evlist_create_maps(evlist, &t) == 0);
	ASSERT_TRUE(evlist_prepare_workload(evlist, argv) == 0);
	pid = evlist->workload.pid;
	/* freeing without starting closes the cork: the child exits, no zombie */
	evlist_free(evlist);
	EXPECT_TRUE(waitpid(pid, NULL, WNOHANG) < 0 && errno == ECHILD);
}

TEST(open_read_and_group_read)
{
	struct evlist *evlist = evlist_new();
	struct evsel *leader = sw_evsel(PERF_COUNT_SW_TASK_CLOCK, "task-clock");
	struct evsel *member = sw_evsel(PERF_COUNT_SW_PAGE_FAULTS, "page-faults");
	struct cpu_map *cpus = cpu_map_dummy_new();
	struct thread_map *threads = thread_map_new_pid(0);
	volatile char *p;
	int err;

	evlist_add(evlist, leader);
	evlist_add(evlist, member);
	member->leader = leader;
	leader->nr_members = 2;
	leader->attr.read_format |= PERF_FORMAT_ID | PERF_FORMAT_GROUP;
	member->attr.read_format |= PERF_FORMAT_ID | PERF_FORMAT_GROUP;
	leader->attr.disabled = 1;
	err = evsel_open(leader, cpus, threads);
	if (err == -EACCES || err == -EPERM)
		test_skip("perf_event_open not permitted here");
	ASSERT_TRUE(err == 0);
	ASSERT_TRUE(evsel_open(member, cpus, threads) == 0);
	EXPECT_EQ(evsel_nr_fds(leader), 1);
	evlist_enable(evlist);
	p = xmalloc(1 << 20);
	for (int i = 0; i < (1 << 20); i += 4096)
		p[i] = 1;
	for (volatile long i = 0; i < 2000000; i++)
		;
	evlist_disable(evlist);
	EXPECT_EQ(evsel_read_counts(leader), 0);
	EXPECT_EQ(evsel_read_counts(member), 0);
	EXPECT_TRUE(leader->counts[0].val > 0);
	EXPECT_TRUE(leader->counts[0].run > 0);
	/* the member's value comes out of the group read, by id */
	EXPECT_TRUE(member->counts[0].val >= 200);
	EXPECT_TRUE(member->counts[0].val < leader->counts[0].val);
	free((void *)p);
	evlist_close(evlist);
	EXPECT_EQ(leader->fd[0], -1);
	leader->cpus = member->cpus = NULL;
	leader->threads = member->threads = NULL;
	evlist_free(evlist);
	cpu_map_free(cpus);
	thread_map_free(threads);
}

TEST(strerror_open_texts)
{
	struct perf_event_attr attr = { .type = PERF_TYPE_HARDWARE };
	struct evsel *e = evsel_new(&attr);
	struct target t;
	char buf[2048];

	memset(&t, 0, sizeof(t));
	e->name = xstrdup("cycles");
	evlist_strerror_open(e, &t, EACCES, buf, sizeof(buf));
	EXPECT_TRUE(!strncmp(buf, "Access to performance monitoring and observability operations is limited.\n", 74));
	EXPECT_TRUE(strstr(buf, "\nperf_event_paranoid setting is "));
	EXPECT_TRUE(strstr(buf, "\n>= 2: Disallow kernel profiling\n"));
	evlist_strerror_open(e, &t, ENOENT, buf, sizeof(buf));
	EXPECT_STREQ(buf, "The cycles event is not supported.");
	evlist_strerror_open(e, &t, EMFILE, buf, sizeof(buf));
	EXPECT_TRUE(!strncmp(buf, "Too many events are opened.\n", 28));
	t.cpu_list = "99";
	evlist_strerror_open(e, &t, ENODEV, buf, sizeof(buf));
	EXPECT_STREQ(buf, "No such device - did you specify an out-of-range profile CPU?");
	evlist_strerror_open(e, &t, ESRCH, buf, sizeof(buf));
	EXPECT_STREQ(buf, "The sys_perf_event_open() syscall returned with 3 (No such process) for event (cycles).\n"
			  "/bin/dmesg | grep -i perf may provide additional information.\n");
	/* a small buffer is cut, never overrun */
	evlist_strerror_open(e, &t, EACCES, buf, 10);
	EXPECT_EQ(strlen(buf), 9);
	evsel_free(e);
}

TEST(unsupported_errnos_and_user_fallback)
{
	struct perf_event_attr attr = { .type = PERF_TYPE_SOFTWARE };
	struct evsel *e = evsel_new(&attr);

	EXPECT_TRUE(evsel_is_unsupported_errno(EOPNOTSUPP));
	EXPECT_TRUE(evsel_is_unsupported_errno(ENOENT));
	EXPECT_TRUE(!evsel_is_unsupported_errno(EACCES));
	EXPECT_TRUE(!evsel_is_unsupported_errno(EMFILE));
	e->name = xstrdup("cs");
	EXPECT_TRUE(!evsel_fallback_exclude_kernel(e, ENOENT));
	e->attr.exclude_kernel = 1;
	EXPECT_TRUE(!evsel_fallback_exclude_kernel(e, EACCES)); /* nothing left to drop */
	evsel_free(e);
}
