/* SPDX-License-Identifier: MIT */
/* tracefs discovery (and mounting, like perf), tracepoint listing and ids. */
#include "trace/tracefs.h"
#include "lib/strbuf.h"
#include "lib/strvec.h"
#include "lib/util.h"
#include "lib/xalloc.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

/* tracefs with events/ at @root; a root we may not enter counts (errors say so later) */
static bool has_events(const char *root)
{
	struct strbuf sb = STRBUF_INIT;
	struct stat st;
	bool ok;

	strbuf_addf(&sb, "%s/events", root);
	ok = !stat(sb.buf, &st) ? S_ISDIR(st.st_mode) : errno == EACCES;
	strbuf_release(&sb);
	return ok;
}

const char *tracefs_root(void)
{
	static const char *const roots[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	const char *env = getenv("SONDE_TRACEFS");

	if (env && *env)
		return has_events(env) ? env : NULL;
	for (size_t i = 0; i < 2; i++)
		if (has_events(roots[i]))
			return roots[i];
	/* present but not mounted: mount it, as perf does when run as root */
	if (geteuid() == 0 && !access(roots[0], F_OK) &&
	    !mount("nodev", roots[0], "tracefs", 0, NULL) && has_events(roots[0]))
		return roots[0];
	return NULL;
}

const char *tracefs_events_dir(void)
{
	static char buf[256];
	const char *root = tracefs_root();

	snprintf(buf, sizeof(buf), "%s/events", root ? root : "/sys/kernel/tracing");
	return buf;
}

bool tracefs_is_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool is_dir_with(const char *dir, const char *name, const char *file)
{
	struct strbuf sb = STRBUF_INIT;
	struct stat st;
	bool ok;

	strbuf_addf(&sb, "%s/%s", dir, name);
	if (file)
		strbuf_addf(&sb, "/%s", file);
	ok = !stat(sb.buf, &st) && (file ? true : S_ISDIR(st.st_mode));
	strbuf_release(&sb);
	return ok;
}

static int list_dir(const char *path, struct strvec *out, bool sorted, const char *need)
{
	DIR *dir = opendir(path);
	struct dirent *d;
	size_t start = out->nr;

	if (!dir)
		return -errno;
	while ((d = readdir(dir))) {
		if (d->d_name[0] == '.')
			continue;
		if (d->d_type != DT_DIR && d->d_type != DT_UNKNOWN)
			continue;
		if (!is_dir_with(path, d->d_name, need))
			continue;
		strvec_push(out, d->d_name);
	}
	closedir(dir);
	if (sorted)
		qsort(out->v + start, out->nr - start, sizeof(char *), cmp_str);
	return 0;
}

int tracefs_list_systems(struct strvec *out, bool sorted)
{
	if (!tracefs_root())
		return -ENOENT;
	return list_dir(tracefs_events_dir(), out, sorted, NULL);
}

int tracefs_list_events(const char *sys, struct strvec *out, bool sorted)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	if (!tracefs_root())
		return -ENOENT;
	if (!*sys || strchr(sys, '/') || !strcmp(sys, "..") || !strcmp(sys, "."))
		return -ENOENT;
	strbuf_addf(&sb, "%s/%s", tracefs_events_dir(), sys);
	ret = list_dir(sb.buf, out, sorted, "id");
	strbuf_release(&sb);
	return ret;
}

int tracefs_event_id(const char *sys, const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	long long id;
	int ret;

	if (!*sys || !*name || strchr(sys, '/') || strchr(name, '/') || !strcmp(sys, "..") ||
	    !strcmp(name, ".."))
		return -ENOENT;
	strbuf_addf(&sb, "%s/%s/%s/id", tracefs_events_dir(), sys, name);
	ret = read_sysfs_int(sb.buf, &id);
	strbuf_release(&sb);
	if (ret)
		return ret;
	if (id < 0 || id > 0x7fffffff)
		return -EINVAL;
	return (int)id;
}

char *tracefs_id_to_name(int id)
{
	struct strvec systems = STRVEC_INIT;
	char *found = NULL;

	if (tracefs_list_systems(&systems, false))
		return NULL;
	for (size_t i = 0; i < systems.nr && !found; i++) {
		struct strvec events = STRVEC_INIT;

		tracefs_list_events(systems.v[i], &events, false);
		for (size_t j = 0; j < events.nr; j++) {
			if (tracefs_event_id(systems.v[i], events.v[j]) == id) {
				found = xasprintf("%s:%s", systems.v[i], events.v[j]);
				break;
			}
		}
		strvec_clear(&events);
	}
	strvec_clear(&systems);
	return found;
}
