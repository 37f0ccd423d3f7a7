/* SPDX-License-Identifier: MIT */
/* Sampling attrs as perf 6.1's record sets them, the tracking dummy, and opening for sampling. */
#define PR_PREFIX "record"
#include "core/record-config.h"
#include "core/parse-events.h"
#include "core/cpumap.h"
#include "core/evlist-open.h"
#include "core/evsel.h"
#include "core/sys.h"
#include "core/threadmap.h"
#include "lib/debug.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include "lib/xalloc.h"

#include <dirent.h>
#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void record_opts_init(struct record_opts *opts)
{
	memset(opts, 0, sizeof(*opts));
	opts->freq = 4000;
	opts->default_interval = 0;
	opts->sample_time = true;
	opts->dwarf_size = CALLCHAIN_DWARF_DEFAULT_SIZE;
	/* 0: the kernel's perf_event_max_stack applies, as perf writes it */
	opts->max_stack = 0;
}

u64 record_max_sample_rate(void)
{
	long long v = 100000;

	read_sysfs_int("/proc/sys/kernel/perf_event_max_sample_rate", &v);
	return (u64)v;
}

int record_parse_callchain(struct record_opts *opts, const char *arg)
{
	char mode[16];
	const char *comma = strchr(arg, ',');
	size_t n = comma ? (size_t)(comma - arg) : strlen(arg);

	if (n >= sizeof(mode))
		return -EINVAL;
	memcpy(mode, arg, n);
	mode[n] = 0;
	if (!strcmp(mode, "fp")) {
		opts->callchain = CALLCHAIN_FP;
		if (comma) {
			/*
			 * "fp,N": at most N frames. perf reads the leading digits
			 * (anything else counts as 0) and keeps N only below
			 * kernel.perf_event_max_stack; 0 means that limit.
			 */
			long long limit = 127;
			unsigned long frames = strtoul(comma + 1, NULL, 10);

			read_sysfs_int("/proc/sys/kernel/perf_event_max_stack", &limit);
			opts->max_stack = (u16)frames < limit ? (u16)frames : 0;
		}
	} else if (!strcmp(mode, "dwarf")) {
		opts->callchain = CALLCHAIN_DWARF;
		opts->dwarf_size = CALLCHAIN_DWARF_DEFAULT_SIZE;
		if (comma) {
			u64 size;

			if (parse_u64(comma + 1, &size) || !size)
				return -EINVAL;
			/* the kernel wants a multiple of 8 below 64 KiB */
			size = PERF_ALIGN(size, 8);
			if (size > 65528) /* USHRT_MAX rounded down to 8 */
				return -EINVAL;
			opts->dwarf_size = (u32)size;
		}
	} else if (!strcmp(mode, "lbr")) {
		if (comma)
			return -EINVAL;
		opts->callchain = CALLCHAIN_LBR;
	} else if (!strcmp(mode, "no")) {
		opts->callchain = CALLCHAIN_NONE;
	} else {
		return -EINVAL;
	}
	return 0;
}

void record_add_default_event(struct evlist *evlist)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_HARDWARE,
		.config = PERF_COUNT_HW_CPU_CYCLES,
	};
	struct evsel *evsel;

	/* perf's default event leaves the kernel out when paranoia forbids it to this user */
	if (geteuid() != 0 && sys_paranoid() > 1)
		attr.exclude_kernel = 1;
	evsel = evsel_new(&attr);

	/*
	 * "cycles:P": the highest precise level the kernel takes. perf 6.1
	 * (187 and 192 alike) shuts the guest out on Intel, so the cpu-clock
	 * fallback is "cpu-clock:pppH" there, but leaves it in on AMD, whose
	 * precise sampling (IBS) cannot exclude guests: "cpu-clock:ppp".
	 */
	if (!sys_cpu_is_amd())
		evsel->attr.exclude_guest = parse_events_plain_sides.exclude_guest;
	/* perf kvm: guest only ("cpu-clock:pppG") unless --host */
	evsel->attr.exclude_host = parse_events_plain_sides.exclude_host;
	evsel->precise_max = true;
	evsel->name = xstrdup("cycles:P");
	evsel->pmu_name = xstrdup("cpu");
	evlist_add(evlist, evsel);
}

static bool is_dummy(const struct evsel *evsel)
{
	return evsel->attr.type == PERF_TYPE_SOFTWARE && evsel->attr.config == PERF_COUNT_SW_DUMMY;
}

