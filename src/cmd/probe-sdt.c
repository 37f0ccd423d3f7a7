/* SPDX-License-Identifier: MIT */
/* sonde probe sdt_PROVIDER:NAME / %GROUP:NAME: SDT events from the build-id cache's probes files. */
#include "builtin.h"
#include "cmd/probe.h"

#include "lib/debug.h"
#include "lib/strbuf.h"
#include "lib/strvec.h"
#include "lib/xalloc.h"
#include "symbol/elf.h"
#include "trace/probe-plan.h"
#include "trace/probe-spec.h"

#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool probe_sdt_is_spec(const char *spec)
{
	if (strpbrk(spec, " \t=") || !strchr(spec, ':'))
		return false;
	return spec[0] == '%' || !strncmp(spec, "sdt_", 4);
}

/* the arguments made here live until probe_sdt_release() */
static struct {
	struct probe_arg **v;
	size_t *nr;
	size_t count;
	char **paths;
	size_t nr_paths;
} sdt_made;

void probe_sdt_release(void)
{
	for (size_t i = 0; i < sdt_made.count; i++) {
		for (size_t j = 0; j < sdt_made.nr[i]; j++) {
			free(sdt_made.v[i][j].name);
			free(sdt_made.v[i][j].expr);
			free(sdt_made.v[i][j].type);
		}
		free(sdt_made.v[i]);
	}
	for (size_t i = 0; i < sdt_made.nr_paths; i++)
		free(sdt_made.paths[i]);
	free(sdt_made.v);
	free(sdt_made.nr);
	free(sdt_made.paths);
	memset(&sdt_made, 0, sizeof(sdt_made));
}

/* one cached definition line: "p:GROUP/EVENT PATH:0xOFF[(0xREF)] NAME=FETCH:TYPE ..." */
struct sdt_line {
	char *group, *event, *path;
	u64 offset, ref;
	struct probe_arg *args;
	size_t nr_args;
};

static int parse_line(struct sdt_line *sl, const char *line)
{
	struct strvec w = STRVEC_INIT;
	char *slash, *colon, *end;
	int ret = -EINVAL;

	memset(sl, 0, sizeof(*sl));
	strvec_split(&w, line, " ");
	if (w.nr < 2 || strncmp(w.v[0], "p:", 2) || !(slash = strchr(w.v[0], '/')))
		goto out;
	colon = strrchr(w.v[1], ':');
	if (!colon)
		goto out;
	sl->group = xstrndup(w.v[0] + 2, (size_t)(slash - w.v[0] - 2));
	sl->event = xstrdup(slash + 1);
	sl->path = xstrndup(w.v[1], (size_t)(colon - w.v[1]));
	sl->offset = strtoull(colon + 1, &end, 0);
	if (*end == '(')
		sl->ref = strtoull(end + 1, NULL, 0);
	for (size_t i = 2; i < w.nr; i++) {
		char *eq = strchr(w.v[i], '='), *ty;
		struct probe_arg *a;

		if (!eq)
			continue;
		sl->args = xrealloc(sl->args, (sl->nr_args + 1) * sizeof(*sl->args));
		a = &sl->args[sl->nr_args++];
		memset(a, 0, sizeof(*a));
		*eq = 0;
		ty = strrchr(eq + 1, ':');
		if (ty)
			*ty++ = 0;
		a->name = xstrdup(w.v[i]);
		a->expr = xstrdup(eq + 1);
		a->type = ty ? xstrdup(ty) : NULL;
		a->is_resolved = true; /* -D shows NAME=FETCH:TYPE; no "with" text */
		a->is_fetch = true;
	}
	ret = 0;
out:
	strvec_clear(&w);
	return ret;
}

/* every cached probes file: DIR/.build-id/XX/REST -> its entry directory */
static void probes_files(const char *dir, struct strvec *out)
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
			char *probes;

			if (e->d_name[0] == '.')
				continue;
			probes = xasprintf("%s/%s/probes", sub_path, e->d_name);
			if (!access(probes, R_OK))
				strvec_push(out, probes);
			free(probes);
		}
		if (sub)
			closedir(sub);
		free(sub_path);
	}
	if (top)
		closedir(top);
	free(top_path);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int probe_sdt_resolve(const char *spec, const char *exec, struct probe_plan *plan,
		      const struct probe_dwarf_opts *po)
{
	const char *text = spec + (spec[0] == '%');
	const char *colon = strchr(text, ':');
	char *group = xstrndup(text, (size_t)(colon - text));
	const char *event = colon + 1;
	char *on = xasprintf("%%%s", event);
	char *dir = buildid_dir(NULL);
	struct strvec files = STRVEC_INIT;
	size_t first = plan->nr_items;
	int err = 0;

	probes_files(dir, &files);
	/* in build-id order, as perf visits the cache */
	if (files.nr > 1)
		qsort(files.v, files.nr, sizeof(*files.v), cmp_str);
	for (size_t f = 0; f < files.nr && !err; f++) {
		struct strbuf body = STRBUF_INIT;
		struct strvec lines = STRVEC_INIT;
		char *last_event = NULL, *name = NULL;

		if (strbuf_read_file(&body, files.v[f], 4096) < 0) {
			strbuf_release(&body);
			continue;
		}
		strvec_split(&lines, body.buf, "\n");
		for (size_t i = 0; i < lines.nr && !err; i++) {
			struct sdt_line sl;
			struct probe_plan_item *it;

			if (parse_line(&sl, lines.v[i]))
				continue;
			if (fnmatch(group, sl.group, 0) || fnmatch(event, sl.event, 0) ||
			    (exec && strcmp(exec, sl.path))) {
				for (size_t j = 0; j < sl.nr_args; j++) {
					free(sl.args[j].name);
					free(sl.args[j].expr);
					free(sl.args[j].type);
				}
				free(sl.args);
				free(sl.group);
				free(sl.event);
				free(sl.path);
				continue;
			}
			/* the sites of one event share its name; clashes get "_N" as in perf */
			if (!last_event || strcmp(last_event, sl.event)) {
				free(name);
				name = NULL;
				err = po->name_event(plan, sl.group, sl.event, true, &name);
				free(last_event);
				last_event = xstrdup(sl.event);
			}
			if (!err) {
				it = probe_plan_add(plan, sl.group, xstrdup(name), on);
				it->def.path = sl.path;
				it->def.offset = sl.offset;
				it->def.ref_ctr_offset = sl.ref;
				it->def.args = sl.args;
				it->def.nr_args = sl.nr_args;
			}
			sdt_made.v = xrealloc(sdt_made.v, (sdt_made.count + 1) * sizeof(*sdt_made.v));
			sdt_made.nr = xrealloc(sdt_made.nr, (sdt_made.count + 1) * sizeof(*sdt_made.nr));
			sdt_made.v[sdt_made.count] = sl.args;
			sdt_made.nr[sdt_made.count++] = sl.nr_args;
			sdt_made.paths = xrealloc(sdt_made.paths,
						  (sdt_made.nr_paths + 1) * sizeof(*sdt_made.paths));
			sdt_made.paths[sdt_made.nr_paths++] = sl.path;
			free(sl.group);
			free(sl.event);
		}
		free(name);
		free(last_event);
		strvec_clear(&lines);
		strbuf_release(&body);
	}
	if (!err && plan->nr_items == first)
		err = -ENOENT; /* perf says nothing more than "Failed to add events" */
	strvec_clear(&files);
	free(dir);
	free(on);
	free(group);
	return err;
}
