/* SPDX-License-Identifier: MIT */
/* sonde trace, live: the events set up, the loop over their rings, the workload run. */
#include "builtin.h"
#include "cmd/events-option.h"
#include "cmd/open.h"
#include "cmd/trace.h"
#include "core/cpumap.h"
#include "core/evlist-open.h"
#include "core/mmap.h"
#include "core/parse-events.h"
#include "core/record-config.h"
#include "core/threadmap.h"
#include "data/sample.h"
#include "lib/debug.h"
#include "lib/optspec.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "session/ordered-events.h"
#include "session/session.h"
#include "ui/header.h"
#include "trace/syscall-tbl.h"
#include "trace/tep.h"
#include "trace/tracefs.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- setting up the events ---- */


static void setup_attr(struct trace *trace, struct evsel *evsel, bool workload, bool first)
{
	struct perf_event_attr *a = &evsel->attr;

	a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
			 PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_RAW;
	/* every event has the same layout: the fault address is in all of them with --pf */
	if (trace->pf_maj || trace->pf_min)
		a->sample_type |= PERF_SAMPLE_ADDR;
	if (trace->callgraph != CALLCHAIN_NONE) {
		/*
		 * every event samples the chain (one layout for all); the kernel
		 * part of the exit path only with --kernel-syscall-graph
		 */
		a->sample_type |= PERF_SAMPLE_CALLCHAIN;
		a->sample_max_stack = trace->fp_max_stack;
		a->exclude_callchain_kernel = !trace->kernel_graph && trace_sc_kind(trace, evsel) == 2;
		if (trace->callgraph == CALLCHAIN_DWARF) {
			/* the user part is unwound from a copy of the stack */
			a->sample_type |= PERF_SAMPLE_ADDR | PERF_SAMPLE_REGS_USER |
					  PERF_SAMPLE_STACK_USER | PERF_SAMPLE_DATA_SRC;
			a->sample_regs_user = PERF_REGS_MASK_X86_64;
			a->sample_stack_user = trace->dwarf_size;
			a->exclude_callchain_user = 1;
		}
	}
	a->read_format = PERF_FORMAT_ID;
	a->sample_period = 1;
	a->disabled = 1;
	a->inherit = !trace->no_inherit;
	a->enable_on_exec = workload;
	a->sample_id_all = 1;
	a->exclude_guest = 1;
	/* woken up by every record, as perf trace is: lines come out while the task runs */
	a->wakeup_events = 1;
	if (first) {
		a->mmap = 1;
		a->mmap2 = 1;
		a->comm = 1;
		a->comm_exec = 1;
		a->task = 1;
		/* faults on data: the maps of files and anonymous memory too */
		a->mmap_data = trace->pf_maj || trace->pf_min || trace->callgraph == CALLCHAIN_DWARF;
	}
}

/* trace_raw_syscalls_layout - where sys_enter's id and args and sys_exit's id and ret are */
int trace_raw_syscalls_layout(struct trace *trace)
{
	static const char *const enter[] = { "id", "args" }, *const exit_[] = { "id", "ret" };
	int off[2], err;

	err = tp_field_offsets("raw_syscalls", "sys_enter", enter, off, 2);
	if (err)
		return err;
	trace->enter_id_off = off[0];
	trace->enter_args_off = off[1];
	err = tp_field_offsets("raw_syscalls", "sys_exit", exit_, off, 2);
	if (err)
		return err;
	trace->exit_id_off = off[0];
	trace->exit_ret_off = off[1];
	return 0;
}

/*
 * per_syscall_events - for a short list of syscalls (-e open,close), the
 * syscalls:sys_enter_X/sys_exit_X pairs instead of raw_syscalls with an id
 * filter: the other calls then fire nothing, where raw_syscalls runs the
 * filter on every call of the traced tasks. Same record layout (id at 8,
 * args or ret at 16). NULL (raw_syscalls) for all calls, a negation, a
 * long list, or a syscall without its own tracepoints. Returns the -e list.
 */
