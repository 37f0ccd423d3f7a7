/* SPDX-License-Identifier: MIT */
/* Event terms ("pmu/event=0x3c,period=1000,name=x/"): splitting, and applying them to an evsel. */
#include "core/parse-events-internal.h"
#include "core/pmu.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include "lib/xalloc.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The built-in terms in perf's order (its "valid terms:" help lists them so). */
enum term_type {
	TERM_CONFIG,
	TERM_CONFIG1,
	TERM_CONFIG2,
	TERM_NAME,
	TERM_PERIOD,
	TERM_FREQ,
	TERM_BRANCH_TYPE,
	TERM_TIME,
	TERM_CALLGRAPH,
	TERM_STACKSIZE,
	TERM_NOINHERIT,
	TERM_INHERIT,
	TERM_MAX_STACK,
	TERM_NR,
	TERM_NOOVERWRITE,
	TERM_OVERWRITE,
	TERM_DRV_CFG,
	TERM_PERCORE,
	TERM_AUX_OUTPUT,
	TERM_AUX_SAMPLE_SIZE,
	TERM_METRIC_ID,
	TERM_MAX,
};

static const char *const term_names[TERM_MAX] = {
	"config", "config1", "config2", "name", "period", "freq", "branch_type", "time",
	"call-graph", "stack-size", "no-inherit", "inherit", "max-stack", "nr", "no-overwrite",
	"overwrite", "driver-config", "percore", "aux-output", "aux-sample-size", "metric-id",
};

/* what perf stat accepts: the counting subset */
static bool term_in_stat_set(int t)
{
	return t == TERM_CONFIG || t == TERM_CONFIG1 || t == TERM_CONFIG2 || t == TERM_NAME ||
	       t == TERM_PERIOD || t == TERM_PERCORE || t == TERM_METRIC_ID;
}

static bool term_valid(unsigned int flags, int t)
{
	return !(flags & PARSE_EVENTS_STAT_TERMS) || term_in_stat_set(t);
}

const char *parse_events_valid_terms(unsigned int flags)
{
	/* built once per flag set: the table is constant */
	static char full[512], stat[256];
	char *buf = (flags & PARSE_EVENTS_STAT_TERMS) ? stat : full;
	size_t size = (flags & PARSE_EVENTS_STAT_TERMS) ? sizeof(stat) : sizeof(full);

	if (!buf[0]) {
		size_t off = 0;

		for (int t = 0; t < TERM_MAX; t++) {
			if (!term_valid(flags, t))
				continue;
			off += snprintf(buf + off, size - off, "%s%s", off ? "," : "", term_names[t]);
		}
	}
	return buf;
}

bool pe_parse_number(const char *s, size_t len, u64 *val)
{
	u64 v = 0;
	size_t i = 0;

	if (!len)
		return false;
	if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		for (i = 2; i < len; i++) {
			int d = hex_digit(s[i]);

			if (d < 0)
				return false;
			if (v >> 60)
				return false;
			v = v * 16 + d;
		}
	} else {
		for (i = 0; i < len; i++) {
			if (s[i] < '0' || s[i] > '9')
				return false;
			if (v > (UINT64_MAX - 9) / 10)
				return false;
			v = v * 10 + (s[i] - '0');
		}
	}
	*val = v;
	return true;
}

void pe_terms_release(struct pe_terms *terms)
{
	for (int i = 0; i < terms->nr; i++) {
		free(terms->v[i].name);
		free(terms->v[i].val);
	}
	free(terms->v);
	terms->v = NULL;
	terms->nr = terms->alloc = 0;
}

static bool term_name_char(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '-' || c == '.' || c == ':';
}

/*
 * A term value perf's lexer accepts unquoted: a number (checked by the
 * caller) or a name ([a-zA-Z_*?][a-zA-Z0-9-_*?.:]*); digits first means a
 * number that did not parse (too big, junk).
 */
static bool value_token_ok(const char *v)
{
	if (!(isalpha((unsigned char)*v) || strchr("_*?", *v)) || !*v)
		return false;
	for (v++; *v; v++)
		if (!isalnum((unsigned char)*v) && !strchr("-_*?.:", *v))
			return false;
	return true;
}

