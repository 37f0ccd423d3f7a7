/* SPDX-License-Identifier: MIT */
/* sonde c2c: record (perf record with c2c's events and options) and report --stdio over session/c2c. */
#include "builtin.h"
#include "cmd/mem.h"
#include "cmd/open.h"
#include "core/evlist.h"
#include "core/mem-events.h"
#include "data/reader.h"
#include "lib/optspec.h"
#include "lib/strbuf.h"
#include "lib/strvec.h"
#include "session/c2c.h"
#include "symbol/symtab.h"
#include "ui/c2c.h"
#include "ui/header.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool is_word(const char *arg, const char *word)
{
	return strlen(arg) > 2 && !strncmp(word, arg, strlen(arg));
}

/* -c: "pid,tid,iaddr,dso" into C2C_COAL_* bits; -1 (after perf's message) on a bad word */
static int parse_coalesce(const char *text, struct c2c_opts *o)
{
	static const char *const names[] = { "tid", "pid", "iaddr", "dso" };
	char *copy = strdup(text), *save = NULL;
	int ret = 0;

	o->coalesce = 0;
	o->nr_order = 0;
	for (char *w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		unsigned int bit = 0;

		for (int i = 0; i < 4; i++)
			if (!strcmp(w, names[i]))
				bit = 1u << i;
		if (!bit) {
			fprintf(stderr, "unrecognized sort token: %s\n", w);
			ret = -1;
			break;
		}
		if (!(o->coalesce & bit) && o->nr_order < 4)
			o->order[o->nr_order++] = bit;
		o->coalesce |= bit;
	}
	free(copy);
	return ret;
}

static int parse_display(const char *text, enum c2c_display *d)
{
	static const char *const names[] = { "tot", "lcl", "rmt", "peer" };

	for (int i = 0; i < 4; i++)
		if (!strcmp(text, names[i])) {
			*d = (enum c2c_display)i;
			return 0;
		}
	fprintf(stderr, "failed: unknown display type: %s\n", text);
	return -1;
}

static const char *const report_usage[] = { "perf c2c report", NULL };

static int c2c_report(int argc, const char **argv)
{
	const char *input = NULL, *coalesce = NULL, *display = NULL, *callgraph = NULL;
	const char *vmlinux = NULL;
	int node_info = 0;
	bool force = false, full_symbols = false, no_source = false, show_all = false;
	bool stats = false, use_stdio = false, stitch_lbr = false;
	struct opt_spec options[] = {
		SPEC_TEXT("coalesce", 'c', &coalesce, "coalesce fields", "coalesce fields: pid,tid,iaddr,dso"),
		SPEC_TEXT("display", 'd', &display, "Switch HITM output type", "tot,lcl,rmt,peer"),
		SPEC_FLAG("force", 'f', &force, "don't complain, do it"),
		SPEC_TEXT_OPT("call-graph", 'g', &callgraph,
			      "print_type,threshold[,print_limit],order,sort_key[,branch],value",
			      CALL_GRAPH_REPORT_HELP,
			      "graph,0.5,caller,function,percent"),
		SPEC_TEXT("input", 'i', &input, "file", "the input file to process"),
		SPEC_TEXT("vmlinux", 'k', &vmlinux, "file", "vmlinux pathname"),
		SPEC_COUNT("node-info", 'N', &node_info,
			   "show extra node info in report (repeat for more info)"),
		SPEC_FLAG("full-symbols", 0, &full_symbols, "Display full length of symbols"),
		SPEC_FLAG("no-source", 0, &no_source, "Do not display Source Line column"),
		SPEC_FLAG("show-all", 0, &show_all, "Show all captured HITM lines."),
		SPEC_FLAG("stats", 0, &stats, "Display only statistic tables (implies --stdio)"),
		SPEC_FLAG("stdio", 0, &use_stdio, "Use the stdio interface"),
		SPEC_FLAG("stitch-lbr", 0, &stitch_lbr, "Enable LBR callgraph stitching approach"),
		SPEC_END()
	};
	struct c2c_opts copts = { .coalesce = C2C_COAL_IADDR, .order = { C2C_COAL_IADDR }, .nr_order = 1,
				  .display = C2C_DISPLAY_TOT };
	struct c2c_print_opts popts = { .coalesce_text = "iaddr" };
	struct symbol_opts sopts = { 0 };
	struct machine_opts mopts = { .symbol_opts = &sopts };
	struct data_error derr = { 0 };
	struct data_reader *reader;
	struct session *session;
	struct c2c c;
	int ret;

	argc = opts_parse(argc, argv, options, report_usage, 0);
	if (argc) {
		opts_usage_print(report_usage, options);
		return 129;
	}
	if (coalesce) {
		if (parse_coalesce(coalesce, &copts))
			return 255;
		popts.coalesce_text = coalesce;
	}
	if (display && parse_display(display, &copts.display))
		return 255;
	reader = data_open_for_read(input, force);
	if (!reader)
		return 255;
	session = session_new(reader, &mopts);
	c2c_init(&c, session, &copts);
	ret = session_process(session, &c.tool, &derr);
	if (ret < 0) {
		data_error_print(data_reader_path(reader), &derr);
		c2c_release(&c);
		session_free(session);
		return 255;
	}
	c2c_sort(&c);
	popts.node_info = node_info;
	popts.full_symbols = full_symbols;
	popts.show_all = show_all;
	popts.stats_only = stats;
	popts.no_source = no_source;
	c2c_print(stdout, &c, session->evlist, &popts);
	c2c_release(&c);
	session_free(session);
	return 0;
}

