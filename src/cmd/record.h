/* SPDX-License-Identifier: MIT */
/* sonde record: the state of one recording, shared by record.c (options) and record-run.c. */
#ifndef SONDE_CMD_RECORD_H
#define SONDE_CMD_RECORD_H

#include "core/evlist.h"
#include "core/mmap.h"
#include "core/record-config.h"
#include "lib/util.h"
#include "session/recorder.h"

#include <signal.h>
#include <stdbool.h>

struct opt_spec;
struct data_writer;

/* --synth: what is synthesized from /proc (mmap implies task) */
#define RECORD_SYNTH_TASK	1
#define RECORD_SYNTH_MMAP	2
#define RECORD_SYNTH_CGROUP	4
#define RECORD_SYNTH_ALL	7
#define RECORD_MAX_DELAY_RANGES	64

struct record {
	struct record_opts opts;
	struct evlist *evlist;
	const char *output;	/* -o, NULL: perf.data (or pipe when stdout is a FIFO) */
	const char *path;	/* the output actually used (with --kcore: dir/data) */
	char *kcore_dir_path;	/* --kcore: the output directory (owned), else NULL */
	bool is_pipe;
	int argc;		/* workload argv after the options */
	const char **argv;
	int orig_argc;		/* the whole command line, for the CMDLINE feature */
	const char **orig_argv;
	/* options */
	bool quiet;
	bool freq_max;
	bool strict_freq;
	bool timestamp_opt, period_opt;
	bool no_buildid, no_buildid_cache, buildid_all, buildid_mmap;
	bool tail_synthesize;
	bool data_page_size, code_page_size, transaction, kcore, off_cpu, dry_run;
	bool timestamp_filename, timestamp_boundary;
	int realtime_prio, proc_map_timeout, switch_max_files, nr_threads_synthesize;
	const char *cgroup, *clang_path, *clang_opt, *vmlinux;
	int comp_level;
	size_t mmap_pages;
	u64 max_size;		/* --max-size in bytes, 0: none */
	bool switch_output, switch_signal;
	/* options refused at start (perf's error, or no support here) */
	bool aux_snapshot, aux_sample, threads, debuginfod;
	const char *switch_output_event;
	int synth;		/* RECORD_SYNTH_* mask (--synth), all by default */
	/* -D 10-20,30-40: ms after the start when events are enabled / disabled */
	u64 delay_ranges[RECORD_MAX_DELAY_RANGES][2];
	int nr_delay_ranges;
	int ctl_fd, ctl_ack_fd;	/* --control, -1: none */
	bool ctl_close;		/* the fds are fifos we opened */
	u64 switch_size, switch_time;
	/* live */
	struct data_writer *w;
	struct perf_mmap_set rings;
	struct recorder recorder;
	u64 nr_wakeups;
	u64 synth_bytes;	/* data bytes written before the rings (for the -z ratio) */
	char **kept_dumps;	/* owned: --switch-max-files dumps still on disk, oldest first */
	int nr_kept_dumps;
	int workload_signal;	/* the workload died of this signal: perf re-raises it */
};

/* record-output.c: the output side of a recording */
/*
 * record_make_kcore_dir - --kcore: the output becomes a directory (an old
 * one kept as <path>.old) holding kcore_dir/ (kcore_copy() of /proc, or of
 * $SONDE_KCORE_SOURCE's kcore, kallsyms and modules); sets rec->path to its
 * "data" file. Returns 0, or -errno (the message printed).
 */
int record_make_kcore_dir(struct record *rec);
/* record_open_writer - back up an old @path, open the writer, declare events and features, start it. */
int record_open_writer(struct record *rec, const char *path);
/* record_write_preamble - the records perf writes before the samples (@tail: only the task state). */
int record_write_preamble(struct record *rec, bool tail);
/* record_file_size - where the data section ends (perf's "Captured and wrote" size); 0 for pipes. */
u64 record_file_size(struct record *rec);
/* record_seal_file - build-ids, sample times, features, final header. */
int record_seal_file(struct record *rec);
/* record_print_captured - perf's "[ perf record: Captured and wrote ... ]" (@count: add the samples). */
void record_print_captured(struct record *rec, const char *path, u64 size, bool count);
/* record_rotate_file - close the file as <path>.<timestamp>; reopen unless @at_exit. */
int record_rotate_file(struct record *rec, bool at_exit);

/* record-opts.c: option callbacks (struct opt_spec's value is the struct record) */
int opt_exclude_perf(const struct opt_spec *opt, const char *arg, int unset);
int opt_synth(const struct opt_spec *opt, const char *arg, int unset);
int opt_control(const struct opt_spec *opt, const char *arg, int unset);
/* -I[=regs] / --user-regs[=regs]: x86-64 register names into the sample masks ("?" lists them) */
int opt_intr_regs(const struct opt_spec *opt, const char *arg, int unset);
int opt_user_regs(const struct opt_spec *opt, const char *arg, int unset);
/* -j FILTERS: perf's branch filter names (privilege levels alone: "any"); -b: any branch */
int opt_branch_filter(const struct opt_spec *opt, const char *arg, int unset);
int opt_branch_any(const struct opt_spec *opt, const char *arg, int unset);
/* parse_delay_ranges - "-D A-B[,C-D...]" into rec->delay_ranges; -1 when malformed. */
int parse_delay_ranges(struct record *rec, const char *arg);

/* record_run - validate, open, record and write; returns the exit status. */
int record_run(struct record *rec, const struct opt_spec *options, const char *const usage[]);

/* record_install_handlers - SIGINT, SIGTERM, SIGCHLD and SIGUSR2 caught, without SA_RESTART (cmd/record-loop.c) */
void record_install_handlers(void);

/* record_block_signals - block those signals (the old mask in @orig): they are taken inside ppoll() only */
void record_block_signals(sigset_t *orig);

/*
 * record_loop - read the rings into the output until the workload ends, a
 * signal or --control stops it, or a limit is reached, waiting in ppoll()
 * with @waitmask; -D delays and ranges and output switching included.
 * Returns 0 or -errno.
 */
int record_loop(struct record *rec, const sigset_t *waitmask);

#endif
