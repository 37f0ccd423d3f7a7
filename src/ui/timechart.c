/* SPDX-License-Identifier: MIT */
/* timechart's SVG: a legend, one row per cpu (runs, C-states), one per task (states or IO). */
#include "ui/timechart.h"
#include "lib/xalloc.h"

#include <stdlib.h>
#include <string.h>

#define TC_LEGEND_H 30.0
#define TC_CPU_H 55.0
#define TC_CPU_STEP 60.0
#define TC_TASK_H 25.0
#define TC_TASK_STEP 30.0

struct tc_span *tc_spans_add(struct tc_spans *s, u64 start, u64 end, u8 kind)
{
	struct tc_span *sp;

	if (s->nr == s->alloc) {
		s->alloc = s->alloc ? 2 * s->alloc : 16;
		s->v = xrealloc(s->v, s->alloc * sizeof(*s->v));
	}
	sp = &s->v[s->nr++];
	memset(sp, 0, sizeof(*sp));
	sp->start = start;
	sp->end = end;
	sp->kind = kind;
	return sp;
}

static bool task_selected(const struct timechart *tc, const struct tc_task *t)
{
	if (!tc->procs)
		return true;
	for (const char *const *p = tc->procs; *p; p++) {
		char *end;
		long v = strtol(*p, &end, 10);

		if (*end == '\0' && end != *p) {
			if (v == t->pid || v == t->tid)
				return true;
		} else if (!strcmp(*p, t->comm)) {
			return true;
		}
	}
	return false;
}

bool timechart_task_shown(const struct timechart *tc, const struct tc_task *t, u64 threshold)
{
	/* a task whose name no COMM or FORK record gave is not drawn, as perf */
	if (t->tid == 0 || !t->comm_from_record || !task_selected(tc, t))
		return false;
	if (tc->procs)
		return true;
	return t->runtime >= threshold && t->spans.nr > 0;
}

/* the css classes perf's timechart uses, so the file looks the same in a viewer */
static void write_style(FILE *out)
{
	fputs("<defs>\n  <style type=\"text/css\">\n    <![CDATA[\n"
	      "      rect          { stroke-width: 1; }\n"
	      "      rect.process  { fill:rgb(180,180,180); fill-opacity:0.9; stroke-width:1;   stroke:rgb(  0,  0,  0); } \n"
	      "      rect.process2 { fill:rgb(180,180,180); fill-opacity:0.9; stroke-width:0;   stroke:rgb(  0,  0,  0); } \n"
	      "      rect.process3 { fill:rgb(180,180,180); fill-opacity:0.5; stroke-width:0;   stroke:rgb(  0,  0,  0); } \n"
	      "      rect.sample   { fill:rgb(  0,  0,255); fill-opacity:0.8; stroke-width:0;   stroke:rgb(  0,  0,  0); } \n"
	      "      rect.sample_hi{ fill:rgb(255,128,  0); fill-opacity:0.8; stroke-width:0;   stroke:rgb(  0,  0,  0); } \n"
	      "      rect.error    { fill:rgb(255,  0,  0); fill-opacity:0.5; stroke-width:0;   stroke:rgb(  0,  0,  0); } \n"
	      "      rect.net      { fill:rgb(  0,128,  0); fill-opacity:0.5; stroke-width:0;   stroke:rgb(  0,  0,  0); } \n"
	      "      rect.disk     { fill:rgb(  0,  0,255); fill-opacity:0.5; stroke-width:0;   stroke:rgb(  0,  0,  0); } \n"
	      "      rect.sync     { fill:rgb(128,128,  0); fill-opacity:0.5; stroke-width:0;   stroke:rgb(  0,  0,  0); } \n"
	      "      rect.poll     { fill:rgb(  0,128,128); fill-opacity:0.2; stroke-width:0;   stroke:rgb(  0,  0,  0); } \n"
	      "      rect.blocked  { fill:rgb(255,  0,  0); fill-opacity:0.5; stroke-width:0;   stroke:rgb(  0,  0,  0); } \n"
	      "      rect.waiting  { fill:rgb(224,214,  0); fill-opacity:0.8; stroke-width:0;   stroke:rgb(  0,  0,  0); } \n"
	      "      rect.WAITING  { fill:rgb(255,214, 48); fill-opacity:0.6; stroke-width:0;   stroke:rgb(  0,  0,  0); } \n"
	      "      rect.cpu      { fill:rgb(192,192,192); fill-opacity:0.2; stroke-width:0.5; stroke:rgb(128,128,128); } \n"
	      "      rect.pstate   { fill:rgb(128,128,128); fill-opacity:0.8; stroke-width:0; } \n"
	      "      rect.c1       { fill:rgb(255,214,214); fill-opacity:0.5; stroke-width:0; } \n"
	      "      rect.c2       { fill:rgb(255,172,172); fill-opacity:0.5; stroke-width:0; } \n"
	      "      rect.c3       { fill:rgb(255,130,130); fill-opacity:0.5; stroke-width:0; } \n"
	      "      rect.c4       { fill:rgb(255, 88, 88); fill-opacity:0.5; stroke-width:0; } \n"
	      "      rect.c5       { fill:rgb(255, 44, 44); fill-opacity:0.5; stroke-width:0; } \n"
	      "      rect.c6       { fill:rgb(255,  0,  0); fill-opacity:0.5; stroke-width:0; } \n"
	      "      line.pstate   { stroke:rgb(255,255,  0); stroke-opacity:0.8; stroke-width:2; } \n"
	      "    ]]>\n   </style>\n</defs>\n", out);
}

