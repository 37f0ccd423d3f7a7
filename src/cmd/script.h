/* SPDX-License-Identifier: MIT */
/* perf script's command line, and the checks that turn it into a view and a selection. */
#ifndef SONDE_CMD_SCRIPT_H
#define SONDE_CMD_SCRIPT_H

#include "ui/script-run.h"

#include <stdbool.h>

struct data_reader;
struct session;

/* struct script_opts - everything cmd/script.c collects from the command line. */
struct script_opts {
	struct script_config cfg;
	struct script_view view;  /* the --show-*-events, -D; view.cfg points at cfg */
	const char *input;	  /* -i; NULL: "perf.data" (or "-" when stdin is a pipe) */
	const char *comm_list;	  /* --comm */
	const char *pid_list;	  /* --pid */
	const char *tid_list;	  /* --tid */
	const char *cpu_list;	  /* -C/--cpu */
	const char *sym_list;	  /* -S/--symbols */
	const char *dso_list;	  /* --dsos */
	const char *time_str;	  /* --time */
	const char *vmlinux;	  /* -k */
	const char *kallsyms;	  /* --kallsyms */
	const char *symfs;	  /* --symfs */
	const char *stop_bt;	  /* --stop-bt: callchains end at these symbols */
	const char *switch_on;	  /* --switch-on: samples count from this event's first sample */
	const char *switch_off;	  /* --switch-off */
	bool per_event_dump;	  /* --per-event-dump: <input>.<event>.dump files */
	bool header;		  /* --header */
	bool header_only;	  /* --header-only */
	bool force;		  /* -f */
	bool no_demangle;
	bool demangle_kernel;
	bool show_info;		  /* -I */
};

/* script_opts_init - perf script's defaults. */
void script_opts_init(struct script_opts *o);

/*
 * script_session - perf script on @reader (opened from o->input; owned from
 * here on): the header, the session, the checks, the tool printing to
 * stdout. Returns the exit status: 0, or perf's for a failed check, 255
 * for a damaged file.
 */
int script_session(struct script_opts *o, struct data_reader *reader);

/*
 * script_check - @o against the file of @session, in perf's order: the
 * -F fields, then the selections (into @sel), then 'tod'. Returns -1 to go
 * on, else the exit status after perf's message on stderr (0 for a bad
 * pid or tid list, 234 for a bad --time, 254 for a missing switch event,
 * 255 otherwise).
 */
int script_check(struct script_opts *o, struct session *session, struct script_select *sel);

/*
 * script_open_event_dumps - --per-event-dump: "<input>.<event>.dump" for
 * each event of @session, created. Returns the files (by evsel->idx), or
 * NULL after perf's message (exit status 255).
 */
struct script_event_dump *script_open_event_dumps(const struct script_opts *o,
						  struct session *session);

#endif
