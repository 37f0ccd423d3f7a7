/* SPDX-License-Identifier: MIT */
/* Event list lifecycle and lookups; opening and reading live in evlist-open.c. */
#include "core/evlist.h"
#include "lib/xalloc.h"

#include <stdlib.h>
#include <string.h>

struct evlist *evlist_new(void)
{
	struct evlist *evlist = xzalloc(sizeof(*evlist));

	INIT_LIST_HEAD(&evlist->entries);
	evlist->workload.cork_fd = -1;
	evlist->workload.status_fd = -1;
	return evlist;
}

void evlist_free(struct evlist *evlist)
{
	struct evsel *evsel, *n;

	if (!evlist)
		return;
	evlist_release_live(evlist);
	list_for_each_entry_safe(evsel, n, &evlist->entries, node) {
		list_del_init(&evsel->node);
		evsel_free(evsel);
	}
	free(evlist);
}

void evlist_add(struct evlist *evlist, struct evsel *evsel)
{
	evsel->idx = evlist->nr_entries++;
	list_add_tail(&evsel->node, &evlist->entries);
}

struct evsel *evlist_first(struct evlist *evlist)
{
	return list_empty(&evlist->entries) ? NULL :
					      list_first_entry(&evlist->entries, struct evsel, node);
}

struct evsel *evlist_last(struct evlist *evlist)
{
	return list_empty(&evlist->entries) ? NULL :
					      list_last_entry(&evlist->entries, struct evsel, node);
}

struct evsel *evlist_find_by_name(struct evlist *evlist, const char *name)
{
	struct evsel *evsel;

	evlist_for_each_entry(evlist, evsel)
		if (evsel->name && !strcmp(evsel->name, name))
			return evsel;
	return NULL;
}
