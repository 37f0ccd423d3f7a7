/* SPDX-License-Identifier: MIT */
/* pprof's profile.proto written by hand (protobuf wire format) and gzipped with zlib. */
#ifndef SONDE_UI_EXPORT_PPROF_H
#define SONDE_UI_EXPORT_PPROF_H

#include "lib/util.h"

#include <stdio.h>

struct pprof;

/* pprof_new - an empty profile whose second value is @event's period ("samples", "count" first) */
struct pprof *pprof_new(const char *event);
/* pprof_free - NULL is fine */
void pprof_free(struct pprof *p);
/* pprof_add_sample - one sample: frame ids leaf first, its period */
void pprof_add_sample(struct pprof *p, const u32 *ids, u32 nr, u64 period);
/* pprof_add_frame - frame @id: its function @name, binary @file (may be NULL), an address */
void pprof_add_frame(struct pprof *p, u32 id, const char *name, const char *file, u64 addr);
/*
 * pprof_write - the Profile message, gzipped, on @out; @time_ns and
 * @duration_ns of the recording. Returns 0 or -EIO.
 */
int pprof_write(struct pprof *p, FILE *out, u64 time_ns, u64 duration_ns);

#endif
