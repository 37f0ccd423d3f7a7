/* SPDX-License-Identifier: MIT */
/* sonde record: sample a command, processes, threads or cpus into perf.data. */
#include "builtin.h"
#include "cmd/record.h"
#include "core/cpumap.h"
#include "core/evlist-open.h"
#include "core/mmap.h"
#include "core/parse-events.h"
#include "core/record-config.h"
#include "core/threadmap.h"
#include "data/synthesize.h"
#include "data/writer.h"
#include "lib/strvec.h"
#include "lib/debug.h"
#include "lib/optspec.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "session/recorder.h"
#include "cmd/events-option.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *const record_usage[] = {
	"perf record [<options>] [<command>]",
	"perf record [<options>] -- <command> [<options>]",
	NULL,
};

/* ---- option callbacks ---- */

static int opt_freq(const struct opt_spec *opt, const char *arg, int unset)
{
	struct record *rec = opt->dest;
	u64 v;

	(void)unset;
	if (!strcasecmp(arg, "max")) {
		rec->freq_max = true;
		rec->opts.freq = record_max_sample_rate();
		rec->opts.user_freq = true;
		return 0;
	}
	if (parse_u64(arg, &v))
		return -1;
	rec->opts.freq = v;
	rec->opts.user_freq = true;
	return 0;
}

static int opt_count(const struct opt_spec *opt, const char *arg, int unset)
{
	struct record *rec = opt->dest;
	u64 v;

	(void)unset;
	if (parse_u64(arg, &v))
		return -1;
	rec->opts.default_interval = v;
	rec->opts.user_interval = true;
	return 0;
}

static int opt_g(const struct opt_spec *opt, const char *arg, int unset)
{
	struct record *rec = opt->dest;

	(void)arg;
	rec->opts.callchain = unset ? CALLCHAIN_NONE : CALLCHAIN_FP;
	return 0;
}

static int opt_call_graph(const struct opt_spec *opt, const char *arg, int unset)
{
	struct record *rec = opt->dest;

	if (unset) {
		rec->opts.callchain = CALLCHAIN_NONE;
		return 0;
	}
	if (!strncmp(arg, "dwarf,", 6)) {
		u64 size;

		/* perf's check of the stack dump size, before anything else */
		if (!parse_u64(arg + 6, &size) && PERF_ALIGN(size, 8) > 65528) {
			fprintf(stderr, "callchain: Incorrect stack dump size (max 65528): %s\n\n",
				arg + 6);
			return -1;
		}
	}
	if (record_parse_callchain(&rec->opts, arg)) {
		fprintf(stderr, "callchain: Unknown --call-graph option value: %s\n", arg);
		return -1;
	}
	/* perf records data addresses with dwarf unwinding (for the stack maps) */
	if (rec->opts.callchain == CALLCHAIN_DWARF)
		rec->opts.sample_address = true;
	return 0;
}

/* perf's short size form: "4K", "16K", "2M" */
static void format_size(char *buf, size_t len, unsigned long long bytes)
{
	if (bytes >= (1ULL << 30) && !(bytes & ((1ULL << 30) - 1)))
		snprintf(buf, len, "%lluG", bytes >> 30);
	else if (bytes >= (1ULL << 20) && !(bytes & ((1ULL << 20) - 1)))
		snprintf(buf, len, "%lluM", bytes >> 20);
	else if (bytes >= 1024)
		snprintf(buf, len, "%lluK", bytes >> 10);
	else
		snprintf(buf, len, "%llu", bytes);
}

