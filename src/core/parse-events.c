/* SPDX-License-Identifier: MIT */
/*
 * The -e grammar: comma lists, {groups}:mods, name{groups}, and each event
 * form (symbolic, cache, raw, pmu/terms/, alias, tracepoint globs, mem:
 * breakpoints), with perf's modifier rules and display names.
 */
#include "core/evlist.h"
#include "core/parse-events-internal.h"
#include "core/parse-events-names.h"
#include "core/pmu.h"
#include "lib/strbuf.h"
#include "lib/strvec.h"
#include "lib/util.h"
#include "lib/xalloc.h"
#include "trace/tracefs.h"

#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

struct parse_events_sides parse_events_plain_sides = { .exclude_guest = true };

#define MODIFIER_CHARS "ukhpPGHSDIWeb"
/* HW_BREAKPOINT_R is 1; spelled here to avoid pulling linux/hw_breakpoint.h */
enum { HW_BREAKPOINT_R_BIT = 1 };

void parse_events_error_init(struct parse_events_error *err)
{
	memset(err, 0, sizeof(*err));
}

void parse_events_error_release(struct parse_events_error *err)
{
	for (int i = 0; i < err->nr_reports; i++) {
		free(err->reports[i].reason);
		free(err->reports[i].help);
	}
	free(err->reports);
	free(err->event);
	free(err->warning);
	parse_events_error_init(err);
}

const struct parse_events_report *parse_events_error_latest(const struct parse_events_error *err)
{
	return err->nr_reports ? &err->reports[err->nr_reports - 1] : NULL;
}

void pe_error(struct pe_ctx *ctx, int idx, char *help, const char *fmt, ...)
{
	struct parse_events_error *err = ctx->err;
	struct parse_events_report *r;
	va_list ap;

	err->reports = xrealloc(err->reports, (err->nr_reports + 1) * sizeof(*err->reports));
	r = &err->reports[err->nr_reports++];
	r->at = idx + ctx->idx_base;
	r->help = help;
	va_start(ap, fmt);
	r->reason = xvasprintf(fmt, ap);
	va_end(ap);
}

/* struct pe_list - evsels being built for one group or one top-level item */
struct pe_list {
	struct evsel **v;
	int nr;
	int alloc;
};

static void pe_list_add(struct pe_list *l, struct evsel *evsel)
{
	if (l->nr == l->alloc) {
		l->alloc = l->alloc ? l->alloc * 2 : 8;
		l->v = xrealloc(l->v, l->alloc * sizeof(*l->v));
	}
	l->v[l->nr++] = evsel;
}

static void pe_list_free(struct pe_list *l)
{
	for (int i = 0; i < l->nr; i++)
		evsel_free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->nr = l->alloc = 0;
}

/* one event's text split into its parts (offsets into ctx->str) */
struct pe_event {
	int start, end;		/* the whole event text */
	int base_end;		/* end of the part before '/' (or of the whole when no slash) */
	bool has_terms;
	int terms_start, terms_end; /* between the slashes */
	int mods_start, mods_end;   /* modifier characters (after ':' or after the closing '/') */
	bool has_mods;
};

/* the characters that end an event's text for perf's lexer */
static bool is_stop(int c)
{
	return c == ',' || c == '{' || c == '}' || c == '/' || c == '\0';
}

static struct evsel *new_evsel(u32 type, u64 config)
{
	struct perf_event_attr attr = { 0 };

	attr.type = type;
	attr.config = config;
	attr.size = sizeof(attr);
	return evsel_new(&attr);
}

/*
 * What one modifier string asks for. The letters' effect does not depend on
 * their order, so the string is first read into this record and then laid
 * onto the attr (rules checked against perf 6.1's attrs):
 *  - naming any of u/k/h limits counting to the named levels; when the
 *    event already had a level shut out, the named ones are only reopened;
 *  - naming G or H limits counting to the named sides, or, once a side was
 *    chosen for the event (a term or an earlier modifier), only reopens it;
 *  - otherwise u or p shut the guest out.
 */
enum { LVL_USER, LVL_KERNEL, LVL_HV, NR_LVL };
enum { SIDE_GUEST, SIDE_HOST, NR_SIDE };

struct mod_request {
	bool level[NR_LVL];
	bool side[NR_SIDE];
	bool user_or_precise;	/* 'u' or 'p' present: the guest goes unless a side was named */
	unsigned int precise;	/* how many 'p' */
	bool idle_off, max_precise, read_group, pin, exclusive, weak, bpf;
};

static bool any_of(const bool *v, int n)
{
	for (int i = 0; i < n; i++)
		if (v[i])
			return true;
	return false;
}

static void mod_request_read(struct mod_request *rq, const char *mods, size_t len)
{
	static const char levels[NR_LVL] = { 'u', 'k', 'h' };
	static const char sides[NR_SIDE] = { 'G', 'H' };

	memset(rq, 0, sizeof(*rq));
	for (const char *c = mods; c < mods + len; c++) {
		for (int i = 0; i < NR_LVL; i++)
			rq->level[i] |= *c == levels[i];
		for (int i = 0; i < NR_SIDE; i++)
			rq->side[i] |= *c == sides[i];
		rq->precise += *c == 'p';
		rq->user_or_precise |= *c == 'u' || *c == 'p';
		rq->idle_off |= *c == 'I';
		rq->max_precise |= *c == 'P';
		rq->read_group |= *c == 'S';
		rq->pin |= *c == 'D';
		rq->exclusive |= *c == 'e';
		rq->weak |= *c == 'W';
		rq->bpf |= *c == 'b';
	}
}

