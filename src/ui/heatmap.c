/* SPDX-License-Identifier: MIT */
/* Heat maps drawn: cells, axes, ticks, legend and tooltips in SVG; or the cells as CSV. */
#include "ui/heatmap.h"

#include "lib/strbuf.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#define LEFT 80
#define RIGHT 120
#define TOP 60
#define BOTTOM 60

static void esc(struct strbuf *sb, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '&')
			strbuf_addstr(sb, "&amp;");
		else if (*s == '<')
			strbuf_addstr(sb, "&lt;");
		else if (*s == '>')
			strbuf_addstr(sb, "&gt;");
		else if (*s == '"')
			strbuf_addstr(sb, "&quot;");
		else
			strbuf_addch(sb, *s);
	}
}

/* white (few) to dark red (most), on a square-root scale so sparse cells still show */
static void cell_color(u64 count, u64 max, int *r, int *g, int *b)
{
	double f = max ? sqrt((double)count / (double)max) : 0;

	*r = 255 - (int)(80 * f);
	*g = 235 - (int)(235 * f);
	*b = 200 - (int)(200 * f);
}

double heatmap_row_start(const struct heatmap *hm, u32 r)
{
	if (hm->y_log)
		return hm->y0 * pow(hm->y_step, r);
	return hm->y0 + r * hm->y_step;
}

/* the height of @v above the plot's bottom, as a share of the plot (0 to 1) */
static double y_share(const struct heatmap *hm, double v)
{
	if (hm->y_log)
		return v <= hm->y0 ? 0 : log(v / hm->y0) / (log(hm->y_step) * hm->rows);
	return (v - hm->y0) / (hm->y_step * hm->rows);
}

/* the y ticks of a log scale: each power of ten, and 2x and 5x when there are few decades */
static void log_ticks(struct strbuf *sb, const struct heatmap *hm, int plot_h)
{
	double top = heatmap_row_start(hm, hm->rows), decades = log10(top / hm->y0);
	static const double mult[] = { 1, 2, 5 };
	int nr_mult = decades < 3 ? 3 : 1;

	for (double p = hm->y0; p <= top * (1 + 1e-9); p *= 10) {
		for (int m = 0; m < nr_mult; m++) {
			double v = p * mult[m], y;

			if (v > top * (1 + 1e-9))
				break;
			y = TOP + plot_h - y_share(hm, v) * plot_h;
			strbuf_addf(sb, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#000\"/>"
					"<text class=\"e\" x=\"%d\" y=\"%.1f\">%g</text>\n",
				    LEFT - 5, y, LEFT, y, LEFT - 8, y + 4, v);
		}
	}
}

/* a "nice" tick step near @span / @n: 1, 2 or 5 times a power of ten */
static double tick_step(double span, int n)
{
	double raw = span / n, p = pow(10, floor(log10(raw > 0 ? raw : 1)));

	if (raw / p >= 5)
		return 5 * p;
	if (raw / p >= 2)
		return 2 * p;
	return p;
}

