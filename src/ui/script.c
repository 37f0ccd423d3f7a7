/* SPDX-License-Identifier: MIT */
/* perf script field selection, validation and the buffered sample printer. */
#include "ui/script.h"

#include "core/evlist.h"
#include "core/evsel.h"
#include "lib/xalloc.h"
#include "trace/tep.h"

#include <errno.h>
#include <stddef.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *const field_names[SF_MAX] = {
	[SF_COMM] = "comm", [SF_TID] = "tid", [SF_PID] = "pid", [SF_TIME] = "time",
	[SF_CPU] = "cpu", [SF_EVNAME] = "event", [SF_TRACE] = "trace", [SF_IP] = "ip",
	[SF_SYM] = "sym", [SF_DSO] = "dso", [SF_ADDR] = "addr", [SF_SYMOFF] = "symoff",
	[SF_SRCLINE] = "srcline", [SF_PERIOD] = "period", [SF_IREGS] = "iregs",
	[SF_UREGS] = "uregs", [SF_BRSTACK] = "brstack", [SF_BRSTACKSYM] = "brstacksym",
	[SF_DATA_SRC] = "data_src", [SF_WEIGHT] = "weight", [SF_BPF_OUTPUT] = "bpf-output",
	[SF_BRSTACKINSN] = "brstackinsn", [SF_BRSTACKINSNLEN] = "brstackinsnlen",
	[SF_BRSTACKOFF] = "brstackoff", [SF_CALLINDENT] = "callindent", [SF_INSN] = "insn",
	[SF_INSNLEN] = "insnlen", [SF_SYNTH] = "synth", [SF_PHYS_ADDR] = "phys_addr",
	[SF_METRIC] = "metric", [SF_MISC] = "misc", [SF_SRCCODE] = "srccode", [SF_IPC] = "ipc",
	[SF_TOD] = "tod", [SF_DATA_PAGE_SIZE] = "data_page_size",
	[SF_CODE_PAGE_SIZE] = "code_page_size", [SF_INS_LAT] = "ins_lat",
};

const char *script_field_name(int field)
{
	return field >= 0 && field < SF_MAX ? field_names[field] : "unknown";
}

const char *script_otype_name(int otype)
{
	switch (otype) {
	case SOT_HW:
		return "hardware";
	case SOT_SW:
		return "software";
	case SOT_TRACE:
		return "tracepoint";
	case SOT_HWCACHE:
		return "hardware-cache";
	default:
		/* perf 6.1 names the other kinds "unknown" in its messages */
		return "unknown";
	}
}

/* perf's synthesized-event attr type (PERF_TYPE_SYNTH) */
#define ATTR_TYPE_SYNTH 3000000000U

int script_otype_of(u32 attr_type)
{
	if (attr_type == ATTR_TYPE_SYNTH)
		return SOT_SYNTH;
	if (attr_type < PERF_TYPE_MAX)
		return (int)attr_type;
	return SOT_OTHER;
}

#define SYMBOLISED (SFB(IP) | SFB(SYM) | SFB(SYMOFF) | SFB(DSO))
#define HEAD_FIELDS (SFB(COMM) | SFB(TID) | SFB(CPU) | SFB(TIME) | SFB(EVNAME))

void script_config_init(struct script_config *cfg)
{
	int i;

	memset(cfg, 0, sizeof(*cfg));
	for (i = 0; i < SOT_MAX; i++) {
		cfg->out[i].fields = HEAD_FIELDS | SYMBOLISED | SFB(PERIOD);
		cfg->out[i].not_allowed = SFB(TRACE) | SFB(BPF_OUTPUT);
	}
	cfg->out[SOT_SW].fields |= SFB(BPF_OUTPUT);
	cfg->out[SOT_SW].not_allowed = SFB(TRACE);
	cfg->out[SOT_TRACE].fields = HEAD_FIELDS | SFB(TRACE);
	cfg->out[SOT_TRACE].not_allowed = 0;
	cfg->out[SOT_RAW].fields |= SFB(ADDR) | SFB(DATA_SRC) | SFB(WEIGHT) | SFB(PHYS_ADDR) |
				    SFB(DATA_PAGE_SIZE) | SFB(CODE_PAGE_SIZE) | SFB(INS_LAT);
	cfg->out[SOT_SYNTH].fields = HEAD_FIELDS | SYMBOLISED | SFB(SYNTH);
	cfg->use_callchain = true;
	cfg->max_stack = 127;
}

static bool any_chosen(const struct script_config *cfg)
{
	for (int j = 0; j < SOT_MAX; j++)
		if (cfg->out[j].chosen)
			return true;
	return false;
}

/* the "kind:" prefixes of -F */
static const struct {
	const char *prefix;
	int kind;
} field_kinds[] = {
	{ "hw", SOT_HW }, { "sw", SOT_SW }, { "trace", SOT_TRACE },
	{ "raw", SOT_RAW }, { "break", SOT_BREAK }, { "synth", SOT_SYNTH },
};

static int field_by_name(const char *name)
{
	for (int f = 0; f < SF_MAX; f++)
		if (!strcmp(name, field_names[f]))
			return f;
	return -1;
}

/*
 * start_field_list - what a -F list does before its fields are read: a
 * list without any '+' or '-' replaces the selection (of @kind, or of
 * every kind when @kind < 0), one with them edits it. Returns -1 when the
 * list may not be used.
 */
static int start_field_list(struct script_config *cfg, int kind, const char *list,
			    struct strbuf *msg)
{
	bool replaces = !strpbrk(list, "+-");

	if (kind >= 0) {
		if (cfg->out[kind].chosen)
			strbuf_addf(msg, "Overriding previous field request for %s events.\n",
				    script_otype_name(kind));
		if (replaces) {
			cfg->out[kind].fields = 0;
			cfg->out[kind].chosen = true;
			cfg->out[kind].chosen_for_all = false;
		}
		return 0;
	}
	if (!*list) {
		strbuf_addstr(msg, "Cannot set fields to 'none' for all event types.\n");
		return -1;
	}
	if (replaces) {
		if (any_chosen(cfg))
			strbuf_addstr(msg, "Overriding previous field request for all events.\n");
		for (int j = 0; j < SOT_MAX; j++) {
			cfg->out[j].fields = 0;
			cfg->out[j].chosen = true;
			cfg->out[j].chosen_for_all = true;
		}
	}
	return 0;
}