/* an exclude bit after naming: kept shut only if it started shut (or all were open) and was not named */
static unsigned int still_shut(bool started_shut, bool all_open, bool named)
{
	return (started_shut || all_open) && !named;
}

static void mod_request_apply(const struct mod_request *rq, struct evsel *evsel)
{
	struct perf_event_attr *a = &evsel->attr;

	if (any_of(rq->level, NR_LVL)) {
		bool all_open = !a->exclude_user && !a->exclude_kernel && !a->exclude_hv;

		a->exclude_user = still_shut(a->exclude_user, all_open, rq->level[LVL_USER]);
		a->exclude_kernel = still_shut(a->exclude_kernel, all_open, rq->level[LVL_KERNEL]);
		a->exclude_hv = still_shut(a->exclude_hv, all_open, rq->level[LVL_HV]);
	}
	if (any_of(rq->side, NR_SIDE)) {
		bool fresh = !evsel->terms.exclude_gh;

		a->exclude_guest = still_shut(a->exclude_guest, fresh, rq->side[SIDE_GUEST]);
		a->exclude_host = still_shut(a->exclude_host, fresh, rq->side[SIDE_HOST]);
		evsel->terms.exclude_gh = true;
	} else if (rq->user_or_precise && !evsel->terms.exclude_gh) {
		a->exclude_guest = 1;
	}
	if (rq->idle_off)
		a->exclude_idle = 1;
	a->precise_ip = a->precise_ip + rq->precise;
	if (rq->pin)
		a->pinned = 1;
	if (rq->exclusive)
		a->exclusive = 1;
	evsel->precise_max |= rq->max_precise;
	evsel->sample_read |= rq->read_group;
	evsel->is_weak_group |= rq->weak;
	evsel->terms.bpf_counter |= rq->bpf;
	evsel->guest_off_implicit = false;
}

static void apply_modifiers(struct evsel *evsel, const char *mods, size_t len)
{
	struct mod_request rq;

	mod_request_read(&rq, mods, len);
	mod_request_apply(&rq, evsel);
}

/* perf's check: known letters, no letter twice except p (at most 3), at most 15 letters */
static int check_modifiers(struct pe_ctx *ctx, int start, int end)
{
	const char *s = ctx->str + start;
	int len = end - start, np = 0;

	for (int i = 0; i < len; i++) {
		if (!strchr(MODIFIER_CHARS, s[i]) || !s[i]) {
			pe_error(ctx, start - 1 >= 0 ? start - 1 : 0, NULL, "parser error");
			return -EINVAL;
		}
	}
	for (int i = 0; i < len; i++) {
		if (s[i] == 'p')
			np++;
		else if (memchr(s + i + 1, s[i], len - i - 1))
			goto bad;
	}
	if (np > 3 || len > 15)
		goto bad;
	return 0;
bad:
	pe_error(ctx, start, NULL, "Bad modifier");
	return -EINVAL;
}

static bool all_modifier_chars(const char *s, size_t len)
{
	if (!len)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!strchr(MODIFIER_CHARS, s[i]) || !s[i])
			return false;
	return true;
}

static bool is_raw_name(const char *s, size_t len, u64 *config)
{
	u64 v = 0;

	if (len < 2 || s[0] != 'r' || len > 17)
		return false;
	for (size_t i = 1; i < len; i++) {
		int d = hex_digit(s[i]);

		if (d < 0)
			return false;
		v = v * 16 + d;
	}
	*config = v;
	return true;
}

/* a name the lexer would take as a fixed event (not a tracepoint subsystem) */
static bool is_fixed_event_name(const char *s, size_t len)
{
	u32 type;
	u64 config;

	return event_symbol_find(s, len, &type, &config) || tool_event_find(s, len) ||
	       hw_cache_parse(s, len, &config) != 0 || is_raw_name(s, len, &config);
}

/* whether "sys:ev" (ev being all modifier letters, like "sched:upp") names a tracepoint */
static bool is_real_tracepoint(const char *sys, size_t slen, const char *ev, const char *ev_end)
{
	char *a = xstrndup(sys, slen), *b = xstrndup(ev, ev_end - ev);
	bool ok = !is_fixed_event_name(sys, slen) && tracefs_event_id(a, b) >= 0;

	free(a);
	free(b);
	return ok;
}

static char *tracepoint_help(const char *sys, const char *name, int err)
{
	const char *dir = tracefs_events_dir();

	if (!tracefs_root())
		return xstrdup("Error:\tUnable to find debugfs/tracefs\n"
			       "Hint:\tWas your kernel compiled with debugfs/tracefs support?\n"
			       "Hint:\tIs the debugfs/tracefs filesystem mounted?\n"
			       "Hint:\tTry 'sudo mount -t debugfs nodev /sys/kernel/debug'");
	if (err == -EACCES)
		return xasprintf("Error:\tNo permissions to read %s/%s/%s\n"
				 "Hint:\tTry 'sudo mount -o remount,mode=755 %s/'\n",
				 dir, sys, name, tracefs_root());
	if (!strncmp(sys, "sdt_", 4)) /* perf: an SDT event needs perf probe first */
		return xasprintf("Error:\tFile %s/%s/%s not found.\n"
				 "Hint:\tSDT event cannot be directly recorded on.\n"
				 "\tPlease first use 'perf probe %s:%s' before recording it.\n",
				 dir, sys, name, sys, name);
	return xasprintf("Error:\tFile %s/%s/%s not found.\n"
			 "Hint:\tPerhaps this kernel misses some CONFIG_ setting to enable this feature?.\n",
			 dir, sys, name);
}

