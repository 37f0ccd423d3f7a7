/* SPDX-License-Identifier: MIT */
/* sonde archive: a tarball of the build-id cache entries of the DSOs a perf.data's samples hit, for another machine. */
#include "builtin.h"
#include "cmd/open.h"
#include "data/reader.h"
#include "lib/strvec.h"
#include "lib/xalloc.h"
#include "session/machine.h"
#include "session/session.h"
#include "symbol/elf.h"
#include "ui/header.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static bool entry_hit(struct machine *m, const struct build_id_entry *e)
{
	for (struct dso *d = m->dsos; d; d = d->next)
		if (d->is_hit && !strcmp(d->long_name, e->filename))
			return true;
	return false;
}

/* run tar with @args; returns its exit status (or 255) */
static int run_tar(struct strvec *args)
{
	pid_t pid = fork();
	int status;

	if (pid < 0)
		return 255;
	if (pid == 0) {
		execvp("tar", args->v);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
		return 255;
	return WEXITSTATUS(status);
}

int cmd_archive(int argc, const char **argv)
{
	const char *input = argc > 1 ? argv[1] : "perf.data";
	struct machine_opts mopts = { .no_symbols = true };
	struct tool tool = { .sample = session_mark_hit, .ordered = true };
	struct data_error err = { 0 };
	const struct perf_header *h;
	struct strvec args = STRVEC_INIT;
	struct data_reader *r;
	struct session *session;
	char cache[PATH_MAX], out[PATH_MAX * 2], cwd[PATH_MAX];
	const char *home = getenv("HOME"), *dir = getenv("PERF_BUILDID_DIR");
	int nr = 0, ret = 0;

	if (argc > 2) {
		fprintf(stderr, "Usage: perf archive [perf.data]\n");
		return 1;
	}
	r = data_open_for_read(input, false);
	if (!r)
		return 255;
	session = session_new(r, &mopts);
	h = data_reader_header(r);
	if (session_process(session, &tool, &err) < 0) {
		data_error_print(input, &err);
		session_free(session);
		return 255;
	}
	if (dir && *dir)
		snprintf(cache, sizeof(cache), "%s", dir);
	else
		snprintf(cache, sizeof(cache), "%s/.debug", home ? home : "");
	if (input[0] == '/' || !getcwd(cwd, sizeof(cwd)))
		snprintf(out, sizeof(out), "%s.tar.bz2", input);
	else
		snprintf(out, sizeof(out), "%s/%s.tar.bz2", cwd, input);
	strvec_push(&args, "tar");
	strvec_push(&args, "cjf");
	strvec_push(&args, out);
	strvec_push(&args, "-C");
	strvec_push(&args, cache);
	for (int i = 0; i < h->nr_build_ids; i++) {
		const struct build_id_entry *e = &h->build_ids[i];
		char hex[2 * BUILD_ID_SIZE + 1], rel[PATH_MAX], path[PATH_MAX * 2];
		const char *name = e->filename;
		struct stat st;
		bool dup = false;

		if (!entry_hit(&session->machine, e))
			continue;
		buildid_to_hex(e->build_id, e->size, hex);
		for (int j = 0; j < i; j++)
			dup |= !memcmp(h->build_ids[j].build_id, e->build_id, e->size) &&
			       !strcmp(h->build_ids[j].filename, name);
		if (dup)
			continue;
		/* the .build-id link and the directory it points to, as the cache lays them out */
		snprintf(rel, sizeof(rel), ".build-id/%.2s/%s", hex, hex + 2);
		snprintf(path, sizeof(path), "%s/%s", cache, rel);
		if (!lstat(path, &st)) {
			strvec_push(&args, rel);
			nr++;
		}
		while (*name == '/')
			name++;
		snprintf(rel, sizeof(rel), "%s/%s", name, hex);
		snprintf(path, sizeof(path), "%s/%s", cache, rel);
		if (!stat(path, &st) && S_ISDIR(st.st_mode)) {
			strvec_push(&args, rel);
			nr++;
		}
	}
	session_free(session);
	if (!nr) {
		fprintf(stderr, "perf archive: no build-ids found\n");
		strvec_clear(&args);
		return 1;
	}
	ret = run_tar(&args);
	strvec_clear(&args);
	/* tar's 1 is "a file changed as we read it" (a cache another process writes): kept */
	if (ret > 1) {
		fprintf(stderr, "perf archive: tar failed (exit %d)\n", ret);
		return ret;
	}
	printf("Now please run:\n\n$ tar xvf %s.tar.bz2 -C ~/.debug\n\nwherever you need to run 'perf report' on.\n",
	       input);
	return 0;
}
