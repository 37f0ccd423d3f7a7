/* SPDX-License-Identifier: MIT */
/* perf kmem stat: slab bytes requested/allocated/freed and fragmentation; page allocations by order and migrate type. */
#include "ui/kmem.h"

#include "core/evlist.h"
#include "core/evsel.h"
#include "data/reader.h"
#include "lib/hashmap.h"
#include "lib/util.h"
#include "lib/xalloc.h"
#include "session/session.h"
#include "trace/tep.h"
#include "ui/header.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum kmem_ev { KM_NONE, KM_ALLOC, KM_FREE, KM_PAGE_ALLOC, KM_PAGE_FREE };

#define KM_MAX_ORDER 11
#define KM_MIGRATE_TYPES 5

/* a live slab object: its size and the cpu that allocated it */
struct km_obj {
	u64 bytes_alloc;
	u32 cpu;
};

struct kmem_run {
	struct tool tool;
	const struct kmem_opts *o;
	struct tep_handle *tep;
	enum kmem_ev *kind; /* by evsel idx */
	int nr_kind;
	/* slab */
	u64 requested, allocated, freed, nr_allocs, nr_cross;
	struct u64map live;	  /* ptr -> struct km_obj *: the last allocation there (perf keeps
				     it after a free, so a second free counts again) */
	bool has_slab, has_page;
	bool multi_node;	  /* the recording machine had several NUMA nodes */
	/* page */
	u64 nr_page_alloc, page_alloc_kb, nr_page_free, page_free_kb;
	u64 nr_alloc_freed, alloc_freed_kb, nr_fail;
	u64 order_mt[KM_MAX_ORDER][KM_MIGRATE_TYPES];
	struct u64map pages;	  /* pfn -> (migrate type + 1) << 32 | (order + 1) */
};

static u64 field(struct kmem_run *r, struct evsel *evsel, const struct perf_sample *s,
		 const char *name)
{
	struct tep_event *te = trace_tep_find_event(r->tep, (int)evsel->attr.config);
	u64 v = 0;

	if (te)
		trace_tep_field_u64(te, s->raw_data, s->raw_size, name, &v);
	return v;
}

static int kmem_sample(struct tool *tool, struct session *session, const union perf_event *ev,
		       const struct perf_sample *s, struct evsel *evsel)
{
	struct kmem_run *r = (struct kmem_run *)tool;
	struct km_obj *obj;
	u64 ptr, order, kb;

	(void)session;
	(void)ev;
	if (evsel->idx < 0 || evsel->idx >= r->nr_kind)
		return 0;
	switch (r->kind[evsel->idx]) {
	case KM_ALLOC:
		ptr = field(r, evsel, s, "ptr");
		r->requested += field(r, evsel, s, "bytes_req");
		obj = xcalloc(1, sizeof(*obj));
		obj->bytes_alloc = field(r, evsel, s, "bytes_alloc");
		obj->cpu = s->cpu;
		r->allocated += obj->bytes_alloc;
		r->nr_allocs++;
		free(u64map_set(&r->live, ptr, obj));
		break;
	case KM_FREE:
		ptr = field(r, evsel, s, "ptr");
		obj = u64map_find(&r->live, ptr);
		if (!obj)
			break;
		r->freed += obj->bytes_alloc;
		/* perf counts frees on another node's cpu (none on one node) */
		if (r->multi_node && obj->cpu != s->cpu)
			r->nr_cross++;
		break;
	case KM_PAGE_ALLOC: {
		u64 pfn = field(r, evsel, s, "pfn");
		s64 mt = (s64)field(r, evsel, s, "migratetype");

		order = field(r, evsel, s, "order");
		if (pfn == (u64)-1 || pfn == 0) {
			r->nr_fail++;
			break;
		}
		kb = (4096ULL << order) / 1024;
		r->nr_page_alloc++;
		r->page_alloc_kb += kb;
		if (order < KM_MAX_ORDER && mt >= 0 && mt < KM_MIGRATE_TYPES)
			r->order_mt[order][mt]++;
		u64map_set(&r->pages, pfn,
			   (void *)(uintptr_t)((u64)(mt >= 0 && mt < KM_MIGRATE_TYPES ? mt + 1 : 0) << 32 |
					       (order + 1)));
		break;
	}
	case KM_PAGE_FREE: {
		u64 pfn = field(r, evsel, s, "pfn"), alloc;

		order = field(r, evsel, s, "order");
		kb = (4096ULL << order) / 1024;
		r->nr_page_free++;
		r->page_free_kb += kb;
		alloc = (u64)(uintptr_t)u64map_remove(&r->pages, pfn);
		if (alloc) {
			u64 a_order = (alloc & 0xffffffff) - 1, a_mt = alloc >> 32;

			r->nr_alloc_freed++;
			r->alloc_freed_kb += kb;
			/* --live: a freed page leaves the order table */
			if (r->o->live && a_mt && a_order < KM_MAX_ORDER)
				r->order_mt[a_order][a_mt - 1]--;
		}
		break;
	}
	default:
		break;
	}
	return 0;
}

static int free_obj(uint64_t key, void *val, void *arg)
{
	(void)key;
	(void)arg;
	free(val);
	return 0;
}

static void print_slab(const struct kmem_run *r)
{
	printf("\nSUMMARY (SLAB allocator)\n");
	printf("========================\n");
	printf("Total bytes requested: %" PRIu64 "\n", r->requested);
	printf("Total bytes allocated: %" PRIu64 "\n", r->allocated);
	printf("Total bytes freed:     %" PRIu64 "\n", r->freed);
	printf("Net total bytes allocated: %" PRIu64 "\n", r->allocated - r->freed);
	printf("Total bytes wasted on internal fragmentation: %" PRIu64 "\n",
	       r->allocated - r->requested);
	printf("Internal fragmentation: %f%%\n",
	       r->allocated ? 100.0 * (double)(r->allocated - r->requested) / (double)r->allocated : 0.0);
	printf("Cross CPU allocations: %" PRIu64 "/%" PRIu64 "\n", r->nr_cross, r->nr_allocs);
}

