/* SPDX-License-Identifier: MIT */
/* JIT symbol maps: /tmp/perf-PID.map ("START SIZE name", hex, one per line). */
#define PR_PREFIX "perf-map"
#include "symbol/symtab.h"

#include "lib/debug.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include "lib/xalloc.h"

#include <elf.h>
#include <errno.h>
#include <string.h>

/* parse one hex number with an optional 0x; returns the end or NULL */
static const char *parse_hex(const char *p, const char *end, u64 *val)
{
	u64 v = 0;
	int nd = 0;

	if (end - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	for (; p < end; p++, nd++) {
		int d = hex_digit(*p);

		if (d < 0)
			break;
		if (nd >= 16)
			return NULL;
		v = v << 4 | (u64)d;
	}
	if (!nd)
		return NULL;
	*val = v;
	return p;
}

static bool is_blank(int c)
{
	return c == ' ' || c == '\t';
}

int perf_map_parse(struct symtab *st, const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len;
	struct strbuf name = STRBUF_INIT;
	int nr = 0;

	while (p < end) {
		const char *eol = memchr(p, '\n', end - p), *q, *ne;
		u64 start, size;

		if (!eol)
			eol = end;
		q = p;
		while (q < eol && is_blank(*q))
			q++;
		q = parse_hex(q, eol, &start);
		if (!q || q >= eol || !is_blank(*q))
			goto next;
		while (q < eol && is_blank(*q))
			q++;
		q = parse_hex(q, eol, &size);
		if (!q || q >= eol || !is_blank(*q))
			goto next;
		while (q < eol && is_blank(*q))
			q++;
		ne = eol;
		while (ne > q && (ne[-1] == '\r' || is_blank(ne[-1])))
			ne--;
		if (ne == q)
			goto next;
		strbuf_reset(&name);
		strbuf_add(&name, q, ne - q);
		symtab_add(st, start, size, STB_GLOBAL, STT_FUNC, name.buf);
		nr++;
next:
		p = eol + 1;
	}
	strbuf_release(&name);
	return nr;
}

int perf_map_load(struct symtab *st, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	long n = strbuf_read_file(&sb, path, 0);
	int nr;

	if (n < 0) {
		strbuf_release(&sb);
		return (int)n;
	}
	nr = perf_map_parse(st, sb.buf, sb.len);
	strbuf_release(&sb);
	/* perf inserts the map's entries as they are: no alias removal, no end fix-up */
	st->allow_aliases = true;
	st->keep_sizes = true;
	symtab_finish(st, false);
	pr_debug("%s: %d symbols\n", path, nr);
	return nr;
}
