/* SPDX-License-Identifier: MIT */
/* Allocation helpers that die on out-of-memory, and growable arrays. */
#ifndef SONDE_LIB_XALLOC_H
#define SONDE_LIB_XALLOC_H

#include <stddef.h>
#include <stdarg.h>

/* die - print "fatal: <msg>" to stderr and exit(255), perf's fatal status. */
void die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

/* Each returns memory owned by the caller; none returns NULL (dies on OOM). */
void *xmalloc(size_t size);
/* xaligned_alloc - xmalloc(@size) at an address multiple of @align (a power of two); free() it. */
void *xaligned_alloc(size_t align, size_t size);
/*
 * xhuge_alloc - xmalloc(@size) at a 2 MiB boundary, which the kernel is
 * asked to back with huge pages (fewer page faults and TLB misses for big
 * arrays that are walked at random); free() it.
 */
void *xhuge_alloc(size_t size);
/*
 * madvise_huge - ask the kernel to back the whole pages of [@p, @p + @len)
 * with huge pages from now on; a hint: where the kernel can't, nothing changes.
 */
void madvise_huge(void *p, size_t len);
void *xzalloc(size_t size);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *ptr, size_t size);
/* xreallocarray - xrealloc(ptr, nmemb * size), dying on multiplication overflow. */
void *xreallocarray(void *ptr, size_t nmemb, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
void *xmemdup(const void *p, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *xvasprintf(const char *fmt, va_list ap);

/*
 * xgrow - room for at least @need elements of @elem bytes in @ptr, whose
 * capacity in elements is *@cap; returns the (maybe moved) array and
 * updates *@cap. Capacity doubles (at least 8); new elements are
 * uninitialised. Use: a = xgrow(a, nr + 1, &alloc, sizeof(*a));
 */
void *xgrow(void *ptr, size_t need, size_t *cap, size_t elem);

#define FREE_AND_NULL(p)                                                           \
	do {                                                                       \
		free(p);                                                           \
		(p) = NULL;                                                        \
	} while (0)

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#ifndef MIN
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#endif

#endif