static struct evsel *new_tracepoint(const char *sys, const char *name, int id)
{
	struct evsel *evsel = new_evsel(PERF_TYPE_TRACEPOINT, (u64)id);

	evsel->attr.sample_period = 1;
	evsel->attr.sample_type = PERF_SAMPLE_RAW | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
				  PERF_SAMPLE_PERIOD;
	evsel->tp_id = id;
	evsel->name = xasprintf("%s:%s", sys, name);
	return evsel;
}

/*
 * sys:name with globs on either side: one evsel per match, in tracefs
 * order like perf. As in perf 6.1, every subsystem the glob matches must
 * give at least one event: the first that gives none is the error
 * ("*:sched_switch" fails on the first subsystem without sched_switch).
 */
static int add_tracepoints(struct pe_ctx *ctx, const char *sys, const char *name, int idx,
			   struct pe_list *out)
{
	struct strvec systems = STRVEC_INIT;
	bool any_sys = false;
	int ret = 0;

	if (!tracefs_root()) {
		pe_error(ctx, idx, tracepoint_help(sys, name, -ENOENT), "unknown tracepoint");
		return -ENOENT;
	}
	if (tracefs_is_glob(sys)) {
		ret = tracefs_list_systems(&systems, false);
		if (ret == -EACCES) {
			/* perf names the pattern it could not read */
			pe_error(ctx, idx, tracepoint_help(sys, name, ret), "can't access trace events");
			strvec_clear(&systems);
			return ret;
		}
		ret = 0;
	} else {
		strvec_push(&systems, sys);
	}
	for (size_t i = 0; i < systems.nr && !ret; i++) {
		const char *s = systems.v[i];
		struct strvec events = STRVEC_INIT;
		int found = 0, err = -ENOENT;

		if (fnmatch(sys, s, 0))
			continue;
		any_sys = true;
		if (!tracefs_is_glob(name)) {
			int id = tracefs_event_id(s, name);

			if (id >= 0) {
				pe_list_add(out, new_tracepoint(s, name, id));
				found = 1;
			}
			err = id;
		} else {
			err = tracefs_list_events(s, &events, false);
			for (size_t j = 0; !err && j < events.nr; j++) {
				int id;

				if (fnmatch(name, events.v[j], 0))
					continue;
				id = tracefs_event_id(s, events.v[j]);
				if (id < 0)
					continue;
				pe_list_add(out, new_tracepoint(s, events.v[j], id));
				found++;
			}
			strvec_clear(&events);
			if (!err)
				err = -ENOENT;
		}
		if (!found) {
			pe_error(ctx, idx, tracepoint_help(s, name, err),
				 err == -EACCES ? "can't access trace events" : "unknown tracepoint");
			ret = err == -EACCES ? -EACCES : -ENOENT;
		}
	}
	strvec_clear(&systems);
	if (!ret && !any_sys) {
		/* no subsystem matched the glob: perf only warns, with no location */
		free(ctx->err->warning);
		ctx->err->warning = xstrdup("WARNING: event parser found nothing");
		ret = -ENOENT;
	}
	return ret;
}

/* a bare name that is an events/ alias of one or more PMUs ("tsc" -> msr/tsc/) */
static int add_pmu_alias_everywhere(struct pe_ctx *ctx, const char *name, struct pe_list *out)
{
	struct strvec pmus = STRVEC_INIT;
	int found = 0, ret = 0;

	pmu_list(&pmus);
	for (size_t i = 0; i < pmus.nr && !ret; i++) {
		struct pmu *pmu = pmu_load(pmus.v[i]);
		struct pe_terms terms = { 0 };
		struct evsel *evsel;

		if (!pmu || !pmu_alias_find(pmu, name)) {
			pmu_free(pmu);
			continue;
		}
		terms.nr = terms.alloc = 1;
		terms.v = xzalloc(sizeof(*terms.v));
		terms.v[0].name = xstrdup(name);
		evsel = new_evsel(pmu->type, 0);
		evsel->pmu_name = xstrdup(pmu->name);
		ret = pe_terms_apply(ctx, evsel, &terms, pmu, false);
		pe_terms_release(&terms);
		if (ret)
			evsel_free(evsel);
		else
			pe_list_add(out, evsel), found++;
		pmu_free(pmu);
	}
	strvec_clear(&pmus);
	return ret ? ret : found;
}

