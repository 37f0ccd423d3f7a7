/* SPDX-License-Identifier: MIT */
/*
 * Kernel PMUs as sysfs describes them (/sys/bus/event_source/devices/<pmu>):
 * the type number, the format/ terms that place values into config words,
 * and the events/ aliases with their scale/unit/per-pkg/snapshot files.
 */
#ifndef SONDE_CORE_PMU_H
#define SONDE_CORE_PMU_H

#include "lib/util.h"

#include <stdbool.h>

struct strvec;

#define PMU_SYSFS_DIR "/sys/bus/event_source/devices"

/* struct pmu_format - "name" -> "configN:lo-hi[,lo-hi...]". */
struct pmu_format {
	char *name;	/* owned */
	int word;	/* 0 config, 1 config1, 2 config2 */
	u64 mask;	/* the bits of that word, filled LSB of the value first */
};

/* struct pmu_alias - one events/<name> file. */
struct pmu_alias {
	char *name;	/* owned */
	char *terms;	/* owned: the file's text, e.g. "event=0x04" */
	double scale;	/* .scale, 0 when absent */
	char unit[32];	/* .unit, "" when absent */
	bool per_pkg;	/* .per-pkg */
	bool snapshot;	/* .snapshot */
};

/* struct pmu - one PMU directory, fully loaded. */
struct pmu {
	char *name;	/* owned: directory name */
	u32 type;
	struct pmu_format *formats; /* owned, sorted by name */
	int nr_formats;
	struct pmu_alias *aliases;  /* owned, sorted by name */
	int nr_aliases;
};

/*
 * pmu_load_at - load PMU @name from @root (normally PMU_SYSFS_DIR; tests
 * pass a fake tree). Tries "uncore_<name>" too, as perf does. Returns a
 * new pmu (caller frees with pmu_free) or NULL with errno set.
 */
struct pmu *pmu_load_at(const char *root, const char *name);
/* pmu_load - pmu_load_at(PMU_SYSFS_DIR, @name); $SONDE_PMU_DIR replaces the root (tests). */
struct pmu *pmu_load(const char *name);
/* pmu_free - free a pmu; NULL is fine. */
void pmu_free(struct pmu *pmu);

/* pmu_list_at - append the names of every PMU under @root, sorted. Returns 0 or -errno. */
int pmu_list_at(const char *root, struct strvec *names);
int pmu_list(struct strvec *names);

/* pmu_format_find / pmu_alias_find - lookups by exact name; NULL when absent. */
const struct pmu_format *pmu_format_find(const struct pmu *pmu, const char *name);
const struct pmu_alias *pmu_alias_find(const struct pmu *pmu, const char *name);

/* pmu_nr_addr_filters - nr_addr_filters of the PMU of type @type; 0 when none. */
int pmu_nr_addr_filters(u32 type);

/*
 * pmu_format_parse - parse a format spec "config1:0-7,32-35" into *@word and
 * *@mask. Returns 0 or -EINVAL.
 */
int pmu_format_parse(const char *spec, int *word, u64 *mask);

/*
 * pmu_format_apply - scatter @value into the bits of @f within *@config
 * (the word chosen by f->word), LSB first. Returns 0, or -ERANGE when
 * @value has more bits than the format holds (*@max is then the largest
 * value that fits).
 */
int pmu_format_apply(const struct pmu_format *f, u64 value, u64 *config, u64 *max);

#endif
