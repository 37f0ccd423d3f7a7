/* SPDX-License-Identifier: MIT */
/*
 * Per-DSO symbol loading: pick the file that matches the recorded build-id
 * (the binary on disk, a container's copy, the build-id cache), take its
 * symbols from the best table (its .symtab, a debug file, .dynsym plus
 * MiniDebugInfo), and translate sample addresses into symbol addresses.
 */
#define PR_PREFIX "symsrc"
#include "symbol/symtab.h"

#include "lib/debug.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "symbol/demangle.h"
#include "symbol/elf.h"
#include "symbol/kallsyms.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct symbol_opts default_opts;

struct symsrc *symsrc_new(struct strpool *pool)
{
	struct symsrc *ss = xzalloc(sizeof(*ss));

	symtab_init(&ss->symtab, pool);
	return ss;
}

void symsrc_free(struct symsrc *ss)
{
	if (!ss)
		return;
	symtab_release(&ss->symtab);
	free(ss->segs);
	free(ss->path);
	free(ss->symbol_path);
	free(ss->kcore_path);
	free(ss);
}

static bool same_build_id(const u8 *a, size_t alen, const u8 *b, size_t blen)
{
	size_t n = alen < blen ? alen : blen;

	/* perf pads short build-ids with zeroes to 20 bytes: compare the common part */
	if (!n)
		return true;
	return !memcmp(a, b, n);
}

/* /proc/PID/root when PID lives in another mount namespace (a container) */
static bool pid_root(int pid, char *root, size_t size)
{
	char a[64], b[64], p[64];
	ssize_t la, lb;

	if (pid <= 0)
		return false;
	snprintf(p, sizeof(p), "/proc/%d/ns/mnt", pid);
	la = readlink(p, a, sizeof(a) - 1);
	lb = readlink("/proc/self/ns/mnt", b, sizeof(b) - 1);
	if (la <= 0 || lb <= 0)
		return false;
	a[la] = b[lb] = 0;
	if (!strcmp(a, b))
		return false;
	snprintf(root, size, "/proc/%d/root", pid);
	return true;
}

/* the innermost pid namespace's pid of @pid (NSpid in /proc/PID/status), or @pid */
static int ns_pid(int pid)
{
	char path[64], line[256];
	int ret = pid;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	f = fopen(path, "re");
	if (!f)
		return pid;
	while (fgets(line, sizeof(line), f)) {
		char *last;

		if (strncmp(line, "NSpid:", 6))
			continue;
		line[strcspn(line, "\n")] = 0;
		last = strrchr(line, '\t');
		if (!last)
			last = strrchr(line, ' ');
		if (last && atoi(last + 1) > 0)
			ret = atoi(last + 1);
		break;
	}
	fclose(f);
	return ret;
}

static void take_info(struct symsrc *ss, struct elf_syms_info *info)
{
	free(ss->segs);
	ss->segs = info->segs;
	ss->nr_segs = info->nr_segs;
	info->segs = NULL;
	ss->e_type = info->e_type;
	memcpy(ss->build_id, info->build_id, sizeof(ss->build_id));
	ss->build_id_size = info->build_id_size;
}

static int load_vdso(struct symsrc *ss, const struct symsrc_args *args,
		     const struct symbol_opts *opts)
{
	struct elf_syms_info info;
	void *image = NULL;
	size_t len = 0;
	int n;

	/* perf 6.1 with --symfs (even "/") leaves vdso frames unresolved */
	if (opts && opts->symfs && *opts->symfs)
		return -ENOENT;
	if (args->build_id_size && symbol_opts_use_cache(opts)) {
		struct strbuf p = STRBUF_INIT;
		char *dir = buildid_dir(opts);

		if (!buildid_cache_find(&p, dir, args->build_id, args->build_id_size, false)) {
			n = elf_load_symbols(&ss->symtab, p.buf, opts, &info);
			if (n >= 0) {
				take_info(ss, &info);
				ss->kind = SYMSRC_VDSO;
				ss->path = strbuf_detach(&p, NULL);
				ss->symbol_path = xstrdup(ss->path);
				free(dir);
				return 0;
			}
		}
		strbuf_release(&p);
		free(dir);
	}
	/* the recording kernel is usually the running one: use our own vdso */
	n = vdso_read_self(&image, &len);
	if (n)
		return n;
	{
		u8 bid[BUILD_ID_SIZE];
		int bl = buildid_read_mem(image, len, bid, sizeof(bid));

		if (args->build_id_size && bl > 0 &&
		    !same_build_id(bid, bl, args->build_id, args->build_id_size)) {
			free(image);
			return -ESTALE;
		}
	}
	n = elf_load_symbols_mem(&ss->symtab, image, len, opts, &info);
	free(image);
	if (n < 0)
		return n;
	take_info(ss, &info);
	ss->kind = SYMSRC_VDSO;
	ss->path = xstrdup("[vdso]");
	ss->symbol_path = xstrdup("[vdso]");
	return 0;
}

