/* SPDX-License-Identifier: MIT */
/* sonde kvm: stat record/report over the kvm tracepoints, and record/report/top for the guest or host. */
#include "builtin.h"
#include "cmd/open.h"
#include "core/cpumap.h"
#include "core/evlist-open.h"
#include "core/evlist.h"
#include "core/mmap.h"
#include "core/parse-events.h"
#include "core/record-config.h"
#include "core/threadmap.h"
#include "data/reader.h"
#include "lib/util.h"
#include "lib/debug.h"
#include "lib/optspec.h"
#include "lib/strvec.h"
#include "lib/xalloc.h"
#include "session/report.h"
#include "session/session.h"
#include "ui/kvm-stat.h"

#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>

static const char *const kvm_usage[] = {
	"perf kvm [<options>] {top|record|report|diff|buildid-list|stat}",
	NULL,
};

static const char *const kvm_stat_report_usage[] = {
	"perf kvm stat report [<options>]",
	NULL,
};

struct kvm_args {
	const char *input, *output, *guestkallsyms, *guestmodules, *guestmount, *guestvmlinux;
	int host, guest;	/* -1: not given */
	bool guest_code;
};

/* perf kvm's default file: guest-only, host-only or both */
static const char *kvm_default_file(const struct kvm_args *a)
{
	if (a->host == 1 && a->guest != 1 && a->guest != -1)
		return "perf.data.host";
	if (a->host == 1)
		return "perf.data.kvm";
	return "perf.data.guest";
}

static int run_with(int (*fn)(int, const char **), struct strvec *v)
{
	const char **args = xcalloc(v->nr + 1, sizeof(*args));
	int ret;

	memcpy(args, v->v, v->nr * sizeof(*args));
	ret = fn((int)v->nr, args);
	free(args);
	strvec_clear(v);
	return ret;
}

static bool is_cmd(const char *arg, const char *word, size_t min)
{
	size_t n = strlen(arg);

	return n >= min && !strncmp(word, arg, n);
}

static int kvm_stat_record(const struct kvm_args *a, int argc, const char **argv)
{
	static const char *const events[] = { "kvm:kvm_entry", "kvm:kvm_exit", "kvm:kvm_mmio",
					      "kvm:kvm_pio", "kvm:kvm_msr" };
	struct strvec v = STRVEC_INIT;

	strvec_push(&v, "record");
	strvec_push(&v, "-R");
	strvec_push(&v, "-m");
	strvec_push(&v, "1024");
	strvec_push(&v, "-c");
	strvec_push(&v, "1");
	for (size_t i = 0; i < sizeof(events) / sizeof(events[0]); i++) {
		strvec_push(&v, "-e");
		strvec_push(&v, events[i]);
	}
	strvec_push(&v, "-o");
	strvec_push(&v, a->output ? a->output : kvm_default_file(a));
	for (int i = 1; i < argc; i++)
		strvec_push(&v, argv[i]);
	return run_with(cmd_record, &v);
}

static int kvm_stat_report_run(const struct kvm_args *a, int argc, const char **argv)
{
	const char *event = "vmexit", *key = "sample";
	bool force = false;
	struct kvm_stat_opts ko = { .vcpu = -1 };
	const struct opt_spec options[] = {
		SPEC_FLAG("force", 'f', &force, "don't complain, do it"),
		SPEC_TEXT("key", 'k', &key, "sort-key",
			  "key for sorting: sample(sort by samples number) time (sort by avg time)"),
		SPEC_TEXT("pid", 'p', &ko.pids, "pid", "analyze events only for given process id(s)"),
		SPEC_TEXT("event", 0, &event, "report event",
			  "event for reporting: vmexit, mmio (x86 only), ioport (x86 only)"),
		SPEC_INT("vcpu", 0, &ko.vcpu, "vcpu id to report"),
		SPEC_END(),
	};
	struct machine_opts mopts = { .no_symbols = true };
	struct data_reader *reader;
	struct session *session;
	int ret;

	argc = opts_parse(argc, argv, options, kvm_stat_report_usage, 0);
	if (argc)
		opts_usage_exit(kvm_stat_report_usage, options);
	if (!strcmp(event, "vmexit"))
		ko.kind = KVM_STAT_VMEXIT;
	else if (!strcmp(event, "mmio"))
		ko.kind = KVM_STAT_MMIO;
	else if (!strcmp(event, "ioport"))
		ko.kind = KVM_STAT_IOPORT;
	else
		return 234;	/* perf: -EINVAL, silently */
	if (!strcmp(key, "time"))
		ko.sort_time = true;
	else if (strcmp(key, "sample")) {
		fprintf(stderr, "Unknown compare key:%s\n", key);
		return 234;
	}
	reader = data_open_for_read(a->input ? a->input : kvm_default_file(a), force);
	if (!reader) {
		fprintf(stderr, "Initializing perf session failed\n");
		return 255;
	}
	session = session_new(reader, &mopts);
	ret = kvm_stat_report(session, &ko);
	session_free(session);
	return ret < 0 ? 255 : 0;
}

