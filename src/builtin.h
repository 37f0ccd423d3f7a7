/* SPDX-License-Identifier: MIT */
/*
 * Subcommand entry points. To add a command: write src/cmd/<name>.c with
 * cmd_<name>(int argc, const char **argv), declare it here, add a row to
 * the table in main.c, and add docs/cmd/<name>.md.
 *
 * A command returns its exit status (0..255; negative values become
 * 255, perf's fatal status). Usage errors exit(129) from opts_parse
 * (cmd/options.h: perf's texts over lib/optspec's non-printing parser).
 */
#ifndef SONDE_BUILTIN_H
#define SONDE_BUILTIN_H

#include "cmd/options.h"

struct strvec;

int cmd_annotate(int argc, const char **argv);
int cmd_archive(int argc, const char **argv);
int cmd_bench(int argc, const char **argv);
int cmd_buildid_cache(int argc, const char **argv);
int cmd_buildid_list(int argc, const char **argv);
int cmd_inject(int argc, const char **argv);
int cmd_data(int argc, const char **argv);
int cmd_diff(int argc, const char **argv);
int cmd_evlist(int argc, const char **argv);
int cmd_flamegraph(int argc, const char **argv);
int cmd_heatmap(int argc, const char **argv);
int cmd_kmem(int argc, const char **argv);
int cmd_kvm(int argc, const char **argv);
int cmd_list(int argc, const char **argv);
int cmd_lock(int argc, const char **argv);
int cmd_mem(int argc, const char **argv);
int cmd_c2c(int argc, const char **argv);
int cmd_probe(int argc, const char **argv);
int cmd_record(int argc, const char **argv);
/*
 * cmd_run_strvec - @fn (a cmd_* entry) on a copy of @v's pointers, since the
 * option parsers reorder their argv; @v is cleared. Returns @fn's status.
 */
int cmd_run_strvec(int (*fn)(int, const char **), struct strvec *v);
int cmd_report(int argc, const char **argv);
int cmd_sched(int argc, const char **argv);
int cmd_script(int argc, const char **argv);
int cmd_stat(int argc, const char **argv);
int cmd_test(int argc, const char **argv);
int cmd_timechart(int argc, const char **argv);
int cmd_top(int argc, const char **argv);
int cmd_trace(int argc, const char **argv);
int cmd_version(int argc, const char **argv);

/* The version string printed by "version" and --version. */
extern const char sonde_version_string[];

#endif
