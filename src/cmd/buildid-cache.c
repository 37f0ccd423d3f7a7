/* SPDX-License-Identifier: MIT */
/* sonde buildid-cache: add (with the SDT notes' probes file), remove, purge, update, list, missing, kcore, as perf. */
#include "builtin.h"
#include "cmd/open.h"
#include "cmd/options.h"
#include "data/reader.h"

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
#include <sys/stat.h>
#include <unistd.h>

static const char *const buildid_cache_usage[] = {
	"perf buildid-cache [<options>]",
	NULL,
};

static struct {
	struct strvec adds, removes, purges, updates;
	bool list, force, purge_all;
	bool has_list; /* a file list was given (even one perf drops) */
	const char *missing, *kcore;
	int verbose;
} bc;

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int opt_file_list(const struct opt_spec *opt, const char *arg, int unset)
{
	struct strvec *v = opt->letter == 'a' ? &bc.adds :
			   opt->letter == 'r' ? &bc.removes :
			   opt->letter == 'p' ? &bc.purges : &bc.updates;

	/*
	 * perf: the last one given, a comma-separated list taken sorted; a
	 * name given twice makes perf drop the whole list
	 */
	bc.has_list = true;
	strvec_clear(v);
	strvec_split(v, arg, ",");
	qsort(v->v, v->nr, sizeof(*v->v), cmp_str);
	for (size_t i = 1; i < v->nr; i++)
		if (!strcmp(v->v[i - 1], v->v[i])) {
			strvec_clear(v);
			break;
		}
	return 0;
}