static int opt_mmap_pages(const struct opt_spec *opt, const char *arg, int unset)
{
	struct record *rec = opt->dest;
	char buf[64], *end;
	const char *comma = strchr(arg, ',');
	unsigned long long requested;
	size_t pages;

	(void)unset;
	snprintf(buf, sizeof(buf), "%.*s", comma ? (int)(comma - arg) : (int)strlen(arg), arg);
	if (!*buf)
		return 0;
	requested = strtoull(buf, &end, 0);
	if (end != buf && !*end && requested == 0) {
		pages = 1; /* perf takes 0 as the smallest ring */
	} else if (perf_mmap_pages_parse(buf, &pages)) {
		fprintf(stderr, "Invalid argument for --mmap_pages/-m\n");
		return -1;
	}
	/* a page count that is not a power of two is rounded up, with perf's note */
	if (end != buf && !*end && requested != pages) {
		char sz[32];

		format_size(sz, sizeof(sz), (unsigned long long)pages * page_size);
		fprintf(stderr, "rounding mmap pages size to %s (%zu pages)\n", sz, pages);
	}
	rec->mmap_pages = pages;
	rec->opts.mmap_pages_set = true;
	return 0;
}

static int opt_clockid(const struct opt_spec *opt, const char *arg, int unset)
{
	static const struct { const char *name; int id; } clocks[] = {
		{ "monotonic", CLOCK_MONOTONIC }, { "mono", CLOCK_MONOTONIC },
		{ "monotonic_raw", CLOCK_MONOTONIC_RAW }, { "mono_raw", CLOCK_MONOTONIC_RAW },
		{ "realtime", CLOCK_REALTIME }, { "real", CLOCK_REALTIME },
		{ "boottime", CLOCK_BOOTTIME }, { "boot", CLOCK_BOOTTIME },
		{ "tai", CLOCK_TAI },
	};
	struct record *rec = opt->dest;
	const char *name = arg;
	u64 v;

	if (unset) {
		rec->opts.use_clockid = false;
		return 0;
	}
	if (!strncasecmp(name, "CLOCK_", 6))
		name += 6;
	rec->opts.use_clockid = true;
	if (!parse_u64(name, &v)) {
		rec->opts.clockid = (int)v;
		return 0;
	}
	for (size_t i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++)
		if (!strcasecmp(name, clocks[i].name)) {
			rec->opts.clockid = clocks[i].id;
			return 0;
		}
	fprintf(stderr, "unknown clockid %s, check man page\n", arg);
	return -1;
}

static int opt_compression(const struct opt_spec *opt, const char *arg, int unset)
{
	struct record *rec = opt->dest;
	u64 v = 1;

	if (unset) {
		rec->comp_level = 0;
		return 0;
	}
	if (arg && (parse_u64(arg, &v) || v > 22 || !v))
		return -1;
	rec->comp_level = (int)v;
	return 0;
}

static int opt_switch_output(const struct opt_spec *opt, const char *arg, int unset)
{
	struct record *rec = opt->dest;
	char *end;
	unsigned long long v;

	if (unset)
		return 0;
	rec->switch_output = true;
	if (!arg || !strcmp(arg, "signal")) {
		rec->switch_signal = true;
		return 0;
	}
	v = strtoull(arg, &end, 10);
	if (end == arg)
		return -1;
	switch (*end) {
	case 'B': rec->switch_size = v; break;
	case 'K': rec->switch_size = v << 10; break;
	case 'M': rec->switch_size = v << 20; break;
	case 'G': rec->switch_size = v << 30; break;
	case 's': rec->switch_time = v; break;
	case 'm': rec->switch_time = v * 60; break;
	case 'h': rec->switch_time = v * 3600; break;
	case 'd': rec->switch_time = v * 86400; break;
	default: return -1;
	}
	if (end[1])
		return -1;
	return 0;
}

/* -G: the cgroups of the events given so far (cmd/events-option.c) */
static int opt_cgroup(const struct opt_spec *opt, const char *arg, int unset)
{
	struct record *rec = opt->dest;

	if (unset)
		return 0;
	rec->cgroup = arg;
	return evlist_add_cgroups_option(rec->evlist, arg);
}

