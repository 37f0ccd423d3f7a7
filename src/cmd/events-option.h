/* SPDX-License-Identifier: MIT */
/* The -e/--event and --filter option callbacks shared by stat, record, top and trace. */
#ifndef SONDE_CMD_EVENTS_OPTION_H
#define SONDE_CMD_EVENTS_OPTION_H

#include "core/parse-events.h"

#include <stdbool.h>

struct opt_spec;
struct evlist;
struct evsel;

/*
 * parse_events_option - SPEC_FN for -e: opt->dest is a
 * "struct evlist **" (the evlist is created on first use; repeated -e
 * append). On a bad string prints perf's error text and the
 * "Run 'perf list'..." line to stderr and returns -1, so opts_parse
 * (cmd/options.c) prints the usage of -e and exits 129, as perf does.
 * parse_events_option_stat is the same with perf stat's restricted terms.
 */
int parse_events_option(const struct opt_spec *opt, const char *str, int unset);
int parse_events_option_stat(const struct opt_spec *opt, const char *str, int unset);

/*
 * parse_filter_option - SPEC_FN for --filter (opt->dest as for -e):
 * attaches the filter to every event of the last -e (ANDed with a filter
 * already there), with perf's errors when there is none or an event is not
 * a tracepoint nor a PMU with address filters.
 */
int parse_filter_option(const struct opt_spec *opt, const char *str, int unset);

/*
 * evsel_from_newest_event_option - whether @evsel came from the last -e
 * given (the events --filter and --exclude-perf apply to).
 */
bool evsel_from_newest_event_option(struct evlist *evlist, const struct evsel *evsel);

/* evsel_and_filter - set @evsel's filter to @cond, ANDed with a filter already there. */
void evsel_and_filter(struct evsel *evsel, const char *cond);

/*
 * parse_events_print_error - print @err for @str as the -e callback does
 * (error text, then "Run '<prog> list' for a list of valid events").
 */
void parse_events_print_error(const struct parse_events_error *err);

/*
 * evlist_add_cgroups_option - -G NAME[,NAME...] of record, stat and trace:
 * one name puts every event given so far (without a cgroup yet) in that
 * cgroup, a list gives the events theirs in order (an empty name skips one).
 * Every name must open, also one no event takes. Prints perf's messages and
 * returns -1 when no event came first or a cgroup can't be opened.
 */
int evlist_add_cgroups_option(struct evlist *evlist, const char *arg);

/* term_width - perf's terminal width: $COLUMNS/$LINES, else stdout's size, else 80. */
int term_width(void);

#endif
