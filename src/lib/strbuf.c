/* SPDX-License-Identifier: MIT */
/* Growable NUL-terminated byte strings. */
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * An empty strbuf owns nothing (alloc == 0) and its buf is the read-only
 * literal "": nothing is ever written through it, the first growth
 * allocates. Capacities double from STRBUF_MIN_CAP.
 */
#define STRBUF_MIN_CAP 32

void strbuf_init(struct strbuf *sb, size_t hint)
{
	*sb = (struct strbuf)STRBUF_INIT;
	if (hint)
		strbuf_grow(sb, hint);
}

void strbuf_release(struct strbuf *sb)
{
	if (sb->alloc)
		free(sb->buf);
	*sb = (struct strbuf)STRBUF_INIT;
}

char *strbuf_detach(struct strbuf *sb, size_t *len)
{
	char *owned = sb->alloc ? sb->buf : xstrdup("");

	if (len)
		*len = sb->len;
	*sb = (struct strbuf)STRBUF_INIT;
	return owned;
}

void strbuf_grow(struct strbuf *sb, size_t extra)
{
	size_t need, cap;

	if (extra > SIZE_MAX - 1 - sb->len)
		die("strbuf size overflow");
	need = sb->len + extra + 1;
	if (need <= sb->alloc)
		return;
	cap = sb->alloc ? sb->alloc : STRBUF_MIN_CAP;
	while (cap < need)
		cap = cap > SIZE_MAX / 2 ? need : cap * 2;
	if (sb->alloc) {
		sb->buf = xrealloc(sb->buf, cap);
	} else {
		/* an unowned buffer is always empty */
		sb->buf = xmalloc(cap);
		sb->buf[0] = '\0';
	}
	sb->alloc = cap;
}

void strbuf_setlen(struct strbuf *sb, size_t len)
{
	if (len >= sb->alloc) {
		if (!len)
			return; /* empty and unowned: buf is "" already */
		strbuf_grow(sb, len - sb->len);
	}
	sb->len = len;
	sb->buf[len] = '\0';
}

void strbuf_add(struct strbuf *sb, const void *data, size_t len)
{
	if (!len)
		return;
	strbuf_grow(sb, len);
	memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void strbuf_addstr(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_addch(struct strbuf *sb, int c)
{
	char ch = (char)c;

	strbuf_add(sb, &ch, 1);
}

void strbuf_addchars(struct strbuf *sb, int c, size_t n)
{
	if (!n)
		return;
	strbuf_grow(sb, n);
	memset(sb->buf + sb->len, c, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list measure;
	int n;

	/* measure first, then format into exactly enough room */
	va_copy(measure, ap);
	n = vsnprintf(NULL, 0, fmt, measure);
	va_end(measure);
	if (n < 0)
		die("vsnprintf failed");
	strbuf_grow(sb, (size_t)n);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	sb->len += (size_t)n;
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

void strbuf_rtrim(struct strbuf *sb)
{
	size_t n = sb->len;

	while (n && strchr(" \t\n\r", sb->buf[n - 1]))
		n--;
	if (n != sb->len) {
		sb->len = n;
		sb->buf[n] = '\0';
	}
}

long strbuf_read_fd(struct strbuf *sb, int fd, size_t hint)
{
	const size_t start = sb->len;
	size_t want = hint ? hint : 8192;

	for (;;) {
		ssize_t got;

		strbuf_grow(sb, want);
		got = read(fd, sb->buf + sb->len, sb->alloc - 1 - sb->len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			int err = errno;

			strbuf_setlen(sb, start);
			return -err;
		}
		if (got == 0)
			break;
		sb->len += (size_t)got;
		sb->buf[sb->len] = '\0';
		want = 8192;
	}
	if (sb->alloc)
		sb->buf[sb->len] = '\0';
	return (long)(sb->len - start);
}

long strbuf_read_file(struct strbuf *sb, const char *path, size_t hint)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	long ret;

	if (fd < 0)
		return -errno;
	ret = strbuf_read_fd(sb, fd, hint);
	close(fd);
	return ret;
}
