/* SPDX-License-Identifier: MIT */
/*
 * Demangling. C++ goes through the C++ runtime's __cxa_demangle; its full
 * output is cut down to what perf prints by default (no parameters, no
 * return type, no clone suffix) unless DEMANGLE_PARAMS. Rust legacy names
 * are decoded here ($LT$ escapes, hash dropped) and Rust v0 by a small
 * decoder in rust-v0.c.
 */
#define PR_PREFIX "demangle"
#include "symbol/demangle.h"

#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* from the C++ runtime (libstdc++, the GCC runtime library exception applies) */
extern char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

bool demangle_is_mangled(const char *name)
{
	return name[0] == '_' && (name[1] == 'Z' || name[1] == 'R');
}

/* ---- Rust legacy: _ZN <len><ident>... 17h<16 hex> E ---------------------- */

static bool is_rust_hash(const char *s, size_t len)
{
	size_t i;

	if (len != 17 || s[0] != 'h')
		return false;
	for (i = 1; i < 17; i++)
		if (!isxdigit((unsigned char)s[i]))
			return false;
	return true;
}

static bool rust_legacy_unescape(struct strbuf *out, const char *s, size_t len)
{
	static const struct {
		const char *esc;
		char ch;
	} escs[] = {
		{ "$SP$", '@' }, { "$BP$", '*' }, { "$RF$", '&' }, { "$LT$", '<' },
		{ "$GT$", '>' }, { "$LP$", '(' }, { "$RP$", ')' }, { "$C$", ',' },
	};
	size_t i = 0, k;

	if (len >= 2 && s[0] == '_' && s[1] == '$')
		i = 1;
	while (i < len) {
		if (s[i] == '$') {
			bool done = false;

			for (k = 0; k < ARRAY_SIZE(escs); k++) {
				size_t el = strlen(escs[k].esc);

				if (len - i >= el && !memcmp(s + i, escs[k].esc, el)) {
					strbuf_addch(out, escs[k].ch);
					i += el;
					done = true;
					break;
				}
			}
			if (done)
				continue;
			if (len - i >= 4 && s[i + 1] == 'u') {
				const char *end = memchr(s + i + 2, '$', len - i - 2);
				char hex[9];
				size_t hl;
				unsigned long cp;

				if (!end)
					return false;
				hl = end - (s + i + 2);
				if (!hl || hl > 8)
					return false;
				memcpy(hex, s + i + 2, hl);
				hex[hl] = 0;
				cp = strtoul(hex, NULL, 16);
				if (cp < 0x20 || cp > 0x7e)
					return false;
				strbuf_addch(out, (int)cp);
				i = end - s + 1;
				continue;
			}
			return false;
		}
		if (s[i] == '.' && i + 1 < len && s[i + 1] == '.') {
			strbuf_addstr(out, "::");
			i += 2;
			continue;
		}
		strbuf_addch(out, s[i++]);
	}
	return true;
}

static char *rust_legacy_demangle(const char *m)
{
	const char *p = m + 3, *end;
	struct strbuf out = STRBUF_INIT;
	const char *comps[256];
	size_t lens[256], nr = 0, i;

	/* find the components; the name must end in "17h<hash>E" */
	while (*p && *p != 'E') {
		char *e;
		unsigned long l;

		if (!isdigit((unsigned char)*p))
			return NULL;
		l = strtoul(p, &e, 10);
		if (!l || strlen(e) < l || nr == ARRAY_SIZE(comps))
			return NULL;
		comps[nr] = e;
		lens[nr++] = l;
		p = e + l;
	}
	if (*p != 'E' || nr < 2 || !is_rust_hash(comps[nr - 1], lens[nr - 1]))
		return NULL;
	end = p + 1;
	/* rustc may append ".llvm.NNN" and similar suffixes: perf's form drops them */
	(void)end;
	for (i = 0; i + 1 < nr; i++) {
		if (i)
			strbuf_addstr(&out, "::");
		if (!rust_legacy_unescape(&out, comps[i], lens[i])) {
			strbuf_release(&out);
			return NULL;
		}
	}
	return strbuf_detach(&out, NULL);
}

/* ---- C++: cut __cxa_demangle's output down to perf's default form -------- */

static bool is_op_char(char c)
{
	return strchr("<>=-!+*/%^&|~,[]()", c) != NULL;
}

