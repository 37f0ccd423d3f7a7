/* SPDX-License-Identifier: MIT */
/* Annotate's sample collector: per event, per (dso, symbol), hits and period per address. */
#include "session/annotate.h"

#include "core/evlist.h"
#include "core/evsel.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "symbol/elf.h"

#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static struct annotate_sym *sym_findnew(struct annotate_hists *ah, const struct symbol *sym,
					struct dso *dso, int idx)
{
	u64 key = (u64)(uintptr_t)sym * 31 + (u64)idx;
	void *v = u64map_find(&ah->by_key, key);
	struct annotate_sym *as;

	if (v)
		return ah->syms[(uintptr_t)v - 1];
	as = xcalloc(1, sizeof(*as));
	as->sym = sym;
	as->dso = dso;
	as->evsel_idx = idx;
	u64map_init(&as->by_addr);
	if (ah->nr_syms == ah->alloc_syms) {
		ah->alloc_syms = ah->alloc_syms ? 2 * ah->alloc_syms : 64;
		ah->syms = xrealloc(ah->syms, ah->alloc_syms * sizeof(*ah->syms));
	}
	ah->syms[ah->nr_syms++] = as;
	u64map_set(&ah->by_key, key, (void *)(uintptr_t)ah->nr_syms);
	if (ah->nr_syms == 1 && ah->filter.symbol && ah->first_kept)
		ah->first_kept(ah, as, ah->first_kept_arg);
	return as;
}

static void sym_add(struct annotate_sym *as, u64 addr, u64 period)
{
	void *v = u64map_find(&as->by_addr, addr);
	struct annotate_addr *a;

	if (!v) {
		if (as->nr_addrs == as->alloc_addrs) {
			as->alloc_addrs = as->alloc_addrs ? 2 * as->alloc_addrs : 16;
			as->addrs = xrealloc(as->addrs, as->alloc_addrs * sizeof(*as->addrs));
		}
		a = &as->addrs[as->nr_addrs++];
		memset(a, 0, sizeof(*a));
		a->addr = addr;
		u64map_set(&as->by_addr, addr, (void *)(uintptr_t)as->nr_addrs);
	} else {
		a = &as->addrs[(uintptr_t)v - 1];
	}
	a->hits++;
	a->period += period;
	as->hits++;
	as->period += period;
}

/* sym_count - @period at @rf's address of @sym; the symbol's map is its first sample's */
static void sym_count(struct annotate_hists *ah, const struct resolved_frame *rf,
		      const struct symbol *sym, int idx, u64 period)
{
	struct annotate_sym *as = sym_findnew(ah, sym, resolved_frame_dso(rf), idx);

	if (!as->has_map && rf->map && !dso_absolute(rf->map->dso)) {
		as->map_start = rf->map->start;
		as->map_pgoff = rf->map->pgoff;
		as->has_map = true;
	}
	sym_add(as, rf->addr, period);
}

/* @want: a comma-separated list of short or long dso names, NULL for any */
static bool dso_matches(const struct dso *dso, const char *want)
{
	const char *p = want;

	if (!want)
		return true;
	if (!dso)
		return false;
	while (*p) {
		size_t n = strcspn(p, ",");

		if ((strlen(dso->short_name) == n && !strncmp(dso->short_name, p, n)) ||
		    (strlen(dso->long_name) == n && !strncmp(dso->long_name, p, n)))
			return true;
		p += n;
		if (*p == ',')
			p++;
	}
	return false;
}

/* does @buf hold @name as a kallsyms symbol field (" name" then a newline or a tab)? */
static bool text_has_symbol(const char *buf, size_t len, const char *name)
{
	size_t n = strlen(name);
	const char *p = buf, *end = buf + len;

	while (p < end && (p = memmem(p, (size_t)(end - p), name, n))) {
		if (p > buf && p[-1] == ' ' && (p + n == end || p[n] == '\n' || p[n] == '\t'))
			return true;
		p += n;
	}
	return false;
}

/*
 * With a symbol named, the kernel's samples can only count when its
 * kallsyms (the file the machine loads: --kallsyms, kcore_dir's, the
 * build-id cache's copy, or /proc/kallsyms) has that name: checked once in
 * the text, so that annotating a user symbol does not parse and sort the
 * kernel's symbol table. When unsure (demangled kernel names, a vmlinux,
 * no file), resolve.
 */
