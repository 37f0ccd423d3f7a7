/* SPDX-License-Identifier: MIT */
/* sonde record: the output side: perf.data writer set-up, synthesis, build-ids, messages, switching. */
#include "cmd/record.h"
#include "core/cpumap.h"
#include "core/threadmap.h"
#include "data/synthesize.h"
#include "data/tracing-data.h"
#include "data/writer.h"
#include "lib/debug.h"
#include "lib/optspec.h"
#include "lib/strbuf.h"
#include "lib/strvec.h"
#include "lib/xalloc.h"
#include "symbol/elf.h"
#include "symbol/kcore.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static void add_attrs(struct record *rec)
{
	struct evlist *evlist = rec->evlist;
	struct evsel *evsel;
	int nr = evlist->cpus->nr * evlist->threads->nr;

	evlist_for_each_entry(evlist, evsel) {
		u64 *ids = xcalloc(nr ? nr : 1, sizeof(u64));
		u32 n = 0;

		for (int i = 0; i < nr; i++)
			if (evsel->fd && evsel->fd[i] >= 0)
				ids[n++] = evsel->ids[i];
		data_writer_add_attr(rec->w, &evsel->attr, ids, n, evsel->name);
		free(ids);
		if (evsel_is_group_leader(evsel) && evsel->nr_members > 1)
			data_writer_add_group(rec->w, evsel->group_name, evsel->idx,
					      evsel->nr_members);
	}
}

static int add_tracing_data(struct record *rec)
{
	struct evsel *evsel;
	struct strbuf blob = STRBUF_INIT;
	struct strvec names = STRVEC_INIT;
	int err;

	evlist_for_each_entry(rec->evlist, evsel) {
		if (evsel->attr.type != PERF_TYPE_TRACEPOINT || !evsel->name)
			continue;
		/* "sys:event", without any modifier after a second colon */
		const char *c = strchr(evsel->name, ':');
		const char *c2 = c ? strchr(c + 1, ':') : NULL;

		if (c2)
			strvec_pushf(&names, "%.*s", (int)(c2 - evsel->name), evsel->name);
		else
			strvec_push(&names, evsel->name);
	}
	if (!names.nr)
		return 0;
	err = tracing_data_build(&blob, (const char *const *)names.v, (int)names.nr);
	if (!err)
		data_writer_set_tracing_data(rec->w, blob.buf, blob.len);
	strbuf_release(&blob);
	strvec_clear(&names);
	return err;
}

/* perf keeps the previous non-empty output as <path>.old */
static void backup_output(const char *path)
{
	struct stat st;
	char *old;

	if (stat(path, &st) || !S_ISREG(st.st_mode) || !st.st_size)
		return;
	old = xasprintf("%s.old", path);
	rename(path, old);
	free(old);
}

/*
 * remove an old record --kcore directory: its data file(s) and kcore_dir's
 * three files; anything else in it makes the rmdir fail (kept, never guessed at)
 */
static int remove_kcore_output(const char *dir)
{
	static const char *const kept[] = { "kcore_dir/kcore", "kcore_dir/kallsyms", "kcore_dir/modules",
					    "kcore_dir", "data" };
	char *p;
	int err = 0;

	for (size_t i = 0; i < sizeof(kept) / sizeof(kept[0]); i++) {
		p = xasprintf("%s/%s", dir, kept[i]);
		if (i == 3 ? rmdir(p) : unlink(p))
			err = errno == ENOENT ? err : -errno;
		free(p);
	}
	if (rmdir(dir))
		err = -errno;
	return err;
}

