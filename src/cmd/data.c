/* SPDX-License-Identifier: MIT */
/* sonde data convert: perf's JSON and CTF, and speedscope, Chrome trace, pprof, SQLite. */
#include "builtin.h"
#include "cmd/open.h"

#include "data/reader.h"
#include "lib/optspec.h"
#include "lib/strbuf.h"
#include "session/session.h"
#include "ui/export.h"
#include "ui/export-ctf.h"
#include "ui/export-sqlite.h"
#include "ui/header.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const data_usage[] = {
	"perf data [<common options>] <command> [<options>]",
	NULL,
};

static const char *const convert_usage[] = {
	"perf data convert [<options>]",
	NULL,
};

/* what the flags chose: the format, its file, its name in messages */
struct convert_target {
	enum export_format format;
	const char *path;
	const char *label;
};

/* --to-sqlite: the database is written by SQLite, not through a stream */
static int convert_sqlite(const char *input, const char *path, bool force)
{
	struct symbol_opts sopts = { 0 };
	struct machine_opts mopts = { .symbol_opts = &sopts };
	struct data_error err = { 0 };
	struct strbuf msg = STRBUF_INIT;
	struct data_reader *reader;
	struct session *session;
	struct stat st;
	long n;

	if (!stat(path, &st)) {
		if (!force) {
			fprintf(stderr, "Output file exists. Use --force to overwrite it.\n");
			return 255;
		}
		unlink(path);
	}
	if (export_sqlite_load()) {
		fprintf(stderr, "--to-sqlite needs libsqlite3.so.0 (Debian: libsqlite3-0), which "
				"does not load here.\n");
		return 255;
	}
	reader = data_open_for_read(input, force);
	if (!reader)
		return 255;
	session = session_new(reader, &mopts);
	n = export_sqlite(session, path, &err, &msg);
	if (n < 0) {
		if (msg.len)
			fprintf(stderr, "%s\n", msg.buf);
		else
			data_error_print(data_reader_path(reader), &err);
		strbuf_release(&msg);
		session_free(session);
		unlink(path);
		return 255;
	}
	fprintf(stderr, "[ perf data convert: Converted '%s' into SQLite database '%s' ]\n",
		data_reader_path(reader), path);
	if (!stat(path, &st))
		fprintf(stderr, "[ perf data convert: Converted and wrote %.3f MB (%ld samples) ]\n",
			(double)st.st_size / 1024.0 / 1024.0, n);
	strbuf_release(&msg);
	session_free(session);
	return 0;
}

/* perf's warning after a conversion (--to-json, --to-ctf) that met records older than a flushed round */
static void warn_unordered(const struct session *session)
{
	if (session->stats.nr_unordered)
		fprintf(stderr, "Warning:\n%llu out of order events recorded.\n",
			(unsigned long long)session->stats.nr_unordered);
}

/* --to-ctf: a CTF trace directory, written by libbabeltrace-ctf (loaded here) */
static int convert_ctf(const char *input, const char *path, bool force, bool all, bool tod)
{
	struct symbol_opts sopts = { 0 };
	struct machine_opts mopts = { .symbol_opts = &sopts };
	struct data_error err = { 0 };
	struct strbuf msg = STRBUF_INIT;
	struct data_reader *reader;
	struct session *session;
	u64 bytes = 0;
	long n, nr_others = 0;

	if (export_ctf_load()) {
		fprintf(stderr, "--to-ctf needs libbabeltrace-ctf.so.1 (Debian: libbabeltrace1), "
				"which does not load here.\n");
		return 255;
	}
	reader = data_open_for_read(input, force);
	if (!reader)
		return 255;
	session = session_new(reader, &mopts);
	n = export_ctf(session, path, all, tod, &err, &msg, &bytes, &nr_others);
	if (n < 0) {
		if (msg.len)
			fprintf(stderr, "%s\n", msg.buf);
		else
			data_error_print(data_reader_path(reader), &err);
		strbuf_release(&msg);
		session_free(session);
		return 255;
	}
	warn_unordered(session);
	fprintf(stderr, "[ perf data convert: Converted '%s' into CTF data '%s' ]\n",
		data_reader_path(reader), path);
	if (all)
		fprintf(stderr, "[ perf data convert: Converted and wrote %.3f MB (%ld samples, "
				"%ld non-samples) ]\n",
			(double)bytes / 1024.0 / 1024.0, n, nr_others);
	else
		fprintf(stderr, "[ perf data convert: Converted and wrote %.3f MB (%ld samples) ]\n",
			(double)bytes / 1024.0 / 1024.0, n);
	strbuf_release(&msg);
	session_free(session);
	return 0;
}