static const struct opt_spec buildid_cache_options[] = {
	SPEC_FN("add", 'a', NULL, "file list", "file(s) to add", opt_file_list),
	SPEC_FLAG("force", 'f', &bc.force, "don't complain, do it"),
	SPEC_TEXT("kcore", 'k', &bc.kcore, "file", "kcore file to add"),
	SPEC_FLAG("list", 'l', &bc.list, "list all cached files"),
	SPEC_TEXT("missing", 'M', &bc.missing, "file", "to find missing build ids in the cache"),
	SPEC_FN("purge", 'p', NULL, "file list", "file(s) to remove (remove old caches too)",
		opt_file_list),
	SPEC_FLAG("purge-all", 'P', &bc.purge_all, "purge all cached files"),
	SPEC_FN("remove", 'r', NULL, "file list", "file(s) to remove", opt_file_list),
	SPEC_FN("update", 'u', NULL, "file list", "file(s) to update", opt_file_list),
	SPEC_COUNT("verbose", 'v', &bc.verbose, "be more verbose"),
	SPEC_FN_OPTVAL("debuginfod", 0, NULL, "debuginfod urls",
		       "Enable debuginfod data retrieval from DEBUGINFOD_URLS or specified urls",
		       opts_refuse),
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

/*
 * remove the cache entry <dir>/<name>/<hex>: its files, its directory and its
 * .build-id link (the name's directories stay, as perf leaves them). Returns
 * true when the entry was there.
 */
static bool entry_remove(const char *dir, const char *name, const char *hex)
{
	static const char *const bodies[] = { "elf", "probes", "debug", "kallsyms", "vdso" };
	char *entry = entry_dir(dir, name, hex);
	char *link = xasprintf("%s/.build-id/%.2s/%s", dir, hex, hex + 2);
	bool removed;

	for (size_t i = 0; i < ARRAY_SIZE(bodies); i++) {
		char *p = xasprintf("%s/%s", entry, bodies[i]);

		unlink(p);
		free(p);
	}
	removed = !rmdir(entry);
	unlink(link);
	free(link);
	free(entry);
	return removed;
}

static void cache_remove(const char *dir, const char *file)
{
	u8 bid[BUILD_ID_SIZE];
	char hex[2 * BUILD_ID_SIZE + 1];
	char *abs = realpath(file, NULL);
	int len = abs ? buildid_read_path(abs, bid, sizeof(bid)) : -errno;
	bool removed;

	if (len <= 0) {
		pr_err("Couldn't remove %s: %s\n", file, strerror(len ? -len : ENOTTY));
		free(abs);
		return;
	}
	buildid_to_hex(bid, (size_t)len, hex);
	removed = entry_remove(dir, abs, hex);
	if (bc.verbose) {
		pr_err("Removing %s %s: %s\n", hex, file, removed ? "Ok" : "FAIL");
		if (!removed)
			pr_err("%s wasn't in the cache\n", file);
	}
	free(abs);
}

/* the build-id directories cached for the file at @abs, sorted; false when it has none (no directory) */
static bool entries_of(const char *dir, const char *abs, struct strvec *hexes)
{
	char *path = xasprintf("%s/%s", dir, abs + (abs[0] == '/'));
	DIR *d = opendir(path);
	struct dirent *e;

	free(path);
	if (!d)
		return false;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			strvec_push(hexes, e->d_name);
	closedir(d);
	qsort(hexes->v, hexes->nr, sizeof(*hexes->v), cmp_str);
	return true;
}

/* --purge: every cached build-id of the file, the current one or older ones */
static void cache_purge(const char *dir, const char *file)
{
	struct strvec hexes = STRVEC_INIT;
	char *abs = realpath(file, NULL);
	bool ok = abs && entries_of(dir, abs, &hexes);

	for (size_t i = 0; i < hexes.nr; i++) {
		bool removed = entry_remove(dir, abs, hexes.v[i]);

		if (bc.verbose)
			pr_err("Removing %s %s: %s\n", hexes.v[i], file, removed ? "Ok" : "FAIL");
	}
	if (bc.verbose) {
		pr_err("Purging %s: %s\n", file, ok ? "Ok" : "FAIL");
		if (!ok)
			pr_err("%s wasn't in the cache\n", file);
	}
	strvec_clear(&hexes);
	free(abs);
}

/* --update: the file's entry made anew (added when it was not there) */
static void cache_update(const char *dir, const char *file)
{
	u8 bid[BUILD_ID_SIZE];
	char hex[2 * BUILD_ID_SIZE + 1];
	char *abs = realpath(file, NULL);
	int len = abs ? buildid_read_path(abs, bid, sizeof(bid)) : -errno;
	int err;

	if (len <= 0) {
		if (bc.verbose) {
			pr_err("Couldn't read a build-id in %s\n", file);
			pr_err("%s wasn't in the cache\n", file);
		}
		free(abs);
		return;
	}
	buildid_to_hex(bid, (size_t)len, hex);
	entry_remove(dir, abs, hex);
	err = buildid_cache_add(dir, abs, NULL, bid, (size_t)len);
	if (!err)
		err = write_sdt_probes(dir, abs, hex);
	if (err)
		pr_err("Couldn't update %s: %s\n", file, strerror(-err));
	else if (bc.verbose)
		pr_err("Updating %s %s: Ok\n", hex, file);
	free(abs);
}

/*
 * every .build-id/XX/REST link as "BUILDID NAME" (NAME as cached: a path
 * without its leading '/', or "[kernel.kallsyms]"), sorted
 */
static void cache_links(const char *dir, struct strvec *lines)
{
	char *top_path = xasprintf("%s/.build-id", dir);
	DIR *top = opendir(top_path);
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
			strvec_pushf(lines, "%s%s %s", d->d_name, e->d_name, p);
		}
		if (sub)
			closedir(sub);
		free(sub_path);
	}
	if (top)
		closedir(top);
	qsort(lines->v, lines->nr, sizeof(*lines->v), cmp_str);
	free(top_path);
}

/* the printable name of a cached NAME: "/path" or "[kernel.kallsyms]" */
static const char *name_slash(const char *name)
{
	return name[0] == '[' ? "" : "/";
}

/*
 * --list: the cached files that are still valid (perf leaves out the stale
 * ones): a file that exists with the cached build-id, the kernel when it is
 * the running one; vdso and other bracketed names are not listed
 */
