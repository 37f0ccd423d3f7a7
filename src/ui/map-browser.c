/* SPDX-License-Identifier: MIT */
/* perf's "Browse map details": the symbols of one DSO in a TUI list. */
#include "ui/map-browser.h"

#include "session/machine.h"
#include "symbol/symtab.h"

#include <elf.h>
#include <stdio.h>
#include <string.h>

#define MKEY_ESCAPE 27
#define MKEY_CTRL_C 3

static char binding_char(const struct symbol *sym)
{
	if (sym->binding == STB_GLOBAL)
		return 'g';
	if (sym->binding == STB_WEAK)
		return 'w';
	return 'l';
}

/* hex_width - the digits of @v in hex (at least 1) */
static int hex_width(unsigned long long v)
{
	int n = 1;

	while (v >>= 4)
		n++;
	return n;
}

/*
 * file_offset - @v (an ELF address; @end: one past a symbol) as the file
 * offset perf's map browser shows for user binaries: moved by the load
 * segment holding it (none holds it: unchanged)
 */
static u64 file_offset(const struct dso *dso, u64 v, bool end)
{
	const struct symsrc *ss = dso->ss;

	if (dso->is_kernel || !ss)
		return v;
	for (size_t i = 0; i < ss->nr_segs; i++) {
		const struct load_segment *sg = &ss->segs[i];

		if (v >= sg->vaddr && v < sg->vaddr + sg->memsz)
			return v - sg->vaddr + sg->offset;
	}
	for (size_t i = 0; end && i < ss->nr_segs; i++) {
		const struct load_segment *sg = &ss->segs[i];

		if (v > sg->vaddr && v <= sg->vaddr + sg->memsz)
			return v - sg->vaddr + sg->offset;
	}
	return v;
}

static void put_text(int y, const char *text, int width, attr_t attr)
{
	int x = 0;

	attrset(attr);
	move(y, 0);
	for (const char *p = text; *p && x < width; p++, x++)
		addch((unsigned char)*p);
	for (; x < width; x++)
		addch(' ');
	attrset(A_NORMAL);
}

void map_browse(const struct dso *dso, const struct tui_attrs *at)
{
	const struct symtab *st = dso->ss ? &dso->ss->symtab : NULL;
	size_t nr = st ? st->nr_syms : 0, top = 0, sel = 0;
	unsigned long long max_end = 0;
	int w;

	for (size_t i = 0; i < nr; i++) {
		u64 e = file_offset(dso, st->syms[i].end, true);

		if (e > max_end)
			max_end = e;
	}
	w = hex_width(max_end);
	for (;;) {
		size_t rows = LINES > 2 ? (size_t)LINES - 2 : 1;
		int key;

		if (sel < top)
			top = sel;
		if (sel >= top + rows)
			top = sel - rows + 1;
		erase();
		put_text(0, dso->long_name, COLS, A_NORMAL);
		for (size_t i = 0; i < rows && top + i < nr; i++) {
			const struct symbol *sym = &st->syms[top + i];
			char line[1024];

			snprintf(line, sizeof(line), "%*llx %*llx %c %s", w,
				 (unsigned long long)file_offset(dso, sym->start, false), w,
				 (unsigned long long)file_offset(dso, sym->end, true),
				 binding_char(sym), sym->name);
			put_text((int)i + 1, line, COLS - 1, top + i == sel ? at->selected : A_NORMAL);
		}
		put_text(LINES - 1, "Press ESC to exit, restart with -v to use / to search", COLS,
			 A_NORMAL);
		refresh();
		timeout(-1);
		key = getch();
		switch (key) {
		case KEY_DOWN:
			sel = sel + 1 < nr ? sel + 1 : sel;
			break;
		case KEY_UP:
			sel = sel ? sel - 1 : 0;
			break;
		case KEY_NPAGE:
		case ' ':
			sel = sel + rows < nr ? sel + rows : (nr ? nr - 1 : 0);
			break;
		case KEY_PPAGE:
			sel = sel > rows ? sel - rows : 0;
			break;
		case KEY_HOME:
			sel = 0;
			break;
		case KEY_END:
			sel = nr ? nr - 1 : 0;
			break;
		case MKEY_ESCAPE:
		case KEY_LEFT:
		case 'q':
		case 'Q':
		case MKEY_CTRL_C:
			return;
		default:
			break;
		}
	}
}
