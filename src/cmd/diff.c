/* SPDX-License-Identifier: MIT */
/* sonde diff: the hist entries of a baseline perf.data against one or more others (delta, ratio, wdiff). */
#include "builtin.h"
#include "cmd/open.h"
#include "lib/debug.h"
#include "lib/optspec.h"
#include "lib/xalloc.h"
#include "lib/strvec.h"
#include "session/report.h"
#include "session/sample-filter.h"
#include "session/session.h"
#include "ui/diff.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const diff_usage[] = {
	"perf diff [<options>] [old_file] [new_file]",
	NULL,
};

static int parse_compute(const char *s, struct diff_opts *o)
{
	if (!strcmp(s, "delta"))
		o->compute = DIFF_DELTA;
	else if (!strcmp(s, "delta-abs"))
		o->compute = DIFF_DELTA_ABS;
	else if (!strcmp(s, "ratio"))
		o->compute = DIFF_RATIO;
	else if (!strncmp(s, "wdiff", 5)) {
		long long a, b;
		char end;

		if (sscanf(s, "wdiff:%lld,%lld%c", &a, &b, &end) != 2)
			return -1;
		o->compute = DIFF_WDIFF;
		o->w1 = a;
		o->w2 = b;
	} else {
		return -1;
	}
	return 0;
}