int record_make_kcore_dir(struct record *rec)
{
	const char *src = getenv("SONDE_KCORE_SOURCE"), *dir = rec->path;
	char *kcore, *kallsyms, *modules, *kdir;
	struct stat st;
	int err;

	/* an empty directory goes; anything else there is kept as <path>.old */
	if (!lstat(dir, &st) && !(S_ISDIR(st.st_mode) && !rmdir(dir))) {
		char *old = xasprintf("%s.old", dir);

		if (!lstat(old, &st) && S_ISDIR(st.st_mode))
			remove_kcore_output(old);
		if (rename(dir, old) && errno != ENOENT) {
			fprintf(stderr, "failed to move %s out of the way (to %s): %s\n", dir, old,
				strerror(errno));
			free(old);
			return -EEXIST;
		}
		free(old);
	}
	if (mkdir(dir, 0700) && errno != EEXIST) {
		err = -errno;
		fprintf(stderr, "failed to create directory %s: %s\n", dir, strerror(errno));
		return err;
	}
	if (src) {
		kcore = xasprintf("%s/kcore", src);
		kallsyms = xasprintf("%s/kallsyms", src);
		modules = xasprintf("%s/modules", src);
	} else {
		kcore = xstrdup("/proc/kcore");
		kallsyms = xstrdup("/proc/kallsyms");
		modules = xstrdup("/proc/modules");
	}
	kdir = xasprintf("%s/kcore_dir", dir);
	err = kcore_copy(kcore, kallsyms, modules, kdir);
	if (err)
		fprintf(stderr, "Failed to copy kcore (%s into %s): %s\n", kcore, kdir,
			err == -ENOEXEC ? "not a kcore, or no _stext/_etext in its kallsyms"
			: err == -ERANGE ? "no segment holds the kernel text" : strerror(-err));
	free(kcore);
	free(kallsyms);
	free(modules);
	free(kdir);
	if (err)
		return err;
	rec->kcore_dir_path = xstrdup(dir);
	rec->path = xasprintf("%s/data", dir);
	return 0;
}

int record_open_writer(struct record *rec, const char *path)
{
	struct data_writer_opts wo = { 0 };
	int err = 0;

	if (!rec->is_pipe)
		backup_output(path);
	wo.comp_level = rec->comp_level;
	wo.comp_mmap_len = (u32)((rec->mmap_pages + 1) * page_size);
	rec->w = data_writer_open(path, &wo, &err);
	if (!rec->w)
		return err;
	add_attrs(rec);
	{
		/* CMDLINE is "<path of the binary> record <args>": argv[0] gets replaced by the writer */
		const char **argv = xcalloc(rec->orig_argc + 2, sizeof(*argv));

		argv[0] = prog_name;
		memcpy(argv + 1, rec->orig_argv, rec->orig_argc * sizeof(*argv));
		data_writer_set_live_features(rec->w, rec->orig_argc + 1, argv, NULL);
		free(argv);
	}
	if (rec->opts.use_clockid) {
		struct timespec res, now, wall;

		clock_getres(rec->opts.clockid, &res);
		data_writer_set_clockid(rec->w, res.tv_sec * NSEC_PER_SEC + res.tv_nsec);
		clock_gettime(CLOCK_REALTIME, &wall);
		clock_gettime(rec->opts.clockid, &now);
		data_writer_set_clock_data(rec->w, rec->opts.clockid,
					   wall.tv_sec * NSEC_PER_SEC + wall.tv_nsec,
					   now.tv_sec * NSEC_PER_SEC + now.tv_nsec);
	}
	err = add_tracing_data(rec);
	if (err)
		pr_debug("tracing data: %s\n", strerror(-err));
	return data_writer_start(rec->w);
}

