/* SPDX-License-Identifier: MIT */
/* Verbosity, debug/warning/error output and the few allowed globals. */
#include "lib/debug.h"

#include <stdio.h>

int verbose;
int quiet;
long page_size = 4096;
int use_color = -1;
volatile sig_atomic_t done_signal;

void debug_vprintf(int level, const char *prefix, const char *fmt, va_list ap)
{
	if (verbose < level)
		return;
	if (prefix)
		fprintf(stderr, "%s: ", prefix);
	vfprintf(stderr, fmt, ap);
}

void debug_printf(int level, const char *prefix, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	debug_vprintf(level, prefix, fmt, ap);
	va_end(ap);
}

void pr_err(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

void pr_warning(const char *fmt, ...)
{
	va_list ap;

	if (quiet)
		return;
	fflush(stdout);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}