/*
 * put_field - add (or with @drop take away) field @f for @kind, or for every
 * kind that allows it when @kind < 0 (those are also remembered as asked
 * for, so that a file without them is an error rather than a quiet drop).
 */
static int put_field(struct script_config *cfg, int kind, int f, bool drop, struct strbuf *msg)
{
	u64 bit = 1ULL << f;

	if (kind >= 0) {
		struct script_output *o = &cfg->out[kind];

		if (o->not_allowed & bit) {
			strbuf_addf(msg, "'%s' not valid for %s events.\n", field_names[f],
				    script_otype_name(kind));
			return -1;
		}
		o->fields = drop ? o->fields & ~bit : o->fields | bit;
		o->chosen = o->chosen_for_all = true;
		return 0;
	}
	for (int j = 0; j < SOT_MAX; j++) {
		struct script_output *o = &cfg->out[j];

		if (o->not_allowed & bit) {
			strbuf_addf(msg, "'%s' not valid for %s events. Ignoring.\n", field_names[f],
				    script_otype_name(j));
			continue;
		}
		o->fields = drop ? o->fields & ~bit : o->fields | bit;
		o->asked = drop ? o->asked & ~bit : o->asked | bit;
		o->chosen = o->chosen_for_all = true;
	}
	return 0;
}

int script_parse_fields(struct script_config *cfg, const char *arg, struct strbuf *msg)
{
	char *copy = xstrdup(arg), *list = copy, *colon = strchr(copy, ':'), *save = NULL;
	bool signed_seen = false, plain_seen = false;
	int kind = -1, rc = -1;

	if (colon) {
		*colon = 0;
		list = colon + 1;
		for (size_t i = 0; i < ARRAY_SIZE(field_kinds); i++)
			if (!strcmp(copy, field_kinds[i].prefix))
				kind = field_kinds[i].kind;
		if (kind < 0) {
			strbuf_addstr(msg, "Invalid event type in field string.\n");
			goto done;
		}
	}
	if (start_field_list(cfg, kind, list, msg))
		goto done;
	for (char *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		bool is_signed = *tok == '+' || *tok == '-';
		bool drop = *tok == '-';
		int f;

		/* "+a,-b" edits and "a,b" replaces; one list cannot do both */
		if (is_signed ? plain_seen : signed_seen) {
			strbuf_addstr(msg, "Cannot mix +-field with overridden fields\n");
			goto done;
		}
		signed_seen |= is_signed;
		plain_seen |= !is_signed;
		tok += is_signed;
		f = field_by_name(tok);
		if (f < 0 && !strcmp(tok, "flags")) {
			cfg->print_flags = !drop;
			continue;
		}
		if (f < 0) {
			strbuf_addstr(msg, "Invalid field requested.\n");
			goto done;
		}
		if (put_field(cfg, kind, f, drop, msg))
			goto done;
	}
	rc = 0;
done:
	free(copy);
	return rc;
}

/*
 * struct field_rule - what the selected fields need from the event they are
 * printed for. When one of @fields is selected the event must have one of
 * the @sample bits (when given) and the @with fields selected (when given).
 * When it does not: with @why, that text is the error; otherwise the fields
 * are dropped quietly, unless the user named one (then perf's "Samples for
 * ... do not have <attr> attribute set" error, naming the first of @names
 * the user asked for).
 */
struct field_rule {
	u64 fields;
	u64 sample;
	u64 with;
	const char *attr;
	int names[2];
	const char *why;
};

#define NEED_ATTR(f, bits, a) { SFB(f), bits, 0, a, { SF_##f, -1 }, NULL }

/* the rules in the order they are applied: the first failure is the one reported */
static const struct field_rule field_rules[] = {
	NEED_ATTR(IP, PERF_SAMPLE_IP, "IP"),
	NEED_ATTR(ADDR, PERF_SAMPLE_ADDR, "ADDR"),
	NEED_ATTR(DATA_SRC, PERF_SAMPLE_DATA_SRC, "DATA_SRC"),
	NEED_ATTR(WEIGHT, PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT, "WEIGHT"),
	{ SFB(SYM), PERF_SAMPLE_IP | PERF_SAMPLE_ADDR, 0, NULL, { -1, -1 },
	  "Display of symbols requested but neither sample IP nor sample address\n"
	  "available. Hence, no addresses to convert to symbols.\n" },
	{ SFB(SYMOFF), 0, SFB(SYM), NULL, { -1, -1 },
	  "Display of offsets requested but symbol is notselected.\n" /* sic */ },
	{ SFB(DSO), PERF_SAMPLE_IP | PERF_SAMPLE_ADDR, 0, NULL, { -1, -1 },
	  "Display of DSO requested but no address to convert.\n" },
	{ SFB(SRCLINE), 0, SFB(IP), NULL, { -1, -1 },
	  "Display of source line number requested but sample IP is not\n"
	  "selected. Hence, no address to lookup the source line number.\n" },
	{ SFB(PID) | SFB(TID), PERF_SAMPLE_TID, 0, "TID", { SF_TID, SF_PID }, NULL },
	NEED_ATTR(TIME, PERF_SAMPLE_TIME, "TIME"),
	NEED_ATTR(CPU, PERF_SAMPLE_CPU, "CPU"),
	NEED_ATTR(IREGS, PERF_SAMPLE_REGS_INTR, "IREGS"),
	NEED_ATTR(UREGS, PERF_SAMPLE_REGS_USER, "UREGS"),
	NEED_ATTR(PHYS_ADDR, PERF_SAMPLE_PHYS_ADDR, "PHYS_ADDR"),
	NEED_ATTR(DATA_PAGE_SIZE, PERF_SAMPLE_DATA_PAGE_SIZE, "DATA_PAGE_SIZE"),
	NEED_ATTR(CODE_PAGE_SIZE, PERF_SAMPLE_CODE_PAGE_SIZE, "CODE_PAGE_SIZE"),
	NEED_ATTR(INS_LAT, PERF_SAMPLE_WEIGHT_STRUCT, "WEIGHT_STRUCT"),
};

/*
 * fields_fit_event - apply field_rules to the fields @o selects for @evsel
 * (the first event of its kind): drop what it cannot give, or explain in
 * @msg and return -1 when the user asked for it.
 */
