/* SPDX-License-Identifier: MIT */
/* sonde record: validation, opening, the workload, output switching and perf's messages (the loop: cmd/record-loop.c). */
#include "cmd/options.h"
#include "cmd/record.h"
#include "core/cpumap.h"
#include "core/evlist-open.h"
#include "core/threadmap.h"
#include "data/synthesize.h"
#include "data/tracing-data.h"
#include "data/writer.h"
#include "lib/debug.h"
#include "lib/strbuf.h"
#include "lib/strvec.h"
#include "lib/xalloc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <sys/prctl.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/*
 * fork_workload - fork the corked workload as perf does: named "perf-exec"
 * until its exec (what the synthesized COMM and early samples show), and in
 * pipe mode with its stdout on stderr so that it cannot corrupt the stream.
 * Both are inherited state, set around the fork and restored here.
 */
static int fork_workload(struct record *rec)
{
	char comm[17] = "";
	int saved_stdout = -1, err;

	prctl(PR_GET_NAME, comm);
	prctl(PR_SET_NAME, "perf-exec");
	if (rec->is_pipe) {
		fflush(stdout);
		saved_stdout = dup(STDOUT_FILENO);
		dup2(STDERR_FILENO, STDOUT_FILENO);
	}
	err = evlist_prepare_workload(rec->evlist, rec->argv);
	if (saved_stdout >= 0) {
		dup2(saved_stdout, STDOUT_FILENO);
		close(saved_stdout);
	}
	prctl(PR_SET_NAME, comm);
	return err;
}

/* ---- target and options ---- */

static int check_freq(struct record *rec)
{
	u64 max = record_max_sample_rate();
	struct record_opts *o = &rec->opts;

	if (rec->freq_max) {
		if (!rec->quiet)
			fprintf(stderr, "info: Using a maximum frequency rate of %llu Hz\n",
				(unsigned long long)max);
		return 0;
	}
	if (!o->user_freq || o->freq <= max)
		return 0;
	if (rec->strict_freq) {
		fprintf(stderr,
			"error: Maximum frequency rate (%llu Hz) exceeded.\n"
			"       Please use -F freq option with a lower value or consider\n"
			"       tweaking /proc/sys/kernel/perf_event_max_sample_rate.\n",
			(unsigned long long)max);
		return -EINVAL;
	}
	if (!rec->quiet)
		fprintf(stderr,
			"warning: Maximum frequency rate (%llu Hz) exceeded, throttling from %llu Hz to %llu Hz.\n"
			"         The limit can be raised via /proc/sys/kernel/perf_event_max_sample_rate.\n"
			"         The kernel will lower it when perf's interrupts take too long.\n"
			"         Use --strict-freq to disable this throttling, refusing to record.\n",
			(unsigned long long)max, (unsigned long long)o->freq, (unsigned long long)max);
	o->freq = max;
	return 0;
}

static int create_maps(struct record *rec, char **tid_list)
{
	struct target *t = &rec->opts.target;
	struct target copy = *t;
	struct evlist *evlist = rec->evlist;
	int err;

	if (t->uid_str) {
		*tid_list = record_uid_tid_list(t->uid_str, &err);
		if (!*tid_list)
			return err;
		copy.tid = *tid_list;
	}
	err = evlist_create_maps(evlist, &copy);
	if (err)
		return err;
	/*
	 * Unlike stat, record samples task targets through per-cpu rings with
	 * inheritance, unless --per-thread asks for one ring per thread.
	 */
	if (!t->system_wide && !t->cpu_list && !t->per_thread) {
		cpu_map_free(evlist->cpus);
		evlist->cpus = cpu_map_online();
	}
	return 0;
}

/* ---- output ---- */

static bool stdout_is_fifo(void)
{
	struct stat st;

	return !fstat(STDOUT_FILENO, &st) && S_ISFIFO(st.st_mode);
}

/* ---- errors ---- */

static int open_error(struct record *rec, struct evsel *evsel, int err)
{
	char buf[1024];

	if (err == -EOPNOTSUPP && (evsel->attr.sample_type & PERF_SAMPLE_BRANCH_STACK))
		snprintf(buf, sizeof(buf),
			 "%s: PMU Hardware or event type doesn't support branch stack sampling.",
			 evsel->name ? evsel->name : "");
	else
		evlist_strerror_open(evsel, &rec->opts.target, -err, buf, sizeof(buf));
	fprintf(stderr, "Error:\n%s\n", buf);
	return 255;
}

static int workload_status(struct record *rec)
{
	pid_t pid = rec->evlist->workload.pid;
	int status = 0;
	bool reaped = false;

	if (pid <= 0)
		return 0;
	/* interrupted: the workload is stopped with SIGTERM, as perf does */
	if (done_signal) {
		reaped = waitpid(pid, &status, WNOHANG) == pid;
		if (!reaped)
			kill(pid, SIGTERM);
	}
	if (!reaped && waitpid(pid, &status, 0) != pid)
		status = 0;
	rec->evlist->workload.pid = 0;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status)) {
		/* perf dies of the workload's signal after writing the file */
		rec->workload_signal = WTERMSIG(status);
		return 128 + WTERMSIG(status);
	}
	return 0;
}

