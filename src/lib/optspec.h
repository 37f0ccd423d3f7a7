/* SPDX-License-Identifier: MIT */
/*
 * Declarative command-line option tables (struct opt_spec) and the parser
 * that reads argv against them with perf's observable behaviour: clustered
 * short switches, --name[=value], unique abbreviations, "no-" negation, the
 * help layout, the error texts and exit status 129.
 */
#ifndef SONDE_LIB_OPTSPEC_H
#define SONDE_LIB_OPTSPEC_H

#include <stdbool.h>
#include <stdint.h>

/* What an entry stores, and so whether it wants a value. */
enum opt_kind {
	OPTK_END,     /* terminates a table */
	OPTK_HEADING, /* a heading line in the help, not an option */
	OPTK_FLAG,    /* bool: true, false when negated */
	OPTK_COUNT,   /* int: +1 per use, 0 when negated */
	OPTK_TEXT,    /* const char *: the value as given (borrowed from argv) */
	OPTK_INT,     /* int */
	OPTK_UINT,    /* unsigned int */
	OPTK_U64,     /* uint64_t */
	OPTK_HANDLER, /* the handler decides */
};

/* Per-entry traits. */
enum {
	OPTT_VALUE_OPTIONAL = 1 << 0, /* value only as --name=v or -xv */
	OPTT_NO_VALUE = 1 << 1,	      /* a handler that takes no value */
	OPTT_NO_NEGATE = 1 << 2,      /* --no-name is refused */
	OPTT_HIDDEN = 1 << 3,	      /* left out of the help */
	OPTT_LABEL_AS_IS = 1 << 4,    /* help shows the label without <> */
};

/* Parse modes for opts_parse(). */
enum {
	OPTS_STOP_AT_ARG = 1 << 0, /* the first non-option ends the options */
};

struct opt_spec;
/*
 * opt_handler_fn - called for an OPTK_HANDLER entry: @arg is the value
 * (NULL when none was given), @unset is nonzero for the "no-" form.
 * Return 0, or -1 for a usage error: the handler prints its own message and
 * the blank line perf leaves before the usage; the parser then prints the
 * usage lines and the help of the option as typed, and exits 129.
 */
typedef int opt_handler_fn(const struct opt_spec *opt, const char *arg, int unset);

struct opt_spec {
	const char *name;	 /* long name without "--", or NULL */
	int letter;		 /* short name, or 0 */
	enum opt_kind kind;
	unsigned int traits;	 /* OPTT_* */
	void *dest;		 /* what is set; handlers get it back */
	opt_handler_fn *handler; /* OPTK_HANDLER only */
	const char *label;	 /* the value's name in the help */
	const char *desc;	 /* help text (the heading for OPTK_HEADING) */
	intptr_t fallback;	 /* OPTK_TEXT with an optional value: used when absent */
};

#define SPEC_END() { .kind = OPTK_END }
#define SPEC_HEADING(h) { .kind = OPTK_HEADING, .desc = (h) }
#define SPEC_FLAG(l, s, v, h) { .name = (l), .letter = (s), .kind = OPTK_FLAG, .dest = (v), .desc = (h) }
#define SPEC_COUNT(l, s, v, h) { .name = (l), .letter = (s), .kind = OPTK_COUNT, .dest = (v), .desc = (h) }
#define SPEC_TEXT(l, s, v, a, h) { .name = (l), .letter = (s), .kind = OPTK_TEXT, .dest = (v), .label = (a), .desc = (h) }
#define SPEC_TEXT_OPT(l, s, v, a, h, d)                                                            \
	{ .name = (l), .letter = (s), .kind = OPTK_TEXT, .traits = OPTT_VALUE_OPTIONAL, .dest = (v), \
	  .label = (a), .desc = (h), .fallback = (intptr_t)(d) }
