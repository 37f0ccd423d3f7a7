/* SPDX-License-Identifier: MIT */
/* sonde top: options, target and events, the run set up; the live loop is cmd/top-live.c, the TUI cmd/top-tui.c. */
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
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

volatile sig_atomic_t top_done; /* a signal asked to stop (cmd/top.h) */

static void on_signal(int sig)
{
	(void)sig;
	top_done = 1;
}

static const char *const top_usage[] = { "perf top [<options>]", NULL };

/* ---- options ---- */

static int opt_count(const struct opt_spec *opt, const char *arg, int unset)
{
	struct top *top = opt->dest;
	u64 v;

	(void)unset;
	if (parse_u64(arg, &v))
		return -1;
	top->opts.default_interval = v;
	top->opts.user_interval = true;
	return 0;
}

static int opt_freq(const struct opt_spec *opt, const char *arg, int unset)
{
	struct top *top = opt->dest;
	u64 v;

	(void)unset;
	if (!strcmp(arg, "max")) {
		v = record_max_sample_rate();
	} else if (parse_u64(arg, &v)) {
		return -1;
	}
	top->opts.freq = v;
	top->opts.user_freq = true;
	return 0;
}

static int opt_g(const struct opt_spec *opt, const char *arg, int unset)
{
	struct top *top = opt->dest;

	(void)arg;
	top->opts.callchain = unset ? CALLCHAIN_NONE : CALLCHAIN_FP;
	top->callchain_set = !unset;
	return 0;
}

/*
 * opt_call_graph - record_mode[,record_size],print_type,threshold,... :
 * the recording part for the events, the rest for the display
 */
static int opt_call_graph(const struct opt_spec *opt, const char *arg, int unset)
{
	struct top *top = opt->dest;
	char *copy, *rest;

	if (unset) {
		top->opts.callchain = CALLCHAIN_NONE;
		top->callchain_set = false;
		return 0;
	}
	copy = xstrdup(arg);
	rest = strchr(copy, ',');
	if (rest && !strncmp(copy, "dwarf,", 6) && rest[1] >= '0' && rest[1] <= '9')
		rest = strchr(rest + 1, ',');
	if (rest)
		*rest++ = '\0';
	if (record_parse_callchain(&top->opts, copy)) {
		/* no record mode: the whole value is the display part (perf's "graph,0.5,caller") */
		top->opts.callchain = CALLCHAIN_FP;
		free(top->cg_display);
		top->cg_display = xstrdup(arg);
	} else if (rest && *rest) {
		free(top->cg_display);
		top->cg_display = xstrdup(rest);
	}
	free(copy);
	if (top->opts.callchain == CALLCHAIN_DWARF)
		top->opts.sample_address = true;
	top->callchain_set = top->opts.callchain != CALLCHAIN_NONE;
	return 0;
}

static int opt_children(const struct opt_spec *opt, const char *arg, int unset)
{
	struct top *top = opt->dest;

	(void)arg;
	top->children = unset ? 0 : 1;
	return 0;
}

/* -w 10,20: the fixed column widths */
static int opt_widths(const struct opt_spec *opt, const char *arg, int unset)
{
	struct top *top = opt->dest;
	const char *p = arg;

	top->nr_widths = 0;
	if (unset)
		return 0;
	while (*p && top->nr_widths < (int)ARRAY_SIZE(top->widths)) {
		char *end;

		top->widths[top->nr_widths++] = (int)strtol(p, &end, 10);
		if (*end != ',')
			break;
		p = end + 1;
	}
	return 0;
}

/* ---- target ---- */

