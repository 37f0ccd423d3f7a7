/* SPDX-License-Identifier: MIT */
/* sonde annotate's code sources: the file a symbol's bytes come from (a dso, a vmlinux, a kcore), perf's texts for none, the disassemblers. */
#include "cmd/annotate-code.h"
#include "lib/xalloc.h"
#include "symbol/elf.h"
#include "symbol/kcore.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* perf's text for a kernel symbol with neither a vmlinux nor a kcore to read */
void annotate_kernel_error_text(const struct annotate_sym *as, char *buf, size_t size)
{
	char hex[2 * BUILD_ID_SIZE + 1] = "";

	if (as->dso->build_id_size)
		buildid_to_hex(as->dso->build_id, as->dso->build_id_size, hex);
	snprintf(buf, size,
		 "Couldn't annotate %s:\n"
		 "No vmlinux file with build id %s\nwas found in the path.\n\n"
		 "Note that annotation using /proc/kcore requires CAP_SYS_RAWIO capability.\n\n"
		 "Please use:\n\n  perf buildid-cache -vu vmlinux\n\nor:\n\n  --vmlinux vmlinux\n",
		 as->sym->name, hex);
}

void annotate_print_kernel_error(const struct annotate_sym *as)
{
	char text[1024];

	annotate_kernel_error_text(as, text, sizeof(text));
	fprintf(stderr, "Error:\n%s", text);
}

/* struct dso_disasm - the disassembler of one dso, opened on first use */
struct dso_disasm {
	struct disasm *d;
	int err;
};

/*
 * kernel_code - where a kernel symbol's code is: the vmlinux its symbols
 * came from (0), the kcore beside them (1), or nowhere (-1: perf's "No
 * vmlinux" error)
 */
int annotate_kernel_code(const struct dso *dso)
{
	const struct symsrc *ss = dso->ss;

	if (!ss || ss->status)
		return -1;
	if (ss->kernel_image && ss->path)
		return 0;
	return ss->kcore_path ? 1 : -1;
}

/* the file perf disassembles for @dso, as its header names it: "kcore", "vmlinux", "libc.so.6" */
void annotate_code_names(const struct dso *dso, const char **name, const char **path)
{
	const char *p = NULL, *slash;

	if (dso->is_kernel && dso->ss)
		p = dso->ss->kernel_image ? dso->ss->path : dso->ss->kcore_path;
	if (!p) {
		*name = dso->short_name;
		*path = dso->long_name;
		return;
	}
	slash = strrchr(p, '/');
	*name = slash ? slash + 1 : p;
	*path = p;
}

/*
 * kernel_targets - perf's browser names a kernel symbol's branch targets
 * from the kernel map: its symbols (kallsyms' or the vmlinux's), within the
 * kcore segment that holds the symbol when the code comes from a kcore
 */
void annotate_kernel_targets(const struct annotate_sym *as, struct annotate_browse_args *a,
			   struct machine *machine)
{
	const struct kcore_seg *seg;
	struct kcore kc;
	struct map *map;

	if (!as->dso->is_kernel || !as->dso->ss)
		return;
	a->target_syms = &as->dso->ss->symtab;
	map = machine ? maps_find(&machine->kmaps, as->sym->start) : NULL;
	if (map)
		a->addr_base = map->start;
	if (annotate_kernel_code(as->dso) != 1 || kcore_open(&kc, as->dso->ss->kcore_path))
		return;
	/* with a kcore, perf's kernel map is the segment holding the code */
	seg = kcore_find(&kc, as->sym->start);
	if (seg) {
		a->target_lo = seg->vaddr;
		a->target_hi = seg->vaddr + seg->memsz;
		a->addr_base = seg->vaddr;
	}
	kcore_close(&kc);
}