static bool kernel_may_match(struct annotate_hists *ah, struct session *s)
{
	const struct symbol_opts *so = s->machine.opts.symbol_opts;
	struct symbol_opts o = so ? *so : (struct symbol_opts){ 0 };
	const struct dso *k = s->machine.kernel_dso;
	struct strbuf path = STRBUF_INIT;
	const char *file = "/proc/kallsyms";
	bool found = true;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	if (ah->kernel_state)
		return ah->kernel_state > 0;
	ah->kernel_state = 1;
	/* a vmlinux may name more than kallsyms (-k, or one found): resolve */
	if (o.demangle_kernel || (o.vmlinux && !o.ignore_vmlinux) ||
	    (k && k->ss && k->ss->kernel_image))
		return true;
	if (o.kallsyms) {
		file = o.kallsyms;
	} else if (o.kcore_dir) {
		/* record --kcore's copy, which the machine loads */
		strbuf_addf(&path, "%s/kallsyms", o.kcore_dir);
		file = path.buf;
	} else if (symbol_opts_use_cache(&o) && k && k->build_id_size) {
		char *dir = buildid_dir(&o);

		if (!buildid_cache_find(&path, dir, k->build_id, k->build_id_size, false) &&
		    strendswith(path.buf, "kallsyms"))
			file = path.buf;
		free(dir);
	}
	f = fopen(file, "r");
	if (f) {
		struct stat st;
		void *map = MAP_FAILED;

		/* a copy on disk maps as it is; /proc/kallsyms has to be read */
		if (!fstat(fileno(f), &st) && S_ISREG(st.st_mode) && st.st_size > 0)
			map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fileno(f), 0);
		if (map != MAP_FAILED) {
			len = (size_t)st.st_size;
			found = text_has_symbol(map, len, ah->filter.symbol);
			munmap(map, len);
		} else {
			char tmp[65536];
			size_t got, alloc = 0;

			while ((got = fread(tmp, 1, sizeof(tmp), f)) > 0) {
				if (len + got > alloc) {
					alloc = 2 * (len + got);
					buf = xrealloc(buf, alloc);
				}
				memcpy(buf + len, tmp, got);
				len += got;
			}
			found = len ? text_has_symbol(buf, len, ah->filter.symbol) : true;
		}
		fclose(f);
	}
	free(buf);
	strbuf_release(&path);
	ah->kernel_state = found ? 1 : -1;
	return found;
}

/*
 * With a symbol named, whether a sample's symbol has the name is asked
 * once per symbol while it stays in this small cache (keyed by the
 * symbol's address), not with a strcmp() and a set insertion per sample.
 */
#define NAME_HIT_BITS 10

struct annotate_name_hit {
	const struct symbol *sym;
	bool match;
};

static bool name_matches(struct annotate_hists *ah, const struct symbol *sym)
{
	struct annotate_name_hit *h;

	if (!ah->name_hits)
		ah->name_hits = xcalloc((size_t)1 << NAME_HIT_BITS, sizeof(*ah->name_hits));
	h = &ah->name_hits[((uintptr_t)sym * 0x9e3779b97f4a7c15ULL) >> (64 - NAME_HIT_BITS)];
	if (h->sym != sym) {
		h->sym = sym;
		h->match = !strcmp(sym->name, ah->filter.symbol);
		if (!h->match)
			u64map_set(&ah->dropped, (u64)(uintptr_t)sym, (void *)sym);
	}
	return h->match;
}