static int parse_bp(struct pe_ctx *ctx, struct pe_event *ev, struct pe_list *out)
{
	const char *s = ctx->str;
	int p = ev->start + 4, q;
	u64 addr, len = 0;
	bool has_len = false;
	int bp_type = 0;
	struct evsel *evsel;

	for (q = p; !is_stop(s[q]) && s[q] != ':'; q++)
		;
	if (!pe_parse_number(s + p, q - p, &addr)) {
		/* a name after "mem:" is blamed on the event, anything else on itself */
		pe_error(ctx, isalnum((unsigned char)s[p]) || s[p] == '_' || !s[p] ? ev->start : p,
			 NULL, "parser error");
		return -EINVAL;
	}
	p = q;
	if (s[p] == '/') {
		for (q = p + 1; !is_stop(s[q]) && s[q] != ':'; q++)
			;
		if (!pe_parse_number(s + p + 1, q - p - 1, &len)) {
			pe_error(ctx, p, NULL, "parser error");
			return -EINVAL;
		}
		has_len = true;
		p = q;
	}
	if (s[p] == ':') {
		for (q = p + 1; s[q] == 'r' || s[q] == 'w' || s[q] == 'x'; q++)
			;
		if (q - p - 1 > 3) {
			pe_error(ctx, p + 1, NULL, "parser error");
			return -EINVAL;
		}
		if (q > p + 1 && q - p - 1 <= 3 && (s[q] == ':' || is_stop(s[q]))) {
			for (int i = p + 1; i < q; i++) {
				int bit = s[i] == 'r' ? HW_BREAKPOINT_R_BIT : s[i] == 'w' ? 2 : 4;

				if (bp_type & bit) {
					pe_error(ctx, p + 1, NULL, "parser error");
					return -EINVAL;
				}
				bp_type |= bit;
			}
			p = q;
		}
	}
	ev->has_mods = false;
	if (s[p] == ':') {
		for (q = p + 1; !is_stop(s[q]); q++)
			;
		ev->has_mods = q > p + 1; /* "mem:0x1000:" has no modifier */
		ev->mods_start = p + 1;
		ev->mods_end = q;
		p = q;
	}
	if (!is_stop(s[p]) || s[p] == '/' || s[p] == '{') {
		pe_error(ctx, p, NULL, "parser error");
		return -EINVAL;
	}
	ev->end = p;
	if (!bp_type)
		bp_type = 3; /* HW_BREAKPOINT_R | HW_BREAKPOINT_W */
	evsel = new_evsel(PERF_TYPE_BREAKPOINT, 0);
	evsel->attr.bp_addr = addr;
	evsel->attr.bp_type = bp_type;
	evsel->attr.bp_len = has_len ? len : (bp_type == 4 ? sizeof(long) : 4);
	evsel->attr.sample_period = 1;
	pe_list_add(out, evsel);
	return 0;
}

/*
 * split_event - find where the event starting at @start ends and its parts.
 * The display name follows perf's lexer: the whole "x/terms/mods" text
 * when there are two slashes, else the text up to the first '/'.
 */
static int split_event(struct pe_ctx *ctx, int start, bool in_group, struct pe_event *ev)
{
	const char *s = ctx->str;
	int p = start;

	memset(ev, 0, sizeof(*ev));
	ev->start = start;
	while (!is_stop(s[p]))
		p++;
	ev->base_end = p;
	if (s[p] == '/') {
		int q = p + 1;
		bool quoted = false;

		while (s[q] && (quoted || s[q] != '/')) {
			if (s[q] == '\'')
				quoted = !quoted;
			q++;
		}
		if (s[q] != '/') {
			/* bison at the end: the start of the next-to-last token */
			int at = start;

			if (q > p + 1) {
				int last_sep = p;

				for (int i = p + 1; i < q; i++)
					if (s[i] == ',' || s[i] == '=' || s[i] == '/')
						last_sep = i;
				at = last_sep;
				if (last_sep == q - 1) {
					/* ends on a separator: the token before it */
					at = last_sep - 1;
					while (at > p + 1 && !strchr(",=/", s[at - 1]))
						at--;
				}
			}
			pe_error(ctx, at, NULL, "parser error");
			return -EINVAL;
		}
		ev->has_terms = true;
		ev->terms_start = p + 1;
		ev->terms_end = q;
		p = q + 1;
		ev->mods_start = p;
		while (!is_stop(s[p]))
			p++;
		ev->mods_end = p;
		ev->has_mods = p > ev->mods_start;
	}
	ev->end = p;
	return 0;
}

/*
 * The display name perf's lexer gives an event: "x/y/z" (the longest match
 * of [^,{}/]+ '/' [^/]* '/' [^,{}/]*) when it matches at the event's start,
 * else the text up to the first '/', ',', '{' or '}'. The middle part may
 * run over later events: "mem:0x1000/8:x,cpu-clock/period=1/" names the
 * breakpoint "mem:0x1000/8:x,cpu-clock/period=1", as perf does.
 */
static char *event_text(struct pe_ctx *ctx, const struct pe_event *ev)
{
	/* from just after the separator in the original string, blanks included */
	const char *s = ctx->orig + (ev->start ? ctx->map[ev->start - 1] + 1 : 0), *p = s, *q;

	while (*p && !strchr(",{}/", *p))
		p++;
	if (*p == '/' && p > s && (q = strchr(p + 1, '/'))) {
		q++;
		while (*q && !strchr(",{}/", *q))
			q++;
		return xstrndup(s, q - s);
	}
	return xstrndup(s, p - s);
}

/*
 * Where perf's parser reports an unknown name: its lexer splits "foo-bar"
 * into foo, '-', bar and bison blames the token before the one it choked
 * on; at the end of the string that is the next-to-last token, before a
 * ',' or '}' the last one. A symbolic name followed by '-' ("cpu-clock-x")
 * fails on that '-', and "--" on its second '-'.
 */
