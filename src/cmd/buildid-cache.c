/* SPDX-License-Identifier: MIT */
/* sonde buildid-cache: --add (with the SDT notes' probes file), --remove and --list, as perf. */
#include "builtin.h"

#include "lib/debug.h"
#include "lib/optspec.h"
#include "lib/strbuf.h"
#include "lib/strvec.h"
#include "lib/util.h"
#include "lib/xalloc.h"
#include "symbol/elf.h"
#include "symbol/sdt.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const buildid_cache_usage[] = {
	"perf buildid-cache [<options>]",
	NULL,
};

static struct {
	struct strvec adds, removes;
	bool list, force;
	int verbose;
} bc;

static int opt_file_list(const struct opt_spec *opt, const char *arg, int unset)
{
	/* perf: a comma-separated file list */
	strvec_split(opt->letter == 'a' ? &bc.adds : &bc.removes, arg, ",");
	return 0;
}

static const struct opt_spec buildid_cache_options[] = {
	SPEC_FN("add", 'a', NULL, "file list", "file(s) to add", opt_file_list),
	SPEC_FLAG("force", 'f', &bc.force, "don't complain, do it"),
	SPEC_REFUSED("kcore", 'k', "file", "kcore file to add"),
	SPEC_FLAG("list", 'l', &bc.list, "list all cached files"),
	SPEC_REFUSED("missing", 'M', "file", "to find missing build ids in the cache"),
	SPEC_REFUSED("purge", 'p', "file list", "file(s) to remove (remove old caches too)"),
	SPEC_REFUSED_NOVAL("purge-all", 'P', "purge all cached files"),
	SPEC_FN("remove", 'r', NULL, "file list", "file(s) to remove", opt_file_list),
	SPEC_REFUSED("update", 'u', "file list", "file(s) to update"),
	SPEC_COUNT("verbose", 'v', &bc.verbose, "be more verbose"),
	SPEC_REFUSED_NOVAL("debuginfod", 0,
			   "Enable debuginfod data retrieval from DEBUGINFOD_URLS or specified urls"),
	SPEC_REFUSED("target-ns", 0, "n", "target pid for namespace context"),
	SPEC_END(),
};

/* the cache directory of @path's build-id: DIR/PATH/BUILDID */
static char *entry_dir(const char *dir, const char *abs, const char *hex)
{
	return xasprintf("%s/%s/%s", dir, abs + (abs[0] == '/'), hex);
}

/*
 * The probes file of a cached binary: perf's SDT definitions of its
 * .note.stapsdt notes (empty without notes). Returns 0 or -errno.
 */
static int write_sdt_probes(const char *dir, const char *abs, const char *hex)
{
	struct sdt_note *notes;
	struct strbuf text = STRBUF_INIT;
	char *entry = entry_dir(dir, abs, hex);
	char *path = xasprintf("%s/probes", entry);
	int nr = sdt_notes_read(abs, &notes);
	FILE *f;
	int ret = 0;

	if (nr > 0)
		sdt_probes_format(&text, abs, notes, (size_t)nr);
	if (nr > 0)
		sdt_notes_free(notes, (size_t)nr);
	f = fopen(path, "w");
	if (!f || fwrite(text.buf, 1, text.len, f) != text.len)
		ret = -errno;
	if (f && fclose(f) && !ret)
		ret = -errno;
	strbuf_release(&text);
	free(path);
	free(entry);
	return ret;
}

static void cache_add(const char *dir, const char *file)
{
	u8 bid[BUILD_ID_SIZE];
	char hex[2 * BUILD_ID_SIZE + 1];
	char *abs = realpath(file, NULL);
	int len = abs ? buildid_read_path(abs, bid, sizeof(bid)) : -errno;
	int err;

	if (len == -ENOTSUP || len == -EINVAL || len == 0)
		len = -ENOTTY; /* perf's answer for a file without a build-id */
	if (len < 0) {
		pr_err("Couldn't add %s: %s\n", file, strerror(-len));
		free(abs);
		return;
	}
	buildid_to_hex(bid, (size_t)len, hex);
	err = buildid_cache_add(dir, abs, NULL, bid, (size_t)len);
	if (!err)
		err = write_sdt_probes(dir, abs, hex);
	if (err)
		pr_err("Couldn't add %s: %s\n", file, strerror(-err));
	else if (bc.verbose)
		pr_err("Adding %s %s: Ok\n", hex, file);
	free(abs);
}