static int parse_keys(const char *list, struct diff_opts *o, char *bad, size_t len)
{
	char *dup = xstrdup(list), *save = NULL;

	o->nr_keys = 0;
	for (char *tok = strtok_r(dup, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
		int k = sort_key_parse(tok);

		if (k != SORT_COMM && k != SORT_PID && k != SORT_DSO && k != SORT_SYM &&
		    k != SORT_CPU) {
			snprintf(bad, len, "%s", tok);
			free(dup);
			return -1;
		}
		if (o->nr_keys < SORT_NR_KEYS)
			o->keys[o->nr_keys++] = k;
	}
	free(dup);
	return o->nr_keys ? 0 : -1;
}

/* struct diff_filters - perf diff's sample selections, the same for every file */
struct diff_filters {
	struct strvec comms, dsos, syms;
	const char *cpus;
	int *pids, nr_pids, *tids, nr_tids;
};

/* load_file - @path's samples into hists keyed like @o; NULL after perf's message */
static struct report *load_file(const char *path, bool force, const struct diff_opts *o,
				const struct diff_filters *df)
{
	struct machine_opts mopts = { 0 };
	struct report_filter filter;
	struct data_error err = { 0 };
	struct hists_opts ho;
	struct data_reader *reader = data_open_for_read(path, force);
	struct session *s;
	struct report *rep;

	if (!reader) {
		fprintf(stderr, "Failed to open %s\n", path);
		return NULL;
	}
	s = session_new(reader, &mopts);
	memset(&ho, 0, sizeof(ho));
	memset(&filter, 0, sizeof(filter));
	if (df->comms.nr)
		filter.comms = (const char **)df->comms.v;
	if (df->dsos.nr)
		filter.dsos = (const char **)df->dsos.v;
	if (df->syms.nr)
		filter.symbols = (const char **)df->syms.v;
	filter.pids = df->pids;
	filter.nr_pids = df->nr_pids;
	filter.tids = df->tids;
	filter.nr_tids = df->nr_tids;
	if (df->cpus) {
		int too_large, highest;

		if (cpu_bitmap_parse(&filter.cpus, df->cpus, 0, &too_large, &highest)) {
			fprintf(stderr, "failed to set cpu bitmap\n");
			session_free(s);
			return NULL;
		}
	}
	memcpy(ho.keys, o->keys, sizeof(ho.keys));
	ho.nr_keys = o->nr_keys;
	ho.max_stack = 127;
	rep = xcalloc(1, sizeof(*rep));
	if (report_init(rep, s, &ho, &filter, NULL) || report_process(rep, &err) < 0) {
		fprintf(stderr, "%s: %s\n", path, err.msg);
		report_release(rep);
		free(rep);
		session_free(s);
		cpu_bitmap_release(&filter.cpus);
		return NULL;
	}
	/* the report keeps pointers to the filter's lists, which outlive it; the cpus are copied */
	cpu_bitmap_release(&filter.cpus);
	return rep;
}

int cmd_diff(int argc, const char **argv)
{
	struct diff_opts o = { .compute = DIFF_DELTA_ABS, .order = 0 };
	const char *compute = NULL, *sort = NULL, *percentage = NULL, *comms = NULL, *dsos = NULL,
		   *syms = NULL, *pids = NULL, *tids = NULL;
	struct diff_filters df = { STRVEC_INIT, STRVEC_INIT, STRVEC_INIT, NULL, NULL, 0, NULL, 0 };
	bool force = false, quiet = false;
	int order = 0;
	const struct opt_spec options[] = {
		SPEC_FLAG("baseline-only", 'b', &o.baseline_only, "Show only items with match in baseline"),
		SPEC_TEXT("comms", 'C', &comms, "comm[,comm...]", "only consider symbols in these comms"),
		SPEC_TEXT("compute", 'c', &compute,
			  "delta,delta-abs,ratio,wdiff:w1,w2 (default delta-abs),cycles",
			  "Entries differential computation selection"),
		SPEC_TEXT("dsos", 'd', &dsos, "dso[,dso...]", "only consider symbols in these dsos"),
		SPEC_REFUSED_NOVAL("dump-raw-trace", 'D', "dump raw trace in ASCII"),
		SPEC_FLAG("force", 'f', &force, "don't complain, do it"),
		SPEC_FLAG("formula", 'F', &o.show_formula, "Show formula."),
		SPEC_REFUSED_NOVAL("modules", 'm',
				   "load module symbols - WARNING: use only with -k and LIVE kernel"),
		SPEC_INT("order", 'o', &order, "Specify compute sorting."),
		SPEC_FLAG("period", 'p', &o.show_period, "Show period values."),
		SPEC_FLAG("quiet", 'q', &quiet, "Do not show any warnings or messages"),
		SPEC_TEXT("sort", 's', &sort, "key[,key2...]",
			  "sort by key(s): pid, comm, dso, symbol, parent, cpu, srcline, ... Please refer the man page for the complete list."),
		SPEC_TEXT("symbols", 'S', &syms, "symbol[,symbol...]", "only consider these symbols"),
		SPEC_TEXT("field-separator", 't', &o.sep, "separator",
			  "separator for columns, no spaces will be added between columns '.' is reserved."),
		SPEC_COUNT("verbose", 'v', &verbose, "be more verbose (show symbol address, etc)"),
		SPEC_TEXT("cpu", 0, &df.cpus, "cpu", "list of cpus to profile"),
		SPEC_REFUSED_NOVAL("cycles-hist", 0,
				   "Show cycles histogram and standard deviation - WARNING: use only with -c cycles."),
		SPEC_REFUSED("kallsyms", 0, "file", "kallsyms pathname"),
		SPEC_TEXT("percentage", 0, &percentage, "relative|absolute",
			  "How to display percentage of filtered entries"),
		SPEC_TEXT("pid", 0, &pids, "pid[,pid...]", "only consider symbols in these pids"),
		SPEC_REFUSED_NOVAL("stream", 0, "Enable hot streams comparison."),
		SPEC_REFUSED("symfs", 0, "directory", "Look for files with symbols relative to this directory"),
		SPEC_TEXT("tid", 0, &tids, "tid[,tid...]", "only consider symbols in these tids"),
		SPEC_REFUSED("time", 0, "str", "Time span (time percent or absolute timestamp)"),
		SPEC_END(),
	};
	struct diff_file *files;
	const char **paths;
	int nr, ret = 0;
	char bad[128];

	argc = opts_parse(argc, argv, options, diff_usage, 0);
	if (compute && parse_compute(compute, &o)) {
		fprintf(stderr, "Failed: '%s' is not computation method (use 'delta','ratio' or 'wdiff')\n",
			compute);
		opts_usage_for(diff_usage, options, 'c', NULL);
		return 129;
	}
	if (percentage && strcmp(percentage, "relative") && strcmp(percentage, "absolute")) {
		fprintf(stderr, "Invalid percentage: %s\n", percentage);
		return 255;
	}
	if (parse_keys(sort ? sort : "dso,sym", &o, bad, sizeof(bad))) {
		fprintf(stderr, "Error:\nUnknown --sort key: `%s'", bad);
		opts_usage_print(diff_usage, options);
		return 129;
	}
	o.order = order;
	o.relative = percentage && !strcmp(percentage, "relative");
	if (comms)
		name_list_parse(comms, &df.comms);
	if (dsos)
		name_list_parse(dsos, &df.dsos);
	if (syms)
		name_list_parse(syms, &df.syms);
	/* a filter that names one value hides that key's column, as in report */
	if (df.comms.nr == 1)
		o.elide_keys |= 1u << SORT_COMM;
	if (df.dsos.nr == 1)
		o.elide_keys |= 1u << SORT_DSO;
	if (df.syms.nr == 1)
		o.elide_keys |= 1u << SORT_SYM;
	if ((pids && id_list_parse(pids, &df.pids, &df.nr_pids)) ||
	    (tids && id_list_parse(tids, &df.tids, &df.nr_tids))) {
		fprintf(stderr, "problems parsing %s list\n", pids ? "pid" : "tid");
		return 255;
	}
	/* no file: perf.data.old against perf.data; one: perf.data.old against it */
	nr = argc >= 2 ? argc : 2;
	paths = xcalloc((size_t)nr, sizeof(*paths));
	if (argc >= 2) {
		for (int i = 0; i < argc; i++)
			paths[i] = argv[i];
	} else {
		paths[0] = "perf.data.old";
		paths[1] = argc == 1 ? argv[0] : "perf.data";
	}
	if (o.order >= nr) {
		fprintf(stderr, "Order option out of limit.\n");
		free(paths);
		return 255;
	}
	files = xcalloc((size_t)nr, sizeof(*files));
	for (int i = 0; i < nr; i++) {
		files[i].path = paths[i];
		files[i].rep = load_file(paths[i], force, &o, &df);
		if (!files[i].rep) {
			ret = 255;
			break;
		}
	}
	if (!ret)
		diff_fprintf(files, nr, &o);
	fflush(stdout);
	for (int i = 0; i < nr; i++) {
		if (!files[i].rep)
			continue;
		{
			struct session *s = files[i].rep->session;

			report_release(files[i].rep);
			free(files[i].rep);
			session_free(s);
		}
	}
	free(files);
	free(paths);
	strvec_clear(&df.comms);
	strvec_clear(&df.dsos);
	strvec_clear(&df.syms);
	free(df.pids);
	free(df.tids);
	return ret;
}
