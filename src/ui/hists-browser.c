/* SPDX-License-Identifier: MIT */
/* The TUI histogram browser (ncursesw): stdio's rows drawn a screen at a time, with perf's keys. */
#include "ui/hists-browser.h"

#include "lib/hashmap.h"
#include "lib/strvec.h"
#include "lib/xalloc.h"
#include "session/machine.h"
#include "ui/callchain-fold.h"
#include "ui/callchain.h"
#include "ui/map-browser.h"

#include <curses.h>
#include <errno.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* colour pairs */
enum { PAIR_HOT = 1, PAIR_WARM, PAIR_TITLE, PAIR_SELECTED, PAIR_BOX };

#define KEY_ESCAPE 27
#define KEY_CTRL_C 3
#define KEY_TAB_ 9

/* struct line - one screen line of the browser: an entry's row or one of its chain lines */
struct line {
	struct hist_entry *e;
	int chain_line;	/* -1: the entry's row; else the index in its chain lines */
};

struct browser {
	struct hist_browser_event *ev;
	struct hists_print_opts po;	/* the command's, plus the zooms */
	const struct hist_browser_ops *ops;
	struct hists_rows *rows;
	struct hist_entry **shown;	/* entries on view, in order */
	size_t nr_shown, alloc_shown;
	bool *base_filtered;		/* the command's filtered flags, by entry index */
	struct u64map expanded;		/* entry pointer -> struct fold_lines * (its chain lines) */
	struct chain_fold fold;		/* the chain lines' markers */
	u32 *pick;			/* entry_has_chain's children */
	size_t pick_alloc;
	struct u64map chain_known;	/* entry pointer -> 1: no chain lines, 2: some */
	bool has_chains;		/* the fold column is drawn */
	size_t nr_lines;		/* lines of the view (rows and expanded chains) */
	size_t top, sel;		/* first line on screen, selected line */
	struct thread *zoom_thread;
	const struct dso *zoom_dso;
	char *filter;			/* '/' text, or NULL */
	char status[256];		/* bottom line message (one draw) */
	bool color;
	bool fresh;			/* no moving key yet: perf shows no selection */
	int hist_n;			/* next perf.hist.N candidate */
};

static volatile sig_atomic_t tui_active;