static void legend_item(FILE *out, double x, const char *cls, const char *text)
{
	fprintf(out, "<rect x=\"%.0f\" width=\"12.50000000\" y=\"0\" height=\"12.5\" class=\"%s\"/>\n",
		x, cls);
	fprintf(out, "<text transform=\"translate(%.8f, 12.50000000)\" font-size=\"10.00000000pt\">%s</text>\n",
		x + 17.5, text);
}

static void write_legend(const struct timechart *tc, FILE *out)
{
	fputs("<g>\n", out);
	if (tc->io_mode) {
		legend_item(out, 0, "disk", "Disk");
		legend_item(out, 100, "net", "Network");
		legend_item(out, 200, "sync", "Sync");
		legend_item(out, 300, "poll", "Poll");
		legend_item(out, 400, "error", "Error");
	} else {
		legend_item(out, 0, "sample", "Running");
		legend_item(out, 100, "c1", "Idle");
		legend_item(out, 200, "c3", "Deeper Idle");
		legend_item(out, 350, "c6", "Deepest Idle");
		legend_item(out, 550, "process2", "Sleeping");
		legend_item(out, 650, "waiting", "Waiting for cpu");
		legend_item(out, 800, "blocked", "Blocked on IO");
	}
	fputs("</g>\n", out);
}

static double time_x(const struct timechart *tc, u64 t)
{
	u64 span = tc->last > tc->first ? tc->last - tc->first : 1;

	if (t < tc->first)
		t = tc->first;
	if (t > tc->last)
		t = tc->last;
	return (double)(t - tc->first) * tc->width / (double)span;
}

static void fmt_duration(char *buf, size_t len, u64 ns)
{
	if (ns >= 1000000)
		snprintf(buf, len, "%.1f ms", ns / 1e6);
	else
		snprintf(buf, len, "%.1f us", ns / 1e3);
}

static const char *const kind_class[] = {
	[TC_RUN] = "sample", [TC_WAIT] = "waiting", [TC_BLOCKED] = "blocked",
	[TC_SLEEP] = "process2", [TC_IDLE] = "c1", [TC_DISK] = "disk", [TC_NET] = "net",
	[TC_POLL] = "poll", [TC_SYNC] = "sync", [TC_ERROR] = "error",
};

static const char *const kind_word[] = {
	[TC_RUN] = "running", [TC_WAIT] = "waiting", [TC_BLOCKED] = "blocked",
	[TC_SLEEP] = "sleeping", [TC_IDLE] = "idle", [TC_DISK] = "disk", [TC_NET] = "net",
	[TC_POLL] = "poll", [TC_SYNC] = "sync", [TC_ERROR] = "error",
};

