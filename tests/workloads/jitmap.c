/* SPDX-License-Identifier: MIT */
/*
 * A pretend JIT for the symbol tests: machine code in anonymous executable
 * memory, named in /tmp/perf-PID.map as JIT runtimes do.
 * Usage: jitmap [calls] (each call spins ~50M iterations in the JIT code).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* int f(int n) { do n--; while (n); return 0; } for x86_64: mov eax,edi; sub eax,1; jnz; ret */
static const unsigned char code[] = { 0x89, 0xf8, 0x83, 0xe8, 0x01, 0x75, 0xfb, 0xc3 };

int main(int argc, char **argv)
{
	long calls = argc > 1 ? atol(argv[1]) : 10, i;
	char path[64];
	unsigned char *mem;
	int (*fn)(int);
	FILE *f;

#if !defined(__x86_64__)
	fprintf(stderr, "jitmap: x86_64 only\n");
	return 2;
#endif
	mem = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	memcpy(mem + 0x100, code, sizeof(code));
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)getpid());
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		return 1;
	}
	/* perf's format: hex start, hex size, name (spaces allowed) */
	fprintf(f, "%lx %zx LazyCompile:*spin jit.js:1\n", (unsigned long)(mem + 0x100), sizeof(code));
	fclose(f);
	/* the path first, so that a test can remove the map even if it kills us */
	printf("%s\n", path);
	fflush(stdout);
	fn = (int (*)(int))(void *)(mem + 0x100);
	for (i = 0; i < calls; i++)
		fn(50000000);
	return 0;
}
