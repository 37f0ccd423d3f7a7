/* SPDX-License-Identifier: MIT */
/* sonde annotate's TUI: the browser on a symbol, following calls, entered from annotate, report and top. */
#include "cmd/annotate.h"
#include "cmd/annotate-code.h"
#include "cmd/open.h"
#include "cmd/script-lang.h"
#include "core/evlist.h"
#include "core/evsel.h"
#include "data/reader.h"
#include "lib/debug.h"
#include "lib/hashmap.h"
#include "lib/xalloc.h"
#include "session/annotate.h"
#include "session/machine.h"
#include "session/session.h"
#include "symbol/disasm.h"
#include "symbol/elf.h"
#include "symbol/kcore.h"
#include "ui/annotate-browser.h"
#include "ui/annotate-stdio.h"
#include "ui/hists-browser.h"
#include "ui/header.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* struct tui_ctx - what the annotate browser's call following needs */
struct tui_ctx {
	struct evlist *evlist;	  /* the events, for the title */
	struct annotate_hists *ah;
	struct u64map *cache;
	const struct annotate_print_opts *po;
	const struct annotate_sym *cur;
	int depth;
	u64 title_samples, title_period; /* the title's numbers (0: the symbol's) */
	bool zero_global_hits;		 /* perf annotate's (not report's) browser */
	bool live;			 /* top's collector: browse sorted snapshots */
	struct machine *machine;	 /* the kernel's maps, or NULL */
	const struct script_menu *scripts; /* 'r', or NULL */
};

static int browse_sym(struct tui_ctx *c, const struct annotate_sym *as, char *msg, size_t size);

/* follow_call - Enter on a call: the callee of the same dso, with its samples if it has any */
static int follow_call(void *arg, u64 addr, char *msg, size_t size)
{
	struct tui_ctx *c = arg;
	const struct annotate_sym *from = c->cur;
	const struct symbol *sym = NULL;
	struct annotate_sym empty;
	int ret;

	if (from->dso->ss)
		sym = symtab_find(&from->dso->ss->symtab, addr);
	if (!sym) {
		snprintf(msg, size, "The called function was not found.");
		return -ENOENT;
	}
	if (c->depth > 32) {
		snprintf(msg, size, "Too many nested annotations.");
		return -ELOOP;
	}
	if (c->live) {
		struct annotate_sym *snap = annotate_hists_snapshot(c->ah, sym, from->evsel_idx);

		if (snap) {
			ret = browse_sym(c, snap, msg, size);
			annotate_sym_free(snap);
			c->cur = from;
			return ret;
		}
	}
	for (size_t i = 0; !c->live && i < c->ah->nr_syms; i++) {
		const struct annotate_sym *as = c->ah->syms[i];

		if (as->sym == sym && as->evsel_idx == from->evsel_idx) {
			ret = browse_sym(c, as, msg, size);
			c->cur = from;
			return ret;
		}
	}
	memset(&empty, 0, sizeof(empty));
	empty.sym = sym;
	empty.dso = from->dso;
	empty.evsel_idx = from->evsel_idx;
	ret = browse_sym(c, &empty, msg, size);
	c->cur = from;
	return ret;
}

/* annotate_title - the browser's first line: the symbol's samples, the event, its rate */
static void annotate_title(const struct tui_ctx *c, const struct annotate_sym *as, char *buf,
			   size_t size)
{
	struct evsel *evsel, *ev = NULL;
	unsigned long long n;
	char unit, freq[64] = "";

	evlist_for_each_entry(c->evlist, evsel)
		if (evsel->idx == as->evsel_idx)
			ev = evsel;
	if (ev && ev->attr.freq)
		snprintf(freq, sizeof(freq), ", %llu Hz", (unsigned long long)ev->attr.sample_freq);
	/* the event's samples that passed the filters (the named symbol's, or all) */
	hists_browser_sample_unit(c->title_samples ? c->title_samples
						   : c->ah->total_hits[as->evsel_idx], &n, &unit);
	snprintf(buf, size, "Samples: %llu%c of event '%s'%s, Event count (approx.): %llu", n, unit,
		 ev && ev->name ? ev->name : "", freq,
		 (unsigned long long)(c->title_period ? c->title_period
						       : c->ah->total_period[as->evsel_idx]));
}

