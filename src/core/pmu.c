/* SPDX-License-Identifier: MIT */
/* sysfs PMU discovery: type, format bit layouts and event aliases. */
#include "core/pmu.h"
#include "lib/strbuf.h"
#include "lib/strvec.h"
#include "lib/util.h"
#include "lib/xalloc.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int pmu_list_at(const char *root, struct strvec *names)
{
	DIR *dir = opendir(root);
	struct dirent *d;
	size_t start = names->nr;

	if (!dir)
		return -errno;
	while ((d = readdir(dir))) {
		if (d->d_name[0] == '.')
			continue;
		strvec_push(names, d->d_name);
	}
	closedir(dir);
	qsort(names->v + start, names->nr - start, sizeof(char *), cmp_str);
	return 0;
}

/* SONDE_PMU_DIR in the environment points the lookups at a fake tree (tests) */
static const char *pmu_root(void)
{
	const char *env = getenv("SONDE_PMU_DIR");

	return env && *env ? env : PMU_SYSFS_DIR;
}

int pmu_list(struct strvec *names)
{
	return pmu_list_at(pmu_root(), names);
}

int pmu_format_parse(const char *spec, int *word, u64 *mask)
{
	const char *p;
	u64 m = 0;

	if (!strncmp(spec, "config1:", 8)) {
		*word = 1;
		p = spec + 8;
	} else if (!strncmp(spec, "config2:", 8)) {
		*word = 2;
		p = spec + 8;
	} else if (!strncmp(spec, "config:", 7)) {
		*word = 0;
		p = spec + 7;
	} else {
		return -EINVAL;
	}
	while (*p) {
		char *end;
		unsigned long lo = strtoul(p, &end, 10), hi = lo;

		if (end == p)
			return -EINVAL;
		p = end;
		if (*p == '-') {
			hi = strtoul(p + 1, &end, 10);
			if (end == p + 1)
				return -EINVAL;
			p = end;
		}
		if (lo > 63 || hi > 63 || hi < lo)
			return -EINVAL;
		for (unsigned long b = lo; b <= hi; b++)
			m |= 1ULL << b;
		if (*p == ',')
			p++;
		else if (*p && *p != '\n')
			return -EINVAL;
		else
			break;
	}
	if (!m)
		return -EINVAL;
	*word = *word;
	*mask = m;
	return 0;
}

int pmu_format_apply(const struct pmu_format *f, u64 value, u64 *config, u64 *max)
{
	u64 out = 0, fits = 0;
	int vbit = 0;

	for (int b = 0; b < 64; b++) {
		if (!(f->mask & (1ULL << b)))
			continue;
		if (value & (1ULL << vbit))
			out |= 1ULL << b;
		fits |= 1ULL << vbit;
		vbit++;
	}
	if (vbit < 64 && (value >> vbit)) {
		*max = fits;
		return -ERANGE;
	}
	*config = (*config & ~f->mask) | out;
	return 0;
}

static char *read_small(const char *dir, const char *name)
{
	struct strbuf sb = STRBUF_INIT, path = STRBUF_INIT;

	strbuf_addf(&path, "%s/%s", dir, name);
	if (strbuf_read_file(&sb, path.buf, 64) < 0) {
		strbuf_release(&path);
		strbuf_release(&sb);
		return NULL;
	}
	strbuf_release(&path);
	strbuf_rtrim(&sb);
	return strbuf_detach(&sb, NULL);
}

static int cmp_format(const void *a, const void *b)
{
	return strcmp(((const struct pmu_format *)a)->name, ((const struct pmu_format *)b)->name);
}

static int cmp_alias(const void *a, const void *b)
{
	return strcmp(((const struct pmu_alias *)a)->name, ((const struct pmu_alias *)b)->name);
}

static void load_formats(struct pmu *pmu, const char *pmudir)
{
	struct strbuf dirpath = STRBUF_INIT;
	DIR *dir;
	struct dirent *d;
	int alloc = 0;

	strbuf_addf(&dirpath, "%s/format", pmudir);
	dir = opendir(dirpath.buf);
	if (!dir) {
		strbuf_release(&dirpath);
		return;
	}
	while ((d = readdir(dir))) {
		char *spec;
		int word;
		u64 mask;

		if (d->d_name[0] == '.')
			continue;
		spec = read_small(dirpath.buf, d->d_name);
		if (!spec)
			continue;
		if (!pmu_format_parse(spec, &word, &mask)) {
			if (pmu->nr_formats == alloc) {
				alloc = alloc ? alloc * 2 : 8;
				pmu->formats = xrealloc(pmu->formats, alloc * sizeof(*pmu->formats));
			}
			pmu->formats[pmu->nr_formats].name = xstrdup(d->d_name);
			pmu->formats[pmu->nr_formats].word = word;
			pmu->formats[pmu->nr_formats].mask = mask;
			pmu->nr_formats++;
		}
		free(spec);
	}
	closedir(dir);
	strbuf_release(&dirpath);
	if (pmu->nr_formats)
		qsort(pmu->formats, pmu->nr_formats, sizeof(*pmu->formats), cmp_format);
}

static bool has_suffix(const char *name, const char *suffix)
{
	size_t n = strlen(name), s = strlen(suffix);

	return n > s && !strcmp(name + n - s, suffix);
}

