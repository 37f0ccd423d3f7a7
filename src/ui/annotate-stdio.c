/* SPDX-License-Identifier: MIT */
/* perf annotate's text form: one symbol's disassembly with source, percentages per instruction. */
#include "ui/annotate-stdio.h"

#include "lib/hashmap.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

const char *annotate_percent_type_name(enum annotate_percent_type t)
{
	switch (t) {
	case PERCENT_GLOBAL_PERIOD:
		return "global period";
	case PERCENT_LOCAL_HITS:
		return "local hits";
	case PERCENT_GLOBAL_HITS:
		return "global hits";
	default:
		return "local period";
	}
}

struct line_list {
	struct annotate_line *v;
	size_t nr, alloc;
};

static struct annotate_line *push(struct line_list *l, enum annotate_line_kind kind,
				  const char *text)
{
	struct annotate_line *al;

	if (l->nr == l->alloc) {
		l->alloc = l->alloc ? 2 * l->alloc : 128;
		l->v = xrealloc(l->v, l->alloc * sizeof(*l->v));
	}
	al = &l->v[l->nr++];
	memset(al, 0, sizeof(*al));
	al->kind = kind;
	al->text = text ? xstrdup(text) : NULL;
	return al;
}

/* objdump -S: how far each source file has been shown */
struct src_state {
	unsigned int max_line;
	unsigned int last_line; /* the last one shown */
};

static void push_source(struct line_list *l, struct disasm *d, struct u64map *files,
			struct strpool *pool, const char *file, unsigned int line)
{
	const char *key = strpool_intern(pool, file);
	struct src_state *st = u64map_find(files, (u64)(uintptr_t)key);
	unsigned int from;

	if (!st) {
		st = xcalloc(1, sizeof(*st));
		u64map_set(files, (u64)(uintptr_t)key, st);
	}
	/*
	 * forward past what was shown: the lines in between, at most five
	 * before @line (so a file's first line shows up to five); backward: the
	 * line alone, unless it is the one this file showed last
	 */
	if (line > st->max_line) {
		from = line > 5 ? line - 5 : 1;
		if (from <= st->max_line)
			from = st->max_line + 1;
	} else if (line == st->last_line) {
		return; /* back at the line shown last in this file: nothing again */
	} else {
		from = line;
	}
	for (unsigned int n = from; n <= line; n++) {
		const char *t = disasm_source_line(d, file, n);

		if (!t)
			break;
		push(l, ALINE_TEXT, t);
	}
	if (line > st->max_line)
		st->max_line = line;
	st->last_line = line;
}

static int free_state(uint64_t key, void *val, void *arg)
{
	(void)key;
	(void)arg;
	free(val);
	return 0;
}

/* a nop perf drops at the end of a symbol (see annotate_shown_insns()) */
static bool padding_nop(const char *text, bool raw)
{
	const char *w = text, *end;

	while (*w && strncmp(w, "nop", 3)) {
		w = strchr(w, ' ');
		if (!w)
			return false;
		w += strspn(w, " ");
	}
	if (!*w)
		return false;
	end = w + strcspn(w, " ");
	return *(end + strspn(end, " ")) || (w == text && !raw);
}

size_t annotate_shown_insns(const struct disasm_insn *insns, size_t nr, bool raw)
{
	/* with --asm-raw a long one ends in a line of bytes alone, which perf keeps */
	while (nr > 1 && !insns[nr - 1].zeros && insns[nr - 1].brk == DISASM_BRK_NONE &&
	       !(raw && insns[nr - 1].len > 7) && padding_nop(insns[nr - 1].text, raw))
		nr--;
	return nr;
}

