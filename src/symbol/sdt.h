/* SPDX-License-Identifier: MIT */
/*
 * SystemTap SDT notes (.note.stapsdt) of an ELF file, and the uprobe
 * definitions perf keeps for them in the build-id cache's probes file.
 */
#ifndef SONDE_SYMBOL_SDT_H
#define SONDE_SYMBOL_SDT_H

#include "lib/strbuf.h"
#include "lib/util.h"

#include <stdbool.h>
#include <stddef.h>

/* struct sdt_note - one SDT probe site. */
struct sdt_note {
	char *provider;	 /* owned */
	char *name;	 /* owned */
	char *args;	 /* owned: the argument text ("-4@%ebx -8@-16(%rbp)") */
	u64 offset;	 /* file offset of the probe site */
	u64 sem_offset;	 /* file offset of the semaphore, 0 for none */
};

/*
 * sdt_notes_read - the SDT notes of @path, in note order, with their
 * addresses corrected by .stapsdt.base (prelink) and turned into file
 * offsets. *@notes malloc'ed (sdt_notes_free). Returns how many or -errno
 * (-ENOTSUP: not ELF).
 */
int sdt_notes_read(const char *path, struct sdt_note **notes);
void sdt_notes_free(struct sdt_note *notes, size_t nr);

/*
 * sdt_args_format - the uprobe fetch arguments of an SDT argument text:
 * " arg1=%bx:s32 arg2=+8(%sp):u64" appended to @out (operand registers by
 * their 64-bit names, sizes as types). Arguments it cannot express are
 * left out. Returns 0.
 */
int sdt_args_format(struct strbuf *out, const char *args);

/*
 * sdt_probes_format - perf's probes-file text for @path's notes: per
 * PROVIDER:NAME a "%sdt_PROVIDER:NAME=NAME" line, then one
 * "p:sdt_PROVIDER/NAME PATH:0xOFF[(0xSEM)] ARGS" line per site.
 */
void sdt_probes_format(struct strbuf *out, const char *path, const struct sdt_note *notes,
		       size_t nr);

#endif
