/* SPDX-License-Identifier: MIT */
/* Verbosity, debug/warning/error output and the few allowed globals. */
#ifndef SONDE_LIB_DEBUG_H
#define SONDE_LIB_DEBUG_H

#include <signal.h>
#include <stdarg.h>

/* Global verbosity: -v raises it; --debug verbose=N sets it. */
extern int verbose;
/* Set by --quiet/-q where a command supports it: silences warnings. */
extern int quiet;
/* System page size, set once at start-up by main(). */
extern long page_size;
/* Colour mode: 0 never, 1 always, -1 auto (terminal). */
extern int use_color;
/* Set by SIGINT/SIGTERM/SIGCHLD handlers of live commands. */
extern volatile sig_atomic_t done_signal;

/*
 * Each .c file may define PR_PREFIX before including this header, so that
 * debug lines are tagged with their subsystem ("ring: ...").
 */
#ifndef PR_PREFIX
#define PR_PREFIX NULL
#endif

void debug_vprintf(int level, const char *prefix, const char *fmt, va_list ap);
void debug_printf(int level, const char *prefix, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* pr_debug - printed to stderr only with -v (level 1) or more; allowed in any layer. */
#define pr_debug(fmt, ...) debug_printf(1, PR_PREFIX, fmt, ##__VA_ARGS__)
#define pr_debug2(fmt, ...) debug_printf(2, PR_PREFIX, fmt, ##__VA_ARGS__)

/*
 * pr_err/pr_warning - user-facing messages on stderr. Only cmd/ and ui/
 * call these: lower layers return -errno and let the boundary explain.
 */
void pr_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void pr_warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