static void set_bit(struct evsel *evsel, u64 bit)
{
	evsel->attr.sample_type |= bit;
}

static void config_callchain(struct evsel *evsel, const struct record_opts *opts)
{
	struct perf_event_attr *attr = &evsel->attr;

	set_bit(evsel, PERF_SAMPLE_CALLCHAIN);
	attr->sample_max_stack = opts->max_stack;
	if (opts->callchain == CALLCHAIN_LBR) {
		attr->branch_sample_type = PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_CALL_STACK |
					   PERF_SAMPLE_BRANCH_NO_CYCLES |
					   PERF_SAMPLE_BRANCH_NO_FLAGS | PERF_SAMPLE_BRANCH_HW_INDEX;
		set_bit(evsel, PERF_SAMPLE_BRANCH_STACK);
	} else if (opts->callchain == CALLCHAIN_DWARF) {
		set_bit(evsel, PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER);
		attr->sample_regs_user |= PERF_REGS_MASK_X86_64;
		attr->sample_stack_user = opts->dwarf_size;
		attr->exclude_callchain_user = 1;
	}
	if (opts->kernel_callchains && !opts->user_callchains)
		attr->exclude_callchain_user = 1;
	if (opts->user_callchains && !opts->kernel_callchains)
		attr->exclude_callchain_kernel = 1;
}

/*
 * Per-event terms win over the command line, as in perf: "time=", "inherit",
 * "overwrite", "aux-output", and the call-graph group. Any of "call-graph=",
 * "stack-size=", "max-stack=" drops the command line's call chain bits, then
 * the event's own mode applies: the term's, else fp when only "max-stack="
 * was given, else none; dwarf takes "stack-size=" or 8 KiB, not -g's size.
 */
static void config_terms(struct evsel *evsel, const struct record_opts *opts, bool track)
{
	const struct evsel_terms *t = &evsel->terms;
	struct perf_event_attr *attr = &evsel->attr;

	if (t->has_time) {
		if (t->time)
			set_bit(evsel, PERF_SAMPLE_TIME);
		else
			attr->sample_type &= ~(u64)PERF_SAMPLE_TIME;
	}
	if (t->has_inherit)
		attr->inherit = t->inherit;
	if (t->has_overwrite)
		attr->write_backward = t->overwrite;
	if (t->has_aux_output)
		attr->aux_output = t->aux_output;
	if (t->callgraph[0] || t->has_stack_size || t->has_max_stack) {
		struct record_opts cg = *opts;

		attr->sample_type &= ~(u64)(PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER |
					    PERF_SAMPLE_STACK_USER);
		cg.callchain = t->has_max_stack ? CALLCHAIN_FP : CALLCHAIN_NONE;
		cg.dwarf_size = CALLCHAIN_DWARF_DEFAULT_SIZE;
		if (t->callgraph[0] && record_parse_callchain(&cg, t->callgraph))
			cg.callchain = CALLCHAIN_NONE; /* perf ignores an unknown mode */
		if (t->has_stack_size)
			cg.dwarf_size = PERF_ALIGN(t->stack_size, 8);
		if (t->has_max_stack)
			cg.max_stack = (u16)t->max_stack;
		if (cg.callchain != CALLCHAIN_NONE)
			config_callchain(evsel, &cg);
		if (cg.callchain == CALLCHAIN_DWARF) {
			/* dwarf unwinding wants data addresses, as with -g dwarf */
			set_bit(evsel, PERF_SAMPLE_ADDR | PERF_SAMPLE_DATA_SRC);
			attr->mmap_data |= track;
		}
	}
}

