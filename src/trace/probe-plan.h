/* SPDX-License-Identifier: MIT */
/*
 * The probes one perf probe command will add: resolved definitions, event
 * names made unique against k/uprobe_events (perf's "_1", "_2"), and the
 * writing of them all (taken back on a failure).
 */
#ifndef SONDE_TRACE_PROBE_PLAN_H
#define SONDE_TRACE_PROBE_PLAN_H

#include "trace/probe-spec.h"

#include <stdbool.h>
#include <stddef.h>

/* struct probe_plan_item - one probe to add. */
struct probe_plan_item {
	struct probe_def def; /* group/event point at the fields below */
	char *group;	      /* owned */
	char *event;	      /* owned */
	char *on;	      /* owned: the point as typed, for perf's "(on ...)" text */
};

struct probe_plan {
	struct probe_event *existing; /* owned: the events already defined */
	size_t nr_existing;
	struct probe_plan_item *items; /* owned */
	size_t nr_items;
	size_t alloc_items;
};

/*
 * probe_plan_init - an empty plan that knows the events of @file
 * ("uprobe_events"/"kprobe_events"; a missing file counts as none).
 */
void probe_plan_init(struct probe_plan *plan, const char *file);
void probe_plan_release(struct probe_plan *plan);

/*
 * probe_plan_name - a free event name in @group for @base: @base, or with
 * @allow_suffix the first free "@base_N". Sets *@name (malloc'ed).
 * Returns 0, -EEXIST (taken, no suffix allowed) or -E2BIG (no free suffix).
 */
int probe_plan_name(const struct probe_plan *plan, const char *group, const char *base,
		    bool allow_suffix, char **name);

/*
 * probe_plan_add - a new item with copies of @group and @on and the
 * malloc'ed @event (taken over); def.group/def.event are set, the rest of
 * def is the caller's to fill.
 */
struct probe_plan_item *probe_plan_add(struct probe_plan *plan, const char *group, char *event,
				       const char *on);

/*
 * probe_plan_write - write every item's definition to @file. On a failure
 * the items already written are removed again. Returns 0 or -errno.
 */
int probe_plan_write(const struct probe_plan *plan, const char *file);

#endif
