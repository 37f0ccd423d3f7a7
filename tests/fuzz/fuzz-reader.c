/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the perf.data reader: header, attrs, features, the
 * record stream (file, pipe, compressed, byte-swapped), sample decoding,
 * the printers that walk all of it (--header-only -I, --stats, -D), then
 * perf script (tracing data through libtraceevent, payloads, callchains)
 * and perf report on the same file.
 * Built by tools/fuzz.sh with clang -fsanitize=fuzzer,address.
 * Also built without libFuzzer (FUZZ_STANDALONE, make check) to replay
 * inputs, printing TAP: one result per input file.
 */
#include "cmd/open.h"
#include "core/evlist.h"
#include "data/reader.h"
#include "ui/dump.h"
#include "symbol/symtab.h"
#include "ui/header.h"
#include "cmd/report.h"
#include "cmd/script.h"
#include "session/session.h"
#include "ui/stats.h"

#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int fuzz_one(const unsigned char *data, size_t size);

/* perf script and perf report -i @path, stdout thrown away */
static void script_and_report(const char *path, FILE *null)
{
	struct symbol_opts sopts = { .no_demangle = false };
	struct report_hist_args a = {
		.input = path, .children = -1, .group = -1, .quiet = true, .symbol_opts = &sopts,
	};
	struct script_opts so;
	struct data_reader *sr;
	int saved;

	fflush(stdout);
	saved = dup(1);
	if (saved < 0)
		return;
	dup2(fileno(null), 1);
	script_opts_init(&so);
	so.input = path;
	so.force = true;
	sr = data_open_for_read(so.input, so.force);
	if (sr)
		script_session(&so, sr);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	report_hists_run(&a, null);
}

int fuzz_one(const unsigned char *data, size_t size)
{
	char path[64];
	int fd = memfd_create("fuzz.data", 0);
	struct data_error err;
	struct data_reader *r;
	FILE *null;
	bool readable = false;

	if (fd < 0)
		return 0;
	if (size && write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	null = fopen("/dev/null", "w");
	for (int pass = 0; pass < 3; pass++) {
		r = data_reader_open(path, &err);
		if (!r)
			break;
		readable = true;
		if (pass == 0) {
			union perf_event *ev;
			u64 off;
			struct perf_sample s;

			header_fprintf(null, r, true);
			while (data_reader_next(r, &ev, &off, &err) > 0)
				data_reader_parse_sample(r, ev, &s, NULL);
		} else {
			struct machine_opts mopts = { .no_symbols = true };
			struct session *s = session_new(r, &mopts);
			struct data_error serr = { 0 };

			if (pass == 1)
				report_stats(null, s, &serr);
			else
				dump_raw_trace(null, s, true, NULL, &serr);
			session_free(s);
			continue;
		}
		data_reader_close(r);
	}
	if (readable)
		script_and_report(path, null);
	/* stream mode: the same bytes through a pipe (pipe-format inputs are read as a stream) */
	{
		int pfd[2];

		if (size <= (1 << 20) && pipe(pfd) == 0) {
			if (fcntl(pfd[1], F_SETPIPE_SZ, 1 << 20) >= (int)size &&
			    write(pfd[1], data, size) == (ssize_t)size) {
				close(pfd[1]);
				pfd[1] = -1;
				snprintf(path, sizeof(path), "/proc/self/fd/%d", pfd[0]);
				r = data_reader_open(path, &err);
				if (r) {
					union perf_event *ev;
					u64 off;
					struct perf_sample s;

					header_fprintf(null, r, true);
					while (data_reader_next(r, &ev, &off, &err) > 0)
						data_reader_parse_sample(r, ev, &s, NULL);
					data_reader_close(r);
				}
			}
			if (pfd[1] >= 0)
				close(pfd[1]);
			close(pfd[0]);
		}
	}
	fclose(null);
	close(fd);
	return 0;
}

#ifdef FUZZ_STANDALONE
/* replay: fuzz-replay FILE...; TAP on stdout, one result per file (a crash ends the plan short) */
int main(int argc, char **argv)
{
	int bad = 0;

	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		unsigned char *buf;
		long n;

		if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
			printf("not ok %d - %s: cannot read\n", i, argv[i]);
			bad = 1;
			if (f)
				fclose(f);
			continue;
		}
		buf = malloc(n ? n : 1);
		if (!buf || fread(buf, 1, n, f) != (size_t)n) {
			printf("not ok %d - %s: cannot read\n", i, argv[i]);
			bad = 1;
		} else {
			fuzz_one(buf, n);
			printf("ok %d - replay %s\n", i, strrchr(argv[i], '/') ? strrchr(argv[i], '/') + 1 : argv[i]);
		}
		fflush(stdout);
		fclose(f);
		free(buf);
	}
	printf("1..%d\n", argc - 1);
	return bad;
}
#else
int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);
int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	return fuzz_one(data, size);
}
#endif
