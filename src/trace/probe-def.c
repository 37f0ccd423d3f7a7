/* SPDX-License-Identifier: MIT */
/* k/uprobe_events definition lines: built from resolved probes, read back, appended and removed. */
#include "trace/probe-spec.h"

#include "lib/strbuf.h"
#include "lib/strvec.h"
#include "lib/util.h"
#include "lib/xalloc.h"
#include "trace/tracefs.h"

#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int probe_def_format(struct strbuf *out, const struct probe_def *def, bool for_write)
{
	strbuf_addf(out, "%c:%s/%s ", def->is_return ? 'r' : 'p', def->group, def->event);
	if (def->is_kernel)
		strbuf_addf(out, "%s+%" PRIu64, def->symbol, def->offset);
	else if (for_write)
		strbuf_addf(out, "%s:0x%016" PRIx64, def->path, def->offset);
	else
		strbuf_addf(out, "%s:0x%" PRIx64, def->path, def->offset);
	/* the kernel counts the semaphore at the reference counter offset */
	if (!def->is_kernel && def->ref_ctr_offset)
		strbuf_addf(out, "(0x%" PRIx64 ")", def->ref_ctr_offset);
	for (size_t i = 0; i < def->nr_args; i++) {
		const struct probe_arg *a = &def->args[i];

		if (!for_write && !a->is_resolved) {
			strbuf_addf(out, " %s", a->text);
			continue;
		}
		if (a->name)
			strbuf_addf(out, " %s=%s", a->name, a->expr);
		else
			strbuf_addf(out, " arg%zu=%s", i + 1, a->expr);
		if (a->type)
			strbuf_addf(out, ":%s", a->type);
	}
	return 0;
}

int probe_events_path(struct strbuf *out, const char *file)
{
	const char *root = tracefs_root();

	if (!root)
		return -ENOENT;
	strbuf_addf(out, "%s/%s", root, file);
	return 0;
}

/* one line: "p:GROUP/EVENT TARGET [NAME=VALUE ...]" */
static int parse_event_line(struct probe_event *ev, const char *line)
{
	struct strvec w = STRVEC_INIT;
	const char *slash, *colon;
	int ret = -EINVAL;

	memset(ev, 0, sizeof(*ev));
	strvec_split(&w, line, " \t");
	if (w.nr < 2 || (w.v[0][0] != 'p' && w.v[0][0] != 'r'))
		goto out;
	colon = strchr(w.v[0], ':');
	slash = colon ? strchr(colon, '/') : NULL;
	if (!slash)
		goto out;
	ev->kind = w.v[0][0];
	ev->group = xstrndup(colon + 1, (size_t)(slash - colon - 1));
	ev->event = xstrdup(slash + 1);
	ev->target = xstrdup(w.v[1]);
	if (w.v[1][0] == '/') {
		const char *c = strrchr(w.v[1], ':');

		if (c) {
			char *end;

			ev->path = xstrndup(w.v[1], (size_t)(c - w.v[1]));
			ev->offset = strtoull(c + 1, &end, 0);
			/* a ref_ctr_offset "(0x...)" may follow */
		}
	}
	if (w.nr > 2) {
		ev->nr_args = w.nr - 2;
		ev->arg_names = xcalloc(ev->nr_args, sizeof(*ev->arg_names));
		for (size_t i = 0; i < ev->nr_args; i++) {
			const char *a = w.v[i + 2];
			const char *eq = strchr(a, '=');

			ev->arg_names[i] = eq ? xstrndup(a, (size_t)(eq - a)) : xstrdup(a);
		}
	}
	ret = 0;
out:
	strvec_clear(&w);
	return ret;
}

int probe_events_read(const char *file, struct probe_event **evs)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	struct strvec lines = STRVEC_INIT;
	struct probe_event *v = NULL;
	size_t nr = 0;
	int ret;

	*evs = NULL;
	ret = probe_events_path(&path, file);
	if (ret)
		goto out;
	{
		long n = strbuf_read_file(&text, path.buf, 4096);

		if (n < 0) {
			ret = (int)n;
			goto out;
		}
	}
	strvec_split(&lines, text.buf, "\n");
	v = xcalloc(lines.nr ? lines.nr : 1, sizeof(*v));
	for (size_t i = 0; i < lines.nr; i++)
		if (!parse_event_line(&v[nr], lines.v[i])) {
			v[nr].index = nr;
			nr++;
		}
	*evs = v;
	ret = (int)nr;
out:
	strvec_clear(&lines);
	strbuf_release(&text);
	strbuf_release(&path);
	return ret;
}

void probe_events_free(struct probe_event *evs, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		free(evs[i].group);
		free(evs[i].event);
		free(evs[i].target);
		free(evs[i].path);
		for (size_t j = 0; j < evs[i].nr_args; j++)
			free(evs[i].arg_names[j]);
		free(evs[i].arg_names);
	}
	free(evs);
}

static int write_line(const char *file, const char *line)
{
	struct strbuf path = STRBUF_INIT;
	int fd, ret;

	ret = probe_events_path(&path, file);
	if (ret)
		goto out;
	fd = open(path.buf, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		goto out;
	}
	{
		char *nl = xasprintf("%s\n", line);

		ret = write_full(fd, nl, strlen(nl));
		free(nl);
	}
	if (close(fd) && !ret)
		ret = -errno;
out:
	strbuf_release(&path);
	return ret;
}

int probe_events_open_check(const char *file)
{
	struct strbuf path = STRBUF_INIT;
	int fd, ret;

	ret = probe_events_path(&path, file);
	if (!ret) {
		fd = open(path.buf, O_WRONLY | O_APPEND | O_CLOEXEC);
		if (fd < 0)
			ret = -errno;
		else
			close(fd);
	}
	strbuf_release(&path);
	return ret;
}

int probe_events_append(const char *file, const char *line)
{
	return write_line(file, line);
}

int probe_events_remove(const char *file, const char *group, const char *event)
{
	char *line = xasprintf("-:%s/%s", group, event);
	int ret = write_line(file, line);

	free(line);
	return ret;
}

bool probe_event_matches(const struct probe_event *ev, const char *filter)
{
	const char *colon;
	char *group;
	bool hit;

	if (!filter)
		return true;
	colon = strchr(filter, ':');
	if (!colon) {
		char *full = xasprintf("%s:%s", ev->group, ev->event);

		hit = !fnmatch(filter, ev->event, 0) || !fnmatch(filter, full, 0);
		free(full);
		return hit;
	}
	group = xstrndup(filter, (size_t)(colon - filter));
	hit = !fnmatch(group, ev->group, 0) && !fnmatch(colon + 1, ev->event, 0);
	free(group);
	return hit;
}
