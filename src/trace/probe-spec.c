/* SPDX-License-Identifier: MIT */
/* perf probe's PROBEDEF syntax: point, event name and arguments parsed into struct probe_spec. */
#include "trace/probe-spec.h"

#include "lib/strvec.h"
#include "lib/xalloc.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int spec_fail(struct probe_spec_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int spec_fail(struct probe_spec_error *err, const char *fmt, ...)
{
	va_list ap;

	if (err) {
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

bool probe_event_name_ok(const char *s)
{
	if (!s || !(isalpha((unsigned char)*s) || *s == '_'))
		return false;
	for (s++; *s; s++)
		if (!(isalnum((unsigned char)*s) || *s == '_'))
			return false;
	return true;
}

/* a fetch argument the tracer understands by itself (no DWARF needed) */
static bool arg_is_fetch(const char *expr)
{
	if (!strcmp(expr, "$params") || !strcmp(expr, "$vars"))
		return false; /* every parameter / variable: DWARF */
	/* only a C name starts a variable; anything else goes to the tracer as typed */
	return !(isalpha((unsigned char)expr[0]) || expr[0] == '_');
}

static void parse_arg(struct probe_arg *a, const char *text)
{
	const char *eq = NULL, *p, *colon;

	/* NAME= only when what precedes '=' is a plain name */
	for (p = text; *p && (isalnum((unsigned char)*p) || *p == '_'); p++)
		;
	if (*p == '=' && p > text)
		eq = p;
	a->text = xstrdup(text);
	if (eq) {
		a->name = xstrndup(text, (size_t)(eq - text));
		text = eq + 1;
	}
	/* the type follows the last ':' outside parentheses */
	colon = NULL;
	{
		int depth = 0;

		for (p = text; *p; p++) {
			if (*p == '(')
				depth++;
			else if (*p == ')')
				depth--;
			else if (*p == ':' && depth <= 0)
				colon = p;
		}
	}
	if (colon) {
		a->expr = xstrndup(text, (size_t)(colon - text));
		a->type = xstrdup(colon + 1);
	} else {
		a->expr = xstrdup(text);
	}
	a->is_fetch = a->expr[0] && arg_is_fetch(a->expr);
}

/* the characters that end FUNC (or SRC) in a probe point */
#define POINT_DELIMS "@:+%;"

static int parse_offset(const char *s, size_t len, u64 *val, struct probe_spec_error *err)
{
	char buf[64];
	char *end;

	if (len >= sizeof(buf))
		return spec_fail(err, "There is non-digit character in offset.");
	memcpy(buf, s, len);
	buf[len] = 0;
	if (!len) {
		*val = 0;
		return 0;
	}
	errno = 0;
	*val = strtoull(buf, &end, 0);
	if (*end || errno)
		return spec_fail(err, "There is non-digit character in offset.");
	return 0;
}

static int parse_line(const char *s, size_t len, long *val, struct probe_spec_error *err)
{
	char buf[32];
	char *end;

	if (!len) {
		*val = 0;
		return 0;
	}
	if (len >= sizeof(buf))
		return spec_fail(err, "There is non-digit char in line number.");
	memcpy(buf, s, len);
	buf[len] = 0;
	*val = strtol(buf, &end, 10);
	if (*end)
		return spec_fail(err, "There is non-digit char in line number.");
	return 0;
}

/*
 * SRC or FUNC: a path, or a name with a suffix after its last '.' that is
 * not a number ("t.c", "x.cpp"); compiler clones ("f.part.0",
 * "g.isra.0") are functions.
 */
static bool head_is_file(const char *s, size_t n)
{
	const char *dot = NULL;

	if (memchr(s, '/', n))
		return true;
	for (size_t i = 0; i < n; i++)
		if (s[i] == '.')
			dot = s + i;
	return dot && dot + 1 < s + n && !isdigit((unsigned char)dot[1]);
}

/* FUNC[@SRC][:RLN|+OFFS|%return|;PTN] or SRC:ALN or SRC;PTN */
static int parse_point(struct probe_spec *ps, const char *pt, struct probe_spec_error *err)
{
	const char *semi = strchr(pt, ';');
	const char *p, *q;
	size_t n;
	int ret;

	if (semi) {
		ps->lazy = xstrdup(semi + 1);
		pt = xstrndup(pt, (size_t)(semi - pt));
	} else {
		pt = xstrdup(pt);
	}
	/* the head: FUNC, or SRC when it looks like a file name */
	n = strcspn(pt, POINT_DELIMS);
	if (!n) {
		ret = spec_fail(err, "Failed to parse probe point.");
		goto out;
	}
	if (head_is_file(pt, n))
		ps->file = xstrndup(pt, n);
	else
		ps->func = xstrndup(pt, n);
	p = pt + n;
	while (*p) {
		char c = *p++;

		q = p + strcspn(p, POINT_DELIMS);
		switch (c) {
		case '@':
			if (ps->file) {
				ret = spec_fail(err, "SRC@SRC is not allowed.");
				goto out;
			}
			ps->file = xstrndup(p, (size_t)(q - p));
			break;
		case ':':
			if (ps->has_offset) {
				ret = spec_fail(err, "Line number can't be used with offset.");
				goto out;
			}
			ret = parse_line(p, (size_t)(q - p), &ps->line, err);
			if (ret)
				goto out;
			ps->has_line = true;
			break;
		case '+':
			if (ps->has_line) {
				ret = spec_fail(err, "Offset can't be used with line number.");
				goto out;
			}
			ret = parse_offset(p, (size_t)(q - p), &ps->offset, err);
			if (ret)
				goto out;
			ps->has_offset = true;
			break;
		case '%':
			if ((size_t)(q - p) != 6 || strncmp(p, "return", 6)) {
				spec_fail(err, "%%%.*s is not supported.", (int)(q - p), p);
				ret = -EOPNOTSUPP;
				goto out;
			}
			ps->is_return = true;
			break;
		default:
			break;
		}
		p = q;
	}
	ret = 0;
	if (ps->lazy && ps->has_line)
		ret = spec_fail(err, "Lazy pattern can't be used with line number.");
	else if (ps->lazy && ps->has_offset)
		ret = spec_fail(err, "Lazy pattern can't be used with offset.");
	else if (ps->is_return && (ps->has_line || ps->lazy || ps->has_offset))
		ret = spec_fail(err, "Offset/Line/Lazy pattern can't be used with return probe.");
	else if (!ps->func && ps->has_offset)
		ret = spec_fail(err, "Relative line number is not allowed without function name.");
	else if (!ps->func && ps->is_return)
		ret = spec_fail(err, "Return probe is not allowed without function name.");
out:
	free((char *)pt);
	return ret;
}

int probe_spec_parse(struct probe_spec *ps, const char *text, struct probe_spec_error *err)
{
	struct strvec words = STRVEC_INIT;
	const char *point, *eq;
	int ret;

	memset(ps, 0, sizeof(*ps));
	if (err)
		err->msg[0] = 0;
	strvec_split(&words, text, " \t\n");
	if (!words.nr) {
		strvec_clear(&words);
		return spec_fail(err, "Failed to parse probe point.");
	}
	point = words.v[0];
	/* [[GROUP:]EVENT=] before the point: the '=' must come before any
	   other delimiter of the point */
	eq = strchr(point, '=');
	if (eq && eq < point + strcspn(point, "@+%;")) {
		const char *colon = memchr(point, ':', (size_t)(eq - point));

		if (colon) {
			ps->group = xstrndup(point, (size_t)(colon - point));
			ps->event = xstrndup(colon + 1, (size_t)(eq - colon - 1));
		} else {
			ps->event = xstrndup(point, (size_t)(eq - point));
		}
		if (!probe_event_name_ok(ps->event)) {
			ret = spec_fail(err,
					"%s is bad for event name -it must follow C symbol-naming rule.",
					ps->event);
			goto fail;
		}
		if (ps->group && !probe_event_name_ok(ps->group)) {
			ret = spec_fail(err,
					"%s is bad for event name -it must follow C symbol-naming rule.",
					ps->group);
			goto fail;
		}
		point = eq + 1;
	}
	ps->point = xstrdup(point);
	ret = parse_point(ps, point, err);
	if (ret)
		goto fail;
	if (words.nr > 1) {
		ps->nr_args = words.nr - 1;
		ps->args = xcalloc(ps->nr_args, sizeof(*ps->args));
		for (size_t i = 0; i < ps->nr_args; i++)
			parse_arg(&ps->args[i], words.v[i + 1]);
		for (size_t i = 0; i < ps->nr_args && ps->is_return; i++) {
			/* perf passes $params/$vars of a return probe to the tracer as typed */
			if (ps->args[i].expr[0] == '$')
				ps->args[i].is_fetch = true;
			if (ps->args[i].is_fetch)
				continue;
			ret = spec_fail(err, "You can't specify local variable for kretprobe.");
			goto fail;
		}
	}
	strvec_clear(&words);
	return 0;
fail:
	strvec_clear(&words);
	probe_spec_release(ps);
	return ret;
}

void probe_spec_release(struct probe_spec *ps)
{
	for (size_t i = 0; i < ps->nr_args; i++) {
		free(ps->args[i].name);
		free(ps->args[i].expr);
		free(ps->args[i].type);
		free(ps->args[i].text);
	}
	free(ps->args);
	free(ps->group);
	free(ps->event);
	free(ps->func);
	free(ps->file);
	free(ps->lazy);
	free(ps->point);
	memset(ps, 0, sizeof(*ps));
}

bool probe_spec_needs_dwarf(const struct probe_spec *ps)
{
	if (ps->has_line || ps->lazy || ps->file)
		return true;
	for (size_t i = 0; i < ps->nr_args; i++)
		if (!ps->args[i].is_fetch)
			return true;
	return false;
}

char *probe_group_for_path(const char *path)
{
	const char *base = strrchr(path, '/');
	size_t n;

	base = base ? base + 1 : path;
	for (n = 0; base[n] && (isalnum((unsigned char)base[n]) || base[n] == '_'); n++)
		;
	return xasprintf("probe_%.*s", (int)n, base);
}