int pe_terms_parse(struct pe_ctx *ctx, const char *s, size_t len, int idx, struct pe_terms *terms)
{
	size_t i = 0;

	while (i < len) {
		size_t start = i, vstart, vend;
		struct pe_term *t;

		while (i < len && term_name_char((unsigned char)s[i]))
			i++;
		if (i == start) {
			/* bison blames the separator before ('/' or ',') */
			pe_error(ctx, idx + (int)start - 1, NULL, "parser error");
			return -EINVAL;
		}
		if (terms->nr == terms->alloc) {
			terms->alloc = terms->alloc ? terms->alloc * 2 : 4;
			terms->v = xrealloc(terms->v, terms->alloc * sizeof(*terms->v));
		}
		t = &terms->v[terms->nr++];
		memset(t, 0, sizeof(*t));
		t->name = xstrndup(s + start, i - start);
		t->name_idx = idx + (int)start;
		if (i < len && s[i] == '=') {
			i++;
			vstart = i;
			t->val_idx = idx + (int)vstart;
			if (i < len && s[i] == '\'') {
				/* quoted value: anything up to the closing quote, commas included */
				const char *q = memchr(s + i + 1, '\'', len - i - 1);

				if (!q) {
					pe_error(ctx, idx + (int)i, NULL, "parser error");
					return -EINVAL;
				}
				t->val = xstrndup(s + i + 1, q - (s + i + 1));
				i = q - s + 1;
			} else {
				while (i < len && s[i] != ',')
					i++;
				vend = i;
				if (vend == vstart) {
					pe_error(ctx, idx + (int)start + (int)(vstart - start) - 1, NULL,
						 "parser error");
					return -EINVAL;
				}
				t->val = xstrndup(s + vstart, vend - vstart);
				t->is_num = pe_parse_number(t->val, vend - vstart, &t->num);
				if (!t->is_num && !value_token_ok(t->val)) {
					/*
					 * not a token for perf's lexer (an overflowing
					 * number, "-1"): bison blames the '='
					 */
					pe_error(ctx, t->val_idx - 1, NULL,
						 "parser error");
					return -EINVAL;
				}
			}
		}
		if (i < len) {
			if (s[i] != ',' || i + 1 == len) {
				pe_error(ctx, idx + (int)i, NULL, "parser error");
				return -EINVAL;
			}
			i++;
		}
	}
	return 0;
}

static int term_type_find(const char *name)
{
	for (int t = 0; t < TERM_MAX; t++)
		if (!strcmp(term_names[t], name))
			return t;
	return -1;
}

static char *valid_terms_help(struct pe_ctx *ctx, const struct pmu *pmu)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "valid terms: ");
	if (pmu)
		for (int i = 0; i < pmu->nr_formats; i++)
			strbuf_addf(&sb, "%s,", pmu->formats[i].name);
	strbuf_addstr(&sb, parse_events_valid_terms(ctx->flags));
	return strbuf_detach(&sb, NULL);
}

static int need_num(struct pe_ctx *ctx, const struct pe_term *t, u64 *val)
{
	if (!t->val) {
		*val = 1;
		return 0;
	}
	if (!t->is_num) {
		pe_error(ctx, t->val_idx, NULL, "expected numeric value");
		return -EINVAL;
	}
	*val = t->num;
	return 0;
}

static int need_str(struct pe_ctx *ctx, const struct pe_term *t)
{
	if (!t->val || t->is_num) {
		pe_error(ctx, t->val ? t->val_idx : t->name_idx, NULL, "expected string value");
		return -EINVAL;
	}
	return 0;
}

/* branch filter names as perf's -j/branch_type accept them */
static const struct {
	const char *name;
	u64 bits;
} branch_modes[] = {
	{ "u", PERF_SAMPLE_BRANCH_USER },
	{ "k", PERF_SAMPLE_BRANCH_KERNEL },
	{ "hv", PERF_SAMPLE_BRANCH_HV },
	{ "any", PERF_SAMPLE_BRANCH_ANY },
	{ "any_call", PERF_SAMPLE_BRANCH_ANY_CALL },
	{ "any_ret", PERF_SAMPLE_BRANCH_ANY_RETURN },
	{ "ind_call", PERF_SAMPLE_BRANCH_IND_CALL },
	{ "abort_tx", PERF_SAMPLE_BRANCH_ABORT_TX },
	{ "in_tx", PERF_SAMPLE_BRANCH_IN_TX },
	{ "no_tx", PERF_SAMPLE_BRANCH_NO_TX },
	{ "cond", PERF_SAMPLE_BRANCH_COND },
	{ "ind_jmp", PERF_SAMPLE_BRANCH_IND_JUMP },
	{ "call", PERF_SAMPLE_BRANCH_CALL },
	{ "save_type", PERF_SAMPLE_BRANCH_TYPE_SAVE },
};

static int apply_branch_type(struct pe_ctx *ctx, struct evsel *evsel, const struct pe_term *t)
{
	const char *p;
	u64 bits = 0;

	if (need_str(ctx, t))
		return -EINVAL;
	p = t->val;
	while (*p) {
		size_t n = strcspn(p, "|");
		bool found = false;

		for (size_t i = 0; i < sizeof(branch_modes) / sizeof(branch_modes[0]); i++) {
			if (strlen(branch_modes[i].name) == n && !strncmp(p, branch_modes[i].name, n)) {
				bits |= branch_modes[i].bits;
				found = true;
			}
		}
		if (!found) {
			pe_error(ctx, t->val_idx, NULL, "invalid branch sample type");
			return -EINVAL;
		}
		p += n;
		if (*p == '|')
			p++;
	}
	evsel->attr.branch_sample_type = bits;
	return 0;
}

