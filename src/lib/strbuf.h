/* SPDX-License-Identifier: MIT */
/* Growable NUL-terminated byte strings. */
#ifndef SONDE_LIB_STRBUF_H
#define SONDE_LIB_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

/* buf is always NUL-terminated: the literal "" (not owned, alloc 0) until the first growth. */
struct strbuf {
	char *buf;
	size_t len;
	size_t alloc;
};

#define STRBUF_INIT { (char *)"", 0, 0 }

void strbuf_init(struct strbuf *sb, size_t hint);
/* strbuf_release - free the buffer and reset @sb to STRBUF_INIT. */
void strbuf_release(struct strbuf *sb);
/* strbuf_detach - return the buffer (caller owns it, never NULL) and reset @sb. */
char *strbuf_detach(struct strbuf *sb, size_t *len);
void strbuf_grow(struct strbuf *sb, size_t extra);
void strbuf_setlen(struct strbuf *sb, size_t len);
#define strbuf_reset(sb) strbuf_setlen(sb, 0)
void strbuf_add(struct strbuf *sb, const void *data, size_t len);
void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addch(struct strbuf *sb, int c);
void strbuf_addchars(struct strbuf *sb, int c, size_t n);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap);
/* strbuf_rtrim - drop trailing white space. */
void strbuf_rtrim(struct strbuf *sb);
/*
 * strbuf_read_file - append the whole file at @path.
 * Returns the number of bytes read, or -errno.
 */
long strbuf_read_file(struct strbuf *sb, const char *path, size_t hint);
/* strbuf_read_fd - append everything readable from @fd. Returns bytes or -errno. */
long strbuf_read_fd(struct strbuf *sb, int fd, size_t hint);

#endif
