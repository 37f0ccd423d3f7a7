/* SPDX-License-Identifier: MIT */
/* sonde record: option parsers for --exclude-perf, --synth, --control, -D ranges, -I/--user-regs and -j/-b. */
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

/* x86-64 perf register numbers (arch/x86 perf_regs), in the order perf lists them */
static const struct {
	const char *name;
	int bit;
} x86_regs[] = {
	{ "AX", 0 }, { "BX", 1 }, { "CX", 2 }, { "DX", 3 }, { "SI", 4 }, { "DI", 5 },
	{ "BP", 6 }, { "SP", 7 }, { "IP", 8 }, { "FLAGS", 9 }, { "CS", 10 }, { "SS", 11 },
	{ "R8", 16 }, { "R9", 17 }, { "R10", 18 }, { "R11", 19 }, { "R12", 20 }, { "R13", 21 },
	{ "R14", 22 }, { "R15", 23 },
};

/* "-I[=regs]" / "--user-regs[=regs]": register names, "?" lists them */
static int parse_regs(const char *arg, u64 *mask)
{
	char *copy, *tok, *save = NULL;

	if (!arg || !*arg) {
		*mask = PERF_REGS_MASK_X86_64;
		return 0;
	}
	if (!strcmp(arg, "?")) {
		fprintf(stderr, "available registers: ");
		for (size_t i = 0; i < sizeof(x86_regs) / sizeof(x86_regs[0]); i++)
			fprintf(stderr, "%s ", x86_regs[i].name);
		fprintf(stderr, "\n\n");
		return -1;
	}
	copy = xstrdup(arg);
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		size_t i;

		for (i = 0; i < sizeof(x86_regs) / sizeof(x86_regs[0]); i++)
			if (!strcasecmp(tok, x86_regs[i].name))
				break;
		if (i == sizeof(x86_regs) / sizeof(x86_regs[0])) {
			fprintf(stderr, "unknown register %s, check man page\n\n", tok);
			free(copy);
			return -1;
		}
		*mask |= 1ULL << x86_regs[i].bit;
	}
	free(copy);
	return 0;
}

int opt_intr_regs(const struct opt_spec *opt, const char *arg, int unset)
{
	struct record *rec = opt->dest;

	if (unset) {
		rec->opts.sample_regs_intr = 0;
		return 0;
	}
	return parse_regs(arg, &rec->opts.sample_regs_intr);
}

int opt_user_regs(const struct opt_spec *opt, const char *arg, int unset)
{
	struct record *rec = opt->dest;

	if (unset) {
		rec->opts.sample_regs_user = 0;
		return 0;
	}
	return parse_regs(arg, &rec->opts.sample_regs_user);
}

/* -j: perf's branch filter names; only privilege levels given means "any" branch */
int opt_branch_filter(const struct opt_spec *opt, const char *arg, int unset)
{
	static const struct {
		const char *name;
		u64 bit;
	} modes[] = {
		{ "u", PERF_SAMPLE_BRANCH_USER }, { "k", PERF_SAMPLE_BRANCH_KERNEL },
		{ "hv", PERF_SAMPLE_BRANCH_HV }, { "any", PERF_SAMPLE_BRANCH_ANY },
		{ "any_call", PERF_SAMPLE_BRANCH_ANY_CALL },
		{ "any_ret", PERF_SAMPLE_BRANCH_ANY_RETURN },
		{ "ind_call", PERF_SAMPLE_BRANCH_IND_CALL },
		{ "abort_tx", PERF_SAMPLE_BRANCH_ABORT_TX }, { "in_tx", PERF_SAMPLE_BRANCH_IN_TX },
		{ "no_tx", PERF_SAMPLE_BRANCH_NO_TX }, { "cond", PERF_SAMPLE_BRANCH_COND },
		{ "ind_jmp", PERF_SAMPLE_BRANCH_IND_JUMP }, { "call", PERF_SAMPLE_BRANCH_CALL },
		{ "save_type", PERF_SAMPLE_BRANCH_TYPE_SAVE },
		{ "stack", PERF_SAMPLE_BRANCH_CALL_STACK },
	};
	const u64 plm = PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_KERNEL | PERF_SAMPLE_BRANCH_HV;
	struct record *rec = opt->dest;
	char *copy, *tok, *save = NULL;
	u64 mask = 0;

	if (unset) {
		rec->opts.branch_stack = 0;
		return 0;
	}
	copy = xstrdup(arg);
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		size_t i;

		for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
			if (!strcasecmp(tok, modes[i].name))
				break;
		if (i == sizeof(modes) / sizeof(modes[0])) {
			fprintf(stderr, "unknown branch filter %s, check man page\n\n", tok);
			free(copy);
			return -1;
		}
		mask |= modes[i].bit;
	}
	free(copy);
	if (!(mask & ~plm))
		mask |= PERF_SAMPLE_BRANCH_ANY;
	rec->opts.branch_stack = mask;
	return 0;
}

int opt_branch_any(const struct opt_spec *opt, const char *arg, int unset)
{
	struct record *rec = opt->dest;

	(void)arg;
	rec->opts.branch_stack = unset ? 0 : PERF_SAMPLE_BRANCH_ANY;
	return 0;
}
