/* SPDX-License-Identifier: MIT */
/* annotate's TUI (ncursesw): one symbol's disassembly with percentages, jump arrows and perf's keys. */
#include "ui/annotate-browser.h"

#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <curses.h>
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* the histogram browser's colour pairs (the same numbers when nested) */
enum { APAIR_HOT = 1, APAIR_WARM, APAIR_TITLE, APAIR_SELECTED };

#define AKEY_ESCAPE 27
#define AKEY_CTRL_C 3
#define AKEY_TAB 9

/* struct arow - one line of the view: a source line or an instruction */
struct arow {
	const struct annotate_line *al;
	const struct disasm_insn *in;	/* NULL: source text */
	const struct annotate_addr *addr; /* its samples, or NULL */
	const char *srcloc;		/* source text: the "file:line" marker it follows, or NULL */
	double pct;
	unsigned int lineno;		/* source text: its number (k), 0 for none */
	int nr_jumps_in;		/* jumps of the symbol landing here */
	bool has_target;		/* a jump/call with a decoded target */
	u64 target;
};

struct abrowser {
	const struct annotate_browse_args *a;
	struct arow *rows;
	size_t nr_rows;
	size_t *view;			/* indices of the rows shown (source toggle) */
	size_t nr_view;
	size_t *hot;			/* rows with samples, hottest first */
	size_t nr_hot, hot_pos;
	size_t top, sel;		/* in view indices */
	bool show_source, raw_offsets, jump_counts, arrows, color;
	bool full_addr;	/* f: the raw view's addresses as the process had them */
	int off_width, addr_width, cnt_width, mnem_width;
	int src_width, full_width; /* the raw view's label widths: file offsets, full addresses */
	bool fresh;			/* no key yet: perf's first Up/Down does not move */
	bool line_numbers;		/* k */
	int offset_level;		/* O: offsets on jump targets (0), calls too (1), all (2) */
	enum annotate_percent_type pct_type; /* p and b change it */
	enum { AVAL_PERCENT, AVAL_PERIOD, AVAL_SAMPLES } values; /* t */
	char search[64];		/* the last search string (/ and ?) */
	bool search_back;		/* the last search was ? */
	char status[256];
};

