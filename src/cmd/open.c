/* SPDX-License-Identifier: MIT */
/* The checked perf.data opener of the reading commands (report, script, evlist, ...). */
#include "cmd/open.h"
#include "lib/debug.h"
#include "ui/header.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* the one warning about a damaged (truncated) file: what is lost, where */
static void warn_damage(void *arg, u64 off, const char *what)
{
	if (!quiet)
		fprintf(stderr, "WARNING: %s: damaged perf.data at offset 0x%" PRIx64 ": %s\n",
			(const char *)arg, off, what);
}

struct data_reader *data_open_for_read(const char *path, bool force)
{
	struct data_reader *r;
	struct data_error err = { 0 };
	struct stat st;

	if (!path || !*path) {
		if (!fstat(0, &st) && S_ISFIFO(st.st_mode))
			path = "-";
		else
			path = "perf.data";
	}
	if (strcmp(path, "-")) {
		if (stat(path, &st) < 0) {
			int e = errno;

			fprintf(stderr, "failed to open %s: %s%s\n", path, strerror(e),
				e == ENOENT && !strcmp(path, "perf.data") ?
					"  (try 'perf record' first)" : "");
			return NULL;
		}
		if (!force && st.st_uid && st.st_uid != geteuid()) {
			fprintf(stderr, "File %s not owned by current user or root (use -f to override)\n",
				path);
			return NULL;
		}
		if (S_ISREG(st.st_mode) && st.st_size == 0) {
			fprintf(stderr, "zero-sized data (%s), nothing to do!\n", path);
			return NULL;
		}
	}
	r = data_reader_open(path, &err);
	if (!r) {
		if (err.errnum && err.errnum != EINVAL) {
			fprintf(stderr, "failed to open %s: %s\n", path, strerror(err.errnum));
			return NULL;
		}
		data_error_print(path, &err);
		fprintf(stderr, "incompatible file format (rerun with -v to learn more)\n");
		return NULL;
	}
	if (data_reader_data_size_was_zero(r) && !quiet)
		fprintf(stderr,
			"WARNING: The %s file's data size field is 0 which is unexpected.\n"
			"Was the 'perf record' command properly terminated?\n",
			path);
	data_reader_on_damage(r, warn_damage, (void *)data_reader_path(r));
	return r;
}

const char *data_kcore_dir(struct data_reader *r, char *buf, size_t size)
{
	struct stat st;

	if (!data_reader_is_dir(r))
		return NULL;
	snprintf(buf, size, "%s/kcore_dir", data_reader_path(r));
	return !stat(buf, &st) && S_ISDIR(st.st_mode) ? buf : NULL;
}
