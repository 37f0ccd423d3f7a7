/* SPDX-License-Identifier: MIT */
/* sonde record: the signals, --control commands and the ring loop that writes the data. */
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

static volatile sig_atomic_t got_sigchld;
static volatile sig_atomic_t got_sigusr2;

static void on_signal(int sig)
{
	if (sig == SIGCHLD)
		got_sigchld = 1;
	else if (sig == SIGUSR2)
		got_sigusr2 = 1;
	else
		done_signal = sig;
}

void record_install_handlers(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	/* no SA_RESTART: the signals must interrupt the wait */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGCHLD, &sa, NULL);
	sigaction(SIGUSR2, &sa, NULL);
}

/*
 * record_block_signals - blocked except inside ppoll(), so that none is lost
 * between check and wait. Done after forking the workload: exec keeps the
 * signal mask, and the workload must not start with these blocked.
 */
void record_block_signals(sigset_t *orig)
{
	sigset_t block;

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGCHLD);
	sigaddset(&block, SIGUSR2);
	sigprocmask(SIG_BLOCK, &block, orig);
}

/* signal_pending - a blocked SIGCHLD/SIGINT/SIGTERM waits for delivery */
static bool signal_pending(void)
{
	sigset_t set;

	if (sigpending(&set))
		return false;
	return sigismember(&set, SIGCHLD) || sigismember(&set, SIGINT) ||
	       sigismember(&set, SIGTERM);
}

/* ---- the loop ---- */

/*
 * --control: read the commands waiting on the control fd (perf's
 * "enable", "disable", "snapshot", "stop", "ping"), act, and answer
 * "ack\n" on the ack fd. Returns true when the session should stop.
 */
static bool control_commands(struct record *rec)
{
	struct pollfd p = { .fd = rec->ctl_fd, .events = POLLIN };
	char buf[256];
	bool stop = false;

	while (poll(&p, 1, 0) > 0 && (p.revents & POLLIN)) {
		ssize_t n = read(rec->ctl_fd, buf, sizeof(buf) - 1);
		char *line, *save = NULL;

		if (n <= 0)
			break;
		buf[n] = 0;
		for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
			bool ack = true;

			if (!strcmp(line, "enable")) {
				evlist_enable(rec->evlist);
				if (!rec->quiet)
					fprintf(stderr, "Events enabled\n");
			} else if (!strcmp(line, "disable")) {
				evlist_disable(rec->evlist);
				if (!rec->quiet)
					fprintf(stderr, "Events disabled\n");
			} else if (!strcmp(line, "stop")) {
				stop = true;
			} else if (strcmp(line, "snapshot") && strcmp(line, "ping")) {
				ack = false; /* unknown: perf answers nothing */
			}
			if (ack && rec->ctl_ack_fd >= 0 && write(rec->ctl_ack_fd, "ack\n", 4) != 4)
				ack = false;
		}
	}
	return stop;
}

