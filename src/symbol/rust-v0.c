/* SPDX-License-Identifier: MIT */
/*
 * Rust v0 symbol demangling ("_R" prefix, rustc's -C symbol-mangling-version=v0).
 * Prints the short form perf shows: no crate disambiguators, no hashes.
 */
#define PR_PREFIX "demangle"
#include "symbol/demangle.h"

#include "lib/strbuf.h"
#include "lib/util.h"
#include "lib/xalloc.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct v0 {
	const char *s; /* the symbol after "_R" (backrefs index into it) */
	size_t len;
	size_t pos;
	int depth;
	bool bad;
	bool verbose;
	struct strbuf *out;
	unsigned int bound_lifetimes;
};

#define V0_MAX_DEPTH 100

static char peek(struct v0 *d)
{
	return d->pos < d->len ? d->s[d->pos] : 0;
}

static bool eat(struct v0 *d, char c)
{
	if (peek(d) == c) {
		d->pos++;
		return true;
	}
	return false;
}

static char next(struct v0 *d)
{
	if (d->pos >= d->len) {
		d->bad = true;
		return 0;
	}
	return d->s[d->pos++];
}

static void out(struct v0 *d, const char *s)
{
	if (!d->bad)
		strbuf_addstr(d->out, s);
}

/* base-62-number: "_" is 0, else digits then "_" give value + 1 */
static u64 base62(struct v0 *d)
{
	u64 v = 0;
	char c;

	if (eat(d, '_'))
		return 0;
	while ((c = next(d)) != '_') {
		int dig;

		if (c >= '0' && c <= '9')
			dig = c - '0';
		else if (c >= 'a' && c <= 'z')
			dig = c - 'a' + 10;
		else if (c >= 'A' && c <= 'Z')
			dig = c - 'A' + 36;
		else {
			d->bad = true;
			return 0;
		}
		if (v > (UINT64_MAX - dig) / 62) {
			d->bad = true;
			return 0;
		}
		v = v * 62 + dig;
	}
	return v + 1;
}

static u64 opt_base62(struct v0 *d, char tag)
{
	if (!eat(d, tag))
		return 0;
	return base62(d) + 1;
}

static u64 decimal(struct v0 *d)
{
	u64 v = 0;

	if (!isdigit((unsigned char)peek(d))) {
		d->bad = true;
		return 0;
	}
	if (eat(d, '0'))
		return 0;
	while (isdigit((unsigned char)peek(d))) {
		if (v > UINT64_MAX / 10 - 9) {
			d->bad = true;
			return 0;
		}
		v = v * 10 + (u64)(next(d) - '0');
	}
	return v;
}

/* undisambiguated-identifier; punycode ("u") names are printed raw, marked */
static void ident(struct v0 *d, const char **name, size_t *nlen, bool *puny)
{
	u64 l;

	*puny = eat(d, 'u');
	l = decimal(d);
	eat(d, '_');
	if (d->bad || l > d->len - d->pos) {
		d->bad = true;
		*name = "";
		*nlen = 0;
		return;
	}
	*name = d->s + d->pos;
	*nlen = (size_t)l;
	d->pos += (size_t)l;
}

static void print_path(struct v0 *d, bool in_value);
static void print_type(struct v0 *d);
static void print_const(struct v0 *d);

/* run @fn at the backref target, then come back */
static void backref(struct v0 *d, void (*fn)(struct v0 *, bool), bool arg, void (*tfn)(struct v0 *))
{
	size_t here = d->pos - 1; /* the 'B' */
	u64 to = base62(d);
	size_t save;

	if (d->bad || to >= here || d->depth > V0_MAX_DEPTH) {
		d->bad = true;
		return;
	}
	save = d->pos;
	d->pos = (size_t)to;
	d->depth++;
	if (fn)
		fn(d, arg);
	else
		tfn(d);
	d->depth--;
	d->pos = save;
}

static void print_lifetime(struct v0 *d, u64 lt)
{
	char buf[32];

	if (!lt) {
		out(d, "'_");
		return;
	}
	if (lt > d->bound_lifetimes) {
		d->bad = true;
		return;
	}
	lt = d->bound_lifetimes - lt;
	if (lt < 26)
		snprintf(buf, sizeof(buf), "'%c", (char)('a' + lt));
	else
		snprintf(buf, sizeof(buf), "'_%" PRIu64, lt);
	out(d, buf);
}

static void print_generic_args(struct v0 *d)
{
	int i = 0;

	while (!d->bad && !eat(d, 'E')) {
		if (i++)
			out(d, ", ");
		if (eat(d, 'L'))
			print_lifetime(d, base62(d));
		else if (eat(d, 'K'))
			print_const(d);
		else
			print_type(d);
		if (d->pos >= d->len) {
			d->bad = true;
			return;
		}
	}
}

