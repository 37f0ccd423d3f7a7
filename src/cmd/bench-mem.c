/* SPDX-License-Identifier: MIT */
/* sonde bench mem: memcpy and memset, perf's routines (default, x86-64-unrolled, movsq/movsb, stosq/stosb). */
#include "cmd/bench.h"
#include "builtin.h"
#include "lib/optspec.h"
#include "lib/util.h"
#include "lib/xalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/time.h>

/* gettimeofday() in microseconds */
static double usec_now(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return (double)tv.tv_sec * 1e6 + (double)tv.tv_usec;
}

/* ---- mem memcpy / memset ---- */

typedef void mem_fn(void *dst, const void *src, size_t len);

static void copy_default(void *dst, const void *src, size_t len)
{
	memcpy(dst, src, len);
}

/* eight bytes at a time, four per round */
static void copy_unrolled(void *dst, const void *src, size_t len)
{
	u64 *d = dst;
	const u64 *s = src;
	size_t n = len / 8, i = 0;

	for (; i + 4 <= n; i += 4) {
		u64 a = s[i], b = s[i + 1], c = s[i + 2], e = s[i + 3];

		d[i] = a;
		d[i + 1] = b;
		d[i + 2] = c;
		d[i + 3] = e;
	}
	for (; i < n; i++)
		d[i] = s[i];
	memcpy((char *)dst + n * 8, (const char *)src + n * 8, len % 8);
}

#if defined(__x86_64__)
static void copy_movsq(void *dst, const void *src, size_t len)
{
	size_t q = len / 8;

	__asm__ volatile("rep movsq" : "+D"(dst), "+S"(src), "+c"(q) : : "memory");
	memcpy(dst, src, len % 8);
}

static void copy_movsb(void *dst, const void *src, size_t len)
{
	__asm__ volatile("rep movsb" : "+D"(dst), "+S"(src), "+c"(len) : : "memory");
}

static void set_stosq(void *dst, const void *src, size_t len)
{
	size_t q = len / 8;
	u64 v = 0;

	(void)src;
	__asm__ volatile("rep stosq" : "+D"(dst), "+c"(q) : "a"(v) : "memory");
	memset(dst, 0, len % 8);
}

static void set_stosb(void *dst, const void *src, size_t len)
{
	(void)src;
	__asm__ volatile("rep stosb" : "+D"(dst), "+c"(len) : "a"(0) : "memory");
}
#endif

static void set_default(void *dst, const void *src, size_t len)
{
	(void)src;
	memset(dst, 0, len);
}

static void set_unrolled(void *dst, const void *src, size_t len)
{
	u64 *d = dst;
	size_t n = len / 8, i = 0;

	(void)src;
	for (; i + 4 <= n; i += 4) {
		d[i] = 0;
		d[i + 1] = 0;
		d[i + 2] = 0;
		d[i + 3] = 0;
	}
	for (; i < n; i++)
		d[i] = 0;
	memset((char *)dst + n * 8, 0, len % 8);
}

struct mem_routine {
	const char *name, *desc;
	mem_fn *fn;
};

static const struct mem_routine memcpy_routines[] = {
	{ "default", "Default memcpy() provided by glibc", copy_default },
#if defined(__x86_64__)
	{ "x86-64-unrolled", "unrolled memcpy() in arch/x86/lib/memcpy_64.S", copy_unrolled },
	{ "x86-64-movsq", "movsq-based memcpy() in arch/x86/lib/memcpy_64.S", copy_movsq },
	{ "x86-64-movsb", "movsb-based memcpy() in arch/x86/lib/memcpy_64.S", copy_movsb },
#endif
	{ NULL, NULL, NULL },
};