static int unknown_name_idx(struct pe_ctx *ctx, const char *base, size_t blen, int idx)
{
	size_t first_end = 0, i;
	int tok_start = 0, ndash = 0, last_dash = -1;
	u32 type;
	u64 config;

	(void)ctx;
	/* a cache type ("L1-dcache") is one token for perf's lexer */
	for (int t = 0; t < PERF_COUNT_HW_CACHE_MAX; t++)
		for (int j = 0; j < HW_CACHE_MAX_NAMES && hw_cache_names[t][j]; j++) {
			size_t l = strlen(hw_cache_names[t][j]);

			if (l < blen && l > first_end && base[l] == '-' &&
			    !memcmp(base, hw_cache_names[t][j], l))
				first_end = l;
		}
	if (first_end) {
		/* cache grammar: type, then at most two op/result parts */
		size_t p = first_end, part_start = 0;

		for (int nparts = 0; p < blen && base[p] == '-'; nparts++) {
			size_t m = hw_cache_op_result_len(base + p + 1, blen - p - 1);

			if (nparts == 2)
				return idx + (int)part_start;
			if (!m)
				return idx + (int)p;
			part_start = p + 1;
			p += 1 + m;
		}
		return idx + (int)p;
	}
	for (i = first_end; i < blen; i++) {
		if (base[i] != '-')
			continue;
		if (i && event_symbol_find(base, i, &type, &config))
			return idx;
		if (++ndash == 2)
			return idx + (last_dash == (int)i - 1 ? last_dash : tok_start);
		last_dash = (int)i;
		tok_start = (int)i + 1;
	}
	if (!ndash || last_dash == 0)
		return idx;
	if (!base[blen] || base[blen] == ':')
		return idx + (last_dash == (int)blen - 1 ? 0 : last_dash);
	return idx + tok_start;
}

/*
 * An unknown "name:mods" whose name is one token for perf's lexer (no '-',
 * or one '-' between two word parts, as "energy-psys"): perf 6.1 reports the
 * parser error at the ':' (seen with "nosuch:u", "energy-psys:u").
 */
static bool unknown_modified_name(const char *base, size_t blen)
{
	const char *dash = memchr(base, '-', blen);

	if (base[blen] != ':' || !blen)
		return false;
	if (!dash)
		return true;
	return dash > base && (size_t)(dash - base) + 1 < blen &&
	       !memchr(dash + 1, '-', blen - (size_t)(dash - base) - 1);
}

/* perf's lexer name token: [a-zA-Z_*?[]][a-zA-Z0-9_*?.[]!]* */
static bool is_pmu_name_token(const char *s)
{
	if (!*s || !(isalpha((unsigned char)*s) || strchr("_*?[]", *s)))
		return false;
	for (s++; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("_*?.[]!", *s))
			return false;
	return true;
}

/* the base name (before '/' or the modifiers) into a pmu, symbolic, cache, raw or tracepoint */
static int add_base(struct pe_ctx *ctx, const char *base, size_t blen, int idx,
		    struct pe_terms *terms, bool has_terms, struct pe_list *out, bool *named)
{
	u32 type;
	u64 config;
	enum tool_event tool;
	const char *colon = memchr(base, ':', blen);
	struct evsel *evsel = NULL;
	char *name;
	int ret;

	*named = false;
	if (colon) {
		char *sys = xstrndup(base, colon - base);
		char *ev = xstrndup(colon + 1, blen - (colon - base) - 1);
		int first = out->nr;

		if (!*sys || !*ev || is_fixed_event_name(base, colon - base) || strchr(ev, ':')) {
			const char *c2 = strchr(ev, ':');
			int at = idx + (int)(colon - base);

			/* where bison gives up, as perf reports it */
			if (!*ev || c2 == ev)
				at = is_fixed_event_name(base, colon - base) || c2 == ev ? at : idx;
			else if (is_fixed_event_name(base, colon - base))
				at += all_modifier_chars(ev, c2 ? (size_t)(c2 - ev) : strlen(ev)) ? 1 : 0;
			else if (c2)
				at += 1 + (int)(c2 - ev);
			pe_error(ctx, at, NULL, "parser error");
			free(sys);
			free(ev);
			return -EINVAL;
		}
		ret = add_tracepoints(ctx, sys, ev, idx, out);
		free(sys);
		free(ev);
		if (ret)
			return ret;
		*named = true;
		for (int i = first; i < out->nr && has_terms; i++)
			if ((ret = pe_terms_apply(ctx, out->v[i], terms, NULL, true)))
				return ret;
		return 0;
	}
	if (event_symbol_find(base, blen, &type, &config)) {
		evsel = new_evsel(type, config);
	} else if ((tool = tool_event_find(base, blen))) {
		evsel = new_evsel(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY);
		evsel->is_tool_event = true;
	} else if ((ret = hw_cache_parse(base, blen, &config))) {
		if (ret < 0)
			return -EINVAL; /* perf records no located error: only "Run 'perf list'" */
		evsel = new_evsel(PERF_TYPE_HW_CACHE, config);
		/* perf names cache events by their text without modifiers */
		evsel->name = xstrndup(base, blen);
		*named = true;
	} else if (is_raw_name(base, blen, &config)) {
		evsel = new_evsel(PERF_TYPE_RAW, config);
	}
	if (evsel) {
		if (has_terms && (ret = pe_terms_apply(ctx, evsel, terms, NULL, false))) {
			evsel_free(evsel);
			return ret;
		}
		pe_list_add(out, evsel);
		return 0;
	}
	name = xstrndup(base, blen);
	if (has_terms && !is_pmu_name_token(name)) {
		/* not a name for perf's lexer: a syntax error, not an unknown PMU */
		pe_error(ctx, unknown_name_idx(ctx, base, blen, idx), NULL, "parser error");
		free(name);
		return -EINVAL;
	}
	if (has_terms) {
		struct pmu *pmu = pmu_load(name);

		if (!pmu) {
			/* perf 6.1 points this error at the start of the whole string */
			pe_error(ctx, 0, NULL, "Cannot find PMU `%s'. Missing kernel support?", name);
			free(name);
			return -ENOENT;
		}
		evsel = new_evsel(pmu->type, 0);
		evsel->pmu_name = xstrdup(pmu->name);
		ret = pe_terms_apply(ctx, evsel, terms, pmu, false);
		pmu_free(pmu);
		free(name);
		if (ret) {
			evsel_free(evsel);
			return ret;
		}
		pe_list_add(out, evsel);
		return 0;
	}
	ret = add_pmu_alias_everywhere(ctx, name, out);
	free(name);
	if (ret > 0)
		return 0;
	if (ret == 0)
		pe_error(ctx, unknown_modified_name(base, blen) ? idx + (int)blen :
				unknown_name_idx(ctx, base, blen, idx), NULL, "parser error");
	return ret ? ret : -EINVAL;
}

