/* SPDX-License-Identifier: MIT */
/* Shared between the -e grammar (parse-events.c) and its term handling (parse-events-terms.c). */
#ifndef SONDE_CORE_PARSE_EVENTS_INTERNAL_H
#define SONDE_CORE_PARSE_EVENTS_INTERNAL_H

#include "core/evsel.h"
#include "core/parse-events.h"
#include "lib/util.h"

#include <stdbool.h>

struct pmu;

/* struct pe_ctx - one parse_events() call. */
struct pe_ctx {
	const char *str;		/* the string without blanks; parsing works on it */
	const char *orig;		/* the string as given (names keep its blanks) */
	const int *map;			/* str offset -> orig offset, [strlen(str)] = strlen(orig) */
	unsigned int flags;		/* PARSE_EVENTS_* */
	struct parse_events_error *err;
	int idx_base;			/* offset added to error positions (alias term strings: 0 at the event) */
	int last_tok;			/* start of the last token of the last event parsed */
};

/* struct pe_term - one "name[=value]" inside slashes. */
struct pe_term {
	char *name;	/* owned */
	char *val;	/* owned, NULL when no "=value" */
	bool is_num;	/* val parsed as a number into num */
	u64 num;
	int name_idx;	/* offsets in ctx->str */
	int val_idx;
};

struct pe_terms {
	struct pe_term *v;
	int nr;
	int alloc;
};

/* pe_error - record an error at @idx; @help is a malloc'ed string taken over, or NULL. */
void pe_error(struct pe_ctx *ctx, int idx, char *help, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/*
 * pe_terms_parse - split the text between slashes (@s, @len bytes at
 * offset @idx of ctx->str) into terms. Returns 0 or -EINVAL (error recorded).
 */
int pe_terms_parse(struct pe_ctx *ctx, const char *s, size_t len, int idx, struct pe_terms *terms);
void pe_terms_release(struct pe_terms *terms);

/*
 * pe_terms_apply - apply @terms to @evsel. With @pmu, format terms and the
 * PMU's event aliases are accepted too (an alias term expands to its
 * definition and carries its scale/unit). @tracepoint restricts to
 * call-graph and stack-size. Returns 0 or -EINVAL (error recorded).
 */
int pe_terms_apply(struct pe_ctx *ctx, struct evsel *evsel, const struct pe_terms *terms,
		   const struct pmu *pmu, bool tracepoint);

/* pe_parse_number - perf's number syntax: decimal or 0x-hex, whole string. */
bool pe_parse_number(const char *s, size_t len, u64 *val);

#endif
