/* SPDX-License-Identifier: MIT */
/* perf's display name of an event rebuilt from its attr alone (perf.data without names). */
#include "core/evsel.h"
#include "core/parse-events-names.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "trace/tracefs.h"

#include <stdlib.h>

/*
 * Suffix letters in the order perf prints them. A privilege letter shows
 * when some level is shut out and that one is still counted; the guest/host
 * pair shows when the host is shut out, or when the guest bit is what a
 * level restriction or precision would have implied anyway (observed:
 * "cpu-clock:pppH" for exclude_guest=1, "cpu-clock:HG" for neither set).
 */
enum suffix_rule { ON_KERNEL, ON_USER, ON_HV, ON_PRECISE1, ON_PRECISE2, ON_PRECISE3,
		   ON_HOST, ON_GUEST };

static const char suffix_letters[] = "kuhpppHG";

static bool suffix_rule_holds(enum suffix_rule rule, const struct perf_event_attr *attr)
{
	bool levels_cut = attr->exclude_kernel || attr->exclude_user || attr->exclude_hv;
	bool restricted = levels_cut || attr->precise_ip;
	bool sides = attr->exclude_host || (bool)attr->exclude_guest == restricted;

	switch (rule) {
	case ON_KERNEL:
		return levels_cut && !attr->exclude_kernel;
	case ON_USER:
		return levels_cut && !attr->exclude_user;
	case ON_HV:
		return levels_cut && !attr->exclude_hv;
	case ON_PRECISE1:
	case ON_PRECISE2:
	case ON_PRECISE3:
		return attr->precise_ip > (unsigned)(rule - ON_PRECISE1);
	case ON_HOST:
		return sides && !attr->exclude_host;
	case ON_GUEST:
		return sides && !attr->exclude_guest;
	}
	return false;
}

void attr_append_modifier_suffix(const struct perf_event_attr *attr, struct strbuf *sb)
{
	bool opened = false;

	for (int r = ON_KERNEL; r <= ON_GUEST; r++) {
		if (!suffix_rule_holds((enum suffix_rule)r, attr))
			continue;
		if (!opened)
			strbuf_addch(sb, ':');
		opened = true;
		strbuf_addch(sb, suffix_letters[r]);
	}
}

void evsel_set_name_from_attr(struct evsel *evsel)
{
	const struct perf_event_attr *attr = &evsel->attr;
	struct strbuf sb = STRBUF_INIT;
	char *tp;

	switch (attr->type) {
	case PERF_TYPE_HARDWARE:
		/* perf's attr names: the short aliases for cycles and branches */
		if (attr->config == PERF_COUNT_HW_CPU_CYCLES)
			strbuf_addstr(&sb, "cycles");
		else if (attr->config == PERF_COUNT_HW_BRANCH_INSTRUCTIONS)
			strbuf_addstr(&sb, "branches");
		else if (attr->config < PERF_COUNT_HW_MAX)
			strbuf_addstr(&sb, event_symbols_hw[attr->config].name);
		else
			strbuf_addstr(&sb, "unknown-hardware");
		attr_append_modifier_suffix(attr, &sb);
		break;
	case PERF_TYPE_SOFTWARE:
		/* perf 6.1's table stops at "dummy": later events are "unknown-software" */
		if (attr->config <= PERF_COUNT_SW_DUMMY)
			strbuf_addstr(&sb, event_symbols_sw[attr->config].name);
		else
			strbuf_addstr(&sb, "unknown-software");
		attr_append_modifier_suffix(attr, &sb);
		break;
	case PERF_TYPE_HW_CACHE:
		hw_cache_name(attr->config, &sb);
		attr_append_modifier_suffix(attr, &sb);
		break;
	case PERF_TYPE_RAW:
		strbuf_addf(&sb, "raw 0x%llx", (unsigned long long)attr->config);
		attr_append_modifier_suffix(attr, &sb);
		break;
	case PERF_TYPE_BREAKPOINT:
		strbuf_addf(&sb, "mem:0x%llx:", (unsigned long long)attr->bp_addr);
		if (attr->bp_type & 1)
			strbuf_addch(&sb, 'r');
		if (attr->bp_type & 2)
			strbuf_addch(&sb, 'w');
		if (attr->bp_type & 4)
			strbuf_addch(&sb, 'x');
		attr_append_modifier_suffix(attr, &sb);
		break;
	case PERF_TYPE_TRACEPOINT:
		tp = tracefs_id_to_name((int)attr->config);
		if (tp) {
			strbuf_addstr(&sb, tp);
			free(tp);
		} else {
			strbuf_addstr(&sb, "unknown tracepoint");
		}
		break;
	default:
		strbuf_addf(&sb, "unknown attr type: %u", attr->type);
		break;
	}
	free(evsel->name);
	evsel->name = strbuf_detach(&sb, NULL);
}
