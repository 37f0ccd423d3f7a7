/* SPDX-License-Identifier: MIT */
/* Unit-test runner: forks each registered test and prints TAP. */
#include "test.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <sys/wait.h>
#include <unistd.h>

struct unit_test {
	const char *name;
	void (*fn)(void);
	const char *file;
};

static struct unit_test tests[2048];
static int nr_tests;
static int nr_failures;	  /* in the child: failed expectations */
static int skip_fd = -1;  /* in the child: where the skip reason goes */
static char tmpdir[256];

void unit_test_register(const char *name, void (*fn)(void), const char *file)
{
	if (nr_tests < (int)(sizeof(tests) / sizeof(tests[0])))
		tests[nr_tests++] = (struct unit_test){ name, fn, file };
}

void test_fail_at(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	nr_failures++;
	fprintf(stdout, "# %s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stdout, fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	fflush(stdout);
}

void test_skip(const char *reason)
{
	if (skip_fd >= 0 && write(skip_fd, reason, strlen(reason)) < 0)
		exit(1);
	exit(77);
}

const char *test_tmpdir(void)
{
	if (!tmpdir[0]) {
		snprintf(tmpdir, sizeof(tmpdir), "/tmp/sonde-unit-XXXXXX");
		if (!mkdtemp(tmpdir))
			exit(1);
	}
	return tmpdir;
}

static const char *short_file(const char *f)
{
	const char *s = strrchr(f, '/');

	return s ? s + 1 : f;
}

int main(int argc, char **argv)
{
	int n = 0, failed = 0;

	for (int i = 0; i < nr_tests; i++) {
		struct unit_test *t = &tests[i];
		char reason[512] = "";
		int pfd[2], status;
		pid_t pid;
		ssize_t len;
		bool match = argc < 2;

		for (int a = 1; a < argc; a++)
			if (strstr(t->name, argv[a]) || strstr(t->file, argv[a]))
				match = true;
		if (!match)
			continue;
		n++;
		if (pipe(pfd))
			return 1;
		fflush(stdout);
		pid = fork();
		if (pid == 0) {
			close(pfd[0]);
			skip_fd = pfd[1];
			t->fn();
			if (tmpdir[0]) {
				char cmd[300];

				snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
				if (system(cmd))
					nr_failures++;
			}
			fflush(stdout);
			_exit(nr_failures ? 1 : 0);
		}
		close(pfd[1]);
		len = read(pfd[0], reason, sizeof(reason) - 1);
		reason[len > 0 ? len : 0] = '\0';
		close(pfd[0]);
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
			printf("ok %d - %s: %s\n", n, short_file(t->file), t->name);
		} else if (WIFEXITED(status) && WEXITSTATUS(status) == 77) {
			printf("ok %d - %s: %s # SKIP %s\n", n, short_file(t->file), t->name, reason);
		} else {
			failed++;
			if (WIFSIGNALED(status))
				printf("# killed by signal %d\n", WTERMSIG(status));
			printf("not ok %d - %s: %s\n", n, short_file(t->file), t->name);
		}
	}
	printf("1..%d\n", n);
	return failed ? 1 : 0;
}
