/* SPDX-License-Identifier: MIT */
/* perf.data header printing in perf 6.1's layout, attr printing, and the checked file opener. */
#include "ui/header.h"
#include "core/evlist.h"
#include "data/feature.h"
#include "lib/debug.h"
#include "lib/xalloc.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---- attr printing ---- */

static void bits_str(char *buf, size_t len, u64 v, const char *const *names, int nr)
{
	size_t pos = 0;
	bool first = true;

	buf[0] = 0;
	for (int i = 0; i < nr && v; i++) {
		if (!(v & (1ULL << i)) || !names[i])
			continue;
		pos += snprintf(buf + pos, pos < len ? len - pos : 0, "%s%s", first ? "" : "|",
				names[i]);
		v &= ~(1ULL << i);
		first = false;
	}
	if (v)
		snprintf(buf + pos, pos < len ? len - pos : 0, "%s%#" PRIx64, first ? "" : "|", v);
}

void sample_type_str(char *buf, size_t len, u64 t)
{
	/*
	 * perf 6.1's table, in its order (not bit order): TRANSACTION and
	 * unknown bits are not printed at all.
	 */
	static const struct {
		u64 bit;
		const char *name;
	} names[] = {
		{ PERF_SAMPLE_IP, "IP" }, { PERF_SAMPLE_TID, "TID" }, { PERF_SAMPLE_TIME, "TIME" },
		{ PERF_SAMPLE_ADDR, "ADDR" }, { PERF_SAMPLE_READ, "READ" },
		{ PERF_SAMPLE_CALLCHAIN, "CALLCHAIN" }, { PERF_SAMPLE_ID, "ID" },
		{ PERF_SAMPLE_CPU, "CPU" }, { PERF_SAMPLE_PERIOD, "PERIOD" },
		{ PERF_SAMPLE_STREAM_ID, "STREAM_ID" }, { PERF_SAMPLE_RAW, "RAW" },
		{ PERF_SAMPLE_BRANCH_STACK, "BRANCH_STACK" }, { PERF_SAMPLE_REGS_USER, "REGS_USER" },
		{ PERF_SAMPLE_STACK_USER, "STACK_USER" }, { PERF_SAMPLE_IDENTIFIER, "IDENTIFIER" },
		{ PERF_SAMPLE_REGS_INTR, "REGS_INTR" }, { PERF_SAMPLE_DATA_SRC, "DATA_SRC" },
		{ PERF_SAMPLE_WEIGHT, "WEIGHT" }, { PERF_SAMPLE_PHYS_ADDR, "PHYS_ADDR" },
		{ PERF_SAMPLE_AUX, "AUX" }, { PERF_SAMPLE_CGROUP, "CGROUP" },
		{ PERF_SAMPLE_DATA_PAGE_SIZE, "DATA_PAGE_SIZE" },
		{ PERF_SAMPLE_CODE_PAGE_SIZE, "CODE_PAGE_SIZE" },
		{ PERF_SAMPLE_WEIGHT_STRUCT, "WEIGHT_STRUCT" },
	};
	size_t pos = 0;

	buf[0] = 0;
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (t & names[i].bit)
			pos += snprintf(buf + pos, pos < len ? len - pos : 0, "%s%s", pos ? "|" : "",
					names[i].name);
}

void read_format_str(char *buf, size_t len, u64 rf)
{
	static const char *const names[] = {
		"TOTAL_TIME_ENABLED", "TOTAL_TIME_RUNNING", "ID", "GROUP", "LOST",
	};

	bits_str(buf, len, rf, names, ARRAY_SIZE(names));
}

static void branch_type_str(char *buf, size_t len, u64 bt)
{
	static const char *const names[] = {
		"USER", "KERNEL", "HV", "ANY", "ANY_CALL", "ANY_RETURN", "IND_CALL", "ABORT_TX",
		"IN_TX", "NO_TX", "COND", "CALL_STACK", "IND_JUMP", "CALL", "NO_FLAGS",
		"NO_CYCLES", "TYPE_SAVE", "HW_INDEX", "PRIV_SAVE",
	};

	bits_str(buf, len, bt, names, ARRAY_SIZE(names));
}

