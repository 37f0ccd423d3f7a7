/* SPDX-License-Identifier: MIT */
/* Command-line option parser with perf-compatible behaviour and help layout. */
#include "lib/parse-options.h"
#include "lib/xalloc.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *prog_name = "perf";

#define USAGE_OPTS_WIDTH 24
#define USAGE_GAP 2

struct parse_ctx {
	const char *const *usagestr;
	const struct option *options;
	int argc;
	const char **argv;
	int i;		 /* index of the word being parsed */
	const char *opt; /* remaining bundled short switches */
};

static void print_usage_line(FILE *f, const char *line, bool first)
{
	fprintf(f, first ? " Usage: " : "    or: ");
	if (!strncmp(line, "perf ", 5))
		fprintf(f, "%s %s\n", prog_name, line + 5);
	else
		fprintf(f, "%s\n", line);
}

static int print_option_help(FILE *f, const struct option *o)
{
	int pos = 4;

	if (o->type == OPTION_GROUP) {
		fputc('\n', f);
		if (*o->help)
			fprintf(f, "%s\n", o->help);
		return 0;
	}
	fprintf(f, "    ");
	if (o->short_name)
		pos += fprintf(f, "-%c", o->short_name);
	else
		pos += fprintf(f, "    ");
	if (o->long_name && o->short_name)
		pos += fprintf(f, ", ");
	if (o->long_name)
		pos += fprintf(f, "--%s", o->long_name);
	if (o->argh || (o->type != OPTION_BOOLEAN && o->type != OPTION_INCR &&
			o->type != OPTION_SET_INT && o->type != OPTION_CALLBACK)) {
		const char *argh = o->argh ? o->argh : "...";

		if (o->type == OPTION_CALLBACK && (o->flags & PARSE_OPT_NOARG))
			goto help;
		if (o->flags & PARSE_OPT_LITERAL_ARGHELP)
			pos += fprintf(f, (o->flags & PARSE_OPT_OPTARG) ? "[%s]" : " %s", argh);
		else if (o->flags & PARSE_OPT_OPTARG)
			pos += fprintf(f, o->long_name ? "[=<%s>]" : "[<%s>]", argh);
		else
			pos += fprintf(f, " <%s>", argh);
	}
help:
	if (pos <= USAGE_OPTS_WIDTH) {
		fprintf(f, "%*s%s\n", USAGE_OPTS_WIDTH - pos + USAGE_GAP, "", o->help ? o->help : "");
	} else {
		fprintf(f, "\n%*s%s\n", USAGE_OPTS_WIDTH + USAGE_GAP, "", o->help ? o->help : "");
	}
	return 0;
}

static int opt_cmp(const void *a, const void *b)
{
	const struct option *oa = a, *ob = b;
	int sa = tolower(oa->short_name), sb = tolower(ob->short_name), ret;

	if (!sa)
		sa = 'z' + 1;
	if (!sb)
		sb = 'z' + 1;
	ret = sa - sb;
	if (!ret)
		ret = strcmp(oa->long_name ? oa->long_name : "", ob->long_name ? ob->long_name : "");
	return ret;
}

/*
 * perf sorts each run of options between groups: short ones by letter
 * (case-folded, then long name), long-only ones after them by name.
 */
static struct option *sorted_options(const struct option *options)
{
	size_t nr = 0, start = 0;
	struct option *copy;

	while (options[nr].type != OPTION_END)
		nr++;
	copy = xmemdup(options, (nr + 1) * sizeof(*options));
	for (size_t i = 0; i <= nr; i++) {
		if (i == nr || copy[i].type == OPTION_GROUP) {
			qsort(copy + start, i - start, sizeof(*copy), opt_cmp);
			start = i + 1;
		}
	}
	return copy;
}

static void print_usage_head(FILE *f, const char *const usagestr[])
{
	fputc('\n', f);
	for (int i = 0; usagestr && usagestr[i]; i++) {
		if (!*usagestr[i]) {
			/* an empty line separates the usage lines from free text */
			fputc('\n', f);
			for (i++; usagestr[i]; i++)
				fprintf(f, "    %s\n", usagestr[i]);
			break;
		}
		print_usage_line(f, usagestr[i], i == 0);
	}
}

void print_usage(const char *const usagestr[], const struct option *options)
{
	struct option *sorted = sorted_options(options);

	fflush(stdout);
	print_usage_head(stderr, usagestr);
	if (sorted[0].type != OPTION_END && sorted[0].type != OPTION_GROUP)
		fputc('\n', stderr);
	for (const struct option *o = sorted; o->type != OPTION_END; o++)
		if (!(o->flags & PARSE_OPT_HIDDEN))
			print_option_help(stderr, o);
	fputc('\n', stderr);
	free(sorted);
}

void option_unsupported(const char *long_name)
{
	fflush(stdout);
	fprintf(stderr, "Error: --%s is not supported by %s\n", long_name, prog_name);
}

int parse_opt_unsupported(const struct option *opt, const char *arg, int unset)
{
	(void)arg;
	if (unset)
		return 0;
	option_unsupported(opt->long_name);
	return -1;
}

