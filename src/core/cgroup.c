/* SPDX-License-Identifier: MIT */
/* cgroup mount discovery and directory fds for perf_event_open's PERF_FLAG_PID_CGROUP. */
#include "core/cgroup.h"

#include <errno.h>
#include <fcntl.h>
#include <mntent.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int cgroup_mountpoint(char *buf, size_t len)
{
	FILE *f = setmntent("/proc/mounts", "r");
	struct mntent *m;
	char v2[4096] = "";

	if (!f)
		return -errno;
	while ((m = getmntent(f))) {
		if (!strcmp(m->mnt_type, "cgroup") && hasmntopt(m, "perf_event")) {
			snprintf(buf, len, "%s", m->mnt_dir);
			endmntent(f);
			return 0;
		}
		if (!strcmp(m->mnt_type, "cgroup2") && !v2[0])
			snprintf(v2, sizeof(v2), "%s", m->mnt_dir);
	}
	endmntent(f);
	if (!v2[0])
		return -ENOENT;
	snprintf(buf, len, "%s", v2);
	return 0;
}

int cgroup_open(const char *name, char *path, size_t len)
{
	char mnt[4096], full[8192];
	int err = cgroup_mountpoint(mnt, sizeof(mnt)), fd;

	if (err)
		return err;
	/* perf joins "<mount>/<name>", so "/" is the root and "a/b" a child */
	snprintf(full, sizeof(full), "%s/%s", mnt, name[0] == '/' ? name + 1 : name);
	if (full[strlen(full) - 1] == '/')
		full[strlen(full) - 1] = 0;
	if (path)
		snprintf(path, len, "%s/%s", mnt, name);
	fd = open(full, O_RDONLY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}