void annotate_tui_title(struct evlist *evlist, struct annotate_hists *ah, const struct annotate_sym *as,
			char *buf, size_t size)
{
	struct tui_ctx c = { .evlist = evlist, .ah = ah };

	annotate_title(&c, as, buf, size);
}

static int browse_sym(struct tui_ctx *c, const struct annotate_sym *as, char *msg, size_t size)
{
	struct annotate_browse_args a = { 0 };
	struct annotate_sym *folded;
	struct disasm_insn *insns;
	struct annotate_line *lines;
	struct disasm *d;
	const char *name;
	size_t nr, nr_lines;
	char title[512];
	bool own;
	int ret;

	d = annotate_sym_disasm(c->cache, as, true, c->po->intel, &own, &ret);
	if (!d) {
		if (as->dso->is_kernel && annotate_kernel_code(as->dso) < 0)
			snprintf(msg, size, "Couldn't annotate %s: no vmlinux or readable kcore",
				 as->sym->name);
		else
			snprintf(msg, size, "Couldn't annotate %s: %s", as->sym->name,
				 ret == -ESTALE ? "build-id mismatch" : strerror(-ret));
		return ret;
	}
	ret = disasm_range(d, as->sym->start, as->sym->end, &insns, &nr);
	if (ret) {
		snprintf(msg, size, "Couldn't annotate %s: %s", as->sym->name, strerror(-ret));
		if (own)
			disasm_close(d);
		return ret;
	}
	disasm_lines(d, insns, nr);
	lines = annotate_build_lines(d, insns, annotate_shown_insns(insns, nr, false),
				     as->sym->start, true, &nr_lines);
	annotate_title(c, as, title, sizeof(title));
	folded = annotate_sym_fold(as, insns, nr, 0);
	a.lines = lines;
	a.nr_lines = nr_lines;
	a.as = folded ? folded : as;
	a.ah = c->ah;
	a.title = title;
	annotate_code_names(as->dso, &name, &a.dso_path);
	annotate_kernel_targets(as, &a, c->machine);
	/* perf annotate's browser (not report's) finds no target in the other sampled symbols */
	if (c->zero_global_hits)
		a.hidden_syms = &c->ah->dropped;
	a.percent_type = c->po->percent_type;
	a.zero_global_hits = c->zero_global_hits;
	a.global_hits = c->title_samples;
	a.global_period = c->title_period;
	a.follow = follow_call;
	a.arg = c;
	a.scripts = c->scripts;
	c->cur = as;
	c->depth++;
	ret = annotate_browse(&a);
	c->depth--;
	annotate_sym_free(folded);
	annotate_lines_free(lines, nr_lines);
	disasm_insns_free(insns, nr);
	if (own)
		disasm_close(d);
	if (ret == -EMSGSIZE)
		snprintf(msg, size, "Error: the terminal is too small for the TUI, use --stdio");
	else if (ret)
		snprintf(msg, size, "Error: the TUI needs a terminal, use --stdio");
	return ret;
}

