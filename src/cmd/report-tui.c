/* SPDX-License-Identifier: MIT */
/* report's TUI: the histogram browser with report's hooks (annotate, scripts, data file switch). */
#include "cmd/annotate.h"
#include "cmd/report.h"
#include "cmd/script-lang.h"

#include "data/header.h"
#include "lib/strvec.h"
#include "lib/xalloc.h"
#include "session/report.h"
#include "ui/hists-browser.h"
#include "ui/report-browser.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* struct report_tui_arg - what report's browser hooks need */
struct report_tui_arg {
	const char *input;
	const struct symbol_opts *symbol_opts;
	struct report *rep;
	bool intel;
	char **switch_to; /* the file "Switch to another data file in PWD" chose (owned there) */
};

/* is_data_file - @name in the current directory is a regular file starting with perf.data's magic */
static bool is_data_file(const char *name)
{
	struct stat st;
	u64 magic = 0;
	int fd;
	bool ok;

	if (stat(name, &st) || !S_ISREG(st.st_mode))
		return false;
	fd = open(name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	ok = read(fd, &magic, sizeof(magic)) == (ssize_t)sizeof(magic) &&
	     (magic == PERF_MAGIC || magic == __builtin_bswap64(PERF_MAGIC));
	close(fd);
	return ok;
}

/* report_data_files - perf's list for the switch: the current directory's data files, as read */
static void report_data_files(void *arg, struct strvec *files)
{
	DIR *d = opendir(".");
	struct dirent *de;

	(void)arg;
	if (!d)
		return;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.' && is_data_file(de->d_name))
			strvec_push(files, de->d_name);
	closedir(d);
}

static void report_switch_file(void *arg, const char *path)
{
	struct report_tui_arg *ra = arg;

	free(*ra->switch_to);
	*ra->switch_to = xstrdup(path);
}

/* report_annotate - the browser's 'a': the annotate browser on the symbol of @f (@e's row or chain line) */
static int report_annotate(void *arg, const struct hist_entry *e, const struct frame *f, char *msg,
			   size_t size)
{
	const struct report_tui_arg *ra = arg;
	static const struct symbol_opts none;

	if (!f->sym || !f->dso) {
		snprintf(msg, size, "No symbol to annotate");
		return -ENOENT;
	}
	/* the event holding @e: its index, and its totals for the title line */
	for (int i = 0; i < ra->rep->nr_hists; i++) {
		const struct hists *h = &ra->rep->hists[i];

		for (size_t k = 0; k < h->nr_entries; k++)
			if (h->entries[k] == e)
				return annotate_tui_entry(ra->input,
							  ra->symbol_opts ? ra->symbol_opts : &none,
							  f->sym, f->dso, i, h->nr_samples,
							  h->total_period, ra->intel, msg, size);
	}
	return annotate_tui_entry(ra->input, ra->symbol_opts ? ra->symbol_opts : &none,
				  f->sym, f->dso, -1, 0, 0, ra->intel, msg, size);
}


int report_tui(const struct report_hist_args *a, struct session *s, struct report *rep,
	       struct report_print_args *pa, const char *input)
{
	char *unused = NULL;
	struct report_tui_arg ra = { input, a->symbol_opts, rep, a->intel,
				     a->switch_to ? a->switch_to : &unused };
	struct hist_browser_ops ops = { .annotate = report_annotate, .arg = &ra };
	struct script_menu menu;
	const char *names[32];
	int ret;

	script_lang_tui_menu(&menu, s->evlist, input, names, 32);
	ops.scripts = &menu;
	ops.data_files = report_data_files;
	ops.switch_file = report_switch_file;

	/* annotate reads the file again: not a pipe */
	ret = report_browse(rep, pa, strcmp(input, "-") ? &ops : NULL);
	free(unused);
	if (ret == -EMSGSIZE)
		fprintf(stderr, "Error: the terminal is too small for the TUI (needs %dx%d), "
				"use --stdio\n", HIST_BROWSER_MIN_COLS, HIST_BROWSER_MIN_ROWS);
	else if (ret == -ENOTTY)
		fprintf(stderr, "Error: the TUI needs a terminal, use --stdio\n");
	return ret ? 255 : 0;
}