struct annotate_line *annotate_build_lines(struct disasm *d, const struct disasm_insn *insns,
					   size_t nr, u64 start, bool with_source, size_t *nr_lines)
{
	struct line_list l = { 0 };
	struct u64map files;
	struct strpool pool;
	struct strbuf sb = STRBUF_INIT;
	const char *sec = disasm_section_name(d, start);
	char lab[1024];
	const char *prev_func = NULL, *prev_file = NULL;
	unsigned int prev_line = 0, prev_discr = 0;

	u64map_init(&files);
	strpool_init(&pool);
	push(&l, ALINE_TEXT, "");
	push(&l, ALINE_TEXT, "");
	push(&l, ALINE_TEXT, "");
	strbuf_addf(&sb, "Disassembly of section %s:", sec ? sec : ".text");
	push(&l, ALINE_TEXT, sb.buf);
	push(&l, ALINE_TEXT, "");
	strbuf_reset(&sb);
	/* no symbol at all (a kcore): objdump names the block after its section */
	strbuf_addf(&sb, "%016" PRIx64 " <%s>:", start,
		    disasm_label(d, start, lab, sizeof(lab))
			    ? lab : disasm_block_label(d, start, lab, sizeof(lab)));
	push(&l, ALINE_TEXT, sb.buf);
	for (size_t i = 0; i < nr; i++) {
		const struct disasm_insn *in = &insns[i];
		bool func_changed = in->func && (i == 0 || in->func != prev_func);

		/* objdump's blocks: a blank line, the section's title, the symbol's label */
		if (in->brk != DISASM_BRK_NONE) {
			push(&l, ALINE_TEXT, "");
			if (in->brk == DISASM_BRK_SECTION) {
				const char *s2 = disasm_section_name(d, in->addr);

				strbuf_reset(&sb);
				strbuf_addf(&sb, "Disassembly of section %s:", s2 ? s2 : "");
				push(&l, ALINE_TEXT, sb.buf);
				push(&l, ALINE_TEXT, "");
			}
			strbuf_reset(&sb);
			strbuf_addf(&sb, "%016" PRIx64 " <%s>:", in->addr,
				    disasm_block_label(d, in->addr, lab, sizeof(lab)));
			push(&l, ALINE_TEXT, sb.buf);
		}
		if (in->zeros) {
			/* objdump's "..." over zero bytes: a line of text */
			push(&l, ALINE_TEXT, in->text);
			continue;
		}
		if (func_changed) {
			strbuf_reset(&sb);
			strbuf_addf(&sb, "%s:", in->func);
			push(&l, ALINE_TEXT, sb.buf);
		}
		if (in->file && (func_changed || in->file != prev_file || in->line != prev_line ||
				 in->discr != prev_discr)) {
			struct annotate_line *al;

			strbuf_reset(&sb);
			strbuf_addf(&sb, "%s:%u", in->file, in->line);
			if (in->discr)
				strbuf_addf(&sb, " (discriminator %u)", in->discr);
			al = push(&l, ALINE_MARKER, sb.buf);
			al->line = in->line;
			if (with_source && (in->file != prev_file || in->line != prev_line))
				push_source(&l, d, &files, &pool, in->file, in->line);
		}
		if (in->func)
			prev_func = in->func;
		if (in->file) {
			prev_file = in->file;
			prev_line = in->line;
			prev_discr = in->discr;
		}
		push(&l, ALINE_INSN, NULL)->insn = in;
	}
	u64map_for_each(&files, free_state, NULL);
	u64map_release(&files);
	strpool_release(&pool);
	strbuf_release(&sb);
	*nr_lines = l.nr;
	return l.v;
}

void annotate_lines_free(struct annotate_line *lines, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		free(lines[i].text);
	free(lines);
}

/* objdump's tabs, expanded to 8 columns from the start of @s */
static void add_expanded(struct strbuf *sb, const char *s)
{
	size_t col = 0;

	for (; *s; s++) {
		if (*s == '\t') {
			do {
				strbuf_addch(sb, ' ');
				col++;
			} while (col % 8);
		} else {
			strbuf_addch(sb, *s);
			col++;
		}
	}
}

static int hex_width(u64 v)
{
	int n = 1;

	while (v >>= 4)
		n++;
	return n;
}

/*
 * objdump's instruction line(s): "addr:\t[bytes\t]text", more bytes on
 * continuation lines; addresses right-aligned to the widest one
 */