int perf_attr_fprintf(FILE *fp, const struct perf_event_attr *a, attr_print_fn *fn, void *arg)
{
	char buf[512];
	int n = 0;

#define P_U(name, v)                                                                       \
	do {                                                                               \
		if (v) {                                                                   \
			snprintf(buf, sizeof(buf), "%" PRIu64, (u64)(v));                  \
			n += fn(fp, name, buf, arg);                                       \
		}                                                                          \
	} while (0)
#define P_X(name, v)                                                                       \
	do {                                                                               \
		if (v) {                                                                   \
			snprintf(buf, sizeof(buf), "%#" PRIx64, (u64)(v));                 \
			n += fn(fp, name, buf, arg);                                       \
		}                                                                          \
	} while (0)
	P_U("type", a->type);
	P_U("size", a->size);
	P_X("config", a->config);
	P_U("{ sample_period, sample_freq }", a->sample_period);
	if (a->sample_type) {
		sample_type_str(buf, sizeof(buf), a->sample_type);
		n += fn(fp, "sample_type", buf, arg);
	}
	if (a->read_format) {
		read_format_str(buf, sizeof(buf), a->read_format);
		n += fn(fp, "read_format", buf, arg);
	}
	P_U("disabled", a->disabled);
	P_U("inherit", a->inherit);
	P_U("pinned", a->pinned);
	P_U("exclusive", a->exclusive);
	P_U("exclude_user", a->exclude_user);
	P_U("exclude_kernel", a->exclude_kernel);
	P_U("exclude_hv", a->exclude_hv);
	P_U("exclude_idle", a->exclude_idle);
	P_U("mmap", a->mmap);
	P_U("comm", a->comm);
	P_U("freq", a->freq);
	P_U("inherit_stat", a->inherit_stat);
	P_U("enable_on_exec", a->enable_on_exec);
	P_U("task", a->task);
	P_U("watermark", a->watermark);
	P_U("precise_ip", a->precise_ip);
	P_U("mmap_data", a->mmap_data);
	P_U("sample_id_all", a->sample_id_all);
	P_U("exclude_host", a->exclude_host);
	P_U("exclude_guest", a->exclude_guest);
	P_U("exclude_callchain_kernel", a->exclude_callchain_kernel);
	P_U("exclude_callchain_user", a->exclude_callchain_user);
	P_U("mmap2", a->mmap2);
	P_U("comm_exec", a->comm_exec);
	P_U("use_clockid", a->use_clockid);
	P_U("context_switch", a->context_switch);
	P_U("write_backward", a->write_backward);
	P_U("namespaces", a->namespaces);
	P_U("ksymbol", a->ksymbol);
	P_U("bpf_event", a->bpf_event);
	P_U("aux_output", a->aux_output);
	P_U("cgroup", a->cgroup);
	P_U("text_poke", a->text_poke);
	P_U("build_id", a->build_id);
	P_U("inherit_thread", a->inherit_thread);
	P_U("remove_on_exec", a->remove_on_exec);
	P_U("sigtrap", a->sigtrap);
	P_U("{ wakeup_events, wakeup_watermark }", a->wakeup_events);
	P_U("bp_type", a->bp_type);
	P_X("{ bp_addr, config1 }", a->bp_addr);
	P_X("{ bp_len, config2 }", a->bp_len);
	if (a->branch_sample_type) {
		branch_type_str(buf, sizeof(buf), a->branch_sample_type);
		n += fn(fp, "branch_sample_type", buf, arg);
	}
	P_X("sample_regs_user", a->sample_regs_user);
	P_U("sample_stack_user", a->sample_stack_user);
	if (a->clockid) {
		snprintf(buf, sizeof(buf), "%d", a->clockid);
		n += fn(fp, "clockid", buf, arg);
	}
	P_X("sample_regs_intr", a->sample_regs_intr);
	P_U("aux_watermark", a->aux_watermark);
	P_U("sample_max_stack", a->sample_max_stack);
	P_U("aux_sample_size", a->aux_sample_size);
	P_U("sig_data", a->sig_data);
#undef P_U
#undef P_X
	return n;
}

/* ---- header ---- */

static int desc_attr(FILE *fp, const char *name, const char *val, void *arg)
{
	(void)arg;
	return fprintf(fp, ", %s = %s", name, val);
}