static const char *const record_usage[] = {
	"perf c2c record [<options>] <command>",
	"perf c2c record [<options>] -- [<record command options>] <command>",
	NULL
};

/*
 * c2c record on a machine with memory events: perf record with c2c's
 * options and events (core/mem-events.c), then the user's words
 */
static int c2c_record(int argc, const char **argv)
{
	struct c2c_record_opts ro = { 0 };
	const char *event = NULL;
	int verbose_lvl = 0;
	struct opt_spec options[] = {
		SPEC_TEXT("event", 'e', &event, "event", "event selector. Use 'perf c2c record -e list' to list available events"),
		SPEC_COUNT("verbose", 'v', &verbose_lvl, "be more verbose (show counter open errors, etc)"),
		SPEC_UINT("ldlat", 'l', &ro.ldlat, "setup mem-loads latency"),
		SPEC_FLAG("all-kernel", 'k', &ro.all_kernel, "collect only kernel level data"),
		SPEC_FLAG("all-user", 'u', &ro.all_user, "collect only user level data"),
		SPEC_END()
	};
	struct strvec words;
	int ret;

	argc = opts_parse(argc, argv, options, record_usage, OPTS_STOP_AT_ARG);
	if (event) {
		if (!strcmp(event, "ldlat-loads"))
			ro.kinds = MEM_EVENTS_LOAD;
		else if (!strcmp(event, "ldlat-stores"))
			ro.kinds = MEM_EVENTS_STORE;
		else {
			fprintf(stderr, "sonde: 'c2c record -e %s' is not implemented: only ldlat-loads and "
					"ldlat-stores (docs/cmd/c2c.md)\n", event);
			return 1;
		}
	}
	strvec_init(&words);
	if (!c2c_record_argv(&ro, argc, argv, &words)) {
		strvec_clear(&words);
		return mem_refuse_live();
	}
	ret = cmd_record((int)words.nr, (const char **)words.v);
	strvec_clear(&words);
	return ret;
}

static const char *const c2c_usage[] = {
	"perf c2c {record|report}",
	NULL
};

int cmd_c2c(int argc, const char **argv)
{
	int verbose_lvl = 0;
	struct opt_spec options[] = {
		SPEC_COUNT("verbose", 'v', &verbose_lvl, "be more verbose (show counter open errors, etc)"),
		SPEC_END()
	};

	argc = opts_parse(argc, argv, options, c2c_usage, OPTS_STOP_AT_ARG);
	/* perf checks for the events before it reads record's options (even -h) */
	if (argc && is_word(argv[0], "record"))
		return mem_have_events() ? c2c_record(argc, argv) : mem_refuse_live();
	if (argc && is_word(argv[0], "report"))
		return c2c_report(argc, argv);
	opts_usage_print(c2c_usage, options);
	return 129;
}
