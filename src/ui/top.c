/* SPDX-License-Identifier: MIT */
/* sonde top's --stdio frame: perf's refreshing text (header, rule, rows cut to the width). */
#include "ui/top.h"

#include <stdlib.h>
#include <string.h>

const char *top_header_line(const struct top_stats *st, char *buf, size_t size)
{
	if (st->guest_stats) {
		/* perf kvm top: the four modes, and neither lost nor drop counts */
		snprintf(buf, size,
			 "   PerfTop:%8.0f irqs/sec  kernel:%4.1f%% us:%4.1f%% guest kernel:%4.1f%% "
			 "guest us:%4.1f%% exact: %4.1f%% [%s], %s",
			 st->irqs_per_sec, st->kernel_pct, st->user_pct, st->guest_kernel_pct,
			 st->guest_user_pct, st->exact_pct, st->event ? st->event : "",
			 st->target ? st->target : "");
		return buf;
	}
	snprintf(buf, size,
		 "   PerfTop:%8.0f irqs/sec  kernel:%4.1f%%  exact: %4.1f%% lost: %llu/%llu "
		 "drop: %llu/%llu [%s], %s",
		 st->irqs_per_sec, st->kernel_pct, st->exact_pct, st->lost, st->lost_total,
		 st->drop, st->drop_total, st->event ? st->event : "",
		 st->target ? st->target : "");
	return buf;
}

/* put_cut - @line (without its newline) cut to @width bytes, then a newline */
static void put_cut(FILE *fp, const char *line, size_t len, int width)
{
	if (width > 0 && len > (size_t)width)
		len = (size_t)width;
	fwrite(line, 1, len, fp);
	fputc('\n', fp);
}

void top_print_stdio(FILE *fp, const struct top_stats *st, struct hists *hists,
		     const struct hists_print_opts *po, int cols)
{
	char head[512];
	char *rows = NULL;
	size_t rows_len = 0;
	FILE *mem = open_memstream(&rows, &rows_len);
	int width = cols - 1;

	fputs("\033[H\033[2J\n", fp);
	fprintf(fp, "%s\n", top_header_line(st, head, sizeof(head)));
	for (int i = 0; i < width; i++)
		fputc('-', fp);
	fputs("\n\n", fp);
	if (!mem)
		return;
	hists_fprintf(hists, po, mem);
	fclose(mem);
	for (char *p = rows; p && *p;) {
		char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		put_cut(fp, p, len, width);
		p += len + (nl ? 1 : 0);
	}
	free(rows);
	fflush(fp);
}