static void config_evsel(struct evsel *evsel, struct record_opts *opts, bool track,
			 bool has_cpu, bool per_thread)
{
	struct perf_event_attr *attr = &evsel->attr;
	bool is_tp = attr->type == PERF_TYPE_TRACEPOINT;

	attr->size = sizeof(*attr);
	attr->sample_id_all = 1;
	attr->inherit = !opts->no_inherit;
	attr->write_backward = opts->overwrite;
	set_bit(evsel, PERF_SAMPLE_IP | PERF_SAMPLE_TID);
	/* record reads every event's id and lost count */
	attr->read_format |= PERF_FORMAT_ID | PERF_FORMAT_LOST;
	/*
	 * ":S": samples carry the counter values, matched by id. In a group
	 * they carry the whole group (PERF_FORMAT_GROUP), which the kernel
	 * cannot inherit: perf turns inherit off there.
	 */
	if (evsel->sample_read) {
		set_bit(evsel, PERF_SAMPLE_READ | PERF_SAMPLE_ID);
		if (evsel->leader->nr_members > 1) {
			attr->read_format |= PERF_FORMAT_GROUP;
			attr->inherit = 0;
		}
	}

	/*
	 * The -F/-c default is weak: an event that carries its own period
	 * (tracepoints, breakpoints, "period=" terms) keeps it unless -F/-c
	 * was given explicitly.
	 */
	if (!is_dummy(evsel) && !evsel->terms.has_period && !evsel->terms.has_freq &&
	    (!attr->sample_period || opts->user_freq || opts->user_interval)) {
		if (opts->freq) {
			attr->freq = 1;
			attr->sample_freq = opts->freq;
		} else {
			attr->freq = 0;
			attr->sample_period = opts->default_interval;
		}
	}
	if (attr->freq)
		set_bit(evsel, PERF_SAMPLE_PERIOD);
	/* leader sampling: members of a ":S" group are read by the leader's samples, never sample */
	if (evsel->sample_read && !evsel_is_group_leader(evsel) && evsel->leader->sample_read) {
		attr->freq = 0;
		attr->sample_period = 0;
	}
	if (opts->no_samples)
		attr->sample_freq = 0;
	if (opts->inherit_stat) {
		attr->read_format |= PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
		attr->inherit_stat = 1;
	}
	if (opts->sample_address) {
		set_bit(evsel, PERF_SAMPLE_ADDR);
		attr->mmap_data = track;
	}
	/* perf asks for call chains on its tracking dummy too */
	if (opts->callchain != CALLCHAIN_NONE)
		config_callchain(evsel, opts);
	if (opts->sample_regs_intr && !is_dummy(evsel)) {
		attr->sample_regs_intr = opts->sample_regs_intr;
		set_bit(evsel, PERF_SAMPLE_REGS_INTR);
	}
	if (opts->sample_regs_user && !is_dummy(evsel)) {
		attr->sample_regs_user |= opts->sample_regs_user;
		set_bit(evsel, PERF_SAMPLE_REGS_USER);
	}
	if (has_cpu || opts->sample_cpu)
		set_bit(evsel, PERF_SAMPLE_CPU);
	/* without inheritance nor cpu-wide rings, time is only sampled when asked for */
	if (opts->sample_time && (!opts->no_inherit || has_cpu || !per_thread || opts->sample_time_set))
		set_bit(evsel, PERF_SAMPLE_TIME);
	if (opts->no_inherit && per_thread && !opts->sample_time_set && !has_cpu)
		attr->sample_type &= ~(u64)PERF_SAMPLE_TIME;
	/* -R reaches the tracking dummy too (perf kvm stat record -a) */
	if (opts->raw_samples || (is_tp && !is_dummy(evsel)))
		set_bit(evsel, PERF_SAMPLE_TIME | PERF_SAMPLE_RAW | PERF_SAMPLE_CPU);
	if (opts->sample_address)
		set_bit(evsel, PERF_SAMPLE_DATA_SRC);
	if (opts->sample_phys_addr)
		set_bit(evsel, PERF_SAMPLE_PHYS_ADDR);
	/* perf sets these on every event, its tracking dummy included */
	if (opts->sample_transaction)
		set_bit(evsel, PERF_SAMPLE_TRANSACTION);
	if (opts->sample_data_page_size)
		set_bit(evsel, PERF_SAMPLE_DATA_PAGE_SIZE);
	if (opts->sample_code_page_size)
		set_bit(evsel, PERF_SAMPLE_CODE_PAGE_SIZE);
	if (opts->no_buffering) {
		attr->watermark = 0;
		attr->wakeup_events = 1;
	}
	if (opts->branch_stack && !is_dummy(evsel)) {
		set_bit(evsel, PERF_SAMPLE_BRANCH_STACK);
		attr->branch_sample_type = opts->branch_stack;
	}
	if (opts->sample_weight)
		set_bit(evsel, PERF_SAMPLE_WEIGHT_STRUCT);
	attr->task = track;
	attr->mmap = track;
	attr->mmap2 = track;
	attr->comm = track;
	/* perf asks for ksymbol/bpf_event records on the tracking event */
	attr->build_id = track && opts->build_id;
	attr->ksymbol = track;
	attr->bpf_event = track && !opts->no_bpf_event;
	if (opts->record_namespaces)
		attr->namespaces = track;
	if (opts->record_cgroup) {
		attr->cgroup = track;
		set_bit(evsel, PERF_SAMPLE_CGROUP); /* every event, as perf */
	}
	if (opts->record_switch_events)
		attr->context_switch = track;
	if (opts->running_time)
		attr->read_format |= PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	/* leaders start disabled; members follow their leader */
	if (evsel_is_group_leader(evsel))
		attr->disabled = 1;
	if (!has_cpu && !opts->target.pid && !opts->target.tid && !opts->target.uid_str &&
	    evsel_is_group_leader(evsel) && !opts->initial_delay)
		attr->enable_on_exec = 1;
	if (opts->use_clockid) {
		attr->use_clockid = 1;
		attr->clockid = opts->clockid;
	}
	if (evsel->precise_max)
		attr->precise_ip = 3;
	if (opts->all_user) {
		attr->exclude_kernel = 1;
		attr->exclude_user = 0;
	}
	if (opts->all_kernel) {
		attr->exclude_kernel = 0;
		attr->exclude_user = 1;
	}
	if (opts->period_set) {
		if (opts->period)
			set_bit(evsel, PERF_SAMPLE_PERIOD);
		else
			attr->sample_type &= ~(u64)PERF_SAMPLE_PERIOD;
	}
	if (is_dummy(evsel))
		attr->sample_type &= ~(u64)PERF_SAMPLE_BRANCH_STACK;
	config_terms(evsel, opts, track);
}