/* the records a report needs before the samples, in perf's order */
int record_write_preamble(struct record *rec, bool tail)
{
	struct evlist *evlist = rec->evlist;
	struct target *t = &rec->opts.target;
	struct synth s;
	int err;

	synth_init(&s, recorder_write_synth, &rec->recorder, record_id_hdr_size(evlist), NULL);
	s.mmap_data = rec->opts.sample_address;
	s.buildid_mmap = rec->opts.build_id;
	s.namespaces = rec->opts.record_namespaces;
	if (!tail) {
		err = synth_id_index(&s, evlist, evlist->cpus, evlist->threads);
		if (err)
			goto out;
	}
	err = synth_kernel_mmap(&s);
	if (err == -ENOENT)
		err = 0; /* kallsyms hidden: perf goes on without a kernel map */
	if (!err)
		err = synth_modules(&s);
	if (err)
		goto out;
	if (!tail) {
		if (rec->rings.nr)
			synth_time_conv(&s, rec->rings.rings[0].base);
		if ((err = synth_thread_map(&s, evlist->threads)) ||
		    (err = synth_cpu_map(&s, evlist->cpus)))
			goto out;
	}
	if (rec->opts.record_cgroup && (rec->synth & RECORD_SYNTH_CGROUP) &&
	    (err = synth_cgroups(&s, NULL)))
		goto out;
	if (!(rec->synth & RECORD_SYNTH_TASK)) {
		err = 0; /* --synth=no|cgroup: no task state from /proc */
	} else if (t->system_wide || t->cpu_list) {
		err = synth_all_tasks(&s, rec->synth & RECORD_SYNTH_MMAP);
	} else {
		/* -p/-t/-u targets: their tasks and maps as they are now */
		if (t->pid || t->tid || t->uid_str || evlist->workload.pid <= 0)
			err = synth_thread_map_tasks(&s, evlist->threads->pids, evlist->threads->nr,
						     rec->synth & RECORD_SYNTH_MMAP);
		/* the corked child: its COMM now, the exec's COMM and maps come from the kernel */
		if (!err && evlist->workload.pid > 0) {
			pid_t tgid;

			err = synth_comm(&s, evlist->workload.pid, &tgid);
			if (!err && s.namespaces)
				err = synth_namespaces(&s, tgid, evlist->workload.pid);
			if (err == -ESRCH)
				err = 0;
		}
	}
	if (!err && !tail)
		err = synth_header_only(&s, PERF_RECORD_FINISHED_INIT);
out:
	synth_release(&s);
	return err;
}

static void switch_suffix_now(char *buf, size_t len)
{
	struct timespec ts;
	struct tm tm;

	clock_gettime(CLOCK_REALTIME, &ts);
	localtime_r(&ts.tv_sec, &tm);
	/* perf's switch-output suffix: YYYYmmddHHMMSS + centiseconds */
	snprintf(buf, len, "%04d%02d%02d%02d%02d%02d%02d", tm.tm_year + 1900, tm.tm_mon + 1,
		 tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, (int)(ts.tv_nsec / 10000000) % 100);
}

/*
 * The size perf reports: where the data section ends (its file position
 * before the feature sections), read back from the finished header; 0 for
 * pipes and non-regular files, as perf's lseek gives there.
 */