static char *per_syscall_events(const struct trace *trace)
{
	struct strbuf sb = STRBUF_INIT;
	int n = 0;

	/* callchains: the per-syscall events sample the user registers, without kernel frames */
	if (!trace->selected || trace->negate || trace->callgraph != CALLCHAIN_NONE ||
	    getenv("SONDE_TRACE_RAW_SYSCALLS"))
		return NULL;
	for (int id = 0; id < trace->nr_selected; id++) {
		const char *name;
		char path[512];

		if (!trace->selected[id])
			continue;
		name = syscall_tbl_name(id);
		if (!name || ++n > 16)
			goto raw;
		snprintf(path, sizeof(path), "%s/syscalls/sys_enter_%s/id", tracefs_events_dir(), name);
		if (access(path, R_OK))
			goto raw;
		snprintf(path, sizeof(path), "%s/syscalls/sys_exit_%s/id", tracefs_events_dir(), name);
		if (access(path, R_OK))
			goto raw;
		strbuf_addf(&sb, "%ssyscalls:sys_enter_%s,syscalls:sys_exit_%s", sb.len ? "," : "",
			    name, name);
	}
	if (n)
		return strbuf_detach(&sb, NULL);
raw:
	strbuf_release(&sb);
	return NULL;
}

static int add_events(struct trace *trace, bool workload)
{
	struct parse_events_error err = PARSE_EVENTS_ERROR_INIT;
	struct evsel *evsel;
	bool first = true;
	int events_idx;
	char *filter;

	if (trace->trace_syscalls) {
		const char *root = tracefs_root();
		char path[512];

		snprintf(path, sizeof(path), "%s/raw_syscalls/sys_enter", tracefs_events_dir());
		if (root && access(path, R_OK) && errno == EACCES) {
			/* perf's words for a tracefs the user may not read */
			fprintf(stderr,
				"Error:\tNo permissions to read %s/raw_syscalls/sys_(enter|exit)\n"
				"Hint:\tTry 'sudo mount -o remount,mode=755 %s/'\n\n",
				tracefs_events_dir(), root);
			return -1;
		}
		char *list = per_syscall_events(trace);

		if (parse_events(trace->evlist,
				 list ? list : "raw_syscalls:sys_enter,raw_syscalls:sys_exit", &err)) {
			free(list);
			parse_events_print_error(&err);
			parse_events_error_release(&err);
			return -1;
		}
		trace->sys_enter = evlist_first(trace->evlist);
		trace->sys_exit = evlist_last(trace->evlist);
		evlist_for_each_entry(trace->evlist, evsel)
			if (list && evsel->idx == 1)
				trace->sys_exit = evsel;
		trace->nr_sc_evsels = list ? trace->evlist->nr_entries : 0;
		if (trace_raw_syscalls_layout(trace)) {
			free(list);
			fprintf(stderr, "Couldn't read the raw_syscalls tracepoint formats.\n");
			return -1;
		}
		filter = trace_build_filter(trace, !list);
		free(list);
		evlist_for_each_entry(trace->evlist, evsel)
			if (filter && trace_sc_kind(trace, evsel))
				evsel->filter = xstrdup(filter);
		free(filter);
	}
	if ((trace->pf_maj && parse_events(trace->evlist, "major-faults", &err)) ||
	    (trace->pf_min && parse_events(trace->evlist, "minor-faults", &err))) {
		parse_events_print_error(&err);
		parse_events_error_release(&err);
		return -1;
	}
	if (trace->sched) {
		static const char *const runtime[] = { "runtime" };

		if (parse_events(trace->evlist, "sched:sched_stat_runtime", &err) ||
		    tp_field_offsets("sched", "sched_stat_runtime", runtime, &trace->runtime_off, 1)) {
			parse_events_print_error(&err);
			parse_events_error_release(&err);
			return -1;
		}
		trace->runtime_ev = evlist_last(trace->evlist);
	}
	events_idx = trace->event_str ? trace->evlist->nr_entries : -1;
	if (trace->event_str && parse_events(trace->evlist, trace->event_str, &err)) {
		parse_events_print_error(&err);
		parse_events_error_release(&err);
		return -1;
	}
	parse_events_error_release(&err);
	trace_add_cgroups(trace, events_idx);
	evlist_for_each_entry(trace->evlist, evsel) {
		char *colon;

		if (evsel->attr.type != PERF_TYPE_TRACEPOINT || trace_sc_kind(trace, evsel) ||
		    evsel == trace->runtime_ev || !evsel->name || !(colon = strchr(evsel->name, ':')))
			continue;
		if (!trace->tep && trace_tep_from_tracefs(&trace->tep))
			break;
		*colon = '\0';
		trace_tep_load_event(trace->tep, evsel->name, colon + 1);
		*colon = ':';
	}
	if (!trace->evlist->nr_entries) {
		fprintf(stderr, "Nothing to trace: --no-syscalls without other events (-e).\n");
		return -1;
	}
	evlist_for_each_entry(trace->evlist, evsel) {
		setup_attr(trace, evsel, workload, first);
		first = false;
	}
	return 0;
}

