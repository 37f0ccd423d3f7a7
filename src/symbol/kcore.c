/* SPDX-License-Identifier: MIT */
/* Kernel code from a kcore file: its PT_LOAD segments through libelf, bytes by kernel address. */
#include "symbol/kcore.h"

#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "symbol/kallsyms.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

/* a part of the source kcore to keep: kernel addresses [start, end) at source offset @src */
struct kcore_piece {
	u64 start, end, src, dst;
};

#define KCORE_PAGE 4096ULL

/* add the parts of @kc's segments that hold [start, end) to @v (*@nr of them) */
static size_t add_pieces(const struct kcore *kc, u64 start, u64 end, struct kcore_piece **v, size_t *nr)
{
	size_t added = 0;

	for (size_t i = 0; i < kc->nr_segs; i++) {
		const struct kcore_seg *s = &kc->segs[i];
		u64 lo = MAX(start, s->vaddr), hi = MIN(end, s->vaddr + s->filesz);

		if (lo >= hi)
			continue;
		*v = xrealloc(*v, (*nr + 1) * sizeof(**v));
		(*v)[(*nr)++] = (struct kcore_piece){ lo, hi, s->offset + (lo - s->vaddr), 0 };
		added++;
	}
	return added;
}

/* copy @len bytes at @src of @in to @dst of @out; unreadable source bytes become zeroes */
static int copy_range(int in, u64 src, int out, u64 dst, u64 len)
{
	size_t bufsz = 1 << 20;
	char *buf = xmalloc(bufsz);
	int err = 0;

	while (len && !err) {
		size_t n = (size_t)MIN(len, (u64)bufsz);
		ssize_t got = pread(in, buf, n, (off_t)src);

		if (got <= 0) {
			/* a hole the kernel does not back (between modules): keep the layout */
			memset(buf, 0, n);
			got = (ssize_t)n;
		}
		if (pwrite(out, buf, (size_t)got, (off_t)dst) != got)
			err = errno ? -errno : -EIO;
		src += (u64)got;
		dst += (u64)got;
		len -= (u64)got;
	}
	free(buf);
	return err;
}

/* write @dir/@name with the bytes of @sb */
static int write_copy(const char *dir, const char *name, const struct strbuf *sb)
{
	char *path = xasprintf("%s/%s", dir, name);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600), err = 0;

	free(path);
	if (fd < 0)
		return -errno;
	if (write_full(fd, sb->buf, sb->len))
		err = -EIO;
	if (close(fd) && !err)
		err = -errno;
	return err;
}

/* write the ELF core @path: the source's identity, one PT_LOAD per piece; then the bytes */
static int write_kcore(const struct kcore *kc, const char *path, struct kcore_piece *p, size_t nr)
{
	GElf_Ehdr src_eh, eh;
	Elf *in = NULL, *out = NULL;
	u64 off;
	int fd, err = 0;

	in = elf_begin(kc->fd, ELF_C_READ, NULL);
	if (!in || !gelf_getehdr(in, &src_eh)) {
		err = -ENOEXEC;
		goto out;
	}
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		err = -errno;
		goto out;
	}
	out = elf_begin(fd, ELF_C_WRITE, NULL);
	if (!out || !gelf_newehdr(out, gelf_getclass(in)) || !gelf_getehdr(out, &eh)) {
		err = -EIO;
		goto close;
	}
	/* we place the program headers and the segments: libelf writes the headers only */
	elf_flagelf(out, ELF_C_SET, ELF_F_LAYOUT);
	memcpy(eh.e_ident, src_eh.e_ident, EI_NIDENT);
	eh.e_type = ET_CORE;
	eh.e_machine = src_eh.e_machine;
	eh.e_version = EV_CURRENT;
	eh.e_phoff = gelf_fsize(out, ELF_T_EHDR, 1, EV_CURRENT);
	off = eh.e_phoff + gelf_fsize(out, ELF_T_PHDR, nr, EV_CURRENT);
	/* the program headers after the ELF header: updating it would reset e_phnum */
	if (!gelf_update_ehdr(out, &eh) || !gelf_newphdr(out, nr)) {
		err = -EIO;
		goto close;
	}
	for (size_t i = 0; i < nr; i++) {
		GElf_Phdr ph = { 0 };

		off = (off + KCORE_PAGE - 1) & ~(KCORE_PAGE - 1);
		p[i].dst = off;
		ph.p_type = PT_LOAD;
		ph.p_flags = PF_R | PF_X;
		ph.p_offset = off;
		ph.p_vaddr = p[i].start;
		ph.p_filesz = ph.p_memsz = p[i].end - p[i].start;
		ph.p_align = KCORE_PAGE;
		if (!gelf_update_phdr(out, (int)i, &ph)) {
			err = -EIO;
			goto close;
		}
		off += ph.p_filesz;
	}
	if (elf_update(out, ELF_C_WRITE) < 0) {
		err = -EIO;
		goto close;
	}
	for (size_t i = 0; i < nr && !err; i++)
		err = copy_range(kc->fd, p[i].src, fd, p[i].dst, p[i].end - p[i].start);
