/* SPDX-License-Identifier: MIT */
/*
 * Declarative command-line option tables (struct opt_spec) and the parser
 * that reads argv against them with perf's observable behaviour: clustered
 * short switches, --name[=value], unique abbreviations, "no-" negation.
 * The parser prints nothing: it returns what went wrong in a struct
 * opts_error; cmd/options.c turns that into perf's help and error texts
 * and exit status 129 (commands call opts_parse() from there).
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

/* Parse modes for opts_parse_raw() (and cmd/'s opts_parse()). */
enum {
	OPTS_STOP_AT_ARG = 1 << 0, /* the first non-option ends the options */
};

struct opt_spec;
/*
 * opt_handler_fn - called for an OPTK_HANDLER entry: @arg is the value
 * (NULL when none was given), @unset is nonzero for the "no-" form.
 * Return 0, or -1 for a usage error: the handler (in cmd/) prints its own
 * message and the blank line perf leaves before the usage; the parser then
 * stops with OPTS_ERR_HANDLER, and cmd/'s opts_parse() prints the usage
 * lines and the help of the option as typed, and exits 129.
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
/* What stopped opts_parse_raw(). */
enum opts_problem {
	OPTS_ERR_NONE,
	OPTS_ERR_HELP,	      /* -h / --help (help_from: the words after -h, or 0) */
	OPTS_ERR_UNKNOWN,     /* no such switch (letter) or option (typed) */
	OPTS_ERR_AMBIGUOUS,   /* typed begins two or more names: candidates[] */
	OPTS_ERR_VALUE,	      /* the value of spec is missing/wrong/unwanted: what */
	OPTS_ERR_NO_NEGATE,   /* --no-NAME of an OPTT_NO_NEGATE entry */
	OPTS_ERR_HANDLER,     /* the handler of spec returned nonzero (and reported) */
};

/* One candidate of an ambiguous abbreviation. */
struct opts_candidate {
	const struct opt_spec *spec;
	bool negated; /* it matched as "no-NAME" */
};

/*
 * struct opts_error - why opts_parse_raw() failed: enough for cmd/ to
 * print perf's texts. Strings point into argv or into static text.
 */
struct opts_error {
	enum opts_problem problem;
	const struct opt_spec *spec; /* the entry concerned, or NULL */
	bool negated;		     /* spec was given as "no-NAME" */
	int letter;		     /* the switch as typed, when given as -x */
	const char *typed;	     /* the text after "--" as typed, when given as --name */
	const char *what;	     /* OPTS_ERR_VALUE: "requires a value", ... */
	struct opts_candidate candidates[2]; /* OPTS_ERR_AMBIGUOUS: the last two */
	int help_from;		     /* OPTS_ERR_HELP: argv index of the first word after -h, or 0 */
};

/*
 * opts_parse_raw - read @argv (argv[0], the command, is skipped) against
 * the table @specs, storing values as it goes. The non-option words are
 * moved to the front of argv and their number returned; argv[ret] is NULL.
 * With OPTS_STOP_AT_ARG the first non-option and everything after it are
 * kept as they are. On -h/--help or a usage error returns -EINVAL with
 * @err filled (argv after the failing word is left as it was). Prints
 * nothing.
 */
int opts_parse_raw(int argc, const char **argv, const struct opt_spec *specs, int mode,
		   struct opts_error *err);

/* opts_wants_value - true when the entry takes a value (maybe an optional one) */
bool opts_wants_value(const struct opt_spec *s);

/* The program name used in messages: "perf" or "sonde", from argv[0]. */
extern const char *prog_name;

#endif
