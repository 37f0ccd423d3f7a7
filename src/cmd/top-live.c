/* SPDX-License-Identifier: MIT */
/* sonde top, live: the rings read into the session, the view aged and refreshed, the stdio loop. */
#include "builtin.h"
#include "cmd/events-option.h"
#include "cmd/report.h"
#include "cmd/top.h"
#include "core/cpumap.h"
#include "core/evlist-open.h"
#include "core/evlist.h"
#include "core/evsel.h"
#include "core/mmap.h"
#include "core/record-config.h"
#include "core/threadmap.h"
#include "data/reader.h"
#include "data/synthesize.h"
#include "lib/debug.h"
#include "lib/optspec.h"
#include "lib/strvec.h"
#include "lib/util.h"
#include "lib/xalloc.h"
#include "session/report.h"
#include "session/session.h"
#include "ui/top.h"
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

/* ---- the live session ---- */

static int synth_to_session(void *arg, union perf_event *ev)
{
	struct top *top = arg;

	session_deliver_event(top->session, &top->rep.tool, ev);
	/* Ctrl-C while /proc is read: stop there */
	return top_done ? -EINTR : 0;
}

int top_synthesize(struct top *top)
{
	struct evlist *evlist = top->evlist;
	struct synth s;
	int err;

	synth_init(&s, synth_to_session, top, record_id_hdr_size(evlist), NULL);
	synth_kernel_mmap(&s);
	if (top->session->machine.kernel_dso) {
		struct dso *kernel = top->session->machine.kernel_dso;

		/* perf top names the running kernel "[kernel]" */
		kernel->short_name = strpool_intern(&top->session->names, "[kernel]");
		/* the biggest table: queued before any sample (loaded here without a loader thread) */
		dso_load(&top->session->machine, kernel);
	}
	synth_modules(&s);
	if (top->opts.target.system_wide || top->opts.target.cpu_list)
		err = synth_all_tasks(&s, true);
	else
		err = synth_thread_map_tasks(&s, evlist->threads->pids, evlist->threads->nr, true);
	synth_release(&s);
	return err;
}

/* account - the header's numbers for one record from a ring */
static void account(struct top *top, const union perf_event *ev)
{
	if (ev->header.type == PERF_RECORD_SAMPLE) {
		u16 mode = ev->header.misc & PERF_RECORD_MISC_CPUMODE_MASK;

		top->nr_samples++;
		if (mode == PERF_RECORD_MISC_KERNEL || mode == PERF_RECORD_MISC_GUEST_KERNEL)
			top->nr_kernel++;
		top->nr_host_kernel += mode == PERF_RECORD_MISC_KERNEL;
		top->nr_host_user += mode == PERF_RECORD_MISC_USER;
		top->nr_guest_kernel += mode == PERF_RECORD_MISC_GUEST_KERNEL;
		top->nr_guest_user += mode == PERF_RECORD_MISC_GUEST_USER;
		if (ev->header.misc & PERF_RECORD_MISC_EXACT_IP)
			top->nr_exact++;
	} else if (ev->header.type == PERF_RECORD_LOST) {
		top->nr_lost += ev->lost.lost;
	}
}

int top_read_rings(struct top *top)
{
	int nr = 0;

	/* symbol tables the loader thread finished: new samples resolve to them from now on */
	top->nr_new_tables += machine_collect_symbols(&top->session->machine);

	for (int i = 0; i < top->rings.nr; i++) {
		struct perf_mmap *m = &top->rings.rings[i];
		union perf_event *ev;

		if (perf_mmap_read_init(m))
			continue;
		nr++;
		while ((ev = perf_mmap_read_event(m))) {
			if (top->paused && ev->header.type == PERF_RECORD_SAMPLE)
				continue;
			account(top, ev);
			session_deliver_event(top->session, &top->rep.tool, ev);
		}
		perf_mmap_read_done(m);
	}
	return nr;
}

