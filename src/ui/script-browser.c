/* SPDX-License-Identifier: MIT */
/* The TUIs' script runs (perf's 'r' menu), their output viewer, and the small menus and boxes they share. */
#include "ui/script-browser.h"

#include "lib/strvec.h"
#include "lib/subproc.h"
#include "lib/xalloc.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define TKEY_ESCAPE 27
#define TKEY_CTRL_C 3

/* fill_line - row @y: @text (up to @width bytes, tabs as spaces) then blanks, in @attr */
static void fill_line(int y, const char *text, size_t n, int width, attr_t attr)
{
	int x = 0;

	attrset(attr);
	move(y, 0);
	for (size_t i = 0; i < n && x < width; i++, x++)
		addch((unsigned char)text[i] == '\t' ? ' ' : (unsigned char)text[i]);
	for (; x < width; x++)
		addch(' ');
	attrset(A_NORMAL);
}

int tui_menu(const char *const *items, int nr, int sel, const char *hint,
	     const struct tui_attrs *at)
{
	int top = 0;

	if (sel < 0 || sel >= nr)
		sel = 0;
	for (;;) {
		int rows = LINES - 2 > 1 ? LINES - 2 : 1, key;

		if (sel < top)
			top = sel;
		if (sel >= top + rows)
			top = sel - rows + 1;
		erase();
		fill_line(0, "", 0, COLS, at->title);
		for (int i = 0; i < rows && top + i < nr; i++) {
			const char *t = items[top + i];

			fill_line(i + 1, t, strlen(t), COLS - 1,
				  top + i == sel ? at->selected : A_NORMAL);
		}
		fill_line(LINES - 1, hint, strlen(hint), COLS, A_NORMAL);
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
		case KEY_NPAGE:
		case ' ':
			sel = sel + rows < nr ? sel + rows : nr - 1;
			break;
		case KEY_PPAGE:
			sel = sel > rows ? sel - rows : 0;
			break;
		case KEY_HOME:
			sel = 0;
			break;
		case KEY_END:
			sel = nr - 1;
			break;
		case '\n':
		case '\r':
		case KEY_ENTER:
		case KEY_RIGHT:
			return nr ? sel : -1;
		case TKEY_ESCAPE:
		case KEY_LEFT:
		case 'q':
		case 'Q':
		case TKEY_CTRL_C:
			return -1;
		default:
			break;
		}
	}
}

/* struct wrapped - the pager's screen lines: offsets and lengths into the text (tabs expanded) */
struct wrapped {
	char **v;
	size_t nr, alloc;
};

static void wrapped_push(struct wrapped *w, const char *s, size_t n)
{
	if (w->nr == w->alloc) {
		w->alloc = w->alloc ? 2 * w->alloc : 256;
		w->v = xreallocarray(w->v, w->alloc, sizeof(*w->v));
	}
	w->v[w->nr++] = xstrndup(s, n);
}

/* wrap_text - @text cut into screen lines of @width columns, as less folds long lines */
static void wrap_text(struct wrapped *w, const char *text, size_t len, int width)
{
	char *line = xmalloc((size_t)width + 1);
	size_t i = 0;

	while (i < len) {
		const char *nl = memchr(text + i, '\n', len - i);
		size_t end = nl ? (size_t)(nl - text) : len;
		int col = 0;
		bool pushed = false;

		for (size_t k = i; k < end; k++) {
			char c = text[k];
			int n = c == '\t' ? 8 - col % 8 : 1;

			for (int j = 0; j < n; j++) {
				if (col == width) {
					wrapped_push(w, line, (size_t)col);
					pushed = true;
					col = 0;
				}
				line[col++] = c == '\t' ? ' ' : c;
			}
		}
		if (col || !pushed)
			wrapped_push(w, line, (size_t)col);
		i = end + 1;
	}
	free(line);
}

static void wrapped_release(struct wrapped *w)
{
	for (size_t i = 0; i < w->nr; i++)
		free(w->v[i]);
	free(w->v);
}

void tui_text_browse(const char *text, size_t len, const struct tui_attrs *at)
{
	struct wrapped w = { 0 };
	size_t top = 0;
	int width = COLS;

	wrap_text(&w, text, len, width);
	for (;;) {
		size_t rows = LINES > 1 ? (size_t)LINES - 1 : 1, last;
		int key;

		erase();
		for (size_t i = 0; i < rows && top + i < w.nr; i++)
			fill_line((int)i, w.v[top + i], strlen(w.v[top + i]), COLS, A_NORMAL);
		if (top + rows >= w.nr) {
			move(LINES - 1, 0);
			attrset(A_REVERSE);
			addstr("(END)");
			attrset(A_NORMAL);
		} else {
			mvaddstr(LINES - 1, 0, ":");
		}
		refresh();
		timeout(-1);
		key = getch();
		last = w.nr > rows ? w.nr - rows : 0;
		switch (key) {
		case KEY_DOWN:
		case '\n':
		case '\r':
		case KEY_ENTER:
		case 'j':
		case 'e':
			top = top < last ? top + 1 : top;
			break;
		case KEY_UP:
		case 'k':
		case 'y':
			top = top ? top - 1 : 0;
			break;
		case KEY_NPAGE:
		case ' ':
		case 'f':
			top = top + rows < last ? top + rows : last;
			break;
		case KEY_PPAGE:
		case 'b':
			top = top > rows ? top - rows : 0;
			break;
		case KEY_HOME:
		case 'g':
		case '<':
			top = 0;
			break;
		case KEY_END:
		case 'G':
		case '>':
			top = last;
			break;
		case 'q':
		case 'Q':
		case TKEY_ESCAPE:
		case KEY_LEFT:
		case TKEY_CTRL_C:
			wrapped_release(&w);
			erase();
			(void)at;
			return;
		default:
			break;
		}
	}
}

