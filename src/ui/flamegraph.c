/* SPDX-License-Identifier: MIT */
/* Flame graphs drawn from folded stacks: the SVG, its script, and the folded text. */
#include "ui/flamegraph.h"

#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define FRAME_H 16	/* pixels per level */
#define FONT_SIZE 12
#define FONT_WIDTH 0.59 /* average glyph width, in font sizes */
#define XPAD 10
#define TOP_PAD (FONT_SIZE * 4 + 6)
#define BOTTOM_PAD (FONT_SIZE * 2 + 12)

/* ---- folded text ---- */

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* the names from the first level down to @i, joined by ';' */
static void node_path(const struct stacks *st, u32 i, struct strbuf *sb)
{
	u32 up[4096];
	int n = 0;

	strbuf_setlen(sb, 0);
	for (u32 k = i; k && n < (int)(sizeof(up) / sizeof(up[0])); k = st->nodes[k].parent)
		up[n++] = k;
	while (n-- > 0) {
		strbuf_addstr(sb, st->nodes[up[n]].name);
		if (n)
			strbuf_addch(sb, ';');
	}
}

int flamegraph_write_folded(FILE *out, const struct stacks *st, bool weights, bool diff)
{
	struct strbuf sb = STRBUF_INIT;
	char **lines = NULL;
	size_t nr = 0, alloc = 0;
	int ret = 0;

	for (u32 i = 1; i < st->nr_nodes; i++) {
		const struct stack_node *n = &st->nodes[i];
		u64 a = weights ? n->self[0] : n->samples[0];
		u64 b = weights ? n->self[1] : n->samples[1];

		if (!n->samples[0] && !n->samples[1])
			continue;
		node_path(st, i, &sb);
		if (diff)
			strbuf_addf(&sb, " %" PRIu64 " %" PRIu64, a, b);
		else
			strbuf_addf(&sb, " %" PRIu64, a);
		lines = xgrow(lines, nr + 1, &alloc, sizeof(*lines));
		lines[nr++] = xstrndup(sb.buf, sb.len);
	}
	qsort(lines, nr, sizeof(*lines), cmp_str);
	for (size_t i = 0; i < nr; i++) {
		if (fputs(lines[i], out) == EOF || fputc('\n', out) == EOF)
			ret = -EIO;
		free(lines[i]);
	}
	free(lines);
	strbuf_release(&sb);
	return ret;
}

/* ---- colours ---- */

static const char *const palettes[] = {
	"java", "kind", "hot", "mem", "io", "red", "green", "blue", "aqua", "yellow", "purple",
	"orange", NULL,
};

bool flame_palette_valid(const char *name)
{
	for (int i = 0; palettes[i]; i++)
		if (!strcmp(name, palettes[i]))
			return true;
	return false;
}

/* three numbers in [0,1) from the name: the same name keeps its colour */
static void name_hash(const char *name, double v[3])
{
	u64 h = 1469598103934665603ULL;

	for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
		h ^= *p;
		h *= 1099511628211ULL;
	}
	for (int i = 0; i < 3; i++) {
		h ^= h >> 29;
		h *= 0xbf58476d1ce4e5b9ULL;
		v[i] = (double)(h >> 40) / (double)(1ULL << 24);
	}
}

struct rgb {
	int r, g, b;
};

static struct rgb shade(const char *pal, double v[3])
{
	struct rgb c;

