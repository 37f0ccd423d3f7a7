/* SPDX-License-Identifier: MIT */
/* Run a program from an argv (no shell) and collect what it writes to stdout and stderr. */
#include "lib/subproc.h"

#include "lib/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

int subproc_capture(const char *path, const char *const *argv, char **out, size_t *len,
		    int *status)
{
	size_t n = 0, alloc = 4096;
	char *buf;
	posix_spawn_file_actions_t fa;
	int fds[2], ws = 0, err;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC))
		return -errno;
	/* the child: stdin /dev/null, stdout and stderr the pipe's end */
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, fds[1], STDOUT_FILENO);
	posix_spawn_file_actions_adddup2(&fa, fds[1], STDERR_FILENO);
	err = posix_spawn(&pid, path, &fa, NULL, (char *const *)argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	if (err) {
		close(fds[0]);
		return -err;
	}
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
