/* SPDX-License-Identifier: MIT */
/* report --stdio, histogram path: option values -> session -> hists -> stdio text. */
#include "ui/report-hists.h"

#include "core/evlist.h"
#include "core/evsel.h"
#include "data/reader.h"
#include "lib/debug.h"
#include "lib/strbuf.h"
#include "lib/strvec.h"
#include "lib/util.h"
#include "lib/xalloc.h"
#include "session/report.h"
#include "ui/hists.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* sonde's own tips, one shown at the end of a report as perf shows one of its own */
static const char *const tips[] = {
	"To see callers instead of callees: sonde report -G",
	"To only show entries above a threshold: sonde report --percent-limit 2",
	"To group by process and library: sonde report --sort comm,dso",
	"To count samples per entry: sonde report -n",
	"To see call chains folded on one line: sonde report -g folded",
	"To profile a command with call chains: sonde record -g -- <command>",
};


/*
 * output_field_parse - the output fields perf also takes as sort keys
 * (overhead, period, sample, overhead_sys, ...): the column type, or -1
 */
static int output_field_parse(const char *name)
{
	static const struct {
		const char *name;
		enum hist_column type;
	} fields[] = {
		{ "overhead", COL_OVERHEAD },
		{ "overhead_children", COL_CHILDREN },
		{ "sample", COL_SAMPLE },
		{ "period", COL_PERIOD },
		{ "overhead_sys", COL_OVERHEAD_SYS },
		{ "overhead_us", COL_OVERHEAD_US },
		{ "overhead_guest_sys", COL_OVERHEAD_GUEST_SYS },
		{ "overhead_guest_us", COL_OVERHEAD_GUEST_US },
	};

	for (size_t i = 0; i < ARRAY_SIZE(fields); i++)
		if (!strcmp(name, fields[i].name))
			return (int)fields[i].type;
	return -1;
}

static bool is_overhead_field(int type)
{
	return type == COL_OVERHEAD || type == COL_CHILDREN || type == COL_OVERHEAD_SYS ||
	       type == COL_OVERHEAD_US || type == COL_OVERHEAD_GUEST_SYS ||
	       type == COL_OVERHEAD_GUEST_US;
}

static void sort_list_add(struct hists_opts *ho, enum hist_column type, enum sort_key key)
{
	if (ho->nr_sort_list < HIST_MAX_FIELDS)
		ho->sort_list[ho->nr_sort_list++] = (struct hist_field){ .type = type, .key = key };
}

/*
 * parse_sort - --sort: keys, and output fields in their place. As perf
 * does, a list with output fields orders the rows by that list (overhead
 * first unless it names an overhead field); "p_stage_cyc" (powerpc only)
 * adds nothing; a list that contains "symbol" gets the "IPC" column.
 */
static int parse_sort(const char *s, struct hists_opts *ho)
{
	struct strvec v = STRVEC_INIT;
	bool has_field = false, has_overhead = false;
	int ret = 0;

	strvec_split(&v, s, ", ");
	ho->nr_keys = 0;
	ho->nr_sort_list = 0;
	sort_list_add(ho, COL_OVERHEAD, 0); /* dropped below when not needed */
	for (size_t i = 0; i < v.nr; i++) {
		int t = output_field_parse(v.v[i]);
		int k;

		if (t >= 0) {
			has_field = true;
			has_overhead |= is_overhead_field(t);
			sort_list_add(ho, (enum hist_column)t, 0);
			continue;
		}
		k = sort_key_parse(v.v[i]);
		if (k < 0 || k == SORT_IPC_NULL) {
			fprintf(stderr, "Error:\nUnknown --sort key: `%s'\n", v.v[i]);
			ret = -EINVAL;
			break;
		}
		if (k == SORT_P_STAGE_CYC)
			continue;
		if (ho->nr_keys < SORT_NR_KEYS)
			ho->keys[ho->nr_keys++] = (enum sort_key)k;
		sort_list_add(ho, COL_KEY, (enum sort_key)k);
	}
	if (!ret && strstr(s, "symbol") && ho->nr_keys < SORT_NR_KEYS) {
		ho->keys[ho->nr_keys++] = SORT_IPC_NULL;
		sort_list_add(ho, COL_KEY, SORT_IPC_NULL);
	}
	if (!has_field) {
		ho->nr_sort_list = 0;
	} else if (has_overhead) {
		memmove(ho->sort_list, ho->sort_list + 1,
			--ho->nr_sort_list * sizeof(*ho->sort_list));
	}
	strvec_clear(&v);
	return ret;
}

