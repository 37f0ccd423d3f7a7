/* SPDX-License-Identifier: MIT */
/* sonde bench internals inject-build-id: times `inject -b` and `--buildid-all` on a synthesized pipe, in perf bench's layout. */
#include "cmd/bench.h"
#include "builtin.h"
#include "data/writer.h"
#include "lib/debug.h"
#include "lib/optspec.h"
#include "lib/util.h"
#include "lib/xalloc.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <linux/perf_event.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

/* a loaded object with a build-id: the file and its executable segment */
struct bench_dso {
	char *path;
	u64 start, len, pgoff;
};

struct dso_list {
	struct bench_dso *v;
	size_t nr, alloc;
};

/* has_build_id - @info's object carries a GNU build-id note */
static bool has_build_id(const struct dl_phdr_info *info)
{
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		const char *p, *end;

		if (ph->p_type != PT_NOTE)
			continue;
		p = (const char *)(info->dlpi_addr + ph->p_vaddr);
		end = p + ph->p_memsz;
		while (p + sizeof(ElfW(Nhdr)) <= end) {
			const ElfW(Nhdr) *n = (const ElfW(Nhdr) *)p;
			size_t name_sz = (n->n_namesz + 3) & ~3u, desc_sz = (n->n_descsz + 3) & ~3u;

			if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 &&
			    !memcmp(p + sizeof(*n), "GNU", 4))
				return true;
			p += sizeof(*n) + name_sz + desc_sz;
		}
	}
	return false;
}

static int collect_dso(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct dso_list *l = arg;

	(void)size;
	/* the main program and the vdso have no usable path here */
	if (!info->dlpi_name || info->dlpi_name[0] != '/' || !has_build_id(info))
		return 0;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		struct bench_dso *d;

		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
			continue;
		l->v = xgrow(l->v, l->nr + 1, &l->alloc, sizeof(*l->v));
		d = &l->v[l->nr++];
		d->path = xstrdup(info->dlpi_name);
		d->start = (info->dlpi_addr + ph->p_vaddr) & ~(u64)4095;
		d->pgoff = ph->p_offset & ~(u64)4095;
		d->len = ((info->dlpi_addr + ph->p_vaddr + ph->p_memsz + 4095) & ~(u64)4095) - d->start;
		break;
	}
	return 0;
}

/* the synthesized stream: per mmap a COMM, an MMAP2 and @nr_samples samples in the mapping */
static int write_stream(int fd, const struct dso_list *dsos, unsigned int nr_mmaps,
			unsigned int nr_samples, u64 *nr_events)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = 1,
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID,
	};
	struct data_writer *w = data_writer_open_fd(fd, true, NULL);
	union {
		union perf_event ev;
		char buf[4096 + 256];
	} u;
	u64 seed = 1;
	int err;

	if (!w)
		return -ENOMEM;
	data_writer_add_attr(w, &attr, NULL, 0, "cpu-clock");
	err = data_writer_start(w);
	for (unsigned int i = 0; !err && i < nr_mmaps; i++) {
		const struct bench_dso *d = &dsos->v[i % dsos->nr];
		u32 pid = 1000 + i;
		size_t plen = strlen(d->path) + 1;

		memset(&u, 0, sizeof(u));
		u.ev.header.type = PERF_RECORD_COMM;
		u.ev.header.size = sizeof(u.ev.header) + 8 + 16;
		u.ev.comm.pid = u.ev.comm.tid = pid;
		snprintf(u.ev.comm.comm, 16, "bench-%u", i % 100000);
		err = data_writer_write_event(w, &u.ev);
		if (err)
			break;
		memset(&u, 0, sizeof(u));
		u.ev.header.type = PERF_RECORD_MMAP2;
		u.ev.header.misc = PERF_RECORD_MISC_USER;
		u.ev.header.size = (u16)((offsetof(struct perf_record_mmap2, filename) + plen + 7) & ~7u);
		u.ev.mmap2.pid = u.ev.mmap2.tid = pid;
		u.ev.mmap2.start = d->start;
		u.ev.mmap2.len = d->len;
		u.ev.mmap2.pgoff = d->pgoff;
		u.ev.mmap2.prot = 5; /* r-x */
		u.ev.mmap2.flags = 2; /* MAP_PRIVATE */
		memcpy(u.ev.mmap2.filename, d->path, plen);
		err = data_writer_write_event(w, &u.ev);
		*nr_events += 2;
		for (unsigned int s = 0; !err && s < nr_samples; s++) {
			struct {
				struct perf_event_header h;
				u64 ip;
				u32 pid, tid;
			} smp = { { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, sizeof(smp) }, 0, pid, pid };

			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			smp.ip = d->start + (seed >> 33) % d->len;
			err = data_writer_write(w, &smp, sizeof(smp));
			++*nr_events;
		}
	}
	if (!err)
		err = data_writer_finish(w);
	data_writer_free(w);
	return err;
}

