/* SPDX-License-Identifier: MIT */
/* Unit tests for the option parser (lib: values, bundling, prefixes, errors) and its texts (cmd/options). */
#include "test.h"
#include "cmd/options.h"

#include <errno.h>

#include <stdbool.h>
#include <sys/wait.h>
#include <unistd.h>

static bool all_cpus, no_aggr;
static int verbose_lvl, repeat;
static const char *event, *output;
static uint64_t period;

static const struct opt_spec opts[] = {
	SPEC_FLAG("all-cpus", 'a', &all_cpus, "system-wide collection from all CPUs"),
	SPEC_FLAG("no-aggr", 'A', &no_aggr, "disable CPU count aggregation"),
	SPEC_TEXT("event", 'e', &event, "event", "event selector"),
	SPEC_COUNT("verbose", 'v', &verbose_lvl, "be more verbose"),
	SPEC_INT("repeat", 'r', &repeat, "repeat command"),
	SPEC_TEXT("output", 'o', &output, "file", "output file name"),
	SPEC_U64("count", 'c', &period, "event period to sample"),
	SPEC_TEXT("interval-print-something-long", 0, &output, "n", "long one"),
	SPEC_END()
};
static const char *const usage[] = { "perf stat [<options>] [<command>]", NULL };

static void reset(void)
{
	all_cpus = no_aggr = false;
	verbose_lvl = repeat = 0;
	event = output = NULL;
	period = 0;
}

TEST(optspec_values)
{
	const char *argv[] = { "stat", "-av", "-e", "cycles", "--repeat=3", "-vv", "-ofile",
			       "--count", "0x10", "sleep", "1", NULL };
	int argc = 11, n;

	reset();
	n = opts_parse(argc, argv, opts, usage, OPTS_STOP_AT_ARG);
	EXPECT_EQ(n, 2);
	EXPECT_STREQ(argv[0], "sleep");
	EXPECT_STREQ(argv[1], "1");
	EXPECT_TRUE(argv[2] == NULL);
	EXPECT_TRUE(all_cpus);
	EXPECT_EQ(verbose_lvl, 3);
	EXPECT_STREQ(event, "cycles");
	EXPECT_EQ(repeat, 3);
	EXPECT_STREQ(output, "file");
	EXPECT_EQ(period, 16);
}

TEST(optspec_prefix_negation_dashdash)
{
	const char *argv[] = { "x", "--all", "--no-all-cpus", "--ev=a,b", "pos", "--", "-a", NULL };
	int n;

	reset();
	n = opts_parse(7, argv, opts, usage, 0);
	EXPECT_TRUE(!all_cpus);
	EXPECT_STREQ(event, "a,b");
	EXPECT_EQ(n, 2);
	EXPECT_STREQ(argv[0], "pos");
	EXPECT_STREQ(argv[1], "-a");
	/* "no-aggr" is the option's own name, not a negation of "aggr" */
	{
		const char *argv2[] = { "x", "--no-aggr", NULL };

		opts_parse(2, argv2, opts, usage, 0);
		EXPECT_TRUE(no_aggr);
	}
}

/* the lib parser reports what went wrong and prints nothing */
TEST(optspec_raw_errors)
{
	struct opts_error err;
	const char *a1[] = { "stat", "-az", NULL };
	const char *a2[] = { "stat", "--a", NULL };
	const char *a3[] = { "stat", "--no-rep=1", NULL };
	const char *a4[] = { "stat", "--output", NULL };
	const char *a5[] = { "stat", "-r", "x", NULL };
	const char *a6[] = { "stat", "-v", "-h", "-r", "--rep", NULL };
	const char *a7[] = { "stat", "--help", NULL };
	const char *a8[] = { "stat", "--aggr=1", "-v", NULL };

	reset();
	EXPECT_EQ(opts_parse_raw(2, a1, opts, 0, &err), -EINVAL);
	EXPECT_EQ(err.problem, OPTS_ERR_UNKNOWN);
	EXPECT_EQ(err.letter, 'z');
	EXPECT_TRUE(err.typed == NULL);
	EXPECT_TRUE(all_cpus); /* what came before the error is stored */
	EXPECT_EQ(opts_parse_raw(2, a2, opts, 0, &err), -EINVAL);
	EXPECT_EQ(err.problem, OPTS_ERR_AMBIGUOUS);
	EXPECT_STREQ(err.typed, "a");
	EXPECT_STREQ(err.candidates[0].spec->name, "all-cpus");
	EXPECT_TRUE(!err.candidates[0].negated);
	EXPECT_STREQ(err.candidates[1].spec->name, "no-aggr");
	EXPECT_TRUE(err.candidates[1].negated);
	EXPECT_EQ(opts_parse_raw(2, a3, opts, 0, &err), -EINVAL);
	EXPECT_EQ(err.problem, OPTS_ERR_UNKNOWN);
	EXPECT_STREQ(err.typed, "no-rep=1");
	EXPECT_EQ(opts_parse_raw(2, a4, opts, 0, &err), -EINVAL);
	EXPECT_EQ(err.problem, OPTS_ERR_VALUE);
	EXPECT_STREQ(err.spec->name, "output");
	EXPECT_STREQ(err.what, "requires a value");
	EXPECT_EQ(opts_parse_raw(3, a5, opts, 0, &err), -EINVAL);
	EXPECT_EQ(err.problem, OPTS_ERR_VALUE);
	EXPECT_EQ(err.letter, 'r');
	EXPECT_STREQ(err.what, "expects a numerical value");
	EXPECT_EQ(opts_parse_raw(5, a6, opts, 0, &err), -EINVAL);
	EXPECT_EQ(err.problem, OPTS_ERR_HELP);
	EXPECT_EQ(err.help_from, 3);
	EXPECT_EQ(opts_parse_raw(2, a7, opts, 0, &err), -EINVAL);
	EXPECT_EQ(err.problem, OPTS_ERR_HELP);
	EXPECT_EQ(err.help_from, 0);
	EXPECT_EQ(opts_parse_raw(3, a8, opts, 0, &err), -EINVAL);
	EXPECT_EQ(err.problem, OPTS_ERR_VALUE);
	EXPECT_TRUE(err.negated);
	EXPECT_STREQ(err.what, "takes no value");
}

