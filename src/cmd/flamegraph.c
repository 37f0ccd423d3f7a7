/* SPDX-License-Identifier: MIT */
/* sonde flamegraph: options, filters and files; the folding is session/stacks, the drawing ui/flamegraph. */
#include "builtin.h"
#include "cmd/flamegraph.h"
#include "cmd/open.h"

#include "core/evlist.h"
#include "core/evsel.h"
#include "data/reader.h"
#include "lib/optspec.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include "session/session.h"
#include "symbol/symtab.h"
#include "ui/header.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const flamegraph_usage[] = {
	"sonde flamegraph [<options>]",
	"sonde flamegraph [<options>] --diff <before.data> <after.data>",
	NULL,
};

void flame_opts_init(struct flame_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->style.minwidth = -1;
}

/* the filters of the command line, with report's messages; 0 or -1 after printing */
static int setup_filter(struct flame_opts *o, struct data_reader *reader, struct stack_filter *f)
{
	const struct perf_header *h = data_reader_header(reader);
	int *ids, nr;

	f->event = o->event;
	if (o->comm_list)
		name_list_parse(o->comm_list, &f->comms);
	if (o->dso_list)
		name_list_parse(o->dso_list, &f->dsos);
	if (o->pid_list) {
		if (id_list_parse(o->pid_list, &ids, &nr)) {
			fprintf(stderr, "problems parsing pid list\n");
			return -1;
		}
		for (int i = 0; i < nr; i++)
			u64map_set(&f->pids, (u64)(s64)ids[i], (void *)1);
		free(ids);
		f->has_pids = true;
	}
	if (o->tid_list) {
		if (id_list_parse(o->tid_list, &ids, &nr)) {
			fprintf(stderr, "problems parsing tid list\n");
			return -1;
		}
		for (int i = 0; i < nr; i++)
			u64map_set(&f->tids, (u64)(s64)ids[i], (void *)1);
		free(ids);
		f->has_tids = true;
	}
	if (o->cpu_list) {
		int too_large, highest, err;
		bool has_cpu = false;
		struct evsel *evsel;

		evlist_for_each_entry(data_reader_evlist(reader), evsel)
			if (evsel->attr.sample_type & PERF_SAMPLE_CPU)
				has_cpu = true;
		if (!has_cpu) {
			fprintf(stderr, "File does not contain CPU events. Remove -C option to proceed.\n");
			return -1;
		}
		err = cpu_bitmap_parse(&f->cpus, o->cpu_list, h->nr_cpus_avail, &too_large,
					   &highest);

		if (err == -ERANGE)
			fprintf(stderr, "Requested CPU %d too large. Consider raising MAX_NR_CPUS\n",
				too_large);
		else if (err)
			fprintf(stderr, "Invalid cpu_list\n");
		if (err)
			return -1;
	}
	if (o->time_str && time_spans_parse(o->time_str, h->first_sample_time, h->last_sample_time,
					     &f->spans, &f->nr_spans)) {
		fprintf(stderr, "Invalid time string\n");
		return -1;
	}
	if (o->event && !evlist_find_by_name(data_reader_evlist(reader), o->event)) {
		fprintf(stderr, "event '%s' not found in %s; use 'perf evlist' for the names\n",
			o->event, data_reader_path(reader));
		return -1;
	}
	return 0;
}

/* one file folded into @st on @side: 0, or 255 after printing */
static int fold_file(struct flame_opts *o, const char *path, struct stacks *st, int side)
{
	struct symbol_opts sopts = { .symfs = o->symfs, .kallsyms = o->kallsyms };
	struct machine_opts mopts = { .symbol_opts = &sopts };
	struct data_error err = { 0 };
	struct stack_filter f;
	struct data_reader *reader;
	struct session *session;
	int ret = 0;

	reader = data_open_for_read(path, o->force);
	if (!reader)
		return 255;
	stack_filter_init(&f);
	if (setup_filter(o, reader, &f)) {
		stack_filter_release(&f);
		data_reader_close(reader);
		return 255;
	}
	session = session_new(reader, &mopts);
	if (stacks_add_file(st, session, &f, side, &err) < 0) {
		data_error_print(data_reader_path(reader), &err);
		ret = 255;
	}
	session_free(session);
	stack_filter_release(&f);
	return ret;
}