static void print_event_desc(FILE *fp, struct data_reader *r)
{
	const struct perf_header *h = data_reader_header(r);
	struct evlist *evlist = data_reader_evlist(r);
	struct evsel *evsel;
	int i = 0;

	if (!h->nr_attrs) {
		fprintf(fp, "# event desc: not available or unable to read\n");
		return;
	}
	evlist_for_each_entry(evlist, evsel) {
		const struct perf_header_attr *ha = data_reader_evsel_attr(r, evsel);

		if (!ha)
			continue;
		fprintf(fp, "# event : name = %s, ", ha->name ? ha->name : evsel->name);
		if (ha->nr_ids) {
			fprintf(fp, ", id = {");
			for (u32 k = 0; k < ha->nr_ids; k++)
				fprintf(fp, "%s %" PRIu64, k ? "," : "", ha->ids[k]);
			fprintf(fp, " }");
		}
		perf_attr_fprintf(fp, &ha->attr, desc_attr, NULL);
		fputc('\n', fp);
		i++;
	}
}

static void print_group_desc(FILE *fp, struct data_reader *r)
{
	struct evlist *evlist = data_reader_evlist(r);
	struct evsel *evsel;
	int nr = 0;

	evlist_for_each_entry(evlist, evsel) {
		if (evsel_is_group_leader(evsel) && evsel->nr_members > 1) {
			fprintf(fp, "# group: %s{%s", evsel->group_name ? evsel->group_name : "",
				evsel->name);
			nr = evsel->nr_members - 1;
		} else if (nr) {
			fprintf(fp, ",%s", evsel->name);
			if (--nr == 0)
				fprintf(fp, "}\n");
		}
	}
}

/* "24G" style, as perf's unit_number__scnprintf */
static void unit_number(char *buf, size_t len, u64 n)
{
	static const char units[] = "BKMGTPEZY";
	int i = 0;

	while (n / 1024 > 1 && i < 8) {
		n /= 1024;
		i++;
	}
	snprintf(buf, len, "%" PRIu64 "%c", n, units[i]);
}

/* "0-23,32-199" for the set bits of @bm (@bits long) */
static void bitmap_list(FILE *fp, const u64 *bm, u64 bits)
{
	bool first = true;

	for (u64 i = 0; i < bits; i++) {
		u64 j;

		if (!(bm[i / 64] >> (i % 64) & 1))
			continue;
		j = i;
		while (j + 1 < bits && (bm[(j + 1) / 64] >> ((j + 1) % 64) & 1))
			j++;
		if (j == i)
			fprintf(fp, "%s%" PRIu64, first ? "" : ",", i);
		else
			fprintf(fp, "%s%" PRIu64 "-%" PRIu64, first ? "" : ",", i, j);
		first = false;
		i = j;
	}
}

static void print_tstamp(FILE *fp, const char *what, u64 t)
{
	fprintf(fp, "# %s : %" PRIu64 ".%06" PRIu64 "\n", what, (u64)(t / NSEC_PER_SEC),
		(u64)((t % NSEC_PER_SEC) / NSEC_PER_USEC));
}

/* perf's clockid names (the first of its table that matches) */
static const char *clockid_name(u32 id)
{
	switch (id) {
	case 1:
		return "monotonic";
	case 4:
		return "monotonic_raw";
	case 0:
		return "realtime";
	case 7:
		return "boottime";
	case 11:
		return "tai";
	default:
		return "(null)";
	}
}

static bool feat_full_only(int feat)
{
	switch (feat) {
	case HEADER_CPU_TOPOLOGY:
	case HEADER_NUMA_TOPOLOGY:
	case HEADER_CACHE:
	case HEADER_MEM_TOPOLOGY:
	case HEADER_BPF_PROG_INFO:
	case HEADER_BPF_BTF:
		return true;
	default:
		return false;
	}
}