static int load_perf_map(struct symsrc *ss, const char *name, const struct symsrc_args *args)
{
	char root[64];
	int n;

	n = perf_map_load(&ss->symtab, name);
	if (n == -ENOENT && pid_root(args->pid, root, sizeof(root))) {
		/* in a container the JIT writes /tmp/perf-<its own pid>.map in its /tmp */
		char *p = xasprintf("%s/tmp/perf-%d.map", root, ns_pid(args->pid));

		n = perf_map_load(&ss->symtab, p);
		free(p);
		if (n == -ENOENT) {
			p = xasprintf("%s%s", root, name);
			n = perf_map_load(&ss->symtab, p);
			free(p);
		}
	}
	if (n < 0)
		return n;
	ss->kind = SYMSRC_PERF_MAP;
	ss->path = xstrdup(name);
	ss->symbol_path = xstrdup(name);
	return 0;
}

/* the runtime binary: a container's copy, the symfs copy, the path, the cache */
static int find_runtime(struct strbuf *out, const char *name, const struct symsrc_args *args,
			const struct symbol_opts *opts, char *root, size_t root_size)
{
	u8 bid[BUILD_ID_SIZE];
	bool have_file = false, mismatch = false;
	int bl;

	root[0] = 0;
	if (pid_root(args->pid, root, root_size)) {
		strbuf_addf(out, "%s%s", root, name);
		if (!access(out->buf, R_OK))
			have_file = true;
		else
			root[0] = 0;
	}
	if (!have_file && opts->symfs && *opts->symfs) {
		strbuf_reset(out);
		strbuf_addf(out, "%s%s", opts->symfs, name);
		if (!access(out->buf, R_OK)) {
			have_file = true;
			snprintf(root, root_size, "%s", opts->symfs);
		}
	}
	/* with --symfs, perf looks only there (no fallback to the host's file) */
	if (!have_file && !(opts->symfs && *opts->symfs)) {
		strbuf_reset(out);
		strbuf_addstr(out, name);
		have_file = !access(out->buf, R_OK);
	}
	if (have_file && args->build_id_size) {
		bl = buildid_read_path(out->buf, bid, sizeof(bid));
		if (bl > 0 && !same_build_id(bid, bl, args->build_id, args->build_id_size)) {
			pr_debug("%s: build-id differs from the recorded one\n", out->buf);
			have_file = false;
			mismatch = true;
		}
	}
	if (have_file)
		return 0;
	/* the file changed or is gone: perf's cache keeps the recorded copy */
	if (args->build_id_size && symbol_opts_use_cache(opts)) {
		char *dir = buildid_dir(opts);
		int err;

		strbuf_reset(out);
		err = buildid_cache_find(out, dir, args->build_id, args->build_id_size, false);
		free(dir);
		if (!err) {
			root[0] = 0;
			return 0;
		}
	}
	strbuf_reset(out);
	strbuf_addstr(out, name);
	return mismatch ? -ESTALE : -ENOENT;
}

static int load_path(struct symsrc *ss, const char *name, const struct symsrc_args *args,
		     const struct symbol_opts *opts)
{
	struct strbuf rt = STRBUF_INIT, dbg = STRBUF_INIT;
	struct elf_syms_info info, dinfo;
	char root[PATH_MAX];
	int err, n;
	const u8 *bid;
	size_t bid_len;

	err = find_runtime(&rt, name, args, opts, root, sizeof(root));
	if (err)
		goto out;
	err = elf_read_info(rt.buf, &info);
	if (err)
		goto out;
	take_info(ss, &info);
	ss->path = xstrdup(rt.buf);
	ss->kind = SYMSRC_ELF;
	bid = ss->build_id_size ? ss->build_id : args->build_id;
	bid_len = ss->build_id_size ? ss->build_id_size : args->build_id_size;

	n = elf_load_symbols(&ss->symtab, rt.buf, opts, &info);
	free(info.segs);
	if (n < 0) {
		err = n;
		goto out;
	}
	ss->has_symtab = info.has_symtab;
	if (!info.has_symtab &&
	    !debugfile_find(&dbg, name, root[0] ? root : NULL, bid, bid_len, opts)) {
		/* the debug file's tables replace .dynsym; the PLT stays the binary's */
		struct symtab full;

		symtab_init(&full, ss->symtab.pool);
		n = elf_load_symbols(&full, dbg.buf, opts, &dinfo);
		free(dinfo.segs);
		if (n > 0 && dinfo.has_symtab) {
			symtab_release(&ss->symtab);
			ss->symtab = full;
			elf_load_plt(&ss->symtab, rt.buf, opts);
			ss->symbol_path = strbuf_detach(&dbg, NULL);
			ss->has_symtab = true;
		} else {
			symtab_release(&full);
		}
	}
	if (!ss->symbol_path)
		ss->symbol_path = xstrdup(rt.buf);
	err = 0;
out:
	strbuf_release(&rt);
	strbuf_release(&dbg);
	return err;
}

