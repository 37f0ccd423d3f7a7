/* SPDX-License-Identifier: MIT */
/* -e and --filter option callbacks: parse, attach, and print perf's error texts. */
#include "ui/events-option.h"
#include "core/evlist.h"
#include "core/pmu.h"
#include "lib/optspec.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

int term_width(void)
{
	const char *lines = getenv("LINES"), *cols = getenv("COLUMNS");
	struct winsize ws;

	if (lines && cols && atoi(lines) > 0 && atoi(cols) > 0)
		return atoi(cols);
	if (!ioctl(1, TIOCGWINSZ, &ws) && ws.ws_row && ws.ws_col)
		return ws.ws_col;
	return 80;
}

void parse_events_print_error(const struct parse_events_error *err)
{
	struct strbuf sb = STRBUF_INIT;

	parse_events_error_format(err, term_width(), &sb);
	fflush(stdout);
	fprintf(stderr, "%sRun '%s list' for a list of valid events\n", sb.buf, prog_name);
	strbuf_release(&sb);
}

static int events_option(const struct opt_spec *opt, const char *str, int unset, unsigned int flags)
{
	struct evlist **evlistp = opt->dest;
	struct parse_events_error err = PARSE_EVENTS_ERROR_INIT;
	struct evsel *last;
	int ret;

	if (unset || !str)
		return 0;
	if (!*evlistp)
		*evlistp = evlist_new();
	ret = parse_events_flags(*evlistp, str, &err, flags);
	if (ret) {
		parse_events_print_error(&err);
		/* perf leaves a blank line before the usage that follows a callback error */
		fputc('\n', stderr);
		parse_events_error_release(&err);
		return -1;
	}
	last = evlist_last(*evlistp);
	if (last)
		last->cmdline_group_boundary = true;
	parse_events_error_release(&err);
	return 0;
}

int parse_events_option(const struct opt_spec *opt, const char *str, int unset)
{
	return events_option(opt, str, unset, 0);
}

int parse_events_option_stat(const struct opt_spec *opt, const char *str, int unset)
{
	return events_option(opt, str, unset, PARSE_EVENTS_STAT_TERMS);
}

static void append_filter(struct evsel *evsel, const char *str)
{
	char *f;

	if (evsel->filter)
		f = xasprintf("(%s) && (%s)", evsel->filter, str);
	else
		f = xstrdup(str);
	free(evsel->filter);
	evsel->filter = f;
}

int parse_filter_option(const struct opt_spec *opt, const char *str, int unset)
{
	struct evlist **evlistp = opt->dest;
	struct evlist *evlist = *evlistp;
	struct evsel *evsel;

	if (unset || !str)
		return 0;
	if (!evlist || !evlist_last(evlist)) {
		fflush(stdout);
		fprintf(stderr, "--filter option should follow a -e tracepoint or HW tracer option\n\n");
		return -1;
	}
	/* walk back over the events of the last -e, as perf does */
	evsel = evlist_last(evlist);
	for (;;) {
		if (evsel->attr.type == PERF_TYPE_TRACEPOINT) {
			append_filter(evsel, str);
		} else if (pmu_nr_addr_filters(evsel->attr.type) > 0) {
			append_filter(evsel, str);
		} else {
			fflush(stdout);
			fprintf(stderr, "This CPU does not support address filtering\n\n");
			return -1;
		}
		if (evsel->node.prev == &evlist->entries)
			break;
		evsel = list_entry(evsel->node.prev, struct evsel, node);
		if (evsel->cmdline_group_boundary)
			break;
	}
	return 0;
}