static void print_feature(FILE *fp, struct data_reader *r, int feat, bool full)
{
	const struct perf_header *h = data_reader_header(r);

	if (feat_full_only(feat) && !full) {
		/* perf has no printer for BPF data it cannot decode: nothing shown */
		if (feat == HEADER_BPF_PROG_INFO || feat == HEADER_BPF_BTF)
			return;
		fprintf(fp, "# %s info available, use -I to display\n", perf_header_feat_name(feat));
		return;
	}
	switch (feat) {
	case HEADER_HOSTNAME:
		fprintf(fp, "# hostname : %s\n", h->hostname ? h->hostname : "");
		break;
	case HEADER_OSRELEASE:
		fprintf(fp, "# os release : %s\n", h->os_release ? h->os_release : "");
		break;
	case HEADER_VERSION:
		fprintf(fp, "# perf version : %s\n", h->version ? h->version : "");
		break;
	case HEADER_ARCH:
		fprintf(fp, "# arch : %s\n", h->arch ? h->arch : "");
		break;
	case HEADER_NRCPUS:
		fprintf(fp, "# nrcpus online : %u\n", h->nr_cpus_online);
		fprintf(fp, "# nrcpus avail : %u\n", h->nr_cpus_avail);
		break;
	case HEADER_CPUDESC:
		fprintf(fp, "# cpudesc : %s\n", h->cpudesc ? h->cpudesc : "");
		break;
	case HEADER_CPUID:
		fprintf(fp, "# cpuid : %s\n", h->cpuid ? h->cpuid : "");
		break;
	case HEADER_TOTAL_MEM:
		fprintf(fp, "# total memory : %" PRIu64 " kB\n", h->total_mem);
		break;
	case HEADER_CMDLINE:
		fprintf(fp, "# cmdline : ");
		for (int i = 0; i < h->nr_cmdline; i++)
			fprintf(fp, "%s ", h->cmdline[i]);
		fputc('\n', fp);
		break;
	case HEADER_EVENT_DESC:
		print_event_desc(fp, r);
		break;
	case HEADER_CPU_TOPOLOGY:
		for (int i = 0; i < h->nr_core_siblings; i++)
			fprintf(fp, "# sibling sockets : %s\n", h->core_siblings[i]);
		if (h->has_die_info)
			for (int i = 0; i < h->nr_die_siblings; i++)
				fprintf(fp, "# sibling dies    : %s\n", h->die_siblings[i]);
		for (int i = 0; i < h->nr_thread_siblings; i++)
			fprintf(fp, "# sibling threads : %s\n", h->thread_siblings[i]);
		if (h->cpu_topo) {
			for (int i = 0; i < h->nr_cpu_topo; i++) {
				if (h->has_die_info)
					fprintf(fp, "# CPU %d: Core ID %d, Die ID %d, Socket ID %d\n", i,
						(int)h->cpu_topo[i].core_id, (int)h->cpu_topo[i].die_id,
						(int)h->cpu_topo[i].socket_id);
				else
					fprintf(fp, "# CPU %d: Core ID %d, Socket ID %d\n", i,
						(int)h->cpu_topo[i].core_id,
						(int)h->cpu_topo[i].socket_id);
			}
		} else {
			fprintf(fp, "# Core ID and Socket ID information is not available\n");
		}
		break;
	case HEADER_NUMA_TOPOLOGY:
		for (int i = 0; i < h->nr_numa_nodes; i++) {
			const struct perf_numa_node *n = &h->numa_nodes[i];

			fprintf(fp, "# node%u meminfo  : total = %" PRIu64 " kB, free = %" PRIu64 " kB\n",
				n->node, n->mem_total, n->mem_free);
			fprintf(fp, "# node%u cpu list : %s\n", n->node, n->cpus ? n->cpus : "");
		}
		break;
	case HEADER_BRANCH_STACK:
		fprintf(fp, "# contains samples with branch stack\n");
		break;
	case HEADER_PMU_MAPPINGS:
		fprintf(fp, "# pmu mappings: ");
		if (!h->pmu_mappings.nr)
			fprintf(fp, "not available");
		for (int i = 0; i < h->pmu_mappings.nr; i++)
			fprintf(fp, "%s%s = %u", i ? ", " : "", h->pmu_mappings.names[i],
				h->pmu_mappings.types[i]);
		fputc('\n', fp);
		break;
	case HEADER_GROUP_DESC:
		print_group_desc(fp, r);
		break;
	case HEADER_AUXTRACE:
		fprintf(fp, "# contains AUX area data (e.g. instruction trace)\n");
		break;
	case HEADER_STAT:
		fprintf(fp, "# contains stat data\n");
		break;
	case HEADER_CACHE:
		fprintf(fp, "# CPU cache info:\n");
		for (int i = 0; i < h->nr_caches; i++)
			fprintf(fp, "#  L%d %-15s %8s [%s]\n", h->caches[i].level, h->caches[i].type,
				h->caches[i].size, h->caches[i].map);
		break;
	case HEADER_SAMPLE_TIME:
		print_tstamp(fp, "time of first sample", h->first_sample_time);
		print_tstamp(fp, "time of last sample", h->last_sample_time);
		fprintf(fp, "# sample duration : %10.3f ms\n",
			(double)(h->last_sample_time - h->first_sample_time) / NSEC_PER_MSEC);
		break;
	case HEADER_MEM_TOPOLOGY:
		fprintf(fp, "# memory nodes (nr %d, block size 0x%" PRIx64 "):\n", h->mem_topo.nr,
			h->mem_topo.block_size);
		for (int i = 0; i < h->mem_topo.nr; i++) {
			const struct perf_mem_node *n = &h->mem_topo.nodes[i];
			u64 weight = 0;
			char size[32];

			for (u64 w = 0; w < (n->size + 63) / 64; w++)
				weight += __builtin_popcountll(n->bitmap[w]);
			unit_number(size, sizeof(size), weight * h->mem_topo.block_size);
			fprintf(fp, "#  %3" PRIu64 " [%s]: ", n->node, size);
			bitmap_list(fp, n->bitmap, n->size);
			fputc('\n', fp);
		}
		break;
	case HEADER_CLOCKID:
		fprintf(fp, "# clockid frequency: %" PRIu64 " MHz\n", h->clockid_res_ns * 1000);
		break;
	case HEADER_DIR_FORMAT:
		fprintf(fp, "# directory data version : %" PRIu64 "\n", h->dir_format_version);
		break;
	case HEADER_COMPRESSED:
		fprintf(fp, "# compressed : %s, level = %d, ratio = %d\n",
			h->comp.type == 1 ? "Zstd" : "Unknown", h->comp.level, h->comp.ratio);
		break;
	case HEADER_CPU_PMU_CAPS:
		for (int i = 0; i < h->nr_pmu_caps; i++) {
			const struct perf_pmu_caps *pc = &h->pmu_caps[i];

			if (strcmp(pc->pmu_name, "cpu"))
				continue;
			fprintf(fp, "# cpu pmu capabilities: ");
			if (!pc->nr)
				fprintf(fp, "not available");
			for (int k = 0; k < pc->nr; k++)
				fprintf(fp, "%s%s=%s", k ? ", " : "", pc->names[k], pc->values[k]);
			fputc('\n', fp);
		}
		break;
	case HEADER_CLOCK_DATA: {
		u64 tod = h->clock_data.wall_ns, clk = h->clock_data.clockid_ns;
		time_t secs = tod / NSEC_PER_SEC;
		const char *cname = clockid_name(h->clock_data.clockid);
		struct tm tm;
		char date[64] = "";

		fprintf(fp, "# clockid: %s (%u)\n", cname, h->clock_data.clockid);
		if (localtime_r(&secs, &tm))
			strftime(date, sizeof(date), "%F %T", &tm);
		fprintf(fp, "# reference time: %s.%06u = %" PRIu64 ".%06u (TOD) = %" PRIu64 ".%09u (%s)\n",
			date, (unsigned)((tod % NSEC_PER_SEC) / NSEC_PER_USEC), (u64)(tod / NSEC_PER_SEC),
			(unsigned)((tod % NSEC_PER_SEC) / NSEC_PER_USEC), (u64)(clk / NSEC_PER_SEC),
			(unsigned)(clk % NSEC_PER_SEC), cname);
		break;
	}
	case HEADER_HYBRID_TOPOLOGY:
		for (int i = 0; i < h->nr_hybrid; i++)
			fprintf(fp, "# %s cpu list : %s\n", h->hybrid[i].pmu_name, h->hybrid[i].cpus);
		break;
	case HEADER_PMU_CAPS:
		for (int i = 0; i < h->nr_pmu_caps; i++) {
			const struct perf_pmu_caps *pc = &h->pmu_caps[i];

			if (!pc->nr) {
				fprintf(fp, "# %s pmu capabilities: not available\n", pc->pmu_name);
				continue;
			}
			fprintf(fp, "# %s pmu capabilities: ", pc->pmu_name);
			for (int k = 0; k < pc->nr; k++)
				fprintf(fp, "%s%s=%s", k ? ", " : "", pc->names[k], pc->values[k]);
			fputc('\n', fp);
		}
		break;
	default:
		/* TRACING_DATA, BUILD_ID, BPF data: perf prints nothing */
		break;
	}
}

