/* SPDX-License-Identifier: MIT */
/* Small generic helpers: numbers, time, files. */
#include "util.h"
#include "strbuf.h"
#include "xalloc.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

bool strstarts(const char *str, const char *prefix)
{
	return strncmp(str, prefix, strlen(prefix)) == 0;
}

bool strendswith(const char *str, const char *suffix)
{
	size_t a = strlen(str), b = strlen(suffix);

	return a >= b && !memcmp(str + a - b, suffix, b);
}

int parse_u64(const char *s, u64 *val)
{
	char *end;
	unsigned long long v;

	if (!s || !*s || *s == '-')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno)
		return -errno;
	if (*end)
		return -EINVAL;
	*val = v;
	return 0;
}

int parse_s64(const char *s, s64 *val)
{
	char *end;
	long long v;

	if (!s || !*s)
		return -EINVAL;
	errno = 0;
	v = strtoll(s, &end, 0);
	if (errno)
		return -errno;
	if (*end)
		return -EINVAL;
	*val = v;
	return 0;
}

u64 clock_ns(int clockid)
{
	struct timespec ts;

	clock_gettime(clockid, &ts);
	return (u64)ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

u64 monotonic_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

char *read_sysfs_str(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	long n = strbuf_read_file(&sb, path, 128);

	if (n < 0) {
		strbuf_release(&sb);
		errno = (int)-n;
		return NULL;
	}
	while (sb.len && (sb.buf[sb.len - 1] == '\n'))
		strbuf_setlen(&sb, sb.len - 1);
	return strbuf_detach(&sb, NULL);
}

int read_sysfs_int(const char *path, long long *val)
{
	char *s = read_sysfs_str(path), *end;
	int ret = 0;

	if (!s)
		return -errno;
	errno = 0;
	*val = strtoll(s, &end, 0);
	if (errno || end == s)
		ret = -EINVAL;
	free(s);
	return ret;
}

int write_full(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= n;
	}
	return 0;
}

ssize_t read_full(int fd, void *buf, size_t len)
{
	char *p = buf;
	size_t got = 0;

	while (got < len) {
		ssize_t n = read(fd, p + got, len - got);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (!n)
			break;
		got += n;
	}
	return (ssize_t)got;
}

char *size_str(char *buf, size_t len, u64 bytes)
{
	static const char units[] = "BKMG";
	int shift = 30; /* G: perf goes no higher */

	while (shift && bytes >> shift < 2)
		shift -= 10;
	snprintf(buf, len, "%" PRIu64 "%c", bytes >> shift, units[shift / 10]);
	return buf;
}