static void cache_list(const char *dir)
{
	struct strvec lines = STRVEC_INIT;

	cache_links(dir, &lines);
	for (size_t i = 0; i < lines.nr; i++) {
		const char *name = strchr(lines.v[i], ' ') + 1;
		size_t hex_len = (size_t)(name - 1 - lines.v[i]);
		char hex[2 * BUILD_ID_SIZE + 1];
		u8 bid[BUILD_ID_SIZE];
		int len = -ENOENT;

		if (!strcmp(name, "[kernel.kallsyms]")) {
			len = buildid_read_kernel(bid, sizeof(bid));
		} else if (name[0] != '[') {
			char *path = xasprintf("/%s", name);

			len = buildid_read_path(path, bid, sizeof(bid));
			free(path);
		}
		if (len <= 0)
			continue;
		buildid_to_hex(bid, (size_t)len, hex);
		if (strlen(hex) != hex_len || strncmp(hex, lines.v[i], hex_len))
			continue;
		printf("%s %s%s\n", hex, name_slash(name), name);
	}
	strvec_clear(&lines);
}

/* --purge-all: every entry a link names, in build-id order */
static void cache_purge_all(const char *dir)
{
	struct strvec lines = STRVEC_INIT;

	cache_links(dir, &lines);
	for (size_t i = 0; i < lines.nr; i++) {
		char *sp = strchr(lines.v[i], ' ');
		const char *name = sp + 1;
		bool removed;

		*sp = 0;
		removed = entry_remove(dir, name, lines.v[i]);
		if (bc.verbose)
			pr_err("Removing %s%s (%s): %s\n", name_slash(name), name, lines.v[i],
			       removed ? "Ok" : "FAIL");
	}
	if (bc.verbose)
		pr_err("Purged all: Ok\n");
	strvec_clear(&lines);
}

/* the file a cache link of @name holds: kallsyms for the kernel, vdso, else elf */
static const char *cached_leaf(const char *name)
{
	if (!strcmp(name, "[kernel.kallsyms]") || !strncmp(name, "[guest.kernel", 13))
		return "kallsyms";
	if (!strncmp(name, "[vdso", 5))
		return "vdso";
	return "elf";
}

/*
 * --missing: the build-ids of @r's header without a cached file, as
 * buildid-list prints them; a cached file whose build-id cannot be read is
 * reported on stderr, as perf does
 */
static void cache_missing(const char *dir, struct data_reader *r)
{
	const struct perf_header *h = data_reader_header(r);

	for (int i = 0; i < h->nr_build_ids; i++) {
		const struct build_id_entry *e = &h->build_ids[i];
		char hex[2 * BUILD_ID_SIZE + 1];
		u8 bid[BUILD_ID_SIZE];
		char *path;
		bool seen = false;
		int len;

		for (int j = 0; j < i; j++)
			seen |= h->build_ids[j].pid == e->pid &&
				!strcmp(h->build_ids[j].filename, e->filename);
		if (seen || !e->size)
			continue;
		buildid_to_hex(e->build_id, e->size, hex);
		path = xasprintf("%s/.build-id/%.2s/%s/%s", dir, hex, hex + 2, cached_leaf(e->filename));
		if (access(path, F_OK)) {
			printf("%s %s\n", hex, e->filename);
		} else {
			len = buildid_read_path(path, bid, sizeof(bid));
			if (len <= 0)
				pr_err("Problems with %s file, consider removing it from the cache\n", path);
			else if ((size_t)len != e->size || memcmp(bid, e->build_id, (size_t)len))
				printf("%s %s\n", hex, e->filename);
		}
		free(path);
	}
}

/* the build-id in the raw notes file @path; <= 0 when there is none */
static int notes_file_build_id(const char *path, u8 *bid)
{
	u8 buf[4096];
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return -errno;
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	return buildid_parse_notes(buf, n, bid, BUILD_ID_SIZE);
}