static void cache_remove(const char *dir, const char *file)
{
	static const char *const bodies[] = { "elf", "probes", "debug", "kallsyms", "vdso" };
	u8 bid[BUILD_ID_SIZE];
	char hex[2 * BUILD_ID_SIZE + 1];
	char *abs = realpath(file, NULL);
	int len = abs ? buildid_read_path(abs, bid, sizeof(bid)) : -errno;
	char *entry, *link;
	bool removed;

	if (len <= 0) {
		pr_err("Couldn't remove %s: %s\n", file, strerror(len ? -len : ENOTTY));
		free(abs);
		return;
	}
	buildid_to_hex(bid, (size_t)len, hex);
	entry = entry_dir(dir, abs, hex);
	link = xasprintf("%s/.build-id/%.2s/%s", dir, hex, hex + 2);
	for (size_t i = 0; i < ARRAY_SIZE(bodies); i++) {
		char *p = xasprintf("%s/%s", entry, bodies[i]);

		unlink(p);
		free(p);
	}
	removed = !rmdir(entry);
	unlink(link);
	if (bc.verbose) {
		pr_err("Removing %s %s: %s\n", hex, file, removed ? "Ok" : "FAIL");
		if (!removed)
			pr_err("%s wasn't in the cache\n", file);
	}
	free(link);
	free(entry);
	free(abs);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* every .build-id/XX/REST link: "BUILDID PATH" */
static void cache_list(const char *dir)
{
	char *top_path = xasprintf("%s/.build-id", dir);
	DIR *top = opendir(top_path);
	struct strvec lines = STRVEC_INIT;
	struct dirent *d;

	while (top && (d = readdir(top))) {
		char *sub_path;
		DIR *sub;
		struct dirent *e;

		if (strlen(d->d_name) != 2)
			continue;
		sub_path = xasprintf("%s/%s", top_path, d->d_name);
		sub = opendir(sub_path);
		while (sub && (e = readdir(sub))) {
			char *link, target[4096], *slash;
			ssize_t n;
			const char *p;

			if (e->d_name[0] == '.')
				continue;
			link = xasprintf("%s/%s", sub_path, e->d_name);
			n = readlink(link, target, sizeof(target) - 1);
			free(link);
			if (n <= 0)
				continue;
			target[n] = 0;
			/* "../../PATH/BUILDID" */
			slash = strrchr(target, '/');
			if (!slash)
				continue;
			*slash = 0;
			p = target;
			while (!strncmp(p, "../", 3))
				p += 3;
			strvec_pushf(&lines, "%s%s %s%s", d->d_name, e->d_name, p[0] == '[' ? "" : "/", p);
		}
		if (sub)
			closedir(sub);
		free(sub_path);
	}
	if (top)
		closedir(top);
	qsort(lines.v, lines.nr, sizeof(*lines.v), cmp_str);
	for (size_t i = 0; i < lines.nr; i++)
		printf("%s\n", lines.v[i]);
	strvec_clear(&lines);
	free(top_path);
}

int cmd_buildid_cache(int argc, const char **argv)
{
	char *dir;

	strvec_init(&bc.adds);
	strvec_init(&bc.removes);
	argc = opts_parse(argc, argv, buildid_cache_options, buildid_cache_usage, 0);
	if (!bc.adds.nr && !bc.removes.nr && !bc.list)
		opts_usage_exit(buildid_cache_usage, buildid_cache_options);
	dir = buildid_dir(NULL);
	if (bc.verbose) {
		const char *urls = getenv("DEBUGINFOD_URLS");

		pr_err("DEBUGINFOD_URLS=%s\n", urls ? urls : "");
	}
	for (size_t i = 0; i < bc.adds.nr; i++)
		cache_add(dir, bc.adds.v[i]);
	for (size_t i = 0; i < bc.removes.nr; i++)
		cache_remove(dir, bc.removes.v[i]);
	if (bc.list)
		cache_list(dir);
	free(dir);
	strvec_clear(&bc.adds);
	strvec_clear(&bc.removes);
	return 0;
}