static int top_create_maps(struct top *top)
{
	struct target *t = &top->opts.target;
	struct target copy = *t;
	struct evlist *evlist = top->evlist;
	int err;

	if (t->uid_str) {
		top->tid_list = record_uid_tid_list(t->uid_str, &err);
		if (!top->tid_list)
			return err;
		copy.tid = top->tid_list;
	}
	err = evlist_create_maps(evlist, &copy);
	if (err)
		return err;
	/* task targets: per-cpu rings with inheritance, as record samples them */
	if (!t->system_wide && !t->cpu_list && !t->per_thread) {
		cpu_map_free(evlist->cpus);
		evlist->cpus = cpu_map_online();
	}
	return 0;
}

/* target_text - perf's " (all, 2 CPUs)" / " (target_pid: N)" after the event */
static void target_text(struct top *top)
{
	struct target *t = &top->opts.target;
	char list[128];

	if (t->pid)
		snprintf(top->target_str, sizeof(top->target_str), " (target_pid: %s)", t->pid);
	else if (t->tid)
		snprintf(top->target_str, sizeof(top->target_str), " (target_tid: %s)", t->tid);
	else if (t->uid_str)
		snprintf(top->target_str, sizeof(top->target_str), " (uid: %s)", t->uid_str);
	else if (t->cpu_list) {
		cpu_map_snprint(top->evlist->cpus, list, sizeof(list));
		snprintf(top->target_str, sizeof(top->target_str), " (all, CPU%s: %s)",
			 top->evlist->cpus->nr > 1 ? "s" : "", list);
	} else {
		snprintf(top->target_str, sizeof(top->target_str), " (all, %d CPU%s)",
			 top->evlist->cpus->nr, top->evlist->cpus->nr > 1 ? "s" : "");
	}
}

/* event_text - "4000Hz cpu-clock:pppH" or "100000 cycles"; only the name with several events */
static void event_text(struct top *top)
{
	struct evsel *first = evlist_first(top->evlist);

	struct evsel *evsel;
	int nr = 0;

	/* the tracking event record adds for cpu targets is not one of the user's */
	evlist_for_each_entry(top->evlist, evsel)
		nr += evsel->attr.type != PERF_TYPE_SOFTWARE || evsel->attr.config != PERF_COUNT_SW_DUMMY;
	if (nr > 1)
		snprintf(top->event_str, sizeof(top->event_str), "%s", first->name);
	else if (top->opts.freq)
		snprintf(top->event_str, sizeof(top->event_str), "%lluHz %s",
			 (unsigned long long)first->attr.sample_freq, first->name);
	else
		snprintf(top->event_str, sizeof(top->event_str), "%llu %s",
			 (unsigned long long)first->attr.sample_period, first->name);
}

/* ---- set-up ---- */

static int setup_display(struct top *top)
{
	struct hists_opts *ho = &top->ho;
	bool cc_none = false;

	ho->keys[0] = SORT_DSO;
	ho->keys[1] = SORT_SYM;
	ho->nr_keys = 2;
	ho->cc.mode = CHAIN_GRAPH_ABS;
	ho->cc.min_percent = 0.5;
	ho->max_stack = top->max_stack > 0 ? top->max_stack : 127;
	if (top->sort && report_parse_sort(top->sort, ho))
		return 129;
	if (top->fields && top->sort)
		ho->nr_sort_first = ho->nr_keys;
	if (top->fields && report_parse_fields(top->fields, ho))
		return 129;
	if (top->cg_display && report_parse_callchain(top->cg_display, &ho->cc, &cc_none)) {
		fprintf(stderr, "Invalid callchain mode: %s\n", top->cg_display);
		return 129;
	}
	ho->use_callchain = top->callchain_set && !cc_none;
	ho->file_callchains = top->callchain_set;
	ho->children = top->children < 0 ? top->callchain_set : (top->children && top->callchain_set);
	if (!ho->cc.order_set)
		ho->cc.order = ho->children ? ORDER_CALLER : ORDER_CALLEE;
	if (top->fields && !strstr(top->fields, "overhead_children"))
		ho->hide_children = true;
	top->po.show_nr_samples = top->show_nr_samples;
	top->po.show_total_period = top->show_total_period;
	top->po.quiet = true;
	top->po.percent_absolute = !top->percentage || !strcmp(top->percentage, "absolute");
	if (top->percentage && strcmp(top->percentage, "absolute") &&
	    strcmp(top->percentage, "relative")) {
		fprintf(stderr, "Invalid percentage: %s\n", top->percentage);
		return 129;
	}
	if (top->percent_limit) {
		top->po.percent_limit = strtod(top->percent_limit, NULL);
		ho->cc.min_percent = top->po.percent_limit;
	}
	top->po.overhead_title = top->fields != NULL;
	top->po.col_widths = top->widths;
	top->po.nr_col_widths = top->nr_widths;
	return 0;
}