static const struct mem_routine memset_routines[] = {
	{ "default", "Default memset() provided by glibc", set_default },
#if defined(__x86_64__)
	{ "x86-64-unrolled", "unrolled memset() in arch/x86/lib/memset_64.S", set_unrolled },
	{ "x86-64-stosq", "movsq-based memset() in arch/x86/lib/memset_64.S", set_stosq },
	{ "x86-64-stosb", "movsb-based memset() in arch/x86/lib/memset_64.S", set_stosb },
#endif
	{ NULL, NULL, NULL },
};

/* "1MB", "4KB", "2g": bytes, or -1 */
static long long parse_mem_size(const char *s)
{
	char *end;
	long long v = strtoll(s, &end, 10);
	static const char *const units[] = { "B", "KB", "MB", "GB", "TB" };

	if (end == s || v < 0)
		return -1;
	if (!*end)
		return v;
	for (int i = 0; i < 5; i++)
		if (!strcasecmp(end, units[i]))
			return v << (10 * i);
	return -1;
}

static int bench_mem(int argc, const char **argv, bool is_set)
{
	const char *size_str = "1MB", *function = "all";
	int loops = 1;
	bool cycles = false;
	const char *const usage[] = { is_set ? "perf bench mem memset <options>"
					     : "perf bench mem memcpy <options>",
				      NULL };
	const struct opt_spec options[] = {
		SPEC_FLAG("cycles", 'c', &cycles,
			  "Use a cycles event instead of gettimeofday() to measure performance"),
		SPEC_TEXT("function", 'f', &function, "all",
			  "Specify the function to run, \"all\" runs all available functions, \"help\" lists them"),
		SPEC_INT("nr_loops", 'l', &loops,
			 "Specify the number of loops to run. (default: 1)"),
		SPEC_TEXT("size", 's', &size_str, "1MB",
			  "Specify the size of the memory buffers. Available units: B, KB, MB, GB and TB (case insensitive)"),
		SPEC_END(),
	};
	const struct mem_routine *routines = is_set ? memset_routines : memcpy_routines;
	long long size;
	bool any = false;

	argc = opts_parse(argc, argv, options, usage, 0);
	(void)argc;
	if (cycles) {
		fprintf(stderr, "Failed to open cycles counter\n");
		return 1;
	}
	if (!strcmp(function, "help")) {
		printf("Available functions:\n");
		for (int i = 0; routines[i].name; i++)
			printf("\t%s ... %s\n", routines[i].name, routines[i].desc);
		return 0;
	}
	size = parse_mem_size(size_str);
	if (size <= 0) {
		fprintf(stderr, "Invalid size:%s\n", size_str);
		return 1;
	}
	for (int i = 0; routines[i].name; i++) {
		char *src, *dst;
		double t0, t;

		if (strcmp(function, "all") && strcmp(function, routines[i].name))
			continue;
		any = true;
		printf("# function '%s' (%s)\n", routines[i].name, routines[i].desc);
		src = xmalloc((size_t)size);
		dst = xmalloc((size_t)size);
		memset(src, 0, (size_t)size);
		routines[i].fn(dst, src, (size_t)size); /* fault the pages in first */
		t0 = usec_now();
		for (int l = 0; l < loops; l++)
			routines[i].fn(dst, src, (size_t)size);
		/* microseconds, as perf's gettimeofday(): a copy faster than that is "inf" */
		t = (usec_now() - t0) / 1e6;
		free(src);
		free(dst);
		if (bench_simple_format) {
			printf("%lf\n", (double)size * loops / t);
			continue;
		}
		printf("# Copying %s bytes ...\n\n", size_str);
		printf("%15f GB/sec\n", (double)size * loops / t / (1 << 30));
	}
	if (!any) {
		printf("Unknown function: %s\n", function);
		printf("Available functions:\n");
		for (int i = 0; routines[i].name; i++)
			printf("\t%s ... %s\n", routines[i].name, routines[i].desc);
		return 1;
	}
	return 0;
}

int bench_memcpy(int argc, const char **argv)
{
	return bench_mem(argc, argv, false);
}

int bench_memset(int argc, const char **argv)
{
	return bench_mem(argc, argv, true);
}