static struct dso_disasm *get_disasm(struct u64map *cache, struct dso *dso, bool source,
				     bool intel)
{
	struct dso_disasm *dd = u64map_find(cache, dso->id);
	const struct symsrc *ss = dso->ss;

	if (dd)
		return dd;
	dd = xcalloc(1, sizeof(*dd));
	u64map_set(cache, dso->id, dd);
	if (!ss || !ss->path) {
		dd->err = dso->load_status ? dso->load_status : -ENOENT;
		return dd;
	}
	dd->d = disasm_open(ss->path, ss->symbol_path, &ss->symtab, !source, &dd->err);
	if (dd->d && intel)
		disasm_set_intel(dd->d, true);
	return dd;
}

/*
 * sym_disasm - the disassembler for @as: its dso's (cached in @cache), or
 * for a kernel symbol read from a kcore, one of its own (*@own set: the
 * caller closes it). NULL with *@err set when there is none.
 */
struct disasm *annotate_sym_disasm(struct u64map *cache, const struct annotate_sym *as,
				 bool source, bool intel, bool *own, int *err)
{
	struct dso_disasm *dd;
	struct disasm *d;

	*own = false;
	if (as->dso->is_kernel) {
		int k = annotate_kernel_code(as->dso);

		if (k < 0) {
			*err = -ENOENT;
			return NULL;
		}
		if (k == 1) {
			d = disasm_open_kcore(as->dso->ss->kcore_path, as->sym->start, as->sym->end,
					      err);
			if (d && intel)
				disasm_set_intel(d, true);
			*own = d != NULL;
			return d;
		}
	}
	dd = get_disasm(cache, as->dso, source, intel);
	if (!dd->d)
		*err = dd->err ? dd->err : -ENOENT;
	return dd->d;
}

struct disasm *annotate_dso_disasm(struct u64map *cache, struct dso *dso, bool source, bool intel)
{
	return get_disasm(cache, dso, source, intel)->d;
}

struct annotate_prefetch {
	pthread_t th;
	u64 dso_id;
	char *path, *symbol_path;
	const struct symtab *plt;
	bool runtime_labels, intel;
	u64 addr;
	struct disasm *d;
	int err;
};

static void *prefetch_main(void *arg)
{
	struct annotate_prefetch *pf = arg;

	pf->d = disasm_open(pf->path, pf->symbol_path, pf->plt, pf->runtime_labels, &pf->err);
	if (pf->d && pf->intel)
		disasm_set_intel(pf->d, true);
	if (pf->d)
		disasm_warm_lines(pf->d, pf->addr);
	return NULL;
}

struct annotate_prefetch *annotate_prefetch_start(const struct annotate_sym *as, bool source,
						 bool intel)
{
	const struct symsrc *ss = as->dso->ss;
	struct annotate_prefetch *pf;

	if (as->dso->is_kernel || !ss || !ss->path)
		return NULL;
	pf = xcalloc(1, sizeof(*pf));
	pf->dso_id = as->dso->id;
	pf->path = xstrdup(ss->path);
	pf->symbol_path = ss->symbol_path ? xstrdup(ss->symbol_path) : NULL;
	pf->plt = &ss->symtab;
	pf->runtime_labels = !source;
	pf->intel = intel;
	pf->addr = as->sym->start;
	if (pthread_create(&pf->th, NULL, prefetch_main, pf)) {
		free(pf->path);
		free(pf->symbol_path);
		free(pf);
		return NULL;
	}
	return pf;
}

void annotate_prefetch_finish(struct annotate_prefetch *pf, struct u64map *cache)
{
	struct dso_disasm *dd;

	if (!pf)
		return;
	pthread_join(pf->th, NULL);
	if (u64map_find(cache, pf->dso_id)) {
		disasm_close(pf->d);
	} else {
		dd = xcalloc(1, sizeof(*dd));
		dd->d = pf->d;
		dd->err = pf->err;
		u64map_set(cache, pf->dso_id, dd);
	}
	free(pf->path);
	free(pf->symbol_path);
	free(pf);
}

static int free_dd(uint64_t key, void *val, void *arg)
{
	struct dso_disasm *dd = val;

	(void)key;
	(void)arg;
	disasm_close(dd->d);
	free(dd);
	return 0;
}

void annotate_disasm_cache_release(struct u64map *cache)
{
	u64map_for_each(cache, free_dd, NULL);
	u64map_release(cache);
}
