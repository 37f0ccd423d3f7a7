/* SPDX-License-Identifier: MIT */
/* TRACING_DATA blob ("0.6") from tracefs, for the tracepoints of a recording. */
#include "data/tracing-data.h"
#include "lib/debug.h"
#include "lib/strbuf.h"
#include "lib/strvec.h"
#include "lib/util.h"
#include "lib/xalloc.h"
#include "trace/tracefs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void put_u32(struct strbuf *out, u32 v)
{
	strbuf_add(out, &v, sizeof(v));
}

static void put_u64(struct strbuf *out, u64 v)
{
	strbuf_add(out, &v, sizeof(v));
}

/* a file's contents preceded by its size (u64 or u32); missing files count as empty */
static void put_file(struct strbuf *out, const char *path, bool size64)
{
	struct strbuf sb = STRBUF_INIT;

	if (strbuf_read_file(&sb, path, 4096) < 0)
		strbuf_setlen(&sb, 0);
	if (size64)
		put_u64(out, sb.len);
	else
		put_u32(out, (u32)sb.len);
	strbuf_add(out, sb.buf, sb.len);
	strbuf_release(&sb);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int tracing_data_build(struct strbuf *out, const char *const *names, int nr)
{
	static const char magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	const char *root = tracefs_root(), *events = tracefs_events_dir();
	char **sorted;
	char path[4096];
	int nr_sys = 0;

	if (!root || !events)
		return -ENOENT;
	strbuf_add(out, magic, sizeof(magic));
	strbuf_add(out, "0.6", 4);
	strbuf_addch(out, 0);		/* little endian */
	strbuf_addch(out, sizeof(long));
	put_u32(out, (u32)page_size);
	strbuf_add(out, "header_page", 12);
	snprintf(path, sizeof(path), "%s/header_page", events);
	put_file(out, path, true);
	strbuf_add(out, "header_event", 13);
	snprintf(path, sizeof(path), "%s/header_event", events);
	put_file(out, path, true);

	/* unique "sys:event" names, sorted so that each system's events are together */
	sorted = xcalloc(nr ? nr : 1, sizeof(*sorted));
	for (int i = 0; i < nr; i++)
		sorted[i] = xstrdup(names[i]);
	qsort(sorted, nr, sizeof(*sorted), cmp_str);

	/* ftrace's own events: only those recorded */
	{
		int n = 0;

		for (int i = 0; i < nr; i++)
			n += !strncmp(sorted[i], "ftrace:", 7) && (!i || strcmp(sorted[i], sorted[i - 1]));
		put_u32(out, n);
		for (int i = 0; i < nr; i++) {
			if (strncmp(sorted[i], "ftrace:", 7) || (i && !strcmp(sorted[i], sorted[i - 1])))
				continue;
			snprintf(path, sizeof(path), "%s/ftrace/%s/format", events, sorted[i] + 7);
			put_file(out, path, true);
		}
	}
	/* the other systems */
	for (int i = 0; i < nr; i++) {
		size_t l = strcspn(sorted[i], ":");

		if (strncmp(sorted[i], "ftrace:", 7) &&
		    (!i || strncmp(sorted[i], sorted[i - 1], l + 1)))
			nr_sys++;
	}
	put_u32(out, nr_sys);
	for (int i = 0; i < nr;) {
		size_t l = strcspn(sorted[i], ":");
		int j = i, n = 0;

		if (!strncmp(sorted[i], "ftrace:", 7)) {
			i++;
			continue;
		}
		while (j < nr && !strncmp(sorted[j], sorted[i], l + 1)) {
			n += j == i || strcmp(sorted[j], sorted[j - 1]);
			j++;
		}
		strbuf_add(out, sorted[i], l);
		strbuf_addch(out, 0);
		put_u32(out, n);
		for (int k = i; k < j; k++) {
			if (k > i && !strcmp(sorted[k], sorted[k - 1]))
				continue;
			snprintf(path, sizeof(path), "%s/%.*s/%s/format", events, (int)l, sorted[k],
				 sorted[k] + l + 1);
			put_file(out, path, true);
		}
		i = j;
	}
	for (int i = 0; i < nr; i++)
		free(sorted[i]);
	free(sorted);

	put_u32(out, 0); /* kallsyms: perf 6.1 writes none */
	snprintf(path, sizeof(path), "%s/printk_formats", root);
	put_file(out, path, false);
	snprintf(path, sizeof(path), "%s/saved_cmdlines", root);
	put_file(out, path, true);
	return 0;
}