static int set_filters(struct trace *trace)
{
	struct evsel *evsel;

	evlist_for_each_entry(trace->evlist, evsel) {
		int nr = evsel_nr_fds(evsel);

		if (!evsel->filter)
			continue;
		for (int i = 0; i < nr; i++)
			if (evsel->fd[i] >= 0 &&
			    ioctl(evsel->fd[i], PERF_EVENT_IOC_SET_FILTER, evsel->filter) < 0) {
				fprintf(stderr, "failed to set filter \"%s\" on event %s with %d (%s)\n",
					evsel->filter, evsel->name, errno, strerror(errno));
				return -1;
			}
	}
	return 0;
}

/* ---- the loop ---- */

static volatile sig_atomic_t got_sigchld;

static void on_signal(int sig)
{
	if (sig == SIGCHLD)
		got_sigchld = 1;
	else
		done_signal = sig;
}

/*
 * workload_gone - the workload @pid has exited (not reaped here: the end of
 * cmd_trace reaps it). A SIGCHLD alone does not say so: it may come from
 * another child of ours.
 */
static bool workload_gone(pid_t pid)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT))
		return errno == ECHILD;
	return si.si_pid == pid;
}

static int deliver(void *arg, const union perf_event *ev, u64 time, const struct record_pos *pos)
{
	return trace_process_event(arg, ev, time);
}

/* read_rings - every ring's records into the queue; returns how many */
static int read_rings(struct trace *trace, struct perf_mmap_set *rings, struct ordered_events *oe)
{
	struct evsel *first = evlist_first(trace->evlist);
	int n = 0;

	for (int i = 0; i < rings->nr; i++) {
		struct perf_mmap *m = &rings->rings[i];
		union perf_event *ev;

		if (perf_mmap_read_init(m))
			continue;
		while ((ev = perf_mmap_read_event(m))) {
			struct perf_sample sample;

			memset(&sample, 0, sizeof(sample));
			if (perf_sample_parse(&first->attr, ev, &sample))
				sample.time = 0;
			ordered_events_queue(oe, ev, sample.time, NULL);
			n++;
		}
		perf_mmap_read_done(m);
	}
	return n;
}

