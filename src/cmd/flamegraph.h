/* SPDX-License-Identifier: MIT */
/* sonde flamegraph's entry point, callable from other commands (script report flamegraph). */
#ifndef SONDE_CMD_FLAMEGRAPH_H
#define SONDE_CMD_FLAMEGRAPH_H

#include "ui/flamegraph.h"

#include <stdbool.h>

/* struct flame_opts - everything the command line of sonde flamegraph says */
struct flame_opts {
	const char *input;	/* -i; NULL: perf.data */
	const char *output;	/* -o; NULL: flamegraph.html (folded: stdout); "-": stdout */
	const char *before;	/* --diff: the first file (input is the second) */
	const char *format;	/* "svg", "html" or NULL (from the output's suffix) */
	bool folded;		/* the folded text instead of a picture */
	bool period;		/* --weight period */
	bool force;		/* -f */
	struct stack_opts stack;
	struct flame_style style;
	const char *event;	/* -e */
	const char *pid_list, *tid_list, *comm_list, *dso_list, *cpu_list, *time_str;
	const char *symfs, *kallsyms;
	bool quiet;		/* no "dumping data to" line */
	bool say_first;		/* the line on stdout before writing, as perf's script does */
};

/* flame_opts_init - the defaults of sonde flamegraph */
void flame_opts_init(struct flame_opts *o);

/*
 * flamegraph_run - read o->input (and o->before for a diff), fold the
 * selected samples and write the picture or the folded text. Messages go
 * to stderr. Returns the exit status: 0, or 255 (file or filter errors).
 */
int flamegraph_run(struct flame_opts *o);

#endif
