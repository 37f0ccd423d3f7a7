/* SPDX-License-Identifier: MIT */
/* report's histogram path: option values checked, the session loaded, the view chosen, exit status. */
#include "cmd/report.h"

#include "core/evlist.h"
#include "core/evsel.h"
#include "data/header.h"
#include "data/reader.h"
#include "lib/debug.h"
#include "lib/strvec.h"
#include "lib/util.h"
#include "lib/xalloc.h"
#include "session/report.h"
#include "session/sample-filter.h"
#include "ui/hists-browser.h"
#include "ui/report-browser.h"
#include "ui/report-hists.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* struct report_lists - the name and id lists of the filter, owned */
struct report_lists {
	struct strvec comms, dsos, syms;
};

static bool evlist_has_callchain(struct evlist *evlist)
{
	struct evsel *evsel;

	evlist_for_each_entry(evlist, evsel)
		if (evsel->attr.sample_type & PERF_SAMPLE_CALLCHAIN)
			return true;
	return false;
}

/* has_cpu_samples - perf checks the first event of every type for PERF_SAMPLE_CPU */
static bool has_cpu_samples(struct evlist *evlist)
{
	u64 seen_types = 0;
	struct evsel *evsel;

	evlist_for_each_entry(evlist, evsel) {
		u32 t = evsel->attr.type < 63 ? evsel->attr.type : 63;

		if (seen_types & (1ULL << t))
			continue;
		seen_types |= 1ULL << t;
		if (!(evsel->attr.sample_type & PERF_SAMPLE_CPU))
			return false;
	}
	return true;
}

/*
 * setup_options - the columns, keys and callchain mode of the options.
 * Returns 0 or 129 after perf's message.
 */
static int setup_options(const struct report_hist_args *a, struct hists_opts *ho,
			 struct hists_print_opts *po, bool *cc_none)
{
	ho->keys[0] = SORT_COMM;
	ho->keys[1] = SORT_DSO;
	ho->keys[2] = SORT_SYM;
	ho->nr_keys = 3;
	ho->cc.mode = CHAIN_GRAPH_ABS;
	ho->cc.min_percent = 0.5;
	ho->max_stack = a->max_stack > 0 ? a->max_stack : 127;
	po->show_nr_samples = a->show_nr_samples;
	po->show_total_period = a->show_total_period;
	po->quiet = a->quiet;
	po->percent_absolute = !a->percentage || !strcmp(a->percentage, "absolute");
	if (a->percentage && strcmp(a->percentage, "absolute") && strcmp(a->percentage, "relative")) {
		fprintf(stderr, "Invalid percentage: %s\n", a->percentage);
		return 129;
	}
	if (a->percent_limit)
		po->percent_limit = strtod(a->percent_limit, NULL);
	ho->mem_mode = a->mem_mode;
	po->total_weight = a->mem_mode;
	if (a->mem_mode && a->sort) {
		/* perf shows the key it adds for a "symbol..." key too */
		static char order[1024];

		snprintf(order, sizeof(order), "%s%s", a->sort,
			 strstr(a->sort, "symbol") ? ",ipc_null" : "");
		po->sort_order = order;
	}
	if (a->mem_mode && !a->sort && !a->fields) {
		/* perf's mem sort order: no IPC column added for its "symbol_daddr" */
		static const char mem_order[] = "local_weight,mem,sym,dso,symbol_daddr,dso_daddr,"
						"snoop,tlb,locked,blocked,local_ins_lat,local_p_stage_cyc";

		if (report_parse_sort(mem_order, ho))
			return 129;
		if (ho->nr_keys && ho->keys[ho->nr_keys - 1] == SORT_IPC_NULL)
			ho->nr_keys--;
		ho->nr_sort_list = 0;
		po->sort_order = mem_order;
	}
	if (a->sort && report_parse_sort(a->sort, ho))
		return 129;
	if (a->fields && a->sort)
		ho->nr_sort_first = ho->nr_keys;
	if (a->fields && report_parse_fields(a->fields, ho))
		return 129;
	/* -p: perf adds the parent key when the sort order lacks it */
	if (a->parent && !a->fields) {
		int i;

		for (i = 0; i < ho->nr_keys && ho->keys[i] != SORT_PARENT; i++)
			;
		if (i == ho->nr_keys && ho->nr_keys < SORT_NR_KEYS) {
			ho->keys[ho->nr_keys++] = SORT_PARENT;
			if (ho->nr_sort_list)
				report_sort_list_add(ho, COL_KEY, SORT_PARENT);
		}
	}
	po->field_sep = a->field_sep;
	po->sym_first = !a->fields && a->sort && strstarts(a->sort, "sym");
	if (a->callchain && report_parse_callchain(a->callchain, &ho->cc, cc_none)) {
		fprintf(stderr, "Invalid callchain mode: %s\n", a->callchain);
		return 129;
	}
	/*
	 * perf: --percent-limit is the callchain threshold too (lower or
	 * higher than the default), unless a -g threshold comes after it.
	 */
	if (a->percent_limit && (!ho->cc.min_set || a->percent_limit_last))
		ho->cc.min_percent = po->percent_limit;
	return 0;
}