/* collect_sample - the tool callback: the sample's symbol and address */
static int collect_sample(struct tool *tool, struct session *s, const union perf_event *ev,
			  const struct perf_sample *sample, struct evsel *evsel)
{
	struct annotate_hists *ah = (struct annotate_hists *)tool;
	const struct resolved_frame *rf;
	const struct symbol *sym;
	struct addr_location loc;
	u64 period = sample->period ? sample->period : 1;
	int idx = evsel->idx;

	(void)ev;
	if (idx < 0 || idx >= ah->nr_events)
		return 0;
	if (ah->filter.symbol &&
	    (sample->cpumode == PERF_RECORD_MISC_KERNEL ||
	     sample->cpumode == PERF_RECORD_MISC_GUEST_KERNEL) &&
	    !kernel_may_match(ah, s))
		return 0; /* no kernel symbol has the name: the filter drops the sample */
	rf = resolve_sample(&ah->res, sample, &loc);
	sym = resolved_frame_sym(rf);
	/* perf's totals (the "global" percentages) count the samples its filters keep */
	if (!dso_matches(resolved_frame_dso(rf), ah->filter.dso))
		return 0;
	if (ah->filter.symbol && (!sym || !name_matches(ah, sym)))
		return 0;
	ah->total_hits[idx]++;
	ah->total_period[idx] += period;
	if (!sym || rf->frame->inlined)
		return 0;
	sym_count(ah, rf, sym, idx, period);
	return 0;
}

void annotate_hists_init(struct annotate_hists *ah, struct session *session,
			 const struct annotate_filter *filter)
{
	memset(ah, 0, sizeof(*ah));
	ah->tool.sample = collect_sample;
	ah->tool.ordered = true;
	ah->tool.two_threads = true;
	if (filter)
		ah->filter = *filter;
	resolver_init(&ah->res, &session->machine, NULL);
	u64map_init(&ah->by_key);
	u64map_init(&ah->dropped);
	ah->nr_events = session->evlist ? session->evlist->nr_entries : 0;
	ah->total_hits = xcalloc((size_t)ah->nr_events + 1, sizeof(u64));
	ah->total_period = xcalloc((size_t)ah->nr_events + 1, sizeof(u64));
}

void annotate_hists_release(struct annotate_hists *ah)
{
	for (size_t i = 0; i < ah->nr_syms; i++) {
		u64map_release(&ah->syms[i]->by_addr);
		free(ah->syms[i]->addrs);
		free(ah->syms[i]);
	}
	free(ah->syms);
	u64map_release(&ah->by_key);
	u64map_release(&ah->dropped);
	free(ah->name_hits);
	resolver_release(&ah->res);
	free(ah->total_hits);
	free(ah->total_period);
	memset(ah, 0, sizeof(*ah));
}

