/* SPDX-License-Identifier: MIT */
/* -e and --filter option callbacks: parse, attach, and print perf's error texts. */
#include "cmd/events-option.h"
#include "core/cgroup.h"
#include "core/evlist.h"
#include "core/pmu.h"
#include "lib/optspec.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <fcntl.h>
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

/* next_evsel - the event after @evsel in @evlist, NULL past the last (or for NULL) */
static struct evsel *next_evsel(struct evlist *evlist, struct evsel *evsel)
{
	if (!evsel || evsel->node.next == &evlist->entries)
		return NULL;
	return list_entry(evsel->node.next, struct evsel, node);
}

/* give_cgroup - @evsel takes the directory @fd (a copy) and @name, unless it has a cgroup */
static void give_cgroup(struct evsel *evsel, int fd, const char *name)
{
	if (!evsel || evsel->cgroup_fd >= 0)
		return;
	evsel->cgroup_fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	if (evsel->cgroup_fd >= 0)
		evsel->cgroup_name = xstrdup(name);
}

int evlist_add_cgroups_option(struct evlist *evlist, const char *arg)
{
	bool is_list = strchr(arg, ',') != NULL;
	struct evsel *slot, *evsel;
	char *names, *name, *rest;
	int ret = 0;

	if (!evlist || !evlist->nr_entries) {
		/* the blank line perf leaves before the usage of a rejected option */
		fprintf(stderr, "must define events before cgroups\n\n");
		return -1;
	}
	names = xstrdup(arg);
	slot = evlist_first(evlist);
	for (name = names; name; name = rest, slot = next_evsel(evlist, slot)) {
		char path[8192] = "";
		int fd;

		rest = is_list ? strchr(name, ',') : NULL;
		if (rest)
			*rest++ = '\0';
		/* an empty name in a list passes its event over; alone it is the root */
		if (is_list && !*name)
			continue;
		/* each name must open, also one left without an event to take it */
		fd = cgroup_open(name, path, sizeof(path));
		if (fd < 0) {
			fprintf(stderr, "no access to cgroup %s\n\n", path[0] ? path : name);
			ret = -1;
			break;
		}
		if (is_list)
			give_cgroup(slot, fd, name);
		else
			evlist_for_each_entry(evlist, evsel)
				give_cgroup(evsel, fd, name);
		close(fd);
	}
	free(names);
	return ret;
}
