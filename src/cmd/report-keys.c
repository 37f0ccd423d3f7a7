/* SPDX-License-Identifier: MIT */
/* report's sort keys, output fields and -g modes: option text -> struct hists_opts. */
#include "cmd/report.h"
#include "session/hists-mem.h"
#include "lib/strvec.h"
#include "lib/util.h"
#include "lib/xalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

void report_sort_list_add(struct hists_opts *ho, enum hist_column type, enum sort_key key)
{
	if (ho->nr_sort_list < HIST_MAX_FIELDS)
		ho->sort_list[ho->nr_sort_list++] = (struct hist_field){ .type = type, .key = key };
}

int report_parse_sort(const char *s, struct hists_opts *ho)
{
	struct strvec v = STRVEC_INIT;
	bool has_field = false, has_overhead = false;
	int ret = 0;

	strvec_split(&v, s, ", ");
	ho->nr_keys = 0;
	ho->nr_sort_list = 0;
	report_sort_list_add(ho, COL_OVERHEAD, 0); /* dropped below when not needed */
	for (size_t i = 0; i < v.nr; i++) {
		int t = output_field_parse(v.v[i]);
		int k;

		if (t >= 0) {
			has_field = true;
			has_overhead |= is_overhead_field(t);
			report_sort_list_add(ho, (enum hist_column)t, 0);
			continue;
		}
		k = sort_key_parse(v.v[i]);
		if (!strcmp(v.v[i], "local_p_stage_cyc"))
			k = SORT_P_STAGE_CYC;
		if (k < 0 || k == SORT_IPC_NULL) {
			fprintf(stderr, "Error:\nUnknown --sort key: `%s'\n", v.v[i]);
			ret = -EINVAL;
			break;
		}
		/* the data_src keys exist in --mem-mode only */
		if (sort_key_needs_mem_mode((enum sort_key)k) && !ho->mem_mode) {
			fprintf(stderr, "Error:\nInvalid --sort key: `%s'\n", v.v[i]);
			ret = -EINVAL;
			break;
		}
		if (k == SORT_P_STAGE_CYC)
			continue;
		if (ho->nr_keys < SORT_NR_KEYS)
			ho->keys[ho->nr_keys++] = (enum sort_key)k;
		report_sort_list_add(ho, COL_KEY, (enum sort_key)k);
	}
	if (!ret && strstr(s, "symbol") && ho->nr_keys < SORT_NR_KEYS) {
		ho->keys[ho->nr_keys++] = SORT_IPC_NULL;
		report_sort_list_add(ho, COL_KEY, SORT_IPC_NULL);
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

bool report_has_key(const struct hists_opts *ho, enum sort_key k)
{
	for (int i = 0; i < ho->nr_keys; i++)
		if (ho->keys[i] == k)
			return true;
	return false;
}

int report_parse_fields(const char *s, struct hists_opts *ho)
{
	struct strvec v = STRVEC_INIT;
	int ret = 0;

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
			if (!report_has_key(ho, (enum sort_key)k) && ho->nr_keys < SORT_NR_KEYS)
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

int report_parse_callchain(const char *s, struct callchain_opts *cc, bool *none)
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

