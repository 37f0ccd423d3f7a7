/* SPDX-License-Identifier: MIT */
/* sonde buildid-list: build-ids recorded in perf.data (-H: only DSOs with samples), or of the running kernel (-k, -m). */
#include "builtin.h"
#include "core/evlist.h"
#include "data/reader.h"
#include "lib/debug.h"
#include "lib/hashmap.h"
#include "lib/optspec.h"
#include "session/machine.h"
#include "session/session.h"
#include "symbol/elf.h"
#include "cmd/open.h"
#include "ui/header.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct buildid_opts {
	bool force, with_hits, kernel, kernel_maps;
	const char *input;
};

static const char *const buildid_list_usage[] = {
	"perf buildid-list [<options>]",
	NULL,
};

static int print_kernel(bool maps)
{
	u8 bid[BUILD_ID_SIZE];
	char hex[2 * BUILD_ID_SIZE + 1];
	int n = buildid_read_kernel(bid, sizeof(bid));

	if (n < 0) {
		if (!maps)
			fprintf(stderr, "Couldn't read a build-id in /sys/kernel/notes\n");
		return maps ? 0 : 255;
	}
	buildid_to_hex(bid, n, hex);
	if (!maps) {
		printf("%s\n", hex);
		return 0;
	}
	{
		/* the kernel map spans _text.._etext, as perf builds it from kallsyms */
		FILE *f = fopen("/proc/kallsyms", "r");
		unsigned long long a, start = 0, end = 0;
		char type, name[256];

		while (f && fscanf(f, "%llx %c %255s%*[^\n]", &a, &type, name) == 3) {
			if (!strcmp(name, "_text"))
				start = a;
			else if (!strcmp(name, "_etext"))
				end = a;
		}
		if (f)
			fclose(f);
		printf("%s %16llx %16llx [kernel.kallsyms]\n", hex, start, end);
	}
	return 0;
}

static int mark_hits(struct session *session)
{
	struct tool tool = { .sample = session_mark_hit };
	struct data_error err = { 0 };

	if (session_process(session, &tool, &err) < 0) {
		data_error_print(data_reader_path(session->reader), &err);
		return -1;
	}
	return 0;
}

static bool entry_hit(struct machine *m, const struct build_id_entry *e)
{
	for (struct dso *d = m->dsos; d; d = d->next)
		if (d->is_hit && !strcmp(d->long_name, e->filename))
			return true;
	return false;
}

static bool same_dso(const struct build_id_entry *a, const struct build_id_entry *b)
{
	return a->pid == b->pid && !strcmp(a->filename, b->filename);
}

static bool same_dso_before(const struct perf_header *h, int i)
{
	for (int j = 0; j < i; j++)
		if (same_dso(&h->build_ids[j], &h->build_ids[i]))
			return true;
	return false;
}

int cmd_buildid_list(int argc, const char **argv)
{
	struct buildid_opts o = { 0 };
	const struct opt_spec options[] = {
		SPEC_FLAG("force", 'f', &o.force, "don't complain, do it"),
		SPEC_FLAG("with-hits", 'H', &o.with_hits, "Show only DSOs with hits"),
		SPEC_TEXT("input", 'i', &o.input, "file", "input file name"),
		SPEC_FLAG("kernel", 'k', &o.kernel, "Show current kernel build id"),
		SPEC_FLAG("kernel-maps", 'm', &o.kernel_maps,
			    "Show build id of current kernel + modules"),
		SPEC_COUNT("verbose", 'v', &verbose, "be more verbose"),
		SPEC_END(),
	};
	const struct perf_header *h;
	struct data_reader *r;
	struct session *session;
	struct machine *m;
	struct machine_opts mopts = { .no_symbols = true };
	int ret = 0;

	argc = opts_parse(argc, argv, options, buildid_list_usage, 0);
	if (argc)
		opts_usage_exit(buildid_list_usage, options);
	if (o.kernel)
		return print_kernel(false);
	if (o.kernel_maps)
		return print_kernel(true);

	r = data_open_for_read(o.input, o.force);
	if (!r)
		return 255;
	h = data_reader_header(r);
	session = session_new(r, &mopts);
	m = &session->machine;
	/* without a BUILD_ID feature perf walks the samples and lists the DSOs they hit */
	if (!perf_header_has_feat(h, HEADER_BUILD_ID)) {
		if (mark_hits(session) < 0) {
			ret = 255;
		} else {
			struct dso **v = calloc(m->nr_dsos + 1, sizeof(*v));

			for (struct dso *d = m->dsos; d; d = d->next)
				if (d->id < m->nr_dsos)
					v[d->id] = d;
			for (u32 i = 0; i < m->nr_dsos; i++) {
				char hex[2 * BUILD_ID_SIZE + 1] = "";

				if (!v[i] || !v[i]->is_hit)
					continue;
				/* pipe data may carry HEADER_BUILD_ID records (perf inject -b) */
				for (int k = 0; k < h->nr_build_ids; k++)
					if (!strcmp(h->build_ids[k].filename, v[i]->long_name))
						buildid_to_hex(h->build_ids[k].build_id,
							       h->build_ids[k].size, hex);
				printf("%-40s %s\n", hex, v[i]->long_name);
			}
			free(v);
		}
		goto out;
	}
	if (o.with_hits && mark_hits(session) < 0)
		ret = 255;
	for (int i = 0; !ret && i < h->nr_build_ids; i++) {
		const struct build_id_entry *e = &h->build_ids[i];
		const struct build_id_entry *last = e;
		char hex[2 * BUILD_ID_SIZE + 1];

		if (o.with_hits && !entry_hit(m, e))
			continue;
		/* a DSO listed twice (same pid and name) is printed once, where it
		 * first appears, with the build-id of its last entry (as perf) */
		if (same_dso_before(h, i))
			continue;
		for (int k = i + 1; k < h->nr_build_ids; k++)
			if (same_dso(e, &h->build_ids[k]))
				last = &h->build_ids[k];
		buildid_to_hex(last->build_id, last->size, hex);
		printf("%s %s\n", hex, e->filename);
	}
out:
	session_free(session); /* and the reader it owns */
	return ret;
}