	if (!strcmp(pal, "red")) {
		c = (struct rgb){ 200 + (int)(55 * v[0]), 50 + (int)(80 * v[0]), 50 + (int)(80 * v[0]) };
	} else if (!strcmp(pal, "green") || !strcmp(pal, "mem")) {
		c = (struct rgb){ 50 + (int)(60 * v[0]), 200 + (int)(55 * v[1]), 50 + (int)(60 * v[0]) };
	} else if (!strcmp(pal, "blue") || !strcmp(pal, "io")) {
		c = (struct rgb){ 80 + (int)(60 * v[0]), 80 + (int)(60 * v[0]), 190 + (int)(65 * v[1]) };
	} else if (!strcmp(pal, "aqua")) {
		c = (struct rgb){ 50 + (int)(60 * v[0]), 165 + (int)(55 * v[0]), 165 + (int)(55 * v[0]) };
	} else if (!strcmp(pal, "yellow")) {
		c = (struct rgb){ 175 + (int)(55 * v[0]), 175 + (int)(55 * v[0]), 50 + (int)(20 * v[1]) };
	} else if (!strcmp(pal, "purple")) {
		c = (struct rgb){ 190 + (int)(65 * v[0]), 80 + (int)(60 * v[0]), 190 + (int)(65 * v[0]) };
	} else if (!strcmp(pal, "orange")) {
		c = (struct rgb){ 190 + (int)(65 * v[0]), 90 + (int)(65 * v[0]), 0 };
	} else { /* hot */
		c = (struct rgb){ 205 + (int)(50 * v[2]), (int)(230 * v[0]), (int)(55 * v[1]) };
	}
	return c;
}

/* the fill of a frame: its kind's hue under the kind palette, else the palette's */
static struct rgb frame_color(const char *pal, const struct stack_node *n)
{
	double v[3];

	name_hash(n->name, v);
	if (strcmp(pal, "java") && strcmp(pal, "kind"))
		return shade(pal, v);
	if (n->kind & STACK_KIND_COMM)
		return shade("yellow", v);
	if (n->kind & STACK_KIND_INLINED)
		return shade("aqua", v);
	if (n->kind & STACK_KIND_JIT)
		return shade("green", v);
	if (n->kind & STACK_KIND_KERNEL)
		return shade("orange", v);
	return shade("red", v);
}

/* growth red, shrinkage blue, as deep as the change is large against the largest */
static struct rgb diff_color(s64 delta, u64 max_delta)
{
	int c;

	if (!delta || !max_delta)
		return (struct rgb){ 250, 250, 250 };
	c = 210 - (int)(210.0 * (double)llabs(delta) / (double)max_delta);
	if (c < 0)
		c = 0;
	return delta > 0 ? (struct rgb){ 255, c, c } : (struct rgb){ c, c, 255 };
}

/* ---- layout ---- */

struct layout {
	const struct stacks *st;
	u64 *incl;	  /* per node and side */
	int side;	  /* the side that sizes frames */
	u32 *first, *next; /* children, sorted by name */
	double *x;	  /* in weight units */
	u32 *depth;
};

static const struct stacks *sort_st;

static int cmp_child(const void *a, const void *b)
{
	return strcmp(sort_st->nodes[*(const u32 *)a].name, sort_st->nodes[*(const u32 *)b].name);
}

static void layout_build(struct layout *lo)
{
	const struct stacks *st = lo->st;
	u32 n = st->nr_nodes;
	u32 *nr_kids = xcalloc(n, sizeof(*nr_kids));
	u32 *start = xcalloc((size_t)n + 1, sizeof(*start));
	u32 *kids = xcalloc(n, sizeof(*kids));
	u32 *fill = xcalloc(n, sizeof(*fill));

	lo->first = xcalloc(n, sizeof(*lo->first));
	lo->next = xcalloc(n, sizeof(*lo->next));
	lo->x = xcalloc(n, sizeof(*lo->x));
	lo->depth = xcalloc(n, sizeof(*lo->depth));
	for (u32 i = 1; i < n; i++)
		nr_kids[st->nodes[i].parent]++;
	for (u32 i = 0; i < n; i++)
		start[i + 1] = start[i] + nr_kids[i];
	for (u32 i = 1; i < n; i++) {
		u32 p = st->nodes[i].parent;

		kids[start[p] + fill[p]++] = i;
	}
	sort_st = st;
	for (u32 i = 0; i < n; i++) {
		u32 *k = kids + start[i];

		if (nr_kids[i] > 1)
			qsort(k, nr_kids[i], sizeof(*k), cmp_child);
		lo->first[i] = nr_kids[i] ? k[0] : 0;
		for (u32 j = 0; j + 1 < nr_kids[i]; j++)
			lo->next[k[j]] = k[j + 1];
	}
	/* parents come before their children: one pass places everything */
	for (u32 i = 0; i < n; i++) {
		double at = lo->x[i];

		for (u32 c = lo->first[i]; c; c = lo->next[c]) {
			lo->x[c] = at;
			lo->depth[c] = lo->depth[i] + 1;
			at += (double)lo->incl[2 * c + lo->side];
		}
	}
	free(nr_kids);
	free(start);
	free(kids);
	free(fill);
}

