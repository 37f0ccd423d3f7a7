/* SPDX-License-Identifier: MIT */
/* sonde annotate's code sources: the file a symbol's bytes come from (a dso, a vmlinux, a kcore), perf's texts for none, the disassemblers. */
#ifndef SONDE_CMD_ANNOTATE_CODE_H
#define SONDE_CMD_ANNOTATE_CODE_H

#include "lib/hashmap.h"
#include "session/annotate.h"
#include "session/machine.h"
#include "symbol/disasm.h"
#include "ui/annotate-browser.h"

#include <stdbool.h>
#include <stddef.h>

/* annotate_kernel_error_text - perf's text for kernel symbol @as with no vmlinux or kcore to read, into @buf */
void annotate_kernel_error_text(const struct annotate_sym *as, char *buf, size_t size);
/* annotate_print_kernel_error - that text on stderr, under "Error:" */
void annotate_print_kernel_error(const struct annotate_sym *as);
/* annotate_kernel_code - a kernel dso's code: 0 its vmlinux, 1 a kcore, -1 none */
int annotate_kernel_code(const struct dso *dso);
/* annotate_code_names - the file perf disassembles for @dso: its base name and path (borrowed) */
void annotate_code_names(const struct dso *dso, const char **name, const char **path);
/* annotate_kernel_targets - the kernel symbols and range that name @as's branch targets in @a */
void annotate_kernel_targets(const struct annotate_sym *as, struct annotate_browse_args *a,
			     struct machine *machine);
/*
 * annotate_sym_disasm - the disassembler for @as: its dso's (cached in
 * @cache, dso id -> opened disassembler), or a kcore's of its own (*@own:
 * the caller closes it). NULL with *@err set when there is none.
 */
struct disasm *annotate_sym_disasm(struct u64map *cache, const struct annotate_sym *as,
				   bool source, bool intel, bool *own, int *err);
/* annotate_dso_disasm - @dso's cached disassembler, opened on first use; NULL when it has none */
struct disasm *annotate_dso_disasm(struct u64map *cache, struct dso *dso, bool source, bool intel);
/* annotate_disasm_cache_release - close every disassembler of @cache and release it */
void annotate_disasm_cache_release(struct u64map *cache);

/*
 * struct annotate_prefetch - a dso's disassembler opened on a second
 * thread (its symbols, its DWARF, the unit of one symbol inflated) while
 * the main one still reads the samples: annotating one symbol waits for
 * neither in turn. The result is what annotate_sym_disasm() would open.
 */
struct annotate_prefetch;

/*
 * annotate_prefetch_start - start opening @as's dso's disassembler as
 * annotate_sym_disasm(@source, @intel) would (a user-space dso with a file
 * only). NULL when nothing was started.
 */
struct annotate_prefetch *annotate_prefetch_start(const struct annotate_sym *as, bool source,
						 bool intel);
/* annotate_prefetch_finish - wait for @pf, put its disassembler in @cache, free @pf (NULL: none) */
void annotate_prefetch_finish(struct annotate_prefetch *pf, struct u64map *cache);

#endif