static bool starts_with(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

/*
 * split_insn - objdump's "mnem   operands": the first word's length and
 * the rest. perf's browser splits there even after a prefix ("rep",
 * "lock", "cs", "notrack", "bnd": the instruction is then the operands)
 */
static size_t split_insn(const char *text, const char **ops)
{
	const char *end = text;

	while (*end && *end != ' ')
		end++;
	*ops = end;
	while (**ops == ' ')
		(*ops)++;
	return (size_t)(end - text);
}

/* is_prefix - a prefix objdump wrote as a word before the instruction ("rep", "cs", "bnd") */
static bool is_prefix(const char *mnem, size_t len)
{
	static const char *const prefixes[] = { "rep", "repz", "repnz", "repe", "repne", "cs", "ds",
						"es", "ss", "fs", "gs", "notrack", "bnd", "addr32",
						"data16" };

	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (strlen(prefixes[i]) == len && !strncmp(mnem, prefixes[i], len))
			return true;
	return false;
}

static bool is_jump(const char *mnem, size_t len)
{
	/* "je,pt" (a hinted jump) is no instruction perf's browser knows */
	if (memchr(mnem, ',', len))
		return false;
	return len && (mnem[0] == 'j' || (len >= 4 && starts_with(mnem, "loop")));
}

static bool is_call(const char *mnem, size_t len)
{
	return len >= 4 && starts_with(mnem, "call");
}

static bool is_ret(const char *mnem, size_t len)
{
	return len >= 3 && starts_with(mnem, "ret");
}

/* decode_target - "1181 <leaf+0x38>": the address; false for indirect operands */
static bool decode_target(const char *ops, u64 *addr)
{
	char *end;
	unsigned long long v;

	if (!((*ops >= '0' && *ops <= '9') || (*ops >= 'a' && *ops <= 'f')))
		return false;
	v = strtoull(ops, &end, 16);
	if (end == ops || (*end && *end != ' '))
		return false;
	*addr = v;
	return true;
}

static int hex_digits(u64 v)
{
	int n = 1;

	while (v >>= 4)
		n++;
	return n;
}

/*
 * row_percent - @addr's share by the browser's percent type. perf 6.1's
 * annotate command knows no global hit count: its global hits are all 0,
 * and so are the browser's then (the lines show blank).
 */
static double row_percent(const struct abrowser *b, const struct annotate_addr *addr)
{
	if (b->pct_type == PERCENT_GLOBAL_HITS && b->a->zero_global_hits)
		return 0.0;
	/* report's: the share of all the event's samples (annotate's: of those it kept) */
	if (addr && b->pct_type == PERCENT_GLOBAL_HITS && b->a->global_hits)
		return 100.0 * (double)addr->hits / (double)b->a->global_hits;
	if (addr && b->pct_type == PERCENT_GLOBAL_PERIOD && b->a->global_period)
		return 100.0 * (double)addr->period / (double)b->a->global_period;
	return annotate_percent(addr, b->a->as, b->a->ah, b->pct_type);
}

static void build_rows(struct abrowser *b)
{
	const struct annotate_browse_args *a = b->a;
	const struct annotate_sym *as = a->as;
	u64 start = as->sym->start, end = as->sym->end;
	int max_jumps = 0;
	unsigned int counter = 0;
	const char *srcloc = NULL;

	b->rows = xcalloc(a->nr_lines ? a->nr_lines : 1, sizeof(*b->rows));
	for (size_t i = 0; i < a->nr_lines; i++) {
		const struct annotate_line *al = &a->lines[i];
		struct arow *r;

		/* perf's browser shows objdump's lines but the absolute "file:line" markers */
		if (al->kind == ALINE_MARKER && al->text && al->text[0] == '/') {
			/* it numbers the lines after it (k) and locates the source (l) */
			counter = al->line;
			srcloc = al->text;
			continue;
		}
		r = &b->rows[b->nr_rows++];
		r->al = al;
		r->in = al->kind == ALINE_INSN ? al->insn : NULL;
		if (!r->in && al->text && al->text[strspn(al->text, " \t")])
			r->lineno = counter;
		counter++;
		/* a relative-path marker is shown as text */
		if (r->in) {
			const char *ops;
			size_t ml = split_insn(r->in->text, &ops);

			r->addr = annotate_sym_find_addr(as, r->in->addr);
			r->pct = row_percent(b, r->addr);
			if ((is_jump(r->in->text, ml) || is_call(r->in->text, ml)) &&
			    decode_target(ops, &r->target))
				r->has_target = true;
		} else {
			r->srcloc = srcloc;
		}
	}
	/* jump sources per target inside the symbol */
	for (size_t i = 0; i < b->nr_rows; i++) {
		struct arow *r = &b->rows[i];
		const char *ops;

		if (!r->has_target || r->target < start || r->target >= end ||
		    !is_jump(r->in->text, split_insn(r->in->text, &ops)))
			continue;
		for (size_t j = 0; j < b->nr_rows; j++)
			if (b->rows[j].in && b->rows[j].in->addr == r->target) {
				b->rows[j].nr_jumps_in++;
				if (b->rows[j].nr_jumps_in > max_jumps)
					max_jumps = b->rows[j].nr_jumps_in;
				break;
			}
	}
	/* perf's offset column: as wide as the symbol's size in hex ("10" for sixteen bytes) */
	b->off_width = hex_digits(end - start);
	for (size_t i = 0; i < b->nr_rows; i++) {
		const char *ops;
		int ml = b->rows[i].in ? (int)split_insn(b->rows[i].in->text, &ops) : 0;

		if (ml + 1 > b->mnem_width)
			b->mnem_width = ml + 1;
		/* perf measures the raw view's address column from the map's start (a kernel's) */
		if (b->rows[i].in && hex_digits(b->rows[i].in->addr - b->a->addr_base) > b->addr_width)
			b->addr_width = hex_digits(b->rows[i].in->addr - b->a->addr_base);
		if (b->rows[i].in) {
			u64 ia = b->rows[i].in->addr;
			/* source rows: user code's file offsets; a kernel's as its addresses */
			int d = hex_digits(b->a->addr_base ? ia - b->a->addr_base :
							     annotate_sym_file_offset(b->a->as, ia));

			if (d > b->src_width)
				b->src_width = d;
			d = hex_digits(annotate_sym_full_addr(b->a->as, ia));
			if (d > b->full_width)
				b->full_width = d;
		}
	}
	/* the counts column is there with J even when nothing jumps in the symbol */
	b->cnt_width = 1 + (max_jumps >= 10) + (max_jumps >= 100);
	/* the hot rows, hottest first (ties: the later address first, as perf's) */
	b->hot = xcalloc(b->nr_rows ? b->nr_rows : 1, sizeof(*b->hot));
	for (size_t i = 0; i < b->nr_rows; i++)
		if (b->rows[i].in && b->rows[i].pct > 0)
			b->hot[b->nr_hot++] = i;
	for (size_t i = 1; i < b->nr_hot; i++) {
		size_t v = b->hot[i], j = i;

		while (j && b->rows[b->hot[j - 1]].pct <= b->rows[v].pct) {
			b->hot[j] = b->hot[j - 1];
			j--;
		}
		b->hot[j] = v;
	}
}

/* build_view - the rows shown: all, or the instructions alone without source */
static void build_view(struct abrowser *b)
{
	size_t keep = b->nr_view && b->sel < b->nr_view ? b->view[b->sel] : (size_t)-1;

	free(b->view);
	b->view = xcalloc(b->nr_rows ? b->nr_rows : 1, sizeof(*b->view));
	b->nr_view = 0;
	for (size_t i = 0; i < b->nr_rows; i++)
		if (b->show_source || b->rows[i].in)
			b->view[b->nr_view++] = i;
	b->sel = 0;
	for (size_t i = 0; i < b->nr_view && keep != (size_t)-1; i++)
		if (b->view[i] >= keep) {
			b->sel = i;
			break;
		}
}

static void select_row(struct abrowser *b, size_t row)
{
	for (size_t i = 0; i < b->nr_view; i++)
		if (b->view[i] == row) {
			b->sel = i;
			return;
		}
}

/* centre - the selected line in the middle of the screen (perf's jumps to hot lines) */
static void centre(struct abrowser *b)
{
	size_t half = (size_t)(LINES - 2 > 0 ? LINES - 2 : 0) / 2;

	b->top = b->sel > half ? b->sel - half : 0;
}

/* operands as perf's simplified view shows them: jump offsets, symbol names for rip-relative data */
static void simple_operands(struct strbuf *sb, const struct abrowser *b, const struct arow *r,
			    const char *ops)
{
	const struct annotate_sym *as = b->a->as;
	const char *lt, *gt, *rip, *hash;

	if (r->has_target) {
		const struct annotate_browse_args *a = b->a;
		const char *o2;
		bool call = is_call(r->in->text, split_insn(r->in->text, &o2));
		bool inside = r->target >= as->sym->start &&
			      (r->target < as->sym->end || (!call && r->target == as->sym->end));

		/* a kernel's: perf names a call into the symbol itself after it */
		if (inside && !(call && a->target_syms)) {
			strbuf_addf(sb, "%" PRIx64, r->target - as->sym->start);
			return;
		}
		if (a->target_syms) {
			/*
			 * calls and forward jumps by their symbol (a jump to none
			 * by its offset), jumps back as objdump wrote them
			 */
			const struct symbol *t = NULL;

			if ((call || r->target > r->in->addr) &&
			    (!a->target_hi || (r->target >= a->target_lo && r->target < a->target_hi)))
				t = symtab_find(a->target_syms, r->target);
			/* perf's annotate SYM loses the other symbols that had samples */
			if (t && t != as->sym && a->hidden_syms &&
			    u64map_find(a->hidden_syms, (u64)(uintptr_t)t))
				t = NULL;
			if (t) {
				strbuf_addstr(sb, t->name);
				return;
			}
			if (!call) {
				if (r->target > as->sym->start)
					strbuf_addf(sb, "%" PRIx64, r->target - as->sym->start);
				else
					strbuf_addstr(sb, ops);
				return;
			}
		}
		lt = strchr(ops, '<');
		gt = lt ? strrchr(lt, '>') : NULL;
		if (lt && gt) {
			strbuf_add(sb, lt + 1, (size_t)(gt - lt - 1));
			return;
		}
		if (a->target_syms) {
			strbuf_addf(sb, "*%" PRIx64, r->target);
			return;
		}
	}
	rip = strstr(ops, "(%rip)");
	hash = strstr(ops, "# ");
	lt = hash ? strchr(hash, '<') : NULL;
	gt = lt ? strrchr(lt, '>') : NULL;
	if (rip && hash && !lt) {
		/* a target objdump could not name (a kcore): perf drops the comment */
		const char *cend = hash;

		while (cend > ops && cend[-1] == ' ')
			cend--;
		strbuf_add(sb, ops, (size_t)(cend - ops));
		return;
	}
	if (rip && hash && lt && gt && rip < hash) {
		const char *disp = rip;
		const char *tail = rip + strlen("(%rip)");
		const char *cend = hash;

		while (disp > ops && disp[-1] != ',' && disp[-1] != ' ')
			disp--;
		while (cend > tail && cend[-1] == ' ')
			cend--;
		strbuf_add(sb, ops, (size_t)(disp - ops));
		strbuf_add(sb, lt + 1, (size_t)(gt - lt - 1));
		strbuf_add(sb, tail, (size_t)(cend - tail));
		return;
	}
	strbuf_addstr(sb, ops);
}

/*
 * row_text - the text right of the "│" (UTF-8; the arrows are one column
 * each). @g3: the 3 columns after the label (the selected jump's box
 * corners), or NULL; @bar: inside the selected jump's range, a "│" in the
 * column after the label.
 */
/*
 * label_width - the label column's width for an instruction (@insn) or a
 * source row: offsets in the simplified view; in the raw one the addresses,
 * while source rows line up with the file offsets perf keeps (16 columns
 * with f), whatever the addresses shown
 */
static int label_width(const struct abrowser *b, bool insn)
{
	if (!b->raw_offsets)
		return b->off_width;
	if (insn)
		return b->full_addr ? b->full_width : b->addr_width;
	return b->full_addr ? 16 : b->src_width;
}

static void row_body(struct strbuf *sb, const struct abrowser *b, const struct arow *r,
		     const char *g3, bool bar)
{
	int lw = label_width(b, r->in != NULL);
	/* jump counts go with the offsets of the simplified view only */
	bool counts = b->jump_counts && !b->raw_offsets;
	int cw = counts ? b->cnt_width + (b->cnt_width ? 1 : 0) : 0;
	const char *ops, *arrow = "  ";
	size_t ml;
	bool show_off;

	if (!r->in) {
		const char *t = r->al->text ? r->al->text : "";

		/* source lines lose their indentation, as in perf's browser */
		while (*t == ' ' || *t == '\t')
			t++;
		/* perf indents source lines for the jump counts even in the raw view */
		int scw = b->jump_counts && b->cnt_width ? b->cnt_width + 1 : 0;

		/* k: the source line's number, left in the label's columns */
		if (b->line_numbers && r->lineno)
			strbuf_addf(sb, "%-*u", scw + lw + 1, r->lineno);
		else
			strbuf_addf(sb, "%*s", scw + lw + 1, "");
		strbuf_addstr(sb, bar ? "\u2502" : " ");
		strbuf_addstr(sb, t);
		return;
	}
	ml = split_insn(r->in->text, &ops);
	show_off = r->nr_jumps_in || b->offset_level >= 2 ||
		   (b->offset_level == 1 && is_call(r->in->text, ml));
	/* perf leaves the counts' blank out where it prints an offset without a count */
	if (counts && b->cnt_width) {
		if (r->nr_jumps_in)
			strbuf_addf(sb, "%*d ", b->cnt_width, r->nr_jumps_in);
		else if (!show_off)
			strbuf_addf(sb, "%*s", cw, "");
	}
	if (b->raw_offsets)
		strbuf_addf(sb, "%*" PRIx64 ":", lw,
			    b->full_addr ? annotate_sym_full_addr(b->a->as, r->in->addr) : r->in->addr);
	else if (show_off)
		strbuf_addf(sb, "%*" PRIx64 ":", lw, r->in->addr - b->a->as->sym->start);
	else
		strbuf_addf(sb, "%*s", lw + 1, "");
	if (b->arrows) {
		/* a jump to the symbol's end (past its last line) is perf's too */
		bool inside = r->has_target && r->target >= b->a->as->sym->start &&
			      r->target <= b->a->as->sym->end;

		/* calls, and jumps out of the symbol (tail calls) or through a register, point right */
		if (is_call(r->in->text, ml) ||
		    (!inside && is_jump(r->in->text, ml) &&
		     (r->has_target || starts_with(r->in->text, "jmp "))))
			arrow = "\u2192 ";
		else if (is_ret(r->in->text, ml))
			arrow = "\u2190 ";
		else if (inside && is_jump(r->in->text, ml))
			arrow = r->target > r->in->addr ? "\u2193 " : "\u2191 ";
	}
	if (g3) {
		strbuf_addstr(sb, g3);
	} else {
		strbuf_addstr(sb, bar ? "\u2502" : " ");
		strbuf_addstr(sb, arrow);
	}
	/* perf's simplified view shows a nop of any length as "nop" */
	if (!b->raw_offsets && starts_with(r->in->text, "nop")) {
		strbuf_addstr(sb, "nop");
		return;
	}
	strbuf_add(sb, r->in->text, ml);
	if (*ops) {
		/* perf's simplified view: mnemonics padded to the longest of the function, plus one */
		for (size_t n = ml; n < (size_t)b->mnem_width; n++)
			strbuf_addch(sb, ' ');
		if (ml >= (size_t)b->mnem_width)
			strbuf_addch(sb, ' ');
		if (b->raw_offsets || is_prefix(r->in->text, ml)) {
			/* perf knows no instruction named like a prefix: its operands stay raw */
			strbuf_addstr(sb, ops);
		} else if (ml == 4 && starts_with(r->in->text, "lock ")) {
			/* perf pads the locked instruction's name as the mnemonics */
			const char *ops2;
			size_t ml2 = split_insn(ops, &ops2);

			strbuf_add(sb, ops, ml2);
			if (*ops2) {
				for (size_t n = ml2; n < (size_t)b->mnem_width; n++)
					strbuf_addch(sb, ' ');
				if (ml2 >= (size_t)b->mnem_width)
					strbuf_addch(sb, ' ');
				simple_operands(sb, b, r, ops2);
			}
		} else {
			simple_operands(sb, b, r, ops);
		}
	}
}

/* the bytes of the UTF-8 character that starts with @c */
static size_t utf8_step(unsigned char c)
{
	return c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 : 4;
}

/*
 * draw_over - write @s over the columns of the row that starts at byte @start
 * of @sb, from column @col on (a column per UTF-8 character), as a screen
 * does: what was there goes, what follows stays
 */
static void draw_over(struct strbuf *sb, size_t start, size_t col, const char *s)
{
	size_t i = start, c = 0, w = 0, from;
	char *tail;

	for (const char *p = s; *p; p += utf8_step((unsigned char)*p))
		w++;
	for (; i < sb->len && c < col; c++)
		i += utf8_step((unsigned char)sb->buf[i]);
	for (; c < col; c++, i++)
		strbuf_addch(sb, ' ');
	from = i;
	for (c = 0; i < sb->len && c < w; c++)
		i += utf8_step((unsigned char)sb->buf[i]);
	tail = xstrdup(sb->buf + (i < sb->len ? i : sb->len));
	sb->len = from;
	sb->buf[from] = '\0';
	strbuf_addstr(sb, s);
	strbuf_addstr(sb, tail);
	free(tail);
}

/*
 * row_text - row_body(), with the selected jump's box (@g3) or its bar
 * drawn as perf draws them on an instruction: in the 3 columns after the
 * label column wherever the text is, over an address wider than the
 * column (a kernel's) or a mnemonic shifted left (an offset printed
 * without the counts' blank)
 */
static void row_text(struct strbuf *sb, const struct abrowser *b, const struct arow *r,
		     const char *g3, bool bar)
{
	int lw = label_width(b, true);
	bool counts = b->jump_counts && !b->raw_offsets;
	size_t start = sb->len, cw = counts && b->cnt_width ? (size_t)b->cnt_width + 1 : 0;

	if (!r->in || (!g3 && !bar)) {
		row_body(sb, b, r, g3, bar);
		return;
	}
	row_body(sb, b, r, NULL, false);
	draw_over(sb, start, cw + (size_t)lw + 1, g3 ? g3 : "\u2502");
}

/* is_fused - @prev (cmp/test) and the conditional jump @jump run as one on the CPU: drawn joined */
static bool is_fused(const struct arow *prev, const struct arow *jump)
{
	const char *ops;
	size_t jl;

	if (!prev || !prev->in)
		return false;
	jl = split_insn(jump->in->text, &ops);
	if (jl >= 3 && starts_with(jump->in->text, "jmp"))
		return false;
	return starts_with(prev->in->text, "cmp") || starts_with(prev->in->text, "test");
}

/*
 * jump_box - with a jump of the symbol selected, the view indices of the
 * jump, its target and the fused compare before it (or SIZE_MAX). False
 * when the selection is no such jump.
 */
static bool jump_box(const struct abrowser *b, size_t *j, size_t *t, size_t *f)
{
	const struct arow *r = b->nr_view ? &b->rows[b->view[b->sel]] : NULL;
	const struct annotate_sym *as = b->a->as;
	const char *ops;

	if (!r || !r->in || !r->has_target || r->target < as->sym->start ||
	    r->target >= as->sym->end || !is_jump(r->in->text, split_insn(r->in->text, &ops)))
		return false;
	*j = b->sel;
	*t = *f = SIZE_MAX;
	for (size_t i = 0; i < b->nr_view; i++)
		if (b->rows[b->view[i]].in && b->rows[b->view[i]].in->addr == r->target)
			*t = i;
	if (*t == SIZE_MAX)
		return false;
	for (size_t i = b->sel; i-- > 0;)
		if (b->rows[b->view[i]].in) {
			if (is_fused(&b->rows[b->view[i]], r))
				*f = i;
			break;
		}
	return true;
}

/* put_utf8 - @s from column 0 of @y, cut or padded to @width columns */
static void put_utf8(int y, int x0, const char *s, int width, attr_t attr)
{
	int x = 0;

	attrset(attr);
	move(y, x0);
	while (*s && x < width) {
		int n = 1;

		if ((unsigned char)*s >= 0xc0)
			n = (unsigned char)*s >= 0xf0 ? 4 : (unsigned char)*s >= 0xe0 ? 3 : 2;
		addnstr(s, n);
		s += n;
		x++;
	}
	for (; x < width; x++)
		addch(' ');
	attrset(A_NORMAL);
}

static attr_t pct_attr(const struct abrowser *b, double v)
{
	if (v >= 5.0)
		return b->color ? COLOR_PAIR(APAIR_HOT) : A_BOLD;
	if (v >= 0.5)
		return b->color ? COLOR_PAIR(APAIR_WARM) : A_NORMAL;
	return A_NORMAL;
}

static const char *const value_names[] = { "Percent", "Period", "Samples" };

/* value_text - the left column of @r as t shows it (blank without samples); false when blank */
static bool value_text(char *buf, size_t size, const struct abrowser *b, const struct arow *r)
{
	/* perf blanks a line whose percentage (of the current type) is 0, in every view */
	bool has = r->in && r->addr && r->pct > 0;

	if (!has)
		snprintf(buf, size, "%*s", b->values == AVAL_PERIOD ? 12 : 7, "");
	else if (b->values == AVAL_PERIOD)
		snprintf(buf, size, "%11" PRIu64 " ", r->addr->period);
	else if (b->values == AVAL_SAMPLES)
		snprintf(buf, size, "%6" PRIu64 " ", r->addr->hits);
	else
		snprintf(buf, size, "%6.2f ", r->pct);
	return has;
}

static void draw(struct abrowser *b)
{
	int h = LINES - 3 > 1 ? LINES - 3 : 1;
	struct strbuf sb = STRBUF_INIT;
	size_t bj = 0, bt = 0, bf = 0;
	bool boxed = jump_box(b, &bj, &bt, &bf), bar;
	int vw = b->values == AVAL_PERIOD ? 12 : 7;	/* the values' column */
	const char *g3;
	char buf[512];

	if (b->sel < b->top)
		b->top = b->sel;
	if (b->sel >= b->top + (size_t)h)
		b->top = b->sel - (size_t)h + 1;
	erase();
	put_utf8(0, 0, b->a->title, COLS, b->color ? COLOR_PAIR(APAIR_TITLE) : A_NORMAL);
	snprintf(buf, sizeof(buf), "%s  %s [Percent: %s]", b->a->as->sym->name, b->a->dso_path,
		 annotate_percent_type_name(b->pct_type));
	put_utf8(1, 0, buf, COLS, A_NORMAL);
	for (int y = 0; y < h && b->top + (size_t)y < b->nr_view; y++) {
		size_t vi = b->top + (size_t)y;
		const struct arow *r = &b->rows[b->view[vi]];
		bool selected = vi == b->sel && !b->fresh;
		attr_t sel = b->color ? COLOR_PAIR(APAIR_SELECTED) : A_REVERSE;

		/* the column's title sits on the first row unless that row has a value */
		if (!value_text(buf, sizeof(buf), b, r) && y == 0)
			snprintf(buf, sizeof(buf), "%s", value_names[b->values]);
		put_utf8(y + 2, 0, buf, vw, selected ? sel : y ? pct_attr(b, r->pct) : A_NORMAL);
		put_utf8(y + 2, vw, "\u2502", 1, A_NORMAL);
		strbuf_reset(&sb);
		g3 = NULL;
		bar = false;
		if (boxed) {
			size_t lo = bj < bt ? (bf != SIZE_MAX ? bf : bj) : bt;
			size_t hi = bj < bt ? bt : bj;

			if (vi == bj)
				g3 = bt < bj ? "\u2514\u2500\u2500" : bf != SIZE_MAX ? "\u251c\u2500\u2500"
									 : "\u250c\u2500\u2500";
			else if (vi == bt)
				g3 = bt < bj ? "\u250c\u2500\u2192" : "\u2514\u2500\u2192";
			else if (vi == bf)
				g3 = bt < bj ? "\u251c\u2500\u2500" : "\u250c\u2500\u2500";
			else
				bar = vi > lo && vi < hi;
		}
		row_text(&sb, b, r, g3, bar);
		put_utf8(y + 2, vw + 1, sb.buf, COLS - vw - 1, selected ? sel : A_NORMAL);
	}
	/* a message stays until the next one, as perf's does */
	put_utf8(LINES - 1, 0, b->status[0] ? b->status : "Press 'h' for help on key bindings",
		 COLS, A_NORMAL);
	strbuf_release(&sb);
	refresh();
}

static const char *const help_lines[] = {
	"UP/DOWN/PGUP",
	"PGDN/SPACE    Navigate",
	"q/ESC/CTRL+C  Exit",
	"",
	"ENTER         Go to target",
	"ESC           Exit",
	"H             Go to hottest instruction",
	"TAB/shift+TAB Cycle thru hottest instructions",
	"j             Toggle showing jump to target arrows",
	"J             Toggle showing number of jump sources on targets",
	"n             Search next string",
	"o             Toggle disassembler output/simplified view",
	"O             Bump offset level (jump targets -> +call -> all -> cycle thru)",
	"s             Toggle source code view",
	"t             Circulate percent, total period, samples view",
	"c             Show min/max cycle",
	"/             Search string",
	"k             Toggle line numbers",
	"l             Show full source file location",
	"P             Print to [symbol_name].annotation file.",
	"r             Run available scripts",
	"p             Toggle percent type [local/global]",
	"b             Toggle percent base [period/hits]",
	"?             Search string backwards",
	"f             Toggle showing offsets to full address",
	"",
	"",
	"Press any key...",
};

static void show_help(void)
{
	int n = (int)(sizeof(help_lines) / sizeof(help_lines[0])), w = 0, h;
	WINDOW *win;

	for (int i = 0; i < n; i++)
		if ((int)strlen(help_lines[i]) > w)
			w = (int)strlen(help_lines[i]);
	w += 2;
	h = n + 2 < LINES ? n + 2 : LINES;
	if (w > COLS)
		w = COLS;
	win = newwin(h, w, (LINES - h) / 2, (COLS - w) / 2);
	box(win, 0, 0);
	mvwaddstr(win, 0, 2, "Help");
	for (int i = 0; i < n && i + 2 < h; i++)
		mvwaddnstr(win, i + 1, 1, help_lines[i], w - 2);
	wrefresh(win);
	timeout(-1);
	getch();
	delwin(win);
	touchwin(stdscr);
}

#define SEARCH_MAX 50	/* perf's search box takes this many characters, then searches */

/*
 * search_prompt - perf's "Search" box over the view: the string typed into
 * @buf. False on Esc or an empty string.
 */
static bool search_prompt(char *buf, size_t size)
{
	int h = 9, w = 62, y = (LINES - h + 1) / 2, x = (COLS - w) / 2;
	size_t len = 0;
	WINDOW *win;
	bool ok = false;

	if (y < 0)
		y = 0;
	if (x < 0)
		x = 0;
	win = newwin(h, w, y, x);
	if (!win)
		return false;
	buf[0] = '\0';
	for (;;) {
		int key;

		werase(win);
		box(win, 0, 0);
		mvwaddch(win, 0, 1, ACS_HLINE);
		mvwaddstr(win, 0, 2, "Search");
		mvwaddstr(win, 1, 1, "String:");
		/* the input's own box */
		mvwaddch(win, 3, 2, ACS_ULCORNER);
		mvwhline(win, 3, 3, ACS_HLINE, w - 6);
		mvwaddch(win, 3, w - 3, ACS_URCORNER);
		mvwaddch(win, 4, 2, ACS_VLINE);
		mvwaddnstr(win, 4, 3, buf, w - 6);
		mvwaddch(win, 4, w - 3, ACS_VLINE);
		mvwaddch(win, 5, 2, ACS_LLCORNER);
		mvwhline(win, 5, 3, ACS_HLINE, w - 6);
		mvwaddch(win, 5, w - 3, ACS_LRCORNER);
		mvwaddstr(win, 7, 1, "ENTER: OK, ESC: Cancel");
		wrefresh(win);
		key = getch();
		if (key == AKEY_ESCAPE || key == AKEY_CTRL_C)
			break;
		if (key == '\n' || key == '\r' || key == KEY_ENTER) {
			ok = len > 0;
			break;
		}
		if (key == KEY_BACKSPACE || key == 127 || key == 8) {
			if (len)
				buf[--len] = '\0';
			continue;
		}
		if (key < ' ' || key > '~' || len + 1 >= size)
			continue;
		buf[len++] = (char)key;
		buf[len] = '\0';
		/* a full box searches at once */
		if (len >= SEARCH_MAX || len + 1 >= size) {
			ok = true;
			break;
		}
	}
	delwin(win);
	touchwin(stdscr);
	return ok;
}

/* row_matches - @r's text (objdump's, whatever the view) has @s */
static bool row_matches(const struct arow *r, const char *s)
{
	const char *t = r->in ? r->in->text : r->al->text;

	return t && strstr(t, s);
}

/* found - the search's line selected, in the middle of the screen */
static bool found(struct abrowser *b, size_t i)
{
	b->sel = i;
	centre(b);
	/* a hit puts the key hint back */
	b->status[0] = '\0';
	return true;
}

/* search - from the line after (before, @back) the selection for b->search; false when none */
static bool search(struct abrowser *b, bool back)
{
	if (back) {
		for (size_t i = b->sel; i-- > 0;)
			if (row_matches(&b->rows[b->view[i]], b->search))
				return found(b, i);
	} else {
		for (size_t i = b->sel + 1; i < b->nr_view; i++)
			if (row_matches(&b->rows[b->view[i]], b->search))
				return found(b, i);
	}
	snprintf(b->status, sizeof(b->status), "String not found!");
	return false;
}

/* set_percent_type - p and b: every line's percentage again */
static void set_percent_type(struct abrowser *b, enum annotate_percent_type t)
{
	b->pct_type = t;
	/* perf's key hint comes back */
	b->status[0] = '\0';
	for (size_t i = 0; i < b->nr_rows; i++)
		if (b->rows[i].in)
			b->rows[i].pct = row_percent(b, b->rows[i].addr);
}

/* event_name - the event as the title names it ("... of event 'NAME', ...") */
static void event_name(const char *title, char *buf, size_t size)
{
	const char *p = strstr(title, "of event '"), *q;

	buf[0] = '\0';
	if (!p)
		return;
	p += strlen("of event '");
	q = strchr(p, '\'');
	snprintf(buf, size, "%.*s", (int)(q ? q - p : (ptrdiff_t)strlen(p)), p);
}

static void stdio2_body(FILE *out, struct abrowser *b);

/*
 * print_file - P: "SYMBOL.annotation" in the current directory, the
 * --stdio2 text as t, k, s, o and J show it
 */
static void print_file(struct abrowser *b)
{
	char path[4096], ev[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s.annotation", b->a->as->sym->name);
	f = fopen(path, "w");
	if (!f)
		return;
	event_name(b->a->title, ev, sizeof(ev));
	fprintf(f, "%s() %s\nEvent: %s\n\n", b->a->as->sym->name, b->a->dso_path, ev);
	stdio2_body(f, b);
	fclose(f);
}

/* enter - follow the selected jump (to its line) or call (through the hook) */
static void enter(struct abrowser *b)
{
	const struct arow *r = b->nr_view ? &b->rows[b->view[b->sel]] : NULL;
	const struct annotate_sym *as = b->a->as;
	const char *ops;

	size_t ml;

	if (!r || !r->in) {
		snprintf(b->status, sizeof(b->status), "Actions are only available for assembly lines.");
		return;
	}
	ml = split_insn(r->in->text, &ops);
	if (!is_call(r->in->text, ml) && !is_jump(r->in->text, ml) && !is_ret(r->in->text, ml)) {
		snprintf(b->status, sizeof(b->status),
			 "Actions are only available for function call/return & jump/branch instructions.");
		return;
	}
	if (!r->has_target) {
		snprintf(b->status, sizeof(b->status), "The called function was not found.");
		return;
	}
	if (r->target >= as->sym->start && r->target < as->sym->end) {
		for (size_t i = 0; i < b->nr_rows; i++)
			if (b->rows[i].in && b->rows[i].in->addr == r->target) {
				if (!b->show_source || b->rows[i].in)
					select_row(b, i);
				return;
			}
		snprintf(b->status, sizeof(b->status), "Invalid jump offset: %" PRIx64, r->target);
		return;
	}
	if (!is_call(r->in->text, split_insn(r->in->text, &ops)) || !b->a->follow) {
		snprintf(b->status, sizeof(b->status), "The called function was not found.");
		return;
	}
	if (!b->a->follow(b->a->arg, r->target, b->status, sizeof(b->status)))
		touchwin(stdscr);
}

static void move_sel(struct abrowser *b, long d)
{
	long s = (long)b->sel + d;

	if (s >= (long)b->nr_view)
		s = (long)b->nr_view - 1;
	if (s < 0)
		s = 0;
	b->sel = (size_t)s;
}

/* page_move - perf's page keys: the view moves a page, the selection keeps its screen row */
static void page_move(struct abrowser *b, long d)
{
	size_t row = b->sel - b->top;
	long top = (long)b->top + d;

	/* forward with the last line on screen already: nothing moves */
	if (!b->nr_view || (d > 0 && b->top + (size_t)d >= b->nr_view))
		return;
	if (top < 0)
		top = 0;
	b->top = (size_t)top;
	b->sel = b->top + row;
	if (b->sel >= b->nr_view) {
		b->sel = b->nr_view - 1;
		b->top = b->sel > row ? b->sel - row : 0;
	}
}

static void run(struct abrowser *b)
{
	int page = LINES - 3 > 1 ? LINES - 3 : 1;

	if (b->nr_hot)
		select_row(b, b->hot[0]);
	centre(b);
	for (;;) {
		bool was_fresh;
		int key;

		draw(b);
		timeout(-1);
		key = getch();
		/* perf shows no selection before the first key; a moving key only shows it */
		if (b->fresh && (key == KEY_DOWN || key == KEY_UP || key == KEY_NPAGE ||
				 key == KEY_PPAGE || key == ' ' || key == KEY_HOME || key == KEY_END)) {
			b->fresh = false;
			continue;
		}
		was_fresh = b->fresh;
		/* perf's view toggles and prompts leave the selection hidden */
		if (key <= 0 || key > 127 || !strchr("tpbkcPlosjJhf", key))
			b->fresh = false;
		switch (key) {
		case KEY_DOWN:
			move_sel(b, 1);
			break;
		case KEY_UP:
			move_sel(b, -1);
			break;
		case KEY_NPAGE:
		case ' ':
		case KEY_PPAGE:
			page_move(b, key == KEY_PPAGE ? -page : page);
			break;
		case KEY_HOME:
			b->sel = b->top = 0;
			break;
		case KEY_END:
			/* the last line, with the last page on screen */
			move_sel(b, (long)b->nr_view);
			b->top = b->nr_view > (size_t)page ? b->nr_view - (size_t)page : 0;
			break;
		case 'q':
		case 'Q':
		case AKEY_ESCAPE:
		case KEY_LEFT:
		case AKEY_CTRL_C:
			return;
		case 'H':
			/* perf's H: back to the hot line Tab/shift-Tab last went to */
			if (b->nr_hot) {
				select_row(b, b->hot[b->hot_pos]);
				centre(b);
			}
			break;
		case AKEY_TAB:
		case KEY_BTAB:
			if (!b->nr_hot)
				break;
			if (key == AKEY_TAB)
				b->hot_pos = (b->hot_pos + 1) % b->nr_hot;
			else
				b->hot_pos = (b->hot_pos + b->nr_hot - 1) % b->nr_hot;
			select_row(b, b->hot[b->hot_pos]);
			centre(b);
			break;
		case 's': {
			/* the selected line keeps its screen row */
			size_t row = b->sel - b->top;

			b->show_source = !b->show_source;
			b->status[0] = '\0';
			build_view(b);
			b->top = b->sel > row ? b->sel - row : 0;
			break;
		}
		case 'f':
			b->full_addr = !b->full_addr;
			break;
		case 'r':
			if (b->a->scripts) {
				struct tui_attrs at = {
					b->color ? COLOR_PAIR(APAIR_TITLE) : A_REVERSE,
					b->color ? COLOR_PAIR(APAIR_SELECTED) : A_REVERSE,
				};
				int e = script_menu_run(b->a->scripts, NULL, NULL, &at);

				if (e < 0)
					snprintf(b->status, sizeof(b->status), "Couldn't run script: %s",
						 strerror(-e));
				touchwin(stdscr);
			}
			break;
		case 'o':
			b->raw_offsets = !b->raw_offsets;
			break;
		case 'O':
			b->offset_level = (b->offset_level + 1) % 3;
			break;
		case 'J':
			b->jump_counts = !b->jump_counts;
			break;
		case 'j':
			b->arrows = !b->arrows;
			break;
		case '\n':
		case '\r':
		case KEY_ENTER:
		case KEY_RIGHT:
			enter(b);
			break;
		case 'h':
		case KEY_F(1):
			show_help();
			break;
		case '/':
		case '?':
		case 'n': {
			char s[sizeof(b->search)];
			bool found = false;

			/* n repeats the last search (asks for one when there is none yet) */
			if (key == 'n' && b->search[0]) {
				found = search(b, b->search_back);
			} else if (search_prompt(s, sizeof(s))) {
				snprintf(b->search, sizeof(b->search), "%s", s);
				b->search_back = key == '?';
				found = search(b, b->search_back);
			}
			b->fresh = was_fresh && !found;
			break;
		}
		case 't':
			b->values = b->values == AVAL_SAMPLES ? AVAL_PERCENT : b->values + 1;
			break;
		case 'p':
			set_percent_type(b, b->pct_type == PERCENT_LOCAL_PERIOD ? PERCENT_GLOBAL_PERIOD
					    : b->pct_type == PERCENT_GLOBAL_PERIOD ? PERCENT_LOCAL_PERIOD
					    : b->pct_type == PERCENT_LOCAL_HITS	  ? PERCENT_GLOBAL_HITS
										  : PERCENT_LOCAL_HITS);
			break;
		case 'b':
			set_percent_type(b, b->pct_type == PERCENT_LOCAL_PERIOD ? PERCENT_LOCAL_HITS
					    : b->pct_type == PERCENT_LOCAL_HITS	  ? PERCENT_LOCAL_PERIOD
					    : b->pct_type == PERCENT_GLOBAL_PERIOD ? PERCENT_GLOBAL_HITS
										  : PERCENT_GLOBAL_PERIOD);
			break;
		case 'k':
			b->line_numbers = !b->line_numbers;
			break;
		case 'l': {
			const struct arow *r = b->nr_view ? &b->rows[b->view[b->sel]] : NULL;

			if (!r || r->in)
				snprintf(b->status, sizeof(b->status),
					 "Only available for source code lines.");
			else if (!r->srcloc)
				snprintf(b->status, sizeof(b->status), "No source file location.");
			else
				snprintf(b->status, sizeof(b->status), "Source file location: %s",
					 r->srcloc);
			break;
		}
		case 'P':
			print_file(b);
			break;
		default:
			break;
		}
	}
}

static volatile sig_atomic_t own_screen;

static void restore_on_signal(int sig)
{
	if (own_screen) {
		endwin();
		own_screen = 0;
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

int annotate_browse(const struct annotate_browse_args *a)
{
	struct abrowser b = { 0 };
	SCREEN *scr = NULL;
	bool nested = stdscr && !isendwin();

	if (!nested) {
		static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGSEGV, SIGABRT,
					    SIGBUS, SIGFPE };
		struct sigaction sa;

		if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
			return -ENOTTY;
		setlocale(LC_CTYPE, "");
		scr = newterm(NULL, stdout, stdin);
		if (!scr)
			return -ENOTTY;
		if (LINES < 5 || COLS < 40) {
			endwin();
			delscreen(scr);
			return -EMSGSIZE;
		}
		own_screen = 1;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = restore_on_signal;
		for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
			sigaction(sigs[i], &sa, NULL);
		raw();
		noecho();
		keypad(stdscr, TRUE);
		curs_set(0);
		set_escdelay(25);
		if (has_colors() && !getenv("NO_COLOR")) {
			start_color();
			use_default_colors();
			init_pair(APAIR_HOT, COLOR_RED, -1);
			init_pair(APAIR_WARM, COLOR_GREEN, -1);
			init_pair(APAIR_TITLE, COLORS >= 16 ? COLOR_WHITE + 8 : COLOR_WHITE, COLOR_BLUE);
			init_pair(APAIR_SELECTED, COLOR_BLACK,
				  COLORS >= 16 ? COLOR_YELLOW + 8 : COLOR_YELLOW);
		}
	}
	b.a = a;
	b.pct_type = a->percent_type;
	b.color = has_colors() && !getenv("NO_COLOR");
	b.show_source = true;
	b.arrows = true;
	b.fresh = true;
	build_rows(&b);
	build_view(&b);
	run(&b);
	free(b.rows);
	free(b.view);
	free(b.hot);
	if (nested) {
		touchwin(stdscr);
		return 0;
	}
	endwin();
	own_screen = 0;
	delscreen(scr);
	return 0;
}

int annotate_popup(const char *title, const char *text)
{
	char *copy = xstrdup(text);
	const char *lines[64];
	int n = 0, w = 0, h, y, x;
	SCREEN *scr;
	WINDOW *win;

	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		free(copy);
		return -ENOTTY;
	}
	/* perf's box: the text's lines (empty ones kept, after a last newline too), a blank, "Press any key..." */
	for (char *p = copy, *nl; p && n < 60; p = nl ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		lines[n++] = p;
	}
	lines[n++] = "";
	lines[n++] = "Press any key...";
	for (int i = 0; i < n; i++)
		if ((int)strlen(lines[i]) > w)
			w = (int)strlen(lines[i]);
	setlocale(LC_CTYPE, "");
	scr = newterm(NULL, stdout, stdin);
	if (!scr) {
		free(copy);
		return -ENOTTY;
	}
	raw();
	noecho();
	curs_set(0);
	w += 2;
	h = n + 2;
	if (w > COLS)
		w = COLS;
	if (h > LINES)
		h = LINES;
	y = (LINES - h) / 2;
	x = (COLS - w + 1) / 2;
	refresh();
	win = newwin(h, w, y, x);
	if (win) {
		box(win, 0, 0);
		mvwaddch(win, 0, 1, ACS_HLINE);
		mvwaddnstr(win, 0, 2, title, w - 3);
		for (int i = 0; i < n && i + 2 < h; i++)
			mvwaddnstr(win, i + 1, 1, lines[i], w - 2);
		wrefresh(win);
		timeout(-1);
		getch();
		delwin(win);
	}
	endwin();
	delscreen(scr);
	free(copy);
	return 0;
}

/* utf8_cols - the columns of @s (every UTF-8 character is one) */
static size_t utf8_cols(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* stdio2_body - the lines of --stdio2 (and of P's file): percentages, then the browser's text */
static void stdio2_body(FILE *out, struct abrowser *bp)
{
	struct abrowser b = *bp;
	struct strbuf sb = STRBUF_INIT;

	/* the browser's lines (all of them for --stdio2) with its toggles; arrows always */
	size_t nr = b.nr_view ? b.nr_view : b.nr_rows;
	int cw = b.jump_counts && b.cnt_width ? b.cnt_width + 1 : 0;

	b.arrows = true;
	for (size_t i = 0; i < nr; i++) {
		const struct arow *r = &b.rows[b.nr_view ? b.view[i] : i];
		size_t col, prefix, min;
		char val[64];
		int vw = b.values == AVAL_PERIOD ? 12 : 7;

		/* the values as t shows them, then a blank for the bar */
		if (!value_text(val, sizeof(val), &b, r) && !i)
			snprintf(val, sizeof(val), "%-*s", vw, value_names[b.values]);
		fprintf(out, "%s ", val);
		if (!r->in && !(r->al->text && r->al->text[strspn(r->al->text, " \t")])) {
			/* an empty line: blanks as wide as the values */
			fprintf(out, "%*s\n", vw, "");
			continue;
		}
		strbuf_reset(&sb);
		row_text(&sb, &b, r, NULL, false);
		fputs(sb.buf, out);
		/*
		 * perf pads a line's text (after label and arrow): with two-digit
		 * offsets source to 10 columns, instructions to 14, one more per
		 * offset digit past two
		 */
		prefix = (size_t)(label_width(&b, r->in != NULL) + (r->in ? 4 : 2) +
				  (r->in && b.raw_offsets ? 0 : cw));
		/* perf pads lines to a whole width, wider by what t, o and J add */
		min = (r->in ? 14 : 10) + (size_t)(vw - 7) + prefix -
		      ((size_t)b.off_width + (r->in ? 4 : 2)) +
		      (size_t)(b.off_width > 2 ? b.off_width - 2 : 0);
		for (col = utf8_cols(sb.buf) - prefix; col < min; col++)
			fputc(' ', out);
		fputc('\n', out);
	}
	strbuf_release(&sb);
}

void annotate_stdio2_fprintf(FILE *out, const struct annotate_browse_args *a)
{
	struct abrowser b = { 0 };

	b.a = a;
	b.pct_type = a->percent_type;
	b.show_source = true;
	b.arrows = true;
	build_rows(&b);
	fprintf(out, "%s, [percent: %s]\n%s() %s\n", a->title,
		annotate_percent_type_name(a->percent_type), a->as->sym->name, a->dso_path);
	stdio2_body(out, &b);
	free(b.rows);
	free(b.view);
	free(b.hot);
}