static void layout_release(struct layout *lo)
{
	free(lo->first);
	free(lo->next);
	free(lo->x);
	free(lo->depth);
	free(lo->incl);
}

/* ---- SVG ---- */

static void xml_escape(struct strbuf *sb, const char *s, size_t len)
{
	for (size_t i = 0; i < len && s[i]; i++) {
		switch (s[i]) {
		case '&': strbuf_addstr(sb, "&amp;"); break;
		case '<': strbuf_addstr(sb, "&lt;"); break;
		case '>': strbuf_addstr(sb, "&gt;"); break;
		case '"': strbuf_addstr(sb, "&quot;"); break;
		case '\'': strbuf_addstr(sb, "&#39;"); break;
		default:
			/* control bytes are not XML */
			if ((unsigned char)s[i] < 0x20)
				strbuf_addch(sb, '?');
			else
				strbuf_addch(sb, s[i]);
		}
	}
}

/* @v with thousands separators */
static void add_count(struct strbuf *sb, u64 v)
{
	char tmp[32];
	int len = snprintf(tmp, sizeof(tmp), "%" PRIu64, v);

	for (int i = 0; i < len; i++) {
		strbuf_addch(sb, tmp[i]);
		if ((len - i - 1) % 3 == 0 && i != len - 1)
			strbuf_addch(sb, ',');
	}
}

/* the label that fits @w pixels: the name, cut with "..", or nothing */
static void add_label(struct strbuf *sb, const char *name, double w)
{
	int fit = (int)(w / (FONT_SIZE * FONT_WIDTH));
	size_t len = strlen(name);

	if (fit < 3)
		return;
	if (len <= (size_t)fit) {
		xml_escape(sb, name, len);
		return;
	}
	xml_escape(sb, name, (size_t)fit - 2);
	strbuf_addstr(sb, "..");
}

#include "ui/flamegraph-js.h"

