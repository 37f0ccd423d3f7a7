/* SPDX-License-Identifier: MIT */
/*
 * Finding separate debug files: the build-id cache (~/.debug),
 * /usr/lib/debug (by build-id and by path), .gnu_debuglink, debuginfod.
 */
#define PR_PREFIX "debugfile"
#include "symbol/elf.h"

#include "lib/debug.h"
#include "lib/util.h"
#include "lib/xalloc.h"

#include <elfutils/debuginfod.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

char *buildid_dir(const struct symbol_opts *opts)
{
	const char *env, *home;

	if (opts && opts->buildid_dir && *opts->buildid_dir)
		return xstrdup(opts->buildid_dir);
	env = getenv("PERF_BUILDID_DIR");
	if (env && *env)
		return xstrdup(env);
	home = getenv("HOME");
	return xasprintf("%s/.debug", home && *home ? home : "");
}

int buildid_cache_link(struct strbuf *out, const char *dir, const u8 *bid, size_t len)
{
	char hex[2 * BUILD_ID_SIZE + 1];

	if (!len || len > BUILD_ID_SIZE)
		return -EINVAL;
	buildid_to_hex(bid, len, hex);
	strbuf_addf(out, "%s/.build-id/%.2s/%s", dir, hex, hex + 2);
	return 0;
}

int buildid_cache_find(struct strbuf *out, const char *dir, const u8 *bid, size_t len,
		       bool want_debug)
{
	static const char *const bodies[] = { "elf", "kallsyms", "vdso" };
	struct strbuf link = STRBUF_INIT, f = STRBUF_INIT;
	char *real = NULL;
	struct stat st;
	size_t i;
	int ret = -ENOENT;

	if (buildid_cache_link(&link, dir, bid, len))
		goto out;
	real = realpath(link.buf, NULL);
	if (!real || stat(real, &st))
		goto out;
	/*
	 * perf 6.1: the link names the directory <dir>/<path>/<hex>, which
	 * holds "elf" (or "kallsyms", "vdso") and maybe "debug"; older perfs
	 * linked to the "elf" file itself.
	 */
	if (!S_ISDIR(st.st_mode)) {
		char *slash = strrchr(real, '/');

		if (slash)
			*slash = 0;
		else
			goto out;
		if (!want_debug) {
			*slash = '/';
			strbuf_addstr(out, real);
			ret = 0;
			goto out;
		}
	}
	for (i = 0; i < (want_debug ? 1 : ARRAY_SIZE(bodies)); i++) {
		strbuf_reset(&f);
		strbuf_addf(&f, "%s/%s", real, want_debug ? "debug" : bodies[i]);
		if (!access(f.buf, R_OK)) {
			strbuf_addstr(out, f.buf);
			ret = 0;
			break;
		}
	}
out:
	free(real);
	strbuf_release(&f);
	strbuf_release(&link);
	return ret;
}

static bool candidate_ok(const char *cand, const u8 *bid, size_t bid_len);

/* mkdir -p; 0 or -errno */
static int mkdir_p(const char *path)
{
	char *p = xstrdup(path), *q;
	int ret = 0;

	for (q = p + 1; ; q++) {
		if (*q == '/' || !*q) {
			char c = *q;

			*q = 0;
			if (mkdir(p, 0755) && errno != EEXIST) {
				ret = -errno;
				break;
			}
			*q = c;
			if (!c)
				break;
		}
	}
	free(p);
	return ret;
}