/*
 * "L1-dcacheu": a cache type spelled with a '-' (which no plain name can
 * contain) followed directly by modifier letters. Returns the length of
 * the cache type, or 0.
 */
static size_t glued_cache_mods(const char *s, size_t len)
{
	for (int t = 0; t < PERF_COUNT_HW_CACHE_MAX; t++)
		for (int j = 0; j < HW_CACHE_MAX_NAMES && hw_cache_names[t][j]; j++) {
			const char *name = hw_cache_names[t][j];
			size_t l = strlen(name);

			if (l < len && strchr(name, '-') && !memcmp(s, name, l) &&
			    all_modifier_chars(s + l, len - l))
				return l;
		}
	return 0;
}

/*
 * The start of the last token of an event as perf's lexer cuts it: the
 * modifiers, the closing '/', the part after the last ':' or '-' of a
 * name (symbolic names are one token).
 */
static int last_token_start(struct pe_ctx *ctx, const struct pe_event *ev, int base_end)
{
	const char *s = ctx->str;
	u32 type;
	u64 config;

	if (ev->has_mods)
		return ev->mods_start;
	if (ev->has_terms)
		return ev->terms_end;
	if (event_symbol_find(s + ev->start, base_end - ev->start, &type, &config) ||
	    tool_event_find(s + ev->start, base_end - ev->start))
		return ev->start;
	for (int i = base_end - 1; i > ev->start; i--)
		if (s[i] == ':' || s[i] == '-' || s[i] == '/')
			return i + 1;
	return ev->start;
}

/* one event (not a group) starting at *@pos; appends its evsels to @out */
static int parse_event(struct pe_ctx *ctx, int *pos, bool in_group, struct pe_list *out)
{
	const char *s = ctx->str;
	struct pe_event ev;
	struct pe_terms terms = { 0 };
	int first = out->nr, ret, base_end;
	bool named = false;
	char *text;

	if (is_stop(s[*pos])) {
		/*
		 * bison blames the token before: the previous ',' (1 at the very
		 * start); a nested '{' is blamed on itself (perf's lexer matched
		 * it as the start of a group)
		 */
		int at = *pos > 0 && s[*pos - 1] == ',' ? *pos - 1 : 1;

		if (s[*pos] == '{' && in_group)
			at = *pos;
		pe_error(ctx, at, NULL, "parser error");
		return -EINVAL;
	}
	if (!strncmp(s + *pos, "mem:", 4)) {
		memset(&ev, 0, sizeof(ev));
		ev.start = *pos;
		ret = parse_bp(ctx, &ev, out);
		if (!ret && ev.has_mods)
			ret = check_modifiers(ctx, ev.mods_start, ev.mods_end);
		if (ret)
			return ret;
		for (base_end = ev.start; !is_stop(s[base_end]); base_end++)
			;
		ev.base_end = base_end;
		goto finish;
	}
	ret = split_event(ctx, *pos, in_group, &ev);
	if (ret)
		return ret;
	base_end = ev.base_end;
	if (!ev.has_terms) {
		/* "name:mods" or "sys:event[:mods]": a trailing run of modifier letters */
		const char *last = NULL;

		for (const char *c = s + ev.start; c < s + ev.base_end; c++)
			if (*c == ':')
				last = c;
		if (last && all_modifier_chars(last + 1, s + ev.base_end - last - 1)) {
			const char *first_colon = memchr(s + ev.start, ':', last - (s + ev.start) + 1);

			/* "sched:upp" stays a tracepoint; "cs:u" and "sys:ev:u" carry modifiers */
			if (first_colon != last || !is_real_tracepoint(s + ev.start, last - s - ev.start,
								       last + 1, s + ev.base_end)) {
				base_end = last - s;
				ev.has_mods = true;
				ev.mods_start = last - s + 1;
				ev.mods_end = ev.base_end;
			}
		}
		/* perf's lexer lets modifiers follow a dashed cache type directly: "L1-dcacheu" */
		if (!ev.has_mods) {
			size_t plen = glued_cache_mods(s + ev.start, base_end - ev.start);

			if (plen) {
				ev.has_mods = true;
				ev.mods_start = ev.start + (int)plen;
				ev.mods_end = base_end;
				base_end = ev.mods_start;
			}
		}
		/* perf takes "cs:" as "cs" with no modifier */
		if (!ev.has_mods && base_end - 1 > ev.start && s[base_end - 1] == ':' &&
		    is_fixed_event_name(s + ev.start, base_end - 1 - ev.start))
			base_end--;
	} else {
		ret = pe_terms_parse(ctx, s + ev.terms_start, ev.terms_end - ev.terms_start,
				     ev.terms_start, &terms);
		if (ret) {
			pe_terms_release(&terms);
			return ret;
		}
	}
	/* perf resolves "pmu/terms/" before it looks at what follows the '/' */
	if (!ev.has_terms && ev.has_mods && (ret = check_modifiers(ctx, ev.mods_start, ev.mods_end))) {
		pe_terms_release(&terms);
		return ret;
	}
	ret = add_base(ctx, s + ev.start, base_end - ev.start, ev.start, &terms, ev.has_terms, out,
		       &named);
	pe_terms_release(&terms);
	if (!ret && ev.has_terms && ev.has_mods)
		ret = check_modifiers(ctx, ev.mods_start, ev.mods_end);
	if (ret) {
		while (out->nr > first)
			evsel_free(out->v[--out->nr]);
		return ret;
	}
finish:
	text = event_text(ctx, &ev);
	for (int i = first; i < out->nr; i++) {
		struct evsel *evsel = out->v[i];

		if (ev.has_mods)
			apply_modifiers(evsel, s + ev.mods_start, ev.mods_end - ev.mods_start);
		else {
			evsel->attr.exclude_guest = parse_events_plain_sides.exclude_guest;
			evsel->attr.exclude_host = parse_events_plain_sides.exclude_host;
			evsel->guest_off_implicit = parse_events_plain_sides.exclude_guest;
		}
		if (!evsel->name && !named)
			evsel->name = xstrdup(text);
	}
	free(text);
	ctx->last_tok = last_token_start(ctx, &ev, base_end);
	*pos = ev.end;
	return 0;
}

