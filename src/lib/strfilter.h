/* SPDX-License-Identifier: MIT */
/*
 * String filters in perf's --filter syntax: globs combined with '!', '&',
 * '|' and parentheses ("!_* & !*@plt").
 */
#ifndef SONDE_LIB_STRFILTER_H
#define SONDE_LIB_STRFILTER_H

#include <stdbool.h>

struct strfilter;

/*
 * strfilter_new - parse @rules. Returns the filter, or NULL with *@errpos
 * set to the offset of the first bad character (when @errpos is not NULL).
 */
struct strfilter *strfilter_new(const char *rules, int *errpos);
/* strfilter_free - free the filter; NULL is fine. */
void strfilter_free(struct strfilter *f);
/* strfilter_match - whether @s passes the filter. */
bool strfilter_match(const struct strfilter *f, const char *s);

#endif
