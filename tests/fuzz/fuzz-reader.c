/*
 * libFuzzer target for the perf.data reader: header, attrs, features, the
 * record stream (file, pipe, compressed, byte-swapped), sample decoding,
 * and the printers that walk all of it (--header-only -I, --stats, -D).
 * Built by tools/fuzz.sh with clang -fsanitize=fuzzer,address.
 * Also built without libFuzzer (FUZZ_STANDALONE) to replay inputs.
 */
#include "core/evlist.h"
#include "data/reader.h"
#include "ui/dump.h"
#include "ui/header.h"
#include "ui/stats.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int fuzz_one(const unsigned char *data, size_t size);

int fuzz_one(const unsigned char *data, size_t size)
{
	char path[64];
	int fd = memfd_create("fuzz.data", 0);
	struct data_error err;
	struct data_reader *r;
	FILE *null;

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
		if (pass == 0) {
			union perf_event *ev;
			u64 off;
			struct perf_sample s;

			header_fprintf(null, r, true);
			while (data_reader_next(r, &ev, &off, &err) > 0)
				data_reader_parse_sample(r, ev, &s, NULL);
		} else if (pass == 1) {
			report_stats(null, r);
		} else {
			dump_raw_trace(null, r, true);
		}
		data_reader_close(r);
	}
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
/* replay: fuzz-reader FILE... */
int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		unsigned char *buf;
		long n;

		if (!f)
			return 2;
		fseek(f, 0, SEEK_END);
		n = ftell(f);
		fseek(f, 0, SEEK_SET);
		buf = malloc(n ? n : 1);
		if (fread(buf, 1, n, f) != (size_t)n)
			return 2;
		fclose(f);
		fuzz_one(buf, n);
		free(buf);
	}
	return 0;
}
#else
int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);
int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	return fuzz_one(data, size);
}
#endif