static int cmp_addr(const void *a, const void *b)
{
	const struct annotate_addr *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int cmp_sym(const void *a, const void *b)
{
	const struct annotate_sym *x = *(struct annotate_sym *const *)a;
	const struct annotate_sym *y = *(struct annotate_sym *const *)b;

	if (x->evsel_idx != y->evsel_idx)
		return x->evsel_idx - y->evsel_idx;
	if (x->period != y->period)
		return x->period > y->period ? -1 : 1;
	if (x->hits != y->hits)
		return x->hits > y->hits ? -1 : 1;
	/* equal weights: by dso, then symbol name, as perf's sort keys order them */
	if (x->dso != y->dso && strcmp(x->dso->short_name, y->dso->short_name))
		return strcmp(x->dso->short_name, y->dso->short_name);
	if (x->sym->name != y->sym->name)
		return strcmp(x->sym->name, y->sym->name);
	return x->sym->start < y->sym->start ? -1 : x->sym->start > y->sym->start;
}

int annotate_collect(struct annotate_hists *ah, struct session *session, struct data_error *err)
{
	int ret = session_process(session, &ah->tool, err);

	if (ret < 0)
		return ret;
	for (size_t i = 0; i < ah->nr_syms; i++) {
		struct annotate_sym *as = ah->syms[i];

		qsort(as->addrs, as->nr_addrs, sizeof(*as->addrs), cmp_addr);
		u64map_release(&as->by_addr);
		u64map_init(&as->by_addr);
	}
	if (ah->nr_syms)
		qsort(ah->syms, ah->nr_syms, sizeof(*ah->syms), cmp_sym);
	return 0;
}

const struct annotate_addr *annotate_sym_find_addr(const struct annotate_sym *as, u64 addr)
{
	size_t lo = 0, hi = as->nr_addrs;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (as->addrs[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < as->nr_addrs && as->addrs[lo].addr == addr ? &as->addrs[lo] : NULL;
}

void annotate_hists_add(struct annotate_hists *ah, const struct resolved_frame *rf, int idx,
			u64 period)
{
	const struct symbol *sym = resolved_frame_sym(rf);

	if (idx < 0 || idx >= ah->nr_events)
		return;
	ah->total_hits[idx]++;
	ah->total_period[idx] += period;
	if (!sym || rf->frame->inlined)
		return;
	sym_count(ah, rf, sym, idx, period);
}

u64 annotate_sym_file_offset(const struct annotate_sym *as, u64 addr)
{
	const struct symsrc *ss = as->dso ? as->dso->ss : NULL;

	for (size_t i = 0; ss && i < ss->nr_segs; i++) {
		const struct load_segment *seg = &ss->segs[i];

		if (addr >= seg->vaddr && addr < seg->vaddr + seg->memsz)
			return addr - seg->vaddr + seg->offset;
	}
	return addr;
}

u64 annotate_sym_full_addr(const struct annotate_sym *as, u64 addr)
{
	u64 off;

	if (!as->has_map)
		return addr;
	off = annotate_sym_file_offset(as, addr);
	if (as->dso->ss && as->dso->ss->e_type == ET_EXEC)
		return off;
	return off - as->map_pgoff + as->map_start;
}

struct annotate_sym *annotate_hists_snapshot(const struct annotate_hists *ah,
					     const struct symbol *sym, int idx)
{
	void *v = u64map_find(&ah->by_key, (u64)(uintptr_t)sym * 31 + (u64)idx);
	const struct annotate_sym *as;
	struct annotate_sym *copy;

	if (!v)
		return NULL;
	as = ah->syms[(uintptr_t)v - 1];
	copy = xmalloc(sizeof(*copy));
	*copy = *as;
	copy->addrs = xmemdup(as->addrs, as->nr_addrs * sizeof(*as->addrs));
	copy->alloc_addrs = copy->nr_addrs;
	u64map_init(&copy->by_addr);
	qsort(copy->addrs, copy->nr_addrs, sizeof(*copy->addrs), cmp_addr);
	return copy;
}

void annotate_sym_free(struct annotate_sym *as)
{
	if (!as)
		return;
	u64map_release(&as->by_addr);
	free(as->addrs);
	free(as);
}

/*
 * where a sample at @addr counts: the start of the instruction of @insns
 * holding it (of its @part-byte line when @part), or 0 when none does
 */
static u64 insn_holding(const struct disasm_insn *insns, size_t nr, u64 addr, size_t part)
{
	size_t lo = 0, hi = nr;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (insns[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* objdump's "..." over zero bytes holds no instruction */
	if (!lo || insns[lo - 1].zeros || addr - insns[lo - 1].addr >= (insns[lo - 1].len ?: 1u))
		return 0;
	if (part)
		return addr - (addr - insns[lo - 1].addr) % part;
	return insns[lo - 1].addr;
}

struct annotate_sym *annotate_sym_fold(const struct annotate_sym *as,
				       const struct disasm_insn *insns, size_t nr, size_t part)
{
	struct annotate_sym *copy;
	size_t n = 0;
	bool moved = false;

	for (size_t i = 0; i < as->nr_addrs && !moved; i++) {
		u64 at = insn_holding(insns, nr, as->addrs[i].addr, part);

		moved = at && at != as->addrs[i].addr;
	}
	if (!moved)
		return NULL;
	copy = xmalloc(sizeof(*copy));
	*copy = *as;
	copy->addrs = xmemdup(as->addrs, as->nr_addrs * sizeof(*as->addrs));
	copy->alloc_addrs = copy->nr_addrs;
	u64map_init(&copy->by_addr);
	for (size_t i = 0; i < copy->nr_addrs; i++) {
		u64 at = insn_holding(insns, nr, copy->addrs[i].addr, part);

		if (at)
			copy->addrs[i].addr = at;
	}
	/* sorted by address still: merge the entries that now share one */
	qsort(copy->addrs, copy->nr_addrs, sizeof(*copy->addrs), cmp_addr);
	for (size_t i = 0; i < copy->nr_addrs; i++) {
		if (n && copy->addrs[n - 1].addr == copy->addrs[i].addr) {
			copy->addrs[n - 1].hits += copy->addrs[i].hits;
			copy->addrs[n - 1].period += copy->addrs[i].period;
		} else {
			copy->addrs[n++] = copy->addrs[i];
		}
	}
	copy->nr_addrs = n;
	return copy;
}
