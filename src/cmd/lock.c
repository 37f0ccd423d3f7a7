/* SPDX-License-Identifier: MIT */
/* sonde lock: record the lock contention tracepoints and show perf lock contention's table. */
#include "builtin.h"
#include "cmd/open.h"
#include "core/evlist.h"
#include "core/evsel.h"
#include "lib/debug.h"
#include "lib/optspec.h"
#include "lib/strvec.h"
#include "lib/xalloc.h"
#include "session/session.h"
#include "ui/lock.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *const lock_usage[] = {
	"perf lock [<options>] {record|report|script|info|contention}",
	NULL,
};

struct lock_globals {
	const char *input;
	bool force, quiet, dump;
	const char *kallsyms, *vmlinux;
};

static struct lock_globals g;

#define LOCK_GLOBAL_SPECS(hidden)                                                                \
	{ .name = "dump-raw-trace", .letter = 'D', .kind = OPTK_FLAG, .traits = (hidden),          \
	  .dest = &g.dump, .desc = "dump raw trace in ASCII" },                                    \
	{ .name = "force", .letter = 'f', .kind = OPTK_FLAG, .traits = (hidden), .dest = &g.force, \
	  .desc = "don't complain, do it" },                                                       \
	{ .name = "input", .letter = 'i', .kind = OPTK_TEXT, .traits = (hidden), .dest = &g.input, \
	  .label = "file", .desc = "input file name" },                                            \
	{ .name = "quiet", .letter = 'q', .kind = OPTK_FLAG, .traits = (hidden), .dest = &g.quiet, \
	  .desc = "Do not show any warnings or messages" },                                        \
	{ .name = "verbose", .letter = 'v', .kind = OPTK_COUNT, .traits = (hidden), .dest = &verbose, \
	  .desc = "be more verbose (show symbol address, etc)" },                                  \
	{ .name = "kallsyms", .kind = OPTK_TEXT, .traits = (hidden), .dest = &g.kallsyms,          \
	  .label = "file", .desc = "kallsyms pathname" },                                          \
	{ .name = "vmlinux", .kind = OPTK_TEXT, .traits = (hidden), .dest = &g.vmlinux,            \
	  .label = "file", .desc = "vmlinux pathname" }

/* perf lock record: the contention tracepoints with kernel callchains */
static int lock_record(int argc, const char **argv)
{
	struct strvec v = STRVEC_INIT;

	strvec_push(&v, "record");
	strvec_push(&v, "-R");
	strvec_push(&v, "-c");
	strvec_push(&v, "1");
	strvec_push(&v, "-g");
	strvec_push(&v, "-e");
	strvec_push(&v, "lock:contention_begin");
	strvec_push(&v, "-e");
	strvec_push(&v, "lock:contention_end");
	for (int i = 1; i < argc; i++)
		strvec_push(&v, argv[i]);
	return cmd_run_strvec(cmd_record, &v);
}

static const char *const contention_usage[] = { "perf lock contention [<options>]", NULL };

static int parse_key(const char *s, enum lock_key *k)
{
	static const char *const names[] = { "contended", "wait_total", "wait_max", "wait_min",
					     "avg_wait" };

	for (int i = 0; i < 5; i++)
		if (!strcmp(s, names[i])) {
			*k = (enum lock_key)i;
			return 0;
		}
	return -1;
}

static int lock_contention_cmd(int argc, const char **argv)
{
	struct lock_contention_opts o = { .key = LOCK_KEY_WAIT_TOTAL, .max_stack = 8, .stack_skip = 3 };
	const char *key = NULL;
	struct machine_opts mopts = { 0 };
	struct data_reader *reader;
	struct session *session;
	const struct opt_spec options[] = {
		SPEC_REFUSED_NOVAL("all-cpus", 'a', "System-wide collection from all CPUs"),
		SPEC_REFUSED_NOVAL("use-bpf", 'b', "use BPF program to collect lock contention stats"),
		SPEC_REFUSED("cpu", 'C', "cpu", "List of cpus to monitor"),
		SPEC_INT("entries", 'E', &o.entries, "display this many functions"),
		SPEC_REFUSED("field", 'F', "contended,wait_total,wait_max,avg_wait",
			     "output fields (contended / wait_total / wait_max / wait_min / avg_wait)"),
		SPEC_TEXT("key", 'k', &key, "wait_total",
			  "key for sorting (contended / wait_total / wait_max / wait_min / avg_wait)"),
		SPEC_REFUSED("pid", 'p', "pid", "Trace on existing process id"),
		SPEC_FLAG("threads", 't', &o.threads, "show per-thread lock stats"),
		SPEC_REFUSED("map-nr-entries", 0, "num", "Max number of BPF map entries"),
		SPEC_INT("max-stack", 0, &o.max_stack,
			 "Set the maximum stack depth when collecting lock contention, Default: 8"),
		SPEC_INT("stack-skip", 0, &o.stack_skip,
			 "Set the number of stack depth to skip when finding a lock caller, Default: 3"),
		SPEC_REFUSED("tid", 0, "tid", "Trace on existing thread id (exclusive to --pid)"),
		LOCK_GLOBAL_SPECS(OPTT_HIDDEN),
		SPEC_END(),
	};
	int ret;

	argc = opts_parse(argc, argv, options, contention_usage, 0);
	if (argc)
		opts_usage_exit(contention_usage, options);
	if (key && parse_key(key, &o.key)) {
		fprintf(stderr, "Unknown compare key: %s\n", key);
		return 255;
	}
	if (o.max_stack > 127)
		o.max_stack = 127;
	reader = data_open_for_read(g.input, g.force);
	if (!reader)
		return 255;
	session = session_new(reader, &mopts);
	ret = lock_contention(session, &o);
	if (ret == 1)
		fprintf(stderr, "lock contention evsel not found\n");
	else if (ret == 2)
		fprintf(stderr, "No trace sample to read. Did you call 'perf lock record'?\n");
	session_free(session);
	/* perf exits with -EINVAL's low byte when the events are missing */
	return ret > 0 ? 234 : ret < 0 ? 255 : 0;
}

