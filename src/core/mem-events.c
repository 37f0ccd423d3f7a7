/* SPDX-License-Identifier: MIT */
/* The memory sampling events of perf mem/c2c record (Intel PEBS load latency and stores, AMD IBS op) and c2c record's line. */
#include "core/mem-events.h"

#include "core/pmu.h"
#include "lib/strvec.h"

#include <stddef.h>

/* the events of one core PMU that carries Intel's aliases */
static int intel_events(const struct pmu *pmu, unsigned int kinds, unsigned int ldlat,
			struct strvec *out)
{
	int n = 0;

	if ((kinds & MEM_EVENTS_LOAD) && pmu_alias_find(pmu, "mem-loads")) {
		if (pmu_alias_find(pmu, "mem-loads-aux"))
			strvec_pushf(out, "{%s/mem-loads-aux/,%s/mem-loads,ldlat=%u/}:P", pmu->name,
				     pmu->name, ldlat);
		else
			strvec_pushf(out, "%s/mem-loads,ldlat=%u/P", pmu->name, ldlat);
		n++;
	}
	if ((kinds & MEM_EVENTS_STORE) && pmu_alias_find(pmu, "mem-stores")) {
		strvec_pushf(out, "%s/mem-stores/P", pmu->name);
		n++;
	}
	return n;
}

int mem_events_find(unsigned int kinds, unsigned int ldlat, struct strvec *out)
{
	static const char *const core_pmus[] = { "cpu", "cpu_core", "cpu_atom" };
	struct pmu *ibs;
	int n = 0;

	if (!ldlat)
		ldlat = MEM_EVENTS_DEFAULT_LDLAT;
	for (size_t i = 0; i < sizeof(core_pmus) / sizeof(core_pmus[0]); i++) {
		struct pmu *pmu = pmu_load(core_pmus[i]);

		if (pmu)
			n += intel_events(pmu, kinds, ldlat, out);
		pmu_free(pmu);
	}
	if (n)
		return n;
	/* AMD: the IBS op PMU samples loads and stores alike (no latency filter) */
	ibs = pmu_load("ibs_op");
	if (ibs && kinds) {
		strvec_push(out, "ibs_op//");
		n = 1;
	}
	pmu_free(ibs);
	return n;
}

int c2c_record_argv(const struct c2c_record_opts *o, int nr_rest, const char *const *rest,
		    struct strvec *out)
{
	struct strvec events;
	int n;

	strvec_init(&events);
	n = mem_events_find(o->kinds ? o->kinds : MEM_EVENTS_LOAD | MEM_EVENTS_STORE, o->ldlat,
			    &events);
	if (n) {
		strvec_push(out, "record");
		strvec_push(out, "-W");
		strvec_push(out, "-d");
		strvec_push(out, "--phys-data");
		strvec_push(out, "--sample-cpu");
		for (int i = 0; i < n; i++) {
			strvec_push(out, "-e");
			strvec_push(out, events.v[i]);
		}
		if (o->all_kernel)
			strvec_push(out, "--all-kernel");
		if (o->all_user)
			strvec_push(out, "--all-user");
		for (int i = 0; i < nr_rest; i++)
			strvec_push(out, rest[i]);
	}
	strvec_clear(&events);
	return n;
}