static void insn_text(struct strbuf *sb, const struct disasm_insn *in, bool raw, int part,
		      int width)
{
	struct strbuf t = STRBUF_INIT;

	if (!raw) {
		strbuf_addf(&t, "%" PRIx64 ":\t%s", in->addr, in->text);
	} else if (part == 0) {
		size_t n = in->len < 7 ? in->len : 7;
		size_t w = 0;

		strbuf_addf(&t, "%" PRIx64 ":\t", in->addr);
		for (size_t i = 0; i < n; i++, w += 3)
			strbuf_addf(&t, "%02x ", in->bytes[i]);
		for (; w < 21; w++)
			strbuf_addch(&t, ' ');
		strbuf_addf(&t, "\t%s", in->text);
	} else {
		size_t from = (size_t)part * 7, to = from + 7 < in->len ? from + 7 : in->len;

		strbuf_addf(&t, "%" PRIx64 ":\t", in->addr + from);
		for (size_t i = from; i < to; i++)
			strbuf_addf(&t, "%02x%s", in->bytes[i], i + 1 < to ? " " : "");
	}
	/* perf expands objdump's tabs from the address, then pads it to the widest */
	for (int w = hex_width(in->addr + (raw ? (u64)part * 7 : 0)); w < width; w++)
		strbuf_addch(sb, ' ');
	add_expanded(sb, t.buf);
	while (sb->len && sb->buf[sb->len - 1] == ' ')
		sb->buf[--sb->len] = 0;
	strbuf_release(&t);
}

double annotate_percent(const struct annotate_addr *a, const struct annotate_sym *as,
			const struct annotate_hists *ah, enum annotate_percent_type t)
{
	u64 v, total;

	if (!a)
		return 0.0;
	switch (t) {
	case PERCENT_GLOBAL_PERIOD:
		v = a->period;
		total = ah->total_period[as->evsel_idx];
		break;
	case PERCENT_LOCAL_HITS:
		v = a->hits;
		total = as->hits;
		break;
	case PERCENT_GLOBAL_HITS:
		v = a->hits;
		total = ah->total_hits[as->evsel_idx];
		break;
	default:
		v = a->period;
		total = as->period;
		break;
	}
	return total ? 100.0 * (double)v / (double)total : 0.0;
}

struct line_sum {
	char *srcline;
	double percent;
	size_t order; /* first seen */
};

static int cmp_line_sum(const void *a, const void *b)
{
	const struct line_sum *x = a, *y = b;

	if (x->percent != y->percent)
		return x->percent > y->percent ? -1 : 1;
	return x->order > y->order ? -1 : x->order < y->order;
}

/*
 * -l: perf's "Sorted summary for file" of the source lines whose
 * instructions hold more than half a percent (exactly 0.5 is out, as in
 * perf), and the "// file:line" mark of each such instruction that starts
 * another line (returned per line index, owned strings, NULL elsewhere).
 */
static const char **print_line_summary(FILE *out, const struct annotate_line *lines, size_t nr,
				       const struct annotate_sym *as,
				       const struct annotate_hists *ah, const char *dso_path,
				       const struct annotate_print_opts *o)
{
	const char **marks = xcalloc(nr + 1, sizeof(*marks));
	struct line_sum *sums = NULL;
	size_t nr_sums = 0;
	char *last = NULL;

	for (size_t i = 0; i < nr; i++) {
		const struct disasm_insn *in = lines[i].insn;
		const struct annotate_addr *a;
		const char *file;
		double pct;
		char buf[4096];
		size_t k;

		if (lines[i].kind != ALINE_INSN)
			continue;
		a = annotate_sym_find_addr(as, in->addr);
		pct = annotate_percent(a, as, ah, o->percent_type);
		if (!a || pct <= 0.5)
			continue;
		if (o->unread_dso) {
			fprintf(stderr, "addr2line %s: could not read first record\n", dso_path);
			snprintf(buf, sizeof(buf), "%s[%" PRIx64 "]", o->unread_dso, in->addr);
		} else if (in->file) {
			file = o->full_paths || !strrchr(in->file, '/') ? in->file
								      : strrchr(in->file, '/') + 1;
			snprintf(buf, sizeof(buf), "%s:%u", file, in->line);
		} else if (dso_path && dso_path[0] != '[' && in->symfile) {
			/* addr2line without DWARF: the symbol table's file, no line */
			snprintf(buf, sizeof(buf), "%s:0", in->symfile);
		} else if (!dso_path || dso_path[0] == '[') {
			/* no file to ask (the vdso): perf names the dso and the address */
			snprintf(buf, sizeof(buf), "%s[%" PRIx64 "]", dso_path ? dso_path : "",
				 in->addr);
		} else {
			snprintf(buf, sizeof(buf), "??:0");
		}
		for (k = 0; k < nr_sums && strcmp(sums[k].srcline, buf); k++)
			;
		if (k == nr_sums) {
			sums = xrealloc(sums, (nr_sums + 1) * sizeof(*sums));
			sums[nr_sums].srcline = xstrdup(buf);
			sums[nr_sums].percent = 0;
			sums[nr_sums].order = nr_sums;
			nr_sums++;
		}
		sums[k].percent += pct;
		if (!last || strcmp(last, buf))
			marks[i] = xstrdup(buf);
		last = sums[k].srcline;
	}
	if (nr_sums)
		qsort(sums, nr_sums, sizeof(*sums), cmp_line_sum);
	fprintf(out, "\nSorted summary for file %s\n", dso_path);
	fprintf(out, "----------------------------------------------\n\n");
	for (size_t k = 0; k < nr_sums; k++) {
		fprintf(out, "%8.2f %s\n", sums[k].percent, sums[k].srcline);
		free(sums[k].srcline);
	}
	free(sums);
	return marks;
}

