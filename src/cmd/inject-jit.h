/* SPDX-License-Identifier: MIT */
/* inject --jit: reading jitdump files and writing the ELF files perf report resolves JIT symbols from. */
#ifndef SONDE_CMD_INJECT_JIT_H
#define SONDE_CMD_INJECT_JIT_H

#include "lib/util.h"

#include <stdbool.h>
#include <sys/types.h>

/* one JIT_CODE_LOAD, turned into an ELF file and the MMAP2 record that maps it */
struct jit_load {
	u64 time;	/* the record's timestamp (the clock perf record -k used) */
	u32 pid, tid;
	u64 addr, len, pgoff;
	dev_t dev;
	ino_t ino;
	mode_t mode;
	u8 build_id[20];
	char path[4160]; /* DIR/jitted-PID-INDEX.so */
};

/* jit_is_marker - @filename is a jitdump file (".../jit-PID.dump"), whose mmap marks a JIT. */
bool jit_is_marker(const char *filename);

/*
 * jit_read_dump - read the jitdump at @dump_path: for each JIT_CODE_LOAD
 * write DIR/jitted-PID-INDEX.so next to it and append a jit_load to
 * *@loads (*@nr of them, realloc'ed; the appended ones sorted by time).
 * Returns 0 or -errno (-EINVAL: not a jitdump of this byte order).
 */
int jit_read_dump(const char *dump_path, struct jit_load **loads, int *nr);

#endif