/* one box with a tooltip (<title>) a viewer shows on hover */
static void write_box(const struct timechart *tc, FILE *out, const struct tc_span *sp, double y,
		      double h, const char *who)
{
	double x0 = time_x(tc, sp->start), x1 = time_x(tc, sp->end);
	const char *cls = kind_class[sp->kind];
	char c[4], dur[32];

	if (sp->kind == TC_RUN && sp->highlight)
		cls = "sample_hi";
	/* a wait of a millisecond or more stands out, as perf draws it */
	if (sp->kind == TC_WAIT && sp->end - sp->start >= 1000000)
		cls = "WAITING";
	if (sp->kind == TC_IDLE) {
		snprintf(c, sizeof(c), "c%d", sp->cpu < 1 ? 1 : sp->cpu > 6 ? 6 : sp->cpu);
		cls = c;
	}
	fmt_duration(dur, sizeof(dur), sp->end - sp->start);
	fprintf(out, "<g>\n<title>%s %s %s</title>\n", who, kind_word[sp->kind], dur);
	fprintf(out, "<rect x=\"%.8f\" width=\"%.8f\" y=\"%.1f\" height=\"%.1f\" class=\"%s\"/>\n",
		x0, x1 - x0, y, h, cls);
	fputs("</g>\n", out);
}

static int cmp_runtime(const void *a, const void *b)
{
	const struct tc_task *x = *(struct tc_task *const *)a, *y = *(struct tc_task *const *)b;

	if (x->first != y->first)
		return x->first < y->first ? -1 : 1;
	return x->tid - y->tid;
}

/* IO mode's x: not clamped (a bar runs on to its task's exit) */
static double io_x(const struct timechart *tc, u64 t)
{
	u64 span = tc->last > tc->first ? tc->last - tc->first : 1;

	return ((double)t - (double)tc->first) * tc->width / (double)span;
}

/* the label's total: "1.0 bytes", "8.8 Kbytes", "6.1 Mbytes" */
static void io_bytes_text(char *buf, size_t size, u64 bytes)
{
	static const char *const units[] = { "bytes", "Kbytes", "Mbytes", "Gbytes" };
	double v = (double)bytes;
	int u = 0;

	while (v >= 1024 && u < 3) {
		v /= 1024;
		u++;
	}
	snprintf(buf, size, "%.1f %s", v, units[u]);
}

/*
 * a box's height, as perf sizes them: polls and syncs 2.5, failed calls
 * 1.25; transfers by their share of the row's largest box, in quarters
 * (3.125 per quarter below three, the largest boxes 1.25)
 */
static double io_height(const struct tc_io *io, u64 max_bytes)
{
	int q;

	if (io->type == TC_IO_POLL || io->type == TC_IO_SYNC)
		return 2.5;
	if (io->err)
		return 1.25;
	q = max_bytes ? (int)((double)io->bytes * 4 / (double)max_bytes) : 0;
	return q >= 3 ? 1.25 : 3.125 * (q + 1);
}

static const char *io_class(const struct tc_io *io)
{
	if (io->err)
		return "error";
	switch (io->type) {
	case TC_IO_READ:
	case TC_IO_WRITE:
		return "disk";
	case TC_IO_RX:
	case TC_IO_TX:
		return "net";
	case TC_IO_POLL:
		return "poll";
	default:
		return "sync";
	}
}

/*
 * perf's IO chart (record -I files): a row per task and name that made
 * IO calls, its bar from its fork (or first call) to its exit, one box
 * per call or merged calls (reads and receives in the upper half, the
 * rest in the lower), newest first, and the bytes moved in its label
 */