close:
	if (out)
		elf_end(out);
	if (close(fd) && !err)
		err = -errno;
out:
	if (in)
		elf_end(in);
	return err;
}

int kcore_copy(const char *kcore, const char *kallsyms, const char *modules, const char *dir)
{
	struct strbuf ksb = STRBUF_INIT, msb = STRBUF_INIT;
	struct kcore_piece *pieces = NULL;
	struct strpool pool;
	struct kallsyms ks;
	struct kcore kc;
	size_t nr = 0;
	long n;
	u64 mstart = ~0ULL, mend = 0;
	char *path = NULL;
	int err;

	strpool_init(&pool);
	memset(&ks, 0, sizeof(ks));
	symtab_init(&ks.kernel, &pool);
	n = strbuf_read_file(&ksb, kallsyms, 8 << 20);
	/* a kernel built without modules has no modules file: an empty copy says so */
	if (n >= 0 && (n = strbuf_read_file(&msb, modules, 64 << 10)) == -ENOENT)
		n = 0;
	if (n < 0) {
		err = (int)n;
		goto out;
	}
	symtab_release(&ks.kernel);
	err = kallsyms_parse(&ks, ksb.buf, ksb.len, &pool);
	if (err)
		goto out;
	if (!ks.stext || !ks.etext || ks.etext <= ks.stext) {
		err = -ENOEXEC;
		goto out;
	}
	if (modules_parse(&ks, msb.buf, msb.len, &pool) < 0) {
		err = -EINVAL;
		goto out;
	}
	for (size_t i = 0; i < ks.nr_modules; i++) {
		const struct kmodule *m = &ks.modules[i];

		if (!m->start || !m->size)
			continue;
		mstart = MIN(mstart, m->start);
		mend = MAX(mend, m->start + m->size);
	}
	err = kcore_open(&kc, kcore);
	if (err)
		goto out;
	if (!add_pieces(&kc, ks.stext & ~(KCORE_PAGE - 1), (ks.etext + KCORE_PAGE - 1) & ~(KCORE_PAGE - 1),
			&pieces, &nr)) {
		err = -ERANGE;
		goto close;
	}
	if (mend > mstart)
		add_pieces(&kc, mstart & ~(KCORE_PAGE - 1), (mend + KCORE_PAGE - 1) & ~(KCORE_PAGE - 1),
			   &pieces, &nr);
	if (mkdir(dir, 0700) && errno != EEXIST) {
		err = -errno;
		goto close;
	}
	err = write_copy(dir, "kallsyms", &ksb);
	if (!err)
		err = write_copy(dir, "modules", &msb);
	if (!err) {
		path = xasprintf("%s/kcore", dir);
		err = write_kcore(&kc, path, pieces, nr);
	}
close:
	kcore_close(&kc);
out:
	free(path);
	free(pieces);
	kallsyms_release(&ks);
	strpool_release(&pool);
	strbuf_release(&ksb);
	strbuf_release(&msb);
	return err;
}