static void set_group(struct pe_list *l, int first, const char *name)
{
	struct evsel *leader = l->v[first];

	for (int i = first; i < l->nr; i++) {
		l->v[i]->leader = leader;
		if (i > first) {
			/* perf's final attrs: only the leader is pinned/exclusive */
			l->v[i]->attr.pinned = 0;
			l->v[i]->attr.exclusive = 0;
		}
	}
	leader->nr_members = l->nr - first;
	if (name && *name)
		leader->group_name = xstrdup(name);
}

/* "[name]{ev,ev,...}[:mods]" at *@pos (on the '{' or its name) */
static int parse_group(struct pe_ctx *ctx, int *pos, int brace, struct pe_list *out, int *nr_groups)
{
	const char *s = ctx->str;
	int p = brace + 1, first = out->nr, ret;
	char *name = xstrndup(s + *pos, brace - *pos);
	char *colon = strchr(name, ':');

	if (colon) {
		/* "cycles:{k,u}": perf's parser stops at the ':' */
		pe_error(ctx, *pos + (int)(colon - name), NULL, "parser error");
		free(name);
		return -EINVAL;
	}
	if (*name && !is_pmu_name_token(name)) {
		/* a group name is one name token for perf's lexer */
		pe_error(ctx, *pos, NULL, "parser error");
		free(name);
		return -EINVAL;
	}

	for (;;) {
		ret = parse_event(ctx, &p, true, out);
		if (ret)
			goto out;
		if (s[p] == ',') {
			p++;
			continue;
		}
		if (s[p] == '}')
			break;
		pe_error(ctx, p, NULL, "parser error");
		ret = -EINVAL;
		goto out;
	}
	ctx->last_tok = p;
	p++;
	if (s[p] == ':') {
		int m = p + 1;

		ctx->last_tok = p + 1;
		while (!is_stop(s[m]))
			m++;
		ret = check_modifiers(ctx, p + 1, m);
		if (ret)
			goto out;
		for (int i = first; i < out->nr; i++)
			apply_modifiers(out->v[i], s + p + 1, m - p - 1);
		p = m;
	}
	if (s[p] && s[p] != ',') {
		pe_error(ctx, ctx->last_tok, NULL, "parser error");
		ret = -EINVAL;
		goto out;
	}
	set_group(out, first, name);
	(*nr_groups)++;
	*pos = p;
out:
	free(name);
	return ret;
}

static int parse_clean(struct pe_ctx *ctx, struct evlist *evlist);

static bool is_word_char(int c)
{
	return isalnum(c) || c == '_' || c == '*' || c == '?' || c == '.';
}

/*
 * An error offset in the blank-free string back to the given one. An event
 * start right after ',' or '{' maps to just after that separator: perf's
 * lexer counts the blanks there as the start of the event.
 */
static int map_back(const char *clean, const int *map, size_t n, int idx)
{
	if (idx < 0 || idx > (int)n)
		return idx;
	if (idx > 0 && (clean[idx - 1] == ',' || clean[idx - 1] == '{'))
		return map[idx - 1] + 1;
	return map[idx];
}

/* the offset of blanks that separate two name characters (outside quotes), or -1 */
static int blank_inside_token(const char *s)
{
	bool quoted = false;

	for (int i = 0; s[i]; i++) {
		int j = i;

		if (s[i] == '\'')
			quoted = !quoted;
		if (quoted || (s[i] != ' ' && s[i] != '\t'))
			continue;
		while (s[j] == ' ' || s[j] == '\t')
			j++;
		if (i > 0 && is_word_char((unsigned char)s[i - 1]) && is_word_char((unsigned char)s[j]))
			return i;
		i = j - 1;
	}
	return -1;
}

/*
 * perf's lexer skips blanks between tokens but its event-name pattern keeps
 * them ("cs, faults" counts " faults"): parse a copy without blanks (outside
 * quotes) and map positions back for errors and names.
 */
