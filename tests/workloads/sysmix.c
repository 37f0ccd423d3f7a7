/* SPDX-License-Identifier: MIT */
/*
 * Workload for trace tests: issues a fixed list of system calls through
 * syscall(2) (so libc adds none of its own between them) and reports each
 * call and its return value on stderr as "name ret" lines written after the
 * traced calls. A forked child makes a few calls of its own.
 * Usage: sysmix [sleep_ms [FILE]]   (default 0: no nanosleep)
 * With FILE, page faults too (for trace --pf): two pages of the anonymous
 * mapping are touched ("touch ADDR" lines), then FILE is written, dropped
 * from the page cache and read through a mapping ("majfault ADDR": one
 * major fault at its first byte).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char log_buf[4096];
static size_t log_len;

/* record - remember "name ret" (errno as -ERR when the call failed) */
static long record(const char *name, long ret)
{
	int n;

	if (ret < 0)
		n = snprintf(log_buf + log_len, sizeof(log_buf) - log_len, "%s -1 %d\n", name, errno);
	else
		n = snprintf(log_buf + log_len, sizeof(log_buf) - log_len, "%s %ld\n", name, ret);
	if (n > 0 && (size_t)n < sizeof(log_buf) - log_len)
		log_len += n;
	return ret;
}

int main(int argc, char **argv)
{
	long sleep_ms = argc > 1 ? atol(argv[1]) : 0;
	char buf[16];
	long fd, fd2;
	void *p;
	pid_t child;
	int status;
	char touch_log[128];
	int n_touch = 0;

	record("openat", syscall(SYS_openat, AT_FDCWD, "/nonexistent/sonde", O_RDONLY, 0));
	fd = record("openat", syscall(SYS_openat, AT_FDCWD, "/dev/zero", O_RDONLY | O_CLOEXEC, 0));
	record("read", syscall(SYS_read, fd, buf, 4));
	fd2 = record("dup", syscall(SYS_dup, fd));
	record("close", syscall(SYS_close, fd2));
	record("close", syscall(SYS_close, 1234));
	p = (void *)record("mmap", syscall(SYS_mmap, NULL, 8192, PROT_READ | PROT_WRITE,
					   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
	if (argc > 2) {
		/* two minor faults, one per page (logged once the calls are done) */
		((volatile char *)p)[0] = 1;
		((volatile char *)p)[4096] = 1;
	}
	record("mprotect", syscall(SYS_mprotect, p, 4096, PROT_READ));
	record("munmap", syscall(SYS_munmap, p, 8192));
	record("getppid", syscall(SYS_getppid));
	record("kill", syscall(SYS_kill, (long)getpid(), 0L));
	record("close", syscall(SYS_close, fd));
	record("read", syscall(SYS_read, 0, buf, 0));
	record("kill", syscall(SYS_kill, 999999L, (long)SIGCONT));
	record("rt_sigprocmask", syscall(SYS_rt_sigprocmask, SIG_BLOCK, NULL, NULL, 8));
	if (sleep_ms) {
		struct timespec ts = { sleep_ms / 1000, (sleep_ms % 1000) * 1000000L };

		record("nanosleep", syscall(SYS_nanosleep, &ts, NULL));
	}
	if (argc > 2) {
		char page[4096];
		long pfd = record("openat", syscall(SYS_openat, AT_FDCWD, argv[2],
						    O_RDWR | O_CREAT | O_TRUNC, 0644));
		volatile char *m;

		memset(page, 'x', sizeof(page));
		record("write", syscall(SYS_write, pfd, page, sizeof(page)));
		record("fsync", syscall(SYS_fsync, pfd));
		record("fadvise64", syscall(SYS_fadvise64, pfd, 0L, 0L, (long)POSIX_FADV_DONTNEED));
		m = (void *)record("mmap", syscall(SYS_mmap, NULL, 4096, PROT_READ, MAP_SHARED, pfd, 0));
		(void)m[0];
		record("munmap", syscall(SYS_munmap, m, 4096));
		record("close", syscall(SYS_close, pfd));
		n_touch = snprintf(touch_log, sizeof(touch_log), "touch %lx\ntouch %lx\nmajfault %lx\n",
				   (unsigned long)p, (unsigned long)p + 4096, (unsigned long)m);
	}
	child = fork();
	if (child == 0) {
		struct timespec cts = { 0, 5000000L };

		syscall(SYS_nanosleep, &cts, NULL);
		syscall(SYS_getppid);
		syscall(SYS_close, 4321);
		_exit(0);
	}
	waitpid(child, &status, 0);
	fputs(log_buf, stderr);
	if (n_touch > 0)
		fputs(touch_log, stderr);
	return 0;
}