static const char *const kvm_stat_live_usage[] = {
	"perf kvm stat live [<options>]",
	NULL,
};

static volatile sig_atomic_t live_done;

static void live_stop(int sig)
{
	(void)sig;
	live_done = 1;
}

/* the rings' records go straight to the tables (perf's live mode does not reorder either) */
static void live_drain(struct perf_mmap_set *rings, struct session *session, struct tool *tool)
{
	for (int i = 0; i < rings->nr; i++) {
		struct perf_mmap *m = &rings->rings[i];
		union perf_event *ev;

		if (perf_mmap_read_init(m))
			continue;
		while ((ev = perf_mmap_read_event(m)))
			session_deliver_event(session, tool, ev);
		perf_mmap_read_done(m);
	}
}

/* perf's refresh: clear the screen on stdout, the wall time and the table on stderr */
static void live_show(struct kvm_stat *ks)
{
	struct timeval tv;
	struct tm tm;
	char hms[16];

	gettimeofday(&tv, NULL);
	localtime_r(&tv.tv_sec, &tm);
	strftime(hms, sizeof(hms), "%H:%M:%S", &tm);
	printf("\033[H\033[2J\n");
	fflush(stdout);
	fprintf(stderr, "%s.%06ld", hms, (long)tv.tv_usec);
	kvm_stat_print(ks);
	kvm_stat_reset(ks);
}