/* -D MSECS (-1: start disabled), or "-D 10-20,30-40": enabled in those ranges */
static int opt_delay(const struct opt_spec *opt, const char *arg, int unset)
{
	struct record *rec = opt->dest;
	char *end;
	long v;

	if (unset) {
		rec->opts.initial_delay = 0;
		rec->nr_delay_ranges = 0;
		return 0;
	}
	if (*arg != '-' && strchr(arg, '-')) {
		/* perf's usage alone on a bad range; the events start disabled */
		if (parse_delay_ranges(rec, arg)) {
			fprintf(stderr, "\n");
			return -1;
		}
		rec->opts.initial_delay = -1;
		return 0;
	}
	v = strtol(arg, &end, 0);
	if (end == arg || *end || v < -1 || v > 0x7fffffff) {
		fprintf(stderr, "\n");
		return -1;
	}
	rec->opts.initial_delay = (int)v;
	return 0;
}

/* --max-size SIZE[BKMG] */
static int opt_max_size(const struct opt_spec *opt, const char *arg, int unset)
{
	struct record *rec = opt->dest;
	char *end;
	unsigned long long v;

	if (unset) {
		rec->max_size = 0;
		return 0;
	}
	v = strtoull(arg, &end, 10);
	if (end == arg)
		return -1;
	switch (*end) {
	case 0: case 'B': break;
	case 'K': v <<= 10; break;
	case 'M': v <<= 20; break;
	case 'G': v <<= 30; break;
	default: return -1;
	}
	if (*end && end[1])
		return -1;
	rec->max_size = v;
	return 0;
}

static int opt_aio(const struct opt_spec *opt, const char *arg, int unset)
{
	(void)opt;
	(void)arg;
	(void)unset;
	/* asynchronous writes bring nothing over the buffered writer: accepted, ignored */
	return 0;
}

static int opt_ignored_str(const struct opt_spec *opt, const char *arg, int unset)
{
	(void)opt;
	(void)arg;
	(void)unset;
	return 0;
}

/* -S / --aux-sample: there is no AUX area event to use them with (checked at start) */
static int opt_aux_snapshot(const struct opt_spec *opt, const char *arg, int unset)
{
	struct record *rec = opt->dest;

	(void)arg;
	rec->aux_snapshot = !unset;
	return 0;
}

static int opt_aux_sample(const struct opt_spec *opt, const char *arg, int unset)
{
	struct record *rec = opt->dest;

	(void)arg;
	rec->aux_sample = !unset;
	return 0;
}

static int opt_threads(const struct opt_spec *opt, const char *arg, int unset)
{
	struct record *rec = opt->dest;

	(void)arg;
	rec->threads = !unset;
	return 0;
}

static int opt_debuginfod(const struct opt_spec *opt, const char *arg, int unset)
{
	struct record *rec = opt->dest;

	(void)arg;
	rec->debuginfod = !unset;
	return 0;
}

static int opt_switch_output_event(const struct opt_spec *opt, const char *arg, int unset)
{
	struct record *rec = opt->dest;

	rec->switch_output_event = unset ? NULL : arg;
	return 0;
}

#define REC_FN(l, s, a, h, f) SPEC_FN(l, s, rec, a, h, f)

static const char call_graph_help[] =
	"setup and enables call-graph (stack chain/backtrace):\n\n"
	"\t\t\t\trecord_mode:\tcall graph recording mode (fp|dwarf|lbr)\n"
	"\t\t\t\trecord_size:\tif record_mode is 'dwarf', max size of stack recording (<bytes>)\n"
	"\t\t\t\t\t\tdefault: 8192 (bytes)\n\n"
	"\t\t\t\tDefault: fp";
static const char control_help[] =
	"Listen on ctl-fd descriptor for command to control measurement ('enable': enable events, 'disable': disable events,\n"
	"\t\t\t  'snapshot': AUX area tracing snapshot).\n"
	"\t\t\t  Optionally send control command completion ('ack\\n') to ack-fd descriptor.\n"
	"\t\t\t  Alternatively, ctl-fifo / ack-fifo will be opened and used as ctl-fd / ack-fd.";