int symsrc_load(struct symsrc *ss, const char *name, const struct symsrc_args *args)
{
	static const struct symsrc_args no_args;
	const struct symbol_opts *opts;
	int err;

	if (ss->is_loaded)
		return ss->status;
	ss->is_loaded = true;
	if (!args)
		args = &no_args;
	opts = args->opts ? args->opts : &default_opts;
	ss->symtab.allow_aliases = opts->allow_aliases;

	if (args->is_kernel || dso_name_is_kernel(name)) {
		const char *mod = NULL;
		char buf[256];

		if (strcmp(name, "[kernel.kallsyms]") && !strstarts(name, "[guest.kernel")) {
			size_t l = strlen(name);

			snprintf(buf, sizeof(buf), "%.*s", (int)(l > 2 ? l - 2 : 0), name + 1);
			mod = buf;
		}
		ss->is_loaded = false;
		err = mod ? symsrc_load_kallsyms(ss, mod, args) : symsrc_load_kernel(ss, args);
		ss->is_loaded = true;
		ss->status = err;
		return err;
	}
	if (!strcmp(name, "[vdso]"))
		err = load_vdso(ss, args, opts);
	else if (dso_name_is_perf_map(name, NULL))
		err = load_perf_map(ss, name, args);
	else if (name[0] != '/' || dso_name_is_special(name))
		err = -ENOENT;
	else
		err = load_path(ss, name, args, opts);
	symtab_finish(&ss->symtab, false);
	if (err == -ESTALE && args->build_id_size) {
		size_t n = MIN(args->build_id_size, (size_t)BUILD_ID_SIZE);

		memcpy(ss->build_id, args->build_id, n);
		ss->build_id_size = n;
	}
	if (err) {
		symtab_release(&ss->symtab);
		symtab_finish(&ss->symtab, false);
	}
	ss->status = err;
	pr_debug("%s: %zu symbols from %s (%d)\n", name, ss->symtab.nr_syms,
		 ss->symbol_path ? ss->symbol_path : "-", err);
	return err;
}

int symsrc_load_kallsyms(struct symsrc *ss, const char *module, const struct symsrc_args *args)
{
	static const struct symsrc_args no_args;
	const struct symbol_opts *opts;
	struct kallsyms ks;
	const char *path;
	char *cached = NULL;
	int err;

	if (ss->is_loaded)
		return ss->status;
	if (!args)
		args = &no_args;
	opts = args->opts ? args->opts : &default_opts;
	path = opts->kallsyms;
	/* another machine's root: not this host's kernel symbols */
	if (!path && symbol_opts_foreign_root(opts)) {
		ss->is_loaded = true;
		ss->status = -ENOENT;
		symtab_finish(&ss->symtab, true);
		return -ENOENT;
	}
	if (!path && args->build_id_size && (!module || !*module)) {
		u8 bid[BUILD_ID_SIZE];
		int bl = buildid_read_kernel(bid, sizeof(bid));

		if (bl > 0 && !same_build_id(bid, bl, args->build_id, args->build_id_size)) {
			/* another kernel recorded this: use the cache's kallsyms copy */
			struct strbuf p = STRBUF_INIT;
			char *dir = buildid_dir(opts);

			if (!opts->no_buildid_cache &&
			    !buildid_cache_find(&p, dir, args->build_id, args->build_id_size, false))
				cached = strbuf_detach(&p, NULL);
			strbuf_release(&p);
			free(dir);
			if (!cached) {
				ss->is_loaded = true;
				ss->status = -ESTALE;
				symtab_finish(&ss->symtab, true);
				return -ESTALE;
			}
			path = cached;
		}
	}
	err = kallsyms_load(&ks, path, ss->symtab.pool);
	ss->is_loaded = true;
	ss->kind = SYMSRC_KALLSYMS;
	ss->path = xstrdup(path ? path : "/proc/kallsyms");
	ss->symbol_path = xstrdup(ss->path);
	free(cached);
	if (err && err != -EPERM) {
		kallsyms_release(&ks);
		ss->status = err;
		symtab_finish(&ss->symtab, true);
		return err;
	}
	symtab_release(&ss->symtab);
	if (module && *module) {
		struct kmodule *m = kallsyms_find_module(&ks, module);

		if (m) {
			ss->symtab = m->symtab;
			symtab_init(&m->symtab, ss->symtab.pool);
		} else {
			symtab_init(&ss->symtab, ks.kernel.pool);
			symtab_finish(&ss->symtab, true);
			if (!err)
				err = -ENOENT;
		}
	} else {
		ss->symtab = ks.kernel;
		symtab_init(&ks.kernel, ss->symtab.pool);
	}
	if (opts->demangle_kernel && !opts->no_demangle) {
		/* --demangle-kernel: for kernels with C++ or Rust symbols */
		size_t i;

		for (i = 0; i < ss->symtab.nr_syms; i++) {
			struct symbol *sym = &ss->symtab.syms[i];
			char *d;

			if (!demangle_is_mangled(sym->name))
				continue;
			d = demangle(sym->name, opts->demangle_params ? DEMANGLE_PARAMS : 0);
			if (d)
				sym->name = strpool_intern(ss->symtab.pool, d);
			free(d);
		}
	}
	if (err == -EPERM) {
		/* names without addresses are useless: keep nothing */
		symtab_release(&ss->symtab);
		symtab_finish(&ss->symtab, true);
	}
	kallsyms_release(&ks);
	ss->status = err;
	return err;
}