static const struct frame *reresolve(void *arg, const struct frame *f)
{
	return machine_frame_reresolve(arg, f);
}

void top_resolve_pending(struct top *top)
{
	if (!top->nr_new_tables)
		return;
	for (int i = 0; i < top->rep.nr_hists; i++)
		hists_remap_frames(&top->rep.hists[i], reresolve, &top->session->machine);
	top->nr_new_tables = 0;
}

/* hide_entries - -K/-U: kernel or user entries hidden (their period stays in the 100%) */
static void hide_entries(struct top *top, struct hists *h)
{
	for (size_t i = 0; i < h->nr_entries; i++) {
		struct hist_entry *e = h->entries[i];
		bool kernel = e->level == 'k' || e->level == 'g';

		e->filtered = (top->hide_kernel && kernel) || (top->hide_user && !kernel);
		if (!e->filtered && top->symbol_filter &&
		    (!e->frame->sym || !strstr(e->frame->sym->name, top->symbol_filter)))
			e->filtered = true;
	}
}

void top_prepare_view(struct top *top, struct hists *h)
{
	top_resolve_pending(top);
	hists_sort(h);
	hide_entries(top, h);
}

void top_take_stats(struct top *top, struct top_stats *st)
{
	u64 now = monotonic_ns();
	double secs = (double)(now - top->last_refresh) / 1e9;

	memset(st, 0, sizeof(*st));
	st->irqs_per_sec = secs > 0 ? (double)top->nr_samples / secs : 0;
	st->kernel_pct = top->nr_samples ? 100.0 * (double)top->nr_kernel / (double)top->nr_samples : 0;
	st->exact_pct = top->nr_samples ? 100.0 * (double)top->nr_exact / (double)top->nr_samples : 0;
	if (report_kvm_sides.guest_stats) {
		/* perf kvm top with the guest side: each mode's share, nan before any sample */
		double n = (double)top->nr_samples;

		st->guest_stats = true;
		st->kernel_pct = n ? 100.0 * (double)top->nr_host_kernel / n : -NAN;
		st->user_pct = n ? 100.0 * (double)top->nr_host_user / n : -NAN;
		st->guest_kernel_pct = n ? 100.0 * (double)top->nr_guest_kernel / n : -NAN;
		st->guest_user_pct = n ? 100.0 * (double)top->nr_guest_user / n : -NAN;
	}
	top->nr_host_kernel = top->nr_host_user = top->nr_guest_kernel = top->nr_guest_user = 0;
	top->lost_total += top->nr_lost;
	st->lost = top->nr_lost;
	st->lost_total = top->lost_total;
	st->event = top->event_str;
	st->target = top->target_str;
	top->nr_samples = top->nr_kernel = top->nr_exact = top->nr_lost = 0;
	top->last_refresh = now;
}

static void forget_maps(void *arg, const struct maps *maps)
{
	resolver_forget_maps(arg, maps);
}

/*
 * top_age - after a refresh: -z zeroes the histograms, otherwise their
 * numbers decay; a histogram whose removed entries pile up starts afresh;
 * processes that exited are freed with what no entry holds any more
 * (bounded memory over hours). Returns true when threads may have been
 * freed: a view still showing removed entries must be made again.
 */
bool top_age(struct top *top)
{
	top_resolve_pending(top);
	for (int i = 0; i < top->rep.nr_hists; i++) {
		struct hists *h = &top->rep.hists[i];

		if (!top->zero) {
			top->nr_removed[i] += hists_decay(h);
			if (top->nr_removed[i] < 65536 || top->nr_removed[i] < 4 * h->nr_entries)
				continue;
		}
		hists_release_live(h);
		hists_init(h, &top->ho);
		top->nr_removed[i] = 0;
	}
	/* DWARF unwinding keeps per-space state of its own: no reaping then */
	if (top->opts.callchain == CALLCHAIN_DWARF)
		return false;
	return machine_reap(&top->session->machine, forget_maps, &top->rep.res) > 0;
}