static int fields_fit_event(struct script_output *o, const struct evsel *evsel,
			    struct strbuf *msg)
{
	u64 st = evsel->attr.sample_type;

	/* "trace" is a default only tracepoints keep */
	if (evsel->attr.type != PERF_TYPE_TRACEPOINT && !(o->asked & SFB(TRACE)))
		o->fields &= ~SFB(TRACE);
	for (size_t i = 0; i < ARRAY_SIZE(field_rules); i++) {
		const struct field_rule *r = &field_rules[i];
		int name = -1;

		if (!(o->fields & r->fields))
			continue;
		if ((!r->sample || (st & r->sample)) && (o->fields & r->with) == r->with)
			continue;
		if (r->why) {
			strbuf_addstr(msg, r->why);
			return -1;
		}
		for (int k = 1; k >= 0; k--)
			if (r->names[k] >= 0 && (o->asked & (1ULL << r->names[k])))
				name = r->names[k];
		if (name < 0) {
			o->fields &= ~r->fields;
			continue;
		}
		strbuf_addf(msg,
			    "Samples for '%s' event do not have %s attribute set. Cannot print '%s' field.\n",
			    evsel->name ? evsel->name : "unknown", r->attr, field_names[name]);
		return -1;
	}
	return 0;
}

int script_check_fields(struct script_config *cfg, struct evlist *evlist, bool has_traces,
			struct strbuf *msg)
{
	struct evsel *evsel;
	int j;

	for (j = 0; j < SOT_MAX; j++) {
		struct evsel *first = NULL;

		evlist_for_each_entry(evlist, evsel) {
			if (script_otype_of(evsel->attr.type) == j) {
				first = evsel;
				break;
			}
		}
		if (!first && cfg->out[j].chosen && !cfg->out[j].chosen_for_all && j != SOT_SYNTH) {
			strbuf_addf(msg, "%s events do not exist. Remove corresponding -F option to proceed.\n",
				    script_otype_name(j));
			return -1;
		}
		if (!first || !cfg->out[j].fields)
			continue;
		if ((cfg->out[j].fields & SFB(TRACE)) && !has_traces) {
			strbuf_addstr(msg, "No trace sample to read. Did you call 'perf record -R'?\n");
			return -1;
		}
		if (fields_fit_event(&cfg->out[j], first, msg))
			return -1;
	}
	/* tracepoints recorded with -g show their callchain unless -F says otherwise */
	if (cfg->use_callchain && !cfg->out[SOT_TRACE].chosen) {
		evlist_for_each_entry(evlist, evsel) {
			if (evsel->attr.type == PERF_TYPE_TRACEPOINT &&
			    (evsel->attr.sample_type & PERF_SAMPLE_CALLCHAIN)) {
				cfg->out[SOT_TRACE].fields |= SYMBOLISED;
				break;
			}
		}
	}
	return 0;
}

u64 script_fields_of(const struct script_config *cfg, const struct evsel *evsel)
{
	return cfg->out[script_otype_of(evsel->attr.type)].fields;
}

bool script_wants_callchain(const struct script_config *cfg, const struct evsel *evsel)
{
	return cfg->use_callchain && (evsel->attr.sample_type & PERF_SAMPLE_CALLCHAIN) &&
	       (script_fields_of(cfg, evsel) & SFB(IP));
}

/* ---- buffered output ---- */

#define FLUSH_AT (256 * 1024)

void script_printer_init(struct script_printer *p, const struct script_config *cfg,
			 struct evlist *evlist, int fd)
{
	struct evsel *evsel;

	memset(p, 0, sizeof(*p));
	strbuf_init(&p->buf, FLUSH_AT + 8192);
	p->fd = fd;
	p->cfg = cfg;
	if (evlist) {
		evlist_for_each_entry(evlist, evsel) {
			int n = evsel->name ? (int)strlen(evsel->name) : 9;
			if (n > p->name_width)
				p->name_width = n;
		}
	}
}

int script_printer_flush(struct script_printer *p)
{
	int err = 0;

	if (p->buf.len && !p->write_error) {
		err = write_full(p->fd, p->buf.buf, p->buf.len);
		if (err)
			p->write_error = true;
		else
			p->written += p->buf.len;
	}
	strbuf_reset(&p->buf);
	return err;
}

void script_printer_release(struct script_printer *p)
{
	script_printer_flush(p);
	strbuf_release(&p->buf);
}

static inline char *room(struct strbuf *sb, size_t n)
{
	if (sb->alloc - sb->len <= n)
		strbuf_grow(sb, n);
	return sb->buf + sb->len;
}

static inline void done(struct strbuf *sb, char *end)
{
	sb->len = end - sb->buf;
	*end = 0;
}

static inline void put_str(struct strbuf *sb, const char *s)
{
	size_t n = strlen(s);
	char *q = room(sb, n);

	memcpy(q, s, n);
	done(sb, q + n);
}

static inline void put_ch(struct strbuf *sb, char c)
{
	char *q = room(sb, 1);
	*q++ = c;
	done(sb, q);
}

/* %*s: right-aligned in @w columns */
static void put_str_right(struct strbuf *sb, const char *s, int w)
{
	size_t n = strlen(s);
	char *q = room(sb, n + (w > 0 ? (size_t)w : 0));

	while ((int)n < w--)
		*q++ = ' ';
	memcpy(q, s, n);
	done(sb, q + n);
}