static bool has_key(const struct hists_opts *ho, enum sort_key k)
{
	for (int i = 0; i < ho->nr_keys; i++)
		if (ho->keys[i] == k)
			return true;
	return false;
}

static int parse_fields(const char *s, struct hists_opts *ho, struct hists_print_opts *po)
{
	struct strvec v = STRVEC_INIT;
	int ret = 0;

	(void)po;
	strvec_split(&v, s, ", ");
	/* with --sort (already parsed into the keys) those keys lead the order */
	ho->nr_keys = ho->nr_sort_first;
	ho->nr_fields = 0;
	for (size_t i = 0; i < v.nr && ho->nr_fields < HIST_MAX_FIELDS; i++) {
		const char *f = v.v[i];
		struct hist_field *hf = &ho->fields[ho->nr_fields];
		int k;

		if (output_field_parse(f) >= 0) {
			hf->type = (enum hist_column)output_field_parse(f);
		} else {
			k = sort_key_parse(f);
			/* perf knows trace_fields as a sort key only */
			if (k < 0 || k == SORT_IPC_NULL || k == SORT_TRACE_FIELDS ||
			    k == SORT_TRACE_FIELDS_RAW) {
				fprintf(stderr, "Error:\nInvalid --fields key: `%s'\n", f);
				ret = -EINVAL;
				break;
			}
			hf->type = COL_KEY;
			hf->key = (enum sort_key)k;
			if (!has_key(ho, (enum sort_key)k) && ho->nr_keys < SORT_NR_KEYS)
				ho->keys[ho->nr_keys++] = (enum sort_key)k;
		}
		ho->nr_fields++;
	}
	/* perf shows the --sort keys missing from -F after the fields */
	for (int i = 0; !ret && i < ho->nr_sort_first && ho->nr_fields < HIST_MAX_FIELDS; i++) {
		bool shown = false;

		for (int j = 0; j < ho->nr_fields; j++)
			if (ho->fields[j].type == COL_KEY && ho->fields[j].key == ho->keys[i])
				shown = true;
		if (!shown) {
			ho->fields[ho->nr_fields].type = COL_KEY;
			ho->fields[ho->nr_fields++].key = ho->keys[i];
		}
	}
	strvec_clear(&v);
	return ret;
}

/* -g: graph|flat|fractal|folded|none, caller|callee, min percent, print limit */
static int parse_callchain(const char *s, struct callchain_opts *cc, bool *none)
{
	struct strvec v = STRVEC_INIT;
	int nums = 0, ret = 0;

	strvec_split(&v, s, ",");
	for (size_t i = 0; i < v.nr; i++) {
		const char *t = v.v[i];

		if (!strcmp(t, "graph"))
			cc->mode = CHAIN_GRAPH_ABS;
		else if (!strcmp(t, "fractal"))
			cc->mode = CHAIN_GRAPH_REL;
		else if (!strcmp(t, "flat"))
			cc->mode = CHAIN_FLAT;
		else if (!strcmp(t, "folded"))
			cc->mode = CHAIN_FOLDED;
		else if (!strcmp(t, "none"))
			*none = true;
		else if (!strcmp(t, "caller")) {
			cc->order = ORDER_CALLER;
			cc->order_set = true;
		} else if (!strcmp(t, "callee")) {
			cc->order = ORDER_CALLEE;
			cc->order_set = true;
		} else if (!strcmp(t, "function") || !strcmp(t, "address") ||
			   !strcmp(t, "percent") || !strcmp(t, "period") || !strcmp(t, "count") ||
			   !strcmp(t, "fp") || !strcmp(t, "dwarf") || !strcmp(t, "lbr")) {
			/* accepted; sonde aggregates by function and shows percentages */
		} else {
			char *end;
			double d = strtod(t, &end);

			if (end == t || *end) {
				ret = -EINVAL;
				break;
			}
			if (nums == 0) {
				cc->min_percent = d;
				cc->min_set = true;
			} else if (nums == 1)
				cc->print_limit = (u32)d;
			nums++;
		}
	}
	strvec_clear(&v);
	return ret;
}