static void copy_str(char *dst, size_t size, const char *src)
{
	snprintf(dst, size, "%s", src);
}

static int apply_builtin(struct pe_ctx *ctx, struct evsel *evsel, const struct pe_term *t, int type)
{
	struct perf_event_attr *attr = &evsel->attr;
	struct evsel_terms *et = &evsel->terms;
	u64 v = 0;

	switch (type) {
	case TERM_CONFIG:
	case TERM_CONFIG1:
	case TERM_CONFIG2:
		if (need_num(ctx, t, &v))
			return -EINVAL;
		if (type == TERM_CONFIG)
			attr->config = v;
		else if (type == TERM_CONFIG1)
			attr->config1 = v;
		else
			attr->config2 = v;
		return 0;
	case TERM_NAME:
		if (need_str(ctx, t))
			return -EINVAL;
		free(evsel->name);
		evsel->name = xstrdup(t->val);
		return 0;
	case TERM_PERIOD:
		if (need_num(ctx, t, &v))
			return -EINVAL;
		attr->sample_period = v;
		attr->freq = 0;
		et->has_period = true;
		et->has_freq = false;
		return 0;
	case TERM_FREQ:
		if (need_num(ctx, t, &v))
			return -EINVAL;
		attr->sample_freq = v;
		attr->freq = 1;
		et->has_freq = true;
		et->has_period = false;
		return 0;
	case TERM_BRANCH_TYPE:
		return apply_branch_type(ctx, evsel, t);
	case TERM_TIME:
		if (need_num(ctx, t, &v))
			return -EINVAL;
		if (v > 1) {
			pe_error(ctx, t->val_idx, NULL, "expected 0 or 1");
			return -EINVAL;
		}
		et->has_time = true;
		et->time = v;
		return 0;
	case TERM_CALLGRAPH:
		if (need_str(ctx, t))
			return -EINVAL;
		copy_str(et->callgraph, sizeof(et->callgraph), t->val);
		return 0;
	case TERM_STACKSIZE:
		if (need_num(ctx, t, &v))
			return -EINVAL;
		et->has_stack_size = true;
		et->stack_size = (u32)v;
		return 0;
	case TERM_NOINHERIT:
	case TERM_INHERIT:
		if (need_num(ctx, t, &v))
			return -EINVAL;
		et->has_inherit = true;
		et->inherit = (type == TERM_INHERIT) == (v != 0);
		return 0;
	case TERM_MAX_STACK:
		if (need_num(ctx, t, &v))
			return -EINVAL;
		et->has_max_stack = true;
		et->max_stack = (int)v;
		return 0;
	case TERM_NR:
		/* perf accepts it and does nothing for plain events */
		return need_num(ctx, t, &v);
	case TERM_NOOVERWRITE:
	case TERM_OVERWRITE:
		if (need_num(ctx, t, &v))
			return -EINVAL;
		et->has_overwrite = true;
		et->overwrite = (type == TERM_OVERWRITE) == (v != 0);
		return 0;
	case TERM_DRV_CFG:
		if (need_str(ctx, t))
			return -EINVAL;
		copy_str(et->drv_cfg, sizeof(et->drv_cfg), t->val);
		return 0;
	case TERM_PERCORE:
		if (need_num(ctx, t, &v))
			return -EINVAL;
		et->percore = v != 0;
		return 0;
	case TERM_AUX_OUTPUT:
		if (need_num(ctx, t, &v))
			return -EINVAL;
		et->has_aux_output = true;
		et->aux_output = v != 0;
		return 0;
	case TERM_AUX_SAMPLE_SIZE:
		if (need_num(ctx, t, &v))
			return -EINVAL;
		et->has_aux_sample_size = true;
		et->aux_sample_size = (u32)v;
		return 0;
	case TERM_METRIC_ID:
		if (need_str(ctx, t))
			return -EINVAL;
		copy_str(et->metric_id, sizeof(et->metric_id), t->val);
		return 0;
	}
	return -EINVAL;
}

static int apply_alias(struct pe_ctx *ctx, struct evsel *evsel, const struct pmu *pmu,
		       const struct pmu_alias *alias, const struct pe_term *t, int depth);