int annotate_tui_entry(const char *input, const struct symbol_opts *sopts,
		       const struct symbol *sym, const struct dso *dso, int evsel_idx, u64 nr_samples,
		       u64 period, bool intel, char *msg, size_t size)
{
	struct symbol_opts so = *sopts;
	struct machine_opts mopts = { .symbol_opts = &so };
	char kcore_dir[PATH_MAX];
	struct annotate_filter filter = { .symbol = sym->name, .dso = dso->long_name };
	struct annotate_print_opts po = { .source = true, .intel = intel };
	struct data_error err = { 0 };
	struct annotate_hists ah;
	struct data_reader *r;
	struct session *s;
	struct u64map cache;
	struct tui_ctx c = { 0 };
	struct script_menu menu;
	const char *names[32];
	int ret = -ENOENT;

	r = data_open_for_read(input, true);
	if (!r) {
		snprintf(msg, size, "Couldn't reopen %s", input ? input : "perf.data");
		return -EIO;
	}
	if (!so.kcore_dir)
		so.kcore_dir = data_kcore_dir(r, kcore_dir, sizeof(kcore_dir));
	s = session_new(r, &mopts);
	annotate_hists_init(&ah, s, &filter);
	u64map_init(&cache);
	if (annotate_collect(&ah, s, &err) < 0) {
		snprintf(msg, size, "%s", err.msg);
		ret = -EIO;
		goto out;
	}
	c.evlist = s->evlist;
	c.machine = &s->machine;
	script_lang_tui_menu(&menu, s->evlist, input, names, 32);
	c.scripts = &menu;
	c.ah = &ah;
	c.cache = &cache;
	c.po = &po;
	c.title_samples = nr_samples;
	c.title_period = period;
	snprintf(msg, size, "No samples for %s", sym->name);
	for (size_t i = 0; i < ah.nr_syms; i++)
		if (evsel_idx < 0 || ah.syms[i]->evsel_idx == evsel_idx) {
			msg[0] = '\0';
			ret = browse_sym(&c, ah.syms[i], msg, size);
			break;
		}
out:
	annotate_disasm_cache_release(&cache);
	annotate_hists_release(&ah);
	session_free(s);
	return ret;
}

int annotate_tui_live(struct evlist *evlist, const struct annotate_hists *ah,
		      const struct symbol *sym, int evsel_idx, u64 nr_samples, u64 period,
		      bool intel, char *msg, size_t size)
{
	struct annotate_print_opts po = { .source = true, .intel = intel };
	struct annotate_sym *snap = annotate_hists_snapshot(ah, sym, evsel_idx);
	struct u64map cache;
	struct tui_ctx c = { 0 };
	int ret;

	if (!snap) {
		snprintf(msg, size, "No samples for %s", sym->name);
		return -ENOENT;
	}
	u64map_init(&cache);
	c.evlist = evlist;
	c.ah = (struct annotate_hists *)ah;
	c.cache = &cache;
	c.po = &po;
	c.title_samples = nr_samples;
	c.title_period = period;
	c.live = true;
	msg[0] = '\0';
	ret = browse_sym(&c, snap, msg, size);
	annotate_sym_free(snap);
	annotate_disasm_cache_release(&cache);
	return ret;
}

int annotate_tui(struct session *s, struct annotate_hists *ah, struct u64map *cache,
			const struct annotate_print_opts *po, double limit, bool quiet,
			const char *input)
{
	struct tui_ctx c = { .evlist = s->evlist, .ah = ah, .cache = cache, .po = po,
			     .zero_global_hits = true, .machine = &s->machine };
	struct script_menu menu;
	const char *names[32];
	char msg[512] = "";

	/* the scripts read the file again: not a pipe */
	if (!input || strcmp(input, "-")) {
		script_lang_tui_menu(&menu, s->evlist, input, names, 32);
		c.scripts = &menu;
	}

	for (size_t i = 0; i < ah->nr_syms; i++) {
		const struct annotate_sym *as = ah->syms[i];
		int e;

		if (limit > 0 && ah->total_period[as->evsel_idx] &&
		    100.0 * (double)as->period / (double)ah->total_period[as->evsel_idx] < limit)
			continue;
		if (as->dso->is_kernel && annotate_kernel_code(as->dso) < 0) {
			/* perf shows its text in a box and stops there */
			char text[1024];

			annotate_kernel_error_text(as, text, sizeof(text));
			if (quiet || annotate_popup("Error:", text))
				annotate_print_kernel_error(as);
			return 0;
		}
		if (!as->dso->is_kernel) {
			if (!annotate_dso_disasm(cache, as->dso, true, po->intel))
				continue;
		}
		e = browse_sym(&c, as, msg, sizeof(msg));
		if (e && msg[0])
			fprintf(stderr, "%s\n", msg);
		return e ? (e == -ENOTTY || e == -EMSGSIZE ? 255 : 1) : 0;
	}
	fprintf(stderr, "Error:\nThe %s data has no samples!\n", data_reader_path(s->reader));
	return 1;
}

