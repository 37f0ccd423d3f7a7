/* SPDX-License-Identifier: MIT */
/* NULL-terminated growable vectors of owned strings. */
#include "lib/strvec.h"
#include "lib/xalloc.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

char *strvec_empty[1];

void strvec_init(struct strvec *sv)
{
	sv->v = strvec_empty;
	sv->nr = sv->alloc = 0;
}

static void push_owned(struct strvec *sv, char *s)
{
	if (sv->v == strvec_empty)
		sv->v = NULL;
	sv->v = xgrow(sv->v, sv->nr + 2, &sv->alloc, sizeof(*sv->v));
	sv->v[sv->nr++] = s;
	sv->v[sv->nr] = NULL;
}

void strvec_push(struct strvec *sv, const char *s)
{
	push_owned(sv, xstrdup(s));
}

void strvec_pushf(struct strvec *sv, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	push_owned(sv, xvasprintf(fmt, ap));
	va_end(ap);
}

void strvec_split(struct strvec *sv, const char *s, const char *seps)
{
	while (*s) {
		size_t n = strcspn(s, seps);

		if (n)
			push_owned(sv, xstrndup(s, n));
		s += n;
		if (*s)
			s++;
	}
}

void strvec_clear(struct strvec *sv)
{
	if (sv->v != strvec_empty) {
		for (size_t i = 0; i < sv->nr; i++)
			free(sv->v[i]);
		free(sv->v);
	}
	strvec_init(sv);
}
