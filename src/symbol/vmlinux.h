/* SPDX-License-Identifier: MIT */
/*
 * The kernel image's symbols and code, chosen as perf does: -k/--vmlinux,
 * perf.data's kcore_dir (record --kcore), a vmlinux with the recorded
 * build-id on the search path, else kallsyms (with /proc/kcore for the
 * code when it is the running kernel's and readable).
 */
#ifndef SONDE_SYMBOL_VMLINUX_H
#define SONDE_SYMBOL_VMLINUX_H

#include "lib/strbuf.h"
#include "lib/util.h"
#include "symbol/symtab.h"

#include <stddef.h>

/*
 * vmlinux_find - the first vmlinux perf 6.1 would take for the kernel
 * with build-id @bid (@len 0: unknown, any file will do): the build-id
 * cache's "elf", then ./vmlinux, /boot/vmlinux, /boot/vmlinux-RELEASE,
 * /usr/lib/debug/boot/vmlinux-RELEASE, /lib/modules/RELEASE/build/vmlinux,
 * /usr/lib/debug/lib/modules/RELEASE/vmlinux and
 * /usr/lib/debug/boot/vmlinux-RELEASE.debug (RELEASE: uname -r); a file
 * without that build-id is passed over. @root, when not NULL, is put
 * before the search path's entries (tests). Appends the path to @out.
 * Returns 0 or -ENOENT.
 */
int vmlinux_find(struct strbuf *out, const u8 *bid, size_t len, const struct symbol_opts *opts,
		 const char *root);

/*
 * vmlinux_load - @ss from the kernel image at @path: its ELF symbols,
 * absolute addresses. Returns 0, -ESTALE when @bid is known and the file
 * has another build-id or none (nothing loaded), or elf_read_info()'s
 * errors.
 */
int vmlinux_load(struct symsrc *ss, const char *path, const u8 *bid, size_t len,
		 const struct symbol_opts *opts);

#endif
