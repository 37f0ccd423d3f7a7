/* SPDX-License-Identifier: MIT */
/* The kernel image's symbols and code: -k, kcore_dir, the vmlinux search path, kallsyms and /proc/kcore. */
#define PR_PREFIX "vmlinux"
#include "symbol/vmlinux.h"

#include "lib/debug.h"
#include "lib/xalloc.h"
#include "symbol/elf.h"
#include "symbol/kcore.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

/* does the file at @path have build-id @bid? (@len 0: nothing to check) */
static bool has_build_id(const char *path, const u8 *bid, size_t len)
{
	u8 got[BUILD_ID_SIZE];
	int n;

	if (!len)
		return true;
	n = buildid_read_path(path, got, sizeof(got));
	/* perf pads short build-ids with zeroes: compare the common part; none is no match */
	return n > 0 && !memcmp(got, bid, MIN((size_t)n, len));
}

int vmlinux_find(struct strbuf *out, const u8 *bid, size_t len, const struct symbol_opts *opts,
		 const char *root)
{
	static const char *const paths[] = {
		"vmlinux",
		"/boot/vmlinux",
		"/boot/vmlinux-%s",
		"/usr/lib/debug/boot/vmlinux-%s",
		"/lib/modules/%s/build/vmlinux",
		"/usr/lib/debug/lib/modules/%s/vmlinux",
		"/usr/lib/debug/boot/vmlinux-%s.debug",
	};
	struct strbuf p = STRBUF_INIT;
	struct utsname u;
	int ret = -ENOENT;

	if (uname(&u))
		snprintf(u.release, sizeof(u.release), "%s", "");
	/* the build-id cache's copy (perf buildid-cache -u vmlinux), named by its link */
	if (len && symbol_opts_use_cache(opts)) {
		char *dir = buildid_dir(opts);

		if (!buildid_cache_link(&p, dir, bid, len)) {
			strbuf_addstr(&p, "/elf");
			if (!access(p.buf, R_OK) && has_build_id(p.buf, bid, len))
				ret = 0;
		}
		free(dir);
	}
	for (size_t i = 0; ret && i < sizeof(paths) / sizeof(paths[0]); i++) {
		strbuf_reset(&p);
		if (root && paths[i][0] == '/')
			strbuf_addstr(&p, root);
		strbuf_addf(&p, paths[i], u.release);
		if (!access(p.buf, R_OK) && has_build_id(p.buf, bid, len))
			ret = 0;
		else
			pr_debug2("%s: no vmlinux with the recorded build-id\n", p.buf);
	}
	if (!ret)
		strbuf_addstr(out, p.buf);
	strbuf_release(&p);
	return ret;
}

int vmlinux_load(struct symsrc *ss, const char *path, const u8 *bid, size_t len,
		 const struct symbol_opts *opts)
{
	struct elf_syms_info info;
	int err, n;

	if (!has_build_id(path, bid, len)) {
		pr_debug("%s: build-id mismatch\n", path);
		err = -ESTALE;
		goto out;
	}
	err = elf_read_info(path, &info);
	if (err)
		goto out;
	free(ss->segs);
	ss->segs = info.segs;
	ss->nr_segs = info.nr_segs;
	info.segs = NULL;
	ss->e_type = info.e_type;
	memcpy(ss->build_id, info.build_id, sizeof(ss->build_id));
	ss->build_id_size = info.build_id_size;
	n = elf_load_symbols(&ss->symtab, path, opts, &info);
	free(info.segs);
	if (n < 0) {
		err = n;
		goto out;
	}
	ss->kind = SYMSRC_ELF;
	ss->kernel_image = true;
	ss->has_symtab = info.has_symtab;
	free(ss->path);
	free(ss->symbol_path);
	ss->path = xstrdup(path);
	ss->symbol_path = xstrdup(path);
	pr_debug("using %s for the kernel's symbols\n", path);
out:
	if (err) {
		symtab_release(&ss->symtab);
		symtab_init(&ss->symtab, ss->symtab.pool);
	}
	symtab_finish(&ss->symtab, false);
	ss->is_loaded = true;
	ss->status = err;
	return err;
}