/* the default subtitle: what was counted, from which event, over how long */
static char *default_subtitle(const struct flame_opts *o, const struct stacks *st)
{
	struct strbuf sb = STRBUF_INIT;
	int side = o->before ? 1 : 0;

	strbuf_addf(&sb, "%s, %llu samples", st->event ? st->event : "no samples",
		    (unsigned long long)st->nr_samples[side]);
	if (o->period)
		strbuf_addstr(&sb, ", weighed by period");
	if (st->last_time[side] > st->first_time[side])
		strbuf_addf(&sb, ", %.3f s",
			    (double)(st->last_time[side] - st->first_time[side]) / 1e9);
	if (o->stack.reverse)
		strbuf_addstr(&sb, ", reversed (callers merged)");
	if (o->before)
		strbuf_addf(&sb, " (before: %llu samples; red grew, blue shrank)",
			    (unsigned long long)st->nr_samples[0]);
	return strbuf_detach(&sb, NULL);
}

int flamegraph_run(struct flame_opts *o)
{
	struct stacks st;
	const char *out_path = o->output;
	char *subtitle = NULL;
	FILE *out = stdout;
	int ret;

	o->stack.period = o->period;
	stacks_init(&st, &o->stack);
	if (o->before) {
		ret = fold_file(o, o->before, &st, 0);
		if (!ret)
			ret = fold_file(o, o->input, &st, 1);
	} else {
		ret = fold_file(o, o->input, &st, 0);
	}
	if (ret) {
		stacks_release(&st);
		return ret;
	}
	if (!out_path)
		out_path = o->folded ? "-" : "flamegraph.html";
	if (strcmp(out_path, "-")) {
		if (o->say_first) {
			printf("dumping data to %s\n", out_path);
			fflush(stdout);
		}
		out = fopen(out_path, "w");
		if (!out) {
			fprintf(stderr, "failed to create %s: %s\n", out_path, strerror(errno));
			stacks_release(&st);
			return 255;
		}
	}
	if (o->folded) {
		ret = flamegraph_write_folded(out, &st, o->period, o->before != NULL);
	} else {
		struct flame_style style = o->style;

		if (o->format)
			style.html = !strcmp(o->format, "html");
		else
			style.html = !strcmp(out_path, "-") ? false : !strendswith(out_path, ".svg");
		style.diff = o->before != NULL;
		style.count_name = o->period ? "period" : "samples";
		if (!style.subtitle)
			style.subtitle = subtitle = default_subtitle(o, &st);
		if (!st.nr_samples[style.diff ? 1 : 0])
			fprintf(stderr, "Warning: no samples to draw\n");
		ret = flamegraph_write(out, &st, &style);
	}
	if (out != stdout) {
		if (fclose(out))
			ret = -EIO;
	} else if (fflush(out)) {
		ret = -EIO;
	}
	if (ret) {
		fprintf(stderr, "failed to write %s\n", out_path);
		ret = 255;
	} else if (!o->folded && !o->quiet && !o->say_first && strcmp(out_path, "-")) {
		fprintf(stderr, "dumping data to %s\n", out_path);
	}
	free(subtitle);
	stacks_release(&st);
	return ret;
}

static int weight_cb(const struct opt_spec *opt, const char *arg, int unset)
{
	struct flame_opts *o = opt->dest;

	if (unset || !strcmp(arg, "samples")) {
		o->period = false;
		return 0;
	}
	if (!strcmp(arg, "period")) {
		o->period = true;
		return 0;
	}
	fprintf(stderr, "  Error: --weight takes 'samples' or 'period', not '%s'\n", arg);
	return -1;
}

static int minwidth_cb(const struct opt_spec *opt, const char *arg, int unset)
{
	double *v = opt->dest;
	char *end;

	if (unset) {
		*v = 0;
		return 0;
	}
	*v = strtod(arg, &end);
	if (end == arg || *end || *v < 0) {
		fprintf(stderr, "  Error: --minwidth takes pixels (eg: 0.1), not '%s'\n", arg);
		return -1;
	}
	return 0;
}

static int format_cb(const struct opt_spec *opt, const char *arg, int unset)
{
	const char **v = opt->dest;

	if (!unset && strcmp(arg, "svg") && strcmp(arg, "html")) {
		fprintf(stderr, "  Error: --format takes 'svg' or 'html', not '%s'\n", arg);
		return -1;
	}
	*v = unset ? NULL : arg;
	return 0;
}

