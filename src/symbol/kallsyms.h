/* SPDX-License-Identifier: MIT */
/*
 * /proc/kallsyms and /proc/modules: the running kernel's symbols, split
 * between the kernel image ("[kernel.kallsyms]") and its modules ("[name]").
 */
#ifndef SONDE_SYMBOL_KALLSYMS_H
#define SONDE_SYMBOL_KALLSYMS_H

#include "lib/util.h"
#include "symbol/symtab.h"

#include <stdbool.h>
#include <stddef.h>

/* struct kmodule - one module: its symbols and where /proc/modules says it lives. */
struct kmodule {
	const char *name;     /* interned (pool of the kallsyms): "ext4", without brackets */
	u64 start;	      /* load address from /proc/modules (0 when unknown) */
	u64 size;	      /* from /proc/modules (0 when unknown) */
	struct symtab symtab; /* finished */
};

/*
 * struct kallsyms - one parse of a kallsyms file. Symbols perf keeps are the
 * text ones ('T', 't', 'W', 'w') and data ('D', 'd', 'B', 'b'), with ends
 * computed from the next symbol (symtab_finish() with is_kallsyms).
 */
struct kallsyms {
	struct symtab kernel;	 /* finished: the kernel image's symbols */
	struct kmodule *modules; /* owned array */
	size_t nr_modules;
	u64 text_start;		 /* address of _text (0 when absent) */
	u64 stext;		 /* address of _stext (0 when absent) */
	u64 etext;		 /* address of _etext (0 when absent) */
	size_t nr_lines;	 /* lines parsed */
	bool is_restricted;	 /* every address was 0: kptr_restrict or no privilege */
};

/*
 * kallsyms_parse - parse kallsyms text ("ADDR TYPE NAME[\t[MODULE]]" lines)
 * without per-line allocation. Names go into @pool (borrowed). Call
 * kallsyms_release() after. Returns 0, -EINVAL when nothing parses, or
 * -EPERM when all addresses are zero (kptr_restrict: the caller explains
 * /proc/sys/kernel/kptr_restrict; @ks is still filled with names).
 */
int kallsyms_parse(struct kallsyms *ks, const char *buf, size_t len, struct strpool *pool);
/* kallsyms_load - read and parse @path (NULL: /proc/kallsyms) in one read. Same returns. */
int kallsyms_load(struct kallsyms *ks, const char *path, struct strpool *pool);
void kallsyms_release(struct kallsyms *ks);

/* kallsyms_find_module - the module named @name ("ext4" or "[ext4]"), or NULL. */
struct kmodule *kallsyms_find_module(struct kallsyms *ks, const char *name);
/*
 * kallsyms_find - the kernel or module symbol for kernel address @addr,
 * or NULL; sets *mod to the module (NULL for the kernel image) when @mod.
 */
const struct symbol *kallsyms_find(const struct kallsyms *ks, u64 addr,
				   const struct kmodule **mod);

/*
 * modules_load - read /proc/modules (@path NULL) format
 * "name size refs deps state addr" into @ks's modules (creating entries
 * for modules without symbols). Returns the number of modules or -errno.
 */
int modules_load(struct kallsyms *ks, const char *path, struct strpool *pool);
int modules_parse(struct kallsyms *ks, const char *buf, size_t len, struct strpool *pool);

/*
 * kernel_ip_is_kernel - true when @addr is a kernel address on this
 * architecture (x86_64: the upper half, >= 0xffff800000000000).
 */
bool kernel_addr_is_kernel(u64 addr);

#endif
