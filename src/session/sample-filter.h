/* SPDX-License-Identifier: MIT */
/* The sample selections of report and script: --time, --cpu and the pid/tid/name lists. */
#ifndef SONDE_SESSION_SAMPLE_FILTER_H
#define SONDE_SESSION_SAMPLE_FILTER_H

#include "lib/strvec.h"
#include "lib/util.h"

#include <stdbool.h>

/* struct time_span - samples from @start to @end, both included; 0 leaves that side open. */
struct time_span {
	u64 start, end;
};

/*
 * time_spans_parse - perf's --time: "start,stop" with seconds of up to 9
 * decimals (either side may be empty), several such separated by spaces
 * in increasing order; or percentages of the recording from @first to
 * @last: "P%" (the first slice), "P%/N,..." (the N-th slices of P%) or
 * "A%-B%,..." (spans). Returns 0 with *@spans (caller frees) and *@nr,
 * or -EINVAL (perf then says "Invalid time string").
 */
int time_spans_parse(const char *str, u64 first, u64 last, struct time_span **spans, int *nr);

/* time_spans_include - whether @t lies in one of the @nr spans (always when @nr is 0). */
bool time_spans_include(const struct time_span *spans, int nr, u64 t);

/* struct cpu_bitmap - the cpus of --cpu, a bit each; NULL bits: no --cpu. */
struct cpu_bitmap {
	u64 *bits;
	u32 nr_bits;
};

/*
 * cpu_bitmap_parse - --cpu @list in the grammar of core/cpumap
 * (cpu_map_parse); "" selects no cpu. The file knows @nr_cpus cpus (0:
 * unknown, perf's limit of 2048 applies). Returns 0, -EINVAL for a
 * malformed list, or -ERANGE with *@too_large the first cpu out of range.
 * *@highest is the highest cpu named (-1 when none).
 */
int cpu_bitmap_parse(struct cpu_bitmap *bm, const char *list, u32 nr_cpus, int *too_large,
		     int *highest);

/* cpu_bitmap_has - whether --cpu selects @cpu (always without --cpu). */
bool cpu_bitmap_has(const struct cpu_bitmap *bm, u32 cpu);

void cpu_bitmap_release(struct cpu_bitmap *bm);

/* CPU_LIST_MAX - the number of cpus perf supports (it warns above) */
#define CPU_LIST_MAX 2048

/*
 * id_list_parse - --pid/--tid: decimal numbers joined by commas (empty
 * items skipped). Returns 0 with *@ids (caller frees) and *@nr, or -EINVAL
 * (perf: "problems parsing pid list").
 */
int id_list_parse(const char *str, int **ids, int *nr);

/* name_list_parse - --comm/--dsos/--symbols: the names joined by commas, into @names. */
void name_list_parse(const char *str, struct strvec *names);

/* name_list_has - whether @name (NULL: never) is one of @names (--comm, --symbols). */
bool name_list_has(const struct strvec *names, const char *name);

/*
 * dso_list_has - --dsos: whether the dso @long_name (NULL: never) is in
 * @names by its full name or its file's base name.
 */
bool dso_list_has(const struct strvec *names, const char *long_name);

#endif