static int trace_loop(struct trace *trace, struct perf_mmap_set *rings, const sigset_t *waitmask)
{
	struct ordered_events *oe = ordered_events_new(0, false);
	struct pollfd *pfd = xcalloc(rings->nr, sizeof(*pfd));
	bool done = false, workload_done = false;
	int err = 0;

	for (int i = 0; i < rings->nr; i++) {
		pfd[i].fd = rings->rings[i].fd;
		pfd[i].events = POLLIN;
	}
	for (;;) {
		int n = read_rings(trace, rings, oe);

		pr_debug("trace: %d records read\n", n);
		if (n)
			ordered_events_flush(oe, 0, true, deliver, trace);
		fflush(trace->out);
		if (done && !n)
			break;
		if (trace->stopped && !done) {
			/* --max-events reached: a command runs on to its end, other targets stop now */
			evlist_disable(trace->evlist);
			if (!trace->target.has_workload) {
				done = true;
				continue;
			}
		}
		if (got_sigchld) {
			got_sigchld = 0;
			if (!trace->target.has_workload || workload_gone(trace->evlist->workload.pid)) {
				pr_debug("trace: the workload exited\n");
				workload_done = true;
			}
		}
		if (workload_done || done_signal) {
			if (!done)
				evlist_disable(trace->evlist);
			if (done_signal && !done)
				pr_debug("trace: signal %d\n", (int)done_signal);
			done = true;
			continue;
		}
		if (!n) {
			struct timespec tmo = { 0, 100 * 1000 * 1000 };
			int alive = 0;

			if (ppoll(pfd, rings->nr, &tmo, waitmask) < 0 && errno != EINTR) {
				err = -errno;
				break;
			}
			for (int i = 0; i < rings->nr; i++) {
				if (pfd[i].revents & (POLLHUP | POLLERR))
					pfd[i].fd = -1;
				alive += pfd[i].fd >= 0;
			}
			/*
			 * every traced task is gone: read what is left, then stop. A
			 * command's end is its exit, though: while it runs, the rings
			 * are still read (they stay mapped) until SIGCHLD says so
			 */
			if (rings->nr && !alive && !done &&
			    (!trace->target.has_workload ||
			     workload_gone(trace->evlist->workload.pid))) {
				pr_debug("trace: every ring hung up\n");
				done = true;
			}
		}
	}
	ordered_events_flush(oe, 0, true, deliver, trace);
	ordered_events_free(oe);
	free(pfd);
	return err;
}

static int start_error(struct trace *trace, struct evsel *evsel, int err)
{
	char buf[1024];

	evlist_strerror_open(evsel, &trace->target, -err, buf, sizeof(buf));
	fprintf(stderr, "Error:\n%s\n", buf);
	return 255;
}

/* seed_threads - the comms of -p/-t threads, before their first record */
static void seed_threads(struct trace *trace)
{
	struct thread_map *threads = trace->evlist->threads;

	for (int i = 0; threads && i < threads->nr; i++)
		if (threads->pids[i] > 0)
			trace_thread_findnew(trace, threads->pids[i], threads->pids[i]);
}

/*
 * hand_off_close - closing the last fd of a tracepoint event waits for the
 * kernel to unregister it (an RCU grace period, 30-50 ms each): a child
 * keeps the fds until we are gone and pays that instead, so that the
 * command returns as soon as its output is complete.
 */
static void hand_off_close(void)
{
	int p[2];
	pid_t pid;

	if (pipe(p))
		return;
	pid = fork();
	if (pid == 0) {
		char c;
		int null = open("/dev/null", O_RDWR);

		/* no std fd of ours stays open: a pipe reader waiting for our EOF is not held up */
		dup2(null, 0);
		dup2(null, 1);
		dup2(null, 2);
		close(p[1]);
		setsid();
		while (read(p[0], &c, 1) < 0 && errno == EINTR)
			;
		_exit(0);
	}
	close(p[0]);
	/* the write end stays open until we exit: the child's read returns then */
	if (pid < 0)
		close(p[1]);
}

/*
 * create_maps - the cpus and threads of the target; -u USER is the threads
 * its processes have now. Returns 0, -EINVAL (no such user), -ENOENT (a uid
 * without a passwd entry, perf's words for both printed) or another -errno.
 */
static int create_maps(struct trace *trace)
{
	struct target copy = trace->target;
	char *tids = NULL;
	int err;

	if (copy.uid_str) {
		char *end;
		unsigned long uid = strtoul(copy.uid_str, &end, 10);

		if (!getpwnam(copy.uid_str)) {
			if (*end || end == copy.uid_str) {
				fprintf(stderr, "Invalid User: %s", copy.uid_str);
				return -EINVAL;
			}
			if (!getpwuid((uid_t)uid)) {
				fprintf(stderr, "Problems obtaining information for user %s",
					copy.uid_str);
				return -ENOENT;
			}
		}
		tids = record_uid_tid_list(copy.uid_str, &err);
		if (!tids)
			return err ? err : -ESRCH;
		copy.tid = tids;
		copy.uid_str = NULL;
	}
	err = evlist_create_maps(trace->evlist, &copy);
	free(tids);
	return err;
}