static int kvm_stat_live(int argc, const char **argv)
{
	static const char *const events[] = { "kvm:kvm_entry", "kvm:kvm_exit", "kvm:kvm_mmio",
					      "kvm:kvm_pio", "kvm:kvm_msr" };
	const char *event = "vmexit", *key = "sample";
	int display = 1, pages = 0, duration = 0, timeout_ms = 500;
	struct kvm_stat_opts ko = { .vcpu = -1 };
	struct record_opts ro;
	const struct opt_spec options[] = {
		SPEC_FLAG("all-cpus", 'a', &ro.target.system_wide, "system-wide collection from all CPUs"),
		SPEC_INT("display", 'd', &display, "time in seconds between display updates"),
		SPEC_TEXT("key", 'k', &key, "sort-key",
			  "key for sorting: sample(sort by samples number) time (sort by avg time)"),
		SPEC_INT("mmap-pages", 'm', &pages, "number of mmap data pages"),
		SPEC_TEXT("pid", 'p', &ko.pids, "pid", "record events on existing process id"),
		SPEC_COUNT("verbose", 'v', &verbose, "be more verbose (show counter open errors, etc)"),
		SPEC_INT("duration", 0, &duration,
			 "show events other than HLT (x86 only) or Wait state (s390 only) that take longer than duration usecs"),
		SPEC_TEXT("event", 0, &event, "report event",
			  "event for reporting: vmexit, mmio (x86 only), ioport (x86 only)"),
		SPEC_INT("proc-map-timeout", 0, &timeout_ms, "per thread proc mmap processing timeout in ms"),
		SPEC_INT("vcpu", 0, &ko.vcpu, "vcpu id to report"),
		SPEC_END(),
	};
	struct evlist *evlist;
	struct evsel *failed = NULL;
	struct perf_mmap_set rings = { 0 };
	struct machine_opts mopts = { .no_symbols = true };
	struct session *session;
	struct kvm_stat *ks;
	struct sigaction sa;
	char msg[256], buf[BUFSIZ];
	u64 next;
	int err;

	record_opts_init(&ro);
	argc = opts_parse(argc, argv, options, kvm_stat_live_usage, 0);
	if (argc)
		opts_usage_exit(kvm_stat_live_usage, options);
	if (!strcmp(event, "mmio"))
		ko.kind = KVM_STAT_MMIO;
	else if (!strcmp(event, "ioport"))
		ko.kind = KVM_STAT_IOPORT;
	else if (strcmp(event, "vmexit"))
		return 234;
	if (!strcmp(key, "time"))
		ko.sort_time = true;
	else if (strcmp(key, "sample")) {
		fprintf(stderr, "Unknown compare key:%s\n", key);
		return 234;
	}
	if (display < 1)
		display = 1;
	ro.target.pid = ko.pids;
	if (!ro.target.pid)
		ro.target.system_wide = true;
	ro.raw_samples = true;
	ro.default_interval = 1;
	ro.user_interval = true;
	ro.freq = 0;
	evlist = evlist_new();
	for (size_t i = 0; i < sizeof(events) / sizeof(events[0]); i++)
		if (parse_events(evlist, events[i], NULL)) {
			evlist_free(evlist);
			fprintf(stderr, "Failed to set up the kvm events\n");
			return 255;
		}
	err = evlist_create_maps(evlist, &ro.target);
	if (err) {
		fprintf(stderr, "Error:\nCouldn't create thread/CPU maps: %s\n", strerror(-err));
		evlist_free(evlist);
		return 255;
	}
	record_config_evlist(evlist, &ro, true, false);
	err = record_open_evlist(evlist, evlist->cpus, evlist->threads, &failed, msg, sizeof(msg));
	if (err) {
		evlist_strerror_open(failed, &ro.target, -err, buf, sizeof(buf));
		fprintf(stderr, "Error:\n%s\n", buf);
		evlist_free(evlist);
		return 255;
	}
	err = perf_mmap_set_open(&rings, evlist, evlist->cpus->nr, evlist->cpus->map,
				 evlist->threads->nr, evlist->threads->pids,
				 pages > 0 ? (size_t)pages : perf_mmap_default_pages(), false);
	if (err) {
		fprintf(stderr, "failed to mmap with %d (%s)\n", -err, strerror(-err));
		evlist_free(evlist);
		return 255;
	}
	session = session_new(data_reader_new_live(evlist), &mopts);
	ks = kvm_stat_new(session, &ko);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = live_stop;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	evlist_enable(evlist);
	next = monotonic_ns() + (u64)display * NSEC_PER_SEC;
	while (!live_done) {
		struct pollfd pfd[1024];
		int nfds = 0;
		u64 now = monotonic_ns();

		for (int i = 0; i < rings.nr && nfds < 1024; i++)
			pfd[nfds++] = (struct pollfd){ .fd = rings.rings[i].fd, .events = POLLIN };
		poll(pfd, nfds, now >= next ? 0 : (int)((next - now) / NSEC_PER_MSEC) + 1);
		live_drain(&rings, session, kvm_stat_tool(ks));
		if (monotonic_ns() >= next) {
			live_show(ks);
			next += (u64)display * NSEC_PER_SEC;
		}
	}
	evlist_disable(evlist);
	kvm_stat_free(ks);
	session_free(session);
	perf_mmap_set_release(&rings);
	evlist_free(evlist);
	return 1;	/* perf's status once Ctrl-C ends it */
}

static int kvm_stat(const struct kvm_args *a, int argc, const char **argv)
{
	struct strvec v = STRVEC_INIT;

	if (argc > 1 && is_cmd(argv[1], "record", 3))
		return kvm_stat_record(a, argc - 1, argv + 1);
	if (argc > 1 && is_cmd(argv[1], "report", 3))
		return kvm_stat_report_run(a, argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "live"))
		return kvm_stat_live(argc - 1, argv + 1);
	/* anything else is perf stat */
	for (int i = 0; i < argc; i++)
		strvec_push(&v, i ? argv[i] : "stat");
	return run_with(cmd_stat, &v);
}

/*
 * diff_names_files - whether perf diff's @argv (options and files) names a
 * file: a word that is neither an option nor the value of one of diff's
 * options taking a separate value
 */
static bool diff_names_files(int argc, const char **argv)
{
	static const char *const valued[] = { "-C", "--comms", "-c", "--compute", "-d", "--dsos",
					      "-o", "--order", "-s", "--sort", "-S", "--symbols",
					      "-t", "--field-separator", "--cpu", "--kallsyms",
					      "--percentage", "--pid", "--symfs", "--tid", "--time",
					      NULL };

	for (int i = 0; i < argc; i++) {
		bool takes_value = false;

		if (!strcmp(argv[i], "--"))
			return i + 1 < argc;
		if (argv[i][0] != '-')
			return true;
		for (int k = 0; valued[k]; k++)
			takes_value |= !strcmp(argv[i], valued[k]);
		i += takes_value;
	}
	return false;
}