/*
 * --kcore: perf copies the kernel's parts of a kcore file, with the kallsyms
 * and modules files beside it, under [kernel.kcore]/BUILDID/TIME/, the
 * build-id read from <root>/sys/kernel/notes (root: the directory above the
 * kcore's). As perf: a path that is relative, not named kcore or right
 * under / fails at once; with the build-id the
 * cache directory is made (perf leaves it behind when a part is missing).
 * sonde does not copy kcore files yet: it ends there with perf's message.
 */
static void cache_kcore(const char *dir, const char *file)
{
	char *copy = xstrdup(file), *slash = strrchr(copy, '/');
	char *kallsyms = NULL, *modules = NULL, *notes = NULL;
	u8 bid[BUILD_ID_SIZE];

	if (file[0] == '/' && slash && slash != copy && !strcmp(slash + 1, "kcore")) {
		char *up;

		*slash = 0;
		kallsyms = xasprintf("%s/kallsyms", copy);
		modules = xasprintf("%s/modules", copy);
		up = strrchr(copy, '/');
		if (up)
			*up = 0;
		notes = xasprintf("%s/sys/kernel/notes", copy);
		if (notes_file_build_id(notes, bid) > 0) {
			mkdir(dir, 0755);
			if (bc.verbose && !access(file, R_OK) && !access(kallsyms, R_OK) &&
			    !access(modules, R_OK))
				pr_err("sonde: copying a kcore file into the cache is not supported yet\n");
		}
	}
	pr_err("Couldn't add %s\n", file);
	free(notes);
	free(kallsyms);
	free(modules);
	free(copy);
}

int cmd_buildid_cache(int argc, const char **argv)
{
	struct data_reader *r = NULL;
	char *dir;

	strvec_init(&bc.adds);
	strvec_init(&bc.removes);
	strvec_init(&bc.purges);
	strvec_init(&bc.updates);
	argc = opts_parse(argc, argv, buildid_cache_options, buildid_cache_usage, 0);
	if (!bc.has_list && !bc.list && !bc.purge_all && !bc.missing && !bc.kcore)
		opts_usage_exit(buildid_cache_usage, buildid_cache_options);
	if (bc.list && (bc.has_list || bc.purge_all || bc.missing || bc.kcore))
	{
		/* perf's message for an exclusive option, a blank line, the help */
		fprintf(stderr, "  Error: -l is exclusive.\n\n");
		opts_usage_exit(buildid_cache_usage, buildid_cache_options);
	}
	dir = buildid_dir(NULL);
	if (bc.verbose) {
		const char *urls = getenv("DEBUGINFOD_URLS");

		pr_err("DEBUGINFOD_URLS=%s\n", urls ? urls : "");
	}
	/* perf opens the -M file first: a bad one stops everything */
	if (bc.missing) {
		r = data_open_for_read(bc.missing, bc.force);
		if (!r) {
			free(dir);
			return 255;
		}
	}
	for (size_t i = 0; i < bc.adds.nr; i++)
		cache_add(dir, bc.adds.v[i]);
	for (size_t i = 0; i < bc.removes.nr; i++)
		cache_remove(dir, bc.removes.v[i]);
	for (size_t i = 0; i < bc.purges.nr; i++)
		cache_purge(dir, bc.purges.v[i]);
	if (bc.purge_all)
		cache_purge_all(dir);
	for (size_t i = 0; i < bc.updates.nr; i++)
		cache_update(dir, bc.updates.v[i]);
	if (bc.kcore)
		cache_kcore(dir, bc.kcore);
	if (r)
		cache_missing(dir, r);
	if (bc.list)
		cache_list(dir);
	if (r)
		data_reader_close(r);
	free(dir);
	strvec_clear(&bc.adds);
	strvec_clear(&bc.removes);
	strvec_clear(&bc.purges);
	strvec_clear(&bc.updates);
	return 0;
}
