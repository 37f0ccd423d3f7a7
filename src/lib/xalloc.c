/* SPDX-License-Identifier: MIT */
/* Allocation helpers that die on out-of-memory. */
#include "lib/xalloc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

void die(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("fatal: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(255);
}

static void *check(void *p, size_t size)
{
	if (!p && size)
		die("out of memory allocating %zu bytes", size);
	return p;
}

void *xmalloc(size_t size)
{
	return check(malloc(size ? size : 1), size);
}

void *xaligned_alloc(size_t align, size_t size)
{
	/* C11 wants a size that is a multiple of the alignment */
	size_t n = size ? (size + align - 1) / align * align : align;

	return check(aligned_alloc(align, n), n);
}

#define HUGE_PAGE ((size_t)2 << 20)

void madvise_huge(void *p, size_t len)
{
	uintptr_t start = ((uintptr_t)p + 4095) & ~(uintptr_t)4095;
	uintptr_t end = ((uintptr_t)p + len) & ~(uintptr_t)4095;

	/* below a huge page's worth there is nothing to gain; EINVAL without THP is fine */
	if (end > start && end - start >= HUGE_PAGE)
		(void)madvise((void *)start, end - start, MADV_HUGEPAGE);
}

void *xhuge_alloc(size_t size)
{
	void *p = xaligned_alloc(HUGE_PAGE, size);

	madvise_huge(p, (size + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE);
	return p;
}

void *xzalloc(size_t size)
{
	return xcalloc(1, size);
}

void *xcalloc(size_t nmemb, size_t size)
{
	if (!nmemb || !size)
		return check(calloc(1, 1), 1);
	return check(calloc(nmemb, size), nmemb * size);
}

void *xrealloc(void *ptr, size_t size)
{
	return check(realloc(ptr, size ? size : 1), size);
}

void *xreallocarray(void *ptr, size_t nmemb, size_t size)
{
	if (size && nmemb > SIZE_MAX / size)
		die("allocation size overflow (%zu x %zu)", nmemb, size);
	return xrealloc(ptr, nmemb * size);
}

void *xgrow(void *ptr, size_t need, size_t *cap, size_t elem)
{
	size_t n = *cap ? *cap : 8;

	if (need <= *cap)
		return ptr;
	while (n < need)
		n = n > SIZE_MAX / 2 ? need : n * 2;
	ptr = xreallocarray(ptr, n, elem);
	*cap = n;
	return ptr;
}

char *xstrdup(const char *s)
{
	return check(strdup(s), strlen(s) + 1);
}

char *xstrndup(const char *s, size_t n)
{
	return check(strndup(s, n), n + 1);
}

void *xmemdup(const void *p, size_t n)
{
	void *q = xmalloc(n);

	memcpy(q, p, n);
	return q;
}

char *xvasprintf(const char *fmt, va_list ap)
{
	char *s;

	if (vasprintf(&s, fmt, ap) < 0)
		die("out of memory formatting a string");
	return s;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	return s;
}