/* perf lock report's columns: -F / -k names, titles, widths */
static const struct {
	const char *name, *title;
	int width;
} lock_fields[] = {
	{ "acquired", "acquired", 10 },	   { "contended", "contended", 10 },
	{ "avg_wait", "avg wait", 12 },	   { "wait_total", "total wait", 12 },
	{ "wait_max", "max wait", 12 },	   { "wait_min", "min wait", 12 },
};

static int lock_field_find(const char *name, size_t len)
{
	for (int i = 0; i < (int)ARRAY_SIZE(lock_fields); i++)
		if (strlen(lock_fields[i].name) == len && !strncmp(lock_fields[i].name, name, len))
			return i;
	return -1;
}

/*
 * What the file holds for report and info: 0 the lock_acquire family (the
 * lockdep tracepoints), 1 only the contention tracepoints, 2 none. Prints
 * perf's messages; -1 when the file cannot be read.
 */
static int lock_file_kind(void)
{
	struct data_reader *reader;
	struct evsel *evsel;
	bool lockdep = false, contention = false;
	const char *path = g.input ? g.input : "perf.data";
	struct stat st;

	if (strcmp(path, "-") && stat(path, &st)) {
		fprintf(stderr, "failed to open %s: %s\nInitializing perf session failed\n", path,
			strerror(errno));
		return -1;
	}
	reader = data_open_for_read(g.input, g.force);
	if (!reader)
		return -1;
	evlist_for_each_entry(data_reader_evlist(reader), evsel) {
		const char *name = evsel->name ? evsel->name : "";

		lockdep |= !strncmp(name, "lock:lock_", 10);
		contention |= !strncmp(name, "lock:contention_", 16);
	}
	data_reader_close(reader);
	if (!lockdep && !contention)
		fprintf(stderr, "No trace sample to read. Did you call 'perf lock record'?\n");
	return lockdep ? 0 : contention ? 1 : 2;
}

static const char *const report_usage[] = { "perf lock report [<options>]", NULL };
static const char *const info_usage[] = { "perf lock info [<options>]", NULL };

/*
 * perf lock report. This kernel family offers the contention tracepoints,
 * not lockdep's lock_acquire family, so the table perf prints from such a
 * file has its header and no rows: that is what is printed (on stderr, as
 * perf does). Files with the lock_acquire family are refused.
 */