void header_fprintf(FILE *fp, struct data_reader *r, bool full)
{
	const struct perf_header *h = data_reader_header(r);
	time_t mt = h->mtime;
	bool pipe = data_reader_is_pipe(r);

	fprintf(fp, "# ========\n");
	fprintf(fp, "# captured on    : %s", ctime(&mt));
	fprintf(fp, "# header version : 1\n");
	fprintf(fp, "# data offset    : %" PRIu64 "\n", pipe ? 0 : h->data_offset);
	fprintf(fp, "# data size      : %" PRIu64 "\n", pipe ? 0 : h->data_size);
	fprintf(fp, "# feat offset    : %" PRIu64 "\n", pipe ? 0 : h->feat_offset);
	if (pipe) {
		/* perf prints the features of a pipe as their records arrive, after this block */
		fprintf(fp, "# ========\n#\n");
	}
	for (int feat = 1; feat < HEADER_LAST_FEATURE; feat++) {
		/* a section past the end of a truncated file: perf prints nothing for it */
		if (!perf_header_has_feat(h, feat) || perf_header_feat_is_lost(h, feat))
			continue;
		if (pipe && (feat == HEADER_TRACING_DATA || feat == HEADER_BUILD_ID))
			continue;
		print_feature(fp, r, feat, full);
	}
	if (pipe)
		return;
	fprintf(fp, "# missing features: ");
	for (int feat = 1; feat < HEADER_LAST_FEATURE; feat++)
		if (!perf_header_has_feat(h, feat))
			fprintf(fp, "%s ", perf_header_feat_name(feat));
	fprintf(fp, "\n# ========\n#\n");
}