static int data_convert(int argc, const char **argv)
{
	const char *input = NULL, *json = NULL, *ctf = NULL, *speedscope = NULL, *chrome = NULL;
	const char *pprof = NULL, *sqlite = NULL;
	bool force = false, all = false, tod = false, verbose = false;
	struct convert_target t = { 0 };
	struct data_reader *reader;
	struct session *session;
	struct data_error err = { 0 };
	struct symbol_opts sopts = { 0 };
	struct machine_opts mopts = { .symbol_opts = &sopts };
	struct stat st;
	FILE *out;
	long n;
	int nr_targets;

	const struct opt_spec options[] = {
		SPEC_FLAG("force", 'f', &force, "don't complain, do it"),
		SPEC_TEXT("input", 'i', &input, "file", "input file name"),
		SPEC_FLAG("verbose", 'v', &verbose, "be more verbose"),
		SPEC_FLAG("all", 0, &all, "Convert all events"),
		SPEC_TEXT("to-ctf", 0, &ctf, "file", "Convert to CTF format"),
		SPEC_TEXT("to-json", 0, &json, "file", "Convert to JSON format"),
		SPEC_FLAG("tod", 0, &tod, "Convert time to wall clock time"),
		SPEC_TEXT("to-speedscope", 0, &speedscope, "file", "Convert to speedscope's JSON (sonde)"),
		SPEC_TEXT("to-chrome", 0, &chrome, "file", "Convert to Chrome trace-event JSON (sonde)"),
		SPEC_TEXT("to-pprof", 0, &pprof, "file", "Convert to gzipped pprof profile.proto (sonde)"),
		SPEC_TEXT("to-sqlite", 0, &sqlite, "db",
			  "Convert to SQLite in export-to-sqlite.py's tables (sonde)"),
		SPEC_END(),
	};

	argc = opts_parse(argc, argv, options, convert_usage, 0);
	if (argc)
		opts_usage_exit(convert_usage, options);
	nr_targets = !!json + !!ctf + !!speedscope + !!chrome + !!pprof + !!sqlite;
	if (!nr_targets) {
		fprintf(stderr, "You must specify one of --to-ctf or --to-json.\n");
		return 255;
	}
	if (nr_targets > 1) {
		fprintf(stderr, "You cannot specify more than one of --to-ctf, --to-json, "
				"--to-speedscope, --to-chrome, --to-pprof or --to-sqlite.\n");
		return 255;
	}
	if (sqlite)
		return convert_sqlite(input, sqlite, force);
	if (ctf) {
		return convert_ctf(input, ctf, force, all, tod);
	}
	if (json) {
		t = (struct convert_target){ EXPORT_JSON, json, "JSON data" };
		if (all) {
			fprintf(stderr, "--all is currently unsupported for JSON output.\n");
			return 255;
		}
		if (tod) {
			fprintf(stderr, "--tod is currently unsupported for JSON output.\n");
			return 255;
		}
	} else if (speedscope) {
		t = (struct convert_target){ EXPORT_SPEEDSCOPE, speedscope, "speedscope data" };
	} else if (chrome) {
		t = (struct convert_target){ EXPORT_CHROME, chrome, "Chrome trace data" };
	} else {
		t = (struct convert_target){ EXPORT_PPROF, pprof, "pprof data" };
	}
	if (!force && !stat(t.path, &st)) {
		fprintf(stderr, "Output file exists. Use --force to overwrite it.\n");
		return 255;
	}
	reader = data_open_for_read(input, force);
	if (!reader)
		return 255;
	out = fopen(t.path, "w");
	if (!out) {
		fprintf(stderr, "Failed to create output file %s: %s\n", t.path, strerror(errno));
		data_reader_close(reader);
		return 255;
	}
	session = session_new(reader, &mopts);
	n = export_write(session, t.format, out, &err);
	if (fclose(out) && n >= 0)
		n = -EIO;
	if (n < 0) {
		if (n == -EIO)
			fprintf(stderr, "failed to write %s\n", t.path);
		else
			data_error_print(data_reader_path(reader), &err);
		session_free(session);
		return 255;
	}
	if (t.format == EXPORT_JSON)
		warn_unordered(session);
	fprintf(stderr, "[ perf data convert: Converted '%s' into %s '%s' ]\n",
		data_reader_path(reader), t.label, t.path);
	if (!stat(t.path, &st))
		fprintf(stderr, "[ perf data convert: Converted and wrote %.3f MB (%ld samples) ]\n",
			(double)st.st_size / 1024.0 / 1024.0, n);
	session_free(session);
	return 0;
}

int cmd_data(int argc, const char **argv)
{
	const struct opt_spec options[] = {
		SPEC_END(),
	};

	argc = opts_parse(argc, argv, options, data_usage, OPTS_STOP_AT_ARG);
	if (argc < 1 || strcmp(argv[0], "convert"))
		opts_usage_exit(data_usage, options);
	return data_convert(argc, argv);
}
