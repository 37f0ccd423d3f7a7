/* SPDX-License-Identifier: MIT */
/*
 * Kernel code from a kcore file (/proc/kcore, or the copy perf record
 * --kcore keeps in perf.data/kcore_dir): an ELF core file whose PT_LOAD
 * segments map kernel virtual addresses to file offsets.
 */
#ifndef SONDE_SYMBOL_KCORE_H
#define SONDE_SYMBOL_KCORE_H

#include "lib/util.h"

#include <stdbool.h>
#include <stddef.h>

/* struct kcore_seg - one PT_LOAD: [vaddr, vaddr + filesz) is in the file at @offset */
struct kcore_seg {
	u64 vaddr, offset, filesz, memsz;
	bool exec; /* PF_X */
};

/* struct kcore - an open kcore file and its segments */
struct kcore {
	int fd;
	struct kcore_seg *segs; /* owned, in program header order */
	size_t nr_segs;
};

/*
 * kcore_open - open @path and read its PT_LOAD headers through libelf.
 * Returns 0, or -errno: the open's (-ENOENT, -EACCES...), -ENOEXEC when
 * the file is no ELF core file (ET_CORE) or has no PT_LOAD segment.
 * kcore_close() after a success.
 */
int kcore_open(struct kcore *kc, const char *path);
void kcore_close(struct kcore *kc);

/*
 * kcore_find - the segment whose file bytes hold @addr, or NULL (the
 * address is not mapped, or only by the part of a segment past p_filesz).
 */
const struct kcore_seg *kcore_find(const struct kcore *kc, u64 addr);

/*
 * kcore_offset - the file offset of @addr and how many bytes from there
 * belong to the same segment (*@avail). Returns 0 or -ERANGE (not mapped).
 */
int kcore_offset(const struct kcore *kc, u64 addr, u64 *off, u64 *avail);

/*
 * kcore_read - copy the @len bytes at kernel address @addr into @buf.
 * Returns 0, -ERANGE when part of the range is not in one segment's file
 * bytes, or -EIO on a short read.
 */
int kcore_read(const struct kcore *kc, u64 addr, void *buf, size_t len);

/* kcore_check - true when @path opens as a kcore file (kcore_open() succeeds) */
bool kcore_check(const char *path);

/*
 * kcore_copy - what record --kcore keeps: copy the kallsyms file @kallsyms
 * and the modules file @modules byte for byte into @dir (created, mode
 * 0700) as "kallsyms" and "modules", and write @dir/kcore: an ELF core
 * file with one PT_LOAD per part of @kcore's segments that holds kernel
 * text (_stext to _etext of the kallsyms) or module code (the span of
 * the modules file's load addresses), page-rounded. A missing @modules
 * (a kernel without modules) gives an empty copy. Returns 0, or -errno
 * (-ENOEXEC: @kcore is no kcore, or the kallsyms names no _stext/_etext;
 * -ERANGE: no segment holds the kernel text). Creates nothing but @dir's files.
 */
int kcore_copy(const char *kcore, const char *kallsyms, const char *modules, const char *dir);

#endif
