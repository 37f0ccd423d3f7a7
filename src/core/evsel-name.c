/* perf's display name of an event rebuilt from its attr alone (perf.data without names). */
#include "core/evsel.h"
#include "core/parse-events-names.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "trace/tracefs.h"

#include <stdlib.h>

/*
 * The ":ukhppHG" suffix perf derives from the exclude bits: the privilege
 * levels still counted when any is excluded, the precise level, and H/G
 * when the guest/host exclusion differs from perf's default for the event.
 */
static void add_modifiers(const struct perf_event_attr *attr, struct strbuf *sb)
{
	size_t colon_at = sb->len;
	bool exclude_guest_default = false, any = false;

#define MOD(cond, c)                              \
	do {                                      \
		if (cond) {                       \
			if (!any)                 \
				strbuf_addch(sb, ':'); \
			any = true;               \
			strbuf_addch(sb, c);      \
		}                                 \
	} while (0)

	if (attr->exclude_kernel || attr->exclude_user || attr->exclude_hv) {
		MOD(!attr->exclude_kernel, 'k');
		MOD(!attr->exclude_user, 'u');
		MOD(!attr->exclude_hv, 'h');
		exclude_guest_default = true;
	}
	if (attr->precise_ip) {
		if (!any)
			strbuf_addch(sb, ':');
		any = true;
		strbuf_addf(sb, "%.*s", (int)attr->precise_ip, "ppp");
		exclude_guest_default = true;
	}
	if (attr->exclude_host || attr->exclude_guest == exclude_guest_default) {
		MOD(!attr->exclude_host, 'H');
		MOD(!attr->exclude_guest, 'G');
	}
#undef MOD
	(void)colon_at;
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
		add_modifiers(attr, &sb);
		break;
	case PERF_TYPE_SOFTWARE:
		/* perf 6.1's table stops at "dummy": later events are "unknown-software" */
		if (attr->config <= PERF_COUNT_SW_DUMMY)
			strbuf_addstr(&sb, event_symbols_sw[attr->config].name);
		else
			strbuf_addstr(&sb, "unknown-software");
		add_modifiers(attr, &sb);
		break;
	case PERF_TYPE_HW_CACHE:
		hw_cache_name(attr->config, &sb);
		add_modifiers(attr, &sb);
		break;
	case PERF_TYPE_RAW:
		strbuf_addf(&sb, "raw 0x%llx", (unsigned long long)attr->config);
		add_modifiers(attr, &sb);
		break;
	case PERF_TYPE_BREAKPOINT:
		strbuf_addf(&sb, "mem:0x%llx:", (unsigned long long)attr->bp_addr);
		if (attr->bp_type & 1)
			strbuf_addch(&sb, 'r');
		if (attr->bp_type & 2)
			strbuf_addch(&sb, 'w');
		if (attr->bp_type & 4)
			strbuf_addch(&sb, 'x');
		add_modifiers(attr, &sb);
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