static int apply_one(struct pe_ctx *ctx, struct evsel *evsel, const struct pe_term *t,
		     const struct pmu *pmu, bool tracepoint, int depth)
{
	int type = term_type_find(t->name);

	if (type >= 0 && !term_valid(ctx->flags, type)) {
		/* perf stat knows the term but refuses it, pointing before the string */
		pe_error(ctx, -1 - ctx->idx_base, NULL, "'%s' is not usable in 'perf stat'",
			 t->name);
		return -EINVAL;
	}
	if (tracepoint) {
		if (type == TERM_CALLGRAPH || type == TERM_STACKSIZE)
			return apply_builtin(ctx, evsel, t, type);
		pe_error(ctx, t->name_idx, xstrdup("valid terms: call-graph,stack-size\n"),
			 "unknown term");
		return -EINVAL;
	}
	if (pmu) {
		const struct pmu_format *f = pmu_format_find(pmu, t->name);
		const struct pmu_alias *a = NULL;

		/* "event=<alias>" names an alias, as in perf */
		if (t->val && !t->is_num && !strcasecmp(t->name, "event"))
			a = pmu_alias_find(pmu, t->val);
		if (a)
			return apply_alias(ctx, evsel, pmu, a, t, depth);
		if (f) {
			u64 v, max, *word;

			if (need_num(ctx, t, &v))
				return -EINVAL;
			word = f->word == 0 ? (u64 *)&evsel->attr.config :
			       f->word == 1 ? (u64 *)&evsel->attr.config1 :
					      (u64 *)&evsel->attr.config2;
			if (pmu_format_apply(f, v, word, &max)) {
				pe_error(ctx, t->val_idx, NULL,
					 "value too big for format, maximum is %llu",
					 (unsigned long long)max);
				return -EINVAL;
			}
			return 0;
		}
		a = t->val ? NULL : pmu_alias_find(pmu, t->name);
		if (a)
			return apply_alias(ctx, evsel, pmu, a, t, depth);
	}
	if (type >= 0 && term_valid(ctx->flags, type))
		return apply_builtin(ctx, evsel, t, type);
	if (pmu) {
		pe_error(ctx, t->name_idx, valid_terms_help(ctx, pmu), "unknown term '%s' for pmu '%s'",
			 t->name, pmu->name);
	} else {
		pe_error(ctx, t->name_idx, valid_terms_help(ctx, NULL), "unknown term");
	}
	return -EINVAL;
}

static int apply_alias(struct pe_ctx *ctx, struct evsel *evsel, const struct pmu *pmu,
		       const struct pmu_alias *alias, const struct pe_term *t, int depth)
{
	struct pe_terms sub = { 0 };
	struct pe_ctx sub_ctx = *ctx;
	struct parse_events_error dummy = PARSE_EVENTS_ERROR_INIT;
	int ret;

	if (depth > 4)
		return -EINVAL;
	/* the alias text is not part of the user's string: errors point at the term */
	sub_ctx.str = alias->terms;
	sub_ctx.err = &dummy;
	ret = pe_terms_parse(&sub_ctx, alias->terms, strlen(alias->terms), 0, &sub);
	for (int i = 0; !ret && i < sub.nr; i++)
		ret = apply_one(&sub_ctx, evsel, &sub.v[i], pmu, false, depth + 1);
	pe_terms_release(&sub);
	if (ret) {
		pe_error(ctx, t->name_idx, NULL, "%s",
			 dummy.nr_reports ? parse_events_error_latest(&dummy)->reason : "parser error");
		parse_events_error_release(&dummy);
		return ret;
	}
	parse_events_error_release(&dummy);
	if (alias->scale)
		evsel->terms.scale = alias->scale;
	if (alias->unit[0])
		copy_str(evsel->terms.unit, sizeof(evsel->terms.unit), alias->unit);
	evsel->terms.per_pkg |= alias->per_pkg;
	evsel->terms.snapshot |= alias->snapshot;
	return 0;
}

int pe_terms_apply(struct pe_ctx *ctx, struct evsel *evsel, const struct pe_terms *terms,
		   const struct pmu *pmu, bool tracepoint)
{
	for (int i = 0; i < terms->nr; i++) {
		int nr = ctx->err->nr_reports;
		int ret = apply_one(ctx, evsel, &terms->v[i], pmu, tracepoint, 0);
		const struct parse_events_report *r = parse_events_error_latest(ctx->err);

		if (ret && pmu && ctx->err->nr_reports == nr + 1 && r->at >= 0) {
			/*
			 * perf tries a PMU's terms twice and reports the same error
			 * each time ("Initial error:" repeats it); so do we
			 */
			char *help = r->help ? xstrdup(r->help) : NULL;
			char *reason = xstrdup(r->reason);

			pe_error(ctx, r->at - ctx->idx_base, help, "%s", reason);
			free(reason);
		}
		if (ret)
			return ret;
	}
	return 0;
}