static int *parse_int_list(const char *s, int *nr)
{
	struct strvec v = STRVEC_INIT;
	int *out;

	strvec_split(&v, s, ", ");
	out = xcalloc(v.nr + 1, sizeof(*out));
	for (size_t i = 0; i < v.nr; i++)
		out[i] = atoi(v.v[i]);
	*nr = (int)v.nr;
	strvec_clear(&v);
	return out;
}

static const char **parse_str_list(const char *s, struct strvec *keep)
{
	strvec_split(keep, s, ",");
	return (const char **)keep->v;
}

static int parse_cpus(const char *s, struct report_filter *f)
{
	struct strvec v = STRVEC_INIT;

	f->nr_cpu_bits = 4096;
	f->cpu_mask = xcalloc(f->nr_cpu_bits / 64, sizeof(u64));
	strvec_split(&v, s, ",");
	for (size_t i = 0; i < v.nr; i++) {
		char *end;
		long a = strtol(v.v[i], &end, 10), b = a;

		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		if (*end || a < 0 || b < a || b >= f->nr_cpu_bits) {
			strvec_clear(&v);
			return -EINVAL;
		}
		for (long c = a; c <= b; c++)
			f->cpu_mask[c / 64] |= 1ULL << (c % 64);
	}
	strvec_clear(&v);
	return 0;
}

static int parse_time_point(const char *s, size_t len, u64 *ns)
{
	char buf[64];
	char *end;
	double d;

	if (!len) {
		*ns = 0;
		return 0;
	}
	if (len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, len);
	buf[len] = '\0';
	d = strtod(buf, &end);
	if (*end || d < 0)
		return -EINVAL;
	*ns = (u64)(d * 1e9 + 0.5);
	return 0;
}

static int parse_time(const char *s, struct report_filter *f)
{
	const char *comma = strchr(s, ',');

	if (!comma)
		return parse_time_point(s, strlen(s), &f->time_start);
	if (parse_time_point(s, (size_t)(comma - s), &f->time_start) ||
	    parse_time_point(comma + 1, strlen(comma + 1), &f->time_end))
		return -EINVAL;
	return 0;
}


/*
 * struct text_grid - cells of text laid out in right-aligned columns, two
 * spaces apart, each as wide as its widest cell (the heading included):
 * the layout of perf's -T tables.
 */
struct text_grid {
	int nr_cols, nr_rows;	/* nr_rows counts the heading row */
	char **cell;		/* [row * nr_cols + col], owned */
};

static void text_grid_init(struct text_grid *g, int nr_cols, int nr_rows)
{
	g->nr_cols = nr_cols;
	g->nr_rows = nr_rows;
	g->cell = xcalloc((size_t)nr_cols * nr_rows, sizeof(*g->cell));
}

static void text_grid_set(struct text_grid *g, int row, int col, char *text)
{
	free(g->cell[row * g->nr_cols + col]);
	g->cell[row * g->nr_cols + col] = text;
}

/*
 * text_grid_print - row 0 after "# ", the others after "  ", each followed
 * by @row_end.
 */
