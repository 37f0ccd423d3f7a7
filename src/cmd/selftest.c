/* SPDX-License-Identifier: MIT */
/* sonde test: sonde's own sanity tests of this machine (events, tracefs, uprobes, perf.data, symbols) in perf test's layout. */
#include "builtin.h"
#include "core/sys.h"
#include "lib/debug.h"
#include "lib/hashmap.h"
#include "lib/optspec.h"
#include "session/session.h"
#include "symbol/kallsyms.h"
#include "symbol/symtab.h"
#include "trace/tracefs.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

enum { TEST_OK, TEST_FAIL, TEST_SKIP };

/* struct selftest_ctx - a test's verdict details (the skip reason, -v notes) */
struct selftest_ctx {
	char reason[128];
	char notes[512];
};

static void note(struct selftest_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void note(struct selftest_ctx *c, const char *fmt, ...)
{
	size_t n = strlen(c->notes);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->notes + n, sizeof(c->notes) - n, fmt, ap);
	va_end(ap);
}

static int open_event(struct selftest_ctx *c, u32 type, u64 config)
{
	struct perf_event_attr attr = { .size = sizeof(attr), .type = type, .config = config,
					.disabled = 1, .exclude_kernel = 1 };
	int fd = sys_perf_event_open(&attr, 0, -1, -1, 0);

	if (fd == -EACCES || fd == -EPERM) {
		snprintf(c->reason, sizeof(c->reason), "no permission (perf_event_paranoid)");
		return TEST_SKIP;
	}
	if (fd < 0) {
		note(c, "perf_event_open: %s\n", strerror(-fd));
		return TEST_FAIL;
	}
	close(fd);
	return TEST_OK;
}

static int test_sw_event(struct selftest_ctx *c)
{
	return open_event(c, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK);
}

static int test_tracepoint(struct selftest_ctx *c)
{
	const char *root = tracefs_root();
	char path[PATH_MAX];
	FILE *f;
	unsigned long long id;
	int ok;

	if (!root) {
		snprintf(c->reason, sizeof(c->reason), "tracefs not mounted");
		return TEST_SKIP;
	}
	snprintf(path, sizeof(path), "%s/events/sched/sched_switch/id", root);
	f = fopen(path, "r");
	if (!f) {
		snprintf(c->reason, sizeof(c->reason), "cannot read %.100s", path);
		return TEST_SKIP;
	}
	ok = fscanf(f, "%llu", &id) == 1;
	fclose(f);
	if (!ok)
		return TEST_FAIL;
	note(c, "sched:sched_switch id %llu\n", id);
	return open_event(c, PERF_TYPE_TRACEPOINT, id);
}

static int test_tracefs(struct selftest_ctx *c)
{
	const char *root = tracefs_root();

	if (!root) {
		note(c, "no tracefs with events/ (mount -t tracefs nodev /sys/kernel/tracing)\n");
		return TEST_FAIL;
	}
	note(c, "tracefs at %s\n", root);
	return TEST_OK;
}

static int test_uprobes(struct selftest_ctx *c)
{
	const char *root = tracefs_root();
	char path[PATH_MAX];

	if (!root) {
		snprintf(c->reason, sizeof(c->reason), "tracefs not mounted");
		return TEST_SKIP;
	}
	snprintf(path, sizeof(path), "%s/uprobe_events", root);
	if (access(path, F_OK)) {
		snprintf(c->reason, sizeof(c->reason), "kernel without uprobe_events");
		return TEST_SKIP;
	}
	return TEST_OK;
}