/* does an "operator" token end right before position @i (over operator chars)? */
static size_t operator_start(const char *s, size_t i)
{
	size_t j = i + 1;

	while (j > 0 && is_op_char(s[j - 1]))
		j--;
	if (j >= 8 && !memcmp(s + j - 8, "operator", 8))
		return j - 8;
	return (size_t)-1;
}

/* index of the '(' matching the ')' at @close, or -1 */
static ssize_t match_open_paren(const char *s, size_t close)
{
	int depth = 0;
	ssize_t i;

	for (i = (ssize_t)close; i >= 0; i--) {
		if (s[i] == ')')
			depth++;
		else if (s[i] == '(' && --depth == 0)
			return i;
	}
	return -1;
}

static void strip_suffix(char *s, const char *suf)
{
	size_t l = strlen(s), sl = strlen(suf);

	if (l > sl && !strcmp(s + l - sl, suf))
		s[l - sl] = 0;
}

static char *cxx_strip_params(char *s)
{
	char *clone;
	size_t l;
	ssize_t open, i;
	int depth;

	/* " [clone .cold]" suffixes go: perf's default form has none */
	clone = strstr(s, " [clone ");
	if (clone)
		*clone = 0;
	for (;;) {
		size_t before = strlen(s);

		strip_suffix(s, " const");
		strip_suffix(s, " volatile");
		strip_suffix(s, " &&");
		strip_suffix(s, " &");
		strip_suffix(s, " noexcept");
		if (strlen(s) == before)
			break;
	}
	l = strlen(s);
	if (!l || s[l - 1] != ')')
		return s;
	open = match_open_paren(s, l - 1);
	if (open <= 0)
		return s;
	/* "A::operator()(int)": the parameter list is the last group */
	s[open] = 0;
	l = (size_t)open;
	if (!l || s[l - 1] != '>')
		return s;
	/* template functions carry a return type: drop everything before the name */
	depth = 0;
	for (i = (ssize_t)l - 1; i >= 0; i--) {
		char c = s[i];
		size_t os;

		if (c == '>' || c == ')' || c == ']') {
			depth++;
		} else if (c == '<' || c == '(' || c == '[') {
			if (depth == 0) {
				/* an operator's own '<' ("operator<< <T>") */
				os = operator_start(s, (size_t)i);
				if (os == (size_t)-1)
					return s;
				i = (ssize_t)os;
				continue;
			}
			if (--depth == 0 && i > 0) {
				/* "operator>><T>" / "operator<< <T>": skip the operator itself */
				size_t at = s[i - 1] == ' ' && i > 1 ? (size_t)i - 2 : (size_t)i - 1;

				os = operator_start(s, at);
				if (os != (size_t)-1) {
					i = (ssize_t)os;
					continue;
				}
			}
		} else if (c == ' ' && depth == 0) {
			/* "operator<< <T>": the space belongs to the operator */
			if (i > 0 && operator_start(s, (size_t)i - 1) != (size_t)-1) {
				i = (ssize_t)operator_start(s, (size_t)i - 1);
				continue;
			}
			if (i >= 8 && !memcmp(s + i - 8, "operator", 8))
				continue; /* "operator new", "operator delete" */
			memmove(s, s + i + 1, strlen(s + i + 1) + 1);
			return s;
		}
	}
	return s;
}

static char *cxx_demangle(const char *m, int flags)
{
	int status = 0;
	char *d = __cxa_demangle(m, NULL, NULL, &status);

	if (!d || status)
		return NULL;
	/*
	 * Special names (vtables, typeinfo, thunks, guard variables,
	 * transaction clones: _ZT*, _ZG*) keep their full text in perf's
	 * default form too.
	 */
	if (!(flags & DEMANGLE_PARAMS) && strncmp(m, "_ZT", 3) && strncmp(m, "_ZG", 3))
		cxx_strip_params(d);
	return d;
}

char *demangle(const char *mangled, int flags)
{
	char *r;

	if (!mangled || mangled[0] != '_')
		return NULL;
	if (mangled[1] == 'R')
		return rust_demangle_v0(mangled, false);
	if (mangled[1] != 'Z')
		return NULL;
	if (!strncmp(mangled, "_ZN", 3)) {
		r = rust_legacy_demangle(mangled);
		if (r)
			return r;
	}
	return cxx_demangle(mangled, flags);
}
