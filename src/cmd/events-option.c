/* SPDX-License-Identifier: MIT */
/* -e and --filter option callbacks: parse, attach, and print perf's error texts. */
#include "cmd/events-option.h"
#include "core/cgroup.h"
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
	struct evsel *evsel;
	int ret, nr_old, option_nr = 1;

	if (unset || !str)
		return 0;
	if (!*evlistp)
		*evlistp = evlist_new();
	nr_old = (*evlistp)->nr_entries;
	evlist_for_each_entry(*evlistp, evsel)
		if (evsel->event_option_nr >= option_nr)
			option_nr = evsel->event_option_nr + 1;
	ret = parse_events_flags(*evlistp, str, &err, flags);
	if (ret) {
		parse_events_print_error(&err);
		/* perf leaves a blank line before the usage that follows a callback error */
		fputc('\n', stderr);
		parse_events_error_release(&err);
		return -1;
	}
	/* tag this option's events: --filter and --exclude-perf apply to them */
	evlist_for_each_entry(*evlistp, evsel)
		if (evsel->idx >= nr_old)
			evsel->event_option_nr = option_nr;
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

bool evsel_from_newest_event_option(struct evlist *evlist, const struct evsel *evsel)
{
	const struct evsel *last = evlist_last(evlist);

	return last && evsel->event_option_nr == last->event_option_nr;
}

void evsel_and_filter(struct evsel *evsel, const char *cond)
{
	char *joined = evsel->filter ? xasprintf("(%s) && (%s)", evsel->filter, cond)
				     : xstrdup(cond);

	free(evsel->filter);
	evsel->filter = joined;
}

int parse_filter_option(const struct opt_spec *opt, const char *str, int unset)
{
	struct evlist *evlist = *(struct evlist **)opt->dest;
	struct evsel *evsel;

	if (unset || !str)
		return 0;
	if (!evlist || !evlist_last(evlist)) {
		fflush(stdout);
		fprintf(stderr, "--filter option should follow a -e tracepoint or HW tracer option\n\n");
		return -1;
	}
	/* every event of the newest -e must take a filter: tracepoints, or PMUs with address filters */
	evlist_for_each_entry(evlist, evsel) {
		if (!evsel_from_newest_event_option(evlist, evsel) ||
		    evsel->attr.type == PERF_TYPE_TRACEPOINT ||
		    pmu_nr_addr_filters(evsel->attr.type) > 0)
			continue;
		fflush(stdout);
		fprintf(stderr, "This CPU does not support address filtering\n\n");
		return -1;
	}
	evlist_for_each_entry(evlist, evsel)
		if (evsel_from_newest_event_option(evlist, evsel))
			evsel_and_filter(evsel, str);
	return 0;
}

int evlist_add_cgroups_option(struct evlist *evlist, const char *arg)
{
	char *copy, *cursor;
	bool single = !strchr(arg, ',');
	struct evsel *evsel;
	int ret = 0;

	if (!evlist || !evlist->nr_entries) {
		/* the blank line perf leaves before the usage of a rejected option */
		fprintf(stderr, "must define events before cgroups\n\n");
		return -1;
	}
	copy = xstrdup(arg);
	cursor = copy;
	evlist_for_each_entry(evlist, evsel) {
		char path[8192];
		const char *cg = cursor;
		int fd;

		if (!cursor)
			break;
		if (!single) {
			char *sep = strchr(cursor, ',');

			if (sep)
				*sep = '\0';
			cursor = sep ? sep + 1 : NULL;
		}
		/* a lone empty name is the root; in a list it leaves that event alone */
		if ((!single && !*cg) || evsel->cgroup_fd >= 0)
			continue;
		fd = cgroup_open(cg, path, sizeof(path));
		if (fd < 0) {
			fprintf(stderr, "no access to cgroup %s\n\n", path[0] ? path : cg);
			ret = -1;
			break;
		}
		evsel->cgroup_fd = fd;
		evsel->cgroup_name = xstrdup(cg);
	}
	free(copy);
	return ret;
}
