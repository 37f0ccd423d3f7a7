/* SPDX-License-Identifier: MIT */
/* perf.data header printing in perf 6.1's layout, and perf's corrupt-file message. */
#include "ui/header.h"
#include "ui/attr-text.h"
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

/* ---- header lines ---- */

/* "# event : name = N, , id = { 1, 2 }, type = 1, ..." for each event (one line each) */
static void put_event_lines(FILE *fp, struct data_reader *r)
{
	struct evlist *evlist = data_reader_evlist(r);
	struct strbuf val = STRBUF_INIT;
	struct evsel *evsel;

	if (!data_reader_header(r)->nr_attrs) {
		fputs("# event desc: not available or unable to read\n", fp);
		return;
	}
	evlist_for_each_entry(evlist, evsel) {
		const struct perf_header_attr *ha = data_reader_evsel_attr(r, evsel);
		const char *label;
		unsigned pos = 0;

		if (!ha)
			continue;
		/* perf's line has an empty item after the name */
		fprintf(fp, "# event : name = %s, ", ha->name ? ha->name : evsel->name);
		for (u32 k = 0; k < ha->nr_ids; k++)
			fprintf(fp, "%s %" PRIu64, k ? "," : ", id = {", ha->ids[k]);
		if (ha->nr_ids)
			fputs(" }", fp);
		strbuf_reset(&val);
		while (attr_text_next(&ha->attr, &pos, &label, &val))
			fprintf(fp, ", %s = %s", label, val.buf);
		fputc('\n', fp);
	}
	strbuf_release(&val);
}

void group_text(struct strbuf *sb, struct evlist *evlist, struct evsel *leader)
{
	struct evsel *evsel;
	bool grouped = leader->nr_members > 1;

	if (grouped)
		strbuf_addf(sb, "%s{", leader->group_name ? leader->group_name : "");
	strbuf_addstr(sb, leader->name);
	evlist_for_each_entry(evlist, evsel)
		if (evsel->leader == leader && evsel != leader)
			strbuf_addf(sb, ",%s", evsel->name);
	if (grouped)
		strbuf_addch(sb, '}');
}

/* "# group: {a,b}" for each group of two or more */
static void put_group_lines(FILE *fp, struct data_reader *r)
{
	struct evlist *evlist = data_reader_evlist(r);
	struct strbuf sb = STRBUF_INIT;
	struct evsel *evsel;

	evlist_for_each_entry(evlist, evsel) {
		if (!evsel_is_group_leader(evsel) || evsel->nr_members < 2)
			continue;
		strbuf_reset(&sb);
		group_text(&sb, evlist, evsel);
		fprintf(fp, "# group: %s\n", sb.buf);
	}
	strbuf_release(&sb);
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

/* "# <what> : secs.usecs" */
static void put_time_line(FILE *fp, const char *what, u64 t)
{
	fprintf(fp, "# %s : %" PRIu64 ".%06" PRIu64 "\n", what, (u64)(t / NSEC_PER_SEC),
		(u64)((t % NSEC_PER_SEC) / NSEC_PER_USEC));
}

const char *header_clockid_name(u32 id)
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
		put_event_lines(fp, r);
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
		put_group_lines(fp, r);
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
		put_time_line(fp, "time of first sample", h->first_sample_time);
		put_time_line(fp, "time of last sample", h->last_sample_time);
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
			size_str(size, sizeof(size), weight * h->mem_topo.block_size);
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
		const char *cname = header_clockid_name(h->clock_data.clockid);
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

/* ---- errors of a damaged file ---- */

void data_error_print(const char *path, const struct data_error *err)
{
	fprintf(stderr, "%s: corrupt perf.data at offset 0x%" PRIx64 ": %s\n", path, err->offset,
		err->msg);
}
