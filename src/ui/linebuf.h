/* SPDX-License-Identifier: MIT */
/* A line built in a fixed buffer and written with one call: the per-event printers of sched (printf dominated their run time). */
#ifndef SONDE_UI_LINEBUF_H
#define SONDE_UI_LINEBUF_H

#include "lib/util.h"

#include <stdio.h>
#include <string.h>

/* struct lbuf - one line; what does not fit is cut (a line is a few hundred bytes at most) */
struct lbuf {
	char b[1024];
	int n;
};

/* bytes left, keeping one spare */
static inline int lb_room(const struct lbuf *l)
{
	return (int)sizeof(l->b) - 1 - l->n;
}

/* inline: most calls copy a literal of a few bytes, which then needs no libc call */
static inline void lb_mem(struct lbuf *l, const char *s, int len)
{
	if (len > lb_room(l))
		len = lb_room(l);
	memcpy(l->b + l->n, s, (size_t)len);
	l->n += len;
}

static inline void lb_str(struct lbuf *l, const char *s)
{
	lb_mem(l, s, (int)strlen(s));
}

static inline void lb_char(struct lbuf *l, char c)
{
	if (lb_room(l) > 0)
		l->b[l->n++] = c;
}

/* lb_spaces - @n spaces (none when @n <= 0) */
void lb_spaces(struct lbuf *l, int n);
/* lb_u64, lb_s64 - the decimal digits of @v ("%" PRIu64, "%" PRId64) */
void lb_u64(struct lbuf *l, u64 v);
void lb_s64(struct lbuf *l, s64 v);
/*
 * lb_fixed - "@whole.@frac" with @nfrac (at most 9) zero-padded fraction
 * digits, right-aligned in @width: printf's "%*s" of "%lu.%0*lu"
 */
void lb_fixed(struct lbuf *l, u64 whole, u64 frac, int nfrac, int width);
/*
 * lb_flush - write the line to stdout and empty it. Unlocked: the stream
 * is written by one thread, and its lock per line only costs.
 */
static inline void lb_flush(struct lbuf *l)
{
	fwrite_unlocked(l->b, 1, (size_t)l->n, stdout);
	l->n = 0;
}

/* lb_need - make room for @n bytes by writing out what is there (long lines go out in pieces) */
static inline void lb_need(struct lbuf *l, int n)
{
	if (lb_room(l) < n)
		lb_flush(l);
}

#endif
