/* SPDX-License-Identifier: MIT */
/*
 * Differential test against perf 6.1: record a workload with /usr/bin/perf,
 * then resolve every sample address perf script printed and compare the
 * symbol and offset (user: the binary, libc via its debug file, the vdso;
 * kernel: kallsyms).
 */
#include "test.h"

#include "lib/hashmap.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "symbol/symtab.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static const char wl_src[] =
	"#include <stdlib.h>\n#include <string.h>\n#include <stdio.h>\n#include <time.h>\n"
	"#include <unistd.h>\n#include <fcntl.h>\n#include <sys/syscall.h>\n"
	"static int cmp(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }\n"
	"int __attribute__((noinline)) spin(int n) { volatile int s = 0; for (int i = 0; i < n; i++) s += i; return s; }\n"
	"int main(void) {\n"
	"	char buf[4096], dst[4096]; int arr[2000]; long tot = 0; struct timespec ts;\n"
	"	for (int r = 0; r < 1500; r++) {\n"
	"		for (int i = 0; i < 2000; i++) arr[i] = (i * 7919 + r) % 2003;\n"
	"		qsort(arr, 2000, sizeof(int), cmp);\n"
	"		memset(buf, 'a' + r % 20, sizeof(buf) - 1); buf[sizeof(buf)-1] = 0;\n"
	"		memcpy(dst, buf, sizeof(buf)); tot += strlen(dst);\n"
	"		char *p = malloc(100 + r); tot += (long)p & 1; free(p);\n"
	"		for (int k = 0; k < 50; k++) { clock_gettime(CLOCK_MONOTONIC, &ts); tot += ts.tv_nsec & 1; }\n"
	"		tot += spin(20000);\n"
	"		for (int k = 0; k < 40; k++) { int fd = open(\"/dev/null\", O_WRONLY); tot += write(fd, buf, 64) + syscall(SYS_getppid); close(fd); }\n"
	"	}\n"
	"	printf(\"%ld\\n\", tot); return 0;\n"
	"}\n";

struct mapping {
	u64 start, len, pgoff;
	char *path;
	struct symsrc *ss;
};

static struct symsrc *src_for(struct mapping *m, struct strpool *pool)
{
	if (!m->ss) {
		m->ss = symsrc_new(pool);
		symsrc_load(m->ss, m->path, NULL);
	}
	return m->ss;
}

static void run_diff(const char *cflags)
{
	char cmd[2048], line[4096];
	struct strpool pool = STRPOOL_INIT;
	struct mapping *maps = NULL;
	size_t nr_maps = 0, alloc = 0, i;
	struct symsrc *kernel = NULL;
	int total = 0, bad = 0, kernel_samples = 0, lib_samples = 0, vdso_samples = 0;
	FILE *f, *p;

	if (access("/usr/bin/perf", X_OK))
		test_skip("reference perf (/usr/bin/perf) not installed");
	if (system("cc --version >/dev/null 2>&1"))
		test_skip("no C compiler (cc)");
	/* perf record fills $HOME/.debug: keep it in the scratch directory */
	snprintf(cmd, sizeof(cmd), "%s/home", test_tmpdir());
	mkdir(cmd, 0755);
	setenv("HOME", cmd, 1);
	snprintf(cmd, sizeof(cmd), "%s/wl.c", test_tmpdir());
	f = fopen(cmd, "w");
	ASSERT_TRUE(f);
	fputs(wl_src, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && cc %s -o wl wl.c && "
		 "/usr/bin/perf record -q -e cpu-clock -F 2000 -o wl.data ./wl >/dev/null 2>&1",
		 test_tmpdir(), cflags);
	if (system(cmd))
		test_skip("perf record failed here (perf_event_paranoid?)");
	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && /usr/bin/perf script -i wl.data --show-mmap-events -F ip,sym,symoff,dso "
		 "2>/dev/null",
		 test_tmpdir());
	p = popen(cmd, "r");
	ASSERT_TRUE(p != NULL);
	while (fgets(line, sizeof(line), p)) {
		unsigned long long a, b, c;
		char sym[2048], dso[1024], *path;
		const struct symbol *s;
		struct symsrc *ss = NULL;
		u64 addr = 0;
		struct strbuf got = STRBUF_INIT;

		line[strcspn(line, "\n")] = 0;
		if (strstr(line, "PERF_RECORD_MMAP2")) {
			char *q = strstr(line, "[0x");

			path = strstr(line, "]: ");
			if (!q || !path || sscanf(q, "[0x%llx(0x%llx) @ %llx", &a, &b, &c) != 3)
				continue;
			path = strchr(path + 3, ' ');
			if (!path)
				continue;
			maps = xgrow(maps, nr_maps + 1, &alloc, sizeof(*maps));
			maps[nr_maps].start = a;
			maps[nr_maps].len = b;
			maps[nr_maps].pgoff = c;
			maps[nr_maps].path = xstrdup(path + 1);
			maps[nr_maps].ss = NULL;
			nr_maps++;
			continue;
		}
		if (strstr(line, "PERF_RECORD_"))
			continue;
		if (sscanf(line, " %llx %2047[^(](%1023[^)])", &a, sym, dso) != 3)
			continue;
		sym[strcspn(sym, "\0")] = 0;
		while (*sym && sym[strlen(sym) - 1] == ' ')
			sym[strlen(sym) - 1] = 0;
		if (!strcmp(dso, "[kernel.kallsyms]")) {
			if (!kernel) {
				kernel = symsrc_new(&pool);
				symsrc_load(kernel, "[kernel.kallsyms]", NULL);
			}
			ss = kernel;
			addr = a;
			kernel_samples++;
		} else {
			for (i = nr_maps; i-- > 0;) {
				if (a >= maps[i].start && a < maps[i].start + maps[i].len &&
				    !strcmp(maps[i].path, dso)) {
					ss = src_for(&maps[i], &pool);
					addr = symsrc_map_ip(ss, maps[i].start, maps[i].pgoff, a);
					break;
				}
			}
			if (strstr(dso, "libc.so"))
				lib_samples++;
			if (!strcmp(dso, "[vdso]"))
				vdso_samples++;
		}
		total++;
		s = ss ? symsrc_find(ss, addr) : NULL;
		if (s)
			strbuf_addf(&got, "%s+0x%" PRIx64, s->name, addr - s->start);
		else
			strbuf_addstr(&got, "[unknown]");
		if (strcmp(got.buf, sym)) {
			if (bad++ < 10)
				test_fail_at(__FILE__, __LINE__, "%llx in %s: sonde \"%s\", perf \"%s\"",
					     a, dso, got.buf, sym);
		}
		strbuf_release(&got);
	}
	pclose(p);
	if (total < 50)
		test_fail_at(__FILE__, __LINE__, "only %d samples", total);
	EXPECT_EQ(bad, 0);
	EXPECT_TRUE(lib_samples > 0);
	for (i = 0; i < nr_maps; i++) {
		free(maps[i].path);
		symsrc_free(maps[i].ss);
	}
	free(maps);
	symsrc_free(kernel);
	strpool_release(&pool);
	if (getenv("SONDE_TEST_VERBOSE"))
		fprintf(stderr, "# %d samples (%d kernel, %d libc, %d vdso), %d differ\n", total,
			kernel_samples, lib_samples, vdso_samples, bad);
}

TEST(perf_diff_symbols_pie)
{
	run_diff("-O2 -fPIE -pie");
}

TEST(perf_diff_symbols_nopie)
{
	run_diff("-O0 -g -fno-pie -no-pie");
}
