/* SPDX-License-Identifier: MIT */
/* sonde record: option parsers for --exclude-perf, --synth, --control and -D ranges. */
#include "cmd/record.h"
#include "core/evsel.h"
#include "lib/optspec.h"
#include "lib/xalloc.h"
#include "cmd/events-option.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* --exclude-perf: "common_pid != <our pid>" on the tracepoints of the last -e */
int opt_exclude_perf(const struct opt_spec *opt, const char *arg, int unset)
{
	struct record *rec = opt->dest;
	struct evlist *evlist = rec->evlist;
	struct evsel *evsel;
	char filter[64];

	(void)arg;
	(void)unset;
	if (!evlist || !evlist_last(evlist) ||
	    evlist_last(evlist)->attr.type != PERF_TYPE_TRACEPOINT) {
		fprintf(stderr, "--exclude-perf option should follow a -e tracepoint option\n\n");
		return -1;
	}
	snprintf(filter, sizeof(filter), "common_pid != %d", (int)getpid());
	evlist_for_each_entry(evlist, evsel)
		if (evsel->attr.type == PERF_TYPE_TRACEPOINT &&
		    evsel_from_newest_event_option(evlist, evsel))
			evsel_and_filter(evsel, filter);
	return 0;
}

/* --synth no|all|task|mmap|cgroup[,...] */
int opt_synth(const struct opt_spec *opt, const char *arg, int unset)
{
	struct record *rec = opt->dest;
	char *copy, *tok, *save = NULL;
	int mask = 0;

	if (unset) {
		rec->synth = RECORD_SYNTH_ALL;
		return 0;
	}
	copy = xstrdup(arg);
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "no")) {
			mask = 0;
			break;
		} else if (!strcmp(tok, "all")) {
			mask = RECORD_SYNTH_ALL;
		} else if (!strcmp(tok, "task")) {
			mask |= RECORD_SYNTH_TASK;
		} else if (!strcmp(tok, "mmap")) {
			mask |= RECORD_SYNTH_TASK | RECORD_SYNTH_MMAP;
		} else if (!strcmp(tok, "cgroup")) {
			mask |= RECORD_SYNTH_CGROUP;
		} else {
			fprintf(stderr, "Invalid synth option: %s\n", tok);
			free(copy);
			return -1;
		}
	}
	free(copy);
	rec->synth = mask;
	return 0;
}

/* --control fd:CTL[,ACK] | fifo:CTL[,ACK] */
int opt_control(const struct opt_spec *opt, const char *arg, int unset)
{
	struct record *rec = opt->dest;
	char *copy, *ack;
	int ret = 0;

	if (unset)
		return 0;
	copy = xstrdup(arg);
	ack = strchr(copy, ',');
	if (ack)
		*ack++ = 0;
	if (!strncmp(copy, "fd:", 3)) {
		char *end;
		long fd = strtol(copy + 3, &end, 10);

		if (end == copy + 3 || *end || fd < 0) {
			ret = -1;
			goto out;
		}
		rec->ctl_fd = (int)fd;
		if (ack) {
			fd = strtol(ack, &end, 10);
			if (end == ack || *end || fd < 0) {
				ret = -1;
				goto out;
			}
			rec->ctl_ack_fd = (int)fd;
		}
	} else if (!strncmp(copy, "fifo:", 5)) {
		/* O_RDWR: the fifo opens without a writer and never reports EOF */
		rec->ctl_fd = open(copy + 5, O_RDWR | O_NONBLOCK | O_CLOEXEC);
		if (rec->ctl_fd < 0) {
			fprintf(stderr, "Failed to open '%s'\n", copy + 5);
			ret = -1;
			goto out;
		}
		if (ack) {
			rec->ctl_ack_fd = open(ack, O_WRONLY | O_CLOEXEC);
			if (rec->ctl_ack_fd < 0) {
				fprintf(stderr, "Failed to open '%s'\n", ack);
				close(rec->ctl_fd);
				rec->ctl_fd = -1;
				ret = -1;
				goto out;
			}
		}
		rec->ctl_close = true;
	} else {
		ret = -1;
	}
out:
	free(copy);
	return ret;
}

/* "A-B[,C-D...]" in ms, increasing and not overlapping, as perf takes them */
int parse_delay_ranges(struct record *rec, const char *arg)
{
	const char *p = arg;
	u64 last = 0;
	int n = 0;

	while (*p) {
		char *end;
		unsigned long long a, b;

		if (*p < '0' || *p > '9')
			return -1;
		a = strtoull(p, &end, 10);
		if (*end != '-' || end[1] < '0' || end[1] > '9')
			return -1;
		b = strtoull(end + 1, &end, 10);
		if (b <= a || (n && a <= last) || n == RECORD_MAX_DELAY_RANGES)
			return -1;
		if (*end && *end != ',')
			return -1;
		rec->delay_ranges[n][0] = a;
		rec->delay_ranges[n][1] = b;
		last = b;
		n++;
		p = *end ? end + 1 : end;
		if (*end && !*p)
			return -1;
	}
	if (!n)
		return -1;
	rec->nr_delay_ranges = n;
	return 0;
}