static int write_io_svg(struct timechart *tc, FILE *out)
{
	int nr_rows = 0, row = 0;
	double height;
	u64 step = 100000000ULL, first = tc->first, threshold = 10000000000ULL;
	struct tc_task **rows = xcalloc(tc->nr_tasks + 1, sizeof(*rows));

	/* the time axis starts at the 100 ms tick before the first sample */
	tc->first = first / step * step;
	/*
	 * the rows: with -p the chosen tasks; else those that moved at least a
	 * threshold of bytes, which starts high and drops tenfold until -n
	 * (15) rows pass it (at most down to one byte), as perf picks them
	 */
	for (;;) {
		nr_rows = 0;
		for (int i = 0; i < tc->nr_tasks; i++) {
			struct tc_task *t = tc->tasks[i];

			if (t->nr_ios && task_selected(tc, t) &&
			    (tc->procs || t->io_bytes >= threshold))
				rows[nr_rows++] = t;
		}
		if (tc->procs || nr_rows >= tc->proc_num || threshold < 10)
			break;
		threshold /= 10;
	}
	height = TC_LEGEND_H + nr_rows * TC_TASK_STEP + TC_TASK_STEP;
	fputs("<?xml version=\"1.0\" standalone=\"no\"?> \n"
	      "<!DOCTYPE svg SYSTEM \"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\">\n", out);
	fprintf(out, "<svg width=\"%d\" height=\"%.0f\" version=\"1.1\" xmlns=\"http://www.w3.org/2000/svg\">\n",
		tc->width, height);
	write_style(out);
	/* a time line every 100 ms, stronger on whole seconds */
	for (u64 t = (tc->first + step - 1) / step * step; t <= tc->last; t += step) {
		bool sec = !(t % 1000000000ULL);

		fprintf(out, "<line x1=\"%.8f\" y1=\"%.2f\" x2=\"%.8f\" y2=\"%.0f\" style=\"stroke:rgb(%s);stroke-width:%s\"/>\n",
			io_x(tc, t), 15.0, io_x(tc, t), height, sec ? "128,128,128" : "192,192,192",
			sec ? "2.000" : "0.500");
	}
	write_legend(tc, out);
	for (row = 0; row < nr_rows; row++) {
		const struct tc_task *t = rows[row];
		double y = TC_LEGEND_H + row * TC_TASK_STEP, x0, x1;
		u64 max_bytes = 0;
		char bytes[32];

		x0 = io_x(tc, t->io_start);
		x1 = io_x(tc, t->io_end ? t->io_end : tc->last);
		fprintf(out, "<rect x=\"%.8f\" width=\"%.8f\" y=\"%.1f\" height=\"%.1f\" class=\"process3\"/>\n",
			x0, x1 - x0, y, TC_TASK_H);
		for (int k = 0; k < t->nr_ios; k++)
			if (t->ios[k].bytes > max_bytes)
				max_bytes = t->ios[k].bytes;
		for (int k = t->nr_ios - 1; k >= 0; k--) {
			const struct tc_io *io = &t->ios[k];
			double h = io_height(io, max_bytes), bx0, bx1;
			bool upper = io->type == TC_IO_READ || io->type == TC_IO_RX;

			if (tc->io_skip_eagain && io->err == -11)
				continue;
			bx0 = io_x(tc, io->start);
			/* a call that never returned: perf draws it to time 0, wrapped around */
			bx1 = io->end ? io_x(tc, io->end)
				      : (double)(0 - tc->first) * tc->width /
					(double)(tc->last > tc->first ? tc->last - tc->first : 1);
			fprintf(out, "<g>\n<title>fd=%d error=%lld merges=%d</title>\n", io->fd,
				(long long)io->err, io->merges);
			fprintf(out, "<rect x=\"%.8f\" width=\"%.8f\" y=\"%.1f\" height=\"%.1f\" class=\"%s\"/>\n",
				bx0, bx1 - bx0, upper ? y : y + TC_TASK_H - h, h, io_class(io));
			fputs("</g>\n", out);
		}
		io_bytes_text(bytes, sizeof(bytes), t->io_bytes);
		fprintf(out, "<text x=\"%.8f\" y=\"%.8f\">%s:%d (%s)</text>\n", x0, y + 12.5, t->comm,
			t->tid, bytes);
	}
	fputs("</svg>\n", out);
	tc->first = first;
	free(rows);
	return nr_rows;
}