static int open_events(struct top *top)
{
	struct record_opts *o = &top->opts;
	struct target *t = &o->target;
	struct evsel *failed = NULL;
	char msg[256], buf[BUFSIZ];
	bool has_cpu;
	int err;

	err = top_create_maps(top);
	if (err) {
		/* perf top's words and status (254) */
		fprintf(stderr, "Error:\nCouldn't create thread/CPU maps: %s\n",
			err == -ESRCH ? "No such process" : strerror(-err));
		return 254;
	}
	has_cpu = t->system_wide || t->cpu_list;
	record_config_evlist(top->evlist, o, has_cpu, cpu_map_is_dummy(top->evlist->cpus));
	err = record_open_evlist(top->evlist, top->evlist->cpus, top->evlist->threads, &failed,
				 msg, sizeof(msg));
	if (verbose && *msg)
		fputs(msg, stderr);
	if (err) {
		evlist_strerror_open(failed, t, -err, buf, sizeof(buf));
		fprintf(stderr, "Error:\n%s\n", buf);
		return 255;
	}
	if (!top->mmap_pages)
		top->mmap_pages = perf_mmap_default_pages();
	err = perf_mmap_set_open(&top->rings, top->evlist, top->evlist->cpus->nr,
				 top->evlist->cpus->map, top->evlist->threads->nr,
				 top->evlist->threads->pids, top->mmap_pages, false);
	if (err) {
		fprintf(stderr, "failed to mmap with %d (%s)\n", -err, strerror(-err));
		return 255;
	}
	return 0;
}

static int top_run(struct top *top)
{
	struct machine_opts mopts = { .symbol_opts = &top->sopts };
	struct report_filter filter;
	struct data_reader *reader;
	int ret;

	memset(&filter, 0, sizeof(filter));
	if (top->comms) {
		name_list_parse(top->comms, &top->comm_list);
		filter.comms = (const char **)top->comm_list.v;
	}
	if (top->dsos) {
		name_list_parse(top->dsos, &top->dso_list);
		filter.dsos = (const char **)top->dso_list.v;
		top->po.has_dso_filter = true;
	}
	if (top->symbols) {
		name_list_parse(top->symbols, &top->sym_list);
		filter.symbols = (const char **)top->sym_list.v;
	}
	ret = open_events(top);
	if (ret)
		return ret;
	target_text(top);
	event_text(top);
	reader = data_reader_new_live(top->evlist);
	top->session = session_new(reader, &mopts);
	if (report_init(&top->rep, top->session, &top->ho, &filter, NULL)) {
		fprintf(stderr, "Invalid regex\n");
		return 129;
	}
	top->nr_removed = xcalloc(top->rep.nr_hists ? top->rep.nr_hists : 1, sizeof(size_t));
	if (top->use_tui) {
		/* the browser's 'a': every sample's address per symbol, as perf top keeps them */
		annotate_hists_init(&top->annot, top->session, NULL);
		top->has_annot = true;
		top->rep.annotate = &top->annot;
	}
	/* symbols load on a thread of their own: the refresh never waits for them */
	if (machine_start_lazy_symbols(&top->session->machine))
		pr_debug("top: no symbol loader thread, symbols load as samples meet them\n");
	/* the kernel's table first, while /proc is read (top_synthesize) */
	top_synthesize(top);
	/* and there for the first samples, unless it takes over 1 s (then addresses meanwhile) */
	if (top->session->machine.kernel_dso && !top_done)
		machine_wait_symbols(&top->session->machine, top->session->machine.kernel_dso, 1000);
	if (top_done)
		return 0;
	evlist_enable(top->evlist);
	if (top->use_tui)
		ret = top_tui_loop(top);
	else
		ret = top_stdio_loop(top);
	evlist_disable(top->evlist);
	return ret;
}