static void page_line(const char *what, u64 nr, u64 kb)
{
	printf("%-30s: %16" PRIu64 "   [ %16" PRIu64 " KB ]\n", what, nr, kb);
}

static void print_page(const struct kmem_run *r)
{
	static const char *const mt_names[KM_MIGRATE_TYPES] = { "Unmovable", "Reclaimable", "Movable",
								"Reserved", "CMA/Isolated" };
	u64 only_alloc = r->nr_page_alloc - r->nr_alloc_freed;
	u64 only_free = r->nr_page_free - r->nr_alloc_freed;

	printf("\nSUMMARY (page allocator)\n");
	printf("========================\n");
	page_line("Total allocation requests", r->nr_page_alloc, r->page_alloc_kb);
	page_line("Total free requests", r->nr_page_free, r->page_free_kb);
	printf("\n");
	page_line("Total alloc+freed requests", r->nr_alloc_freed, r->alloc_freed_kb);
	page_line("Total alloc-only requests", only_alloc, r->page_alloc_kb - r->alloc_freed_kb);
	page_line("Total free-only requests", only_free, r->page_free_kb - r->alloc_freed_kb);
	printf("\n");
	page_line("Total allocation failures", r->nr_fail, 0);
	printf("\n");
	printf("%5s", "Order");
	for (int m = 0; m < KM_MIGRATE_TYPES; m++)
		printf("  %12s", mt_names[m]);
	printf("\n-----");
	for (int m = 0; m < KM_MIGRATE_TYPES; m++)
		printf("  ------------");
	printf("\n");
	for (int o = 0; o < KM_MAX_ORDER; o++) {
		printf("%5d", o);
		for (int m = 0; m < KM_MIGRATE_TYPES; m++) {
			if (r->order_mt[o][m])
				printf("  %12" PRIu64, r->order_mt[o][m]);
			else
				printf("  %12s", ".");
		}
		printf("\n");
	}
}

int kmem_stat(struct session *session, const struct kmem_opts *o)
{
	const struct perf_header *h = data_reader_header(session->reader);
	struct kmem_run r = { .o = o };
	struct data_error err = { 0 };
	struct evsel *evsel;
	int ret;

	r.nr_kind = session->evlist->nr_entries;
	r.kind = xcalloc((size_t)r.nr_kind + 1, sizeof(*r.kind));
	evlist_for_each_entry(session->evlist, evsel) {
		const char *n = evsel->name ? evsel->name : "";
		enum kmem_ev k = KM_NONE;

		if (!strcmp(n, "kmem:kmalloc") || !strcmp(n, "kmem:kmem_cache_alloc") ||
		    !strcmp(n, "kmem:kmalloc_node") || !strcmp(n, "kmem:kmem_cache_alloc_node"))
			k = KM_ALLOC;
		else if (!strcmp(n, "kmem:kfree") || !strcmp(n, "kmem:kmem_cache_free"))
			k = KM_FREE;
		else if (!strcmp(n, "kmem:mm_page_alloc"))
			k = KM_PAGE_ALLOC;
		else if (!strcmp(n, "kmem:mm_page_free"))
			k = KM_PAGE_FREE;
		if (evsel->idx >= 0 && evsel->idx < r.nr_kind)
			r.kind[evsel->idx] = k;
		r.has_slab |= k == KM_ALLOC;
		r.has_page |= k == KM_PAGE_ALLOC;
	}
	if (o->slab && !r.has_slab) {
		free(r.kind);
		return 1;
	}
	if (o->page && !r.has_page) {
		free(r.kind);
		return 2;
	}
	if (h->tracing_data && trace_tep_from_data(h->tracing_data, h->tracing_data_size, &r.tep))
		r.tep = NULL;
	r.multi_node = h->nr_numa_nodes > 1;
	u64map_init(&r.live);
	u64map_init(&r.pages);
	r.tool.sample = kmem_sample;
	r.tool.ordered = true;
	ret = session_process(session, &r.tool, &err);
	if (ret < 0) {
		data_error_print(data_reader_path(session->reader), &err);
	} else {
		if (session->stats.nr_events[PERF_RECORD_LOST]) {
			u64 total = 0;

			for (int t = 0; t < PERF_RECORD_HEADER_MAX; t++)
				total += session->stats.nr_events[t];
			fprintf(stderr, "Warning:\nProcessed %" PRIu64 " events and lost %" PRIu64
				" chunks!\n\nCheck IO/CPU overload!\n\n",
				total, session->stats.nr_events[PERF_RECORD_LOST]);
		}
		if (session->stats.total_lost_samples) {
			/* perf warns past 5% of the samples lost */
			u64 nr = session->stats.nr_events[PERF_RECORD_SAMPLE] +
				 session->stats.total_lost_samples;
			double pct = 100.0 * (double)session->stats.total_lost_samples / (double)nr;

			if (pct > 5.0)
				fprintf(stderr, "Warning:\nProcessed %" PRIu64 " samples and lost %.2f%%!\n\n",
					nr, pct);
		}
		if (o->slab)
			print_slab(&r);
		if (o->page)
			print_page(&r);
	}
	u64map_for_each(&r.live, free_obj, NULL);
	u64map_release(&r.live);
	u64map_release(&r.pages);
	trace_tep_free(r.tep);
	free(r.kind);
	return ret < 0 ? ret : 0;
}