int heatmap_write_svg(FILE *out, const struct heatmap *hm, int width)
{
	struct strbuf sb = STRBUF_INIT;
	int w = width > 0 ? width : 1200;
	int plot_w = w - LEFT - RIGHT;
	double cw = hm->cols ? (double)plot_w / hm->cols : 0;
	double ch = hm->rows > 60 ? 6 : hm->rows > 30 ? 10 : 14;
	int plot_h = (int)(ch * hm->rows), h = plot_h + TOP + BOTTOM;
	double span_x = hm->x_step * hm->cols, span_y = hm->y_step * hm->rows, step;
	u64 max = 0;
	int ret = 0, r, g, b;

	for (u64 i = 0; i < (u64)hm->cols * hm->rows; i++)
		if (hm->cells[i] > max)
			max = hm->cells[i];
	strbuf_addf(&sb, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
			 "<svg version=\"1.1\" id=\"hm\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
			 "xmlns=\"http://www.w3.org/2000/svg\">\n",
		    w, h, w, h);
	strbuf_addstr(&sb, "<style type=\"text/css\">text { font-family: Verdana, sans-serif; "
			   "font-size: 11px; fill: #000; } .t { font-size: 16px; text-anchor: middle; } "
			   ".s { fill: #808080; text-anchor: middle; } .m { text-anchor: middle; } "
			   ".e { text-anchor: end; } rect.c:hover { stroke: #000; }</style>\n");
	strbuf_addf(&sb, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", w, h);
	strbuf_addf(&sb, "<text id=\"hm-title\" class=\"t\" x=\"%d\" y=\"22\">", w / 2);
	esc(&sb, hm->title);
	strbuf_addf(&sb, "</text>\n<text id=\"hm-subtitle\" class=\"s\" x=\"%d\" y=\"40\">", w / 2);
	esc(&sb, hm->subtitle);
	strbuf_addstr(&sb, "</text>\n");
	strbuf_addf(&sb, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#fffbf0\" "
			 "stroke=\"#808080\"/>\n",
		    LEFT, TOP, plot_w, plot_h);
	strbuf_addstr(&sb, "<g id=\"cells\">\n");
	for (u32 c = 0; c < hm->cols; c++) {
		for (u32 row = 0; row < hm->rows; row++) {
			u64 n = hm->cells[(u64)c * hm->rows + row];
			double x = LEFT + c * cw, y = TOP + plot_h - (row + 1) * ch;

			if (!n)
				continue;
			cell_color(n, max, &r, &g, &b);
			strbuf_addf(&sb, "<rect class=\"c\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" "
					 "height=\"%.2f\" fill=\"rgb(%d,%d,%d)\"><title>time %.3f-%.3f s, ",
				    x, y, cw, ch, r, g, b, hm->x0 + c * hm->x_step,
				    hm->x0 + (c + 1) * hm->x_step);
			esc(&sb, hm->y_label);
			strbuf_addf(&sb, " %.6g-%.6g: %" PRIu64 " %s</title></rect>\n",
				    heatmap_row_start(hm, row), heatmap_row_start(hm, row + 1), n,
				    hm->what);
		}
	}
	strbuf_addstr(&sb, "</g>\n<g id=\"axes\">\n");
	/* x ticks: seconds */
	step = tick_step(span_x, 10);
	for (double t = ceil(hm->x0 / step) * step; t <= hm->x0 + span_x + 1e-9; t += step) {
		double x = LEFT + (t - hm->x0) / span_x * plot_w;

		strbuf_addf(&sb, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#000\"/>"
				 "<text class=\"m\" x=\"%.1f\" y=\"%d\">%g</text>\n",
			    x, TOP + plot_h, x, TOP + plot_h + 5, x, TOP + plot_h + 18, t);
	}
	strbuf_addf(&sb, "<text id=\"hm-xlabel\" class=\"m\" x=\"%d\" y=\"%d\">Time (s)</text>\n",
		    LEFT + plot_w / 2, TOP + plot_h + 38);
	step = tick_step(span_y, 8);
	if (hm->y_log)
		log_ticks(&sb, hm, plot_h);
	for (double v = ceil(hm->y0 / step) * step; !hm->y_log && v <= hm->y0 + span_y + 1e-9;
	     v += step) {
		double y = TOP + plot_h - (v - hm->y0) / span_y * plot_h;

		strbuf_addf(&sb, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#000\"/>"
				 "<text class=\"e\" x=\"%d\" y=\"%.1f\">%g</text>\n",
			    LEFT - 5, y, LEFT, y, LEFT - 8, y + 4, v);
	}
	strbuf_addf(&sb, "<text id=\"hm-ylabel\" class=\"m\" transform=\"translate(%d,%d) rotate(-90)\">",
		    18, TOP + plot_h / 2);
	esc(&sb, hm->y_label);
	strbuf_addstr(&sb, "</text>\n</g>\n");
	/* legend: the colour scale with its counts */
	strbuf_addf(&sb, "<g id=\"legend\"><text x=\"%d\" y=\"%d\">%s per cell</text>\n",
		    w - RIGHT + 15, TOP - 6, hm->what);
	for (int i = 0; i < 10; i++) {
		u64 n = max ? (u64)ceil((double)max * (i + 1) * (i + 1) / 100.0) : 0;

		cell_color(n, max, &r, &g, &b);
		strbuf_addf(&sb, "<rect x=\"%d\" y=\"%d\" width=\"18\" height=\"14\" "
				 "fill=\"rgb(%d,%d,%d)\" stroke=\"#808080\"/><text x=\"%d\" y=\"%d\">%s%" PRIu64
				 "</text>\n",
			    w - RIGHT + 15, TOP + (9 - i) * 16, r, g, b, w - RIGHT + 38,
			    TOP + (9 - i) * 16 + 11, i == 9 ? "" : "\xe2\x89\xa4 ", n);
	}
	strbuf_addf(&sb, "<text x=\"%d\" y=\"%d\">%" PRIu64 " %s</text>\n", w - RIGHT + 15,
		    TOP + 10 * 16 + 14, hm->nr_points, hm->what);
	if (hm->nr_clipped)
		strbuf_addf(&sb, "<text x=\"%d\" y=\"%d\">%" PRIu64 " above</text>\n", w - RIGHT + 15,
			    TOP + 10 * 16 + 30, hm->nr_clipped);
	strbuf_addstr(&sb, "</g>\n</svg>\n");
	if (fwrite(sb.buf, 1, sb.len, out) != sb.len)
		ret = -EIO;
	strbuf_release(&sb);
	return ret;
}

int heatmap_write_csv(FILE *out, const struct heatmap *hm)
{
	int ret = 0;

	if (fprintf(out, "time_s,%s,count\n", hm->y_unit) < 0)
		ret = -EIO;
	for (u32 c = 0; c < hm->cols; c++)
		for (u32 r = 0; r < hm->rows; r++) {
			u64 n = hm->cells[(u64)c * hm->rows + r];

			if (n && fprintf(out, "%.6f,%.10g,%" PRIu64 "\n", hm->x0 + c * hm->x_step,
					 heatmap_row_start(hm, r), n) < 0)
				ret = -EIO;
		}
	return ret;
}