/* ---- opening with perf's checks ---- */

void data_error_print(const char *path, const struct data_error *err)
{
	fprintf(stderr, "%s: corrupt perf.data at offset 0x%" PRIx64 ": %s\n", path, err->offset,
		err->msg);
}

/* the one warning about a damaged (truncated) file: what is lost, where */
static void warn_damage(void *arg, u64 off, const char *what)
{
	if (!quiet)
		fprintf(stderr, "WARNING: %s: damaged perf.data at offset 0x%" PRIx64 ": %s\n",
			(const char *)arg, off, what);
}

struct data_reader *data_open_for_read(const char *path, bool force)
{
	struct data_reader *r;
	struct data_error err = { 0 };
	struct stat st;

	if (!path || !*path) {
		if (!fstat(0, &st) && S_ISFIFO(st.st_mode))
			path = "-";
		else
			path = "perf.data";
	}
	if (strcmp(path, "-")) {
		if (stat(path, &st) < 0) {
			int e = errno;

			fprintf(stderr, "failed to open %s: %s%s\n", path, strerror(e),
				e == ENOENT && !strcmp(path, "perf.data") ?
					"  (try 'perf record' first)" : "");
			return NULL;
		}
		if (!force && st.st_uid && st.st_uid != geteuid()) {
			fprintf(stderr, "File %s not owned by current user or root (use -f to override)\n",
				path);
			return NULL;
		}
		if (S_ISREG(st.st_mode) && st.st_size == 0) {
			fprintf(stderr, "zero-sized data (%s), nothing to do!\n", path);
			return NULL;
		}
	}
	r = data_reader_open(path, &err);
	if (!r) {
		if (err.errnum && err.errnum != EINVAL) {
			fprintf(stderr, "failed to open %s: %s\n", path, strerror(err.errnum));
			return NULL;
		}
		data_error_print(path, &err);
		fprintf(stderr, "incompatible file format (rerun with -v to learn more)\n");
		return NULL;
	}
	if (data_reader_data_size_was_zero(r) && !quiet)
		fprintf(stderr,
			"WARNING: The %s file's data size field is 0 which is unexpected.\n"
			"Was the 'perf record' command properly terminated?\n",
			path);
	data_reader_on_damage(r, warn_damage, (void *)data_reader_path(r));
	return r;
}
