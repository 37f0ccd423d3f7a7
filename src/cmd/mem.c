/* SPDX-License-Identifier: MIT */
/* sonde mem: its options, and perf's refusal (shared with c2c) where the cpu has no memory sampling events. */
#include "builtin.h"
#include "cmd/mem.h"
#include "cmd/open.h"
#include "lib/optspec.h"
#include "lib/xalloc.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * Whether a PMU here samples memory accesses: Intel's mem-loads/mem-stores
 * events (on the core PMU, or a hybrid one) or AMD's IBS op PMU.
 */
bool mem_have_events(void)
{
	static const char *const paths[] = {
		"/sys/bus/event_source/devices/cpu/events/mem-loads",
		"/sys/bus/event_source/devices/cpu/events/mem-stores",
		"/sys/bus/event_source/devices/cpu_core/events/mem-loads",
		"/sys/bus/event_source/devices/cpu_atom/events/mem-loads",
		"/sys/bus/event_source/devices/ibs_op",
		NULL
	};

	for (int i = 0; paths[i]; i++)
		if (!access(paths[i], F_OK))
			return true;
	return false;
}

int mem_refuse_live(void)
{
	fprintf(stderr, "failed: memory events not supported\n");
	return 255;
}

/* a machine with memory events: the PEBS/IBS record line is not done yet */
int mem_record_not_done(const char *cmd)
{
	fprintf(stderr, "sonde: '%s record' with hardware memory events is not implemented yet\n",
		cmd);
	return 1;
}

static bool is_word(const char *arg, const char *word)
{
	return strlen(arg) > 2 && !strncmp(word, arg, strlen(arg));
}

/*
 * mem_value_opt - @argv[*i] is mem option @lng (or -@shrt) taking a value:
 * its value (the next word, or after '='), *i moved past it; else NULL
 */
static const char *mem_value_opt(int argc, const char **argv, int *i, const char *lng, char shrt)
{
	const char *a = argv[*i];
	size_t n = strlen(lng);

	if ((a[0] == '-' && a[1] == shrt && shrt && !a[2]) || (!strncmp(a, "--", 2) && !strcmp(a + 2, lng))) {
		if (*i + 1 >= argc)
			return NULL;
		return argv[++*i];
	}
	if (shrt && a[0] == '-' && a[1] == shrt && a[2])
		return a + 2;
	if (!strncmp(a, "--", 2) && !strncmp(a + 2, lng, n) && a[2 + n] == '=')
		return a + 3 + n;
	return NULL;
}

/*
 * mem_report_args - the words after "report": mem's own options, the rest
 * for report (perf passes them on: --stdio, --sort, ...)
 */
static void mem_report_args(int argc, const char **argv, struct mem_report_opts *o)
{
	o->extra = xcalloc((size_t)argc + 1, sizeof(*o->extra));
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v;

		if (!strcmp(a, "-D") || !strcmp(a, "--dump-raw-samples"))
			o->dump = true;
		else if (!strcmp(a, "-U") || !strcmp(a, "--hide-unresolved"))
			o->hide_unresolved = true;
		else if (!strcmp(a, "-f") || !strcmp(a, "--force"))
			o->force = true;
		else if (!strcmp(a, "-p") || !strcmp(a, "--phys-data"))
			o->phys = true;
		else if (!strcmp(a, "--data-page-size"))
			o->page_size = true;
		else if ((v = mem_value_opt(argc, argv, &i, "type", 't')))
			o->type = v;
		else if ((v = mem_value_opt(argc, argv, &i, "input", 'i')))
			o->input = v;
		else if ((v = mem_value_opt(argc, argv, &i, "field-separator", 'x')))
			o->sep = v;
		else if ((v = mem_value_opt(argc, argv, &i, "cpu", 'C')))
			o->cpus = v;
		else
			o->extra[o->nr_extra++] = a;
	}
}

static const char *const mem_usage[] = {
	"perf mem [<options>] {record|report}",
	NULL
};

int cmd_mem(int argc, const char **argv)
{
	const char *input = NULL, *cpus = NULL, *type = NULL, *sep = NULL;
	bool dump = false, force = false, phys = false, hide = false, page_size = false;
	struct opt_spec options[] = {
		SPEC_TEXT("type", 't', &type, "type",
			  "memory operations(load,store) Default load,store"),
		SPEC_FLAG("dump-raw-samples", 'D', &dump, "dump raw samples in ASCII"),
		SPEC_FLAG("hide-unresolved", 'U', &hide, "Only display entries resolved to a symbol"),
		SPEC_TEXT("input", 'i', &input, "file", "input file name"),
		SPEC_TEXT("cpu", 'C', &cpus, "cpu", "list of cpus to profile"),
		SPEC_TEXT("field-separator", 'x', &sep, "separator",
			  "separator for columns, no spaces will be added between columns '.' is reserved."),
		SPEC_FLAG("force", 'f', &force, "don't complain, do it"),
		SPEC_FLAG("phys-data", 'p', &phys, "Record/Report sample physical addresses"),
		SPEC_FLAG("data-page-size", 0, &page_size, "Record/Report sample data address page size"),
		SPEC_END()
	};

	argc = opts_parse(argc, argv, options, mem_usage, OPTS_STOP_AT_ARG);
	if (argc && is_word(argv[0], "record"))
		return mem_have_events() ? mem_record_not_done("mem") : mem_refuse_live();
	if (argc && is_word(argv[0], "report")) {
		struct mem_report_opts ro = { .input = input, .cpus = cpus, .type = type, .sep = sep,
					      .dump = dump, .force = force, .phys = phys,
					      .hide_unresolved = hide, .page_size = page_size };
		int ret;

		/* mem's options may follow the word too; the others are report's */
		mem_report_args(argc, argv, &ro);
		ret = mem_report_run(&ro);
		free(ro.extra);
		return ret;
	}
	opts_usage_print(mem_usage, options);
	return 129;
}
