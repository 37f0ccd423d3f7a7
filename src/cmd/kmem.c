/* SPDX-License-Identifier: MIT */
/* sonde kmem: record the slab/page allocator tracepoints and print perf kmem stat's summaries. */
#include "builtin.h"
#include "cmd/open.h"
#include "lib/debug.h"
#include "lib/optspec.h"
#include "lib/strvec.h"
#include "lib/xalloc.h"
#include "session/session.h"
#include "trace/tracefs.h"
#include "ui/kmem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const kmem_usage[] = {
	"perf kmem [<options>] {record|stat}",
	NULL,
};

struct kmem_args {
	const char *input, *sort, *time;
	bool force, alloc, caller, live, page, raw_ip, slab;
	int lines;
};

static int kmem_record(const struct kmem_args *a, int argc, const char **argv)
{
	static const char *const slab_events[] = { "kmalloc", "kfree", "kmem_cache_alloc",
						   "kmalloc_node", "kmem_cache_alloc_node",
						   "kmem_cache_free" };
	static const char *const page_events[] = { "mm_page_alloc", "mm_page_free" };
	struct strvec v = STRVEC_INIT;

	strvec_push(&v, "record");
	strvec_push(&v, "-a");
	strvec_push(&v, "-R");
	strvec_push(&v, "-c");
	strvec_push(&v, "1");
	if (a->slab || !a->page)
		for (size_t i = 0; i < sizeof(slab_events) / sizeof(slab_events[0]); i++)
			if (tracefs_event_id("kmem", slab_events[i]) >= 0)
				strvec_pushf(&v, "-ekmem:%s", slab_events[i]);
	if (a->page)
		for (size_t i = 0; i < 2; i++)
			strvec_pushf(&v, "-ekmem:%s", page_events[i]);
	for (int i = 1; i < argc; i++)
		strvec_push(&v, argv[i]);
	return cmd_run_strvec(cmd_record, &v);
}

int cmd_kmem(int argc, const char **argv)
{
	struct kmem_args a = { .lines = -1 };
	const struct opt_spec options[] = {
		SPEC_FLAG("force", 'f', &a.force, "don't complain, do it"),
		SPEC_TEXT("input", 'i', &a.input, "file", "input file name"),
		{ .name = "line", .letter = 'l', .kind = OPTK_INT, .dest = &a.lines, .label = "num",
		  .desc = "show n lines" },
		SPEC_TEXT("sort", 's', &a.sort, "key[,key2...]",
			  "sort by keys: ptr, callsite, bytes, hit, pingpong, frag, page, order, migtype, gfp"),
		SPEC_COUNT("verbose", 'v', &verbose, "be more verbose (show symbol address, etc)"),
		SPEC_FLAG("alloc", 0, &a.alloc, "show per-allocation statistics"),
		SPEC_FLAG("caller", 0, &a.caller, "show per-callsite statistics"),
		SPEC_FLAG("live", 0, &a.live, "Show live page stat"),
		SPEC_FLAG("page", 0, &a.page, "Analyze page allocator"),
		SPEC_FLAG("raw-ip", 0, &a.raw_ip, "show raw ip instead of symbol"),
		SPEC_FLAG("slab", 0, &a.slab, "Analyze slab allocator"),
		SPEC_REFUSED("time", 0, "str", "Time span of interest (start,stop)"),
		SPEC_END(),
	};
	struct kmem_opts ko;
	struct data_reader *reader;
	struct session *session;
	struct machine_opts mopts = { .no_symbols = true };
	int ret;

	argc = opts_parse(argc, argv, options, kmem_usage, OPTS_STOP_AT_ARG);
	if (argc < 1)
		opts_usage_exit(kmem_usage, options);
	if (strlen(argv[0]) >= 3 && !strncmp(argv[0], "record", strlen(argv[0])))
		return kmem_record(&a, argc, argv);
	if (strcmp(argv[0], "stat"))
		opts_usage_exit(kmem_usage, options);
	/* stat's own options: the same table */
	argc = opts_parse(argc, argv, options, kmem_usage, 0);
	if (argc)
		opts_usage_exit(kmem_usage, options);
	ko.page = a.page;
	ko.live = a.live;
	ko.slab = a.slab || !a.page;
	reader = data_open_for_read(a.input, a.force);
	if (!reader)
		return 255;
	session = session_new(reader, &mopts);
	ret = kmem_stat(session, &ko);
	if (ret == 1)
		fprintf(stderr, "No slab allocation events found.  Have you run 'perf kmem record --slab'?\n");
	else if (ret == 2)
		fprintf(stderr, "No page allocation events found.  Have you run 'perf kmem record --page'?\n");
	fflush(stdout);
	session_free(session);
	return ret ? 255 : 0;
}