/* a handler's failure stops the parse; cmd/ prints the usage after the handler's message */
static int refuse_odd(const struct opt_spec *opt, const char *arg, int unset)
{
	(void)opt;
	(void)unset;
	return arg && strlen(arg) % 2;
}

TEST(optspec_raw_handler_and_no_negate)
{
	static const char *seen;
	const struct opt_spec hopts[] = {
		SPEC_FN("pick", 'p', &seen, "x", "pick one", refuse_odd),
		SPEC_TEXT_NONEG("fixed", 'f', &seen, "x", "no negation"),
		SPEC_END()
	};
	struct opts_error err;
	const char *a1[] = { "x", "--pick", "ab", "-p", "abc", "rest", NULL };
	const char *a2[] = { "x", "--no-fixed", NULL };
	const char *a3[] = { "x", "--pick=ab", "word", "-fv", NULL };

	EXPECT_EQ(opts_parse_raw(6, a1, hopts, 0, &err), -EINVAL);
	EXPECT_EQ(err.problem, OPTS_ERR_HANDLER);
	EXPECT_EQ(err.letter, 'p');
	EXPECT_STREQ(err.spec->name, "pick");
	EXPECT_EQ(opts_parse_raw(2, a2, hopts, 0, &err), -EINVAL);
	EXPECT_EQ(err.problem, OPTS_ERR_NO_NEGATE);
	EXPECT_STREQ(err.spec->name, "fixed");
	EXPECT_EQ(opts_parse_raw(4, a3, hopts, 0, &err), 1);
	EXPECT_EQ(err.problem, OPTS_ERR_NONE);
	EXPECT_STREQ(a3[0], "word");
	EXPECT_STREQ(seen, "v");
}