/* record a short run with this binary, then read the file back */
static int test_round_trip(struct selftest_ctx *c)
{
	char self[PATH_MAX], file[] = "/tmp/sonde-test-XXXXXX";
	struct machine_opts mopts = { .no_symbols = true };
	struct data_error err = { 0 };
	struct session *s;
	struct tool tool = { 0 };
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	int fd = mkstemp(file), status, ret = TEST_OK;
	pid_t pid;

	if (n <= 0 || fd < 0)
		return TEST_FAIL;
	self[n] = '\0';
	close(fd);
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		if (null >= 0) {
			dup2(null, 1);
			dup2(null, 2);
		}
		execl(self, "sonde", "record", "-q", "-o", file, "-e", "cpu-clock", "-c", "100000",
		      "--", "true", (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
		note(c, "sonde record failed\n");
		unlink(file);
		return TEST_FAIL;
	}
	s = session_open(file, &mopts, &err);
	if (!s) {
		note(c, "reading it back: %s\n", err.msg);
		unlink(file);
		return TEST_FAIL;
	}
	if (session_process(s, &tool, &err) < 0) {
		note(c, "reading it back: %s\n", err.msg);
		ret = TEST_FAIL;
	} else {
		u64 nr = 0;

		for (int t = 0; t < PERF_RECORD_HEADER_MAX; t++)
			nr += s->stats.nr_events[t];
		note(c, "%llu records read back\n", (unsigned long long)nr);
		if (!nr)
			ret = TEST_FAIL;
	}
	session_free(s);
	unlink(file);
	return ret;
}

static int test_own_symbols(struct selftest_ctx *c)
{
	struct strpool pool;
	struct symsrc *ss;
	struct symsrc_args args = { 0 };
	int ret = TEST_OK;

	strpool_init(&pool);
	ss = symsrc_new(&pool);
	if (symsrc_load(ss, "/proc/self/exe", &args) < 0 ||
	    !symtab_find_by_name(&ss->symtab, "cmd_test")) {
		note(c, "cmd_test not found in /proc/self/exe\n");
		ret = TEST_FAIL;
	}
	symsrc_free(ss);
	strpool_release(&pool);
	return ret;
}

static int test_kallsyms(struct selftest_ctx *c)
{
	struct strpool pool;
	struct kallsyms ks;
	int err, ret = TEST_OK;

	memset(&ks, 0, sizeof(ks));
	strpool_init(&pool);
	err = kallsyms_load(&ks, NULL, &pool);
	if (err == -EPERM) {
		snprintf(c->reason, sizeof(c->reason), "kptr_restrict hides the addresses");
		ret = TEST_SKIP;
	} else if (err < 0) {
		note(c, "/proc/kallsyms: %s\n", strerror(-err));
		ret = TEST_FAIL;
	} else if (!symtab_find_by_name(&ks.kernel, "schedule")) {
		note(c, "no 'schedule' in /proc/kallsyms\n");
		ret = TEST_FAIL;
	}
	kallsyms_release(&ks);
	strpool_release(&pool);
	return ret;
}

static const struct {
	const char *desc;
	int (*fn)(struct selftest_ctx *c);
} selftests[] = {
	{ "Open a software event (cpu-clock)", test_sw_event },
	{ "Open a tracepoint (sched:sched_switch)", test_tracepoint },
	{ "tracefs mounted", test_tracefs },
	{ "uprobes available", test_uprobes },
	{ "perf.data round trip (record and read back)", test_round_trip },
	{ "Symbols of sonde's own binary", test_own_symbols },
	{ "Kernel symbols from /proc/kallsyms", test_kallsyms },
};

static const char *const test_usage[] = {
	"perf test [<options>] [{list <test-name-fragment>|[<test-name-fragments>|<test-numbers>]}]",
	NULL,
};

/* whether test @i (from 1) is picked by the arguments (numbers or name fragments) */
static bool picked(int i, int argc, const char **argv)
{
	if (!argc)
		return true;
	for (int a = 0; a < argc; a++) {
		char *end;
		long n = strtol(argv[a], &end, 10);

		if (!*end && end != argv[a] ? n == i : strcasestr(selftests[i - 1].desc, argv[a]) != NULL)
			return true;
	}
	return false;
}

int cmd_test(int argc, const char **argv)
{
	const char *skip = NULL;
	bool dont_fork = false;
	const struct opt_spec options[] = {
		SPEC_FLAG("dont-fork", 'F', &dont_fork, "Do not fork for testcase"),
		SPEC_TEXT("skip", 's', &skip, "tests", "tests to skip"),
		SPEC_COUNT("verbose", 'v', &verbose, "be more verbose (show symbol address, etc)"),
		SPEC_REFUSED("workload", 'w', "work", "workload to run for testing"),
		SPEC_END(),
	};
	int nr = (int)(sizeof(selftests) / sizeof(selftests[0])), width = 0, failed = 0;
	bool list = false;

	argc = opts_parse(argc, argv, options, test_usage, 0);
	if (argc && !strcmp(argv[0], "list")) {
		list = true;
		argc--;
		argv++;
	}
	for (int i = 0; i < nr; i++)
		if ((int)strlen(selftests[i].desc) > width)
			width = (int)strlen(selftests[i].desc);
	for (int i = 1; i <= nr; i++) {
		struct selftest_ctx c = { "", "" };
		char num[16];
		int r;

		if (!picked(i, argc, argv))
			continue;
		if (list) {
			printf("%3d: %s\n", i, selftests[i - 1].desc);
			continue;
		}
		snprintf(num, sizeof(num), "%d", i);
		if (skip && strstr(skip, num)) {
			printf("%3d: %-*s : Skip (user override)\n", i, width, selftests[i - 1].desc);
			continue;
		}
		fflush(stdout);
		r = selftests[i - 1].fn(&c);
		if (verbose)
			printf("%3d: %-*s :\n--- start ---\n%s---- end ----\n%s:", i, width,
			       selftests[i - 1].desc, c.notes, selftests[i - 1].desc);
		else
			printf("%3d: %-*s :", i, width, selftests[i - 1].desc);
		if (r == TEST_OK)
			printf(" Ok\n");
		else if (r == TEST_SKIP)
			printf(" Skip (%s)\n", c.reason);
		else {
			printf(" FAILED!\n");
			failed++;
		}
	}
	return failed ? 1 : 0;
}