static int copy_file(const char *from, const char *to, mode_t mode)
{
	char buf[65536];
	int in, out, ret = 0;
	ssize_t n;

	if (!link(from, to) || errno == EEXIST)
		return 0;
	in = open(from, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -errno;
	out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
	if (out < 0) {
		ret = errno == EEXIST ? 0 : -errno;
		close(in);
		return ret;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0) {
		if (write_full(out, buf, (size_t)n)) {
			ret = -EIO;
			break;
		}
	}
	if (n < 0)
		ret = -errno;
	close(in);
	if (close(out) && !ret)
		ret = -errno;
	if (ret)
		unlink(to);
	return ret;
}

int buildid_cache_add(const char *dir, const char *name, const char *src, const u8 *bid,
		      size_t len)
{
	char hex[2 * BUILD_ID_SIZE + 1];
	struct strbuf d = STRBUF_INIT, f = STRBUF_INIT, l = STRBUF_INIT, t = STRBUF_INIT;
	const char *body = "elf", *rel = name;
	struct stat st;
	int ret, fd;

	if (!len || len > BUILD_ID_SIZE || !*name)
		return -EINVAL;
	if (!strcmp(name, "[kernel.kallsyms]"))
		body = "kallsyms";
	else if (!strcmp(name, "[vdso]"))
		body = "vdso";
	while (*rel == '/')
		rel++;
	buildid_to_hex(bid, len, hex);
	strbuf_addf(&d, "%s/%s/%s", dir, rel, hex);
	ret = mkdir_p(d.buf);
	if (ret)
		goto out;
	strbuf_addf(&f, "%s/%s", d.buf, body);
	ret = copy_file(src ? src : name, f.buf, 0755);
	if (ret)
		goto out;
	strbuf_reset(&f);
	strbuf_addf(&f, "%s/probes", d.buf);
	fd = open(f.buf, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd >= 0)
		close(fd);
	/* a stripped binary's distribution debug file goes along, as perf does */
	if (strcmp(body, "elf") == 0) {
		strbuf_reset(&t);
		strbuf_addf(&t, "/usr/lib/debug/.build-id/%.2s/%s.debug", hex, hex + 2);
		if (!stat(t.buf, &st) && candidate_ok(t.buf, bid, len)) {
			strbuf_reset(&f);
			strbuf_addf(&f, "%s/debug", d.buf);
			copy_file(t.buf, f.buf, 0644);
		}
	}
	strbuf_addf(&l, "%s/.build-id/%.2s", dir, hex);
	ret = mkdir_p(l.buf);
	if (ret)
		goto out;
	strbuf_addf(&l, "/%s", hex + 2);
	strbuf_reset(&t);
	strbuf_addf(&t, "../../%s/%s", rel, hex);
	if (symlink(t.buf, l.buf) && errno != EEXIST)
		ret = -errno;
out:
	strbuf_release(&d);
	strbuf_release(&f);
	strbuf_release(&l);
	strbuf_release(&t);
	return ret;
}

/* the standard CRC-32 (reflected 0xedb88320), as .gnu_debuglink stores it */
u32 gnu_debuglink_crc32(u32 crc, const void *buf, size_t len)
{
	static u32 table[256];
	static bool ready;
	const u8 *p = buf;
	size_t i;

	if (!ready) {
		for (i = 0; i < 256; i++) {
			u32 c = (u32)i;
			int k;

			for (k = 0; k < 8; k++)
				c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
			table[i] = c;
		}
		ready = true;
	}
	crc = ~crc;
	for (i = 0; i < len; i++)
		crc = table[(crc ^ p[i]) & 0xff] ^ (crc >> 8);
	return ~crc;
}

static int file_crc32(const char *path, u32 *crc)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	void *m;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return -EINVAL;
	}
	if (!st.st_size) {
		*crc = 0;
		close(fd);
		return 0;
	}
	m = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return -errno;
	*crc = gnu_debuglink_crc32(0, m, st.st_size);
	munmap(m, st.st_size);
	return 0;
}

/* .gnu_debuglink: a file name, NUL, padding to 4, then the CRC-32 of the debug file */
static int read_debuglink(const char *path, char *name, size_t size, u32 *crc)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret = -ENOENT;
	Elf *elf;
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (fd < 0)
		return -errno;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_getshdrstrndx(elf, &shstrndx))
		goto out;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *n;
		Elf_Data *d;
		size_t l;

		if (!gelf_getshdr(scn, &sh))
			continue;
		n = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!n || strcmp(n, ".gnu_debuglink"))
			continue;
		d = elf_getdata(scn, NULL);
		if (!d || d->d_size < 8)
			break;
		l = strnlen(d->d_buf, d->d_size);
		if (!l || l >= size || PERF_ALIGN(l + 1, 4) + 4 > d->d_size)
			break;
		memcpy(name, d->d_buf, l + 1);
		memcpy(crc, (char *)d->d_buf + PERF_ALIGN(l + 1, 4), 4);
		ret = 0;
		break;
	}
out:
	if (elf)
		elf_end(elf);
	close(fd);
	return ret;
}

/* @cand is usable: readable ELF, and its build-id (when both are known) matches */
static bool candidate_ok(const char *cand, const u8 *bid, size_t bid_len)
{
	u8 got[BUILD_ID_SIZE];
	int n;

	if (access(cand, R_OK))
		return false;
	n = buildid_read_path(cand, got, sizeof(got));
	if (n == -ENOTSUP || n == -ENOENT)
		return false;
	if (bid && bid_len && n > 0 && ((size_t)n != bid_len || memcmp(got, bid, n))) {
		pr_debug("%s: build-id differs, ignored\n", cand);
		return false;
	}
	return true;
}

