/* SPDX-License-Identifier: MIT */
/* sonde evlist: list the events of a perf.data file (names, -F, -v attrs, --group, --trace-fields). */
#include "builtin.h"
#include "core/evlist.h"
#include "data/reader.h"
#include "lib/debug.h"
#include "lib/optspec.h"
#include "lib/strbuf.h"
#include "lib/strvec.h"
#include "trace/tep.h"
#include "ui/attr-text.h"
#include "cmd/open.h"
#include "ui/header.h"

#include <inttypes.h>
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

/* an event's line: its name, then ": a, b, c" when there are parts */
static void put_event_line(const char *name, const struct strvec *parts)
{
	fputs(name, stdout);
	for (size_t i = 0; i < parts->nr; i++)
		printf("%s %s", i ? "," : ":", parts->v[i]);
	putchar('\n');
}

/* -v: "label: value" for each attr field perf shows */
static void push_attr_parts(struct strvec *parts, const struct perf_event_attr *attr)
{
	struct strbuf val = STRBUF_INIT;
	const char *label;
	unsigned pos = 0;

	while (attr_text_next(attr, &pos, &label, &val))
		strvec_pushf(parts, "%s: %s", label, val.buf);
	strbuf_release(&val);
}

/* --trace-fields: "trace_fields: a,b,c", or why there are none */
static void push_trace_fields(struct strvec *parts, struct tep_handle *tep,
			      const struct evsel *evsel)
{
	struct strbuf sb = STRBUF_INIT;
	struct tep_event *event = NULL;

	if (evsel->attr.type != PERF_TYPE_TRACEPOINT) {
		strvec_push(parts, "(not a tracepoint)");
		return;
	}
	if (tep)
		event = trace_tep_find_event(tep, (int)evsel->attr.config);
	for (struct tep_format_field *f = event ? event->format.fields : NULL; f; f = f->next)
		strbuf_addf(&sb, "%s%s", sb.len ? "," : "trace_fields: ", f->name);
	strvec_push(parts, sb.len ? sb.buf : "(no trace field)");
	strbuf_release(&sb);
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
		struct strvec parts = STRVEC_INIT;

		if (evsel->attr.type == PERF_TYPE_TRACEPOINT)
			has_tp = true;
		if (o.group) {
			struct strbuf sb = STRBUF_INIT;

			if (evsel_is_group_leader(evsel)) {
				group_text(&sb, evlist, evsel);
				puts(sb.buf);
			}
			strbuf_release(&sb);
			continue;
		}
		if (o.verbose || verbose)
			push_attr_parts(&parts, &evsel->attr);
		else if (o.freq)
			strvec_pushf(&parts, "%s=%" PRIu64,
				     evsel->attr.freq ? "sample_freq" : "sample_period",
				     (u64)evsel->attr.sample_period);
		if (o.trace_fields)
			push_trace_fields(&parts, tep, evsel);
		put_event_line(evsel->name, &parts);
		strvec_clear(&parts);
	}
	if (has_tp && !o.trace_fields)
		printf("# Tip: use 'perf evlist --trace-fields' to show fields for tracepoint events\n");
	trace_tep_free(tep);
	data_reader_close(r);
	return 0;
}