#define SPEC_INT(l, s, v, h) { .name = (l), .letter = (s), .kind = OPTK_INT, .dest = (v), .label = "n", .desc = (h) }
#define SPEC_UINT(l, s, v, h) { .name = (l), .letter = (s), .kind = OPTK_UINT, .dest = (v), .label = "n", .desc = (h) }
#define SPEC_U64(l, s, v, h) { .name = (l), .letter = (s), .kind = OPTK_U64, .dest = (v), .label = "n", .desc = (h) }
#define SPEC_FN(l, s, v, a, h, f)                                                                   \
	{ .name = (l), .letter = (s), .kind = OPTK_HANDLER, .dest = (v), .handler = (f), .label = (a), \
	  .desc = (h) }
#define SPEC_FN_NOVAL(l, s, v, h, f)                                                                \
	{ .name = (l), .letter = (s), .kind = OPTK_HANDLER, .traits = OPTT_NO_VALUE, .dest = (v),   \
	  .handler = (f), .desc = (h) }
#define SPEC_FN_OPTVAL(l, s, v, a, h, f)                                                            \
	{ .name = (l), .letter = (s), .kind = OPTK_HANDLER, .traits = OPTT_VALUE_OPTIONAL,          \
	  .dest = (v), .handler = (f), .label = (a), .desc = (h) }
/* SPEC_FN_NONEG / SPEC_TEXT_NONEG - as SPEC_FN / SPEC_TEXT, and --no-NAME is refused */
#define SPEC_FN_NONEG(l, s, v, a, h, f)                                                             \
	{ .name = (l), .letter = (s), .kind = OPTK_HANDLER, .traits = OPTT_NO_NEGATE, .dest = (v),  \
	  .handler = (f), .label = (a), .desc = (h) }
#define SPEC_TEXT_NONEG(l, s, v, a, h)                                                              \
	{ .name = (l), .letter = (s), .kind = OPTK_TEXT, .traits = OPTT_NO_NEGATE, .dest = (v),     \
	  .label = (a), .desc = (h) }
/*
 * SPEC_REFUSED / SPEC_REFUSED_NOVAL - an option of perf's table that sonde
 * does not implement: shown by -h, refused when given (never ignored).
 */
#define SPEC_REFUSED(l, s, a, h) SPEC_FN(l, s, NULL, a, h, opts_refuse)
#define SPEC_REFUSED_NOVAL(l, s, h) SPEC_FN_NOVAL(l, s, NULL, h, opts_refuse)

/*
 * opts_refuse - the handler of SPEC_REFUSED: prints
 * "Error: --<name> is not supported by sonde" and fails (usage, exit 129).
 * The negated form (--no-x, the default) is accepted.
 */
int opts_refuse(const struct opt_spec *opt, const char *arg, int unset);
/* opts_report_unsupported - that message for an option refused after parsing (by its value) */
void opts_report_unsupported(const char *name);

/*
 * opts_parse - read @argv (argv[0], the command, is skipped) against the
 * table @specs. The non-option words are moved to the front of argv and
 * their number returned; argv[ret] is NULL. With OPTS_STOP_AT_ARG the
 * first non-option and everything after it are kept as they are.
 * "-h"/"--help" print the help to stderr and exit(129); usage errors
 * print perf's texts and exit(129).
 */
int opts_parse(int argc, const char **argv, const struct opt_spec *specs,
	       const char *const usage[], int mode);

/* opts_usage_print - the full help (usage lines and every option) on stderr. */
void opts_usage_print(const char *const usage[], const struct opt_spec *specs);
/* opts_usage_exit - opts_usage_print(), then exit(129). */
void opts_usage_exit(const char *const usage[], const struct opt_spec *specs)
	__attribute__((noreturn));
/* opts_usage_error - "  Error: <msg>", the full help, exit(129). */
void opts_usage_error(const char *const usage[], const struct opt_spec *specs, const char *fmt, ...)
	__attribute__((noreturn, format(printf, 3, 4)));
/*
 * opts_usage_for - without exiting: "\n Usage: ...\n\n" when @usage is
 * given, then the help line of the option named @letter or @name. perf
 * prints this after a rejected combination of options (call it again
 * with @usage NULL for a second option).
 */
void opts_usage_for(const char *const usage[], const struct opt_spec *specs, int letter,
		    const char *name);

/* The program name used in messages: "perf" or "sonde", from argv[0]. */
extern const char *prog_name;

#endif