static struct opt_spec *record_options(struct record *rec)
{
	struct record_opts *o = &rec->opts;
	struct opt_spec opts[] = {
		SPEC_FN("event", 'e', &rec->evlist, "event", "event selector. use 'perf list' to list available events", parse_events_option),
		SPEC_FN("filter", 0, &rec->evlist, "filter", "event filter", parse_filter_option),
		SPEC_FN_NOVAL("exclude-perf", 0, rec, "don't record events from perf itself", opt_exclude_perf),
		SPEC_TEXT("pid", 'p', &o->target.pid, "pid", "record events on existing process id"),
		SPEC_TEXT("tid", 't', &o->target.tid, "tid", "record events on existing thread id"),
		SPEC_INT("realtime", 'r', &rec->realtime_prio, "collect data with this RT SCHED_FIFO priority"),
		SPEC_FLAG("no-buffering", 0, &o->no_buffering, "collect data without buffering"),
		SPEC_FLAG("raw-samples", 'R', &o->raw_samples, "collect raw sample records from all opened counters"),
		SPEC_FLAG("all-cpus", 'a', &o->target.system_wide, "system-wide collection from all CPUs"),
		SPEC_TEXT("cpu", 'C', &o->target.cpu_list, "cpu", "list of cpus to monitor"),
		REC_FN("count", 'c', "n", "event period to sample", opt_count),
		SPEC_TEXT("output", 'o', &rec->output, "file", "output file name"),
		SPEC_FLAG("no-inherit", 'i', &o->no_inherit, "child tasks do not inherit counters"),
		SPEC_FLAG("tail-synthesize", 0, &rec->tail_synthesize, "synthesize non-sample events at the end of output"),
		SPEC_FLAG("overwrite", 0, &o->overwrite, "use overwrite mode"),
		SPEC_FLAG("no-bpf-event", 0, &o->no_bpf_event, "do not record bpf events"),
		SPEC_FLAG("strict-freq", 0, &rec->strict_freq, "Fail if the specified frequency can't be used"),
		REC_FN("freq", 'F', "freq or 'max'", "profile at this frequency", opt_freq),
		REC_FN("mmap-pages", 'm', "pages[,pages]", "number of mmap data pages and AUX area tracing mmap pages", opt_mmap_pages),
		SPEC_FN("mmap-flush", 0, rec, "number", "Minimal number of bytes that is extracted from mmap data pages (default: 1)", opt_ignored_str),
		SPEC_FLAG("group", 0, &o->group, "put the counters into a counter group"),
		SPEC_FN_NOVAL(NULL, 'g', rec, "enables call-graph recording", opt_g),
		REC_FN("call-graph", 0, "record_mode[,record_size]", call_graph_help, opt_call_graph),
		SPEC_COUNT("verbose", 'v', &verbose, "be more verbose (show counter open errors, etc)"),
		SPEC_FLAG("quiet", 'q', &rec->quiet, "don't print any warnings or messages"),
		SPEC_FLAG("stat", 's', &o->inherit_stat, "per thread counts"),
		SPEC_FLAG("data", 'd', &o->sample_address, "Record the sample addresses"),
		SPEC_FLAG("phys-data", 0, &o->sample_phys_addr, "Record the sample physical addresses"),
		SPEC_FLAG("data-page-size", 0, &o->sample_data_page_size, "Record the sampled data address data page size"),
		SPEC_FLAG("code-page-size", 0, &o->sample_code_page_size, "Record the sampled code address (ip) page size"),
		SPEC_FLAG("sample-cpu", 0, &o->sample_cpu, "Record the sample cpu"),
		SPEC_FLAG("sample-identifier", 0, &o->sample_identifier, "Record the sample identifier"),
		SPEC_FLAG("timestamp", 'T', &rec->timestamp_opt, "Record the sample timestamps"),
		SPEC_FLAG("period", 'P', &rec->period_opt, "Record the sample period"),
		SPEC_FLAG("no-samples", 'n', &o->no_samples, "don't sample"),
		SPEC_FLAG("no-buildid-cache", 'N', &rec->no_buildid_cache, "do not update the buildid cache"),
		SPEC_FLAG("no-buildid", 'B', &rec->no_buildid, "do not collect buildids in perf.data"),
		REC_FN("cgroup", 'G', "name", "monitor event in cgroup name only", opt_cgroup),
		SPEC_FN("delay", 'D', rec, "ms", "ms to wait before starting measurement after program start (-1: start with events disabled), or ranges of time to enable events e.g. '-D 10-20,30-40'", opt_delay),
		SPEC_FLAG("kcore", 0, &rec->kcore, "copy /proc/kcore"),
		SPEC_TEXT("uid", 'u', &o->target.uid_str, "user", "user to profile"),
		SPEC_FN_NOVAL("branch-any", 'b', rec, "sample any taken branches", opt_branch_any),
		SPEC_FN("branch-filter", 'j', rec, "branch filter mask", "branch stack filter modes", opt_branch_filter),
		SPEC_FLAG("weight", 'W', &o->sample_weight, "sample by weight (on special events only)"),
		SPEC_FLAG("transaction", 0, &o->sample_transaction, "sample transaction flags (special events only)"),
		SPEC_FLAG("per-thread", 0, &o->target.per_thread, "use per-thread mmaps"),
		SPEC_FN_OPTVAL("intr-regs", 'I', rec, "any register", "sample selected machine registers on interrupt, use '-I?' to list register names", opt_intr_regs),
		SPEC_FN_OPTVAL("user-regs", 0, rec, "any register", "sample selected machine registers in user space, use '--user-regs=?' to list register names", opt_user_regs),
		SPEC_FLAG("running-time", 0, &o->running_time, "Record running/enabled time of read (:S) events"),
		REC_FN("clockid", 'k', "clockid", "clockid to use for events, see clock_gettime()", opt_clockid),
		SPEC_FN_OPTVAL("snapshot", 'S', rec, "opts", "AUX area tracing Snapshot Mode", opt_aux_snapshot),
		SPEC_FN_OPTVAL("aux-sample", 0, rec, "opts", "sample AUX area", opt_aux_sample),
		SPEC_INT("proc-map-timeout", 0, &rec->proc_map_timeout, "per thread proc mmap processing timeout in ms"),
		SPEC_FLAG("namespaces", 0, &o->record_namespaces, "Record namespaces events"),
		SPEC_FLAG("all-cgroups", 0, &o->record_cgroup, "Record cgroup events"),
		SPEC_FLAG("switch-events", 0, &o->record_switch_events, "Record context switch events"),
		SPEC_FLAG("all-kernel", 0, &o->all_kernel, "Configure all used events to run in kernel space."),
		SPEC_FLAG("all-user", 0, &o->all_user, "Configure all used events to run in user space."),
		SPEC_FLAG("kernel-callchains", 0, &o->kernel_callchains, "collect kernel callchains"),
		SPEC_FLAG("user-callchains", 0, &o->user_callchains, "collect user callchains"),
		SPEC_TEXT("clang-path", 0, &rec->clang_path, "clang path", "clang binary to use for compiling BPF scriptlets"),
		SPEC_TEXT("clang-opt", 0, &rec->clang_opt, "clang options", "options passed to clang when compiling BPF scriptlets"),
		SPEC_TEXT("vmlinux", 0, &rec->vmlinux, "file", "vmlinux pathname"),
		SPEC_FLAG("buildid-all", 0, &rec->buildid_all, "Record build-id of all DSOs regardless of hits"),
		SPEC_FLAG("buildid-mmap", 0, &rec->buildid_mmap, "Record build-id in map events"),
		SPEC_FLAG("timestamp-filename", 0, &rec->timestamp_filename, "append timestamp to output filename"),
		SPEC_FLAG("timestamp-boundary", 0, &rec->timestamp_boundary, "Record timestamp boundary (time of first/last samples)"),
		SPEC_FN_OPTVAL("switch-output", 0, rec, "signal or size[BKMG] or time[smhd]", "Switch output when receiving SIGUSR2 (signal) or cross a size or time threshold", opt_switch_output),
		SPEC_FN("switch-output-event", 0, rec, "switch output event", "switch output event selector. use 'perf list' to list available events", opt_switch_output_event),
		SPEC_INT("switch-max-files", 0, &rec->switch_max_files, "Limit number of switch output generated files"),
		SPEC_FLAG("dry-run", 0, &rec->dry_run, "Parse options then exit"),
		SPEC_FN_OPTVAL("aio", 0, rec, "n", "Use <n> control blocks in asynchronous trace writing mode (default: 1, max: 4)", opt_aio),
		SPEC_FN("affinity", 0, rec, "node|cpu", "Set affinity mask of trace reading thread to NUMA node cpu mask or cpu of processed mmap buffer", opt_ignored_str),
		SPEC_FN_OPTVAL("compression-level", 'z', rec, "n", "Compress records using specified level (default: 1 - fastest compression, 22 - greatest compression)", opt_compression),
		SPEC_FN("max-size", 0, rec, "size", "Limit the maximum size of the output file", opt_max_size),
		SPEC_INT("num-thread-synthesize", 0, &rec->nr_threads_synthesize, "number of threads to run for event synthesis"),
		SPEC_FN("control", 0, rec, "fd:ctl-fd[,ack-fd] or fifo:ctl-fifo[,ack-fifo]", control_help, opt_control),
		SPEC_FN("synth", 0, rec, "no|all|task|mmap|cgroup", "Fine-tune event synthesis: default=all", opt_synth),
		SPEC_FN_OPTVAL("debuginfod", 0, rec, "debuginfod urls", "Enable debuginfod data retrieval from DEBUGINFOD_URLS or specified urls", opt_debuginfod),
		SPEC_FN_OPTVAL("threads", 0, rec, "spec", "write collected trace data into several data files using parallel threads", opt_threads),
		SPEC_FLAG("off-cpu", 0, &rec->off_cpu, "Enable off-cpu analysis\n                          (not built-in because no BUILD_BPF_SKEL=1)"),
		SPEC_END(),
	};

