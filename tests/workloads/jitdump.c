/* SPDX-License-Identifier: MIT */
/*
 * A pretend JIT that writes a jitdump file (for inject --jit): two functions
 * of machine code in anonymous executable memory, described by JIT_CODE_LOAD
 * records in DIR/jit-PID.dump, which is mmap'ed executable so that perf
 * record sees it (the marker perf inject --jit looks for). Timestamps are
 * CLOCK_MONOTONIC: record with -k mono.
 * Usage: jitdump DIR [calls] (each call spins ~50M iterations, 3/4 in jit_hot).
 */
#include <elf.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* int f(int n) { do n--; while (n); return 0; } for x86_64: mov eax,edi; sub eax,1; jnz; ret */
static const unsigned char code[] = { 0x89, 0xf8, 0x83, 0xe8, 0x01, 0x75, 0xfb, 0xc3 };

/* the jitdump file header and records (little-endian, host order) */
struct jd_header {
	uint32_t magic; /* 'JiTD' */
	uint32_t version;
	uint32_t total_size;
	uint32_t elf_mach;
	uint32_t pad1;
	uint32_t pid;
	uint64_t timestamp;
	uint64_t flags;
};

struct jd_code_load {
	uint32_t id; /* 0: JIT_CODE_LOAD */
	uint32_t total_size;
	uint64_t timestamp;
	uint32_t pid, tid;
	uint64_t vma, code_addr, code_size, code_index;
	/* then the NUL-terminated name and the code bytes */
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static int write_load(int fd, const char *name, const unsigned char *addr, uint64_t index)
{
	struct jd_code_load r = {
		.id = 0,
		.timestamp = now_ns(),
		.pid = (uint32_t)getpid(),
		.tid = (uint32_t)syscall(SYS_gettid),
		.vma = (uintptr_t)addr,
		.code_addr = (uintptr_t)addr,
		.code_size = sizeof(code),
		.code_index = index,
	};
	size_t n = strlen(name) + 1;

	r.total_size = (uint32_t)(sizeof(r) + n + sizeof(code));
	return write(fd, &r, sizeof(r)) != (ssize_t)sizeof(r) || write(fd, name, n) != (ssize_t)n ||
	       write(fd, addr, sizeof(code)) != (ssize_t)sizeof(code);
}

int main(int argc, char **argv)
{
	long calls = argc > 2 ? atol(argv[2]) : 8, i;
	struct jd_header h = { 0x4A695444, 1, sizeof(h), EM_X86_64, 0, 0, 0, 0 };
	char path[4096];
	unsigned char *mem;
	int (*hot)(int), (*cold)(int);
	void *marker;
	int fd;

#if !defined(__x86_64__)
	fprintf(stderr, "jitdump: x86_64 only\n");
	return 2;
#endif
	if (argc < 2) {
		fprintf(stderr, "usage: jitdump DIR [calls]\n");
		return 2;
	}
	mem = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	snprintf(path, sizeof(path), "%s/jit-%d.dump", argv[1], (int)getpid());
	fd = open(path, O_CREAT | O_TRUNC | O_RDWR, 0644);
	if (fd < 0) {
		perror(path);
		return 1;
	}
	h.pid = (uint32_t)getpid();
	h.timestamp = now_ns();
	if (write(fd, &h, sizeof(h)) != (ssize_t)sizeof(h))
		return 1;
	/* the marker: an executable mapping of the dump file itself */
	marker = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	if (marker == MAP_FAILED) {
		perror("mmap marker");
		return 1;
	}
	memcpy(mem + 0x100, code, sizeof(code));
	memcpy(mem + 0x200, code, sizeof(code));
	if (write_load(fd, "jit_hot", mem + 0x100, 1) || write_load(fd, "jit_cold", mem + 0x200, 2))
		return 1;
	hot = (int (*)(int))(void *)(mem + 0x100);
	cold = (int (*)(int))(void *)(mem + 0x200);
	for (i = 0; i < calls; i++)
		(i % 4 == 3 ? cold : hot)(50000000);
	munmap(marker, 4096);
	close(fd);
	printf("%s\n", path);
	return 0;
}