/*
 * setup_lists - --comm, --dsos, --symbols (a lone value is named in the
 * header and its column left out), --pid, --tid. Returns 0, or -EINVAL
 * after perf's message for a bad id list.
 */
static int setup_lists(const struct report_hist_args *a, struct report_filter *f,
		       struct report_lists *l, struct report_print_args *pa)
{
	struct hists_print_opts *po = &pa->po;

	if (a->comms) {
		name_list_parse(a->comms, &l->comms);
		f->comms = (const char **)l->comms.v;
		if (l->comms.nr == 1) {
			po->elide_keys |= 1u << SORT_COMM;
			pa->comm = l->comms.v[0];
		}
	}
	if (a->dsos) {
		name_list_parse(a->dsos, &l->dsos);
		f->dsos = (const char **)l->dsos.v;
		po->has_dso_filter = true;
		if (l->dsos.nr == 1) {
			po->elide_keys |= 1u << SORT_DSO;
			pa->dso = l->dsos.v[0];
		}
	}
	if (a->symbols) {
		name_list_parse(a->symbols, &l->syms);
		f->symbols = (const char **)l->syms.v;
		if (l->syms.nr == 1) {
			po->elide_keys |= 1u << SORT_SYM;
			pa->symbol = l->syms.v[0];
		}
	}
	if (a->pids && id_list_parse(a->pids, &f->pids, &f->nr_pids)) {
		fputs("problems parsing pid list\n", stderr);
		return -EINVAL;
	}
	if (a->tids && id_list_parse(a->tids, &f->tids, &f->nr_tids)) {
		fputs("problems parsing tid list\n", stderr);
		return -EINVAL;
	}
	return 0;
}

/*
 * setup_samples - --time and --cpu against the file. Returns -1 to go on,
 * else the exit status after perf's messages (234 for a bad --time; 0
 * after "failed to set cpu bitmap", as perf).
 */
static int setup_samples(const struct report_hist_args *a, struct session *s,
			 struct report_filter *f)
{
	const struct perf_header *h = data_reader_header(s->reader);
	int too_large, highest, err;

	if (a->time && time_spans_parse(a->time, h->first_sample_time, h->last_sample_time,
					&f->time_spans, &f->nr_time_spans)) {
		fputs("Invalid time string\n", stderr);
		return -EINVAL & 0xff;
	}
	if (!a->cpus)
		return -1;
	if (!has_cpu_samples(s->evlist)) {
		fputs("File does not contain CPU events. Remove -C option to proceed.\n", stderr);
	} else {
		err = cpu_bitmap_parse(&f->cpus, a->cpus, h->nr_cpus_avail, &too_large, &highest);
		if (highest >= CPU_LIST_MAX)
			fprintf(stderr, "Perf can support %d CPUs. Consider raising MAX_NR_CPUS\n",
				CPU_LIST_MAX);
		if (!err)
			return -1;
		if (err == -ERANGE)
			fprintf(stderr, "Requested CPU %d too large. Consider raising MAX_NR_CPUS\n",
				too_large);
		else
			fputs("Invalid cpu_list\n", stderr);
	}
	/* perf's words, and its exit status 0 */
	fputs("Error:\nfailed to set cpu bitmap\n", stderr);
	return 0;
}