/* run opts_parse in a child and capture its stderr and exit status */
static int run_child(const char **argv, int argc, char *err, size_t errsz)
{
	int pfd[2], status;
	pid_t pid;
	ssize_t len, total = 0;

	if (pipe(pfd))
		return -1;
	pid = fork();
	if (!pid) {
		dup2(pfd[1], 2);
		close(pfd[0]);
		opts_parse(argc, argv, opts, usage, 0);
		_exit(0);
	}
	close(pfd[1]);
	while ((len = read(pfd[0], err + total, errsz - 1 - total)) > 0)
		total += len;
	err[total] = '\0';
	close(pfd[0]);
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(optspec_errors_exit_129)
{
	char err[8192];
	const char *a1[] = { "stat", "--bogus", NULL };
	const char *a2[] = { "stat", "-z", NULL };
	const char *a3[] = { "stat", "-r", "abc", NULL };
	const char *a4[] = { "stat", "--output", NULL };

	EXPECT_EQ(run_child(a1, 2, err, sizeof(err)), 129);
	EXPECT_TRUE(strstr(err, "  Error: unknown option `bogus'\n\n Usage: perf stat") != NULL);
	EXPECT_EQ(run_child(a2, 2, err, sizeof(err)), 129);
	EXPECT_TRUE(strstr(err, "  Error: unknown switch `z'") != NULL);
	EXPECT_EQ(run_child(a3, 3, err, sizeof(err)), 129);
	EXPECT_TRUE(strstr(err, " Error: switch `r' expects a numerical value\n Usage:") != NULL);
	EXPECT_TRUE(strstr(err, "    -r, --repeat <n>      repeat command\n") != NULL);
	EXPECT_EQ(run_child(a4, 2, err, sizeof(err)), 129);
	EXPECT_TRUE(strstr(err, " Error: option `output' requires a value") != NULL);
}

TEST(optspec_help_layout)
{
	char err[8192];
	const char *a[] = { "stat", "-h", NULL };

	EXPECT_EQ(run_child(a, 2, err, sizeof(err)), 129);
	/* sorted: -a before -A, then -c, -e, -o, -r, -v, then long-only */
	EXPECT_STREQ(err, "\n Usage: perf stat [<options>] [<command>]\n\n"
			  "    -a, --all-cpus        system-wide collection from all CPUs\n"
			  "    -A, --no-aggr         disable CPU count aggregation\n"
			  "    -c, --count <n>       event period to sample\n"
			  "    -e, --event <event>   event selector\n"
			  "    -o, --output <file>   output file name\n"
			  "    -r, --repeat <n>      repeat command\n"
			  "    -v, --verbose         be more verbose\n"
			  "        --interval-print-something-long <n>\n"
			  "                          long one\n\n");
}

/* the spellings of an option named "no-x": "x" and "no-no-x" negate it */
TEST(optspec_no_named_option_spellings)
{
	const char *a1[] = { "x", "--no-aggr", "--aggr", NULL };
	const char *a2[] = { "x", "--no-aggr", "--no-no-ag", NULL };
	const char *a3[] = { "x", "--ag", "--rep=4", "-r", "", NULL };

	reset();
	opts_parse(3, a1, opts, usage, 0);
	EXPECT_TRUE(!no_aggr);
	no_aggr = true;
	opts_parse(3, a2, opts, usage, 0);
	EXPECT_TRUE(!no_aggr);
	no_aggr = true;
	repeat = 9;
	opts_parse(5, a3, opts, usage, 0);
	EXPECT_TRUE(!no_aggr);
	/* the last of two values wins; an empty number is 0, as in perf */
	EXPECT_EQ(repeat, 0);
}

/* perf's texts for the cases its users meet, byte for byte */
TEST(optspec_error_texts)
{
	char err[8192];
	const char *head = " Usage: perf stat [<options>] [<command>]\n\n";
	char want[1024];
	const char *a1[] = { "stat", "--a", NULL };
	const char *a2[] = { "stat", "--repeat=abc", NULL };
	const char *a3[] = { "stat", "--aggr=1", NULL };
	const char *a4[] = { "stat", "--no-rep=1", NULL };
	const char *a5[] = { "stat", "--rep", NULL };
	const char *a6[] = { "stat", "-h", "-r", "--no-aggr", "--rep", NULL };

	/* two candidates: the last two, a negated one as no-NAME */
	EXPECT_EQ(run_child(a1, 2, err, sizeof(err)), 129);
	snprintf(want, sizeof(want),
		 " Error: Ambiguous option: a (could be --all-cpus or --no-no-aggr)\n\n%s"
		 "    -a, --all-cpus        system-wide collection from all CPUs\n", head);
	EXPECT_STREQ(err, want);
	/* no help line when a value came with '=' */
	EXPECT_EQ(run_child(a2, 2, err, sizeof(err)), 129);
	snprintf(want, sizeof(want), " Error: option `repeat' expects a numerical value\n%s", head);
	EXPECT_STREQ(err, want);
	EXPECT_EQ(run_child(a3, 2, err, sizeof(err)), 129);
	snprintf(want, sizeof(want), " Error: option `no-no-aggr' takes no value\n%s", head);
	EXPECT_STREQ(err, want);
	/* a negated abbreviation is compared with its '=value' */
	EXPECT_EQ(run_child(a4, 2, err, sizeof(err)), 129);
	EXPECT_TRUE(!strncmp(err, "  Error: unknown option `no-rep=1'\n\n Usage: perf stat", 52));
	/* the help of the typed prefix */
	EXPECT_EQ(run_child(a5, 2, err, sizeof(err)), 129);
	snprintf(want, sizeof(want), " Error: option `repeat' requires a value\n%s"
		 "    -r, --repeat <n>      repeat command\n", head);
	EXPECT_STREQ(err, want);
	/* -h WORD...: the options named exactly, in help order */
	EXPECT_EQ(run_child(a6, 5, err, sizeof(err)), 129);
	snprintf(want, sizeof(want), "\n%s"
		 "    -A, --no-aggr         disable CPU count aggregation\n"
		 "    -r, --repeat <n>      repeat command\n\n", head);
	EXPECT_STREQ(err, want);
}