int symsrc_take_kallsyms(struct symsrc *ss, struct kallsyms *ks, const char *module)
{
	struct symtab *from = NULL;

	if (module && *module) {
		struct kmodule *m = kallsyms_find_module(ks, module);

		if (m)
			from = &m->symtab;
	} else {
		from = &ks->kernel;
	}
	symtab_release(&ss->symtab);
	ss->is_loaded = true;
	ss->kind = SYMSRC_KALLSYMS;
	if (!from) {
		symtab_finish(&ss->symtab, true);
		ss->status = -ENOENT;
		return -ENOENT;
	}
	ss->symtab = *from;
	symtab_init(from, ss->symtab.pool);
	symtab_finish(from, true);
	ss->status = 0;
	return 0;
}

u64 symsrc_map_ip(const struct symsrc *ss, u64 map_start, u64 map_pgoff, u64 ip)
{
	u64 off = ip - map_start + map_pgoff, vaddr;

	if (ss->kernel_image)
		return ip;
	switch (ss->kind) {
	case SYMSRC_KALLSYMS:
	case SYMSRC_PERF_MAP:
		return ip;
	case SYMSRC_ELF:
	case SYMSRC_VDSO:
		if (elf_offset_to_vaddr(ss->segs, ss->nr_segs, off, &vaddr))
			return vaddr;
		return off;
	default:
		return off;
	}
}

u64 symsrc_unmap_ip(const struct symsrc *ss, u64 map_start, u64 map_pgoff, u64 addr)
{
	u64 off;

	if (ss->kernel_image)
		return addr;
	switch (ss->kind) {
	case SYMSRC_KALLSYMS:
	case SYMSRC_PERF_MAP:
		return addr;
	case SYMSRC_ELF:
	case SYMSRC_VDSO:
		if (elf_vaddr_to_offset(ss->segs, ss->nr_segs, addr, &off))
			return off - map_pgoff + map_start;
		/* fall through */
	default:
		return addr - map_pgoff + map_start;
	}
}

const struct symbol *symsrc_find(const struct symsrc *ss, u64 addr)
{
	return symtab_find(&ss->symtab, addr);
}

const char *symsrc_strerror(const struct symsrc *ss, const char *name, char *buf, size_t size)
{
	switch (ss->status) {
	case 0:
		snprintf(buf, size, "%s: ok", name);
		break;
	case -ESTALE: {
		char hex[2 * BUILD_ID_SIZE + 1];

		buildid_to_hex(ss->build_id, ss->build_id_size, hex);
		snprintf(buf, size, "%s with build id %s not found, continuing without symbols",
			 name, hex);
		break;
	}
	case -ENOENT:
		snprintf(buf, size, "%s was not found, continuing without symbols", name);
		break;
	case -EPERM:
		snprintf(buf, size,
			 "kernel addresses are hidden (/proc/sys/kernel/kptr_restrict): "
			 "kernel symbols unavailable");
		break;
	case -ENOTSUP:
		snprintf(buf, size, "%s is not an ELF file we can read", name);
		break;
	default:
		snprintf(buf, size, "%s: %s", name, strerror(-ss->status));
	}
	return buf;
}