/*
 * check_callchains - perf's refusals of -g and --sort parent on a file
 * without callchains: the exit status (0, as perf) or -1 to go on
 */
static int check_callchains(const struct report_hist_args *a, const struct hists_opts *ho,
			    bool has_cc, bool cc_none)
{
	if (has_cc)
		return -1;
	if (a->callchain && !cc_none) {
		fprintf(stderr, "Error:\nSelected -g or --branch-history.\nBut no callchain or "
				"branch data.\nDid you call 'perf record' without -g or -b?\n");
		return 0;
	}
	for (int i = 0; i < ho->nr_keys; i++)
		if (ho->keys[i] == SORT_PARENT) {
			fprintf(stderr, "Error:\nSelected --sort parent, but no callchain data. "
					"Did you call 'perf record' without -g?\n");
			return 0;
		}
	return -1;
}

/* find_switch_events - --switch-on/--switch-off: 0, or perf's status when one is missing */
static int find_switch_events(const struct report_hist_args *a, struct evlist *evlist,
			      struct report_filter *f)
{
	for (int i = 0; i < 2; i++) {
		const char *name = i ? a->switch_off : a->switch_on;
		struct evsel *evsel;

		if (!name)
			continue;
		evsel = evlist_find_by_name(evlist, name);
		if (!evsel) {
			fprintf(stderr, "ERROR: switch-%s event not found (%s)\n"
					"HINT:  use 'perf evlist' to see the available event names\n",
				i ? "off" : "on", name);
			return -ENOENT & 0xff;
		}
		if (i)
			f->switch_off = evsel;
		else
			f->switch_on = evsel;
	}
	return 0;
}

/* choose_view - the children, callchain order and grouping perf uses for this file */
static void choose_view(const struct report_hist_args *a, struct session *s, struct hists_opts *ho,
			bool has_cc, bool cc_none)
{
	struct evsel *evsel;

	/* perf's default for files of tracepoints only: the payload text */
	if (!a->sort && !a->fields) {
		bool all_tp = true;

		evlist_for_each_entry(s->evlist, evsel)
			if (evsel->attr.type != PERF_TYPE_TRACEPOINT)
				all_tp = false;
		if (all_tp && s->evlist->nr_entries) {
			ho->keys[0] = SORT_TRACE;
			ho->nr_keys = 1;
		}
	}
	ho->use_callchain = has_cc && !cc_none;
	ho->file_callchains = has_cc;
	ho->long_dso_names = verbose > 0;
	ho->children = a->children < 0 ? has_cc : (a->children && has_cc);
	/*
	 * perf decides about children before a pipe has told it the events:
	 * piped input has no children (the caller order it implies stays)
	 */
	if (data_reader_is_pipe(s->reader) && ho->children) {
		ho->children = false;
		if (!ho->cc.order_set) {
			ho->cc.order = ORDER_CALLER;
			ho->cc.order_set = true;
		}
	}
	if (!ho->cc.order_set)
		ho->cc.order = ho->children ? ORDER_CALLER : ORDER_CALLEE;
	/*
	 * -F without overhead_children: cumulative entries are still made
	 * (and their chains merged) but neither shown nor sorted by.
	 */
	if (a->fields && !strstr(a->fields, "overhead_children"))
		ho->hide_children = true;
	if (a->inverted)
		ho->cc.order = ORDER_CALLER;
}

/*
 * hide_entries - --symbol-filter: only entries whose symbol name contains
 * the text; -U: cumulative entries of unresolved frames are hidden too
 */