void usage_with_options(const char *const usagestr[], const struct option *options)
{
	print_usage(usagestr, options);
	exit(129);
}

void usage_with_options_msg(const char *const usagestr[], const struct option *options,
			    const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("  Error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	usage_with_options(usagestr, options);
}

void usage_for_option(const char *const usagestr[], const struct option *options,
		      int short_name, const char *long_name)
{
	fflush(stdout);
	for (int i = 0; usagestr && usagestr[i] && *usagestr[i]; i++)
		print_usage_line(stderr, usagestr[i], i == 0);
	fputc('\n', stderr);
	for (const struct option *o = options; o->type != OPTION_END; o++) {
		if ((short_name && o->short_name == short_name) ||
		    (long_name && o->long_name && !strcmp(o->long_name, long_name))) {
			print_option_help(stderr, o);
			break;
		}
	}
	/* perf ends with the option's help line: no blank line after it */
	exit(129);
}

static void __attribute__((noreturn))
opt_error(struct parse_ctx *ctx, const struct option *o, bool is_short, const char *what)
{
	fflush(stdout);
	if (is_short)
		fprintf(stderr, " Error: switch `%c' %s\n", o->short_name, what);
	else
		fprintf(stderr, " Error: option `%s' %s\n", o->long_name, what);
	usage_for_option(ctx->usagestr, ctx->options, is_short ? o->short_name : 0,
			 is_short ? NULL : o->long_name);
}

/* get_arg - fetch the argument of @o; NULL when optional and absent. */
static const char *get_arg(struct parse_ctx *ctx, const struct option *o, bool is_short,
			   const char *inline_arg)
{
	const char *arg;

	if (inline_arg)
		return inline_arg;
	if (is_short && ctx->opt && *ctx->opt) {
		arg = ctx->opt;
		ctx->opt = NULL;
		return arg;
	}
	if (o->flags & PARSE_OPT_OPTARG)
		return NULL;
	if (ctx->i + 1 < ctx->argc)
		return ctx->argv[++ctx->i];
	opt_error(ctx, o, is_short, "requires a value");
}

static bool takes_arg(const struct option *o)
{
	switch (o->type) {
	case OPTION_BOOLEAN:
	case OPTION_INCR:
	case OPTION_SET_INT:
		return false;
	case OPTION_CALLBACK:
		return !(o->flags & PARSE_OPT_NOARG);
	default:
		return true;
	}
}

static void get_value(struct parse_ctx *ctx, const struct option *o, bool is_short, bool unset,
		      const char *inline_arg)
{
	const char *arg = NULL;
	char *end;

	if (unset && (o->flags & PARSE_OPT_NONEG)) {
		fflush(stdout);
		fprintf(stderr, " Error: option `no-%s' isn't available\n", o->long_name);
		usage_with_options(ctx->usagestr, ctx->options);
	}
	if (inline_arg && (unset || !takes_arg(o)))
		opt_error(ctx, o, is_short, "takes no value");
	if (!unset && takes_arg(o))
		arg = get_arg(ctx, o, is_short, inline_arg);

	switch (o->type) {
	case OPTION_BOOLEAN:
		*(bool *)o->value = !unset;
		return;
	case OPTION_INCR:
		*(int *)o->value = unset ? 0 : *(int *)o->value + 1;
		return;
	case OPTION_SET_INT:
		*(int *)o->value = unset ? 0 : (int)o->defval;
		return;
	case OPTION_STRING:
		if (unset)
			*(const char **)o->value = NULL;
		else
			*(const char **)o->value = arg ? arg : (const char *)o->defval;
		return;
	case OPTION_CALLBACK:
		if (o->callback(o, arg, unset))
			usage_for_option(ctx->usagestr, ctx->options, is_short ? o->short_name : 0,
					 is_short ? NULL : o->long_name);
		return;
	case OPTION_INTEGER:
	case OPTION_UINTEGER:
	case OPTION_LONG:
	case OPTION_U64: {
		if (unset) {
			memset(o->value, 0,
			       o->type == OPTION_U64 ? 8 :
			       o->type == OPTION_LONG ? sizeof(long) : sizeof(int));
			return;
		}
		if (!arg) {
			arg = "0";
			if (o->defval)
				arg = (const char *)o->defval;
		}
		errno = 0;
		if (o->type == OPTION_INTEGER || o->type == OPTION_LONG) {
			long long v = strtoll(arg, &end, 0);

			if (*end || !*arg || errno)
				opt_error(ctx, o, is_short, "expects a numerical value");
			if (o->type == OPTION_INTEGER)
				*(int *)o->value = (int)v;
			else
				*(long *)o->value = (long)v;
		} else {
			unsigned long long v;

			if (strchr(arg, '-'))
				opt_error(ctx, o, is_short, "expects an unsigned numerical value");
			v = strtoull(arg, &end, 0);
			if (*end || !*arg || errno)
				opt_error(ctx, o, is_short, "expects a numerical value");
			if (o->type == OPTION_UINTEGER)
				*(unsigned int *)o->value = (unsigned int)v;
			else
				*(uint64_t *)o->value = v;
		}
		return;
	}
	default:
		die("parse-options: bad option type %d", o->type);
	}
}

static const struct option *find_short(const struct option *options, int c)
{
	for (const struct option *o = options; o->type != OPTION_END; o++)
		if (o->short_name == c && o->type != OPTION_GROUP)
			return o;
	return NULL;
}

/* parse_long - handle "--name[=val]"; returns 0, or -1 for unknown. */
static int parse_long(struct parse_ctx *ctx, const char *arg)
{
	const char *eq = strchr(arg, '=');
	size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
	const struct option *abbrev = NULL, *ambiguous = NULL;
	bool abbrev_unset = false;

	for (const struct option *o = ctx->options; o->type != OPTION_END; o++) {
		const char *name = o->long_name;
		bool unset = false;
		const char *a = arg;
		size_t alen = len;

		if (!name || o->type == OPTION_GROUP)
			continue;
		if (!strncmp(a, "no-", 3) && strncmp(name, "no-", 3)) {
			a += 3;
			alen -= 3;
			unset = true;
		}
		if (strlen(name) == alen && !strncmp(name, a, alen)) {
			get_value(ctx, o, false, unset, eq ? eq + 1 : NULL);
			return 0;
		}
		/* exact "no-foo" option names also match without negation */
		if (unset && strlen(name) == len && !strncmp(name, arg, len)) {
			get_value(ctx, o, false, false, eq ? eq + 1 : NULL);
			return 0;
		}
		if (alen && !strncmp(name, a, alen)) {
			if (abbrev && abbrev != o)
				ambiguous = o;
			else {
				abbrev = o;
				abbrev_unset = unset;
			}
		}
	}
	if (ambiguous) {
		fflush(stdout);
		fprintf(stderr, " Error: Ambiguous option: %.*s (could be --%s%s or --%s%s)\n",
			(int)len, arg, abbrev_unset ? "no-" : "", abbrev->long_name,
			abbrev_unset ? "no-" : "", ambiguous->long_name);
		usage_with_options(ctx->usagestr, ctx->options);
	}
	if (abbrev) {
		get_value(ctx, abbrev, false, abbrev_unset, eq ? eq + 1 : NULL);
		return 0;
	}
	return -1;
}

int parse_options(int argc, const char **argv, const struct option *options,
		  const char *const usagestr[], int flags)
{
	struct parse_ctx ctx = { usagestr, options, argc, argv, 1, NULL };
	int nout = 0;
	const char **out = argv;

	for (; ctx.i < argc; ctx.i++) {
		const char *arg = argv[ctx.i];

		if (arg[0] != '-' || !arg[1]) {
			if (flags & PARSE_OPT_STOP_AT_NON_OPTION)
				break;
			out[nout++] = arg;
			continue;
		}
		if (arg[1] != '-') {
			ctx.opt = arg + 1;
			while (ctx.opt && *ctx.opt) {
				const struct option *o;
				int c = *ctx.opt++;

				o = find_short(options, c);
				if (!o && c == 'h')
					usage_with_options(usagestr, options);
				if (!o) {
					if (flags & PARSE_OPT_KEEP_UNKNOWN) {
						out[nout++] = arg;
						break;
					}
					fflush(stdout);
					fprintf(stderr, "  Error: unknown switch `%c'\n", c);
					usage_with_options(usagestr, options);
				}
				get_value(&ctx, o, true, false, NULL);
			}
			ctx.opt = NULL;
			continue;
		}
		if (!arg[2]) { /* "--" ends the options */
			if (flags & PARSE_OPT_KEEP_DASHDASH)
				out[nout++] = arg;
			ctx.i++;
			break;
		}
		if (!strcmp(arg + 2, "help") || !strcmp(arg + 2, "help-all"))
			usage_with_options(usagestr, options);
		if (parse_long(&ctx, arg + 2)) {
			if (flags & PARSE_OPT_KEEP_UNKNOWN) {
				out[nout++] = arg;
				continue;
			}
			fflush(stdout);
			fprintf(stderr, "  Error: unknown option `%s'\n", arg + 2);
			usage_with_options(usagestr, options);
		}
	}
	/* whatever is left after a stop or "--" is kept as is */
	for (; ctx.i < argc; ctx.i++)
		out[nout++] = argv[ctx.i];
	out[nout] = NULL;
	return nout;
}

void parse_options_usage(const char *const usagestr[], const struct option *options,
			 int short_name, const char *long_name)
{
	fflush(stdout);
	if (usagestr) {
		fputc('\n', stderr);
		for (int i = 0; usagestr[i] && *usagestr[i]; i++)
			print_usage_line(stderr, usagestr[i], i == 0);
		fputc('\n', stderr);
	}
	for (const struct option *o = options; o->type != OPTION_END; o++) {
		if ((short_name && o->short_name == short_name) ||
		    (long_name && o->long_name && !strcmp(o->long_name, long_name))) {
			print_option_help(stderr, o);
			break;
		}
	}
}
