/* SPDX-License-Identifier: MIT */
/* SDT events known to the build-id cache, listed the way perf list shows them. */
#include "ui/list.h"
#include "lib/strbuf.h"
#include "lib/strvec.h"
#include "lib/xalloc.h"
#include "symbol/elf.h"

#include <dirent.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool glob_ok(const char *glob, const char *s)
{
	return !glob || !fnmatch(glob, s, 0);
}

/* "%sdt_x:name=..." lines of one probes file -> "group:event@sbid" */
static void read_probes(const char *path, const char *sbid, const char *sys_glob,
			const char *ev_glob, struct strvec *out)
{
	struct strbuf sb = STRBUF_INIT;
	char *line, *save = NULL;

	if (strbuf_read_file(&sb, path, 1024) < 0) {
		strbuf_release(&sb);
		return;
	}
	for (line = strtok_r(sb.buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *colon, *eq;

		if (line[0] != '%')
			continue;
		line++;
		colon = strchr(line, ':');
		if (!colon)
			continue;
		*colon = 0;
		eq = strchr(colon + 1, '=');
		if (eq)
			*eq = 0;
		if (glob_ok(sys_glob, line) && glob_ok(ev_glob, colon + 1))
			strvec_pushf(out, "%s:%s@%s", line, colon + 1, sbid);
	}
	strbuf_release(&sb);
}

/* the original path of cache link target "../../usr/bin/x/<sbid>" */
static char *origname(const char *target, const char *sbid)
{
	const char *p = target;
	size_t len, blen = strlen(sbid);

	while (!strncmp(p, "../", 3))
		p += 3;
	len = strlen(p);
	if (len > blen + 1 && !strcmp(p + len - blen, sbid) && p[len - blen - 1] == '/')
		len -= blen + 1;
	return xasprintf("/%.*s", (int)len, p);
}

/* whether the binary at @path still has build-id @sbid (perf checks through it) */
static bool binary_matches(const char *path, const char *sbid)
{
	u8 bid[64];
	char hex[129];
	int len = buildid_read_path(path, bid, sizeof(bid));

	if (len <= 0)
		return false;
	buildid_to_hex(bid, len, hex);
	return !strcmp(hex, sbid);
}

static void collect(const char *root, const char *sys_glob, const char *ev_glob,
		    struct strvec *entries)
{
	struct strbuf dir = STRBUF_INIT;
	DIR *top, *sub;
	struct dirent *d, *e;

	strbuf_addf(&dir, "%s/.build-id", root);
	top = opendir(dir.buf);
	if (!top) {
		strbuf_release(&dir);
		return;
	}
	while ((d = readdir(top))) {
		struct strbuf subdir = STRBUF_INIT;

		if (strlen(d->d_name) != 2)
			continue;
		strbuf_addf(&subdir, "%s/%s", dir.buf, d->d_name);
		sub = opendir(subdir.buf);
		while (sub && (e = readdir(sub))) {
			char target[4096], *sbid, *orig, *link, *probes;
			struct stat st;
			ssize_t n;

			if (e->d_name[0] == '.')
				continue;
			link = xasprintf("%s/%s", subdir.buf, e->d_name);
			n = readlink(link, target, sizeof(target) - 1);
			if (n <= 0) {
				free(link);
				continue;
			}
			target[n] = 0;
			sbid = xasprintf("%s%s", d->d_name, e->d_name);
			orig = origname(target, sbid);
			probes = xasprintf("%s/probes", link);
			/* an empty probes file lists nothing: skip reading the binary */
			if (orig[1] != '[' && !stat(probes, &st) && st.st_size > 0 &&
			    binary_matches(orig, sbid))
				read_probes(probes, sbid, sys_glob, ev_glob, entries);
			free(probes);
			free(orig);
			free(sbid);
			free(link);
		}
		if (sub)
			closedir(sub);
		strbuf_release(&subdir);
	}
	closedir(top);
	strbuf_release(&dir);
}

void list_sdt_events(const char *sys_glob, const char *ev_glob, bool name_only,
		     struct strvec *out)
{
	struct strvec entries = STRVEC_INIT;
	char *root = buildid_dir(NULL);
	bool detail = false;

	collect(root, sys_glob, ev_glob, &entries);
	qsort(entries.v, entries.nr, sizeof(char *), cmp_str);
	for (size_t i = 0; i < entries.nr; i++) {
		char *at = strchr(entries.v[i], '@');
		size_t nlen = at - entries.v[i];
		const char *next = i + 1 < entries.nr ? entries.v[i + 1] : NULL;
		bool same_next = next && !strncmp(next, entries.v[i], nlen + 1);

		if (i && !strcmp(entries.v[i], entries.v[i - 1]))
			continue; /* perf's sorted list holds each string once */
		if (name_only) {
			strvec_pushf(out, "%.*s", (int)nlen, entries.v[i]);
			continue;
		}
		/* perf turns the detail on when the next name is the same, off after a change */
		if (same_next)
			detail = true;
		if (detail) {
			char *sbid = at + 1;
			char *link = NULL, target[4096], *orig;
			ssize_t n;

			link = xasprintf("%s/.build-id/%.2s/%s", root, sbid, sbid + 2);
			n = readlink(link, target, sizeof(target) - 1);
			target[n > 0 ? n : 0] = 0;
			orig = origname(target, sbid);
			strvec_pushf(out, "%.*s@%s(%.12s)", (int)nlen, entries.v[i], orig, sbid);
			free(orig);
			free(link);
		} else {
			strvec_pushf(out, "%.*s", (int)nlen, entries.v[i]);
		}
		if (!same_next)
			detail = false;
	}
	strvec_clear(&entries);
	free(root);
}
