/* SPDX-License-Identifier: MIT */
/* sonde probe: argv checked before parsing (perf's exclusive commands) and -F/-l's optional values. */
#include "builtin.h"
#include "cmd/probe.h"

#include "lib/optspec.h"
#include "lib/util.h"
#include "lib/xalloc.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * -F/--funcs and -l/--list take a value when one follows, else none (perf's
 * help shows them as taking one): an option word or the end of argv after
 * them becomes an empty value, which the handlers read as "no filter".
 */
const char **probe_optional_values(int argc, const char **argv)
{
	const char **v = xcalloc((size_t)argc + 1, sizeof(*v));

	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		bool bare = !strcmp(a, "-F") || !strcmp(a, "--funcs") || !strcmp(a, "-l") ||
			    !strcmp(a, "--list");

		if (bare && (i + 1 >= argc || argv[i + 1][0] == '-'))
			v[i] = a[1] == '-' ? xasprintf("%s=", a) : xasprintf("%s", a[1] == 'F' ? "--funcs=" : "--list=");
		else
			v[i] = xstrdup(a);
	}
	return v;
}

/* the command options perf makes exclusive of each other, and their values */
static const struct {
	char letter;
	const char *name;
	bool optional; /* -F/-l: a value only when one follows */
} probe_cmds[] = {
	{ 'a', "add", false }, { 'D', "definition", false }, { 'd', "del", false },
	{ 'F', "funcs", true }, { 'L', "line", false },	      { 'l', "list", true },
	{ 'V', "vars", false },
};

static int find_cmd(char letter, const char *name, size_t len)
{
	for (size_t i = 0; i < ARRAY_SIZE(probe_cmds); i++)
		if (letter ? probe_cmds[i].letter == letter
			   : strlen(probe_cmds[i].name) == len && !strncmp(probe_cmds[i].name, name, len))
			return (int)i;
	return -1;
}

/*
 * perf's exclusive commands: a second different one (-D after -l, --funcs
 * after --del) is a usage error naming both, as typed. Checked on argv
 * before parsing, where how an option was typed is still known.
 */
void probe_check_exclusive(int argc, const char **argv, const char *const usage[],
			   const struct opt_spec *options)
{
	static const char value_letters[] = "xmks";
	int first = -1;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		bool is_long = a[0] == '-' && a[1] == '-';
		int c = -1;

		if (!strcmp(a, "--"))
			break;
		if (is_long) {
			size_t len = strcspn(a + 2, "=");

			c = find_cmd(0, a + 2, len);
			if (!a[2 + len] && ((c >= 0 && !probe_cmds[c].optional) ||
					    (c < 0 && (!strcmp(a, "--exec") || !strcmp(a, "--filter") ||
						       !strcmp(a, "--max-probes") || !strcmp(a, "--module")))))
				i++;
		} else if (a[0] == '-' && a[1]) {
			c = find_cmd(a[1], NULL, 0);
			if (!a[2] && ((c >= 0 && !probe_cmds[c].optional) ||
				      (c < 0 && strchr(value_letters, a[1]))))
				i++;
		}
		if (c >= 0 && probe_cmds[c].optional && !a[2 + strcspn(a + 2, "=")] && i + 1 < argc &&
		    argv[i + 1][0] != '-' && (is_long || !a[2]))
			i++;
		if (c < 0)
			continue;
		if (first < 0 || first == c) {
			first = c;
			continue;
		}
		if (is_long)
			fprintf(stderr, " Error: option `%s' cannot be used with %s\n",
				probe_cmds[c].name, probe_cmds[first].name);
		else
			fprintf(stderr, " Error: switch `%c' cannot be used with switch `%c'\n",
				probe_cmds[c].letter, probe_cmds[first].letter);
		for (int u = 0; usage[u]; u++)
			fprintf(stderr, "%s%s %s\n", u ? "    or: " : " Usage: ", prog_name,
				usage[u] + 5);
		fputc('\n', stderr);
		opts_usage_for(NULL, options, probe_cmds[c].letter, NULL);
		opts_usage_for(NULL, options, probe_cmds[first].letter, NULL);
		exit(129);
	}
}
