/* SPDX-License-Identifier: MIT */
/* Reads argv against struct opt_spec tables; reports problems in a struct opts_error, prints nothing. */
#include "lib/optspec.h"
#include "lib/xalloc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

const char *prog_name = "perf";

/* The state of one opts_parse_raw() call. */
struct opt_reader {
	const struct opt_spec *specs;
	const char **argv;
	int argc;
	int at;		     /* index of the word being read */
	struct opts_error *err; /* the word being read, and what went wrong */
};

static bool has_prefix(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static bool is_option(const struct opt_spec *s)
{
	return s->kind != OPTK_HEADING;
}

bool opts_wants_value(const struct opt_spec *s)
{
	if (s->kind == OPTK_HANDLER)
		return !(s->traits & OPTT_NO_VALUE);
	return s->kind != OPTK_FLAG && s->kind != OPTK_COUNT;
}

/* fail - record @problem (and the detail @what) for the word in r->err */
static int fail(struct opt_reader *r, enum opts_problem problem, const char *what)
{
	r->err->problem = problem;
	r->err->what = what;
	return -EINVAL;
}

/* help - -h or --help: the words after it, if any, name the options wanted */
static int help(struct opt_reader *r)
{
	r->err->help_from = r->at + 1 < r->argc ? r->at + 1 : 0;
	return fail(r, OPTS_ERR_HELP, NULL);
}

/* ---- storing values ---- */

static void store_zero(const struct opt_spec *s)
{
	if (s->kind == OPTK_INT)
		*(int *)s->dest = 0;
	else if (s->kind == OPTK_UINT)
		*(unsigned int *)s->dest = 0;
	else
		*(uint64_t *)s->dest = 0;
}

static int store_number(struct opt_reader *r, const char *text)
{
	const struct opt_spec *s = r->err->spec;
	unsigned long long u;
	char *end;

	if (r->err->negated || !text) {
		store_zero(s);
		return 0;
	}
	if (s->kind == OPTK_INT) {
		long v = strtol(text, &end, 0);

		if (*end)
			return fail(r, OPTS_ERR_VALUE, "expects a numerical value");
		*(int *)s->dest = (int)v;
		return 0;
	}
	if (strchr(text, '-'))
		return fail(r, OPTS_ERR_VALUE, "expects an unsigned numerical value");
	u = strtoull(text, &end, 0);
	if (*end)
		return fail(r, OPTS_ERR_VALUE, "expects a numerical value");
	if (s->kind == OPTK_UINT)
		*(unsigned int *)s->dest = (unsigned int)u;
	else
		*(uint64_t *)s->dest = u;
	return 0;
}

/* apply - give the entry in r->err its value (attached, the next word, or none) and store it */
static int apply(struct opt_reader *r, const char *attached)
{
	struct opts_error *e = r->err;
	const struct opt_spec *s = e->spec;
	const char *text = NULL;

	if (e->negated && (s->traits & OPTT_NO_NEGATE))
		return fail(r, OPTS_ERR_NO_NEGATE, NULL);
	if (attached && e->typed && (e->negated || !opts_wants_value(s)))
		return fail(r, OPTS_ERR_VALUE, "takes no value");
	if (!e->negated && opts_wants_value(s)) {
		if (attached) {
			text = attached;
		} else if (!(s->traits & OPTT_VALUE_OPTIONAL)) {
			if (r->at + 1 >= r->argc)
				return fail(r, OPTS_ERR_VALUE, "requires a value");
			text = r->argv[++r->at];
		}
	}
	switch (s->kind) {
	case OPTK_FLAG:
		*(bool *)s->dest = !e->negated;
		return 0;
	case OPTK_COUNT:
		*(int *)s->dest = e->negated ? 0 : *(int *)s->dest + 1;
		return 0;
	case OPTK_TEXT:
		*(const char **)s->dest = e->negated ? NULL : text ? text : (const char *)s->fallback;
		return 0;
	case OPTK_INT:
	case OPTK_UINT:
	case OPTK_U64:
		return store_number(r, text);
	case OPTK_HANDLER:
		return s->handler(s, text, e->negated) ? fail(r, OPTS_ERR_HANDLER, NULL) : 0;
	default:
		die("optspec: entry of kind %d cannot be set", s->kind);
	}
}

/* ---- reading words ---- */

static const struct opt_spec *find_letter(const struct opt_spec *specs, int letter)
{
	for (const struct opt_spec *s = specs; s->kind != OPTK_END; s++)
		if (is_option(s) && s->letter == letter)
			return s;
	return NULL;
}

/* a cluster of switches: "-abc", "-ofile", "-o" "file" */
static int read_switches(struct opt_reader *r, const char *p)
{
	for (; *p; p++) {
		const struct opt_spec *s = find_letter(r->specs, *p);
		int ret;

		*r->err = (struct opts_error){ .letter = *p, .spec = s };
		if (!s)
			return *p == 'h' ? help(r) : fail(r, OPTS_ERR_UNKNOWN, NULL);
		if (opts_wants_value(s) && p[1])
			return apply(r, p + 1);
		ret = apply(r, NULL);
		if (ret)
			return ret;
	}
	return 0;
}

/* does "no-" followed by @name begin with @typed? */
static bool negation_begins_with(const char *name, const char *typed)
{
	size_t len = strlen(typed);

	if (len <= 3)
		return !strncmp("no-", typed, len);
	return has_prefix(typed, "no-") && !strncmp(name, typed + 3, len - 3);
}

/*
 * Find what "--@typed" names. Exact names win: "name", "no-name", and for
 * an option called "no-x" also "x" (its negation). Otherwise the word may
 * begin a name (compared up to any '='), or begin a negated spelling
 * (compared as a whole). More than one such option is an error that names
 * the last two of them.
 */
static int read_long(struct opt_reader *r, const char *typed)
{
	struct opts_error *e = r->err;
	const char *eq = strchr(typed, '=');
	size_t klen = eq ? (size_t)(eq - typed) : strlen(typed);
	int nr_maybe = 0;

	*e = (struct opts_error){ .typed = typed };
	if (!strcmp(typed, "help") || !strcmp(typed, "help-all"))
		return help(r);
	for (const struct opt_spec *s = r->specs; s->kind != OPTK_END && !e->spec; s++) {
		const char *n = s->name;
		size_t nlen;
		bool negated;

		if (!is_option(s) || !n)
			continue;
		nlen = strlen(n);
		if (klen == nlen && !strncmp(typed, n, klen)) {
			e->spec = s;
			continue;
		}
		if ((klen == nlen + 3 && has_prefix(typed, "no-") && !strncmp(typed + 3, n, nlen)) ||
		    (has_prefix(n, "no-") && klen == nlen - 3 && !strncmp(typed, n + 3, klen))) {
			e->spec = s;
			e->negated = true;
			continue;
		}
		if (!strncmp(n, typed, klen))
			negated = false;
		else if (negation_begins_with(n, typed) || (has_prefix(n, "no-") && has_prefix(n + 3, typed)))
			negated = true;
		else
			continue;
		e->candidates[0] = e->candidates[1];
		e->candidates[1] = (struct opts_candidate){ .spec = s, .negated = negated };
		nr_maybe++;
	}
	if (!e->spec && nr_maybe > 1)
		return fail(r, OPTS_ERR_AMBIGUOUS, NULL);
	if (!e->spec && nr_maybe == 1) {
		e->spec = e->candidates[1].spec;
		e->negated = e->candidates[1].negated;
	}
	if (!e->spec)
		return fail(r, OPTS_ERR_UNKNOWN, NULL);
	return apply(r, eq ? eq + 1 : NULL);
}

int opts_parse_raw(int argc, const char **argv, const struct opt_spec *specs, int mode,
		   struct opts_error *err)
{
	struct opt_reader r = { .specs = specs, .argv = argv, .argc = argc, .err = err };
	int nr_args = 0, ret = 0;

	*err = (struct opts_error){ 0 };
	for (r.at = 1; r.at < argc && !ret; r.at++) {
		const char *word = argv[r.at];

		if (word[0] != '-' || !word[1]) {
			if (mode & OPTS_STOP_AT_ARG)
				break;
			argv[nr_args++] = word;
		} else if (word[1] != '-') {
			ret = read_switches(&r, word + 1);
		} else if (word[2]) {
			ret = read_long(&r, word + 2);
		} else {
			r.at++; /* "--": the rest are arguments */
			break;
		}
	}
	if (ret)
		return ret;
	while (r.at < argc)
		argv[nr_args++] = argv[r.at++];
	argv[nr_args] = NULL;
	return nr_args;
}