/* term_size - perf's: $LINES/$COLUMNS, else stdout's window, else 25 x 80 */
void top_term_size(int *rows, int *cols)
{
	const char *l = getenv("LINES"), *c = getenv("COLUMNS");
	struct winsize ws;

	*rows = 25;
	*cols = 80;
	if (l && c && atoi(l) > 0 && atoi(c) > 0) {
		*rows = atoi(l);
		*cols = atoi(c);
	} else if (!ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_row && ws.ws_col) {
		*rows = ws.ws_row;
		*cols = ws.ws_col;
	}
}

static void stdio_refresh(struct top *top)
{
	struct hists *h = &top->rep.hists[0];
	struct hists_print_opts po = top->po;
	struct top_stats st;
	int rows, cols;

	top_term_size(&rows, &cols);
	top_take_stats(top, &st);
	top_prepare_view(top, h);
	po.max_entries = top->print_entries > 0 ? (size_t)top->print_entries
						: (size_t)(rows > 5 ? rows - 5 : 1);
	top_print_stdio(stdout, &st, h, &po, cols);
	top_age(top);
}

/* stdin_key - a key from stdin when one is there (-1: none, 0: closed) */
static int stdin_key(struct top *top)
{
	unsigned char c;
	ssize_t n;

	if (!top->stdin_open)
		return -1;
	n = read(STDIN_FILENO, &c, 1);
	if (n == 0) {
		top->stdin_open = false;
		return 0;
	}
	return n == 1 ? c : -1;
}

int top_stdio_loop(struct top *top)
{
	struct termios saved, raw;
	bool tty = isatty(STDIN_FILENO);
	u64 next;

	if (tty && !tcgetattr(STDIN_FILENO, &saved)) {
		raw = saved;
		raw.c_lflag &= ~(ICANON | ECHO);
		raw.c_cc[VMIN] = 1;
		raw.c_cc[VTIME] = 0;
		tcsetattr(STDIN_FILENO, TCSANOW, &raw);
	} else {
		tty = false;
	}
	top->stdin_open = true;
	top->last_refresh = monotonic_ns();
	stdio_refresh(top);
	next = monotonic_ns() + (u64)top->delay_secs * NSEC_PER_SEC;
	while (!top_done) {
		struct pollfd pfd[1 + 1024];
		int nfds = 0, timeout;
		u64 now;

		if (top->stdin_open)
			pfd[nfds++] = (struct pollfd){ .fd = STDIN_FILENO, .events = POLLIN };
		for (int i = 0; i < top->rings.nr && nfds < (int)ARRAY_SIZE(pfd); i++)
			pfd[nfds++] = (struct pollfd){ .fd = top->rings.rings[i].fd, .events = POLLIN };
		now = monotonic_ns();
		timeout = now >= next ? 0 : (int)((next - now) / NSEC_PER_MSEC) + 1;
		/* rings are read at most every 100ms: the kernel wakes us per page of data */
		if (timeout > 100)
			timeout = 100;
		if (poll(pfd, nfds, timeout) > 0 && top->stdin_open && (pfd[0].revents & (POLLIN | POLLHUP))) {
			int key = stdin_key(top);

			if (key == 'q' || key == 'Q')
				break;
			/* perf's mapped keys that need no prompt: toggles, shown at the next frame */
			if (key == 'K')
				top->hide_kernel = !top->hide_kernel;
			else if (key == 'U')
				top->hide_user = !top->hide_user;
			else if (key == 'z')
				top->zero = !top->zero;
		}
		top_read_rings(top);
		if (monotonic_ns() >= next) {
			stdio_refresh(top);
			next = monotonic_ns() + (u64)top->delay_secs * NSEC_PER_SEC;
		}
	}
	if (tty)
		tcsetattr(STDIN_FILENO, TCSANOW, &saved);
	return 0;
}