static void write_head(struct strbuf *sb, const struct flame_style *s, int width, int height,
		       const char *title, const char *subtitle)
{
	strbuf_addf(sb,
		    "<svg version=\"1.1\" id=\"fg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		    "xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\">\n",
		    width, height, width, height);
	strbuf_addstr(sb, "<!-- sonde flamegraph: click a frame to zoom, Search (or Ctrl-F) to "
			  "highlight, Reset Zoom to go back -->\n");
	strbuf_addf(sb, "<defs><linearGradient id=\"bg\" y1=\"0\" y2=\"1\" x1=\"0\" x2=\"0\">"
			"<stop stop-color=\"#eeeeee\" offset=\"5%%\"/><stop stop-color=\"%s\" "
			"offset=\"95%%\"/></linearGradient></defs>\n",
		    s->diff ? "#e0e0ff" : "#eeeeb0");
	strbuf_addstr(sb, "<style type=\"text/css\">\n"
			  "text { font-family: Verdana, sans-serif; font-size: 12px; fill: #000; }\n"
			  "#fg-title { font-size: 17px; text-anchor: middle; }\n"
			  "#fg-subtitle { text-anchor: middle; fill: #a0a0a0; }\n"
			  "#fg-search, #fg-reset, #fg-ignorecase { cursor: pointer; opacity: 0.6; }\n"
			  "#fg-search:hover, #fg-reset:hover, #fg-ignorecase:hover { opacity: 1; }\n"
			  "#fg-matched { text-anchor: end; }\n"
			  "g.f { cursor: pointer; }\n"
			  "g.f:hover rect { stroke: #000; stroke-width: 0.5; }\n"
			  "g.f text { pointer-events: none; }\n"
			  "g.anc rect { opacity: 0.5; }\n"
			  "g.hide { display: none; }\n"
			  "</style>\n");
	strbuf_addf(sb, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"url(#bg)\"/>\n",
		    width, height);
	strbuf_addf(sb, "<text id=\"fg-title\" x=\"%d\" y=\"%d\">", width / 2, FONT_SIZE * 2);
	xml_escape(sb, title, strlen(title));
	strbuf_addstr(sb, "</text>\n");
	strbuf_addf(sb, "<text id=\"fg-subtitle\" x=\"%d\" y=\"%d\">", width / 2, FONT_SIZE * 2 + 18);
	if (subtitle)
		xml_escape(sb, subtitle, strlen(subtitle));
	strbuf_addstr(sb, "</text>\n");
	strbuf_addf(sb, "<text id=\"fg-reset\" x=\"%d\" y=\"%d\" style=\"display:none\">Reset Zoom"
			"</text>\n", XPAD, FONT_SIZE * 2);
	strbuf_addf(sb, "<text id=\"fg-search\" x=\"%d\" y=\"%d\" text-anchor=\"end\">Search</text>\n",
		    width - XPAD - 70, FONT_SIZE * 2);
	strbuf_addf(sb, "<text id=\"fg-ignorecase\" x=\"%d\" y=\"%d\" text-anchor=\"end\">ic</text>\n",
		    width - XPAD, FONT_SIZE * 2);
	strbuf_addf(sb, "<text id=\"fg-details\" x=\"%d\" y=\"%d\"> </text>\n", XPAD,
		    height - FONT_SIZE / 2 - 4);
	strbuf_addf(sb, "<text id=\"fg-matched\" x=\"%d\" y=\"%d\"> </text>\n", width - XPAD,
		    height - FONT_SIZE / 2 - 4);
}