/* one run: inject in a child reading the pipe; its time (ms) and peak memory (KB) */
static int run_once(const struct dso_list *dsos, unsigned int nr_mmaps, unsigned int nr_samples,
		    bool all, double *ms, double *kb, u64 *nr_events)
{
	const char *argv_b[] = { "inject", "-b", "-i", "-", "-o", "/dev/null", NULL };
	const char *argv_all[] = { "inject", "--buildid-all", "-i", "-", "-o", "/dev/null", NULL };
	struct timeval t0, t1;
	struct rusage ru;
	int fds[2], status, err;
	pid_t pid;

	if (pipe(fds))
		return -errno;
	fflush(stdout);
	fflush(stderr);
	gettimeofday(&t0, NULL);
	pid = fork();
	if (pid < 0) {
		err = -errno;
		close(fds[0]);
		close(fds[1]);
		return err;
	}
	if (!pid) {
		const char **argv = all ? argv_all : argv_b;

		close(fds[1]);
		if (dup2(fds[0], 0) < 0)
			_exit(255);
		close(fds[0]);
		_exit(cmd_inject(6, argv) & 255);
	}
	close(fds[0]);
	err = write_stream(fds[1], dsos, nr_mmaps, nr_samples, nr_events);
	close(fds[1]);
	if (wait4(pid, &status, 0, &ru) < 0)
		return -errno;
	gettimeofday(&t1, NULL);
	if (verbose)
		printf("   Child %d exited with %d\n", (int)pid,
		       WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	if (err)
		return err;
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return -ECHILD;
	*ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_usec - t0.tv_usec) / 1e3;
	*kb = (double)ru.ru_maxrss;
	return 0;
}

static int run_series(const struct dso_list *dsos, unsigned int iterations, unsigned int nr_mmaps,
		      unsigned int nr_samples, bool all)
{
	const char *what = all ? "build-id-all" : "build-id";
	struct bench_stats took = { 0 }, mem = { 0 };
	u64 nr_events = 0;

	if (verbose)
		printf("  %s injection benchmark\n", all ? "Build-id-all" : "Build-id");
	for (unsigned int i = 0; i < iterations; i++) {
		double ms = 0, kb = 0;
		int err;

		if (verbose)
			printf("  Iteration #%u\n", i + 1);
		nr_events = 0;
		err = run_once(dsos, nr_mmaps, nr_samples, all, &ms, &kb, &nr_events);
		if (err) {
			fprintf(stderr, "%s injection failed: %s\n", what,
				err == -ECHILD ? "the inject child failed" : strerror(-err));
			return err;
		}
		bench_stats_add(&took, ms);
		bench_stats_add(&mem, kb);
	}
	printf("  Average %s injection took: %.3f msec (+- %.3f msec)\n", what, took.mean,
	       bench_stats_err(&took));
	printf("  Average time per event: %.3f usec (+- %.3f usec)\n",
	       nr_events ? took.mean * 1e3 / (double)nr_events : 0,
	       nr_events ? bench_stats_err(&took) * 1e3 / (double)nr_events : 0);
	printf("  Average memory usage: %.0f KB (+- %.0f KB)\n", mem.mean, bench_stats_err(&mem));
	return 0;
}

static const char *const inject_usage[] = { "perf bench internals inject-build-id <options>", NULL };

int bench_internals_inject_build_id(int argc, const char **argv)
{
	unsigned int iterations = 100, nr_mmaps = 100, nr_samples = 100;
	bool be_verbose = false;
	const struct opt_spec options[] = {
		SPEC_UINT("iterations", 'i', &iterations, "Number of iterations used to compute average (default: 100)"),
		SPEC_UINT("nr-mmaps", 'm', &nr_mmaps, "Number of mmap events for each iteration (default: 100)"),
		SPEC_UINT("nr-samples", 'n', &nr_samples, "Number of sample events per mmap event (default: 100)"),
		SPEC_FLAG("verbose", 'v', &be_verbose,
			  "be more verbose (show iteration count, DSO name, etc)"),
		SPEC_END(),
	};
	struct dso_list dsos = { 0 };
	int err;

	if (opts_parse(argc, argv, options, inject_usage, 0) > 1)
		opts_usage_exit(inject_usage, options);
	if (be_verbose && !verbose)
		verbose = 1;
	dl_iterate_phdr(collect_dso, &dsos);
	if (!dsos.nr) {
		fprintf(stderr, "no loaded object with a build-id to map\n");
		return 255;
	}
	if (verbose)
		printf("  Collected %zu DSOs\n", dsos.nr);
	err = run_series(&dsos, iterations, nr_mmaps, nr_samples, false);
	if (!err)
		err = run_series(&dsos, iterations, nr_mmaps, nr_samples, true);
	for (size_t i = 0; i < dsos.nr; i++)
		free(dsos.v[i].path);
	free(dsos.v);
	return err ? 255 : 0;
}