/* restore_on_signal - the terminal back to normal when a signal ends the process */
static void restore_on_signal(int sig)
{
	if (tui_active) {
		endwin();
		tui_active = 0;
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

static void install_restore(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGSEGV, SIGABRT, SIGBUS, SIGFPE };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = restore_on_signal;
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

void hists_browser_sample_unit(unsigned long long n, unsigned long long *out, char *unit)
{
	*unit = ' ';
	if (n > 1000ULL * 1000 * 1000) {
		n /= 1000ULL * 1000 * 1000;
		*unit = 'G';
	} else if (n > 1000ULL * 1000) {
		n /= 1000ULL * 1000;
		*unit = 'M';
	} else if (n > 1000) {
		n /= 1000;
		*unit = 'K';
	}
	*out = n;
}

/* ---- drawing helpers ---- */

static void put_line(int y, const char *text, int width, attr_t attr)
{
	int x = 0;

	attrset(attr);
	move(y, 0);
	for (const char *p = text; *p && x < width; p++, x++)
		addch((unsigned char)*p == '\t' ? ' ' : (unsigned char)*p);
	for (; x < width; x++)
		addch(' ');
	attrset(A_NORMAL);
}

static attr_t pct_attr(const struct browser *b, double v)
{
	if (v >= 5.0)
		return b->color ? COLOR_PAIR(PAIR_HOT) : A_BOLD;
	if (v >= 0.5)
		return b->color ? COLOR_PAIR(PAIR_WARM) : A_NORMAL;
	return A_NORMAL;
}

/*
 * put_row - a row with perf's colours: each "N.NN%" value by its threshold
 * (red from 5%, green from 0.5%; not on chain lines, @plain), the whole
 * line reversed when selected
 */
static void put_row(struct browser *b, int y, const char *text, int width, bool selected,
		    bool plain)
{
	attr_t sel = b->color ? COLOR_PAIR(PAIR_SELECTED) : A_REVERSE;
	int x = 0;
	const char *p = text;

	move(y, 0);
	while (*p && x < width) {
		const char *q = p;
		attr_t a = selected ? sel : A_NORMAL;

		if (!selected && !plain && (*p >= '0' && *p <= '9') && (p == text || p[-1] == ' ')) {
			while ((*q >= '0' && *q <= '9') || *q == '.')
				q++;
			if (*q == '%' && q > p) {
				a = pct_attr(b, strtod(p, NULL));
				q++;
				attrset(a);
				for (; p < q && x < width; p++, x++)
					addch((unsigned char)*p);
				continue;
			}
		}
		attrset(a);
		addch((unsigned char)*p);
		p++;
		x++;
	}
	attrset(selected ? sel : A_NORMAL);
	for (; x < width; x++)
		addch(' ');
	attrset(A_NORMAL);
}

/* ---- the view: which entries, which lines ---- */

static bool entry_matches(const struct browser *b, const struct hist_entry *e)
{
	if (b->zoom_thread && e->thread != b->zoom_thread)
		return false;
	if (b->zoom_dso && e->frame->dso != b->zoom_dso)
		return false;
	if (b->filter && *b->filter && (!e->frame->sym || !strstr(e->frame->sym->name, b->filter)))
		return false;
	return true;
}

static int free_chain(u64 key, void *val, void *arg)
{
	(void)key;
	(void)arg;
	fold_lines_release(val);
	free(val);
	return 0;
}

/* chain_fill - @e's callchain lines with the markers as they are now */
static void chain_fill(struct browser *b, const struct hist_entry *e, struct fold_lines *fl)
{
	chain_fold_lines(b->ev->hists, e, &b->po, hists_rows_total(b->rows), &b->fold, fl);
}

static struct fold_lines *chain_lines_new(struct browser *b, const struct hist_entry *e)
{
	struct fold_lines *fl = xzalloc(sizeof(*fl));

	chain_fill(b, e, fl);
	return fl;
}

/* entry_has_chain - @e has callchain lines to show (over the threshold) */
static bool entry_has_chain(struct browser *b, const struct hist_entry *e)
{
	struct fold_lines *ct;
	uintptr_t known;

	const struct hists *h = b->ev->hists;

	if (!e->chain || !h->opts.use_callchain)
		return false;
	if (u64map_find(&b->expanded, (u64)(uintptr_t)e))
		return true;
	known = (uintptr_t)u64map_find(&b->chain_known, (u64)(uintptr_t)e);
	if (known)
		return known == 2;
	if (h->opts.cc.mode == CHAIN_GRAPH_ABS || h->opts.cc.mode == CHAIN_GRAPH_REL) {
		/* the tree's lines: a node of the first level over the threshold */
		known = chain_pick_branches(h, &b->po, e->chain, &b->pick, &b->pick_alloc) ? 2 : 1;
		u64map_set(&b->chain_known, (u64)(uintptr_t)e, (void *)known);
		return known == 2;
	}
	ct = chain_lines_new(b, e);
	known = ct->nr ? 2 : 1;
	free_chain(0, ct, NULL);
	u64map_set(&b->chain_known, (u64)(uintptr_t)e, (void *)known);
	return known == 2;
}

/* count_lines - the view's line count from the shown entries and their expansions */
static void count_lines(struct browser *b)
{
	b->nr_lines = 0;
	for (size_t i = 0; i < b->nr_shown; i++) {
		struct fold_lines *ct = u64map_find(&b->expanded, (u64)(uintptr_t)b->shown[i]);

		b->nr_lines += 1 + (ct ? (size_t)ct->nr : 0);
	}
	if (b->sel >= b->nr_lines)
		b->sel = b->nr_lines ? b->nr_lines - 1 : 0;
}

/*
 * rebuild - the entries on view after a zoom, a filter or new data: the
 * command's filtered flags plus the browser's, the columns and widths again
 */
static void rebuild(struct browser *b)
{
	struct hists *h = b->ev->hists;
	struct hist_entry *keep = NULL;

	/* no selection shown yet: it stays on the first line */
	if (!b->fresh && b->sel < b->nr_lines && b->nr_shown) {
		/* keep the selected entry selected when it stays */
		size_t l = 0;

		for (size_t i = 0; i < b->nr_shown; i++) {
			struct fold_lines *ct = u64map_find(&b->expanded, (u64)(uintptr_t)b->shown[i]);
			size_t n = 1 + (ct ? (size_t)ct->nr : 0);

			if (b->sel < l + n) {
				keep = b->shown[i];
				break;
			}
			l += n;
		}
	}
	free(b->base_filtered);
	b->base_filtered = xcalloc(h->nr_entries ? h->nr_entries : 1, sizeof(bool));
	for (size_t i = 0; i < h->nr_entries; i++) {
		struct hist_entry *e = h->entries[i];

		b->base_filtered[i] = e->filtered;
		if (!e->filtered && !entry_matches(b, e))
			e->filtered = true;
	}
	hists_rows_free(b->rows);
	b->po.elide_keys &= ~(1u << SORT_DSO);
	if (b->zoom_dso)
		b->po.elide_keys |= 1u << SORT_DSO;
	b->rows = hists_rows_new(h, &b->po);
	b->nr_shown = 0;
	b->has_chains = false;
	for (size_t i = 0; i < h->nr_entries; i++) {
		struct hist_entry *e = h->entries[i];

		b->has_chains |= e->chain != 0 && h->opts.use_callchain;
		if (!hists_rows_visible(b->rows, e))
			continue;
		b->shown = xgrow(b->shown, b->nr_shown + 1, &b->alloc_shown, sizeof(*b->shown));
		b->shown[b->nr_shown++] = e;
	}
	/* the command's flags back: the hists stay as they were given */
	for (size_t i = 0; i < h->nr_entries; i++)
		h->entries[i]->filtered = b->base_filtered[i];
	/* expansions of entries still there are made again (new numbers) */
	u64map_release(&b->chain_known);
	u64map_init(&b->chain_known);
	u64map_for_each(&b->expanded, free_chain, NULL);
	{
		struct u64map fresh;

		u64map_init(&fresh);
		for (size_t i = 0; i < b->nr_shown; i++)
			if (u64map_find(&b->expanded, (u64)(uintptr_t)b->shown[i]))
				u64map_set(&fresh, (u64)(uintptr_t)b->shown[i],
					   chain_lines_new(b, b->shown[i]));
		u64map_release(&b->expanded);
		b->expanded = fresh;
	}
	count_lines(b);
	if (keep) {
		size_t l = 0;

		for (size_t i = 0; i < b->nr_shown; i++) {
			struct fold_lines *ct = u64map_find(&b->expanded, (u64)(uintptr_t)b->shown[i]);

			if (b->shown[i] == keep) {
				b->sel = l;
				break;
			}
			l += 1 + (ct ? (size_t)ct->nr : 0);
		}
	} else {
		b->sel = b->top = 0;
	}
}

/*
 * rezoom - the view after a zoom or a filter: perf folds every entry then
 * (their chain lines keep their markers) and selects the first line
 */
static void rezoom(struct browser *b)
{
	u64map_for_each(&b->expanded, free_chain, NULL);
	u64map_release(&b->expanded);
	u64map_init(&b->expanded);
	rebuild(b);
	b->sel = b->top = 0;
}

/* line_at - which entry (and chain line) the view's line @n is */
static struct line line_at(const struct browser *b, size_t n)
{
	size_t l = 0;

	for (size_t i = 0; i < b->nr_shown; i++) {
		struct fold_lines *ct = u64map_find(&b->expanded, (u64)(uintptr_t)b->shown[i]);
		size_t cnt = 1 + (ct ? (size_t)ct->nr : 0);

		if (n < l + cnt)
			return (struct line){ b->shown[i], (int)(n - l) - 1 };
		l += cnt;
	}
	return (struct line){ NULL, -1 };
}

/* line_text - the text of the view's line @ln into a malloc'ed string */
static char *line_text(struct browser *b, struct line ln)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem;

	if (ln.chain_line >= 0) {
		struct fold_lines *ct = u64map_find(&b->expanded, (u64)(uintptr_t)ln.e);

		return xstrdup(ct && ln.chain_line < ct->nr ? ct->v[ln.chain_line].text : "");
	}
	mem = open_memstream(&text, &len);
	if (!mem)
		return xstrdup("");
	if (b->has_chains) {
		bool open = u64map_find(&b->expanded, (u64)(uintptr_t)ln.e) != NULL;

		fputs(!entry_has_chain(b, ln.e) ? "  " : open ? "- " : "+ ", mem);
	}
	hists_rows_entry(b->rows, ln.e, mem);
	fclose(mem);
	if (len && text[len - 1] == '\n')
		text[--len] = '\0';
	/* stdio's two leading blanks are the fold column's place */
	if (b->has_chains && len >= 4)
		memmove(text + 2, text + 4, len - 3);
	else if (!b->has_chains && len >= 2)
		memmove(text, text + 2, len - 1);
	return text;
}

/* toggle_line - the marker of the chain line @ln the other way (a line without one: nothing) */
static void toggle_line(struct browser *b, struct line ln)
{
	struct fold_lines *ct = u64map_find(&b->expanded, (u64)(uintptr_t)ln.e);

	if (!ct || ln.chain_line >= ct->nr || !ct->v[ln.chain_line].key)
		return;
	chain_fold_toggle(&b->fold, ct->v[ln.chain_line].key);
	chain_fill(b, ln.e, ct);
}

static void toggle(struct browser *b, struct hist_entry *e, int want)
{
	struct fold_lines *ct = u64map_find(&b->expanded, (u64)(uintptr_t)e);

	if (!entry_has_chain(b, e))
		return;
	if (ct && want != 1) {
		free_chain(0, ct, NULL);
		u64map_remove(&b->expanded, (u64)(uintptr_t)e);
	} else if (!ct && want != 0) {
		u64map_set(&b->expanded, (u64)(uintptr_t)e, chain_lines_new(b, e));
	}
}

/* ---- screens ---- */

static void header_text(struct browser *b, char *buf, size_t size)
{
	struct hists *h = b->ev->hists;
	unsigned long long n;
	char unit;
	int len;

	if (b->ops && b->ops->title) {
		b->ops->title(b->ops->arg, b->ev, buf, size);
		return;
	}
	hists_browser_sample_unit(h->nr_samples, &n, &unit);
	len = snprintf(buf, size, "Samples: %llu%c of event '%s', Event count (approx.): %llu", n,
		       unit, b->ev->name ? b->ev->name : "", (unsigned long long)h->total_period);
	if (b->zoom_thread && len >= 0 && (size_t)len < size)
		len += snprintf(buf + len, size - len, ", Thread: %s", b->zoom_thread->comm);
	if (b->zoom_dso && len >= 0 && (size_t)len < size)
		snprintf(buf + len, size - len, ", DSO: %s", b->zoom_dso->short_name);
}

static void draw(struct browser *b)
{
	int rows = LINES, cols = COLS, body = rows - 3;
	char head[512];
	char *title = NULL;
	size_t tlen = 0;
	FILE *mem;

	erase();
	hists_rows_update_total(b->rows);
	header_text(b, head, sizeof(head));
	put_line(0, head, cols, b->color ? COLOR_PAIR(PAIR_TITLE) : A_REVERSE);
	mem = open_memstream(&title, &tlen);
	if (mem) {
		if (b->has_chains)
			fputs("  ", mem);
		hists_rows_title(b->rows, mem);
		fclose(mem);
		put_line(1, title, cols, A_NORMAL);
		free(title);
	}
	if (b->sel < b->top)
		b->top = b->sel;
	if (body > 0 && b->sel >= b->top + (size_t)body)
		b->top = b->sel - (size_t)body + 1;
	for (int y = 0; y < body; y++) {
		size_t n = b->top + (size_t)y;
		struct line ln;
		char *t;

		if (n >= b->nr_lines)
			break;
		ln = line_at(b, n);
		if (!ln.e)
			break;
		t = line_text(b, ln);
		put_row(b, 2 + y, t, cols - 1, n == b->sel && !b->fresh, ln.chain_line >= 0);
		free(t);
	}
	/* the scroll bar: a track with a diamond where the selection is */
	for (int y = 0; y < body && b->nr_lines; y++)
		mvaddch(2 + y, cols - 1, ACS_CKBOARD);
	if (b->nr_lines && body > 0)
		mvaddch(2 + (int)(b->sel * (size_t)body / b->nr_lines), cols - 1, ACS_DIAMOND);
	put_line(rows - 1, b->status[0] ? b->status
				   : b->ops && b->ops->help_line ? b->ops->help_line
								 : "Press '?' for help on key bindings",
		 cols, A_NORMAL);
	b->status[0] = '\0';
	refresh();
}

static const char *const help_lines[] = {
	"h/?/F1        Show this window",
	"UP/DOWN/PGUP",
	"PGDN/SPACE    Navigate",
	"q/ESC/CTRL+C  Exit browser or go back to previous screen",
	"",
	"For multiple event sessions:",
	"",
	"TAB/UNTAB     Switch events",
	"",
	"For symbolic views (--sort has sym):",
	"",
	"ENTER         Zoom into DSO/Threads & Annotate current symbol",
	"ESC           Zoom out",
	"+             Expand/Collapse one callchain level",
	"a             Annotate current symbol",
	"c             Collapse the current entry's callchain",
	"C             Collapse all callchains",
	"d             Zoom into current DSO",
	"e             Expand/Collapse main entry callchains",
	"E             Expand all callchains",
	"P             Print histograms to perf.hist.N",
	"r             Run available scripts",
	"s             Switch to another data file in PWD",
	"t             Zoom into current Thread",
	"/             Filter symbol by name",
	"",
	"Press any key...",
};

/* box - a framed window of @w x @h in the middle of the screen */
static WINDOW *box_new(int h, int w)
{
	WINDOW *win;

	if (h > LINES)
		h = LINES;
	if (w > COLS)
		w = COLS;
	win = newwin(h, w, (LINES - h) / 2, (COLS - w) / 2);
	box(win, 0, 0);
	return win;
}

static void show_help(struct browser *b)
{
	int n = (int)(sizeof(help_lines) / sizeof(help_lines[0])), w = 0;
	WINDOW *win;

	for (int i = 0; i < n; i++)
		if ((int)strlen(help_lines[i]) > w)
			w = (int)strlen(help_lines[i]);
	win = box_new(n + 2, w + 2);
	for (int i = 0; i < n && i + 1 < LINES - 1; i++)
		mvwaddnstr(win, i + 1, 1, help_lines[i], COLS - 2);
	wrefresh(win);
	timeout(-1);
	getch();
	delwin(win);
	touchwin(stdscr);
	(void)b;
}

/* prompt - perf's "Symbol to show" box; the text typed, or NULL after ESC */
static char *prompt_filter(const char *init)
{
	static const char *const text[] = {
		"Please enter the name of symbol you want to see.",
		"To remove the filter later, press / + ENTER.",
	};
	char buf[256];
	size_t len = 0;
	int w = 62, h = 10, key;
	WINDOW *win = box_new(h, w);

	buf[0] = '\0';
	if (init) {
		snprintf(buf, sizeof(buf), "%s", init);
		len = strlen(buf);
	}
	mvwaddstr(win, 0, 2, "Symbol to show");
	mvwaddstr(win, 1, 1, text[0]);
	mvwaddstr(win, 2, 1, text[1]);
	mvwaddstr(win, 8, 1, "ENTER: OK, ESC: Cancel");
	timeout(-1);
	for (;;) {
		mvwhline(win, 5, 2, ' ', w - 4);
		mvwaddnstr(win, 5, 2, buf, w - 4);
		wrefresh(win);
		key = getch();
		if (key == KEY_ESCAPE) {
			delwin(win);
			touchwin(stdscr);
			return NULL;
		}
		if (key == '\n' || key == KEY_ENTER || key == '\r')
			break;
		if ((key == KEY_BACKSPACE || key == 127 || key == 8) && len)
			buf[--len] = '\0';
		else if (key >= ' ' && key < 127 && len + 1 < sizeof(buf)) {
			buf[len++] = (char)key;
			buf[len] = '\0';
		}
	}
	delwin(win);
	touchwin(stdscr);
	return xstrdup(buf);
}

/* print_hist - 'P': every line of the view into perf.hist.N (the first free N) */
static void print_hist(struct browser *b)
{
	char path[64];
	FILE *fp = NULL;

	for (; b->hist_n < 1000; b->hist_n++) {
		snprintf(path, sizeof(path), "perf.hist.%d", b->hist_n);
		if (access(path, F_OK))
			break;
	}
	fp = fopen(path, "w");
	if (!fp) {
		snprintf(b->status, sizeof(b->status), "Couldn't write %s", path);
		return;
	}
	for (size_t n = 0; n < b->nr_lines; n++) {
		char *t = line_text(b, line_at(b, n));
		size_t len = strlen(t);

		while (len && t[len - 1] == ' ')
			t[--len] = '\0';
		fprintf(fp, "%s\n", t);
		free(t);
	}
	fclose(fp);
	snprintf(b->status, sizeof(b->status), "%s written", path);
	b->hist_n++;
}

/* line_frame - the frame line @ln names: its entry's, or the chain line's */
static const struct frame *line_frame(const struct browser *b, struct line ln)
{
	const struct fold_lines *ct;

	if (ln.chain_line < 0)
		return ln.e->frame;
	ct = u64map_find(&b->expanded, (u64)(uintptr_t)ln.e);
	return ct && ln.chain_line < ct->nr && ct->v[ln.chain_line].frame ? ct->v[ln.chain_line].frame
									   : ln.e->frame;
}

/*
 * line_fold - what '+' does on @ln: 0 nothing, 1 it unfolds, 2 it folds (the
 * entry's row: its callchain; a chain line: its marker)
 */
static int line_fold(struct browser *b, struct line ln)
{
	const struct fold_lines *ct = u64map_find(&b->expanded, (u64)(uintptr_t)ln.e);

	if (ln.chain_line < 0)
		return !entry_has_chain(b, ln.e) ? 0 : ct ? 2 : 1;
	if (!ct || ln.chain_line >= ct->nr || !ct->v[ln.chain_line].key)
		return 0;
	return ct->v[ln.chain_line].open ? 2 : 1;
}

/* sym_has_samples - samples of the event fell in @sym (perf offers to annotate those only) */
static bool sym_has_samples(const struct browser *b, const struct symbol *sym)
{
	const struct hists *h = b->ev->hists;

	for (size_t i = 0; i < h->nr_entries; i++)
		if (h->entries[i]->frame->sym == sym && h->entries[i]->period)
			return true;
	return false;
}

/* browser_has_key - @key is one of the event's sort keys (perf's menu items follow the columns) */
static bool browser_has_key(const struct browser *b, enum sort_key key)
{
	const struct hists_opts *o = &b->ev->hists->opts;

	for (int i = 0; i < o->nr_keys; i++)
		if (o->keys[i] == key)
			return true;
	return false;
}

/* the context menu's actions that have no key of their own */
enum {
	MENU_SCRIPT_THREAD = 0x10000,
	MENU_SCRIPT_SYM,
	MENU_MAP,
	MENU_SWITCH,
};

#define MENU_MAX 12

/*
 * context_menu - perf's menu on Enter: what can be done with the selected
 * line (a chain line: with its frame). Returns the key of the chosen action
 * ('a', 't', 'd', '+', 'r' or a MENU_* action), 'x' for Exit, or 0 when the
 * menu was left.
 */
static int context_menu(struct browser *b, struct line ln)
{
	char text[MENU_MAX][256];
	const char *items[MENU_MAX];
	int keys[MENU_MAX], nr = 0, sel, fold = line_fold(b, ln);
	const struct hist_entry *e = ln.e;
	const struct frame *fr = line_frame(b, ln);
	const char *sym = fr->sym ? fr->sym->name : NULL;
	const struct dso *dso = fr->dso;
	bool scripts = b->ops && b->ops->scripts, by_pid = browser_has_key(b, SORT_PID);
	bool by_comm = by_pid || browser_has_key(b, SORT_COMM);

	/* perf offers what the columns show: no sym column, no symbol items (nor dso ones) */
	if (!browser_has_key(b, SORT_SYM))
		sym = NULL;
	if (!browser_has_key(b, SORT_DSO))
		dso = NULL;
	struct tui_attrs at = {
		b->color ? COLOR_PAIR(PAIR_TITLE) : A_REVERSE,
		b->color ? COLOR_PAIR(PAIR_SELECTED) : A_REVERSE,
	};

	if (sym && sym_has_samples(b, fr->sym)) {
		snprintf(text[nr], sizeof(text[nr]), "Annotate %s", sym);
		keys[nr++] = 'a';
	}
	if (by_pid) {
		snprintf(text[nr], sizeof(text[nr]), "Zoom %s %s(%d) thread",
			 b->zoom_thread ? "out of" : "into", e->thread->comm, e->thread->tid);
		keys[nr++] = 't';
	} else if (by_comm) {
		snprintf(text[nr], sizeof(text[nr]), "Zoom %s %s thread",
			 b->zoom_thread ? "out of" : "into", e->thread->comm);
		keys[nr++] = 't';
	}
	if (dso) {
		snprintf(text[nr], sizeof(text[nr]), "Zoom %s %s DSO%s",
			 b->zoom_dso ? "out of" : "into",
			 dso->is_kernel ? "the Kernel" : dso->short_name,
			 b->zoom_dso ? "" : " (use the 'k' hotkey to zoom directly into the kernel)");
		keys[nr++] = 'd';
	}
	if (fold) {
		snprintf(text[nr], sizeof(text[nr]),
			 "%s [%s] callchain (one level, same as '+' hotkey, use 'e'/'c' for the "
			 "whole main level entry)", fold == 2 ? "Collapse" : "Expand", sym ? sym : "");
		keys[nr++] = '+';
	}
	if (dso) {
		snprintf(text[nr], sizeof(text[nr]), "Browse map details");
		keys[nr++] = MENU_MAP;
	}
	if (scripts && by_pid) {
		snprintf(text[nr], sizeof(text[nr]), "Run scripts for samples of thread [%s]",
			 e->thread->comm);
		keys[nr++] = MENU_SCRIPT_THREAD;
	}
	if (scripts && sym) {
		snprintf(text[nr], sizeof(text[nr]), "Run scripts for samples of symbol [%s]", sym);
		keys[nr++] = MENU_SCRIPT_SYM;
	}
	if (scripts) {
		snprintf(text[nr], sizeof(text[nr]), "Run scripts for all samples");
		keys[nr++] = 'r';
	}
	if (b->ops && b->ops->data_files) {
		snprintf(text[nr], sizeof(text[nr]), "Switch to another data file in PWD");
		keys[nr++] = MENU_SWITCH;
	}
	snprintf(text[nr], sizeof(text[nr]), "Exit");
	keys[nr++] = 'x';
	for (int i = 0; i < nr; i++)
		items[i] = text[i];
	sel = tui_menu(items, nr, 0, "ESC: exit, ENTER|->: Select option", &at);
	return sel < 0 ? 0 : keys[sel];
}

/* run_scripts - the 'r' menu over the samples of @opt @val (NULL: all of them) */
static void run_scripts(struct browser *b, const char *opt, const char *val)
{
	struct tui_attrs at = {
		b->color ? COLOR_PAIR(PAIR_TITLE) : A_REVERSE,
		b->color ? COLOR_PAIR(PAIR_SELECTED) : A_REVERSE,
	};
	int ret;

	if (!b->ops || !b->ops->scripts)
		return;
	ret = script_menu_run(b->ops->scripts, opt, val, &at);
	if (ret < 0)
		snprintf(b->status, sizeof(b->status), "Couldn't run script: %s", strerror(-ret));
	touchwin(stdscr);
}

/*
 * switch_file - perf's list of the data files in the current directory;
 * true when one was chosen (the browser ends, the command reopens it)
 */
static bool switch_file(struct browser *b)
{
	struct strvec files = STRVEC_INIT;
	struct tui_attrs at = {
		b->color ? COLOR_PAIR(PAIR_TITLE) : A_REVERSE,
		b->color ? COLOR_PAIR(PAIR_SELECTED) : A_REVERSE,
	};
	int sel;

	b->ops->data_files(b->ops->arg, &files);
	if (!files.nr) {
		strvec_clear(&files);
		return false;
	}
	sel = tui_menu((const char *const *)files.v, (int)files.nr, 0,
		       "ESC: exit, ENTER|->: Select option", &at);
	if (sel >= 0 && b->ops->switch_file)
		b->ops->switch_file(b->ops->arg, files.v[sel]);
	strvec_clear(&files);
	return sel >= 0;
}

static void move_sel(struct browser *b, long delta)
{
	long s = (long)b->sel + delta;

	if (s < 0)
		s = 0;
	if (b->nr_lines && s >= (long)b->nr_lines)
		s = (long)b->nr_lines - 1;
	b->sel = (size_t)s;
}

/* page_move - perf's page keys: the view moves a page, the selection keeps its screen row */
static void page_move(struct browser *b, long d)
{
	size_t row = b->sel >= b->top ? b->sel - b->top : 0;
	long top = (long)b->top + d;

	/* forward with the last line on screen already: nothing moves */
	if (!b->nr_lines || (d > 0 && b->top + (size_t)d >= b->nr_lines))
		return;
	if (top < 0)
		top = 0;
	b->top = (size_t)top;
	b->sel = b->top + row;
	if (b->sel >= b->nr_lines) {
		b->sel = b->nr_lines - 1;
		b->top = b->sel > row ? b->sel - row : 0;
	}
}

enum browse_result { BROWSE_QUIT, BROWSE_BACK, BROWSE_NEXT, BROWSE_PREV };

/* browse_hists - one event's histogram until quit, back (to the chooser) or TAB */
static enum browse_result browse_hists(struct browser *b, bool multi)
{
	rebuild(b);
	for (;;) {
		struct line cur;
		int key, page = LINES - 3 > 1 ? LINES - 3 : 1;

		draw(b);
		timeout(b->ops && b->ops->update_ms ? b->ops->update_ms : -1);
		key = getch();
		if (b->ops && b->ops->update && b->ops->update(b->ops->arg))
			rebuild(b);
		if (key == ERR)
			continue;
		/* perf shows no selection before the first moving key, which only shows it */
		if (b->fresh && (key == KEY_DOWN || key == KEY_UP || key == KEY_NPAGE ||
				 key == KEY_PPAGE || key == ' ' || key == KEY_HOME || key == KEY_END)) {
			b->fresh = false;
			continue;
		}
		cur = b->nr_lines ? line_at(b, b->sel) : (struct line){ NULL, -1 };
		if (key == '\n' || key == '\r' || key == KEY_ENTER) {
			if (!cur.e)
				continue;
			key = context_menu(b, cur);
			if (!key)
				continue;
			if (key == 'x')
				return multi ? BROWSE_BACK : BROWSE_QUIT;
			if (key == MENU_SWITCH) {
				if (switch_file(b))
					return BROWSE_QUIT;
				continue;
			}
			if (key == MENU_MAP) {
				struct tui_attrs at = {
					b->color ? COLOR_PAIR(PAIR_TITLE) : A_REVERSE,
					b->color ? COLOR_PAIR(PAIR_SELECTED) : A_REVERSE,
				};

				map_browse(line_frame(b, cur)->dso, &at);
				continue;
			}
			if (key == MENU_SCRIPT_THREAD) {
				run_scripts(b, "-c", cur.e->thread->comm);
				continue;
			}
			if (key == MENU_SCRIPT_SYM) {
				run_scripts(b, "-S", line_frame(b, cur)->sym->name);
				continue;
			}
		}
		switch (key) {
		case KEY_DOWN:
			move_sel(b, 1);
			break;
		case KEY_UP:
			move_sel(b, -1);
			break;
		case KEY_NPAGE:
		case ' ':
			page_move(b, page);
			break;
		case KEY_PPAGE:
			page_move(b, -page);
			break;
		case KEY_HOME:
			b->sel = 0;
			break;
		case KEY_END:
			/* the last line, with the last page on screen */
			move_sel(b, (long)b->nr_lines);
			b->top = b->nr_lines > (size_t)page ? b->nr_lines - (size_t)page : 0;
			break;
		case KEY_RESIZE:
			break;
		case 'q':
		case 'Q':
		case KEY_CTRL_C:
			return multi && key != KEY_CTRL_C ? BROWSE_BACK : BROWSE_QUIT;
		case KEY_ESCAPE:
		case KEY_LEFT:
			/* zoomed: out first; else back or out */
			if (b->zoom_thread || b->zoom_dso || b->filter) {
				b->zoom_thread = NULL;
				b->zoom_dso = NULL;
				free(b->filter);
				b->filter = NULL;
				rezoom(b);
				break;
			}
			if (key == KEY_LEFT)
				break;
			return multi ? BROWSE_BACK : BROWSE_QUIT;
		case KEY_TAB_:
			if (multi)
				return BROWSE_NEXT;
			break;
		case KEY_BTAB:
			if (multi)
				return BROWSE_PREV;
			break;
		case 'h':
		case '?':
		case KEY_F(1):
			show_help(b);
			break;
		case '+':
		case 'e':
			/* an entry's row or a chain line's marker, the other way */
			if (cur.e && cur.chain_line < 0)
				toggle(b, cur.e, -1);
			else if (cur.e)
				toggle_line(b, cur);
			count_lines(b);
			break;
		case 'c':
			/* perf's c folds an entry, but turns a chain line's marker either way */
			if (cur.e && cur.chain_line < 0)
				toggle(b, cur.e, 0);
			else if (cur.e)
				toggle_line(b, cur);
			count_lines(b);
			break;
		case 'E':
		case 'C':
			/* every entry and marker open (folded); the first line selected */
			chain_fold_reset(&b->fold, key == 'E');
			for (size_t i = 0; i < b->nr_shown; i++) {
				struct fold_lines *ct = u64map_find(&b->expanded,
								    (u64)(uintptr_t)b->shown[i]);

				if (ct && key == 'E')
					chain_fill(b, b->shown[i], ct);
				else
					toggle(b, b->shown[i], key == 'E');
			}
			count_lines(b);
			b->sel = b->top = 0;
			break;
		case 't':
			if (cur.e) {
				b->zoom_thread = b->zoom_thread ? NULL : cur.e->thread;
				rezoom(b);
			}
			break;
		case 'd':
			if (cur.e) {
				b->zoom_dso = b->zoom_dso ? NULL : line_frame(b, cur)->dso;
				rezoom(b);
			}
			break;
		case '/': {
			char *f = prompt_filter(b->filter);

			if (f) {
				free(b->filter);
				b->filter = *f ? f : NULL;
				if (!*f)
					free(f);
				rezoom(b);
			}
			break;
		}
		case 'P':
			print_hist(b);
			break;
		case 'a':
			if (cur.e && b->ops && b->ops->annotate &&
			    !b->ops->annotate(b->ops->arg, cur.e, line_frame(b, cur), b->status,
					      sizeof(b->status))) {
				touchwin(stdscr);
				break;
			}
			if (!b->status[0])
				snprintf(b->status, sizeof(b->status),
					 "Annotation is not available in this build");
			break;
		case 'r':
			if (b->ops && b->ops->scripts) {
				run_scripts(b, NULL, NULL);
				break;
			}
			/* fall through */
		case 's':
			if (key == 's' && b->ops && b->ops->data_files) {
				if (switch_file(b))
					return BROWSE_QUIT;
				break;
			}
			/* fall through */
		default:
			if (b->ops && b->ops->key &&
			    b->ops->key(b->ops->arg, key, b->status, sizeof(b->status)))
				rebuild(b);
			break;
		}
	}
}

/* choose_event - perf's "Available samples" menu: the event index, or -1 to quit */
static int choose_event(struct hist_browser_event *evs, int nr, int sel, bool color)
{
	for (;;) {
		int key;

		erase();
		put_line(0, "Available samples", COLS, A_NORMAL);
		for (int i = 0; i < nr && i + 1 < LINES - 1; i++) {
			char buf[512];
			unsigned long long n;
			char unit;

			hists_browser_sample_unit(evs[i].hists->nr_samples, &n, &unit);
			if (unit == ' ')
				snprintf(buf, sizeof(buf), "%llu %s", n, evs[i].name);
			else
				snprintf(buf, sizeof(buf), "%llu%c %s", n, unit, evs[i].name);
			put_line(i + 1, buf, COLS - 1,
				 i == sel ? (color ? COLOR_PAIR(PAIR_SELECTED) : A_REVERSE) : A_NORMAL);
		}
		put_line(LINES - 1, "ESC: exit, ENTER|->: Browse histograms", COLS, A_NORMAL);
		refresh();
		timeout(-1);
		key = getch();
		switch (key) {
		case KEY_DOWN:
			sel = sel + 1 < nr ? sel + 1 : sel;
			break;
		case KEY_UP:
			sel = sel > 0 ? sel - 1 : 0;
			break;
		case '\n':
		case '\r':
		case KEY_ENTER:
		case KEY_RIGHT:
			return sel;
		case KEY_ESCAPE:
		case 'q':
		case 'Q':
		case KEY_CTRL_C:
			return -1;
		default:
			break;
		}
	}
}

static void browser_init(struct browser *b, struct hist_browser_event *ev,
			 const struct hists_print_opts *po, const struct hist_browser_ops *ops,
			 bool color)
{
	memset(b, 0, sizeof(*b));
	b->ev = ev;
	b->po = *po;
	b->ops = ops;
	b->color = color;
	b->fresh = true;
	u64map_init(&b->expanded);
	u64map_init(&b->chain_known);
	chain_fold_init(&b->fold);
}

static void browser_release(struct browser *b)
{
	hists_rows_free(b->rows);
	b->rows = NULL;
	free(b->shown);
	b->shown = NULL;
	b->nr_shown = b->alloc_shown = 0;
	free(b->base_filtered);
	b->base_filtered = NULL;
	u64map_for_each(&b->expanded, free_chain, NULL);
	u64map_release(&b->expanded);
	u64map_release(&b->chain_known);
	chain_fold_release(&b->fold);
	free(b->pick);
	b->pick = NULL;
	free(b->filter);
	b->filter = NULL;
}

int hists_browse(struct hist_browser_event *evs, int nr, const struct hists_print_opts *po,
		 const struct hist_browser_ops *ops)
{
	SCREEN *scr;
	bool color;
	int cur = 0;

	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
		return -ENOTTY;
	/* UTF-8 line drawing when the locale has it */
	setlocale(LC_CTYPE, "");
	scr = newterm(NULL, stdout, stdin);
	if (!scr)
		return -ENOTTY;
	if (LINES < HIST_BROWSER_MIN_ROWS || COLS < HIST_BROWSER_MIN_COLS) {
		endwin();
		delscreen(scr);
		return -EMSGSIZE;
	}
	tui_active = 1;
	install_restore();
	raw();
	noecho();
	keypad(stdscr, TRUE);
	curs_set(0);
	set_escdelay(25);
	color = has_colors() && !getenv("NO_COLOR");
	if (color) {
		start_color();
		use_default_colors();
		init_pair(PAIR_HOT, COLOR_RED, -1);
		init_pair(PAIR_WARM, COLOR_GREEN, -1);
		init_pair(PAIR_TITLE, COLORS >= 16 ? COLOR_WHITE + 8 : COLOR_WHITE, COLOR_BLUE);
		init_pair(PAIR_SELECTED, COLOR_BLACK, COLORS >= 16 ? COLOR_YELLOW + 8 : COLOR_YELLOW);
		init_pair(PAIR_BOX, COLOR_BLACK, COLOR_WHITE);
	}
	for (;;) {
		struct browser b;
		enum browse_result r;

		if (nr > 1) {
			cur = choose_event(evs, nr, cur, color);
			if (cur < 0)
				break;
		}
		browser_init(&b, &evs[cur], po, ops, color);
		r = browse_hists(&b, nr > 1);
		browser_release(&b);
		if (r == BROWSE_QUIT)
			break;
		if (r == BROWSE_NEXT)
			cur = (cur + 1) % nr;
		else if (r == BROWSE_PREV)
			cur = (cur + nr - 1) % nr;
		/* BROWSE_NEXT/PREV: straight into the next event's histogram */
		while (r == BROWSE_NEXT || r == BROWSE_PREV) {
			browser_init(&b, &evs[cur], po, ops, color);
			r = browse_hists(&b, true);
			browser_release(&b);
			if (r == BROWSE_NEXT)
				cur = (cur + 1) % nr;
			else if (r == BROWSE_PREV)
				cur = (cur + nr - 1) % nr;
		}
		if (r == BROWSE_QUIT)
			break;
	}
	endwin();
	tui_active = 0;
	delscreen(scr);
	return 0;
}
