/* SPDX-License-Identifier: MIT */
/*
 * sonde list: the event vocabulary in perf's layout (hw, sw, tool, cache,
 * pmu, descriptors, breakpoints, tracepoints), filtered by class or glob.
 * A hidden --parse-events option dumps what -e makes of a string (tests).
 */
#include "builtin.h"
#include "core/evlist.h"
#include "core/parse-events-names.h"
#include "core/parse-events.h"
#include "core/pmu.h"
#include "core/sys.h"
#include "lib/optspec.h"
#include "lib/strbuf.h"
#include "lib/strvec.h"
#include "lib/xalloc.h"
#include "trace/tracefs.h"
#include "cmd/events-option.h"
#include "ui/list.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct list_opts {
	bool raw_dump;
	bool desc;
	bool long_desc;
	bool details;
	bool deprecated;
};

/* "  name OR alias<pad to 50> [Kind]", or "name " with --raw-dump */
static void print_entry(const struct list_opts *o, const char *name, const char *alias,
			const char *kind)
{
	if (o->raw_dump) {
		printf("%s ", name);
		return;
	}
	if (alias && *alias) {
		char *both = xasprintf("%s OR %s", name, alias);

		printf("  %-50s [%s]\n", both, kind);
		free(both);
	} else {
		printf("  %-50s [%s]\n", name, kind);
	}
}

static bool glob_ok(const char *glob, const char *s)
{
	return !glob || (s && *s && !fnmatch(glob, s, 0));
}