int flamegraph_write(FILE *out, const struct stacks *st, const struct flame_style *style)
{
	struct flame_style s = *style;
	struct layout lo = { .st = st };
	struct strbuf sb = STRBUF_INIT;
	const char *title, *pal;
	double scale, minw;
	u64 total, max_delta = 0;
	u32 max_depth = 0;
	int width, height, ret = 0;

	width = s.width > 0 ? s.width : 1200;
	minw = s.minwidth < 0 ? 0.1 : s.minwidth;
	pal = s.colors ? s.colors : "java";
	title = s.title ? s.title : s.diff ? "Differential Flame Graph" : "Flame Graph";
	if (!s.count_name)
		s.count_name = "samples";
	lo.incl = stacks_totals(st);
	lo.side = s.diff ? 1 : 0;
	layout_build(&lo);
	total = lo.incl[lo.side];
	scale = total ? (double)(width - 2 * XPAD) / (double)total : 0;
	for (u32 i = 0; i < st->nr_nodes; i++) {
		if ((double)lo.incl[2 * i + lo.side] * scale < minw)
			continue;
		if (lo.depth[i] > max_depth)
			max_depth = lo.depth[i];
		if (s.diff) {
			s64 d = (s64)(lo.incl[2 * i + 1] - lo.incl[2 * i]);

			if ((u64)llabs(d) > max_delta && i)
				max_delta = (u64)llabs(d);
		}
	}
	height = (int)(max_depth + 1) * FRAME_H + TOP_PAD + BOTTOM_PAD;
	if (s.html) {
		strbuf_addstr(&sb, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>");
		xml_escape(&sb, title, strlen(title));
		strbuf_addstr(&sb, "</title>\n<style>body{margin:0;padding:8px;font-family:Verdana,"
				   "sans-serif;font-size:12px}#fg-bar{margin:4px 0}</style></head>\n"
				   "<body>\n<div id=\"fg-bar\"><label>Search: <input id=\"fg-input\" "
				   "type=\"search\" size=\"40\" placeholder=\"regexp, eg: ^ext4_\"></label> "
				   "<button id=\"fg-resetbtn\">Reset zoom</button></div>\n");
	} else {
		strbuf_addstr(&sb, "<?xml version=\"1.0\" standalone=\"no\"?>\n");
	}
	write_head(&sb, &s, width, height, title, s.subtitle);
	strbuf_addf(&sb, "<g id=\"frames\" data-total=\"%" PRIu64 "\" data-unit=\"%s\" "
			 "data-inverted=\"%d\" data-fh=\"%d\" data-top=\"%d\" data-height=\"%d\" "
			 "data-xpad=\"%d\">\n",
		    total, s.count_name, s.inverted ? 1 : 0, FRAME_H, TOP_PAD, height, XPAD);
	for (u32 i = 0; i < st->nr_nodes; i++) {
		const struct stack_node *n = &st->nodes[i];
		u64 w = lo.incl[2 * i + lo.side];
		double x = XPAD + lo.x[i] * scale, pw = (double)w * scale, y;
		const char *name = i ? n->name : "all";
		struct rgb c;

		if (pw < minw || !w)
			continue;
		if (s.inverted)
			y = TOP_PAD + (double)lo.depth[i] * FRAME_H;
		else
			y = height - BOTTOM_PAD - (double)(lo.depth[i] + 1) * FRAME_H;
		if (s.diff)
			c = diff_color((s64)(lo.incl[2 * i + 1] - lo.incl[2 * i]), max_delta);
		else if (!i)
			c = (struct rgb){ 210, 210, 210 };
		else
			c = frame_color(pal, n);
		strbuf_addf(&sb, "<g class=\"f\" data-k=\"%u\" data-d=\"%u\" data-x=\"%.0f\" "
				 "data-w=\"%" PRIu64 "\"><title>",
			    n->kind, lo.depth[i], lo.x[i], w);
		xml_escape(&sb, name, strlen(name));
		strbuf_addstr(&sb, " (");
		add_count(&sb, w);
		strbuf_addf(&sb, " %s, %.2f%%", s.count_name, total ? 100.0 * (double)w / (double)total : 0);
		if (s.diff) {
			s64 d = (s64)(lo.incl[2 * i + 1] - lo.incl[2 * i]);
			u64 before = lo.incl[2 * i];

			strbuf_addf(&sb, "; %+" PRId64 " from %" PRIu64, d, before);
			if (before)
				strbuf_addf(&sb, ", %+.2f%%", 100.0 * (double)d / (double)before);
		}
		strbuf_addf(&sb, ")</title><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" "
				 "fill=\"rgb(%d,%d,%d)\" rx=\"2\" ry=\"2\"/><text x=\"%.1f\" y=\"%.1f\">",
			    x, y, pw, FRAME_H - 1, c.r, c.g, c.b, x + 3, y + FRAME_H - 4.5);
		add_label(&sb, name, pw);
		strbuf_addstr(&sb, "</text></g>\n");
		if (sb.len > (1 << 20)) {
			if (fwrite(sb.buf, 1, sb.len, out) != sb.len)
				ret = -EIO;
			strbuf_setlen(&sb, 0);
		}
	}
	strbuf_addstr(&sb, "</g>\n<script type=\"text/ecmascript\"><![CDATA[\n");
	strbuf_addstr(&sb, flamegraph_js);
	strbuf_addstr(&sb, "]]></script>\n</svg>\n");
	if (s.html)
		strbuf_addstr(&sb, "</body></html>\n");
	if (fwrite(sb.buf, 1, sb.len, out) != sb.len)
		ret = -EIO;
	strbuf_release(&sb);
	layout_release(&lo);
	return ret;
}