/* path_has_symtab - @path is an ELF file with a .symtab section */
static bool path_has_symtab(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	bool found = false;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	Elf *elf;

	if (fd < 0)
		return false;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	while (elf && !found && (scn = elf_nextscn(elf, scn)))
		found = gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB;
	if (elf)
		elf_end(elf);
	close(fd);
	return found;
}

static bool try_path(struct strbuf *out, const struct strbuf *cand, const u8 *bid, size_t bid_len)
{
	if (!candidate_ok(cand->buf, bid, bid_len))
		return false;
	strbuf_addstr(out, cand->buf);
	return true;
}

int debugfile_find(struct strbuf *out, const char *path, const char *root, const u8 *bid,
		   size_t bid_len, const struct symbol_opts *opts)
{
	struct strbuf c = STRBUF_INIT;
	char hex[2 * BUILD_ID_SIZE + 1];
	char link[PATH_MAX];
	const char *r = root ? root : "";
	const char *slash = strrchr(path, '/');
	size_t dirlen = slash ? (size_t)(slash - path) : 0;
	u32 want_crc = 0;
	int ret = 0;

	if (bid && bid_len) {
		buildid_to_hex(bid, bid_len, hex);
		if (symbol_opts_use_cache(opts)) {
			char *dir = buildid_dir(opts);
			int err = buildid_cache_find(&c, dir, bid, bid_len, true);

			if (!err && try_path(out, &c, bid, bid_len)) {
				free(dir);
				goto out;
			}
			/*
			 * The cached copy of the binary itself: perf takes its
			 * .symtab when the file on disk was stripped since.
			 */
			strbuf_reset(&c);
			err = buildid_cache_find(&c, dir, bid, bid_len, false);
			free(dir);
			if (!err && path_has_symtab(c.buf) && try_path(out, &c, bid, bid_len))
				goto out;
		}
		strbuf_reset(&c);
		strbuf_addf(&c, "%s/usr/lib/debug/.build-id/%.2s/%s.debug", r, hex, hex + 2);
		if (try_path(out, &c, bid, bid_len))
			goto out;
	}
	/* .gnu_debuglink, looked up the way gdb does: beside, .debug/, /usr/lib/debug/<dir> */
	strbuf_reset(&c);
	strbuf_addf(&c, "%s%s", r, path);
	if (!read_debuglink(c.buf, link, sizeof(link), &want_crc)) {
		static const char *const fmts[] = { "%s%.*s/%s", "%s%.*s/.debug/%s",
						    "%s/usr/lib/debug%.*s/%s" };
		size_t i;

		for (i = 0; i < ARRAY_SIZE(fmts); i++) {
			u32 crc = 0;

			strbuf_reset(&c);
			strbuf_addf(&c, fmts[i], r, (int)dirlen, path, link);
			if (!strcmp(c.buf + strlen(r), path))
				continue; /* the binary names itself */
			if (file_crc32(c.buf, &crc) || crc != want_crc)
				continue;
			if (try_path(out, &c, bid, bid_len))
				goto out;
		}
	}
	strbuf_reset(&c);
	strbuf_addf(&c, "%s/usr/lib/debug%s.debug", r, path);
	if (try_path(out, &c, bid, bid_len))
		goto out;
	strbuf_reset(&c);
	strbuf_addf(&c, "%s/usr/lib/debug%s", r, path);
	if (try_path(out, &c, bid, bid_len))
		goto out;
	if (bid && bid_len && (!opts || !opts->no_debuginfod)) {
		strbuf_reset(&c);
		if (!debuginfod_find(&c, bid, bid_len, false) && try_path(out, &c, bid, bid_len))
			goto out;
	}
	ret = -ENOENT;
out:
	strbuf_release(&c);
	return ret;
}

int debuginfod_find(struct strbuf *out, const u8 *bid, size_t len, bool executable)
{
	const char *urls = getenv("DEBUGINFOD_URLS");
	debuginfod_client *client;
	char *path = NULL;
	int fd;

	if (!urls || !*urls)
		return -ENOSYS;
	client = debuginfod_begin();
	if (!client)
		return -ENOMEM;
	if (executable)
		fd = debuginfod_find_executable(client, bid, (int)len, &path);
	else
		fd = debuginfod_find_debuginfo(client, bid, (int)len, &path);
	debuginfod_end(client);
	if (fd < 0) {
		free(path);
		return fd;
	}
	close(fd);
	strbuf_addstr(out, path);
	free(path);
	return 0;
}