	return xmemdup(opts, sizeof(opts));
}

/* ---- the recording ---- */

int cmd_record(int argc, const char **argv)
{
	struct record *rec = xzalloc(sizeof(*rec));
	struct opt_spec *options;
	int ret;

	record_opts_init(&rec->opts);
	rec->synth = RECORD_SYNTH_ALL;
	rec->ctl_fd = rec->ctl_ack_fd = -1;
	rec->evlist = evlist_new();
	/* opts_parse reorders argv: keep the command line as given for CMDLINE */
	rec->orig_argc = argc;
	rec->orig_argv = xmemdup(argv, (argc + 1) * sizeof(*argv));
	options = record_options(rec);
	argc = opts_parse(argc, argv, options, record_usage, OPTS_STOP_AT_ARG);
	rec->argc = argc;
	rec->argv = argv;
	if (rec->off_cpu)
		fprintf(stderr, " Warning: option `off-cpu' is being ignored because no BUILD_BPF_SKEL=1 ");
	if (rec->debuginfod && !rec->quiet)
		fprintf(stderr, "WARNING: debuginfod support requested, but perf is not built with it\n");
	if (rec->quiet)
		quiet = 1;
	ret = record_run(rec, options, record_usage);
	if (rec->ctl_close) {
		close(rec->ctl_fd);
		if (rec->ctl_ack_fd >= 0)
			close(rec->ctl_ack_fd);
	}
	if (rec->workload_signal) {
		int sig = rec->workload_signal;

		free(options);
		free(rec->orig_argv);
		evlist_free(rec->evlist);
		free(rec);
		fflush(stderr);
		signal(sig, SIG_DFL);
		raise(sig);
		return 128 + sig;
	}
	free(options);
	free(rec->orig_argv);
	for (int i = 0; i < rec->nr_kept_dumps; i++)
		free(rec->kept_dumps[i]);
	free(rec->kept_dumps);
	if (rec->kcore_dir_path) {
		free((char *)rec->path);
		free(rec->kcore_dir_path);
	}
	evlist_free(rec->evlist);
	free(rec);
	return ret;
}

int cmd_run_strvec(int (*fn)(int, const char **), struct strvec *v)
{
	const char **args = xcalloc(v->nr + 1, sizeof(*args));
	int ret;

	memcpy(args, v->v, v->nr * sizeof(*args));
	ret = fn((int)v->nr, args);
	free(args);
	strvec_clear(v);
	return ret;
}