static void print_path(struct v0 *d, bool in_value)
{
	char tag;
	const char *name;
	size_t nlen;
	bool puny;

	if (++d->depth > V0_MAX_DEPTH) {
		d->bad = true;
		return;
	}
	tag = next(d);
	switch (tag) {
	case 'C':
		opt_base62(d, 's');
		ident(d, &name, &nlen, &puny);
		if (!d->bad)
			strbuf_add(d->out, name, nlen);
		break;
	case 'M': /* <T> */
		opt_base62(d, 's');
		d->depth++;
		{
			/* the impl path only disambiguates: skip it in a throwaway buffer */
			struct strbuf tmp = STRBUF_INIT, *o = d->out;

			d->out = &tmp;
			print_path(d, false);
			d->out = o;
			strbuf_release(&tmp);
		}
		d->depth--;
		out(d, "<");
		print_type(d);
		out(d, ">");
		break;
	case 'X': /* <T as Trait> */
	{
		struct strbuf tmp = STRBUF_INIT, *o = d->out;

		opt_base62(d, 's');
		d->out = &tmp;
		print_path(d, false);
		d->out = o;
		strbuf_release(&tmp);
	}
		/* fall through */
	case 'Y':
		out(d, "<");
		print_type(d);
		out(d, " as ");
		print_path(d, false);
		out(d, ">");
		break;
	case 'N': {
		char ns = next(d);
		u64 dis;

		print_path(d, in_value);
		dis = opt_base62(d, 's');
		ident(d, &name, &nlen, &puny);
		if (d->bad)
			break;
		if (isupper((unsigned char)ns)) {
			char buf[64];

			out(d, "::{");
			out(d, ns == 'C' ? "closure" : ns == 'S' ? "shim" : "");
			if (ns != 'C' && ns != 'S')
				strbuf_addch(d->out, ns);
			if (nlen) {
				out(d, ":");
				strbuf_add(d->out, name, nlen);
			}
			snprintf(buf, sizeof(buf), "#%" PRIu64 "}", dis);
			out(d, buf);
		} else if (nlen) {
			out(d, "::");
			strbuf_add(d->out, name, nlen);
		}
		break;
	}
	case 'I':
		print_path(d, in_value);
		out(d, in_value ? "::<" : "<");
		print_generic_args(d);
		out(d, ">");
		break;
	case 'B':
		backref(d, print_path, in_value, NULL);
		break;
	default:
		d->bad = true;
	}
	d->depth--;
}

static const char *basic_type(char c)
{
	switch (c) {
	case 'a': return "i8";
	case 'b': return "bool";
	case 'c': return "char";
	case 'd': return "f64";
	case 'e': return "str";
	case 'f': return "f32";
	case 'h': return "u8";
	case 'i': return "isize";
	case 'j': return "usize";
	case 'l': return "i32";
	case 'm': return "u32";
	case 'n': return "i128";
	case 'o': return "u128";
	case 's': return "i16";
	case 't': return "u16";
	case 'u': return "()";
	case 'v': return "...";
	case 'x': return "i64";
	case 'y': return "u64";
	case 'z': return "!";
	case 'p': return "_";
	default: return NULL;
	}
}

static void print_binder_open(struct v0 *d, u64 *nbound)
{
	u64 n = opt_base62(d, 'G'), i;

	*nbound = n;
	if (!n)
		return;
	out(d, "for<");
	for (i = 0; i < n && !d->bad; i++) {
		if (i)
			out(d, ", ");
		d->bound_lifetimes++;
		print_lifetime(d, 1);
	}
	out(d, "> ");
}

static void print_dyn_bounds(struct v0 *d)
{
	u64 nb;
	int i = 0;

	print_binder_open(d, &nb);
	while (!d->bad && !eat(d, 'E')) {
		if (i++)
			out(d, " + ");
		/* dyn-trait = path {"p" ident type}: assoc bindings go inside the <> */
		{
			size_t start = d->out->len;
			bool open;

			print_path(d, false);
			open = d->out->len > start && d->out->buf[d->out->len - 1] == '>';
			while (!d->bad && eat(d, 'p')) {
				const char *name;
				size_t nlen;
				bool puny;

				if (open) {
					strbuf_setlen(d->out, d->out->len - 1);
					out(d, ", ");
				} else {
					out(d, "<");
				}
				ident(d, &name, &nlen, &puny);
				if (!d->bad)
					strbuf_add(d->out, name, nlen);
				out(d, " = ");
				print_type(d);
				out(d, ">");
				open = true;
			}
		}
		if (d->pos >= d->len)
			d->bad = true;
	}
	d->bound_lifetimes -= (unsigned int)nb;
}