/* kcore_dir's kcore holds the code when it opens as one and the modules file is there too */
static void attach_kcore_dir(struct symsrc *ss, const char *dir)
{
	char *kcore = xasprintf("%s/kcore", dir), *modules = xasprintf("%s/modules", dir);

	if (!access(modules, F_OK) && kcore_check(kcore)) {
		ss->kcore_path = kcore;
		kcore = NULL;
	} else {
		pr_debug("%s: not used (no modules file, or not a kcore)\n", kcore);
	}
	free(kcore);
	free(modules);
}

/* the running kernel is the recorded one (or none was recorded) */
static bool is_running_kernel(const u8 *bid, size_t len)
{
	u8 run[BUILD_ID_SIZE];
	int n;

	if (!len)
		return true;
	n = buildid_read_kernel(run, sizeof(run));
	return n > 0 && !memcmp(run, bid, MIN((size_t)n, len));
}

int symsrc_load_kernel(struct symsrc *ss, const struct symsrc_args *args)
{
	static const struct symsrc_args no_args;
	static const struct symbol_opts none;
	const struct symbol_opts *opts;
	struct strbuf p = STRBUF_INIT;
	struct symbol_opts o;
	struct symsrc_args a;
	int err;

	if (ss->is_loaded)
		return ss->status;
	if (!args)
		args = &no_args;
	opts = args->opts ? args->opts : &none;
	o = *opts;
	a = *args;
	a.opts = &o;
	if (opts->vmlinux && !opts->ignore_vmlinux) {
		/* -k: that file or nothing (perf looks nowhere else) */
		err = vmlinux_load(ss, opts->vmlinux, args->build_id, args->build_id_size, opts);
		goto out;
	}
	if (opts->kcore_dir && !opts->kallsyms) {
		/*
		 * record --kcore: its kallsyms for the symbols, its kcore for the
		 * code; not with -k, even ignored (perf then reads no code at all)
		 */
		strbuf_addf(&p, "%s/kallsyms", opts->kcore_dir);
		if (!access(p.buf, R_OK)) {
			o.kallsyms = p.buf;
			err = symsrc_load_kallsyms(ss, NULL, &a);
			if (!err && !opts->vmlinux)
				attach_kcore_dir(ss, opts->kcore_dir);
			goto out;
		}
		strbuf_reset(&p);
	}
	if (!opts->ignore_vmlinux && !opts->kallsyms && !symbol_opts_foreign_root(opts) &&
	    !vmlinux_find(&p, args->build_id, args->build_id_size, opts, NULL)) {
		err = vmlinux_load(ss, p.buf, args->build_id, args->build_id_size, opts);
		if (!err)
			goto out;
		ss->is_loaded = false;
	}
	strbuf_reset(&p);
	/*
	 * The build-id cache's copy of kallsyms (saved by record) is the same
	 * table as /proc/kallsyms for this kernel, and a plain file reads
	 * several times faster than the proc file.
	 */
	if (!o.kallsyms && symbol_opts_use_cache(&o) && args->build_id_size) {
		char *dir = buildid_dir(&o);

		if (!buildid_cache_find(&p, dir, args->build_id, args->build_id_size, false) &&
		    strendswith(p.buf, "kallsyms"))
			o.kallsyms = p.buf;
		free(dir);
	}
	err = symsrc_load_kallsyms(ss, NULL, &a);
	/* the running kernel's code, where /proc/kcore is readable (CAP_SYS_RAWIO) */
	if (!err && !opts->kallsyms && !opts->vmlinux && !symbol_opts_foreign_root(opts) &&
	    is_running_kernel(args->build_id, args->build_id_size) && kcore_check("/proc/kcore"))
		ss->kcore_path = xstrdup("/proc/kcore");
out:
	strbuf_release(&p);
	return err;
}