/*
 * Options perf 6.1 refuses here (no AUX area PMU, no kcore), in perf's
 * order and with its texts, and the ones sonde does not do: never ignored.
 */
static int check_unsupported(struct record *rec)
{
	const char *msg = NULL;
	int status = -EINVAL & 0xff;

	if (rec->vmlinux && access(rec->vmlinux, R_OK)) {
		if (!rec->quiet)
			fprintf(stderr, "Invalid file: %s\n", rec->vmlinux);
		return status;
	}
	if (rec->threads && (rec->aux_snapshot || rec->aux_sample))
		msg = "AUX area tracing options are not available in parallel streaming mode.";
	else if (rec->aux_snapshot)
		msg = "No AUX area tracing to snapshot";
	else if (rec->aux_sample)
		msg = "No AUX area event to sample";
	if (msg) {
		if (!rec->quiet)
			fprintf(stderr, "%s\n", msg);
		return status;
	}
	/* SONDE_KCORE_SOURCE: a directory standing in for /proc (tests, copies of other machines) */
	if (rec->kcore && !getenv("SONDE_KCORE_SOURCE") && access("/proc/kcore", R_OK)) {
		fprintf(stderr, "ERROR: kcore is not readable.\n");
		return 255;
	}
	if (rec->threads) {
		fprintf(stderr, "sonde record: --threads (a directory of per-thread files) is not supported\n");
		return 255;
	}
	if (rec->switch_output_event) {
		fprintf(stderr, "sonde record: --switch-output-event is not supported\n");
		return 255;
	}
	return 0;
}