/* perf lists a hardware or cache event only when this machine can open it */
static bool event_supported(u32 type, u64 config)
{
	struct perf_event_attr attr = { 0 };
	int fd;

	attr.type = type;
	attr.config = config;
	attr.size = sizeof(attr);
	attr.disabled = 1;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	if (fd < 0)
		return false;
	close(fd);
	return true;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void print_symbols(const struct list_opts *o, const char *glob, u32 type)
{
	const struct event_symbol *tab = type == PERF_TYPE_HARDWARE ? event_symbols_hw :
								  event_symbols_sw;
	int nr = type == PERF_TYPE_HARDWARE ? PERF_COUNT_HW_MAX : EVENT_SYMBOLS_SW_MAX;
	struct strvec lines = STRVEC_INIT;

	for (int i = 0; i < nr; i++) {
		if (!tab[i].name)
			continue;
		if (glob && !glob_ok(glob, tab[i].name) && !glob_ok(glob, tab[i].alias))
			continue;
		if (type == PERF_TYPE_HARDWARE && !event_supported(type, i))
			continue;
		/* sort on the name; carry the index after a NUL-free separator */
		strvec_pushf(&lines, "%s\x01%d", tab[i].name, i);
	}
	qsort(lines.v, lines.nr, sizeof(char *), cmp_str);
	for (size_t i = 0; i < lines.nr; i++) {
		int idx = atoi(strchr(lines.v[i], '\x01') + 1);

		print_entry(o, tab[idx].name, tab[idx].alias,
			    type == PERF_TYPE_HARDWARE ? "Hardware event" : "Software event");
	}
	strvec_clear(&lines);
}

static void print_tools(const struct list_opts *o, const char *glob)
{
	for (int i = TOOL_EVENT_NONE + 1; i < TOOL_EVENT_MAX; i++)
		if (glob_ok(glob, tool_event_names[i]))
			print_entry(o, tool_event_names[i], NULL, "Tool event");
}

static void print_cache(const struct list_opts *o, const char *glob)
{
	struct strvec names = STRVEC_INIT;

	for (unsigned int t = 0; t < PERF_COUNT_HW_CACHE_MAX; t++) {
		for (unsigned int op = 0; op < PERF_COUNT_HW_CACHE_OP_MAX; op++) {
			if (!hw_cache_op_valid(t, op))
				continue;
			for (unsigned int r = 0; r < PERF_COUNT_HW_CACHE_RESULT_MAX; r++) {
				u64 config = t | (op << 8) | (r << 16);
				struct strbuf sb = STRBUF_INIT;

				hw_cache_name(config, &sb);
				if (glob_ok(glob, sb.buf) && event_supported(PERF_TYPE_HW_CACHE, config))
					strvec_push(&names, sb.buf);
				strbuf_release(&sb);
			}
		}
	}
	qsort(names.v, names.nr, sizeof(char *), cmp_str);
	for (size_t i = 0; i < names.nr; i++)
		print_entry(o, names.v[i], NULL, "Hardware cache event");
	strvec_clear(&names);
}

static void print_pmus(const struct list_opts *o, const char *glob)
{
	struct strvec pmus = STRVEC_INIT, names = STRVEC_INIT;

	pmu_list(&pmus);
	for (size_t i = 0; i < pmus.nr; i++) {
		struct pmu *pmu = pmu_load(pmus.v[i]);

		if (!pmu)
			continue;
		for (int a = 0; a < pmu->nr_aliases; a++) {
			char *full = xasprintf("%s/%s/", pmu->name, pmu->aliases[a].name);

			if (!glob || glob_ok(glob, full) || glob_ok(glob, pmu->aliases[a].name))
				strvec_push(&names, full);
			free(full);
		}
		pmu_free(pmu);
	}
	qsort(names.v, names.nr, sizeof(char *), cmp_str);
	for (size_t i = 0; i < names.nr; i++)
		print_entry(o, names.v[i], NULL, "Kernel PMU event");
	strvec_clear(&names);
	strvec_clear(&pmus);
}

/* tracepoints as "sys:event", sorted on the whole string like perf */
static void print_tracepoints(const struct list_opts *o, const char *sys_glob,
			      const char *ev_glob)
{
	struct strvec systems = STRVEC_INIT, names = STRVEC_INIT;

	tracefs_list_systems(&systems, false);
	for (size_t i = 0; i < systems.nr; i++) {
		struct strvec events = STRVEC_INIT;

		if (!glob_ok(sys_glob, systems.v[i]))
			continue;
		tracefs_list_events(systems.v[i], &events, false);
		for (size_t j = 0; j < events.nr; j++)
			if (glob_ok(ev_glob, events.v[j]))
				strvec_pushf(&names, "%s:%s", systems.v[i], events.v[j]);
		strvec_clear(&events);
	}
	qsort(names.v, names.nr, sizeof(char *), cmp_str);
	for (size_t i = 0; i < names.nr; i++)
		print_entry(o, names.v[i], NULL, "Tracepoint event");
	strvec_clear(&names);
	strvec_clear(&systems);
}

static void print_sdt(const struct list_opts *o, const char *sys_glob, const char *ev_glob)
{
	struct strvec names = STRVEC_INIT;

	list_sdt_events(sys_glob, ev_glob, o->raw_dump, &names);
	for (size_t i = 0; i < names.nr; i++)
		print_entry(o, names.v[i], NULL, "SDT event");
	strvec_clear(&names);
}

static void print_descriptors(const struct list_opts *o)
{
	if (o->raw_dump)
		return;
	print_entry(o, "rNNN", NULL, "Raw hardware event descriptor");
	print_entry(o, "cpu/t1=v1[,t2=v2,t3 ...]/modifier", NULL, "Raw hardware event descriptor");
	print_entry(o, "mem:<addr>[/len][:access]", NULL, "Hardware breakpoint");
}

/*
 * No JSON event tables are built in (sonde reads only sysfs), so the
 * metric sections are printed empty, as perf prints them on a CPU model
 * without metrics.
 */
static void print_metrics(const struct list_opts *o, bool metrics, bool groups)
{
	if (o->raw_dump)
		return;
	if (metrics)
		printf("\nMetrics:\n\n");
	if (groups)
		printf("\nMetric Groups:\n\n");
}

static void print_all(const struct list_opts *o)
{
	print_symbols(o, NULL, PERF_TYPE_HARDWARE);
	print_symbols(o, NULL, PERF_TYPE_SOFTWARE);
	print_tools(o, NULL);
	print_cache(o, NULL);
	print_pmus(o, NULL);
	print_descriptors(o);
	print_tracepoints(o, NULL, NULL);
	print_sdt(o, NULL, NULL);
	print_metrics(o, false, true);
}

static void print_arg(const struct list_opts *o, const char *arg)
{
	const char *colon;

	if (!strcmp(arg, "hw") || !strcmp(arg, "hardware")) {
		print_symbols(o, NULL, PERF_TYPE_HARDWARE);
	} else if (!strcmp(arg, "sw") || !strcmp(arg, "software")) {
		print_symbols(o, NULL, PERF_TYPE_SOFTWARE);
		print_tools(o, NULL);
	} else if (!strcmp(arg, "cache") || !strcmp(arg, "hwcache")) {
		print_cache(o, NULL);
	} else if (!strcmp(arg, "pmu")) {
		print_pmus(o, NULL);
	} else if (!strcmp(arg, "tracepoint")) {
		print_tracepoints(o, NULL, NULL);
	} else if (!strcmp(arg, "sdt")) {
		print_sdt(o, NULL, NULL);
	} else if (!strcmp(arg, "metric")) {
		print_metrics(o, true, false);
	} else if (!strcmp(arg, "metricgroup") || !strcmp(arg, "metricgroups")) {
		print_metrics(o, false, true);
	} else if ((colon = strchr(arg, ':'))) {
		char *sys = xstrndup(arg, colon - arg);

		print_tracepoints(o, sys, colon + 1);
		print_sdt(o, sys, colon + 1);
		free(sys);
	} else {
		char *glob = xasprintf("*%s*", arg);

		print_symbols(o, glob, PERF_TYPE_HARDWARE);
		print_symbols(o, glob, PERF_TYPE_SOFTWARE);
		print_tools(o, glob);
		print_cache(o, glob);
		print_pmus(o, glob);
		print_tracepoints(o, NULL, glob);
		print_sdt(o, NULL, glob);
		free(glob);
	}
}

/* --parse-events: one line per event with the parser-set attr fields, for the tests */
static int dump_parse(const char *spec, bool all_terms)
{
	struct evlist *evlist = evlist_new();
	struct parse_events_error err = PARSE_EVENTS_ERROR_INIT;
	struct evsel *evsel;

	if (parse_events_flags(evlist, spec, &err, all_terms ? 0 : PARSE_EVENTS_STAT_TERMS)) {
		parse_events_print_error(&err);
		parse_events_error_release(&err);
		evlist_free(evlist);
		return 129;
	}
	evlist_for_each_entry(evlist, evsel) {
		const struct perf_event_attr *a = &evsel->attr;

		printf("attr:");
#define NUM(field) do { if (a->field) printf(" " #field "=%llu", (unsigned long long)a->field); } while (0)
#define HEX(field, key) do { if (a->field) printf(" " key "=0x%llx", (unsigned long long)a->field); } while (0)
		NUM(type);
		HEX(config, "config");
		HEX(config1, "config1");
		HEX(config2, "config2");
		NUM(bp_type);
		NUM(exclude_user);
		NUM(exclude_kernel);
		NUM(exclude_hv);
		NUM(exclude_idle);
		NUM(exclude_host);
		NUM(exclude_guest);
		NUM(precise_ip);
		NUM(pinned);
		NUM(exclusive);
#undef NUM
#undef HEX
		printf(" leader=%d\n", evsel->leader->idx);
		printf("name: %s\n", evsel->name ? evsel->name : "");
		if (evsel->terms.has_period || evsel->terms.has_freq)
			printf("period: sample_period=%llu freq=%d\n",
			       (unsigned long long)a->sample_period, a->freq);
	}
	evlist_free(evlist);
	return 0;
}

int cmd_list(int argc, const char **argv)
{
	struct list_opts o = { 0 };
	const char *parse_spec = NULL;
	bool all_terms = false;
	const char *cputype = NULL;
	bool debug = false;
	const struct opt_spec options[] = {
		SPEC_FLAG("desc", 'd', &o.desc, "Print extra event descriptions. --no-desc to not print."),
		SPEC_FLAG("long-desc", 'v', &o.long_desc, "Print longer event descriptions."),
		{ .kind = OPTK_FLAG, .name = "raw-dump", .dest = &o.raw_dump,
		  .desc = "Dump raw events", .traits = OPTT_HIDDEN },
		SPEC_TEXT("cputype", 0, &cputype, "hybrid cpu type",
			   "Print events applying cpu with this type for hybrid platform (e.g. core or atom)"),
		SPEC_FLAG("debug", 0, &debug, "Enable debugging output"),
		SPEC_FLAG("deprecated", 0, &o.deprecated, "Print deprecated events."),
		SPEC_FLAG("details", 0, &o.details,
			    "Print information on the perf event names and expressions used internally by events."),
		{ .kind = OPTK_TEXT, .name = "parse-events", .dest = &parse_spec,
		  .label = "events", .desc = "dump the attrs -e makes of a string (testing)",
		  .traits = OPTT_HIDDEN },
		{ .kind = OPTK_FLAG, .name = "all-terms", .dest = &all_terms,
		  .desc = "with --parse-events: record's terms, not stat's (testing)",
		  .traits = OPTT_HIDDEN },
		SPEC_END()
	};
	const char *const usage[] = {
		"perf list [<options>] [hw|sw|cache|tracepoint|pmu|sdt|metric|metricgroup|event_glob]",
		NULL
	};

	argc = opts_parse(argc, argv, options, usage, 0);
	(void)cputype;
	(void)debug;
	if (parse_spec)
		return dump_parse(parse_spec, all_terms);
	if (argc == 0)
		print_all(&o);
	for (int i = 0; i < argc; i++)
		print_arg(&o, argv[i]);
	return 0;
}
