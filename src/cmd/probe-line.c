/* SPDX-License-Identifier: MIT */
/* sonde probe --line: the probe-able source lines of a function or a file, perf's listing. */
#include "builtin.h"
#include "cmd/probe.h"

#include "lib/debug.h"
#include "lib/xalloc.h"
#include "symbol/probe-binary.h"
#include "symbol/probe-dwarf.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LINES_AFTER_FUNC 3 /* perf shows this many lines after a function's last one */

struct line_range {
	char *func;  /* owned, or NULL for a source file */
	char *file;  /* owned: @SRC, or the file */
	long start;  /* relative (function) or absolute (file); 0: none given */
	long end;    /* inclusive; -1: none given */
};

/* FUNC[@SRC][:RLN[+NUM|-RLN2]] | SRC[:ALN[+NUM|-ALN2]] */
static int line_range_parse(struct line_range *lr, const char *text)
{
	const char *colon = strchr(text, ':');
	char *head = xstrndup(text, colon ? (size_t)(colon - text) : strlen(text));
	char *at = strchr(head, '@');
	char *end;

	memset(lr, 0, sizeof(*lr));
	lr->end = -1;
	if (at) {
		*at = 0;
		lr->func = head;
		lr->file = xstrdup(at + 1);
	} else if (strchr(head, '.') || strchr(head, '/')) {
		lr->file = head;
	} else {
		lr->func = head;
	}
	if (!colon)
		return 0;
	lr->start = strtol(colon + 1, &end, 10);
	if (end == colon + 1)
		return -EINVAL;
	if (*end == '+') {
		long n = strtol(end + 1, &end, 10);

		lr->end = lr->start + n - 1;
	} else if (*end == '-') {
		lr->end = strtol(end + 1, &end, 10);
	}
	return *end ? -EINVAL : 0;
}

static void line_range_release(struct line_range *lr)
{
	free(lr->func);
	free(lr->file);
}

/* print lines @first..@last (absolute) of @path, numbered relative to @base where probe-able */
static int print_source(const struct probe_lines *pl, long first, long last, long base)
{
	FILE *f = fopen(pl->path, "r");
	char *line = NULL;
	size_t cap = 0;
	long no = 0;

	if (!f) {
		pr_err("Failed to open %s: %s\n", pl->path, strerror(errno));
		return -errno;
	}
	while (getline(&line, &cap, f) > 0 && ++no <= last) {
		if (no < first)
			continue;
		if (no < pl->nr_lines && pl->is_probe[no])
			printf("%7ld  %s", no - base, line);
		else
			printf("         %s", line);
		if (!strchr(line, '\n'))
			putchar('\n');
	}
	free(line);
	fclose(f);
	return 0;
}

static bool any_probe_line(const struct probe_lines *pl, long first, long last)
{
	for (long l = first; l <= last && l < pl->nr_lines; l++)
		if (l > 0 && pl->is_probe[l])
			return true;
	return false;
}

int probe_cmd_line(const char *path, const char *spec)
{
	struct probe_binary pb;
	struct probe_lines pl = { 0 };
	struct line_range lr;
	int err = probe_binary_load_names(&pb, path);
	int ret = 254;

	if (line_range_parse(&lr, spec)) {
		pr_err("Semantic error :Failed to parse line range: %s\n", spec);
		line_range_release(&lr);
		probe_binary_release(&pb);
		return 234;
	}
	if (err || !pb.has_dwarf) {
		ret = probe_cmd_no_debuginfo(path, "lines");
		goto out;
	}
	if (lr.func) {
		struct probe_dwarf_func *fns = NULL;
		int nr;
		long first, last;

		if (lr.file && !probe_dwarf_find_file(&pb, lr.file)) {
			pr_err("Debuginfo analysis failed.\n  Error: Failed to show lines.\n");
			ret = 161;
			goto out;
		}
		nr = probe_cmd_find_funcs(&pb, lr.func, lr.file, false, true, &fns);
		if (nr == 0) {
			/* only inlined: its copies (perf lists the lines they start on) */
			free(fns);
			nr = probe_dwarf_find_funcs(&pb, lr.func, lr.file, true, &fns);
			if (nr <= 0 || probe_dwarf_inlined_lines(&pb, fns, (size_t)nr, &pl)) {
				free(fns);
				goto not_found;
			}
		} else if (nr < 0 || probe_dwarf_func_lines(&pb, &fns[0], &pl)) {
			free(fns);
			goto not_found;
		}
		first = fns[0].decl_line + lr.start;
		last = lr.end >= 0 ? fns[0].decl_line + lr.end : pl.last;
		if (!any_probe_line(&pl, first, last)) {
			free(fns);
			goto not_found;
		}
		if (access(pl.path, R_OK)) {
			free(fns);
			goto no_source;
		}
		printf("<%s@%s:%ld>\n", fns[0].name, pl.path, lr.start);
		ret = print_source(&pl, first, lr.end >= 0 ? last : last + LINES_AFTER_FUNC,
				   fns[0].decl_line) ? 254 : 0;
		free(fns);
	} else {
		long first = lr.start > 0 ? lr.start : 1;
		long last = lr.end >= 0 ? lr.end : LONG_MAX;

		if (probe_dwarf_file_lines(&pb, lr.file, &pl))
			goto not_found;
		if (!any_probe_line(&pl, first, last < pl.nr_lines ? last : pl.nr_lines))
			goto not_found;
		if (access(pl.path, R_OK))
			goto no_source;
		printf("<%s:%ld>\n", pl.path, lr.start);
		ret = print_source(&pl, first, last, 0) ? 254 : 0;
	}
	goto out;
no_source:
	pr_err("Failed to find source file path.\n  Error: Failed to show lines.\n");
	ret = 254;
	goto out;
not_found:
	pr_err("Specified source line is not found.\n  Error: Failed to show lines.\n");
	ret = 254;
out:
	probe_lines_release(&pl);
	line_range_release(&lr);
	probe_binary_release(&pb);
	return ret;
}

