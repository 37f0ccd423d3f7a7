/* SPDX-License-Identifier: MIT */
/* A cached copy of a debug file with its compressed sections stored inflated. */
#include "symbol/debug-inflate.h"

#include "lib/strbuf.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <unistd.h>

/* $XDG_CACHE_HOME/sonde/inflated, else ~/.cache/sonde/inflated, made on demand */
static int cache_dir(struct strbuf *out)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");

	if (xdg && *xdg)
		strbuf_addstr(out, xdg);
	else if (home && *home)
		strbuf_addf(out, "%s/.cache", home);
	else
		return -ENOENT;
	mkdir(out->buf, 0700);
	strbuf_addstr(out, "/sonde");
	mkdir(out->buf, 0700);
	strbuf_addstr(out, "/inflated");
	if (mkdir(out->buf, 0700) && errno != EEXIST)
		return -errno;
	return 0;
}

static bool has_compressed(Elf *elf)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_COMPRESSED))
			return true;
	return false;
}

static int copy_fd(int from, int to, off_t size)
{
	off_t pos = 0;

	while (pos < size) {
		ssize_t n = sendfile(to, from, &pos, (size_t)(size - pos));

		if (n <= 0)
			return n < 0 ? -errno : -EIO;
	}
	return 0;
}

/* write @tmp: a copy of @src_fd with every compressed section inflated */
static int make_inflated(int src_fd, off_t size, const char *tmp)
{
	int fd = open(tmp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	Elf *elf = NULL;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	int err;

	if (fd < 0)
		return -errno;
	err = copy_fd(src_fd, fd, size);
	if (!err && !(elf = elf_begin(fd, ELF_C_RDWR, NULL)))
		err = -EINVAL;
	while (!err && (scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_COMPRESSED) &&
		    elf_compress(scn, 0, 0) < 0)
			err = -EINVAL;
	if (!err && elf_update(elf, ELF_C_WRITE) < 0)
		err = -EIO;
	if (elf)
		elf_end(elf);
	close(fd);
	return err;
}

int debug_inflated_open(const char *path)
{
	struct strbuf dir = STRBUF_INIT, dst = STRBUF_INIT, tmp = STRBUF_INIT;
	struct stat st;
	Elf *elf;
	int src, fd = -ENOENT, err;

	if (stat(path, &st) || cache_dir(&dir))
		goto out;
	/* the key: the file's identity and version */
	strbuf_addf(&dst, "%s/%llx-%llx-%llx-%llx.debug", dir.buf, (unsigned long long)st.st_dev,
		    (unsigned long long)st.st_ino, (unsigned long long)st.st_size,
		    (unsigned long long)st.st_mtim.tv_sec * 1000000000ull +
			    (unsigned long long)st.st_mtim.tv_nsec);
	fd = open(dst.buf, O_RDONLY | O_CLOEXEC);
	if (fd >= 0)
		goto out;
	fd = -ENOENT;
	src = open(path, O_RDONLY | O_CLOEXEC);
	if (src < 0)
		goto out;
	elf_version(EV_CURRENT);
	elf = elf_begin(src, ELF_C_READ_MMAP, NULL);
	if (elf && elf_kind(elf) == ELF_K_ELF && has_compressed(elf)) {
		/* another process may build the same copy: rename makes it whole */
		strbuf_addf(&tmp, "%s.%d.tmp", dst.buf, (int)getpid());
		err = make_inflated(src, st.st_size, tmp.buf);
		if (!err && !rename(tmp.buf, dst.buf))
			fd = open(dst.buf, O_RDONLY | O_CLOEXEC);
		else
			unlink(tmp.buf);
	}
	if (elf)
		elf_end(elf);
	close(src);
out:
	strbuf_release(&dir);
	strbuf_release(&dst);
	strbuf_release(&tmp);
	return fd < 0 ? -ENOENT : fd;
}