static void hide_entries(const struct report_hist_args *a, struct report *rep)
{
	if (!a->symbol_filter && !a->hide_unresolved)
		return;
	for (int i = 0; i < rep->nr_hists; i++) {
		struct hists *h = &rep->hists[i];

		for (size_t j = 0; j < h->nr_entries; j++) {
			const struct symbol *sym = h->entries[j]->frame->sym;

			if (!sym || (a->symbol_filter && !strstr(sym->name, a->symbol_filter)))
				h->entries[j]->filtered = true;
		}
	}
}

/*
 * group_events - perf shows groups together when the file has them, or
 * with --group (on a file without groups: every event in one group)
 */
static void group_events(const struct report_hist_args *a, struct report *rep,
			 struct report_print_args *pa)
{
	struct evlist *evlist = rep->session->evlist;
	struct evsel *evsel;

	pa->has_groups = data_reader_header(rep->session->reader)->nr_groups > 0;
	pa->group = a->group;
	pa->group_view = a->group > 0 || (a->group < 0 && pa->has_groups);
	pa->one_group = pa->group_view && !pa->has_groups;
	if (pa->one_group) {
		struct evsel *first = evlist_first(evlist);

		evlist_for_each_entry(evlist, evsel) {
			evsel->leader = first;
			if (evsel != first)
				evsel->nr_members = 0;
		}
		first->nr_members = evlist->nr_entries;
	}
	if (!pa->group_view)
		return;
	evlist_for_each_entry(evlist, evsel) {
		struct hists *members[HIST_MAX_FIELDS * 4];
		int nr = 0;
		struct evsel *m;

		if (!evsel_is_group_leader(evsel) || evsel->nr_members < 2)
			continue;
		evlist_for_each_entry(evlist, m)
			if (m->leader == evsel && nr < (int)ARRAY_SIZE(members))
				members[nr++] = &rep->hists[m->idx];
		hists_link_group(&rep->hists[evsel->idx], members, nr);
		hists_sort(&rep->hists[evsel->idx]);
	}
}

/* report_load - fill @rep from @s and print the report: the exit status */
static int report_load(const struct report_hist_args *a, struct session *s, struct hists_opts *ho,
		       struct report_filter *filter, struct report_print_args *pa, FILE *out)
{
	const char *input = a->input ? a->input : "perf.data";
	struct report_progress progress;
	struct data_error err = { 0 };
	struct report rep;
	u64 nr = 0;
	int ret;

	if (ho->mem_mode) {
		struct evsel *evsel;
		bool has_addr = false;

		evlist_for_each_entry(s->evlist, evsel)
			has_addr |= (evsel->attr.sample_type & PERF_SAMPLE_ADDR) != 0;
		if (!has_addr) {
			/* perf's words and exit status */
			fprintf(stderr, "Error:\nSelected --mem-mode but no mem data. Did you call perf record without -d?\n");
			return 0;
		}
	}
	if (report_init(&rep, s, ho, filter, a->parent)) {
		fprintf(stderr, "Invalid regex: %s\n", a->parent);
		return 129;
	}
	rep.symbol_opts = a->symbol_opts;
	rep.time_quantum = a->time_quantum;
	if (a->threads)
		report_want_thread_values(&rep);
	if (a->show_progress)
		report_progress_start(&progress, &rep.tool);
	ret = report_process(&rep, &err);
	if (a->show_progress)
		report_progress_end(&progress);
	if (ret < 0) {
		fprintf(stderr, "%s: %s\n", input, err.msg);
		ret = 255;
		goto out;
	}
	/* nothing survived --cpu/--time (or the file is empty): perf says so and stops */
	for (int i = 0; i < rep.nr_hists; i++)
		nr += rep.hists[i].nr_samples;
	if (!nr) {
		fprintf(stderr, "Error:\nThe %s data has no samples!\n", input);
		ret = 0;
		goto out;
	}
	hide_entries(a, &rep);
	if (a->tui) {
		ret = report_tui(a, s, &rep, pa, input);
		goto out;
	}
	group_events(a, &rep, pa);
	report_fprintf(&rep, pa, out);
	ret = 0;
out:
	report_release(&rep);
	return ret;
}