static void print_type(struct v0 *d)
{
	char c;
	const char *b;

	if (++d->depth > V0_MAX_DEPTH) {
		d->bad = true;
		return;
	}
	c = next(d);
	b = basic_type(c);
	if (b) {
		out(d, b);
		d->depth--;
		return;
	}
	switch (c) {
	case 'R':
	case 'Q':
		out(d, "&");
		if (eat(d, 'L')) {
			u64 lt = base62(d);

			if (lt) {
				print_lifetime(d, lt);
				out(d, " ");
			}
		}
		if (c == 'Q')
			out(d, "mut ");
		print_type(d);
		break;
	case 'P':
		out(d, "*const ");
		print_type(d);
		break;
	case 'O':
		out(d, "*mut ");
		print_type(d);
		break;
	case 'A':
		out(d, "[");
		print_type(d);
		out(d, "; ");
		print_const(d);
		out(d, "]");
		break;
	case 'S':
		out(d, "[");
		print_type(d);
		out(d, "]");
		break;
	case 'T': {
		int n = 0;

		out(d, "(");
		while (!d->bad && !eat(d, 'E')) {
			if (n++)
				out(d, ", ");
			print_type(d);
			if (d->pos >= d->len)
				d->bad = true;
		}
		out(d, n == 1 ? ",)" : ")");
		break;
	}
	case 'F': {
		u64 nb;
		int n = 0;

		print_binder_open(d, &nb);
		if (eat(d, 'U'))
			out(d, "unsafe ");
		if (eat(d, 'K')) {
			out(d, "extern \"");
			if (eat(d, 'C')) {
				out(d, "C");
			} else {
				const char *name;
				size_t nlen, i;
				bool puny;

				ident(d, &name, &nlen, &puny);
				for (i = 0; i < nlen && !d->bad; i++)
					strbuf_addch(d->out, name[i] == '_' ? '-' : name[i]);
			}
			out(d, "\" ");
		}
		out(d, "fn(");
		while (!d->bad && !eat(d, 'E')) {
			if (n++)
				out(d, ", ");
			print_type(d);
			if (d->pos >= d->len)
				d->bad = true;
		}
		out(d, ")");
		if (peek(d) == 'u') {
			d->pos++;
		} else {
			out(d, " -> ");
			print_type(d);
		}
		d->bound_lifetimes -= (unsigned int)nb;
		break;
	}
	case 'D':
		out(d, "dyn ");
		print_dyn_bounds(d);
		if (eat(d, 'L'))
			base62(d); /* the object lifetime is not shown */
		else
			d->bad = true;
		break;
	case 'B':
		backref(d, NULL, false, print_type);
		break;
	default:
		/* a path used as a type */
		d->pos--;
		print_path(d, false);
	}
	d->depth--;
}

static void print_const(struct v0 *d)
{
	char ty, buf[64];
	u64 v = 0;
	bool neg = false;
	int nd = 0;

	if (eat(d, 'B')) {
		backref(d, NULL, false, print_const);
		return;
	}
	if (eat(d, 'p')) {
		out(d, "_");
		return;
	}
	ty = next(d);
	if (!basic_type(ty)) {
		d->bad = true;
		return;
	}
	if (ty == 'a' || ty == 's' || ty == 'l' || ty == 'x' || ty == 'n' || ty == 'i')
		neg = eat(d, 'n');
	while (!d->bad && !eat(d, '_')) {
		char c = next(d);
		int h = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;

		if (h < 0 || ++nd > 16) {
			d->bad = true;
			return;
		}
		v = v << 4 | (u64)h;
	}
	if (d->bad)
		return;
	if (ty == 'b') {
		out(d, v ? "true" : "false");
	} else if (ty == 'c') {
		if (v >= 0x20 && v < 0x7f)
			snprintf(buf, sizeof(buf), "'%c'", (char)v);
		else
			snprintf(buf, sizeof(buf), "'\\u{%" PRIx64 "}'", v);
		out(d, buf);
	} else {
		snprintf(buf, sizeof(buf), "%s%" PRIu64, neg ? "-" : "", v);
		out(d, buf);
	}
}

char *rust_demangle_v0(const char *mangled, bool verbose)
{
	struct strbuf sb = STRBUF_INIT;
	struct v0 d;
	const char *dot;

	if (strncmp(mangled, "_R", 2))
		return NULL;
	memset(&d, 0, sizeof(d));
	d.s = mangled + 2;
	/* a ".llvm.NNNN" style suffix is not part of the encoding */
	dot = strchr(d.s, '.');
	d.len = dot ? (size_t)(dot - d.s) : strlen(d.s);
	d.out = &sb;
	d.verbose = verbose;
	if (isdigit((unsigned char)peek(&d)))
		decimal(&d); /* encoding version: absent means 0 */
	if (!isupper((unsigned char)peek(&d))) {
		strbuf_release(&sb);
		return NULL;
	}
	print_path(&d, true);
	/* an instantiating crate may follow, and vendor suffixes after '.' */
	if (!d.bad && d.pos < d.len && isupper((unsigned char)peek(&d))) {
		struct strbuf tmp = STRBUF_INIT;

		d.out = &tmp;
		print_path(&d, false);
		d.out = &sb;
		strbuf_release(&tmp);
	}
	if (d.bad || d.pos != d.len) {
		strbuf_release(&sb);
		return NULL;
	}
	/* suffixes after '.' (".llvm.NNN", ".0") are dropped, as perf prints them */
	return strbuf_detach(&sb, NULL);
}