static void text_grid_print(const struct text_grid *g, const char *row_end, FILE *out)
{
	int *width = xcalloc(g->nr_cols ? g->nr_cols : 1, sizeof(*width));

	for (int r = 0; r < g->nr_rows; r++)
		for (int c = 0; c < g->nr_cols; c++) {
			int w = (int)strlen(g->cell[r * g->nr_cols + c]);

			if (w > width[c])
				width[c] = w;
		}
	for (int r = 0; r < g->nr_rows; r++) {
		fputs(r ? "  " : "# ", out);
		for (int c = 0; c < g->nr_cols; c++)
			fprintf(out, "%s%*s", c ? "  " : "", width[c], g->cell[r * g->nr_cols + c]);
		fputs(r ? row_end : "\n", out);
	}
	free(width);
}

static void text_grid_release(struct text_grid *g)
{
	for (int i = 0; i < g->nr_cols * g->nr_rows; i++)
		free(g->cell[i]);
	free(g->cell);
}

/*
 * fprint_thread_values - perf's -T table: a PID, TID, <event>... heading
 * and one row per thread. With @raw (--pretty raw) the heading is PID, TID,
 * Name, Raw (the event's index, hex) and Count, with one row per thread and
 * event, and perf ends none of those rows with a newline.
 */
static void fprint_thread_values(const struct report_thread_values *tv, bool raw, FILE *out)
{
	static const char *const raw_heading[] = { "PID", "TID", "Name", "Raw", "Count" };
	struct text_grid g;

	if (raw) {
		text_grid_init(&g, 5, 1 + tv->nr_threads * tv->nr_counters);
		for (int c = 0; c < 5; c++)
			text_grid_set(&g, 0, c, xstrdup(raw_heading[c]));
		for (int t = 0, row = 1; t < tv->nr_threads; t++)
			for (int e = 0; e < tv->nr_counters; e++, row++) {
				text_grid_set(&g, row, 0, xasprintf("%d", tv->pid[t]));
				text_grid_set(&g, row, 1, xasprintf("%d", tv->tid[t]));
				text_grid_set(&g, row, 2, xstrdup(tv->counter_name[e]));
				text_grid_set(&g, row, 3, xasprintf("%x", tv->counter_evsel[e]));
				text_grid_set(&g, row, 4, xasprintf("%llu",
							(unsigned long long)tv->value[t][e]));
			}
		text_grid_print(&g, "", out);
	} else {
		text_grid_init(&g, 2 + tv->nr_counters, 1 + tv->nr_threads);
		text_grid_set(&g, 0, 0, xstrdup("PID"));
		text_grid_set(&g, 0, 1, xstrdup("TID"));
		for (int e = 0; e < tv->nr_counters; e++)
			text_grid_set(&g, 0, 2 + e, xstrdup(tv->counter_name[e]));
		for (int t = 0; t < tv->nr_threads; t++) {
			text_grid_set(&g, 1 + t, 0, xasprintf("%d", tv->pid[t]));
			text_grid_set(&g, 1 + t, 1, xasprintf("%d", tv->tid[t]));
			for (int e = 0; e < tv->nr_counters; e++)
				text_grid_set(&g, 1 + t, 2 + e,
					      xasprintf("%llu", (unsigned long long)tv->value[t][e]));
		}
		text_grid_print(&g, "\n", out);
	}
	text_grid_release(&g);
}

/* a progress line on stderr, for terminals only, once a load takes over a second */
struct progress_line {
	u64 start_ns;
	bool shown;
};

static void progress_cb(struct tool *tool, u64 done, u64 total)
{
	struct progress_line *pl = tool->progress_arg;
	u64 now = monotonic_ns();

	if (now - pl->start_ns < NSEC_PER_SEC || !total)
		return;
	fprintf(stderr, "\rProcessing events... %3u%%", (unsigned)(done * 100 / total));
	pl->shown = true;
}