static void load_alias_extras(struct pmu_alias *a, const char *evdir)
{
	struct strbuf name = STRBUF_INIT;
	char *s;

	strbuf_addf(&name, "%s.scale", a->name);
	s = read_small(evdir, name.buf);
	if (s) {
		a->scale = strtod(s, NULL);
		free(s);
	}
	strbuf_reset(&name);
	strbuf_addf(&name, "%s.unit", a->name);
	s = read_small(evdir, name.buf);
	if (s) {
		snprintf(a->unit, sizeof(a->unit), "%s", s);
		free(s);
	}
	strbuf_reset(&name);
	strbuf_addf(&name, "%s.per-pkg", a->name);
	s = read_small(evdir, name.buf);
	if (s) {
		a->per_pkg = atoi(s) != 0;
		free(s);
	}
	strbuf_reset(&name);
	strbuf_addf(&name, "%s.snapshot", a->name);
	s = read_small(evdir, name.buf);
	if (s) {
		a->snapshot = atoi(s) != 0;
		free(s);
	}
	strbuf_release(&name);
}

static void load_aliases(struct pmu *pmu, const char *pmudir)
{
	struct strbuf dirpath = STRBUF_INIT;
	DIR *dir;
	struct dirent *d;
	int alloc = 0;

	strbuf_addf(&dirpath, "%s/events", pmudir);
	dir = opendir(dirpath.buf);
	if (!dir) {
		strbuf_release(&dirpath);
		return;
	}
	while ((d = readdir(dir))) {
		char *terms;
		struct pmu_alias *a;

		if (d->d_name[0] == '.' || has_suffix(d->d_name, ".scale") ||
		    has_suffix(d->d_name, ".unit") || has_suffix(d->d_name, ".per-pkg") ||
		    has_suffix(d->d_name, ".snapshot"))
			continue;
		terms = read_small(dirpath.buf, d->d_name);
		if (!terms)
			continue;
		if (pmu->nr_aliases == alloc) {
			alloc = alloc ? alloc * 2 : 8;
			pmu->aliases = xrealloc(pmu->aliases, alloc * sizeof(*pmu->aliases));
		}
		a = &pmu->aliases[pmu->nr_aliases++];
		memset(a, 0, sizeof(*a));
		a->name = xstrdup(d->d_name);
		a->terms = terms;
		load_alias_extras(a, dirpath.buf);
	}
	closedir(dir);
	strbuf_release(&dirpath);
	if (pmu->nr_aliases)
		qsort(pmu->aliases, pmu->nr_aliases, sizeof(*pmu->aliases), cmp_alias);
}

static struct pmu *load_one(const char *root, const char *name)
{
	struct strbuf dir = STRBUF_INIT;
	char *type;
	struct pmu *pmu;
	long long t;

	strbuf_addf(&dir, "%s/%s", root, name);
	type = read_small(dir.buf, "type");
	if (!type) {
		strbuf_release(&dir);
		return NULL;
	}
	t = strtoll(type, NULL, 0);
	free(type);
	pmu = xzalloc(sizeof(*pmu));
	pmu->name = xstrdup(name);
	pmu->type = (u32)t;
	load_formats(pmu, dir.buf);
	load_aliases(pmu, dir.buf);
	strbuf_release(&dir);
	return pmu;
}

struct pmu *pmu_load_at(const char *root, const char *name)
{
	struct pmu *pmu;
	struct strbuf alt = STRBUF_INIT;

	if (!*name || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, "..")) {
		errno = ENOENT;
		return NULL;
	}
	pmu = load_one(root, name);
	if (pmu)
		return pmu;
	strbuf_addf(&alt, "uncore_%s", name);
	pmu = load_one(root, alt.buf);
	strbuf_release(&alt);
	if (!pmu)
		errno = ENOENT;
	return pmu;
}

struct pmu *pmu_load(const char *name)
{
	return pmu_load_at(pmu_root(), name);
}

void pmu_free(struct pmu *pmu)
{
	if (!pmu)
		return;
	for (int i = 0; i < pmu->nr_formats; i++)
		free(pmu->formats[i].name);
	for (int i = 0; i < pmu->nr_aliases; i++) {
		free(pmu->aliases[i].name);
		free(pmu->aliases[i].terms);
	}
	free(pmu->formats);
	free(pmu->aliases);
	free(pmu->name);
	free(pmu);
}

const struct pmu_format *pmu_format_find(const struct pmu *pmu, const char *name)
{
	for (int i = 0; i < pmu->nr_formats; i++)
		if (!strcmp(pmu->formats[i].name, name))
			return &pmu->formats[i];
	return NULL;
}

const struct pmu_alias *pmu_alias_find(const struct pmu *pmu, const char *name)
{
	for (int i = 0; i < pmu->nr_aliases; i++)
		if (!strcasecmp(pmu->aliases[i].name, name))
			return &pmu->aliases[i];
	return NULL;
}

int pmu_nr_addr_filters(u32 type)
{
	struct strvec names = STRVEC_INIT;
	const char *root = pmu_root();
	int nr = 0;

	pmu_list_at(root, &names);
	for (size_t i = 0; i < names.nr; i++) {
		struct strbuf path = STRBUF_INIT;
		long long v;

		strbuf_addf(&path, "%s/%s/type", root, names.v[i]);
		if (!read_sysfs_int(path.buf, &v) && v == type) {
			strbuf_reset(&path);
			strbuf_addf(&path, "%s/%s/nr_addr_filters", root, names.v[i]);
			if (!read_sysfs_int(path.buf, &v))
				nr = (int)v;
		}
		strbuf_release(&path);
	}
	strvec_clear(&names);
	return nr;
}