/* perf's warning when --guestmount names no directory; it records on without the guest kernel */
static void guest_mount_check(const struct kvm_args *a)
{
	struct stat st;

	if (a->guestmount && (stat(a->guestmount, &st) || !S_ISDIR(st.st_mode)))
		fprintf(stderr, "Cannot read kernel map\n");
}

int cmd_kvm(int argc, const char **argv)
{
	struct kvm_args a = { .host = -1, .guest = -1 };
	bool host = false, guest = false;
	const struct opt_spec options[] = {
		SPEC_TEXT("input", 'i', &a.input, "file", "Input file name"),
		SPEC_TEXT("output", 'o', &a.output, "file", "Output file name"),
		SPEC_COUNT("verbose", 'v', &verbose, "be more verbose (show counter open errors, etc)"),
		SPEC_FLAG("guest", 0, &guest, "Collect guest os data"),
		SPEC_FLAG("guest-code", 0, &a.guest_code, "Guest code can be found in hypervisor process"),
		SPEC_TEXT("guestkallsyms", 0, &a.guestkallsyms, "file",
			  "file saving guest os /proc/kallsyms"),
		SPEC_TEXT("guestmodules", 0, &a.guestmodules, "file",
			  "file saving guest os /proc/modules"),
		SPEC_TEXT("guestmount", 0, &a.guestmount, "directory",
			  "guest mount directory under which every guest os instance has a subdir"),
		SPEC_TEXT("guestvmlinux", 0, &a.guestvmlinux, "file", "file saving guest os vmlinux"),
		SPEC_FLAG("host", 0, &host, "Collect host os data"),
		SPEC_END(),
	};
	struct strvec v = STRVEC_INIT;
	bool saw_guest = false;

	for (int i = 1; i < argc && argv[i][0] == '-'; i++)
		if (!strcmp(argv[i], "--guest") || !strcmp(argv[i], "--no-guest"))
			saw_guest = true;
	argc = opts_parse(argc, argv, options, kvm_usage, OPTS_STOP_AT_ARG);
	if (argc < 1)
		opts_usage_exit(kvm_usage, options);
	a.host = host;
	a.guest = saw_guest ? guest : (host ? -1 : 1);
	/* perf kvm: guest only unless --host; both with --host and no --no-guest */
	parse_events_plain_sides.exclude_host = !host;
	parse_events_plain_sides.exclude_guest = host && saw_guest && !guest;
	/* report, diff and top hide the samples of the side left out, as perf kvm's */
	report_kvm_sides.hide_host = parse_events_plain_sides.exclude_host;
	report_kvm_sides.hide_guest = parse_events_plain_sides.exclude_guest;
	report_kvm_sides.guest_stats = !report_kvm_sides.hide_guest;
	if (!strcmp(argv[0], "stat"))
		return kvm_stat(&a, argc, argv);
	if (is_cmd(argv[0], "record", 3)) {
		guest_mount_check(&a);
		strvec_push(&v, "record");
		strvec_push(&v, "-o");
		strvec_push(&v, a.output ? a.output : kvm_default_file(&a));
		for (int i = 1; i < argc; i++)
			strvec_push(&v, argv[i]);
		return run_with(cmd_record, &v);
	}
	if (is_cmd(argv[0], "report", 3) || !strcmp(argv[0], "diff") ||
	    !strcmp(argv[0], "buildid-list")) {
		int (*fn)(int, const char **) = argv[0][0] == 'd' ? cmd_diff :
						argv[0][0] == 'b' ? cmd_buildid_list : cmd_report;

		strvec_push(&v, argv[0][0] == 'r' ? "report" : argv[0]);
		if (fn != cmd_diff) {
			strvec_push(&v, "-i");
			strvec_push(&v, a.input ? a.input : kvm_default_file(&a));
		} else if (!diff_names_files(argc - 1, argv + 1)) {
			/* perf kvm diff: the host file against the guest one (-i is not used) */
			strvec_push(&v, "perf.data.host");
			strvec_push(&v, "perf.data.guest");
		}
		for (int i = 1; i < argc; i++)
			strvec_push(&v, argv[i]);
		return run_with(fn, &v);
	}
	if (!strcmp(argv[0], "top")) {
		for (int i = 0; i < argc; i++)
			strvec_push(&v, argv[i]);
		return run_with(cmd_top, &v);
	}
	opts_usage_exit(kvm_usage, options);
	return 129;
}