static int report_hists_run_one(const struct report_hist_args *a, FILE *out);

int report_hists_run(const struct report_hist_args *a, FILE *out)
{
	struct report_hist_args cur = *a;
	char *input = NULL, *switch_to = NULL;
	int ret;

	/* the TUI's "Switch to another data file in PWD": the report again on that file */
	cur.switch_to = &switch_to;
	for (;;) {
		ret = report_hists_run_one(&cur, out);
		if (!switch_to)
			break;
		free(input);
		input = switch_to;
		switch_to = NULL;
		cur.input = input;
		cur.reader = NULL;
	}
	free(input);
	return ret;
}

static int report_hists_run_one(const struct report_hist_args *a, FILE *out)
{
	struct machine_opts mopts = { .symbol_opts = a->symbol_opts };
	struct report_lists lists = { STRVEC_INIT, STRVEC_INIT, STRVEC_INIT };
	struct report_print_args pa;
	struct report_filter filter;
	struct data_error err;
	struct hists_opts ho;
	struct session *s = NULL;
	bool has_cc, cc_none = false;
	int ret;

	memset(&ho, 0, sizeof(ho));
	memset(&pa, 0, sizeof(pa));
	memset(&filter, 0, sizeof(filter));
	memset(&err, 0, sizeof(err));
	ret = setup_options(a, &ho, &pa.po, &cc_none);
	if (ret)
		return ret;
	if (setup_lists(a, &filter, &lists, &pa)) {
		ret = 0; /* perf's status after "problems parsing pid list" */
		goto out;
	}
	/* perf names a lone filter value only when it hides that key's column */
	if (!report_has_key(&ho, SORT_COMM))
		pa.comm = NULL;
	if (!report_has_key(&ho, SORT_DSO))
		pa.dso = NULL;
	if (!report_has_key(&ho, SORT_SYM))
		pa.symbol = NULL;
	s = a->reader ? session_new_borrowed(a->reader, &mopts)
		      : session_open(a->input ? a->input : "perf.data", &mopts, &err);
	if (!s) {
		if (err.errnum == ENOENT || err.errnum == EACCES || err.errnum == EPERM)
			fprintf(stderr, "failed to open %s: %s\n", a->input ? a->input : "perf.data",
				strerror(err.errnum));
		else
			fprintf(stderr, "%s: %s\n", a->input ? a->input : "perf.data", err.msg);
		ret = 255;
		goto out;
	}
	ret = setup_samples(a, s, &filter);
	if (ret >= 0)
		goto out;
	has_cc = evlist_has_callchain(s->evlist);
	ret = check_callchains(a, &ho, has_cc, cc_none);
	if (ret >= 0)
		goto out;
	choose_view(a, s, &ho, has_cc, cc_none);
	pa.po.overhead_title = a->fields != NULL;
	pa.po.verbose = verbose > 0;
	pa.po.symbol_opts = a->symbol_opts;
	pa.po.time_str = a->time;
	pa.quiet = a->quiet;
	pa.show_header = a->show_header;
	pa.threads = a->threads;
	pa.threads_raw = a->threads_raw;
	filter.hide_unresolved = a->hide_unresolved;
	filter.exclude_other = a->exclude_other;
	filter.show_on_off_events = a->show_on_off_events;
	ret = find_switch_events(a, s->evlist, &filter);
	if (!ret)
		ret = report_load(a, s, &ho, &filter, &pa, out);
out:
	session_free(s);
	strvec_clear(&lists.comms);
	strvec_clear(&lists.dsos);
	strvec_clear(&lists.syms);
	free(filter.pids);
	free(filter.tids);
	free(filter.time_spans);
	cpu_bitmap_release(&filter.cpus);
	return ret;
}
