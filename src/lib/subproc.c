/* SPDX-License-Identifier: MIT */
/* Run a program from an argv (no shell) and collect what it writes to stdout and stderr. */
#include "lib/subproc.h"

#include "lib/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* child_exec - in the child: the pipe as stdout/stderr, /dev/null as stdin, then @path */
static void child_exec(const char *path, const char *const *argv, int wfd)
{
	int nul = open("/dev/null", O_RDONLY);

	if (nul >= 0) {
		dup2(nul, STDIN_FILENO);
		close(nul);
	}
	dup2(wfd, STDOUT_FILENO);
	dup2(wfd, STDERR_FILENO);
	if (wfd > STDERR_FILENO)
		close(wfd);
	signal(SIGPIPE, SIG_DFL);
	execv(path, (char *const *)argv);
	_exit(127);
}

int subproc_capture(const char *path, const char *const *argv, char **out, size_t *len,
		    int *status)
{
	size_t n = 0, alloc = 4096;
	char *buf;
	int fds[2], ws = 0;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid < 0) {
		int err = errno;

		close(fds[0]);
		close(fds[1]);
		return -err;
	}
	if (!pid) {
		close(fds[0]);
		child_exec(path, argv, fds[1]);
	}
	close(fds[1]);
	buf = xmalloc(alloc);
	for (;;) {
		ssize_t r;

		if (n + 1 >= alloc) {
			alloc *= 2;
			buf = xrealloc(buf, alloc);
		}
		r = read(fds[0], buf + n, alloc - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	close(fds[0]);
	while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
		;
	buf[n] = '\0';
	*out = buf;
	*len = n;
	if (status)
		*status = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
	return 0;
}
