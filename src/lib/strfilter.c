/* SPDX-License-Identifier: MIT */
/* perf's --filter expressions: a small tree of glob leaves under !, & and |, matched with fnmatch. */
#include "lib/strfilter.h"

#include "lib/xalloc.h"

#include <ctype.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

enum sf_op { SF_GLOB, SF_NOT, SF_AND, SF_OR };

struct strfilter {
	enum sf_op op;
	char *glob;		    /* SF_GLOB */
	struct strfilter *l, *r;    /* operands (SF_NOT uses l) */
};

struct sf_parser {
	const char *start;
	const char *p;
};

static void skip_space(struct sf_parser *ps)
{
	while (isspace((unsigned char)*ps->p))
		ps->p++;
}

static struct strfilter *sf_node(enum sf_op op, struct strfilter *l, struct strfilter *r)
{
	struct strfilter *n = xzalloc(sizeof(*n));

	n->op = op;
	n->l = l;
	n->r = r;
	return n;
}

static struct strfilter *parse_or(struct sf_parser *ps);

static struct strfilter *parse_unary(struct sf_parser *ps)
{
	struct strfilter *n;
	size_t len;

	skip_space(ps);
	if (*ps->p == '!') {
		ps->p++;
		n = parse_unary(ps);
		return n ? sf_node(SF_NOT, n, NULL) : NULL;
	}
	if (*ps->p == '(') {
		ps->p++;
		n = parse_or(ps);
		skip_space(ps);
		if (!n || *ps->p != ')') {
			strfilter_free(n);
			return NULL;
		}
		ps->p++;
		return n;
	}
	len = strcspn(ps->p, "!&|() \t\n");
	if (!len)
		return NULL;
	n = sf_node(SF_GLOB, NULL, NULL);
	n->glob = xstrndup(ps->p, len);
	ps->p += len;
	return n;
}

static struct strfilter *parse_and(struct sf_parser *ps)
{
	struct strfilter *n = parse_unary(ps), *r;

	while (n) {
		skip_space(ps);
		if (*ps->p != '&')
			break;
		ps->p++;
		r = parse_unary(ps);
		if (!r) {
			strfilter_free(n);
			return NULL;
		}
		n = sf_node(SF_AND, n, r);
	}
	return n;
}

static struct strfilter *parse_or(struct sf_parser *ps)
{
	struct strfilter *n = parse_and(ps), *r;

	while (n) {
		skip_space(ps);
		if (*ps->p != '|')
			break;
		ps->p++;
		r = parse_and(ps);
		if (!r) {
			strfilter_free(n);
			return NULL;
		}
		n = sf_node(SF_OR, n, r);
	}
	return n;
}

struct strfilter *strfilter_new(const char *rules, int *errpos)
{
	struct sf_parser ps = { rules, rules };
	struct strfilter *f = parse_or(&ps);

	skip_space(&ps);
	if (f && *ps.p) {
		strfilter_free(f);
		f = NULL;
	}
	if (!f && errpos)
		*errpos = (int)(ps.p - ps.start);
	return f;
}

void strfilter_free(struct strfilter *f)
{
	if (!f)
		return;
	strfilter_free(f->l);
	strfilter_free(f->r);
	free(f->glob);
	free(f);
}

bool strfilter_match(const struct strfilter *f, const char *s)
{
	switch (f->op) {
	case SF_GLOB:
		return !fnmatch(f->glob, s, 0);
	case SF_NOT:
		return !strfilter_match(f->l, s);
	case SF_AND:
		return strfilter_match(f->l, s) && strfilter_match(f->r, s);
	case SF_OR:
		return strfilter_match(f->l, s) || strfilter_match(f->r, s);
	}
	return false;
}
