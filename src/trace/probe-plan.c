/* SPDX-License-Identifier: MIT */
/* The probes one perf probe command adds: unique event names, then one write each, undone on failure. */
#include "trace/probe-plan.h"

#include "lib/debug.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void probe_plan_init(struct probe_plan *plan, const char *file)
{
	int n;

	memset(plan, 0, sizeof(*plan));
	n = probe_events_read(file, &plan->existing);
	plan->nr_existing = n > 0 ? (size_t)n : 0;
}

void probe_plan_release(struct probe_plan *plan)
{
	for (size_t i = 0; i < plan->nr_items; i++) {
		free(plan->items[i].group);
		free(plan->items[i].event);
		free(plan->items[i].on);
	}
	free(plan->items);
	probe_events_free(plan->existing, plan->nr_existing);
	memset(plan, 0, sizeof(*plan));
}

static bool name_taken(const struct probe_plan *plan, const char *group, const char *event)
{
	for (size_t i = 0; i < plan->nr_existing; i++)
		if (!strcmp(plan->existing[i].group, group) &&
		    !strcmp(plan->existing[i].event, event))
			return true;
	for (size_t i = 0; i < plan->nr_items; i++)
		if (!strcmp(plan->items[i].group, group) && !strcmp(plan->items[i].event, event))
			return true;
	return false;
}

int probe_plan_name(const struct probe_plan *plan, const char *group, const char *base,
		    bool allow_suffix, char **name)
{
	*name = NULL;
	if (!name_taken(plan, group, base)) {
		*name = xstrdup(base);
		return 0;
	}
	if (!allow_suffix)
		return -EEXIST;
	for (int i = 1; i < 1024; i++) {
		char *try = xasprintf("%s_%d", base, i);

		if (!name_taken(plan, group, try)) {
			*name = try;
			return 0;
		}
		free(try);
	}
	return -E2BIG;
}

struct probe_plan_item *probe_plan_add(struct probe_plan *plan, const char *group, char *event,
				       const char *on)
{
	struct probe_plan_item *it;

	plan->items = xgrow(plan->items, plan->nr_items + 1, &plan->alloc_items,
			    sizeof(*plan->items));
	it = &plan->items[plan->nr_items++];
	memset(it, 0, sizeof(*it));
	it->group = xstrdup(group);
	it->event = event;
	it->on = xstrdup(on);
	it->def.group = it->group;
	it->def.event = it->event;
	return it;
}

int probe_plan_write(const struct probe_plan *plan, const char *file)
{
	struct strbuf line = STRBUF_INIT;
	int err = 0;
	size_t i;

	for (i = 0; i < plan->nr_items && !err; i++) {
		strbuf_setlen(&line, 0);
		probe_def_format(&line, &plan->items[i].def, true);
		pr_debug("Writing event: %s\n", line.buf);
		err = probe_events_append(file, line.buf);
	}
	if (err) {
		/* item i-1 failed: take back those before it */
		for (i--; i-- > 0;)
			probe_events_remove(file, plan->items[i].group, plan->items[i].event);
	}
	strbuf_release(&line);
	return err;
}