/* the decimal digits of 0..99, two characters each */
static const char dec_pairs[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

/* dec_len - the number of decimal digits of @v */
static inline int dec_len(u64 v)
{
	int n = 1;

	while (v >= 100) {
		v /= 100;
		n += 2;
	}
	return n + (v >= 10);
}

/* dec_write - the @n digits of @v ending at @end (two at a time) */
static inline void dec_write(char *end, u64 v)
{
	while (v >= 100) {
		const char *d = &dec_pairs[(v % 100) * 2];

		v /= 100;
		*--end = d[1];
		*--end = d[0];
	}
	if (v >= 10) {
		*--end = dec_pairs[v * 2 + 1];
		*--end = dec_pairs[v * 2];
	} else {
		*--end = (char)('0' + v);
	}
}

/* %*lu with @w >= 0, or %-*lu with @w < 0 */
static void put_udec(struct strbuf *sb, u64 v, int w)
{
	int n = dec_len(v), pad = (w < 0 ? -w : w) - n;
	char *q = room(sb, 24 + (pad > 0 ? pad : 0));

	if (w > 0)
		while (pad-- > 0)
			*q++ = ' ';
	dec_write(q + n, v);
	q += n;
	if (w < 0)
		while (pad-- > 0)
			*q++ = ' ';
	done(sb, q);
}

static void put_sdec(struct strbuf *sb, s64 v, int w)
{
	if (v < 0) {
		char tmp[32];
		snprintf(tmp, sizeof(tmp), "%*" PRId64, w, v);
		put_str(sb, tmp);
		return;
	}
	put_udec(sb, (u64)v, w);
}

/* %0*lu */
static void put_udec0(struct strbuf *sb, u64 v, int w)
{
	char *q = room(sb, w + 24);
	int n = dec_len(v);

	while (w-- > n)
		*q++ = '0';
	dec_write(q + n, v);
	done(sb, q + n);
}

/* %*lx */
static void put_hex(struct strbuf *sb, u64 v, int w)
{
	static const char hex_pairs[513] =
		"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
		"202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f"
		"404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f"
		"606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f"
		"808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f"
		"a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf"
		"c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedf"
		"e0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";
	int n = v ? (67 - __builtin_clzll(v)) / 4 : 1; /* digits */
	char *q = room(sb, 16 + (w > 0 ? w : 0)), *end, *d;

	while (w-- > n)
		*q++ = ' ';
	end = q + n;
	for (d = end; d - q >= 2; v >>= 8) {
		const char *p = &hex_pairs[(v & 0xff) * 2];

		*--d = p[1];
		*--d = p[0];
	}
	if (d > q)
		*--d = hex_pairs[(v & 15) * 2 + 1];
	done(sb, end);
}

void script_format_time(struct strbuf *sb, u64 t, bool nanosecs)
{
	if (nanosecs) {
		put_udec(sb, t / NSEC_PER_SEC, 5);
		put_ch(sb, '.');
		put_udec0(sb, t % NSEC_PER_SEC, 9);
	} else {
		u64 us = t / NSEC_PER_USEC;
		put_udec(sb, us / 1000000, 0);
		put_ch(sb, '.');
		put_udec0(sb, us % 1000000, 6);
	}
}

static u64 shown_time(struct script_printer *p, u64 t)
{
	if (p->cfg->reltime) {
		if (!p->initial_time)
			p->initial_time = t;
		return t - p->initial_time;
	}
	if (p->cfg->deltatime) {
		u64 d = p->previous_time ? t - p->previous_time : 0;
		p->previous_time = t;
		return d;
	}
	return t;
}

/* the leading columns shared by samples and side-band records */
/* perf's misc column: letters for the cpumode bits and the record's flags, padded to 6 */
static void print_misc(struct strbuf *sb, u16 misc, u32 type)
{
	size_t start = sb->len;
	int n;

	/* perf tests each cpumode value as a bit mask, so USER also matches HYPERVISOR */
#define HAS(m) ((misc & PERF_RECORD_MISC_##m) == PERF_RECORD_MISC_##m)
	if (HAS(KERNEL))
		put_ch(sb, 'K');
	if (HAS(USER))
		put_ch(sb, 'U');
	if (HAS(HYPERVISOR))
		put_ch(sb, 'H');
	if (HAS(GUEST_KERNEL))
		put_ch(sb, 'G');
	if (HAS(GUEST_USER))
		put_ch(sb, 'g');
	switch (type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		if (HAS(MMAP_DATA))
			put_ch(sb, 'M');
		break;
	case PERF_RECORD_COMM:
		if (HAS(COMM_EXEC))
			put_ch(sb, 'E');
		break;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		if (HAS(SWITCH_OUT)) {
			put_ch(sb, 'S');
			if (misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT)
				put_ch(sb, 'p');
		}
		break;
	default:
		break;
	}
#undef HAS
	n = (int)(sb->len - start);
	put_str_right(sb, " ", 6 - n);
}

/* time of day: the header's CLOCK_DATA maps perf time to wall-clock time */
static void print_tod(struct script_printer *p, u64 t)
{
	struct strbuf *sb = &p->buf;
	u64 wall;
	time_t secs;
	struct tm tm;
	char date[64];

	if (!p->has_clock_data) {
		put_str(sb, "0000-00-00 00:00:00 ");
		return;
	}
	wall = p->clock_wall_ns + (t - p->clock_ref_ns);
	secs = (time_t)(wall / NSEC_PER_SEC);
	localtime_r(&secs, &tm);
	strftime(date, sizeof(date), "%Y-%m-%d %H:%M:%S", &tm);
	put_str(sb, date);
	put_ch(sb, '.');
	if (p->cfg->nanosecs)
		put_udec0(sb, wall % NSEC_PER_SEC, 9);
	else
		put_udec0(sb, (wall % NSEC_PER_SEC) / NSEC_PER_USEC, 6);
	put_ch(sb, ' ');
}

static void print_start(struct script_printer *p, u64 f, bool callchain_layout, const char *comm,
			const struct perf_sample *sample, u32 type)
{
	struct strbuf *sb = &p->buf;

	if (f & SFB(COMM)) {
		const char *c = comm ? comm : ":-1";
		if (callchain_layout) {
			put_str(sb, c);
			put_ch(sb, ' ');
		} else {
			put_str_right(sb, c, 16);
			put_ch(sb, ' ');
		}
	}
	if ((f & SFB(PID)) && (f & SFB(TID))) {
		put_sdec(sb, (s32)sample->pid, 5);
		put_ch(sb, '/');
		put_sdec(sb, (s32)sample->tid, -5);
		put_ch(sb, ' ');
	} else if (f & SFB(PID)) {
		put_sdec(sb, (s32)sample->pid, 5);
		put_ch(sb, ' ');
	} else if (f & SFB(TID)) {
		put_sdec(sb, (s32)sample->tid, 5);
		put_ch(sb, ' ');
	}
	if (f & SFB(CPU)) {
		put_ch(sb, '[');
		put_udec0(sb, sample->cpu, 3);
		put_str(sb, "] ");
	}
	if (f & SFB(MISC))
		print_misc(sb, sample->misc, type);
	if (f & SFB(TOD))
		print_tod(p, sample->time);
	if (f & SFB(TIME)) {
		u64 t = shown_time(p, sample->time);

		if (p->cfg->nanosecs) {
			script_format_time(sb, t, true);
		} else {
			/* "secs.usecs" right-aligned in 12 columns */
			u64 us = t / NSEC_PER_USEC;
			u64 secs = us / 1000000;
			int digits = 1;

			for (u64 v = secs; v >= 10; v /= 10)
				digits++;
			put_udec(sb, secs, 12 - 7 > digits ? 12 - 7 : digits);
			put_ch(sb, '.');
			put_udec0(sb, us % 1000000, 6);
		}
		put_str(sb, ": ");
	}
}

static void print_sym_dso(struct strbuf *sb, u64 f, const struct script_frame *fr)
{
	if (f & SFB(SYM)) {
		put_ch(sb, ' ');
		if (fr->sym) {
			put_str(sb, fr->sym);
			if (f & SFB(SYMOFF)) {
				put_str(sb, "+0x");
				put_hex(sb, fr->symoff, 0);
			}
		} else {
			put_str(sb, "[unknown]");
		}
	}
	if ((f & SFB(DSO)) && !fr->inlined) {
		put_str(sb, " (");
		put_str(sb, fr->dso ? fr->dso : "[unknown]");
		put_ch(sb, ')');
	}
	if ((f & SFB(SRCLINE)) && fr->srcline) {
		put_str(sb, "\n  ");
		put_str(sb, fr->srcline);
	}
	if (fr->inlined)
		put_str(sb, " (inlined)");
}

/* ---- data_src: perf's memory access decoding ("|OP LOAD|LVL L1 hit|...") ---- */

#define DS(v, shift, bits) (((v) >> (shift)) & ((1ULL << (bits)) - 1))

/* names of the set bits joined by " or " */
static void add_bits(struct strbuf *sb, u64 m, const char *const *names, int nr, bool *any)
{
	for (int i = 0; m && i < nr; i++, m >>= 1) {
		if (!(m & 1))
			continue;
		if (*any)
			strbuf_addstr(sb, " or ");
		strbuf_addstr(sb, names[i]);
		*any = true;
	}
}

static void decode_data_src(struct strbuf *sb, u64 v)
{
	static const char *const lvl[] = {
		"N/A", "HIT", "MISS", "L1", "LFB/MAB", "L2", "L3", "Local RAM", "Remote RAM (1 hop)",
		"Remote RAM (2 hops)", "Remote Cache (1 hop)", "Remote Cache (2 hops)", "I/O",
		"Uncached",
	};
	static const char *const lvlnum[16] = {
		[0x0a] = "I/O", [0x0b] = "Any cache", [0x0c] = "LFB/MAB", [0x0d] = "RAM",
		[0x0e] = "PMEM",
		[0x0f] = "N/A",
	};
	static const char *const hops[] = {
		"N/A", "core, same node", "node, same socket", "socket, same board", "board",
		"N/A", "N/A", "N/A",
	};
	static const char *const snoop[] = { "N/A", "None", "Hit", "Miss", "HitM" };
	static const char *const snoopx[] = { "Fwd", "Peer" };
	static const char *const tlb[] = { "N/A", "HIT", "MISS", "L1", "L2", "Walker", "Fault" };
	u64 op = DS(v, 0, 5), l = DS(v, 5, 14), snp = DS(v, 19, 5), lck = DS(v, 24, 2);
	u64 dtlb = DS(v, 26, 7), num = DS(v, 33, 4), remote = DS(v, 37, 1);
	u64 snpx = DS(v, 38, 2), blk = DS(v, 40, 3), hop = DS(v, 43, 3);
	size_t start;
	bool any = false;

	strbuf_addstr(sb, "|OP ");
	strbuf_addstr(sb, (op & 1) ? "N/A" : (op & 2) ? "LOAD" : (op & 4) ? "STORE" :
			  (op & 8) ? "PFETCH" : (op & 16) ? "EXEC" : "No");

	strbuf_addstr(sb, "|LVL ");
	start = sb->len;
	if (remote)
		strbuf_addstr(sb, "Remote ");
	if (hop)
		strbuf_addf(sb, "%s ", hops[hop]);
	else
		add_bits(sb, l & ~6ULL, lvl, (int)ARRAY_SIZE(lvl), &any);
	if (num) {
		if (any)
			strbuf_addstr(sb, " or ");
		any = true;
		if (lvlnum[num])
			strbuf_addstr(sb, lvlnum[num]);
		else
			strbuf_addf(sb, "L%d", (int)num);
	}
	if (sb->len == start)
		strbuf_addstr(sb, "N/A");
	if (l & 2)
		strbuf_addstr(sb, " hit");
	if (l & 4)
		strbuf_addstr(sb, " miss");

	strbuf_addstr(sb, "|SNP ");
	any = false;
	add_bits(sb, snp, snoop, (int)ARRAY_SIZE(snoop), &any);
	add_bits(sb, snpx, snoopx, (int)ARRAY_SIZE(snoopx), &any);
	if (!any)
		strbuf_addstr(sb, "N/A");

	strbuf_addstr(sb, "|TLB ");
	any = false;
	add_bits(sb, dtlb & ~6ULL, tlb, (int)ARRAY_SIZE(tlb), &any);
	if (!any)
		strbuf_addstr(sb, "N/A");
	if (dtlb & 2)
		strbuf_addstr(sb, " hit");
	if (dtlb & 4)
		strbuf_addstr(sb, " miss");

	strbuf_addstr(sb, "|LCK ");
	strbuf_addstr(sb, (lck & 1) ? "N/A" : (lck & 2) ? "Yes" : "No");

	strbuf_addstr(sb, "|BLK ");
	if (!blk || (blk & 1)) {
		strbuf_addstr(sb, " N/A");
	} else {
		if (blk & 2)
			strbuf_addstr(sb, " Data");
		if (blk & 4)
			strbuf_addstr(sb, " Addr");
	}
}

/*
 * "%16x <decoding>" left-aligned to the widest one printed so far, and cut
 * at 99 characters, as perf's fixed buffers do.
 */
static void print_data_src(struct script_printer *p, u64 v)
{
	struct strbuf tmp = STRBUF_INIT;
	size_t len;

	put_hex(&tmp, v, 16);
	strbuf_addch(&tmp, ' ');
	decode_data_src(&tmp, v);
	len = tmp.len > 99 ? 99 : tmp.len;
	if ((int)len > p->data_src_width)
		p->data_src_width = (int)len;
	strbuf_add(&p->buf, tmp.buf, len);
	strbuf_addchars(&p->buf, ' ', (size_t)p->data_src_width - len);
	strbuf_release(&tmp);
}

/* ---- branch stacks ---- */

const struct branch_entry *script_branch_entries(const struct perf_sample *sample)
{
	const struct branch_stack *br = sample->branch_stack;

	if (!br)
		return NULL;
	/* without PERF_SAMPLE_BRANCH_HW_INDEX the entries follow nr directly */
	return sample->no_hw_idx ? (const struct branch_entry *)&br->hw_idx : br->entries;
}

static const char *branch_type_name(u64 flags)
{
	static const char *const types[] = {
		"", "COND", "UNCOND", "IND", "CALL", "IND_CALL", "RET", "SYSCALL", "SYSRET",
		"COND_CALL", "COND_RET", "ERET", "IRQ", "SERROR", "NO_TX", NULL,
	};
	static const char *const new_types[] = {
		"FAULT_ALGN", "FAULT_DATA", "FAULT_INST", "ARCH_1", "ARCH_2", "ARCH_3", "ARCH_4",
		"ARCH_5",
	};
	unsigned type = (flags >> 20) & 15, new_type = (flags >> 26) & 15;

	if (type != 15)
		return types[type];
	/* PERF_BR_EXTEND_ABI: perf 6.1 prints glibc's "(null)" past its table */
	return new_type < ARRAY_SIZE(new_types) ? new_types[new_type] : "(null)";
}

/* "/P|M|-/X|-/A|-/cycles/type " after each entry (predicted wins), as perf */
static void print_branch_flags(struct strbuf *sb, u64 flags)
{
	put_ch(sb, '/');
	put_ch(sb, (flags & 2) ? 'P' : (flags & 1) ? 'M' : '-');
	put_ch(sb, '/');
	put_ch(sb, (flags & 4) ? 'X' : '-');
	put_ch(sb, '/');
	put_ch(sb, (flags & 8) ? 'A' : '-');
	put_ch(sb, '/');
	put_udec(sb, (flags >> 4) & 0xffff, 0);
	put_ch(sb, '/');
	put_str(sb, branch_type_name(flags));
	put_ch(sb, ' ');
}

static void print_br_dso(struct strbuf *sb, u64 f, const struct script_frame *fr)
{
	if (!(f & SFB(DSO)))
		return;
	put_ch(sb, '(');
	put_str(sb, fr->dso ? fr->dso : "[unknown]");
	put_ch(sb, ')');
}

static void print_br_sym(struct strbuf *sb, const struct script_frame *fr)
{
	if (fr->sym) {
		put_str(sb, fr->sym);
		put_str(sb, "+0x");
		put_hex(sb, fr->symoff, 0);
	} else {
		put_str(sb, "[unknown]");
	}
}

/* brstack (addresses), brstacksym (symbols) or brstackoff (map offsets): one of them, in that order */
static void print_brstack(struct strbuf *sb, u64 f, const struct script_sample *s)
{
	const struct branch_entry *entries = script_branch_entries(s->sample);

	if (!entries || !s->br_from)
		return;
	for (int i = 0; i < s->nr_br; i++) {
		const struct branch_entry *e = &entries[i];
		const struct script_frame *from = &s->br_from[i], *to = &s->br_to[i];

		if (f & SFB(BRSTACK)) {
			put_str(sb, " 0x");
			put_hex(sb, e->from, 0);
			print_br_dso(sb, f, from);
			put_str(sb, "/0x");
			put_hex(sb, e->to, 0);
			print_br_dso(sb, f, to);
		} else if (f & SFB(BRSTACKSYM)) {
			print_br_sym(sb, from);
			print_br_dso(sb, f, from);
			put_ch(sb, '/');
			print_br_sym(sb, to);
			print_br_dso(sb, f, to);
		} else {
			put_str(sb, " 0x");
			put_hex(sb, from->ip, 0);
			print_br_dso(sb, f, from);
			put_str(sb, "/0x");
			put_hex(sb, to->ip, 0);
			print_br_dso(sb, f, to);
		}
		print_branch_flags(sb, e->flags);
	}
}

static bool addr_correlates_sym(const struct perf_event_attr *attr)
{
	return attr->type == PERF_TYPE_SOFTWARE &&
	       (attr->config == PERF_COUNT_SW_PAGE_FAULTS ||
		attr->config == PERF_COUNT_SW_PAGE_FAULTS_MIN ||
		attr->config == PERF_COUNT_SW_PAGE_FAULTS_MAJ);
}

static void print_regs(struct strbuf *sb, const struct regs_dump *regs)
{
	static const char *const x86_regs[] = {
		"AX", "BX", "CX", "DX", "SI", "DI", "BP", "SP", "IP", "FLAGS", "CS", "SS",
		"DS", "ES", "FS", "GS", "R8", "R9", "R10", "R11", "R12", "R13", "R14", "R15",
	};
	char name[16];
	int i, k = 0;

	if (!regs->regs)
		return;
	put_str(sb, " ABI:");
	put_udec(sb, regs->abi, 0);
	put_ch(sb, ' ');
	for (i = 0; i < 64; i++) {
		const char *n = name;

		if (!(regs->mask & (1ULL << i)))
			continue;
		if (i < (int)ARRAY_SIZE(x86_regs))
			n = x86_regs[i];
		else if (i >= 32 && i < 64)
			snprintf(name, sizeof(name), "XMM%d", (i - 32) / 2);
		else
			n = "unknown";
		put_str_right(sb, n, 5);
		put_str(sb, ":0x");
		put_hex(sb, regs->regs[k++], 0);
		put_ch(sb, ' ');
	}
}

/* a page size as perf script shows it: " 4K", " 2M", " N/A" when the kernel gave none */
static void print_page_size(struct strbuf *sb, u64 size)
{
	char text[32];

	put_ch(sb, ' ');
	put_str(sb, size ? size_str(text, sizeof(text), size) : "N/A");
}

void script_print_sample(struct script_printer *p, const struct script_sample *s)
{
	const struct perf_sample *sample = s->sample;
	struct evsel *evsel = s->evsel;
	struct strbuf *sb = &p->buf;
	u64 f = script_fields_of(p->cfg, evsel);
	bool chain = s->has_callchain && (f & SFB(IP));

	if (!f)
		return;
	print_start(p, f, chain, s->comm, sample, PERF_RECORD_SAMPLE);
	if (f & SFB(PERIOD)) {
		/* without PERIOD in the sample, perf shows the attr's fixed period */
		put_udec(sb, (evsel->attr.sample_type & PERF_SAMPLE_PERIOD) ? sample->period :
			     evsel->attr.sample_period, 10);
		put_ch(sb, ' ');
	}
	if (f & SFB(EVNAME)) {
		put_str_right(sb, evsel->name ? evsel->name : "[unknown]", p->name_width);
		put_str(sb, ": ");
	}
	if (p->cfg->print_flags) {
		char *q = room(sb, 24);
		memset(q, ' ', 24);
		done(sb, q + 24);
	}
	if ((f & SFB(TRACE)) && sample->raw_data && s->tp)
		trace_tep_format(s->tp, sample->raw_data, sample->raw_size, (int)sample->cpu,
				 sample->time, sb);
	if (f & SFB(ADDR)) {
		put_hex(sb, sample->addr, 16);
		if (addr_correlates_sym(&evsel->attr))
			print_sym_dso(sb, f & (SFB(SYM) | SFB(SYMOFF) | SFB(DSO)), &s->addr);
	}
	if (f & SFB(DATA_SRC))
		print_data_src(p, sample->data_src);
	if (f & SFB(WEIGHT))
		put_udec(sb, sample->weight, 16);
	if (f & SFB(IP)) {
		if (chain) {
			int i, n = s->nr_frames;

			if (p->cfg->max_stack >= 0 && n > p->cfg->max_stack)
				n = p->cfg->max_stack;
			put_ch(sb, '\n');
			for (i = 0; i < n; i++) {
				const struct script_frame *fr = &s->frames[i];

				put_ch(sb, '\t');
				put_hex(sb, fr->ip, 16);
				print_sym_dso(sb, f, fr);
				put_ch(sb, '\n');
			}
		} else {
			put_ch(sb, ' ');
			put_hex(sb, sample->ip, 16);
			print_sym_dso(sb, f, &s->ip);
		}
	}
	if (f & (SFB(BRSTACK) | SFB(BRSTACKSYM) | SFB(BRSTACKOFF)))
		print_brstack(sb, f, s);
	if (f & SFB(IREGS))
		print_regs(sb, &sample->intr_regs);
	if (f & SFB(UREGS))
		print_regs(sb, &sample->user_regs);
	if (f & SFB(INSNLEN)) {
		put_str(sb, " ilen: ");
		put_udec(sb, s->insn_len, 0);
	}
	if ((f & SFB(INSN)) && s->insn_len) {
		put_str(sb, " insn:");
		for (int i = 0; i < s->insn_len; i++) {
			put_ch(sb, ' ');
			put_ch(sb, "0123456789abcdef"[s->insn[i] >> 4]);
			put_ch(sb, "0123456789abcdef"[s->insn[i] & 15]);
		}
	}
	if (f & SFB(PHYS_ADDR))
		put_hex(sb, sample->phys_addr, 16);
	if (f & SFB(DATA_PAGE_SIZE))
		print_page_size(sb, sample->data_page_size);
	if (f & SFB(CODE_PAGE_SIZE))
		print_page_size(sb, sample->code_page_size);
	put_ch(sb, '\n');
	if ((f & SFB(SRCCODE)) && s->srccode_len > 0)
		strbuf_addf(sb, "|%-8u %.*s\n", s->srccode_line, s->srccode_len, s->srccode);
	if (sb->len >= FLUSH_AT)
		script_printer_flush(p);
}

static const char *mmap_prot_str(u32 prot, u32 flags, char *buf)
{
	buf[0] = (prot & 1) ? 'r' : '-';
	buf[1] = (prot & 2) ? 'w' : '-';
	buf[2] = (prot & 4) ? 'x' : '-';
	buf[3] = (flags & 0x01) ? 's' : 'p'; /* MAP_SHARED */
	buf[4] = 0;
	return buf;
}

void script_print_record(struct script_printer *p, struct evsel *evsel, const char *comm,
			 const union perf_event *ev, const struct perf_sample *sample)
{
	struct strbuf *sb = &p->buf;
	struct perf_sample none;
	u64 f = evsel ? script_fields_of(p->cfg, evsel) : (SFB(COMM) | SFB(TID) | SFB(TIME));
	bool chain = evsel && script_wants_callchain(p->cfg, evsel);
	char prot[8];

	if (!sample) {
		memset(&none, 0, sizeof(none));
		sample = &none;
	}
	print_start(p, f, chain, comm, sample, ev->header.type);
	switch (ev->header.type) {
	case PERF_RECORD_COMM:
		strbuf_addf(sb, "PERF_RECORD_COMM%s: %s:%u/%u\n",
			    (ev->header.misc & PERF_RECORD_MISC_COMM_EXEC) ? " exec" : "",
			    ev->comm.comm, ev->comm.pid, ev->comm.tid);
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		strbuf_addf(sb, "PERF_RECORD_%s(%u:%u):(%u:%u)\n",
			    ev->header.type == PERF_RECORD_FORK ? "FORK" : "EXIT", ev->fork.pid,
			    ev->fork.tid, ev->fork.ppid, ev->fork.ptid);
		break;
	case PERF_RECORD_MMAP:
		strbuf_addf(sb, "PERF_RECORD_MMAP %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64 "]: %c %s\n",
			    (int)ev->mmap.pid, (int)ev->mmap.tid, ev->mmap.start, ev->mmap.len,
			    ev->mmap.pgoff, (ev->header.misc & PERF_RECORD_MISC_MMAP_DATA) ? 'r' : 'x',
			    ev->mmap.filename);
		break;
	case PERF_RECORD_MMAP2:
		if (ev->header.misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
			strbuf_addf(sb, "PERF_RECORD_MMAP2 %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64
					" <",
				    (int)ev->mmap2.pid, (int)ev->mmap2.tid, ev->mmap2.start,
				    ev->mmap2.len, ev->mmap2.pgoff);
			for (int i = 0; i < ev->mmap2.build_id_size && i < 20; i++)
				strbuf_addf(sb, "%02x", ev->mmap2.build_id[i]);
			strbuf_addf(sb, ">]: %s %s\n", mmap_prot_str(ev->mmap2.prot, ev->mmap2.flags, prot),
				    ev->mmap2.filename);
		} else {
			strbuf_addf(sb, "PERF_RECORD_MMAP2 %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64
					" %02x:%02x %" PRIu64 " %" PRIu64 "]: %s %s\n",
				    (int)ev->mmap2.pid, (int)ev->mmap2.tid, ev->mmap2.start,
				    ev->mmap2.len, ev->mmap2.pgoff, ev->mmap2.maj, ev->mmap2.min,
				    ev->mmap2.ino, ev->mmap2.ino_generation,
				    mmap_prot_str(ev->mmap2.prot, ev->mmap2.flags, prot), ev->mmap2.filename);
		}
		break;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE: {
		bool out = ev->header.misc & PERF_RECORD_MISC_SWITCH_OUT;
		const char *in_out = !out ? "IN         " :
				     (ev->header.misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT) ?
				     "OUT preempt" : "OUT        ";

		if (ev->header.type == PERF_RECORD_SWITCH)
			strbuf_addf(sb, "PERF_RECORD_SWITCH %s\n", in_out);
		else
			strbuf_addf(sb, "PERF_RECORD_SWITCH_CPU_WIDE %s  %s pid/tid: %5d/%-5d\n", in_out,
				    out ? "next" : "prev", (int)ev->context_switch.next_prev_pid,
				    (int)ev->context_switch.next_prev_tid);
		break;
	}
	case PERF_RECORD_LOST:
		strbuf_addf(sb, "PERF_RECORD_LOST lost %" PRIu64 "\n", ev->lost.lost);
		break;
	case PERF_RECORD_KSYMBOL: {
		size_t off = offsetof(struct perf_record_ksymbol, name);
		int max = ev->header.size > off ? (int)(ev->header.size - off) : 0;

		strbuf_addf(sb, "PERF_RECORD_KSYMBOL addr %" PRIx64 " len %u type %u flags 0x%x name %.*s\n",
			    ev->ksymbol.addr, ev->ksymbol.len, ev->ksymbol.ksym_type,
			    ev->ksymbol.flags, max, ev->ksymbol.name);
		break;
	}
	case PERF_RECORD_BPF_EVENT: {
		u16 type = 0, flags = 0;
		u32 id = 0;

		if (ev->header.size >= 16) {
			memcpy(&type, (const u8 *)ev + 8, 2);
			memcpy(&flags, (const u8 *)ev + 10, 2);
			memcpy(&id, (const u8 *)ev + 12, 4);
		}
		strbuf_addf(sb, "PERF_RECORD_BPF_EVENT type %u, flags %u, id %u\n", type, flags, id);
		break;
	}
	case PERF_RECORD_NAMESPACES: {
		static const char *const ns_names[] = { "net", "uts", "ipc", "pid", "user", "mnt",
							"cgroup" };
		u32 pid = 0, tid = 0;
		u64 nr = 0;

		if (ev->header.size >= 24) {
			memcpy(&pid, (const u8 *)ev + 8, 4);
			memcpy(&tid, (const u8 *)ev + 12, 4);
			memcpy(&nr, (const u8 *)ev + 16, 8);
		}
		if (nr > (u64)(ev->header.size - 24) / 16)
			nr = ev->header.size > 24 ? (u64)(ev->header.size - 24) / 16 : 0;
		strbuf_addf(sb, "PERF_RECORD_NAMESPACES %d/%d - nr_namespaces: %u\n\t\t[", (int)pid,
			    (int)tid, (unsigned)nr);
		for (u64 i = 0; i < nr; i++) {
			u64 dev, ino;

			memcpy(&dev, (const u8 *)ev + 24 + 16 * i, 8);
			memcpy(&ino, (const u8 *)ev + 32 + 16 * i, 8);
			if (i && !(i % 4))
				strbuf_addstr(sb, "\n\t\t ");
			strbuf_addf(sb, "%u/%s: %" PRIu64 "/%#" PRIx64 "%s", (unsigned)i,
				    i < ARRAY_SIZE(ns_names) ? ns_names[i] : "UNKNOWN", dev, ino,
				    i + 1 != nr ? ", " : "]\n");
		}
		if (!nr)
			strbuf_addch(sb, '\n');
		break;
	}
	case PERF_RECORD_TEXT_POKE: {
		u64 addr = 0;
		u16 old_len = 0, new_len = 0;
		const u8 *bytes = (const u8 *)ev + 20;
		size_t avail = ev->header.size > 20 ? ev->header.size - 20 : 0;

		if (ev->header.size >= 20) {
			memcpy(&addr, (const u8 *)ev + 8, 8);
			memcpy(&old_len, (const u8 *)ev + 16, 2);
			memcpy(&new_len, (const u8 *)ev + 18, 2);
		}
		if ((size_t)old_len + new_len > avail)
			old_len = new_len = 0;
		strbuf_addf(sb, "PERF_RECORD_TEXT_POKE %" PRIx64 "  old len %u new len %u\n", addr,
			    old_len, new_len);
		strbuf_addstr(sb, "            Old bytes:");
		for (int i = 0; i < old_len; i++)
			strbuf_addf(sb, " %02x", bytes[i]);
		strbuf_addstr(sb, "\n            New bytes:");
		for (int i = 0; i < new_len; i++)
			strbuf_addf(sb, " %02x", bytes[old_len + i]);
		strbuf_addch(sb, '\n');
		break;
	}
	case PERF_RECORD_CGROUP: {
		u64 id = 0;
		int max = ev->header.size > 16 ? (int)(ev->header.size - 16) : 0;

		if (ev->header.size >= 16)
			memcpy(&id, (const u8 *)ev + 8, 8);
		strbuf_addf(sb, "PERF_RECORD_CGROUP cgroup: %" PRIu64 " %.*s\n", id, max,
			    (const char *)ev + 16);
		break;
	}
	case PERF_RECORD_LOST_SAMPLES:
		strbuf_addf(sb, "PERF_RECORD_LOST_SAMPLES lost %" PRIu64 "\n", ev->lost_samples.lost);
		break;
	default:
		strbuf_addf(sb, "PERF_RECORD_%s\n", perf_event_name(ev->header.type));
		break;
	}
	if (sb->len >= FLUSH_AT)
		script_printer_flush(p);
}

void script_data_src_text(struct strbuf *sb, u64 data_src)
{
	decode_data_src(sb, data_src);
}
