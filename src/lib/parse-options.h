/* SPDX-License-Identifier: MIT */
/*
 * Command-line option tables and parser, behaving like perf's (libsubcmd):
 * bundled short switches, --long[=val], unique prefixes, --no-*, and the
 * same help layout and error texts (exit status 129 on usage errors).
 */
#ifndef SONDE_LIB_PARSE_OPTIONS_H
#define SONDE_LIB_PARSE_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

enum parse_opt_type {
	OPTION_END,
	OPTION_GROUP,
	OPTION_BOOLEAN, /* bool: set true, --no-x sets false */
	OPTION_INCR,	/* int: each use adds 1, --no-x sets 0 */
	OPTION_SET_INT, /* int: set to defval */
	OPTION_STRING,	/* const char *: the argument (borrowed from argv) */
	OPTION_INTEGER, /* int */
	OPTION_UINTEGER, /* unsigned int */
	OPTION_LONG,	/* long */
	OPTION_U64,	/* uint64_t */
	OPTION_CALLBACK,
};

enum parse_opt_flags {
	PARSE_OPT_KEEP_DASHDASH = 1 << 0,
	PARSE_OPT_STOP_AT_NON_OPTION = 1 << 1,
	PARSE_OPT_KEEP_UNKNOWN = 1 << 2,
	PARSE_OPT_NO_SORT = 1 << 3, /* keep table order in help output */
};

enum parse_opt_option_flags {
	PARSE_OPT_OPTARG = 1 << 0, /* argument is optional (only as --opt=val / -oVAL) */
	PARSE_OPT_NOARG = 1 << 1,  /* callback takes no argument */
	PARSE_OPT_NONEG = 1 << 2,  /* --no-x is not accepted */
	PARSE_OPT_HIDDEN = 1 << 3, /* not shown in help */
	PARSE_OPT_LITERAL_ARGHELP = 1 << 4, /* argh printed as is, without <> */
};

struct option;
/*
 * parse_opt_cb - option callback. @arg is the argument (NULL for no-arg or
 * an absent optional argument), @unset is true for --no-x.
 * Return 0 on success, -1 to report a usage error for this option
 * (the callback may print its own " Error: ..." line first).
 */
typedef int parse_opt_cb(const struct option *opt, const char *arg, int unset);

struct option {
	enum parse_opt_type type;
	int short_name;
	const char *long_name;
	void *value;
	const char *argh;
	const char *help;
	int flags;
	parse_opt_cb *callback;
	intptr_t defval;
	void *data; /* free for callbacks */
};

#define OPT_END() { .type = OPTION_END }
#define OPT_GROUP(h) { .type = OPTION_GROUP, .help = (h) }
#define OPT_BOOLEAN(s, l, v, h) { .type = OPTION_BOOLEAN, .short_name = (s), .long_name = (l), .value = (v), .help = (h) }
#define OPT_INCR(s, l, v, h) { .type = OPTION_INCR, .short_name = (s), .long_name = (l), .value = (v), .help = (h) }
#define OPT_SET_INT(s, l, v, h, i) { .type = OPTION_SET_INT, .short_name = (s), .long_name = (l), .value = (v), .help = (h), .defval = (i) }
#define OPT_STRING(s, l, v, a, h) { .type = OPTION_STRING, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), .help = (h) }
#define OPT_STRING_OPTARG(s, l, v, a, h, d) { .type = OPTION_STRING, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), .help = (h), .flags = PARSE_OPT_OPTARG, .defval = (intptr_t)(d) }
#define OPT_INTEGER(s, l, v, h) { .type = OPTION_INTEGER, .short_name = (s), .long_name = (l), .value = (v), .argh = "n", .help = (h) }
#define OPT_UINTEGER(s, l, v, h) { .type = OPTION_UINTEGER, .short_name = (s), .long_name = (l), .value = (v), .argh = "n", .help = (h) }
#define OPT_LONG(s, l, v, h) { .type = OPTION_LONG, .short_name = (s), .long_name = (l), .value = (v), .argh = "n", .help = (h) }
#define OPT_U64(s, l, v, h) { .type = OPTION_U64, .short_name = (s), .long_name = (l), .value = (v), .argh = "n", .help = (h) }
#define OPT_CALLBACK(s, l, v, a, h, f) { .type = OPTION_CALLBACK, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), .help = (h), .callback = (f) }
#define OPT_CALLBACK_NOOPT(s, l, v, a, h, f) { .type = OPTION_CALLBACK, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), .help = (h), .callback = (f), .flags = PARSE_OPT_NOARG }
/*
 * OPT_UNSUPPORTED / OPT_UNSUPPORTED_NOARG - an option of perf's table that
 * sonde does not implement: kept for -h, refused when given (never ignored).
 */
#define OPT_UNSUPPORTED(s, l, a, h) OPT_CALLBACK(s, l, NULL, a, h, parse_opt_unsupported)
#define OPT_UNSUPPORTED_NOARG(s, l, h) OPT_CALLBACK_NOOPT(s, l, NULL, NULL, h, parse_opt_unsupported)
#define OPT_CALLBACK_OPTARG(s, l, v, d, a, h, f) { .type = OPTION_CALLBACK, .short_name = (s), .long_name = (l), .value = (v), .argh = (a), .help = (h), .callback = (f), .flags = PARSE_OPT_OPTARG, .data = (d) }

/*
 * parse_opt_unsupported - the callback of OPT_UNSUPPORTED: prints
 * "Error: --<name> is not supported by sonde" and fails (usage, exit 129).
 * The negated form (--no-x, the default) is accepted.
 */
int parse_opt_unsupported(const struct option *opt, const char *arg, int unset);
/* option_unsupported - that message for an option refused after parsing (by its value) */
void option_unsupported(const char *long_name);

/*
 * parse_options - parse @argv (argv[0] is the command name and skipped)
 * against @options. Non-option arguments are moved to the front of argv
 * (after argv[0] is dropped) and their count returned; argv[ret] is NULL.
 * With PARSE_OPT_STOP_AT_NON_OPTION, parsing stops at the first non-option.
 * "-h"/"--help" print the usage to stderr and exit(129). Usage errors print
 * perf's texts and exit(129).
 */
int parse_options(int argc, const char **argv, const struct option *options,
		  const char *const usagestr[], int flags);

/* usage_with_options - print the full usage and exit(129). */
void usage_with_options(const char *const usagestr[], const struct option *options)
	__attribute__((noreturn));
/* usage_with_options_msg - " Error: <msg>" then the usage; exit(129). */
void usage_with_options_msg(const char *const usagestr[], const struct option *options,
			    const char *fmt, ...) __attribute__((noreturn, format(printf, 3, 4)));
/*
 * usage_for_option - print " Usage: ..." and the help line of the option
 * named @long_name (or short @short_name) only, then exit(129): what perf
 * prints after an option's argument was rejected.
 */
void usage_for_option(const char *const usagestr[], const struct option *options,
		      int short_name, const char *long_name) __attribute__((noreturn));
/*
 * parse_options_usage - without exiting: "\n Usage: ...\n\n" when
 * @usagestr is given, then the help line of the option named @short_name
 * or @long_name. perf prints this after a rejected combination of options
 * (call it again with usagestr NULL for a second option).
 */
void parse_options_usage(const char *const usagestr[], const struct option *options,
			 int short_name, const char *long_name);
/* print_usage - print the usage text to stderr without exiting. */
void print_usage(const char *const usagestr[], const struct option *options);

/* The program name used in messages: "perf" or "sonde", from argv[0]. */
extern const char *prog_name;

#endif
