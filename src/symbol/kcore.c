/* SPDX-License-Identifier: MIT */
/* Kernel code from a kcore file: its PT_LOAD segments through libelf, bytes by kernel address. */
#include "symbol/kcore.h"

#include "lib/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int kcore_open(struct kcore *kc, const char *path)
{
	GElf_Ehdr eh;
	size_t nr_ph = 0;
	Elf *elf;
	int ret = 0;

	memset(kc, 0, sizeof(*kc));
	kc->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (kc->fd < 0)
		return -errno;
	elf_version(EV_CURRENT);
	/* read, never mapped: /proc/kcore's size is the whole address space */
	elf = elf_begin(kc->fd, ELF_C_READ, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh) ||
	    eh.e_type != ET_CORE || elf_getphdrnum(elf, &nr_ph)) {
		ret = -ENOEXEC;
		goto out;
	}
	for (size_t i = 0; i < nr_ph; i++) {
		GElf_Phdr ph;
		struct kcore_seg *s;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		kc->segs = xrealloc(kc->segs, (kc->nr_segs + 1) * sizeof(*kc->segs));
		s = &kc->segs[kc->nr_segs++];
		s->vaddr = ph.p_vaddr;
		s->offset = ph.p_offset;
		s->filesz = ph.p_filesz;
		s->memsz = ph.p_memsz;
		s->exec = ph.p_flags & PF_X;
	}
	if (!kc->nr_segs)
		ret = -ENOEXEC;
out:
	if (elf)
		elf_end(elf);
	if (ret)
		kcore_close(kc);
	return ret;
}

void kcore_close(struct kcore *kc)
{
	if (kc->fd >= 0)
		close(kc->fd);
	free(kc->segs);
	memset(kc, 0, sizeof(*kc));
	kc->fd = -1;
}

const struct kcore_seg *kcore_find(const struct kcore *kc, u64 addr)
{
	for (size_t i = 0; i < kc->nr_segs; i++) {
		const struct kcore_seg *s = &kc->segs[i];

		if (addr >= s->vaddr && addr - s->vaddr < s->filesz)
			return s;
	}
	return NULL;
}

int kcore_offset(const struct kcore *kc, u64 addr, u64 *off, u64 *avail)
{
	const struct kcore_seg *s = kcore_find(kc, addr);

	if (!s)
		return -ERANGE;
	*off = s->offset + (addr - s->vaddr);
	*avail = s->filesz - (addr - s->vaddr);
	return 0;
}

int kcore_read(const struct kcore *kc, u64 addr, void *buf, size_t len)
{
	u64 off, avail;
	ssize_t got;

	if (kcore_offset(kc, addr, &off, &avail) || avail < len)
		return -ERANGE;
	got = pread(kc->fd, buf, len, (off_t)off);
	return got == (ssize_t)len ? 0 : -EIO;
}

bool kcore_check(const char *path)
{
	struct kcore kc;

	if (kcore_open(&kc, path))
		return false;
	kcore_close(&kc);
	return true;
}