/* "dummy:HG" tracking event perf adds for cpu-wide targets */
static struct evsel *add_tracking_dummy(struct evlist *evlist)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_DUMMY,
		.sample_period = 1,
	};
	struct evsel *evsel = evsel_new(&attr);

	evsel->name = xstrdup("dummy:HG");
	evsel->pmu_name = xstrdup("software");
	evlist_add(evlist, evsel);
	return evsel;
}

void record_config_evlist(struct evlist *evlist, struct record_opts *opts, bool has_cpu,
			  bool per_thread)
{
	struct evsel *evsel, *first, *tracking;
	bool sample_id = opts->pipe_output, use_identifier = opts->sample_identifier;

	/* per-thread rings, or threads named with -t: nothing to inherit into */
	if (per_thread || opts->target.tid)
		opts->no_inherit = true;
	tracking = evlist_first(evlist);
	/* cpu targets and -D need a dummy that tracks maps while the events wait */
	if ((has_cpu || opts->initial_delay) && !is_dummy(evlist_last(evlist)))
		tracking = add_tracking_dummy(evlist);
	evlist_for_each_entry(evlist, evsel) {
		bool track = evsel == tracking;

		config_evsel(evsel, opts, track, has_cpu, per_thread);
		if (track)
			evsel->attr.comm_exec = 1;
		if (evsel == tracking && is_dummy(evsel)) {
			if (opts->initial_delay && !has_cpu) {
				/* follows the workload from its exec while the events wait */
				evsel->attr.enable_on_exec = 1;
			} else {
				/* enabled at once: it tracks maps during synthesis */
				evsel->attr.disabled = 0;
				evsel->attr.enable_on_exec = 0;
			}
		}
	}
	first = evlist_first(evlist);
	if (evlist->nr_entries > 1) {
		evlist_for_each_entry(evlist, evsel)
			if (evsel->attr.sample_type != first->attr.sample_type)
				use_identifier = true;
		sample_id = true;
	}
	if (sample_id || use_identifier) {
		evlist_for_each_entry(evlist, evsel) {
			if (use_identifier) {
				evsel->attr.sample_type &= ~(u64)PERF_SAMPLE_ID;
				evsel->attr.sample_type |= PERF_SAMPLE_IDENTIFIER;
			} else {
				evsel->attr.sample_type |= PERF_SAMPLE_ID;
			}
			evsel->attr.read_format |= PERF_FORMAT_ID;
		}
	}
}

size_t record_id_hdr_size(struct evlist *evlist)
{
	struct evsel *first = evlist_first(evlist);

	return first ? perf_event_id_hdr_size(&first->attr) : 0;
}

/* ---- opening ---- */

/* no hardware cycles: sample the cpu-clock hrtimer instead, named from the final attr */
static void fallback_to_cpu_clock(struct evsel *evsel)
{
	struct strbuf sb = STRBUF_INIT;

	evsel->attr.type = PERF_TYPE_SOFTWARE;
	evsel->attr.config = PERF_COUNT_SW_CPU_CLOCK;
	strbuf_addstr(&sb, "cpu-clock");
	attr_append_modifier_suffix(&evsel->attr, &sb);
	free(evsel->name);
	evsel->name = strbuf_detach(&sb, NULL);
}

