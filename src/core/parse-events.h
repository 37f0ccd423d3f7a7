/* SPDX-License-Identifier: MIT */
/*
 * The -e event grammar: "cycles:u,{cpu-clock,cs}:S,msr/tsc/,sched:sched_*,mem:0x1000/8:w"
 * becomes evsels with their perf_event_attr filled as perf 6.1's parser fills it.
 */
#ifndef SONDE_CORE_PARSE_EVENTS_H
#define SONDE_CORE_PARSE_EVENTS_H

#include "lib/util.h"

#include <stdbool.h>

struct evlist;
struct strbuf;

/* struct parse_events_report - one located complaint about the event string */
struct parse_events_report {
	int at;		/* byte offset in the event string (-1: before it) */
	char *reason;	/* "parser error", "unknown term", ... */
	char *help;	/* may be NULL: extra lines ("valid terms: ...") */
};

/*
 * struct parse_events_error - why a string was rejected: every report the
 * parser made, oldest first. The text shows the newest one and, when there
 * were several, the oldest under "Initial error:". All strings are owned.
 */
struct parse_events_error {
	char *event;	  /* copy of the string that failed, NULL until an error */
	struct parse_events_report *reports;
	int nr_reports;	  /* 0: failed without a located reason (only the "Run 'perf list'" line) */
	char *warning;	  /* may be NULL: a line perf prints instead of a located error */
};

#define PARSE_EVENTS_ERROR_INIT { NULL, NULL, 0, NULL }

/* parse_events_error_latest - the newest report, or NULL when none was made. */
const struct parse_events_report *parse_events_error_latest(const struct parse_events_error *err);

void parse_events_error_init(struct parse_events_error *err);
/* parse_events_error_release - free the strings and reset to the init state. */
void parse_events_error_release(struct parse_events_error *err);

/* Flags for parse_events_flags(). */
enum parse_events_flags {
	/*
	 * perf stat accepts only the counting terms (config, config1, config2,
	 * name, period, percore, metric-id) and lists only those in its
	 * "valid terms:" help; record/top/trace accept every term.
	 */
	PARSE_EVENTS_STAT_TERMS = 1 << 0,
};

/*
 * parse_events - parse @str and append its events to @evlist (groups get
 * their leader and nr_members and count in evlist->nr_groups; idx
 * numbering continues the evlist's). Blanks between tokens are skipped, as
 * perf's lexer does. Nothing is appended when the string is rejected.
 * Returns 0, or a negative errno with @err filled (-EINVAL for syntax and
 * unknown names, -ENOENT for unknown PMUs/tracepoints, -EACCES when tracefs
 * cannot be read); @err may be NULL.
 *
 * What the parser sets in each evsel (commands add their own defaults on
 * top: read_format, inherit, disabled, enable_on_exec, sample_type, freq
 * and sample_period from -F/-c unless an event term gave them):
 *  attr.type, attr.size, attr.config, config1, config2,
 *  attr.bp_type, bp_addr, bp_len, sample_period=1 (breakpoints and tracepoints),
 *  attr.exclude_user/kernel/hv/idle/host/guest (exclude_guest=1 when the
 *    event has no modifier, as perf does on a host; guest_off_implicit
 *    records that),
 *  attr.precise_ip (":p"...), attr.pinned / attr.exclusive (":D"/":e",
 *    group leaders only, as perf's final attr shows),
 *  attr.sample_period / sample_freq + freq (from "period=" / "freq=" terms),
 *  attr.branch_sample_type (from "branch_type="),
 *  attr.sample_type |= PERF_SAMPLE_RAW|TIME|CPU|PERIOD for tracepoints, as perf's tracepoint
 *    evsels carry before the command configures them,
 *  evsel->name (perf's display name), pmu_name, group_name, leader,
 *  nr_members, tp_id, is_tool_event, precise_max (":P"), sample_read
 *  (":S"), is_weak_group (":W"), and evsel->terms for the terms that are
 *  not attr bits (call-graph, stack-size, max-stack, inherit, overwrite,
 *  time, driver-config, percore, aux-output, aux-sample-size, metric-id, and
 *  whether period/freq were given).
 */
/*
 * What an event without modifiers shuts out: the guest, as perf does on a
 * host; perf kvm makes it the host (guest-only) or nothing (--host --guest).
 */
struct parse_events_sides {
	bool exclude_guest, exclude_host;
};
extern struct parse_events_sides parse_events_plain_sides;

int parse_events(struct evlist *evlist, const char *str, struct parse_events_error *err);
/* parse_events_flags - parse_events() with PARSE_EVENTS_* @flags. */
int parse_events_flags(struct evlist *evlist, const char *str, struct parse_events_error *err,
		       unsigned int flags);

/*
 * parse_events_error_format - append perf's text for @err to @out:
 *   event syntax error: 'bogus'
 *                        \___ parser error
 * (long strings are cut to fit @width columns, like perf's terminal width;
 * 80 when stdout is not a terminal), the help lines, and the
 * "Initial error:" block when two errors were recorded, or the warning
 * ("WARNING: event parser found nothing") when there was no located
 * error. It does not add
 * the "Run 'perf list'..." line: callers do (events-option.c).
 */
void parse_events_error_format(const struct parse_events_error *err, int width,
			       struct strbuf *out);

/*
 * parse_events_valid_terms - the comma-separated built-in term names perf
 * shows after "valid terms:" (the stat subset with PARSE_EVENTS_STAT_TERMS).
 */
const char *parse_events_valid_terms(unsigned int flags);

#endif