static const char *skip_blank(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

void annotate_fprintf(FILE *out, const struct annotate_line *lines, size_t nr,
		      const struct annotate_sym *as, const struct annotate_hists *ah,
		      const char *dso_name, const char *dso_path, const char *event_name,
		      const struct annotate_print_opts *o)
{
	struct strbuf sb = STRBUF_INIT;
	unsigned int counter = 0;
	int width = 1;
	size_t hlen;

	const char **marks = NULL;

	for (size_t i = 0; i < nr; i++)
		if (lines[i].kind == ALINE_INSN)
			width = hex_width(lines[i].insn->addr);
	if (o->print_line)
		marks = print_line_summary(out, lines, nr, as, ah, dso_path, o);
	strbuf_addf(&sb, "Source code & Disassembly of %s for %s (%" PRIu64
			 " samples, percent: %s)",
		    dso_name, event_name, as->hits, annotate_percent_type_name(o->percent_type));
	if (o->show_total_period)
		fprintf(out, "%-12s |\t%s\n", " Period", sb.buf);
	else
		fprintf(out, "%s |\t%s\n", o->show_nr_samples ? " Samples" : " Percent", sb.buf);
	/* the column's title, " |", six, then the text */
	hlen = sb.len + (o->show_total_period ? 20 : 16);
	for (size_t i = 0; i < hlen; i++)
		fputc('-', out);
	fputc('\n', out);
	for (size_t i = 0; i < nr; i++) {
		const struct annotate_line *al = &lines[i];

		if (al->kind == ALINE_MARKER && al->text[0] == '/') {
			counter = al->line;
			continue;
		}
		if (al->kind == ALINE_INSN) {
			const struct disasm_insn *in = al->insn;
			const struct annotate_addr *a = annotate_sym_find_addr(as, in->addr);
			int parts = o->asm_raw && in->len > 7 ? (in->len + 6) / 7 : 1;

			for (int p = 0; p < parts; p++) {
				/* a continuation line has its own address, and perf its own samples */
				const struct annotate_addr *pa =
					p ? annotate_sym_find_addr(as, in->addr + 7 * (u64)p) : a;

				strbuf_reset(&sb);
				insn_text(&sb, in, o->asm_raw, p, width);
				if (!p && marks && marks[i])
					strbuf_addf(&sb, " // %s", marks[i]);
				if (o->show_total_period)
					fprintf(out, "%12" PRIu64 " :   %s\n", pa ? pa->period : 0,
						sb.buf);
				else if (o->show_nr_samples)
					fprintf(out, "%8" PRIu64 " :   %s\n", pa ? pa->hits : 0, sb.buf);
				else
					fprintf(out, "%8.2f :   %s\n",
						annotate_percent(pa, as, ah, o->percent_type), sb.buf);
				counter++;
			}
			continue;
		}
		{
			const char *t = skip_blank(al->text);
			size_t tl = strlen(t);

			while (tl && (t[tl - 1] == ' ' || t[tl - 1] == '\t'))
				tl--;
			const char *pad = o->show_total_period ? "             " : "         ";

			if (!tl)
				fprintf(out, "%s:\n", pad);
			else
				fprintf(out, "%s: %-*u %.*s\n", pad, width, counter, (int)tl, t);
			counter++;
		}
	}
	if (marks) {
		for (size_t i = 0; i < nr; i++)
			free((char *)marks[i]);
		free(marks);
	}
	strbuf_release(&sb);
}