char *tui_prompt(const char *title, const char *text)
{
	int tw = (int)strlen(text) + 1, w = tw + 2 > 40 ? tw + 2 : 40, h = 9, key;
	char buf[512];
	size_t len = 0;
	WINDOW *win, *field;

	if (w > COLS)
		w = COLS;
	if (h > LINES)
		h = LINES;
	/* perf's box sits half a line lower than centred */
	win = newwin(h, w, (LINES - h + 1) / 2, (COLS - w) / 2);
	box(win, 0, 0);
	mvwaddnstr(win, 0, 2, title, w - 4);
	mvwaddnstr(win, 1, 1, text, w - 2);
	field = derwin(win, 3, w - 4, 3, 2);
	if (field)
		box(field, 0, 0);
	buf[0] = '\0';
	timeout(-1);
	for (;;) {
		mvwhline(win, 4, 3, ' ', w - 6);
		mvwaddnstr(win, 4, 3, len > (size_t)(w - 6) ? buf + len - (size_t)(w - 6) : buf,
			   w - 6);
		wrefresh(win);
		key = getch();
		if (key == TKEY_ESCAPE || key == TKEY_CTRL_C) {
			if (field)
				delwin(field);
			delwin(win);
			touchwin(stdscr);
			return NULL;
		}
		if (key == '\n' || key == '\r' || key == KEY_ENTER)
			break;
		if ((key == KEY_BACKSPACE || key == 127 || key == 8) && len)
			buf[--len] = '\0';
		else if (key >= ' ' && key < 127 && len + 1 < sizeof(buf)) {
			buf[len++] = (char)key;
			buf[len] = '\0';
		}
	}
	if (field)
		delwin(field);
	delwin(win);
	touchwin(stdscr);
	return xstrdup(buf);
}

/*
 * split_words - @s as the shell would split plain words: blanks separate,
 * '...' and "..." group (no expansion, no escapes but \ before a byte)
 */
static void split_words(struct strvec *sv, const char *s)
{
	size_t n = strlen(s);
	char *word = xmalloc(n + 1);

	while (*s) {
		size_t k = 0;
		char quote = 0;
		bool any = false;

		while (*s == ' ' || *s == '\t')
			s++;
		for (; *s && (quote || (*s != ' ' && *s != '\t')); s++) {
			any = true;
			if (quote && *s == quote)
				quote = 0;
			else if (!quote && (*s == '\'' || *s == '"'))
				quote = *s;
			else if (*s == '\\' && quote != '\'' && s[1])
				word[k++] = *++s;
			else
				word[k++] = *s;
		}
		if (any) {
			word[k] = '\0';
			strvec_push(sv, word);
		}
	}
	free(word);
}

/* the menu's fixed entries and the script options perf gives each */
static const char *const show_items[] = {
	"Show individual samples",
	"Show individual samples with assembler",
	"Show individual samples with source",
	"Show samples with custom perf script arguments",
};

int script_menu_run(const struct script_menu *m, const char *filter_opt, const char *filter_val,
		    const struct tui_attrs *at)
{
	int nr = 4 + m->nr_scripts, choice, ret, status;
	const char **items = xcalloc((size_t)nr, sizeof(*items));
	struct strvec av = STRVEC_INIT;
	char *out = NULL;
	size_t len = 0;

	for (int i = 0; i < 4; i++)
		items[i] = show_items[i];
	for (int i = 0; i < m->nr_scripts; i++)
		items[4 + i] = m->scripts[i];
	choice = tui_menu(items, nr, 0, "ESC: exit, ENTER|->: Select option", at);
	free(items);
	if (choice < 0)
		return 1;
	strvec_push(&av, m->prog);
	strvec_push(&av, "script");
	if (choice == 3) {
		char *args = tui_prompt("perf script command",
					"Enter perf script command line (without perf script prefix)");

		if (!args) {
			strvec_clear(&av);
			return 1;
		}
		split_words(&av, args);
		free(args);
	} else if (choice < 3) {
		if (choice == 1) {
			strvec_push(&av, "-F");
			strvec_push(&av, "+insn");
			strvec_push(&av, "--xed");
		} else if (choice == 2) {
			strvec_push(&av, "-F");
			strvec_push(&av, "+srcline,+srccode");
		}
		strvec_push(&av, "-F");
		strvec_push(&av, "+metric");
		strvec_push(&av, "--inline");
	} else {
		strvec_push(&av, "-s");
		strvec_push(&av, m->scripts[choice - 4]);
	}
	if (filter_opt && filter_val) {
		strvec_push(&av, filter_opt);
		strvec_push(&av, filter_val);
	}
	strvec_push(&av, "-i");
	strvec_push(&av, m->input);
	ret = subproc_capture(m->exe, (const char *const *)av.v, &out, &len, &status);
	strvec_clear(&av);
	if (ret)
		return ret;
	tui_text_browse(out, len, at);
	free(out);
	return 0;
}