int record_open_evlist(struct evlist *evlist, struct cpu_map *cpus, struct thread_map *threads,
		       struct evsel **failed, char *msg, size_t msg_len)
{
	struct evsel *evsel;

	if (msg_len)
		msg[0] = 0;
	evlist_for_each_entry(evlist, evsel) {
		bool raised = false;
		int err;

		if (evsel->is_tool_event)
			continue;
retry:
		err = evsel_open(evsel, cpus, threads);
		if (!err)
			continue;
		/* out of fds: raise the soft limit to the hard one once, as perf does */
		if (err == -EMFILE && !raised) {
			raised = true;
			sys_raise_nofile_limit();
			goto retry;
		}
		/* no hardware counters here: perf samples cpu-clock instead */
		if ((err == -ENOENT || err == -EOPNOTSUPP || err == -ENODEV || err == -EINVAL) &&
		    evsel->attr.type == PERF_TYPE_HARDWARE &&
		    evsel->attr.config == PERF_COUNT_HW_CPU_CYCLES) {
			if (msg_len)
				snprintf(msg, msg_len,
					 "Warning:\nThe cycles event is not supported, trying to fall back to cpu-clock-ticks\n");
			fallback_to_cpu_clock(evsel);
			evsel->is_fallback_name = true;
			goto retry;
		}
		/*
		 * perf_event_paranoid 2 forbids kernel samples to unprivileged
		 * users: perf then samples user space only (exclude_kernel, the
		 * hypervisor bit untouched) and renames the event.
		 */
		if ((err == -EACCES || err == -EPERM) && !evsel->attr.exclude_kernel &&
		    !evsel->attr.exclude_user && sys_paranoid() > 1) {
			evsel->attr.exclude_kernel = 1;
			evsel->attr.exclude_hv = 1;
			if (evsel->is_fallback_name) {
				/* a name perf derives from the attr: derive it again */
				fallback_to_cpu_clock(evsel);
			} else {
				const char *name = evsel->name ? evsel->name : "";
				char *n = xasprintf("%s%su", name,
						    strchr(name, '/') || strchr(name, ':') ? "" : ":");

				free(evsel->name);
				evsel->name = n;
			}
			if (msg_len)
				snprintf(msg, msg_len,
					 "Warning:\nkernel.perf_event_paranoid=%d, trying to fall back to excluding kernel and hypervisor  samples\n",
					 sys_paranoid());
			goto retry;
		}
		/* a precise level the PMU cannot do: try a lower one, as perf does */
		if ((err == -EINVAL || err == -EOPNOTSUPP) && evsel->attr.precise_ip &&
		    evsel->precise_max) {
			evsel->attr.precise_ip--;
			goto retry;
		}
		*failed = evsel;
		return err;
	}
	return 0;
}

char *record_uid_tid_list(const char *user, int *err)
{
	struct passwd *pw = getpwnam(user);
	struct strbuf sb = STRBUF_INIT;
	struct dirent *d;
	DIR *proc;
	uid_t uid;
	char *end;

	*err = 0;
	if (pw) {
		uid = pw->pw_uid;
	} else {
		uid = (uid_t)strtoul(user, &end, 10);
		if (*end || end == user) {
			*err = -EINVAL;
			return NULL;
		}
	}
	proc = opendir("/proc");
	if (!proc) {
		*err = -errno;
		return NULL;
	}
	while ((d = readdir(proc))) {
		char path[300];
		struct stat st;
		DIR *task;
		struct dirent *t;

		if (d->d_name[0] < '0' || d->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s", d->d_name);
		if (stat(path, &st) || st.st_uid != uid)
			continue;
		snprintf(path, sizeof(path), "/proc/%s/task", d->d_name);
		task = opendir(path);
		if (!task)
			continue;
		while ((t = readdir(task)))
			if (t->d_name[0] >= '0' && t->d_name[0] <= '9')
				strbuf_addf(&sb, "%s%s", sb.len ? "," : "", t->d_name);
		closedir(task);
	}
	closedir(proc);
	if (!sb.len) {
		strbuf_release(&sb);
		*err = -ESRCH;
		return NULL;
	}
	return strbuf_detach(&sb, NULL);
}