int trace_run(struct trace *trace, const char **argv)
{
	struct target *t = &trace->target;
	bool workload = argv[0] != NULL;
	struct perf_mmap_set rings = { 0 };
	struct sigaction sa;
	sigset_t block, orig;
	struct evsel *evsel;
	int err, status = 0;

	trace->evlist = evlist_new();
	if (add_events(trace, workload))
		return 255;
	t->has_workload = workload;
	err = create_maps(trace);
	if (err == -EINVAL)
		return 250;
	if (err == -ENOENT)
		return 251;
	if (err) {
		fprintf(stderr, "Problems parsing the target to trace, check your options!\n");
		return 255;
	}
	if (!t->system_wide && !t->cpu_list && !trace->no_inherit) {
		/* inherited events are read through per-cpu rings */
		cpu_map_free(trace->evlist->cpus);
		trace->evlist->cpus = cpu_map_online();
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_NOCLDSTOP; /* a stopped or continued child is not an end */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGCHLD, &sa, NULL);
	if (workload) {
		char comm[17] = "";

		prctl(PR_GET_NAME, comm);
		prctl(PR_SET_NAME, "perf-exec");
		err = evlist_prepare_workload(trace->evlist, argv);
		prctl(PR_SET_NAME, comm);
		if (err) {
			fprintf(stderr, "Couldn't run the workload!\n");
			return 255;
		}
		/* a lone workload is the task to follow; with -a/-C it only sets the duration */
		if (!t->system_wide && !t->cpu_list && !t->pid && !t->tid)
			trace->evlist->threads->pids[0] = trace->evlist->workload.pid;
	}
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGCHLD);
	sigprocmask(SIG_BLOCK, &block, &orig);
	evlist_for_each_entry(trace->evlist, evsel) {
		err = evsel_open(evsel, trace->evlist->cpus, trace->evlist->threads);
		if (err) {
			status = start_error(trace, evsel, err);
			goto out;
		}
	}
	if (set_filters(trace)) {
		status = 255;
		goto out;
	}
	err = perf_mmap_set_open(&rings, trace->evlist, trace->evlist->cpus->nr,
				 trace->evlist->cpus->map, trace->evlist->threads->nr,
				 trace->evlist->threads->pids, trace->mmap_pages, false);
	if (err) {
		fprintf(stderr, "failed to mmap with %d (%s)\n", -err, strerror(-err));
		status = 255;
		goto out;
	}
	seed_threads(trace);
	if (trace->pf_maj || trace->pf_min || trace->callgraph != CALLCHAIN_NONE) {
		/* a command's maps come from its MMAP records; running targets' from /proc */
		struct thread_map *threads = trace->evlist->threads;
		bool running = t->pid || t->tid;

		trace->pf = trace_pf_new(NULL, running ? threads->pids : NULL,
					 running ? threads->nr : 0, t->system_wide || t->cpu_list);
	}
	/* perf shows the comm/tid column only when more than one thread can show up */
	trace->show_thread = t->system_wide || t->cpu_list || trace->evlist->threads->nr > 1 ||
			     (workload && !trace->no_inherit);
	if (!workload)
		evlist_enable(trace->evlist);
	else {
		err = evlist_start_workload(trace->evlist);
		if (err) {
			fprintf(stderr, "%s: %s\n", argv[0], strerror(-err));
			status = 255;
			goto out;
		}
	}
	err = trace_loop(trace, &rings, &orig);
	if (err)
		fprintf(stderr, "error reading the events: %s\n", strerror(-err));
	if (trace->summary_only || trace->with_summary)
		trace_print_summary(trace);
	if (trace->nr_lost)
		fprintf(stderr, "LOST %llu events!\n", (unsigned long long)trace->nr_lost);
	if (workload && trace->evlist->workload.pid > 0) {
		pid_t pid = trace->evlist->workload.pid;

		if (waitpid(pid, NULL, WNOHANG) != pid) {
			/* interrupted: the workload ends too, as with perf */
			kill(pid, SIGTERM);
			waitpid(pid, NULL, 0);
		}
		trace->evlist->workload.pid = 0;
	}
out:
	perf_mmap_set_release(&rings);
	sigprocmask(SIG_SETMASK, &orig, NULL);
	hand_off_close();
	return status;
}