int record_run(struct record *rec, const struct opt_spec *options, const char *const usage[])
{
	struct record_opts *o = &rec->opts;
	struct target *t = &o->target;
	bool has_workload = rec->argc > 0, has_cpu, has_task;
	struct evsel *failed = NULL;
	char *tid_list = NULL, msg[256];
	sigset_t orig;
	int err, status = 0;

	if (!has_workload && !t->pid && !t->tid && !t->uid_str && !t->cpu_list)
		t->system_wide = true;
	if (rec->cgroup && !t->system_wide && !t->cpu_list)
		opts_usage_error(usage, options,
				       "cgroup monitoring only available in system-wide mode");
	/*
	 * -p/-t/-u with a command: the task target is recorded for as long as the
	 * command runs (perf's "record -p PID sleep 10"); the command itself is not.
	 */
	has_task = t->pid || t->tid || t->uid_str;
	err = check_unsupported(rec);
	if (err)
		return err;
	t->has_workload = has_workload;
	if (check_freq(rec))
		return 255;
	if (o->user_freq && o->user_interval) {
		fprintf(stderr, "cannot set frequency and period at the same time\n");
		return -EINVAL & 0xff; /* perf exits with its -EINVAL */
	}
	/* a period wins; "-c 0" keeps the frequency; both zero is perf's error */
	if (o->default_interval) {
		o->freq = 0;
	} else if (!o->freq) {
		fprintf(stderr, "frequency and count are zero, aborting\n");
		return -EINVAL & 0xff;
	}
	if (rec->timestamp_opt)
		o->sample_time_set = true;
	if (rec->buildid_mmap) {
		/* build-ids travel in the MMAP2 records: no build-id table */
		o->build_id = true;
		rec->no_buildid = true;
	}
	if (rec->period_opt) {
		o->period_set = true;
		o->period = true;
	}
	if (!rec->mmap_pages)
		rec->mmap_pages = perf_mmap_default_pages();
	if (!rec->output && stdout_is_fifo())
		rec->output = "-";
	rec->path = rec->output ? rec->output : "perf.data";
	rec->is_pipe = !strcmp(rec->path, "-");
	o->pipe_output = rec->is_pipe;
	if (!rec->evlist->nr_entries)
		record_add_default_event(rec->evlist);
	if (rec->dry_run)
		return 0;

	err = create_maps(rec, &tid_list);
	if (err) {
		fprintf(stderr, "Couldn't create thread/CPU maps: %s\n",
			err == -ESRCH ? "No such process" : strerror(-err));
		free(tid_list);
		return 255;
	}
	has_cpu = t->system_wide || t->cpu_list;
	if (rec->realtime_prio) {
		struct sched_param param = { .sched_priority = rec->realtime_prio };

		if (sched_setscheduler(0, SCHED_FIFO, &param)) {
			fprintf(stderr, "Could not set realtime priority.\n");
			free(tid_list);
			return 255;
		}
	}
	sigprocmask(SIG_BLOCK, NULL, &orig);
	record_install_handlers();
	if (has_workload) {
		err = fork_workload(rec);
		if (err) {
			fprintf(stderr, "Couldn't run the workload!\n");
			status = 255;
			goto out;
		}
		/* a lone workload is the task to follow; with -a/-C it only sets the duration */
		if (!has_cpu && !has_task)
			rec->evlist->threads->pids[0] = rec->evlist->workload.pid;
	}
	record_block_signals(&orig);
	record_config_evlist(rec->evlist, o, has_cpu, cpu_map_is_dummy(rec->evlist->cpus));
	err = record_open_evlist(rec->evlist, rec->evlist->cpus, rec->evlist->threads, &failed,
				 msg, sizeof(msg));
	if (verbose && *msg)
		fputs(msg, stderr);
	if (verbose)
		fprintf(stderr, "mmap size %zuB\n", (rec->mmap_pages + 1) * (size_t)page_size);
	if (err) {
		status = open_error(rec, failed, err);
		goto out;
	}
	{
		struct evsel *evsel;

		evlist_for_each_entry(rec->evlist, evsel) {
			int nr = rec->evlist->cpus->nr * rec->evlist->threads->nr;

			if (!evsel->filter)
				continue;
			for (int i = 0; i < nr; i++)
				if (evsel->fd[i] >= 0 &&
				    ioctl(evsel->fd[i], PERF_EVENT_IOC_SET_FILTER, evsel->filter) < 0) {
					/* perf's -q hides this message too */
					if (!rec->quiet)
						fprintf(stderr,
							"failed to set filter \"%s\" on event %s with %d (%s)\n",
							evsel->filter, evsel->name, errno, strerror(errno));
					status = 255;
					goto out;
				}
		}
	}
	err = perf_mmap_set_open(&rec->rings, rec->evlist, rec->evlist->cpus->nr,
				 rec->evlist->cpus->map, rec->evlist->threads->nr,
				 rec->evlist->threads->pids, rec->mmap_pages, o->overwrite);
	if (err) {
		if (err == -EPERM || err == -ENOMEM)
			fprintf(stderr,
				"Permission error mapping pages.\n"
				"Consider increasing /proc/sys/kernel/perf_event_mlock_kb,\n"
				"or try again with a smaller value of -m/--mmap_pages.\n"
				"(current value: %zu,0)\n", rec->mmap_pages);
		else
			fprintf(stderr, "failed to mmap with %d (%s)\n", -err, strerror(-err));
		status = 255;
		goto out;
	}
	if (rec->kcore && !rec->is_pipe && record_make_kcore_dir(rec)) {
		status = 255;
		goto out;
	}
	err = record_open_writer(rec, rec->path);
	if (err) {
		fprintf(stderr, "failed to open %s : %s\nPerf session creation failed.\n",
			rec->path, strerror(-err));
		status = 255;
		goto out;
	}
	recorder_init(&rec->recorder, rec->w, &rec->rings, rec->evlist, !rec->no_buildid);
	rec->recorder.buildid_all = rec->buildid_all;
	if (!rec->tail_synthesize && (err = record_write_preamble(rec, false)))
		goto write_error;
	rec->synth_bytes = data_writer_bytes(rec->w);

	/*
	 * cpu/task targets start now, before a workload runs (it could be
	 * over before a later enable); a lone workload's events start at its
	 * exec
	 */
	if ((has_cpu || t->pid || t->tid || t->uid_str) && !o->initial_delay)
		evlist_enable(rec->evlist);
	if (has_workload) {
		err = evlist_start_workload(rec->evlist);
		if (err) {
			struct evsel *first = evlist_first(rec->evlist);

			fprintf(stderr, "Failed to collect '%s' for the '%s' workload: %s\n",
				first->name ? first->name : "", rec->argv[0], strerror(-err));
			status = 255;
			data_writer_free(rec->w);
			rec->w = NULL;
			goto out;
		}
	}
	err = record_loop(rec, &orig);
	if (err)
		goto write_error;
	status = workload_status(rec);
	if ((err = recorder_write_lost_samples(&rec->recorder, rec->evlist)))
		goto write_error;
	if (rec->tail_synthesize && (err = record_write_preamble(rec, true)))
		goto write_error;
	if (!rec->quiet)
		fprintf(stderr, "[ perf record: Woken up %llu times to write data ]\n",
			(unsigned long long)rec->nr_wakeups);
	if ((rec->switch_output || rec->timestamp_filename) && !rec->is_pipe) {
		err = record_rotate_file(rec, true);
		if (err)
			goto write_error;
	} else {
		err = record_seal_file(rec);
		if (err)
			goto write_error;
		record_print_captured(rec, rec->kcore_dir_path ? rec->kcore_dir_path : rec->path,
				      record_file_size(rec), true);
		data_writer_free(rec->w);
		rec->w = NULL;
	}
	goto out;

write_error:
	fprintf(stderr, "failed to write perf data, error: %s\n", strerror(-err));
	status = 255;
out:
	if (rec->w)
		data_writer_free(rec->w);
	rec->w = NULL;
	recorder_release(&rec->recorder);
	perf_mmap_set_release(&rec->rings);
	free(tid_list);
	sigprocmask(SIG_SETMASK, &orig, NULL);
	return status;
}

