/* SPDX-License-Identifier: MIT */
/*
 * perf script's Python engine: a user's script run over a perf.data through
 * embedded CPython (loaded on first use), with perf's handler API, and the
 * perf-script.py skeleton generator (script -g python).
 */
#ifndef SONDE_UI_SCRIPT_PYTHON_H
#define SONDE_UI_SCRIPT_PYTHON_H

#include <stdbool.h>

struct data_reader;

/* struct script_python_opts - what cmd/ collects for a script run */
struct script_python_opts {
	const char *script;	  /* the .py file */
	int argc;		  /* sys.argv: argv[0] is the script's name */
	const char **argv;
	const char *exec_path;	  /* PERF_EXEC_PATH given to the script (our Core.py, Util.py) */
	const char *comm_list;	  /* --comm */
	const char *sym_list;	  /* -S/--symbols */
	const char *dso_list;	  /* --dsos */
	const char *pid_list;	  /* --pid */
	const char *tid_list;	  /* --tid */
	const char *cpu_list;	  /* -C */
	const char *time_str;	  /* --time */
};

/*
 * script_python_run - run @po->script over @reader (owned from here on:
 * closed before returning). The script writes to stdout; messages go to
 * stderr (said here). Returns 0, or -errno: -ENOENT no libpython or no
 * script, -EINVAL bad filters or a script that fails to load,
 * -ECANCELED a Python error in a handler, others a damaged file.
 */
int script_python_run(const struct script_python_opts *po, struct data_reader *reader);

/*
 * script_python_generate - write perf's skeleton script for @reader's
 * tracepoint events to @path ("perf-script.py"). Returns 0 or -errno.
 */
int script_python_generate(struct data_reader *reader, const char *path);

#endif