int record_loop(struct record *rec, const sigset_t *waitmask)
{
	struct pollfd *pfd = xcalloc(rec->rings.nr + 1, sizeof(*pfd));
	bool done = false, draining = false, disabled = false, overwrite_read = false;
	struct target *t = &rec->opts.target;
	u64 switch_at = 0, enable_at = 0, range_start;
	int range = 0;
	bool range_on = false;
	int err = 0;

	/* -D: the events wait; the tracking dummy follows the workload from its exec */
	if (rec->opts.initial_delay) {
		if (!rec->quiet)
			fprintf(stderr, "Events disabled\n");
		if (rec->opts.initial_delay > 0)
			enable_at = monotonic_ns() + rec->opts.initial_delay * NSEC_PER_MSEC;
	}
	/* -D A-B,...: enable at A, disable at B, each range in turn (from now) */
	range_start = monotonic_ns();
	if (rec->nr_delay_ranges)
		enable_at = range_start + rec->delay_ranges[0][0] * NSEC_PER_MSEC;
	for (int i = 0; i < rec->rings.nr; i++) {
		pfd[i].fd = rec->rings.rings[i].fd;
		pfd[i].events = POLLIN;
	}
	if (rec->switch_time)
		switch_at = monotonic_ns() + rec->switch_time * NSEC_PER_SEC;
	for (;;) {
		int nr_read = 0;
		u64 before = data_writer_bytes(rec->w);

		/*
		 * --overwrite rings are a flight recorder: the kernel keeps the
		 * newest data, read once at the end (or when switching output).
		 */
		if (!rec->opts.overwrite || done || got_sigusr2 || (switch_at && monotonic_ns() >= switch_at))
			err = recorder_read_rings(&rec->recorder, &nr_read);
		if (err)
			break;
		if (nr_read) {
			static const struct perf_event_header round = { PERF_RECORD_FINISHED_ROUND, 0, 8 };

			rec->recorder.nr_events++;
			err = data_writer_write(rec->w, &round, sizeof(round));
			if (err)
				break;
		}
		if (rec->switch_output && !rec->is_pipe &&
		    ((rec->switch_signal && got_sigusr2) ||
		     (rec->switch_size && data_writer_bytes(rec->w) >= rec->switch_size) ||
		     (switch_at && monotonic_ns() >= switch_at))) {
			got_sigusr2 = 0;
			if (switch_at)
				switch_at = monotonic_ns() + rec->switch_time * NSEC_PER_SEC;
			err = record_rotate_file(rec, false);
			if (err)
				break;
		}
		if (rec->max_size && !done && data_writer_bytes(rec->w) > rec->max_size) {
			/* perf prints this one even with -q */
			fprintf(stderr, "[ perf record: perf size limit reached (%llu KB), stopping session ]\n",
				(unsigned long long)data_writer_bytes(rec->w) / 1024);
			done = true;
			done_signal = SIGTERM; /* stops the events and the workload as an interrupt does */
		}
		if (enable_at && monotonic_ns() >= enable_at && rec->nr_delay_ranges) {
			/* the next edge of the -D ranges: enable, then disable */
			range_on = !range_on;
			if (range_on) {
				evlist_enable(rec->evlist);
				enable_at = range_start + rec->delay_ranges[range][1] * NSEC_PER_MSEC;
			} else {
				evlist_disable(rec->evlist);
				range++;
				enable_at = range < rec->nr_delay_ranges ?
					range_start + rec->delay_ranges[range][0] * NSEC_PER_MSEC : 0;
			}
			if (!rec->quiet)
				fprintf(stderr, range_on ? "Events enabled\n" : "Events disabled\n");
		} else if (enable_at && monotonic_ns() >= enable_at) {
			enable_at = 0;
			evlist_enable(rec->evlist);
			if (!rec->quiet)
				fprintf(stderr, "Events enabled\n");
		}
		if (rec->ctl_fd >= 0 && !done && control_commands(rec))
			done_signal = SIGTERM; /* "stop": ends like an interrupt, workload included */
		/*
		 * rings that never run dry (our own writes traced with -a) keep the
		 * loop from idling: deliver a pending signal now, or the workload's
		 * end and SIGINT/SIGTERM are never seen
		 */
		if (nr_read && !done && signal_pending()) {
			struct timespec zero = { 0, 0 };

			ppoll(NULL, 0, &zero, waitmask);
		}
		if (got_sigchld || done_signal)
			done = true;
		if (done && !disabled && (t->pid || t->tid || t->uid_str || t->system_wide ||
					  t->cpu_list || done_signal)) {
			evlist_disable(rec->evlist);
			disabled = true;
		}
		if (!nr_read || before == data_writer_bytes(rec->w)) {
			struct timespec tmo, *tp = NULL;
			int n, alive = 0;

			if (!done && signal_pending()) {
				/* perf's handlers run at once: deliver what is pending without counting a wake-up */
				struct timespec zero = { 0, 0 };

				ppoll(NULL, 0, &zero, waitmask);
				continue;
			}
			if (done || draining) {
				/* an overwrite ring is read once, now that the session ends */
				if (rec->opts.overwrite && !overwrite_read) {
					overwrite_read = true;
					continue;
				}
				break;
			}
			if (switch_at || enable_at) {
				u64 now = monotonic_ns(), at, left;

				at = switch_at && (!enable_at || switch_at < enable_at) ? switch_at : enable_at;
				left = at > now ? at - now : 0;
				tmo.tv_sec = left / NSEC_PER_SEC;
				tmo.tv_nsec = left % NSEC_PER_SEC;
				tp = &tmo;
			}
			/* overwrite rings never wake us: wait for a signal or a deadline */
			if (rec->ctl_fd >= 0) {
				/* the control fd wakes us too (alone with overwrite rings) */
				pfd[rec->rings.nr].fd = rec->ctl_fd;
				pfd[rec->rings.nr].events = POLLIN;
				pfd[rec->rings.nr].revents = 0;
				if (rec->opts.overwrite)
					n = ppoll(&pfd[rec->rings.nr], 1, tp, waitmask);
				else
					n = ppoll(pfd, rec->rings.nr + 1, tp, waitmask);
			} else {
				n = ppoll(pfd, rec->opts.overwrite ? 0 : rec->rings.nr, tp, waitmask);
			}
			rec->nr_wakeups++;
			if (n < 0 && errno != EINTR) {
				err = -errno;
				break;
			}
			/* every event gone (the tasks exited): read what is left, then stop */
			for (int i = 0; i < rec->rings.nr; i++) {
				if (pfd[i].revents & (POLLHUP | POLLERR))
					pfd[i].fd = -1;
				alive += pfd[i].fd >= 0;
			}
			if (rec->rings.nr && !alive)
				draining = true;
		}
	}
	free(pfd);
	return err;
}
