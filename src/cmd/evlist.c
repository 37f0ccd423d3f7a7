/* SPDX-License-Identifier: MIT */
/* sonde evlist: list the events of a perf.data file (names, -F, -v attrs, --group, --trace-fields). */
#include "builtin.h"
#include "core/evlist.h"
#include "data/reader.h"
#include "lib/debug.h"
#include "lib/optspec.h"
#include "trace/tep.h"
#include "ui/header.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <traceevent/event-parse.h>

struct evlist_opts {
	bool force, freq, group, verbose, trace_fields;
	const char *input;
};

static const char *const evlist_usage[] = {
	"perf evlist [<options>]",
	NULL,
};

/* ":" before the first item, "," before the others (perf's layout) */
static void comma_printf(bool *first, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void comma_printf(bool *first, const char *fmt, ...)
{
	va_list ap;

	fputc(*first ? ':' : ',', stdout);
	*first = false;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

static int attr_item(FILE *fp, const char *name, const char *val, void *arg)
{
	(void)fp;
	comma_printf(arg, " %s: %s", name, val);
	return 0;
}

static void print_trace_fields(struct tep_handle *tep, struct evsel *evsel, bool *first)
{
	struct tep_event *event;
	struct tep_format_field *field;

	if (evsel->attr.type != PERF_TYPE_TRACEPOINT) {
		comma_printf(first, " (not a tracepoint)");
		return;
	}
	event = tep ? trace_tep_find_event(tep, (int)evsel->attr.config) : NULL;
	field = event ? event->format.fields : NULL;
	if (!field) {
		comma_printf(first, " (no trace field)");
		return;
	}
	comma_printf(first, " trace_fields: %s", field->name);
	for (field = field->next; field; field = field->next)
		comma_printf(first, "%s", field->name);
}

int cmd_evlist(int argc, const char **argv)
{
	struct evlist_opts o = { 0 };
	const struct opt_spec options[] = {
		SPEC_FLAG("force", 'f', &o.force, "don't complain, do it"),
		SPEC_FLAG("freq", 'F', &o.freq, "Show the sample frequency"),
		SPEC_FLAG("group", 'g', &o.group, "Show event group information"),
		SPEC_TEXT("input", 'i', &o.input, "file", "Input file name"),
		SPEC_FLAG("verbose", 'v', &o.verbose, "Show all event attr details"),
		SPEC_FLAG("trace-fields", 0, &o.trace_fields, "Show tracepoint fields"),
		SPEC_END(),
	};
	struct data_reader *r;
	struct evlist *evlist;
	struct evsel *evsel;
	struct tep_handle *tep = NULL;
	bool has_tp = false;

	argc = opts_parse(argc, argv, options, evlist_usage, 0);
	if (argc)
		opts_usage_exit(evlist_usage, options);
	if (o.group && (o.freq || o.verbose))
		opts_usage_error(evlist_usage, options,
				       "--group option is not compatible with other options\n");
	r = data_open_for_read(o.input, o.force);
	if (!r)
		return 255;
	evlist = data_reader_evlist(r);
	if (o.trace_fields) {
		const struct perf_header *h = data_reader_header(r);

		if (h->tracing_data)
			trace_tep_from_data(h->tracing_data, h->tracing_data_size, &tep);
	}
	evlist_for_each_entry(evlist, evsel) {
		bool first = true;

		if (evsel->attr.type == PERF_TYPE_TRACEPOINT)
			has_tp = true;
		if (o.group) {
			struct evsel *m;

			if (!evsel_is_group_leader(evsel))
				continue;
			if (evsel->nr_members > 1)
				printf("%s{", evsel->group_name ? evsel->group_name : "");
			printf("%s", evsel->name);
			evlist_for_each_entry(evlist, m)
				if (m != evsel && m->leader == evsel)
					printf(",%s", m->name);
			if (evsel->nr_members > 1)
				printf("}");
			putchar('\n');
			continue;
		}
		printf("%s", evsel->name);
		if (o.verbose || verbose) {
			perf_attr_fprintf(stdout, &evsel->attr, attr_item, &first);
		} else if (o.freq) {
			comma_printf(&first, " %s=%" PRIu64, evsel->attr.freq ? "sample_freq" : "sample_period",
				     (u64)evsel->attr.sample_period);
		}
		if (o.trace_fields)
			print_trace_fields(tep, evsel, &first);
		putchar('\n');
	}
	if (has_tp && !o.trace_fields)
		printf("# Tip: use 'perf evlist --trace-fields' to show fields for tracepoint events\n");
	trace_tep_free(tep);
	data_reader_close(r);
	return 0;
}
