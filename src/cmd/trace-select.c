/* SPDX-License-Identifier: MIT */
/* sonde trace: syscall selection (-e names, globs, groups, events), -G cgroups and the kernel filter. */
#include "cmd/events-option.h"
#include "cmd/trace.h"

#include "core/cgroup.h"
#include "core/parse-events.h"
#include "lib/optspec.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "trace/syscall-tbl.h"

#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* perf's syscall groups (-e file): name lists perf installs, read when present */
static const char *const group_dirs[] = {
	"/usr/share/perf-core/strace/groups",
	"/usr/lib/perf-core/strace/groups",
	NULL,
};

static void select_syscall(struct trace *trace, int id)
{
	if (!trace->selected) {
		trace->nr_selected = syscall_tbl_max() + 1;
		trace->selected = xcalloc(trace->nr_selected, sizeof(bool));
	}
	if (id >= 0 && id < trace->nr_selected)
		trace->selected[id] = true;
}

/* select_by_name - a syscall name or glob; returns how many syscalls it named */
static int select_by_name(struct trace *trace, const char *name)
{
	int n = 0;

	for (int id = 0; id <= syscall_tbl_max(); id++) {
		const char *sc = syscall_tbl_name(id);

		if (sc && !fnmatch(name, sc, 0)) {
			select_syscall(trace, id);
			n++;
		}
	}
	return n;
}

/* select_group - perf's strace group file @name, when one is installed */
static int select_group(struct trace *trace, const char *name)
{
	char path[512], line[128];
	int n = 0;

	if (strchr(name, '/'))
		return 0;
	for (int i = 0; group_dirs[i]; i++) {
		FILE *f;

		snprintf(path, sizeof(path), "%s/%s", group_dirs[i], name);
		f = fopen(path, "r");
		if (!f)
			continue;
		while (fgets(line, sizeof(line), f)) {
			line[strcspn(line, "\n")] = '\0';
			if (*line && *line != '#')
				n += select_by_name(trace, line);
		}
		fclose(f);
		return n;
	}
	return 0;
}

/*
 * trace_event_option - -e/--expr: syscall names, globs and groups (a leading '!'
 * negates the whole syscall list) and other events (anything with a ':' or
 * that parses as an event). An unknown name fails the option parse.
 */
int trace_event_option(const struct opt_spec *opt, const char *arg, int unset)
{
	struct trace *trace = opt->dest;
	char *copy, *tok, *save = NULL;
	const char *s = arg;

	if (unset || !arg)
		return 0;
	if (*s == '!') {
		trace->negate = true;
		s++;
	}
	copy = xstrdup(s);
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		struct parse_events_error err = PARSE_EVENTS_ERROR_INIT;
		int ret;

		if (!strchr(tok, ':') && (select_by_name(trace, tok) || select_group(trace, tok)))
			continue;
		/*
		 * not a syscall: an event, checked now so that the command never
		 * starts, and kept for a -G after it
		 */
		if (!trace->pending)
			trace->pending = evlist_new();
		ret = parse_events(trace->pending, tok, &err);
		if (ret) {
			parse_events_print_error(&err);
			fputc('\n', stderr);
			parse_events_error_release(&err);
			free(copy);
			return -1;
		}
		parse_events_error_release(&err);
		if (trace->event_str) {
			char *joined = xmalloc(strlen(trace->event_str) + strlen(tok) + 2);

			sprintf(joined, "%s,%s", trace->event_str, tok);
			free(trace->event_str);
			trace->event_str = joined;
		} else {
			trace->event_str = xstrdup(tok);
		}
	}
	free(copy);
	return 0;
}

/* trace_build_filter - the kernel filter on the syscall id: "id == 2 || id == 3", or "id != ..." */
char *trace_build_filter(struct trace *trace, bool with_ids)
{
	struct strbuf sb = STRBUF_INIT;

	if (trace->selected && with_ids) {
		for (int id = 0; id < trace->nr_selected; id++) {
			if (!trace->selected[id])
				continue;
			if (sb.len)
				strbuf_addstr(&sb, trace->negate ? " && " : " || ");
			strbuf_addf(&sb, "id %s %d", trace->negate ? "!=" : "==", id);
		}
	}
	if (trace->filter_pids) {
		/* --filter-pids: their calls never reach the rings */
		char *copy = xstrdup(trace->filter_pids), *tok, *save = NULL;

		for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
			char *sel = sb.len ? strbuf_detach(&sb, NULL) : NULL;

			if (sel)
				strbuf_addf(&sb, "(%s) && common_pid != %d", sel, atoi(tok));
			else
				strbuf_addf(&sb, "common_pid != %d", atoi(tok));
			free(sel);
		}
		free(copy);
	}
	if (trace->target.system_wide || trace->target.cpu_list) {
		/* system-wide: not our own calls */
		if (sb.len) {
			char *sel = strbuf_detach(&sb, NULL);

			strbuf_addf(&sb, "(%s) && common_pid != %d", sel, getpid());
			free(sel);
		} else {
			strbuf_addf(&sb, "common_pid != %d", getpid());
		}
	}
	return sb.len ? strbuf_detach(&sb, NULL) : (strbuf_release(&sb), NULL);
}

int trace_cgroup_option(const struct opt_spec *opt, const char *arg, int unset)
{
	struct trace *trace = opt->dest;
	char path[8192] = "";
	int fd;

	if (unset || !arg)
		return 0;
	if (trace->pending && trace->pending->nr_entries)
		return evlist_add_cgroups_option(trace->pending, arg);
	/* the default cgroup: a later -G replaces it, or leaves none when it fails */
	if (trace->cgroup_fd >= 0)
		close(trace->cgroup_fd);
	free(trace->cgroup_name);
	trace->cgroup_name = NULL;
	fd = cgroup_open(arg, path, sizeof(path));
	trace->cgroup_fd = fd < 0 ? -1 : fd;
	if (fd < 0) {
		fprintf(stderr, "no access to cgroup %s\n", path[0] ? path : arg);
		return 0;
	}
	trace->cgroup_name = xstrdup(arg);
	return 0;
}

bool trace_has_cgroups(const struct trace *trace)
{
	struct evsel *evsel;

	if (trace->cgroup_fd >= 0)
		return true;
	if (trace->pending)
		evlist_for_each_entry(trace->pending, evsel)
			if (evsel->cgroup_fd >= 0)
				return true;
	return false;
}

/* the cgroup @fd, a copy, and @name to @evsel */
static void evsel_take_cgroup(struct evsel *evsel, int fd, const char *name)
{
	evsel->cgroup_fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	if (evsel->cgroup_fd >= 0)
		evsel->cgroup_name = xstrdup(name);
}

void trace_add_cgroups(struct trace *trace, int first_idx)
{
	struct evsel *evsel, *src = NULL;

	/* the events from @first_idx on are the -e ones parsed again: pending's, one for one */
	if (trace->pending && first_idx >= 0)
		src = evlist_first(trace->pending);
	evlist_for_each_entry(trace->evlist, evsel) {
		if (evsel->idx < first_idx || !src)
			continue;
		if (src->cgroup_fd >= 0 && evsel->cgroup_fd < 0)
			evsel_take_cgroup(evsel, src->cgroup_fd, src->cgroup_name);
		src = src->node.next == &trace->pending->entries ? NULL :
			list_entry(src->node.next, struct evsel, node);
	}
	if (trace->cgroup_fd < 0)
		return;
	evlist_for_each_entry(trace->evlist, evsel)
		if (evsel->cgroup_fd < 0)
			evsel_take_cgroup(evsel, trace->cgroup_fd, trace->cgroup_name);
}