int cmd_flamegraph(int argc, const char **argv)
{
	struct flame_opts o;
	bool diff = false;
	int max_stack = -1;

	flame_opts_init(&o);
	const struct opt_spec options[] = {
		SPEC_TEXT("input", 'i', &o.input, "file", "input file name (default: perf.data)"),
		SPEC_TEXT("output", 'o', &o.output, "file",
			  "output file: .svg for an SVG, else an HTML page; - for stdout "
			  "(default: flamegraph.html)"),
		SPEC_FN("format", 0, &o.format, "svg|html", "picture format, whatever the name",
			format_cb),
		SPEC_FLAG("folded", 0, &o.folded,
			  "print the folded stacks (as perf script | stackcollapse-perf.pl)"),
		SPEC_FN("weight", 0, &o, "samples|period", "size frames by samples or by period",
			weight_cb),
		SPEC_FLAG("diff", 0, &diff,
			  "differential: two files, before and after; colours show growth"),
		SPEC_TEXT("event", 'e', &o.event, "event", "the event to draw (default: the first sampled)"),
		SPEC_FLAG("inverted", 0, &o.style.inverted, "icicle graph: roots at the top"),
		SPEC_FLAG("reverse", 0, &o.stack.reverse, "reverse the stacks: callers merged"),
		SPEC_INT("width", 0, &o.style.width, "picture width in pixels (default: 1200)"),
		SPEC_FN("minwidth", 0, &o.style.minwidth, "px",
			"frames narrower than this are not drawn (default: 0.1)", minwidth_cb),
		SPEC_TEXT("title", 0, &o.style.title, "text", "title (default: Flame Graph)"),
		SPEC_TEXT("subtitle", 0, &o.style.subtitle, "text", "subtitle"),
		SPEC_TEXT("colors", 0, &o.style.colors, "palette",
			  "java (kernel, user, JIT, inlined told apart; default), hot, mem, io, red, "
			  "green, blue, aqua, yellow, purple, orange"),
		SPEC_FLAG("fold-pid", 0, &o.stack.pid, "root frames are comm-pid"),
		SPEC_FLAG("fold-tid", 0, &o.stack.tid, "root frames are comm-pid/tid"),
		SPEC_TEXT("pid", 0, &o.pid_list, "pid[,pid...]", "only consider these pids"),
		SPEC_TEXT("tid", 0, &o.tid_list, "tid[,tid...]", "only consider these tids"),
		SPEC_TEXT("comms", 0, &o.comm_list, "comm[,comm...]", "only consider these comms"),
		SPEC_TEXT("comm", 0, &o.comm_list, "comm[,comm...]", "same as --comms"),
		SPEC_TEXT("dsos", 0, &o.dso_list, "dso[,dso...]", "only samples in these dsos"),
		SPEC_TEXT("dso", 0, &o.dso_list, "dso[,dso...]", "same as --dsos"),
		SPEC_TEXT("cpu", 'C', &o.cpu_list, "cpu", "list of cpus to profile"),
		SPEC_TEXT("time", 0, &o.time_str, "str", "Time span of interest (start,stop)"),
		SPEC_INT("max-stack", 0, &max_stack, "frames kept per sample"),
		SPEC_FLAG("force", 'f', &o.force, "don't complain, do it"),
		SPEC_TEXT("symfs", 0, &o.symfs, "directory",
			  "Look for files with symbols relative to this directory"),
		SPEC_TEXT("kallsyms", 0, &o.kallsyms, "file", "kallsyms pathname"),
		SPEC_FLAG("quiet", 'q', &o.quiet, "no message on success"),
		SPEC_END(),
	};

	argc = opts_parse(argc, argv, options, flamegraph_usage, 0);
	if (diff) {
		if (argc != 2 || o.input)
			opts_usage_error(flamegraph_usage, options,
					 "--diff takes two files: before.data after.data");
		o.before = argv[0];
		o.input = argv[1];
	} else if (argc) {
		opts_usage_error(flamegraph_usage, options, "unexpected argument '%s'", argv[0]);
	}
	if (o.style.colors && !flame_palette_valid(o.style.colors))
		opts_usage_error(flamegraph_usage, options, "unknown palette '%s'", o.style.colors);
	if (o.style.width < 0 || (o.style.width && o.style.width < 100))
		opts_usage_error(flamegraph_usage, options, "--width must be at least 100");
	if (max_stack > 0)
		o.stack.max_stack = (u32)max_stack;
	return flamegraph_run(&o);
}