static bool evlist_has_callchain(struct evlist *evlist)
{
	struct evsel *evsel;

	evlist_for_each_entry(evlist, evsel)
		if (evsel->attr.sample_type & PERF_SAMPLE_CALLCHAIN)
			return true;
	return false;
}


int report_hists_run(const struct report_hist_args *a, FILE *out)
{
	struct machine_opts mopts = { .symbol_opts = a->symbol_opts };
	struct hists_opts ho;
	struct hists_print_opts po;
	struct report_filter filter;
	struct strvec comms = STRVEC_INIT, dsos = STRVEC_INIT, syms = STRVEC_INIT;
	struct data_error err;
	struct session *s;
	struct report rep;
	struct evsel *evsel;
	bool has_cc, cc_none = false;
	int ret;

	memset(&ho, 0, sizeof(ho));
	memset(&po, 0, sizeof(po));
	memset(&filter, 0, sizeof(filter));
	memset(&err, 0, sizeof(err));

	ho.keys[0] = SORT_COMM;
	ho.keys[1] = SORT_DSO;
	ho.keys[2] = SORT_SYM;
	ho.nr_keys = 3;
	ho.cc.mode = CHAIN_GRAPH_ABS;
	ho.cc.min_percent = 0.5;
	ho.max_stack = a->max_stack > 0 ? a->max_stack : 127;
	po.show_nr_samples = a->show_nr_samples;
	po.show_total_period = a->show_total_period;
	po.quiet = a->quiet;
	po.percent_absolute = !a->percentage || !strcmp(a->percentage, "absolute");
	if (a->percentage && strcmp(a->percentage, "absolute") && strcmp(a->percentage, "relative")) {
		fprintf(stderr, "Invalid percentage: %s\n", a->percentage);
		return 129;
	}
	if (a->percent_limit)
		po.percent_limit = strtod(a->percent_limit, NULL);
	if (a->sort && parse_sort(a->sort, &ho))
		return 129;
	if (a->fields && a->sort)
		ho.nr_sort_first = ho.nr_keys;
	if (a->fields && parse_fields(a->fields, &ho, &po))
		return 129;
	/* -p: perf adds the parent key when the sort order lacks it */
	if (a->parent && !a->fields) {
		int i;

		for (i = 0; i < ho.nr_keys && ho.keys[i] != SORT_PARENT; i++)
			;
		if (i == ho.nr_keys && ho.nr_keys < SORT_NR_KEYS) {
			ho.keys[ho.nr_keys++] = SORT_PARENT;
			if (ho.nr_sort_list)
				sort_list_add(&ho, COL_KEY, SORT_PARENT);
		}
	}
	po.field_sep = a->field_sep;
	po.sym_first = !a->fields && a->sort && strstarts(a->sort, "sym");
	if (a->callchain && parse_callchain(a->callchain, &ho.cc, &cc_none)) {
		fprintf(stderr, "Invalid callchain mode: %s\n", a->callchain);
		return 129;
	}
	/*
	 * perf: --percent-limit is the callchain threshold too (lower or
	 * higher than the default), unless a -g threshold comes after it.
	 */
	if (a->percent_limit && (!ho.cc.min_set || a->percent_limit_last))
		ho.cc.min_percent = po.percent_limit;
	if (a->comms) {
		filter.comms = parse_str_list(a->comms, &comms);
		if (comms.nr == 1)
			po.elide_keys |= 1u << SORT_COMM;
	}
	if (a->dsos) {
		filter.dsos = parse_str_list(a->dsos, &dsos);
		po.has_dso_filter = true;
		if (dsos.nr == 1)
			po.elide_keys |= 1u << SORT_DSO;
	}
	if (a->symbols) {
		filter.symbols = parse_str_list(a->symbols, &syms);
		if (syms.nr == 1)
			po.elide_keys |= 1u << SORT_SYM;
	}
	if (a->pids)
		filter.pids = parse_int_list(a->pids, &filter.nr_pids);
	if (a->tids)
		filter.tids = parse_int_list(a->tids, &filter.nr_tids);
	if (a->cpus && parse_cpus(a->cpus, &filter)) {
		fprintf(stderr, "Invalid --cpu argument: %s\n", a->cpus);
		ret = 129;
		goto out_filter;
	}
	if (a->time && parse_time(a->time, &filter)) {
		fprintf(stderr, "Invalid time string\n");
		ret = 129;
		goto out_filter;
	}

	s = a->reader ? session_new_borrowed(a->reader, &mopts)
		      : session_open(a->input ? a->input : "perf.data", &mopts, &err);
	if (!s) {
		if (err.errnum == ENOENT || err.errnum == EACCES || err.errnum == EPERM)
			fprintf(stderr, "failed to open %s: %s\n", a->input ? a->input : "perf.data",
				strerror(err.errnum));
		else
			fprintf(stderr, "%s: %s\n", a->input ? a->input : "perf.data", err.msg);
		ret = 255;
		goto out_filter;
	}
	/*
	 * perf decides about callchains before a pipe has told it the events:
	 * piped input is reported without callchains or children
	 */
	if (a->cpus) {
		bool has_cpu = true;
		u64 seen_types = 0;

		/* perf checks the first event of every type */
		evlist_for_each_entry(s->evlist, evsel) {
			u32 t = evsel->attr.type < 63 ? evsel->attr.type : 63;

			if (seen_types & (1ULL << t))
				continue;
			seen_types |= 1ULL << t;
			if (!(evsel->attr.sample_type & PERF_SAMPLE_CPU))
				has_cpu = false;
		}
		if (!has_cpu) {
			/* perf's words, and its exit status 0 */
			fputs("File does not contain CPU events. Remove -C option to proceed.\n"
			      "Error:\nfailed to set cpu bitmap\n",
			      stderr);
			session_free(s);
			ret = 0;
			goto out_filter;
		}
	}
	has_cc = evlist_has_callchain(s->evlist);
	/* perf's default for files of tracepoints only: the payload text */
	if (!a->sort && !a->fields) {
		bool all_tp = true;

		evlist_for_each_entry(s->evlist, evsel)
			if (evsel->attr.type != PERF_TYPE_TRACEPOINT)
				all_tp = false;
		if (all_tp && s->evlist->nr_entries) {
			ho.keys[0] = SORT_TRACE;
			ho.nr_keys = 1;
		}
	}
	if (a->callchain && !cc_none && !has_cc) {
		fprintf(stderr, "Error:\nSelected -g or --branch-history.\nBut no callchain or "
				"branch data.\nDid you call 'perf record' without -g or -b?\n");
		session_free(s);
		ret = 0; /* perf 6.1 exits 0 after this message */
		goto out_filter;
	}
	for (int i = 0; i < ho.nr_keys && !has_cc; i++) {
		if (ho.keys[i] != SORT_PARENT)
			continue;
		fprintf(stderr, "Error:\nSelected --sort parent, but no callchain data. "
				"Did you call 'perf record' without -g?\n");
		session_free(s);
		ret = 0; /* perf's exit status here */
		goto out_filter;
	}
	ho.use_callchain = has_cc && !cc_none;
	ho.file_callchains = has_cc;
	ho.long_dso_names = verbose > 0;
	ho.children = a->children < 0 ? has_cc : (a->children && has_cc);
	/*
	 * perf decides about children before a pipe has told it the events:
	 * piped input has no children (the caller order it implies stays)
	 */
	if (data_reader_is_pipe(s->reader) && ho.children) {
		ho.children = false;
		if (!ho.cc.order_set) {
			ho.cc.order = ORDER_CALLER;
			ho.cc.order_set = true;
		}
	}
	if (!ho.cc.order_set)
		ho.cc.order = ho.children ? ORDER_CALLER : ORDER_CALLEE;
	/*
	 * -F without overhead_children: cumulative entries are still made
	 * (and their chains merged) but neither shown nor sorted by.
	 */
	if (a->fields && !strstr(a->fields, "overhead_children"))
		ho.hide_children = true;
	po.overhead_title = a->fields != NULL;
	po.verbose = verbose > 0;
	po.symbol_opts = a->symbol_opts;
	if (a->inverted)
		ho.cc.order = ORDER_CALLER;

	filter.hide_unresolved = a->hide_unresolved;
	filter.exclude_other = a->exclude_other;
	filter.show_on_off_events = a->show_on_off_events;
	for (int i = 0; i < 2; i++) {
		const char *name = i ? a->switch_off : a->switch_on;

		if (!name)
			continue;
		evsel = evlist_find_by_name(s->evlist, name);
		if (!evsel) {
			fprintf(stderr, "ERROR: switch-%s event not found (%s)\n"
					"HINT:  use 'perf evlist' to see the available event names\n",
				i ? "off" : "on", name);
			session_free(s);
			ret = -ENOENT & 0xff;
			goto out_filter;
		}
		if (i)
			filter.switch_off = evsel;
		else
			filter.switch_on = evsel;
	}
	ret = report_init(&rep, s, &ho, &filter, a->parent);
	rep.symbol_opts = a->symbol_opts;
	rep.time_quantum = a->time_quantum;
	if (!ret && a->threads)
		report_want_thread_values(&rep);
	if (ret) {
		fprintf(stderr, "Invalid regex: %s\n", a->parent);
		session_free(s);
		ret = 129;
		goto out_filter;
	}
	struct progress_line pl = { .start_ns = monotonic_ns() };

	if (a->show_progress && isatty(2)) {
		rep.tool.progress = progress_cb;
		rep.tool.progress_arg = &pl;
	}
	ret = report_process(&rep, &err);
	if (pl.shown)
		fputs("\r\033[K", stderr);
	if (ret < 0) {
		fprintf(stderr, "%s: %s\n", a->input ? a->input : "perf.data", err.msg);
		ret = 255;
		goto out;
	}
	/* nothing survived --cpu/--time (or the file is empty): perf says so and stops */
	{
		u64 nr = 0;

		for (int i = 0; i < rep.nr_hists; i++)
			nr += rep.hists[i].nr_samples;
		if (!nr) {
			fprintf(stderr, "Error:\nThe %s data has no samples!\n",
				a->input ? a->input : "perf.data");
			ret = 0;
			goto out;
		}
	}
	if (!a->quiet) {
		if (!a->show_header)
			fputs("# To display the perf.data header info, please use "
			      "--header/--header-only options.\n#\n",
			      out);
		/* perf names a lone filter value when it hides that key's column */
		if (comms.nr == 1 && has_key(&ho, SORT_COMM))
			fprintf(out, "# comm: %s\n", comms.v[0]);
		if (dsos.nr == 1 && has_key(&ho, SORT_DSO))
			fprintf(out, "# dso: %s\n", dsos.v[0]);
		if (syms.nr == 1 && has_key(&ho, SORT_SYM))
			fprintf(out, "# symbol: %s\n", syms.v[0]);
		fprintf(out, "#\n# Total Lost Samples: %llu\n#\n",
			(unsigned long long)s->stats.total_lost_samples);
	}
	/*
	 * --symbol-filter: only entries whose symbol name contains the text;
	 * -U: cumulative entries of unresolved frames are hidden too
	 */
	if (a->symbol_filter || a->hide_unresolved) {
		for (int i = 0; i < rep.nr_hists; i++) {
			struct hists *h = &rep.hists[i];

			for (size_t j = 0; j < h->nr_entries; j++) {
				const struct symbol *sym = h->entries[j]->frame->sym;

				if (!sym || (a->symbol_filter && !strstr(sym->name, a->symbol_filter)))
					h->entries[j]->filtered = true;
			}
		}
	}
	/* perf shows groups together when the file has them, or with --group */
	bool has_groups = data_reader_header(s->reader)->nr_groups > 0;
	bool group_view = a->group > 0 || (a->group < 0 && has_groups);
	/* --group on a file without groups: every event in one group */
	bool one_group = group_view && !has_groups;

	if (one_group) {
		struct evsel *first = evlist_first(s->evlist);

		evlist_for_each_entry(s->evlist, evsel) {
			evsel->leader = first;
			if (evsel != first)
				evsel->nr_members = 0;
		}
		first->nr_members = s->evlist->nr_entries;
	}
	if (group_view) {
		evlist_for_each_entry(s->evlist, evsel) {
			struct hists *members[HIST_MAX_FIELDS * 4];
			int nr = 0;
			struct evsel *m;

			if (!evsel_is_group_leader(evsel) || evsel->nr_members < 2)
				continue;
			evlist_for_each_entry(s->evlist, m)
				if (m->leader == evsel && nr < (int)ARRAY_SIZE(members))
					members[nr++] = &rep.hists[m->idx];
			hists_link_group(&rep.hists[evsel->idx], members, nr);
			hists_sort(&rep.hists[evsel->idx]);
		}
	}
	evlist_for_each_entry(s->evlist, evsel) {
		struct hists *h = &rep.hists[evsel->idx];
		struct strbuf gname = STRBUF_INIT;
		u64 totals[64];

		if (group_view && !evsel_is_group_leader(evsel))
			continue;
		po.nr_group = 0;
		if (group_view && evsel->nr_members > 1) {
			struct evsel *m;
			int nr = 0;

			po.group_nr_samples = po.group_period = 0;
			if (!one_group)
				strbuf_addf(&gname, "%s { ", evsel->group_name ? evsel->group_name
									      : "anon group");
			evlist_for_each_entry(s->evlist, m) {
				if (m->leader != evsel || nr == (int)ARRAY_SIZE(totals))
					continue;
				strbuf_addf(&gname, "%s%s", nr ? ", " : "", m->name);
				totals[nr++] = rep.hists[m->idx].total_period;
				po.group_nr_samples += rep.hists[m->idx].nr_samples;
				po.group_period += rep.hists[m->idx].total_period;
			}
			if (!one_group)
				strbuf_addstr(&gname, " }");
			po.nr_group = nr;
			po.group_totals = totals;
			if (!po.group_nr_samples) {
				strbuf_release(&gname);
				continue;
			}
		} else if (!h->nr_samples) {
			continue;
		}
		po.event_name = po.nr_group ? gname.buf : evsel->name;
		po.time_str = a->time;
		/*
		 * perf says "events" for a group leader even when showing it alone;
		 * an explicit --no-group makes the first event the leader of all
		 */
		po.plural = po.nr_group > 1 || evsel->nr_members > 1 ||
			    (a->group == 0 && !has_groups && evsel == evlist_first(s->evlist) &&
			     s->evlist->nr_entries > 1);
		po.total_period_all = rep.total_period_all[evsel->idx];
		po.nr_samples_all = rep.nr_samples_all[evsel->idx];
		if (!a->quiet)
			hists_fprintf_event_header(h, &po, out);
		hists_fprintf(h, &po, out);
		fputs("\n\n", out);
		strbuf_release(&gname);
	}
	if (!a->quiet)
		fprintf(out, "#\n# (Tip: %s)\n#\n", tips[(unsigned)time(NULL) % ARRAY_SIZE(tips)]);
	/* -T: the per-thread counter table; its rows come from READ records (record -s) */
	if (a->threads)
		fprint_thread_values(&rep.tv, a->threads_raw, out);
	ret = 0;
out:
	report_release(&rep);
	session_free(s);
out_filter:
	strvec_clear(&comms);
	strvec_clear(&dsos);
	strvec_clear(&syms);
	free(filter.pids);
	free(filter.tids);
	free(filter.cpu_mask);
	return ret;
}
