/* SPDX-License-Identifier: MIT */
/*
 * perf script's main loop: read a perf.data, keep the machine model up to
 * date in time order, filter samples and print them with ui/script.
 */
#ifndef SONDE_UI_SCRIPT_RUN_H
#define SONDE_UI_SCRIPT_RUN_H

#include "ui/script.h"

struct data_reader;

#include <stdbool.h>

/* struct script_opts - everything cmd/script.c collects from the command line. */
struct script_opts {
	struct script_config cfg;
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
	bool show_on_off_events;
	bool per_event_dump;	  /* --per-event-dump: <input>.<event>.dump files */
	bool show_task_events;
	bool show_mmap_events;
	bool show_switch_events;
	bool show_lost_events;
	bool show_round_events;
	bool show_namespace_events;
	bool show_cgroup_events;
	bool show_bpf_events;
	bool show_text_poke_events;
	bool dump_raw;		  /* -D */
	bool dump_unsorted;	  /* --dump-unsorted-raw-trace (with dump_raw) */
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
 * script_run - run perf script on @reader (opened by cmd/script.c from
 * o->input; owned from here on: closed before returning), writing to stdout
 * and messages to stderr (perf's texts). Returns the exit status: 0, or 255
 * for fatal errors (bad -F for this file, a damaged record).
 */
int script_run(struct script_opts *o, struct data_reader *reader);

#endif
