/* SPDX-License-Identifier: MIT */
/* perf's option help and error texts, and exit status 129, over lib/optspec's parser. */
#ifndef SONDE_CMD_OPTIONS_H
#define SONDE_CMD_OPTIONS_H

#include "lib/optspec.h"

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

/* perf's help text of report's -g (report and c2c print it alike) */
#define CALL_GRAPH_REPORT_HELP                                                                       \
	"Display call graph (stack chain/backtrace):\n\n"                                              \
	"\t\t\t\tprint_type:\tcall graph printing style (graph|flat|fractal|folded|none)\n"         \
	"\t\t\t\tthreshold:\tminimum call graph inclusion threshold (<percent>)\n"                   \
	"\t\t\t\tprint_limit:\tmaximum number of call graph entry (<number>)\n"                      \
	"\t\t\t\torder:\t\tcall graph order (caller|callee)\n"                                     \
	"\t\t\t\tsort_key:\tcall graph sort key (function|address)\n"                              \
	"\t\t\t\tbranch:\t\tinclude last branch info to call graph (branch)\n"                     \
	"\t\t\t\tvalue:\t\tcall graph value (percent|period|count)\n\n"                            \
	"\t\t\t\tDefault: graph,0.5,caller,function,percent"

/*
 * cmd_is_abbrev - @word names the subcommand @name as perf takes it: three or
 * more of its first letters ("rec", "lat", "con"...).
 */
bool cmd_is_abbrev(const char *word, const char *name);

/*
 * opts_parse - opts_parse_raw(), and on its failure perf's texts on stderr
 * and exit(129): "-h"/"--help" print the help (or, for "-h WORD...", the
 * help of the options named), usage errors their message, the usage lines
 * and the help of the option as typed. Returns the number of non-option
 * words, moved to the front of argv (argv[ret] is NULL).
 */
int opts_parse(int argc, const char **argv, const struct opt_spec *specs,
	       const char *const usage[], int mode);
/*
 * opts_report - print perf's texts for @err (from opts_parse_raw() on
 * @argv) on stderr. Returns the exit status perf uses: 129.
 */
int opts_report(const struct opts_error *err, const char **argv, int argc,
		const struct opt_spec *specs, const char *const usage[]);

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

#endif