u64 record_file_size(struct record *rec)
{
	struct stat st;
	u64 hdr[7];
	int fd;

	if (rec->is_pipe || stat(rec->path, &st) || !S_ISREG(st.st_mode))
		return 0;
	fd = open(rec->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	/* magic, size, attr_size, attrs{offset,size}, data{offset,size} */
	if (pread(fd, hdr, sizeof(hdr), 0) != (ssize_t)sizeof(hdr))
		hdr[5] = hdr[6] = 0;
	close(fd);
	return hdr[5] + hdr[6];
}

/* write the build-ids and times, close the file; returns 0 or -errno */
int record_seal_file(struct record *rec)
{
	struct recorder *r = &rec->recorder;

	if (!rec->is_pipe) {
		if (!rec->no_buildid) {
			/* the hit DSOs go to ~/.debug too, unless -N */
			char *cache = rec->no_buildid_cache ? NULL : buildid_dir(NULL);

			r->buildid_cache = cache;
			recorder_add_build_ids(r);
			r->buildid_cache = NULL;
			free(cache);
		}
		if (r->nr_samples)
			data_writer_set_sample_time(rec->w, r->first_time, r->last_time);
	}
	return data_writer_finish(rec->w);
}

void record_print_captured(struct record *rec, const char *path, u64 size, bool count)
{
	struct recorder *r = &rec->recorder;
	double mb = size / 1024.0 / 1024.0;

	if (rec->quiet)
		return;
	/* perf's build-id pass reads the file back and warns about LOST records */
	if (!rec->is_pipe && !rec->no_buildid && !rec->comp_level && size && r->nr_lost_records)
		fprintf(stderr, "Warning:\nProcessed %llu events and lost %llu chunks!\n\n"
			"Check IO/CPU overload!\n\n",
			(unsigned long long)r->nr_events, (unsigned long long)r->nr_lost_records);
	fprintf(stderr, "[ perf record: Captured and wrote %.3f MB %s", mb, path);
	if (rec->comp_level && data_writer_bytes(rec->w)) {
		/* perf's ratio: ring bytes in over compressed bytes out (synthesized records aside) */
		double orig = data_writer_uncompressed_bytes(rec->w);
		double comp = data_writer_bytes(rec->w) - rec->synth_bytes;

		fprintf(stderr, ", compressed (original %.3f MB, ratio is %.3f)",
			orig / 1024.0 / 1024.0, comp > 0 ? orig / comp : 0.0);
	} else if (count && !rec->is_pipe && !rec->no_buildid && r->nr_samples && size) {
		/* perf counts samples while reading the file back for build-ids */
		fprintf(stderr, " (%llu samples)", (unsigned long long)r->nr_samples);
	}
	fprintf(stderr, " ]\n");
}

/* --switch-max-files: remember @name; past the limit the oldest dump is deleted */
static void keep_dump(struct record *rec, const char *name)
{
	rec->kept_dumps = xrealloc(rec->kept_dumps,
				   (rec->nr_kept_dumps + 1) * sizeof(*rec->kept_dumps));
	rec->kept_dumps[rec->nr_kept_dumps++] = xstrdup(name);
	if (rec->nr_kept_dumps <= rec->switch_max_files)
		return;
	unlink(rec->kept_dumps[0]);
	free(rec->kept_dumps[0]);
	rec->nr_kept_dumps--;
	memmove(rec->kept_dumps, rec->kept_dumps + 1,
		rec->nr_kept_dumps * sizeof(*rec->kept_dumps));
}

/* --switch-output: close this file as <path>.<timestamp> and start a new one */
int record_rotate_file(struct record *rec, bool at_exit)
{
	char ts[80], *newname;
	u64 size;
	int err;

	err = record_seal_file(rec);
	size = record_file_size(rec);
	switch_suffix_now(ts, sizeof(ts));
	newname = xasprintf("%s.%s", rec->path, ts);
	if (!err && rename(rec->path, newname))
		err = -errno;
	if (!err && rec->switch_max_files > 0)
		keep_dump(rec, newname);
	if (!rec->quiet) {
		/* the wake-up count runs on across files, as perf's */
		if (!at_exit)
			fprintf(stderr, "[ perf record: dump data: Woken up %llu times ]\n",
				(unsigned long long)rec->nr_wakeups);
		fprintf(stderr, "[ perf record: Dump %s ]\n", newname);
	}
	if (at_exit) {
		char *shown = xasprintf("%s.<timestamp>", rec->path);

		/* perf counts samples only when it did not switch files */
		record_print_captured(rec, shown, size, !rec->switch_output);
		free(shown);
	}
	free(newname);
	data_writer_free(rec->w);
	rec->w = NULL;
	if (err || at_exit)
		return err;
	recorder_release(&rec->recorder);
	err = record_open_writer(rec, rec->path);
	if (err)
		return err;
	recorder_init(&rec->recorder, rec->w, &rec->rings, rec->evlist, !rec->no_buildid);
	rec->recorder.buildid_all = rec->buildid_all;
	return record_write_preamble(rec, false);
}