int parse_events_flags(struct evlist *evlist, const char *orig, struct parse_events_error *err,
		       unsigned int flags)
{
	struct parse_events_error local = PARSE_EVENTS_ERROR_INIT;
	struct pe_ctx ctx = { .orig = orig, .flags = flags, .err = err ? err : &local };
	size_t len = strlen(orig), n = 0;
	char *clean = xmalloc(len + 1);
	int *map = xmalloc((len + 1) * sizeof(*map));
	int nr_before = ctx.err->nr_reports, ret;
	bool quoted = false;

	for (size_t i = 0; i < len; i++) {
		if (orig[i] == '\'')
			quoted = !quoted;
		if (!quoted && (orig[i] == ' ' || orig[i] == '\t'))
			continue;
		map[n] = (int)i;
		clean[n++] = orig[i];
	}
	clean[n] = 0;
	map[n] = (int)len;
	ctx.str = clean;
	ctx.map = map;
	ret = blank_inside_token(orig);
	if (ret >= 0) {
		/* "cs faults", "name=a b": two names in a row, blamed on the blank */
		pe_error(&ctx, ret, NULL, "parser error");
		free(ctx.err->event);
		ctx.err->event = xstrdup(orig);
		free(clean);
		free(map);
		parse_events_error_release(&local);
		return -EINVAL;
	}
	ret = parse_clean(&ctx, evlist);
	/* the reports this call made point into the blank-free copy */
	for (int i = nr_before; ret && n != len && i < ctx.err->nr_reports; i++)
		ctx.err->reports[i].at = map_back(clean, map, n, ctx.err->reports[i].at);
	free(clean);
	free(map);
	parse_events_error_release(&local);
	return ret;
}

static int parse_clean(struct pe_ctx *ctx_in, struct evlist *evlist)
{
	struct pe_ctx ctx = *ctx_in;
	const char *str = ctx.str;
	struct pe_list list = { 0 };
	int pos = 0, ret = 0, nr_groups = 0;

	if (!*str) {
		/* perf points one past the empty string */
		pe_error(&ctx, 1, NULL, "parser error");
		ret = -EINVAL;
		goto out;
	}
	for (;;) {
		int q = pos;

		while (!is_stop(str[q]))
			q++;
		if (str[q] == '{')
			ret = parse_group(&ctx, &pos, q, &list, &nr_groups);
		else
			ret = parse_event(&ctx, &pos, false, &list);
		if (ret)
			break;
		if (!str[pos])
			break;
		if (str[pos] != ',' ) {
			pe_error(&ctx, ctx.last_tok, NULL, "parser error");
			ret = -EINVAL;
			break;
		}
		pos++;
		if (!str[pos]) {
			/* at the end, bison blames the last token before the comma */
			pe_error(&ctx, ctx.last_tok, NULL, "parser error");
			ret = -EINVAL;
			break;
		}
	}
out:
	if (ret) {
		if (ret > 0)
			ret = -EINVAL;
		pe_list_free(&list);
		free(ctx.err->event);
		ctx.err->event = xstrdup(ctx.orig);
		return ret;
	}
	for (int i = 0; i < list.nr; i++)
		evlist_add(evlist, list.v[i]);
	evlist->nr_groups += nr_groups;
	free(list.v);
	return 0;
}

int parse_events(struct evlist *evlist, const char *str, struct parse_events_error *err)
{
	return parse_events_flags(evlist, str, err, 0);
}

/* the farthest column, within the quoted text, that a caret may sit at */
#define CARET_MAX_COL 13

/*
 * Lay out one report: the event text in quotes, shifted left when the
 * reported offset is far in (and cut at the right to fit @width), ".." where
 * text was dropped, then the "\\___ reason" pointer line and any help.
 */
static void format_report(const char *event, const struct parse_events_report *r, int width,
			  struct strbuf *out)
{
	static const char lead[] = "event syntax error: ";
	int lead_len = (int)sizeof(lead) - 1;
	int text_len = (int)strlen(event);
	int room = width - 2 - lead_len;
	int shift = r->at > CARET_MAX_COL ? r->at - CARET_MAX_COL : 0;
	int shown, pad;
	char *window;

	if (room < 4)
		room = 4;
	if (shift > text_len)
		shift = text_len;
	shown = text_len - shift < room ? text_len - shift : room;
	window = xstrndup(event + shift, shown);
	if (shift > 0 && shown >= 2)
		memcpy(window, "..", 2);
	if (text_len - shift > room)
		memcpy(window + shown - 2, "..", 2);
	strbuf_addf(out, "%s'%s'\n", lead, window);
	free(window);
	/* the pointer starts under the character at r->at (one past the quote) */
	pad = lead_len + 1 + r->at - shift;
	strbuf_addchars(out, ' ', pad > 0 ? (size_t)pad : 0);
	strbuf_addf(out, "\\___ %s\n", r->reason ? r->reason : "");
	if (r->help)
		strbuf_addf(out, "\n%s\n", r->help);
}

void parse_events_error_format(const struct parse_events_error *err, int width,
			       struct strbuf *out)
{
	const char *event = err->event ? err->event : "";

	if (!err->nr_reports) {
		if (err->warning)
			strbuf_addf(out, "%s\n", err->warning);
		return;
	}
	format_report(event, parse_events_error_latest(err), width, out);
	if (err->nr_reports > 1) {
		strbuf_addstr(out, "\nInitial error:\n");
		format_report(event, &err->reports[0], width, out);
	}
}
