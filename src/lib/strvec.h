/* SPDX-License-Identifier: MIT */
/* NULL-terminated growable vectors of owned strings (argv-like). */
#ifndef SONDE_LIB_STRVEC_H
#define SONDE_LIB_STRVEC_H

#include <stddef.h>

/* v[nr] is always NULL; each element is owned by the vector. */
struct strvec {
	char **v;
	size_t nr;
	size_t alloc;
};

extern char *strvec_empty[];
#define STRVEC_INIT { strvec_empty, 0, 0 }

void strvec_init(struct strvec *sv);
void strvec_push(struct strvec *sv, const char *s);
void strvec_pushf(struct strvec *sv, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* strvec_split - push each non-empty piece of @s separated by any byte in @seps. */
void strvec_split(struct strvec *sv, const char *s, const char *seps);
void strvec_clear(struct strvec *sv);

#endif