static int lock_report_cmd(int argc, const char **argv)
{
	const char *key = "acquired", *fields = NULL;
	bool combine = false, threads = false;
	int entries = 0, cols[ARRAY_SIZE(lock_fields) + 1], nr = 0, k, kind;
	const struct opt_spec options[] = {
		SPEC_FLAG("combine-locks", 'c', &combine, "combine locks in the same class"),
		SPEC_INT("entries", 'E', &entries, "display this many functions"),
		SPEC_TEXT("field", 'F', &fields, "...",
			  "output fields (acquired / contended / avg_wait / wait_total / wait_max / wait_min)"),
		SPEC_TEXT("key", 'k', &key, "acquired",
			  "key for sorting (acquired / contended / avg_wait / wait_total / wait_max / wait_min)"),
		SPEC_FLAG("threads", 't', &threads, "show per-thread lock stats"),
		LOCK_GLOBAL_SPECS(OPTT_HIDDEN),
		SPEC_END(),
	};

	if (opts_parse(argc, argv, options, report_usage, 0))
		opts_usage_exit(report_usage, options);
	kind = lock_file_kind();
	if (kind < 0)
		return 255;
	if (kind == 2)
		return 234;
	for (const char *p = fields; p && *p;) {
		size_t len = strcspn(p, ",");
		int f = lock_field_find(p, len);
		bool dup = false;

		if (f < 0) {
			fprintf(stderr, "Unknown output field: %.*s\n", (int)len, p);
			return 234;
		}
		for (int i = 0; i < nr; i++)
			dup |= cols[i] == f;
		if (!dup)
			cols[nr++] = f;
		p += len + (p[len] == ',');
	}
	k = lock_field_find(key, strlen(key));
	if (k < 0) {
		fprintf(stderr, "Unknown compare key: %s\n", key);
		return 234;
	}
	if (!fields)
		for (int i = 0; i < (int)ARRAY_SIZE(lock_fields); i++)
			cols[nr++] = i;
	else {
		bool has_key = false;

		for (int i = 0; i < nr; i++)
			has_key |= cols[i] == k;
		if (!has_key)
			cols[nr++] = k; /* perf adds the sort key's column */
	}
	if (kind == 0) {
		fprintf(stderr, "sonde: 'lock report' from the lock_acquire tracepoints is not supported\n");
		return 1;
	}
	{
		/* the contention tracepoints' waits, in report's layout */
		static const enum lock_key keys[] = { LOCK_KEY_CONTENDED, LOCK_KEY_CONTENDED,
						      LOCK_KEY_AVG_WAIT,  LOCK_KEY_WAIT_TOTAL,
						      LOCK_KEY_WAIT_MAX,  LOCK_KEY_WAIT_MIN };
		struct lock_contention_opts lo = { .key = keys[k], .entries = entries, .threads = threads,
						   .max_stack = 8, .stack_skip = 3, .report = true,
						   .combine = combine, .nr_cols = nr };
		struct machine_opts mopts = { 0 };
		struct data_reader *reader = data_open_for_read(g.input, g.force);
		struct session *session;
		int ret;

		if (!reader)
			return 255;
		memcpy(lo.cols, cols, nr * sizeof(*cols));
		session = session_new(reader, &mopts);
		ret = lock_contention(session, &lo);
		session_free(session);
		return ret < 0 ? 255 : 0;
	}
}

/* perf lock info: -t the threads, -m the lock instances, of the lock_acquire events (none here) */
static int lock_info_cmd(int argc, const char **argv)
{
	bool threads = false, map = false;
	int kind;
	const struct opt_spec options[] = {
		SPEC_FLAG("map", 'm', &map, "map of lock instances (address:name table)"),
		SPEC_FLAG("threads", 't', &threads, "dump thread list in perf.data"),
		LOCK_GLOBAL_SPECS(OPTT_HIDDEN),
		SPEC_END(),
	};

	if (opts_parse(argc, argv, options, info_usage, 0))
		opts_usage_exit(info_usage, options);
	kind = lock_file_kind();
	if (kind < 0)
		return 255;
	if (kind == 2)
		return 234;
	if (kind == 0) {
		fprintf(stderr, "sonde: 'lock info' from the lock_acquire tracepoints is not supported\n");
		return 1;
	}
	if (!threads && !map) {
		fprintf(stderr, "Unknown type of information\n");
		return 255;
	}
	{
		struct lock_contention_opts lo = { .key = LOCK_KEY_CONTENDED, .threads = threads,
						   .max_stack = 8, .stack_skip = 3, .report = true,
						   .info = threads ? 't' : 'm' };
		struct machine_opts mopts = { 0 };
		struct data_reader *reader = data_open_for_read(g.input, g.force);
		struct session *session;
		int ret;

		if (!reader)
			return 255;
		session = session_new(reader, &mopts);
		ret = lock_contention(session, &lo);
		session_free(session);
		return ret < 0 ? 255 : 0;
	}
}

int cmd_lock(int argc, const char **argv)
{
	const struct opt_spec options[] = {
		LOCK_GLOBAL_SPECS(0),
		SPEC_END(),
	};
	const char *sub;

	argc = opts_parse(argc, argv, options, lock_usage, OPTS_STOP_AT_ARG);
	if (argc < 1)
		opts_usage_exit(lock_usage, options);
	sub = argv[0];
	if (cmd_is_abbrev(sub, "record"))
		return lock_record(argc, argv);
	if (cmd_is_abbrev(sub, "contention"))
		return lock_contention_cmd(argc, argv);
	if (!strcmp(sub, "con"))
		return lock_contention_cmd(argc, argv);
	if (cmd_is_abbrev(sub, "report"))
		return lock_report_cmd(argc, argv);
	if (cmd_is_abbrev(sub, "info"))
		return lock_info_cmd(argc, argv);
	if (cmd_is_abbrev(sub, "script")) {
		fprintf(stderr, "sonde: 'lock %s' is not implemented yet\n", sub);
		return 1;
	}
	opts_usage_exit(lock_usage, options);
}