static void top_release(struct top *top)
{
	if (top->session) {
		struct machine *m = &top->session->machine;
		size_t nr_maps = 0, nr_threads = 0;

		for (struct map *map = m->all_maps; map; map = map->next_all)
			nr_maps++;
		for (struct thread *t = m->all_threads; t; t = t->next_all)
			nr_threads++;
		pr_debug("top: %zu threads (of %u seen), %zu maps in %zu address spaces, %u dsos, %u frames\n",
			 nr_threads, m->nr_threads, nr_maps, m->nr_maps_sets, m->nr_dsos, m->nr_frames);
		report_release(&top->rep);
		if (top->has_annot)
			annotate_hists_release(&top->annot);
		session_free(top->session);
	}
	perf_mmap_set_release(&top->rings);
	evlist_free(top->evlist);
	free(top->nr_removed);
	free(top->tid_list);
	free(top->cg_display);
	strvec_clear(&top->comm_list);
	strvec_clear(&top->dso_list);
	strvec_clear(&top->sym_list);
}

int cmd_top(int argc, const char **argv)
{
	struct top top = { .delay_secs = 2, .children = -1, .comm_list = STRVEC_INIT,
			   .dso_list = STRVEC_INIT, .sym_list = STRVEC_INIT };
	struct record_opts *o = &top.opts;
	struct target *t = &o->target;
	bool use_stdio = false, use_tui = false, no_inherit = false;
	struct sigaction sa;
	int ret;

	record_opts_init(o);
	const struct opt_spec options[] = {
		SPEC_FLAG("all-cpus", 'a', &t->system_wide, "system-wide collection from all CPUs"),
		SPEC_REFUSED_NOVAL("branch-any", 'b', "sample any taken branches"),
		SPEC_FN("count", 'c', &top, "n", "event period to sample", opt_count),
		SPEC_TEXT("cpu", 'C', &t->cpu_list, "cpu", "list of cpus to monitor"),
		SPEC_INT("delay", 'd', &top.delay_secs, "number of seconds to delay between refreshes"),
		SPEC_REFUSED_NOVAL("dump-symtab", 'D', "dump the symbol table used for profiling"),
		SPEC_INT("entries", 'E', &top.print_entries, "display this many functions"),
		SPEC_FN("event", 'e', &top.evlist, "event", "event selector. use 'perf list' to list available events", parse_events_option),
		SPEC_INT("count-filter", 'f', &top.count_filter, "only display functions with more events than this"),
		SPEC_FN("freq", 'F', &top, "freq or 'max'", "profile at this frequency", opt_freq),
		SPEC_FN_NOVAL(NULL, 'g', &top, "enables call-graph recording and display", opt_g),
		SPEC_REFUSED("cgroup", 'G', "name", "monitor event in cgroup name only"),
		SPEC_FLAG("no-inherit", 'i', &no_inherit, "child tasks do not inherit counters"),
		SPEC_REFUSED("branch-filter", 'j', "branch filter mask", "branch stack filter modes"),
		SPEC_FLAG("hide_kernel_symbols", 'K', &top.hide_kernel, "hide kernel symbols"),
		SPEC_TEXT("vmlinux", 'k', &top.vmlinux, "file", "vmlinux pathname"),
		SPEC_TEXT("disassembler-style", 'M', &top.disassembler_style, "disassembler style", "Specify disassembler style (e.g. -M intel for intel syntax)"),
		SPEC_FN("mmap-pages", 'm', &top, "pages", "number of mmap data pages", top_opt_mmap_pages),
		SPEC_FLAG("show-nr-samples", 'n', &top.show_nr_samples, "Show a column with the number of samples"),
		SPEC_TEXT("pid", 'p', &t->pid, "pid", "profile events on existing process id"),
		SPEC_INT("realtime", 'r', &top.realtime_prio, "collect data with this RT SCHED_FIFO priority"),
		SPEC_TEXT("sort", 's', &top.sort, "key[,key2...]", "sort by key(s): pid, comm, dso, symbol, parent, cpu, srcline, ... Please refer the man page for the complete list."),
		SPEC_TEXT("tid", 't', &t->tid, "tid", "profile events on existing thread id"),
		SPEC_FLAG("hide_user_symbols", 'U', &top.hide_user, "hide user symbols"),
		SPEC_TEXT("uid", 'u', &t->uid_str, "user", "user to profile"),
		SPEC_COUNT("verbose", 'v', &verbose, "be more verbose (show counter open errors, etc)"),
		SPEC_FN("column-widths", 'w', &top, "width[,width...]", "don't try to adjust column width, use these fixed values", opt_widths),
		SPEC_FLAG("zero", 'z', &top.zero, "zero history across updates"),
		SPEC_REFUSED_NOVAL("all-cgroups", 0, "Record cgroup events"),
		SPEC_FLAG("asm-raw", 0, &top.asm_raw, "Display raw encoding of assembly instructions (default)"),
		SPEC_FN("call-graph", 0, &top, "record_mode[,record_size],print_type,threshold[,print_limit],order,sort_key[,branch]", top_call_graph_help, opt_call_graph),
		SPEC_FN_NOVAL("children", 0, &top, "Accumulate callchains of children and show total overhead as well", opt_children),
		SPEC_TEXT("comms", 0, &top.comms, "comm[,comm...]", "only consider symbols in these comms"),
		SPEC_FLAG("demangle-kernel", 0, &top.sopts.demangle_kernel, "Enable kernel symbol demangling"),
		SPEC_TEXT("dsos", 0, &top.dsos, "dso[,dso...]", "only consider symbols in these dsos"),
		SPEC_TEXT("fields", 0, &top.fields, "key[,keys...]", "output field(s): overhead, period, sample plus all of sort keys"),
		SPEC_FLAG("force", 0, &top.force, "don't complain, do it"),
		SPEC_REFUSED_NOVAL("group", 0, "put the counters into a counter group"),
		SPEC_REFUSED("group-sort-idx", 0, "n", "Sort the output by the event at the index n in group. If n is invalid, sort by the first event. WARNING: should be used on grouped events."),
		SPEC_REFUSED_NOVAL("hierarchy", 0, "Show entries in a hierarchy"),
		SPEC_REFUSED("ignore-callees", 0, "regex", "ignore callees of these functions in call graphs"),
		SPEC_FLAG("ignore-vmlinux", 0, &top.ignore_vmlinux, "don't load vmlinux even if found"),
		SPEC_TEXT("kallsyms", 0, &top.sopts.kallsyms, "file", "kallsyms pathname"),
		SPEC_INT("max-stack", 0, &top.max_stack, "Set the maximum stack depth when parsing the callchain. Default: kernel.perf_event_max_stack or 127"),
		SPEC_REFUSED_NOVAL("namespaces", 0, "Record namespaces events"),
		SPEC_FLAG("no-bpf-event", 0, &top.no_bpf_event, "do not record bpf events"),
		SPEC_INT("num-thread-synthesize", 0, &top.nr_threads_synthesize, "number of thread to run event synthesize"),
		SPEC_TEXT("objdump", 0, &top.objdump, "path", "objdump binary to use for disassembly and annotations"),
		SPEC_REFUSED_NOVAL("overwrite", 0, "Use a backward ring buffer, default: no"),
		SPEC_TEXT("percent-limit", 0, &top.percent_limit, "percent", "Don't show entries under that percent"),
		SPEC_TEXT("percentage", 0, &top.percentage, "relative|absolute", "How to display percentage of filtered entries"),
		SPEC_TEXT("prefix", 0, &top.prefix, "prefix", "Add prefix to source file path names in programs (with --prefix-strip)"),
		SPEC_TEXT("prefix-strip", 0, &top.prefix_strip, "N", "Strip first N entries of source file path name in programs (with --prefix)"),
		SPEC_INT("proc-map-timeout", 0, &top.proc_map_timeout, "per thread proc mmap processing timeout in ms"),
		SPEC_REFUSED_NOVAL("raw-trace", 0, "Show raw trace event output (do not use print fmt or plugins)"),
		SPEC_REFUSED_NOVAL("show-on-off-events", 0, "Show the on/off switch events, used with --switch-on and --switch-off"),
		SPEC_FLAG("show-total-period", 0, &top.show_total_period, "Show a column with the sum of periods"),
		SPEC_FLAG("source", 0, &top.source, "Interleave source code with assembly code (default)"),
		SPEC_FLAG("stdio", 0, &use_stdio, "Use the stdio interface"),
		SPEC_REFUSED_NOVAL("stitch-lbr", 0, "Enable LBR callgraph stitching approach"),
		SPEC_REFUSED("switch-off", 0, "event", "Stop considering events after the ocurrence of this event"),
		SPEC_REFUSED("switch-on", 0, "event", "Consider events after the ocurrence of this event"),
		SPEC_TEXT("sym-annotate", 0, &top.sym_annotate, "symbol name", "symbol to annotate"),
		SPEC_TEXT("symbols", 0, &top.symbols, "symbol[,symbol...]", "only consider these symbols"),
		SPEC_FLAG("tui", 0, &use_tui, "Use the TUI interface"),
		SPEC_END(),
	};

	ret = opts_parse(argc, argv, options, top_usage, 0);
	if (ret > 0)
		opts_usage_exit(top_usage, options);
	if (o->user_freq && o->user_interval) {
		fprintf(stderr, "cannot set frequency and period at the same time\n");
		return -EINVAL & 0xff;
	}
	if (o->default_interval)
		o->freq = 0;
	else if (!o->freq) {
		fprintf(stderr, "frequency and count are zero, aborting\n");
		return -EINVAL & 0xff;
	}
	if (o->user_freq && o->freq > record_max_sample_rate())
		o->freq = record_max_sample_rate();
	o->no_inherit = no_inherit;
	o->no_inherit_set = no_inherit;
	if (top.delay_secs < 1) {
		fprintf(stderr, "Invalid delay value\n");
		return 129;
	}
	if (!t->pid && !t->tid && !t->uid_str && !t->cpu_list)
		t->system_wide = true;
	if (!top.evlist)
		top.evlist = evlist_new();
	if (!top.evlist->nr_entries)
		record_add_default_event(top.evlist);
	/* perf top's view: the TUI on a terminal, --stdio (or a pipe) for text */
	top.use_tui = use_tui || (!use_stdio && isatty(STDOUT_FILENO) && isatty(STDIN_FILENO));
	ret = setup_display(&top);
	if (ret)
		goto out;
	if (top.realtime_prio) {
		struct sched_param param = { .sched_priority = top.realtime_prio };

		if (sched_setscheduler(0, SCHED_FIFO, &param)) {
			fprintf(stderr, "Could not set realtime priority.\n");
			ret = 255;
			goto out;
		}
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	ret = top_run(&top);
out:
	top_release(&top);
	return ret;
}