int timechart_write_svg(struct timechart *tc, FILE *out)
{
	int nr_cpu_rows = tc->tasks_only ? 0 : tc->nr_cpus;
	struct tc_task **rows;
	int nr_rows = 0;
	u64 threshold = 0;
	double y0, height;

	if (tc->io_mode)
		return write_io_svg(tc, out);
	rows = xcalloc(tc->nr_tasks + 1, sizeof(*rows));
	/*
	 * The rows: with -p the chosen tasks; else the tasks that ran at least
	 * a threshold, which starts above any run and drops tenfold until at
	 * least -n tasks (15) pass it, as perf picks them.
	 */
	if (!tc->power_only) {
		threshold = 10000000000ULL;
		for (;;) {
			nr_rows = 0;
			for (int i = 0; i < tc->nr_tasks; i++)
				if (timechart_task_shown(tc, tc->tasks[i], threshold))
					rows[nr_rows++] = tc->tasks[i];
			if (tc->procs || nr_rows >= tc->proc_num || threshold < 10)
				break;
			threshold /= 10;
		}
	}
	qsort(rows, nr_rows, sizeof(*rows), cmp_runtime);

	y0 = TC_LEGEND_H + nr_cpu_rows * TC_CPU_STEP + (nr_cpu_rows ? TC_TASK_STEP : 0);
	height = y0 + nr_rows * TC_TASK_STEP + TC_TASK_STEP;
	fputs("<?xml version=\"1.0\" standalone=\"no\"?> \n"
	      "<!DOCTYPE svg SYSTEM \"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\">\n", out);
	fprintf(out, "<svg width=\"%d\" height=\"%.0f\" version=\"1.1\" xmlns=\"http://www.w3.org/2000/svg\">\n",
		tc->width, height);
	write_style(out);
	/* a grid line every tenth of the width, labelled with its time */
	for (int i = 0; i <= 10; i++) {
		double x = tc->width * i / 10.0;

		fprintf(out, "<line x1=\"%.8f\" y1=\"%.2f\" x2=\"%.8f\" y2=\"%.0f\" style=\"stroke:rgb(%s);stroke-width:%s\"/>\n",
			x, 15.0, x, height, i ? "220,220,220" : "192,192,192", i ? "0.075" : "0.500");
	}
	write_legend(tc, out);

	for (int r = 0; r < nr_cpu_rows; r++) {
		struct tc_cpu *c = NULL;
		double y = TC_LEGEND_H + r * TC_CPU_STEP;

		for (int i = 0; i < tc->nr_cpus; i++)
			if (tc->cpus[i].order == r)
				c = &tc->cpus[i];
		if (!c)
			continue;
		fputs("<g>\n", out);
		fprintf(out, "<rect x=\"0.00000000\" width=\"%.8f\" y=\"%.1f\" height=\"%.1f\" class=\"cpu\"/>\n",
			(double)tc->width, y, TC_CPU_H);
		fprintf(out, "<text x=\"10.00000000\" y=\"%.8f\">CPU %d</text>\n", y + 12.5, c->cpu);
		if (tc->cpu_desc)
			fprintf(out, "<text transform=\"translate(10.00000000,%.8f)\" font-size=\"1.25pt\">%s\n</text>\n",
				y + TC_CPU_H - 4, tc->cpu_desc);
		fputs("</g>\n", out);
		for (int i = 0; i < c->spans.nr; i++) {
			const struct tc_span *sp = &c->spans.v[i];
			char who[64] = "";

			if (sp->kind == TC_RUN) {
				for (int t = 0; t < tc->nr_tasks; t++)
					if (tc->tasks[t]->tid == sp->pid)
						snprintf(who, sizeof(who), "%d %s", sp->pid, tc->tasks[t]->comm);
				write_box(tc, out, sp, y + 5, TC_CPU_H - 10, who);
			} else {
				snprintf(who, sizeof(who), "CPU %d C%d", c->cpu, sp->cpu);
				write_box(tc, out, sp, y, TC_CPU_H, who);
			}
		}
	}

	for (int r = 0; r < nr_rows; r++) {
		struct tc_task *t = rows[r];
		double y = y0 + r * TC_TASK_STEP;
		char who[64];

		snprintf(who, sizeof(who), "%d %s", t->tid, t->comm);
		fprintf(out, "<rect x=\"%.8f\" width=\"%.8f\" y=\"%.1f\" height=\"%.1f\" class=\"process\"/>\n",
			time_x(tc, t->first),
			time_x(tc, t->exited ? t->last : tc->last) - time_x(tc, t->first), y, TC_TASK_H);
		for (int i = 0; i < t->spans.nr; i++) {
			const struct tc_span *sp = &t->spans.v[i];

			if (sp->kind == TC_SLEEP)
				continue; /* the row's own grey is sleeping */
			write_box(tc, out, sp, y, TC_TASK_H, who);
		}
		fprintf(out, "<text x=\"%.8f\" y=\"%.8f\">%s:%d (%.1fms)</text>\n",
			time_x(tc, t->first), y + 12.5, t->comm, t->tid,
			t->runtime / 1e6);
	}
	fputs("</svg>\n", out);
	free(rows);
	return nr_rows;
}
