/* SPDX-License-Identifier: MIT */
/* perf's option help layout and error texts on stderr, exit status 129, for lib/optspec's parser. */
#include "cmd/options.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The help text starts in this column; a longer left part wraps. */
#define DESC_COLUMN 26

/* perf's status for usage errors and for -h */
#define USAGE_STATUS 129

static bool names_option(const struct opt_spec *s)
{
	return s->kind != OPTK_HEADING;
}

/* " Usage: perf x ..." and "    or: ..." lines; "perf " becomes the program's name */
static void emit_usage_lines(const char *const usage[])
{
	for (size_t i = 0; usage && usage[i]; i++) {
		const char *line = usage[i];

		fputs(i ? "    or: " : " Usage: ", stderr);
		if (!strncmp(line, "perf ", 5))
			fprintf(stderr, "%s %s\n", prog_name, line + 5);
		else
			fprintf(stderr, "%s\n", line);
	}
}

/* the value's part of the left column: " <label>", "[=<label>]", ... */
static void add_label(struct strbuf *col, const struct opt_spec *s)
{
	bool optional = s->traits & OPTT_VALUE_OPTIONAL;
	const char *label = s->label;

	if (!opts_wants_value(s))
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

/* one entry of the help: a heading, or "    -x, --name <v>" and its text */
static void emit_entry(const struct opt_spec *s)
{
	const char *desc = s->desc ? s->desc : "";
	struct strbuf col;

	if (!names_option(s)) {
		fputc('\n', stderr);
		if (*desc)
			fprintf(stderr, "%s\n", desc);
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
		fprintf(stderr, "%-*s%s\n", DESC_COLUMN, col.buf, desc);
	else
		fprintf(stderr, "%s\n%*s%s\n", col.buf, DESC_COLUMN, "", desc);
	strbuf_release(&col);
}

/*
 * The help lists each run of options between headings ordered: those with
 * a switch first, by letter ignoring case and then by name, then the long
 * ones by name.
 */
static int help_cmp(const void *pa, const void *pb)
{
	const struct opt_spec *a = *(const struct opt_spec *const *)pa;
	const struct opt_spec *b = *(const struct opt_spec *const *)pb;

	if (!a->letter != !b->letter)
		return a->letter ? -1 : 1;
	if (a->letter && tolower(a->letter) != tolower(b->letter))
		return tolower(a->letter) - tolower(b->letter);
	return strcmp(a->name ? a->name : "", b->name ? b->name : "");
}

/* help_order - the entries in help order, NULL-terminated (free it) */
static const struct opt_spec **help_order(const struct opt_spec *specs)
{
	const struct opt_spec **order;
	size_t nr = 0, start = 0;

	while (specs[nr].kind != OPTK_END)
		nr++;
	order = xcalloc(nr + 1, sizeof(*order));
	for (size_t i = 0; i < nr; i++)
		order[i] = specs + i;
	for (size_t i = 0; i <= nr; i++) {
		if (i == nr || !names_option(order[i])) {
			qsort(order + start, i - start, sizeof(*order), help_cmp);
			start = i + 1;
		}
	}
	return order;
}

void opts_usage_print(const char *const usage[], const struct opt_spec *specs)
{
	const struct opt_spec **order = help_order(specs);

	fflush(stdout);
	fputc('\n', stderr);
	emit_usage_lines(usage);
	if (order[0] && names_option(order[0]))
		fputc('\n', stderr);
	for (size_t i = 0; order[i]; i++)
		if (!(order[i]->traits & OPTT_HIDDEN))
			emit_entry(order[i]);
	fputc('\n', stderr);
	free(order);
}

void opts_usage_exit(const char *const usage[], const struct opt_spec *specs)
{
	opts_usage_print(usage, specs);
	exit(USAGE_STATUS);
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
		emit_usage_lines(usage);
		fputc('\n', stderr);
	}
	for (const struct opt_spec *s = specs; s->kind != OPTK_END; s++) {
		if (!names_option(s))
			continue;
		if ((letter && s->letter == letter) || (name && s->name && !strcmp(s->name, name))) {
			emit_entry(s);
			return;
		}
	}
}

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

/* does the word after "-h" name @s: "--name" exactly, else its switch letter after one '-' */
static bool word_names(const char *word, const struct opt_spec *s)
{
	if (!strncmp(word, "--", 2))
		return s->name && !strcmp(word + 2, s->name);
	return s->letter && word[*word == '-'] == s->letter;
}

/* "-h WORD...": the usage lines, then only the options the words name, in help order */
static void emit_help_for_words(const char **words, int nr_words, const struct opt_spec *specs,
				const char *const usage[])
{
	const struct opt_spec **order = help_order(specs);

	fputc('\n', stderr);
	emit_usage_lines(usage);
	fputc('\n', stderr);
	for (size_t i = 0; order[i]; i++) {
		const struct opt_spec *s = order[i];

		if (!names_option(s) || (s->traits & OPTT_HIDDEN))
			continue;
		for (int w = 0; w < nr_words; w++) {
			if (word_names(words[w], s)) {
				emit_entry(s);
				break;
			}
		}
	}
	fputc('\n', stderr);
	free(order);
}

/*
 * After an error about one option perf shows the usage lines, a blank
 * line, and the help of what was typed: the switch, or each option whose
 * name begins with the typed text ("--no-" alone also names every option
 * once more).
 */
static void emit_usage_and_typed(const struct opts_error *err, const struct opt_spec *specs,
				 const char *const usage[])
{
	emit_usage_lines(usage);
	fputc('\n', stderr);
	for (const struct opt_spec *s = specs; s->kind != OPTK_END; s++) {
		if (!names_option(s))
			continue;
		if (!err->typed) {
			if (s->letter == err->letter) {
				emit_entry(s);
				return;
			}
			continue;
		}
		if (!s->name)
			continue;
		if (!strncmp(s->name, err->typed, strlen(err->typed)))
			emit_entry(s);
		if (!strcmp(err->typed, "no-"))
			emit_entry(s);
	}
}

/* " Error: option `name' " or " Error: switch `x' " */
static void emit_error_subject(const struct opts_error *err)
{
	if (err->typed)
		fprintf(stderr, " Error: option `%s%s' ", err->negated ? "no-" : "", err->spec->name);
	else
		fprintf(stderr, " Error: switch `%c' ", err->letter);
}

int opts_report(const struct opts_error *err, const char **argv, int argc,
		const struct opt_spec *specs, const char *const usage[])
{
	const struct opts_candidate *c = err->candidates;

	fflush(stdout);
	switch (err->problem) {
	case OPTS_ERR_NONE:
		return 0;
	case OPTS_ERR_HELP:
		if (err->help_from)
			emit_help_for_words(argv + err->help_from, argc - err->help_from, specs, usage);
		else
			opts_usage_print(usage, specs);
		break;
	case OPTS_ERR_UNKNOWN:
		if (err->typed)
			fprintf(stderr, "  Error: unknown option `%s'\n", err->typed);
		else
			fprintf(stderr, "  Error: unknown switch `%c'\n", err->letter);
		opts_usage_print(usage, specs);
		break;
	case OPTS_ERR_AMBIGUOUS:
		fprintf(stderr, " Error: Ambiguous option: %s (could be --%s%s or --%s%s)\n\n",
			err->typed, c[0].negated ? "no-" : "", c[0].spec->name,
			c[1].negated ? "no-" : "", c[1].spec->name);
		emit_usage_and_typed(err, specs, usage);
		break;
	case OPTS_ERR_VALUE:
		emit_error_subject(err);
		fprintf(stderr, "%s\n", err->what);
		emit_usage_and_typed(err, specs, usage);
		break;
	case OPTS_ERR_NO_NEGATE:
		fprintf(stderr, " Error: option `no-%s' isn't available\n", err->spec->name);
		emit_usage_and_typed(err, specs, usage);
		break;
	case OPTS_ERR_HANDLER:
		/* the handler printed its message */
		emit_usage_and_typed(err, specs, usage);
		break;
	}
	return USAGE_STATUS;
}

int opts_parse(int argc, const char **argv, const struct opt_spec *specs,
	       const char *const usage[], int mode)
{
	struct opts_error err;
	int ret = opts_parse_raw(argc, argv, specs, mode, &err);

	if (ret < 0)
		exit(opts_report(&err, argv, argc, specs, usage));
	return ret;
}

bool cmd_is_abbrev(const char *word, const char *name)
{
	size_t n = strlen(word);

	return n >= 3 && !strncmp(word, name, n);
}
