/* SPDX-License-Identifier: MIT */
/* Reads argv against struct opt_spec tables; perf's help layout and error texts. */
#include "lib/optspec.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *prog_name = "perf";

/* The help text starts in this column; a longer left part wraps. */
#define DESC_COLUMN 26

/* One word of the command line resolved to a table entry. */
struct opt_hit {
	const struct opt_spec *spec;
	bool negated;
	int letter;	   /* the switch as typed, for -x */
	const char *typed; /* the text after "--" as typed, for --name */
	const char *value; /* from "=v" or the rest of a cluster, else NULL */
};

/* The state of one opts_parse() call. */
struct opt_reader {
	const struct opt_spec *specs;
	const char *const *usage;
	const char **argv;
	int argc;
	int at; /* index of the word being read */
};

static bool has_prefix(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static bool is_option(const struct opt_spec *s)
{
	return s->kind != OPTK_HEADING;
}

static bool wants_value(const struct opt_spec *s)
{
	if (s->kind == OPTK_HANDLER)
		return !(s->traits & OPTT_NO_VALUE);
	return s->kind != OPTK_FLAG && s->kind != OPTK_COUNT;
}

/* ---- help output ---- */

static void put_usage_lines(FILE *f, const char *const usage[])
{
	for (int i = 0; usage && usage[i]; i++) {
		const char *line = usage[i];

		fputs(i ? "    or: " : " Usage: ", f);
		if (has_prefix(line, "perf "))
			fprintf(f, "%s %s\n", prog_name, line + 5);
		else
			fprintf(f, "%s\n", line);
	}
}

/* the value's part of the left column: " <label>", "[=<label>]", ... */
static void add_label(struct strbuf *col, const struct opt_spec *s)
{
	bool optional = s->traits & OPTT_VALUE_OPTIONAL;
	const char *label = s->label;

	if (!wants_value(s))
		return;
	if (!label) {
		if (s->kind == OPTK_HANDLER)
			return;
		label = "...";
	}
	if (s->traits & OPTT_LABEL_AS_IS)
		strbuf_addf(col, optional ? "[%s]" : " %s", label);
	else if (!optional)
		strbuf_addf(col, " <%s>", label);
	else
		strbuf_addf(col, s->name ? "[=<%s>]" : "[<%s>]", label);
}

static void put_spec_line(FILE *f, const struct opt_spec *s)
{
	struct strbuf col;
	const char *desc = s->desc ? s->desc : "";

	if (s->kind == OPTK_HEADING) {
		fputc('\n', f);
		if (*desc)
			fprintf(f, "%s\n", desc);
		return;
	}
	strbuf_init(&col, 64);
	strbuf_addstr(&col, "    ");
	if (s->letter)
		strbuf_addf(&col, "-%c%s", s->letter, s->name ? ", " : "");
	else
		strbuf_addstr(&col, "    ");
	if (s->name)
		strbuf_addf(&col, "--%s", s->name);
	add_label(&col, s);
	if (col.len + 2 <= DESC_COLUMN)
		fprintf(f, "%-*s%s\n", DESC_COLUMN, col.buf, desc);
	else
		fprintf(f, "%s\n%*s%s\n", col.buf, DESC_COLUMN, "", desc);
	strbuf_release(&col);
}

/*
 * The help lists each run of options between headings ordered: those with
 * a switch first, by letter ignoring case and then by name, then the long
 * ones by name.
 */
static int help_order(const void *pa, const void *pb)
{
	const struct opt_spec *a = *(const struct opt_spec *const *)pa;
	const struct opt_spec *b = *(const struct opt_spec *const *)pb;

	if (!a->letter != !b->letter)
		return a->letter ? -1 : 1;
	if (a->letter && tolower(a->letter) != tolower(b->letter))
		return tolower(a->letter) - tolower(b->letter);
	return strcmp(a->name ? a->name : "", b->name ? b->name : "");
}

/* help_sequence - the entries in help order, NULL-terminated (free it) */
static const struct opt_spec **help_sequence(const struct opt_spec *specs)
{
	size_t nr = 0, run = 0;
	const struct opt_spec **seq;

	while (specs[nr].kind != OPTK_END)
		nr++;
	seq = xcalloc(nr + 1, sizeof(*seq));
	for (size_t i = 0; i < nr; i++)
		seq[i] = &specs[i];
	for (size_t i = 0; i <= nr; i++) {
		if (i < nr && is_option(seq[i]))
			continue;
		qsort(seq + run, i - run, sizeof(*seq), help_order);
		run = i + 1;
	}
	return seq;
}

void opts_usage_print(const char *const usage[], const struct opt_spec *specs)
{
	const struct opt_spec **seq = help_sequence(specs);

	fflush(stdout);
	fputc('\n', stderr);
	put_usage_lines(stderr, usage);
	if (seq[0] && is_option(seq[0]))
		fputc('\n', stderr);
	for (size_t i = 0; seq[i]; i++)
		if (!(seq[i]->traits & OPTT_HIDDEN))
			put_spec_line(stderr, seq[i]);
	fputc('\n', stderr);
	free(seq);
}

void opts_usage_exit(const char *const usage[], const struct opt_spec *specs)
{
	opts_usage_print(usage, specs);
	exit(129);
}

void opts_usage_error(const char *const usage[], const struct opt_spec *specs, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("  Error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	opts_usage_exit(usage, specs);
}

void opts_usage_for(const char *const usage[], const struct opt_spec *specs, int letter,
		    const char *name)
{
	fflush(stdout);
	if (usage) {
		fputc('\n', stderr);
		put_usage_lines(stderr, usage);
		fputc('\n', stderr);
	}
	for (const struct opt_spec *s = specs; s->kind != OPTK_END; s++) {
		if (!is_option(s))
			continue;
		if ((letter && s->letter == letter) || (name && s->name && !strcmp(s->name, name))) {
			put_spec_line(stderr, s);
			return;
		}
	}
}

/*
 * "-h WORD...": only the options the words name ("--name" exactly, else
 * the switch letter after one '-'), in help order.
 */
static void __attribute__((noreturn)) help_for_words(struct opt_reader *r, int first)
{
	const struct opt_spec **seq = help_sequence(r->specs);

	fflush(stdout);
	fputc('\n', stderr);
	put_usage_lines(stderr, r->usage);
	fputc('\n', stderr);
	for (size_t i = 0; seq[i]; i++) {
		const struct opt_spec *s = seq[i];

		if (!is_option(s) || (s->traits & OPTT_HIDDEN))
			continue;
		for (int w = first; w < r->argc; w++) {
			const char *word = r->argv[w];

			if (has_prefix(word, "--") ? s->name && !strcmp(word + 2, s->name) :
						     s->letter && word[*word == '-'] == s->letter) {
				put_spec_line(stderr, s);
				break;
			}
		}
	}
	fputc('\n', stderr);
	free(seq);
	exit(129);
}

static void __attribute__((noreturn)) help(struct opt_reader *r)
{
	if (r->at + 1 < r->argc)
		help_for_words(r, r->at + 1);
	opts_usage_exit(r->usage, r->specs);
}

/*
 * After an error about one option perf shows the usage lines and the help
 * of what was typed: the switch, or each option whose name begins with the
 * typed text ("--no-" alone also names every option once more).
 */
static void put_typed_help(struct opt_reader *r, const struct opt_hit *hit)
{
	fputc('\n', stderr);
	for (const struct opt_spec *s = r->specs; s->kind != OPTK_END; s++) {
		if (!is_option(s))
			continue;
		if (!hit->typed) {
			if (s->letter == hit->letter) {
				put_spec_line(stderr, s);
				return;
			}
			continue;
		}
		if (!s->name)
			continue;
		if (has_prefix(s->name, hit->typed))
			put_spec_line(stderr, s);
		if (!strcmp(hit->typed, "no-"))
			put_spec_line(stderr, s);
	}
}

static void __attribute__((noreturn)) option_failed(struct opt_reader *r, const struct opt_hit *hit)
{
	fflush(stdout);
	put_usage_lines(stderr, r->usage);
	put_typed_help(r, hit);
	exit(129);
}

static void __attribute__((noreturn, format(printf, 3, 4)))
option_error(struct opt_reader *r, const struct opt_hit *hit, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	if (hit->typed)
		fprintf(stderr, " Error: option `%s%s' ", hit->negated ? "no-" : "", hit->spec->name);
	else
		fprintf(stderr, " Error: switch `%c' ", hit->letter);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	option_failed(r, hit);
}

static void __attribute__((noreturn, format(printf, 2, 3)))
unknown(struct opt_reader *r, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	opts_usage_exit(r->usage, r->specs);
}

/* ---- storing values ---- */

void opts_report_unsupported(const char *name)
{
	fflush(stdout);
	fprintf(stderr, "Error: --%s is not supported by %s\n", name, prog_name);
}

int opts_refuse(const struct opt_spec *opt, const char *arg, int unset)
{
	(void)arg;
	if (unset)
		return 0;
	opts_report_unsupported(opt->name);
	return -1;
}

static void store_number(struct opt_reader *r, const struct opt_hit *hit, const char *text)
{
	const struct opt_spec *s = hit->spec;
	char *end;

	if (hit->negated || !text) {
		if (s->kind == OPTK_INT)
			*(int *)s->dest = 0;
		else if (s->kind == OPTK_UINT)
			*(unsigned int *)s->dest = 0;
		else
			*(uint64_t *)s->dest = 0;
		return;
	}
	if (s->kind == OPTK_INT) {
		long v = strtol(text, &end, 0);

		if (*end)
			option_error(r, hit, "expects a numerical value");
		*(int *)s->dest = (int)v;
		return;
	}
	if (strchr(text, '-'))
		option_error(r, hit, "expects an unsigned numerical value");
	{
		unsigned long long v = strtoull(text, &end, 0);

		if (*end)
			option_error(r, hit, "expects a numerical value");
		if (s->kind == OPTK_UINT)
			*(unsigned int *)s->dest = (unsigned int)v;
		else
			*(uint64_t *)s->dest = v;
	}
}

/* apply - give @hit its value (attached, the next word, or none) and store it */
static void apply(struct opt_reader *r, struct opt_hit *hit)
{
	const struct opt_spec *s = hit->spec;
	const char *text = NULL;

	if (hit->negated && (s->traits & OPTT_NO_NEGATE)) {
		fflush(stdout);
		fprintf(stderr, " Error: option `no-%s' isn't available\n", s->name);
		option_failed(r, hit);
	}
	if (hit->value && hit->typed && (hit->negated || !wants_value(s)))
		option_error(r, hit, "takes no value");
	if (!hit->negated && wants_value(s)) {
		if (hit->value)
			text = hit->value;
		else if (!(s->traits & OPTT_VALUE_OPTIONAL)) {
			if (r->at + 1 >= r->argc)
				option_error(r, hit, "requires a value");
			text = r->argv[++r->at];
		}
	}
	switch (s->kind) {
	case OPTK_FLAG:
		*(bool *)s->dest = !hit->negated;
		break;
	case OPTK_COUNT:
		*(int *)s->dest = hit->negated ? 0 : *(int *)s->dest + 1;
		break;
	case OPTK_TEXT:
		*(const char **)s->dest = hit->negated ? NULL : text ? text : (const char *)s->fallback;
		break;
	case OPTK_INT:
	case OPTK_UINT:
	case OPTK_U64:
		store_number(r, hit, text);
		break;
	case OPTK_HANDLER:
		if (s->handler(s, text, hit->negated))
			option_failed(r, hit);
		break;
	default:
		die("optspec: entry of kind %d cannot be set", s->kind);
	}
}

/* ---- reading words ---- */

/* a cluster of switches: "-abc", "-ofile", "-o" "file" */
static void read_switches(struct opt_reader *r, const char *p)
{
	for (; *p; p++) {
		struct opt_hit hit = { .letter = *p };

		for (const struct opt_spec *s = r->specs; s->kind != OPTK_END; s++)
			if (is_option(s) && s->letter == *p) {
				hit.spec = s;
				break;
			}
		if (!hit.spec) {
			if (*p == 'h')
				help(r);
			unknown(r, "  Error: unknown switch `%c'\n", *p);
		}
		if (wants_value(hit.spec) && p[1]) {
			hit.value = p + 1;
			apply(r, &hit);
			return;
		}
		apply(r, &hit);
	}
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
static void read_long(struct opt_reader *r, const char *typed)
{
	const char *eq = strchr(typed, '=');
	size_t klen = eq ? (size_t)(eq - typed) : strlen(typed);
	struct opt_hit hit = { .typed = typed, .value = eq ? eq + 1 : NULL };
	struct opt_hit maybe[2] = { { 0 } };
	int nr_maybe = 0;

	if (!strcmp(typed, "help") || !strcmp(typed, "help-all"))
		help(r);
	for (const struct opt_spec *s = r->specs; s->kind != OPTK_END && !hit.spec; s++) {
		const char *n = s->name;
		size_t nlen;
		int negated = -1;

		if (!is_option(s) || !n)
			continue;
		nlen = strlen(n);
		if (klen == nlen && !strncmp(typed, n, klen))
			hit.spec = s;
		else if (klen == nlen + 3 && has_prefix(typed, "no-") && !strncmp(typed + 3, n, nlen))
			hit.spec = s, hit.negated = true;
		else if (has_prefix(n, "no-") && klen == nlen - 3 && !strncmp(typed, n + 3, klen))
			hit.spec = s, hit.negated = true;
		else if (!strncmp(n, typed, klen))
			negated = 0;
		else if (negation_begins_with(n, typed) || (has_prefix(n, "no-") && has_prefix(n + 3, typed)))
			negated = 1;
		if (negated < 0)
			continue;
		maybe[0] = maybe[1];
		maybe[1] = (struct opt_hit){ .spec = s, .negated = negated };
		nr_maybe++;
	}
	if (!hit.spec && nr_maybe > 1) {
		fflush(stdout);
		fprintf(stderr, " Error: Ambiguous option: %s (could be --%s%s or --%s%s)\n\n", typed,
			maybe[0].negated ? "no-" : "", maybe[0].spec->name,
			maybe[1].negated ? "no-" : "", maybe[1].spec->name);
		put_usage_lines(stderr, r->usage);
		put_typed_help(r, &hit);
		exit(129);
	}
	if (!hit.spec && nr_maybe == 1) {
		hit.spec = maybe[1].spec;
		hit.negated = maybe[1].negated;
	}
	if (!hit.spec)
		unknown(r, "  Error: unknown option `%s'\n", typed);
	apply(r, &hit);
}

int opts_parse(int argc, const char **argv, const struct opt_spec *specs,
	       const char *const usage[], int mode)
{
	struct opt_reader r = { .specs = specs, .usage = usage, .argv = argv, .argc = argc };
	int nr_args = 0;

	for (r.at = 1; r.at < argc; r.at++) {
		const char *word = argv[r.at];

		if (word[0] != '-' || !word[1]) {
			if (mode & OPTS_STOP_AT_ARG)
				break;
			argv[nr_args++] = word;
		} else if (word[1] != '-') {
			read_switches(&r, word + 1);
		} else if (word[2]) {
			read_long(&r, word + 2);
		} else {
			r.at++; /* "--": the rest are arguments */
			break;
		}
	}
	while (r.at < argc)
		argv[nr_args++] = argv[r.at++];
	argv[nr_args] = NULL;
	return nr_args;
}
