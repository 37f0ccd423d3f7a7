/* SPDX-License-Identifier: MIT */
/* Run a program from an argv (no shell) and collect what it writes to stdout and stderr. */
#ifndef SONDE_LIB_SUBPROC_H
#define SONDE_LIB_SUBPROC_H

#include <stddef.h>

/*
 * subproc_capture - run @path with @argv (NULL-terminated, argv[0] the
 * program's name) with stdin on /dev/null, its stdout and stderr into one
 * pipe; wait for it. *@out gets what it wrote (malloc'd, NUL-terminated,
 * @len bytes without the NUL), *@status its exit status (128+N after
 * signal N). Returns 0, or -errno when it could not be started.
 */
int subproc_capture(const char *path, const char *const *argv, char **out, size_t *len,
		    int *status);

#endif
