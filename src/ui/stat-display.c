/* SPDX-License-Identifier: MIT */
/* perf stat's output layouts: table, CSV, intervals, per-aggregate prefixes and derived metrics. */
#include "ui/stat-display.h"
#include "core/cpumap.h"
#include "core/threadmap.h"
#include "lib/xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* column widths of perf's table (interface: scripts parse these layouts) */
#define COUNTS_LEN 18
#define EVNAME_LEN 32
#define EVNAME_LEN_NC 25 /* the name column of <not counted>/<not supported> lines */
#define METRIC_CELL_WIDTH 35 /* " # value unit", left-justified */
/* a counter's second metric goes on a line of its own, its " # " this far in (per-CPU: +8) */
#define METRIC_CONT_COLUMN 49

#define CNTR_NOT_SUPPORTED "<not supported>"
#define CNTR_NOT_COUNTED "<not counted>"

void stat_config_init(struct stat_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->aggr_mode = AGGR_GLOBAL;
	cfg->output = stderr;
	cfg->csv_sep = " ";
	cfg->scale = true;
	cfg->big_num = true;
	cfg->run_count = 1;
	cfg->unit_width = 4;
	stats_init(&cfg->walltime_stats);
}

static bool evsel_is_clock(const struct evsel *evsel)
{
	return evsel->attr.type == PERF_TYPE_SOFTWARE &&
	       (evsel->attr.config == PERF_COUNT_SW_TASK_CLOCK ||
		evsel->attr.config == PERF_COUNT_SW_CPU_CLOCK);
}

const char *stat_evsel_unit(const struct evsel *evsel)
{
	if (evsel->terms.unit[0])
		return evsel->terms.unit;
	if (evsel->is_tool_event)
		return "ns";
	return evsel_is_clock(evsel) ? "msec" : "";
}

double stat_evsel_scale(const struct evsel *evsel)
{
	if (evsel->terms.scale)
		return evsel->terms.scale;
	return evsel_is_clock(evsel) ? 1e-6 : 1.0;
}

void stat_format_count(char *buf, size_t len, double uval, bool big_num, int width)
{
	(void)big_num;
	snprintf(buf, len, "%*.2f", width, uval);
}

/* ---- derived metrics ("shadow stats") ---- */

enum shadow_kind {
	SH_NSECS,
	SH_CYCLES,
	SH_INSTRUCTIONS,
	SH_BRANCHES,
	SH_CACHE_REFS,
	SH_STALLED_FE,
	SH_STALLED_BE,
	SH_L1D,
	SH_L1I,
	SH_LL,
	SH_DTLB,
	SH_ITLB,
	SH_MAX
};

#define NR_CTX 32

struct shadow {
	double val[NR_CTX][SH_MAX];
	bool has[NR_CTX][SH_MAX];
};

static int evsel_ctx(const struct evsel *e)
{
	return (e->attr.exclude_kernel ? 1 : 0) | (e->attr.exclude_user ? 2 : 0) |
	       (e->attr.exclude_hv ? 4 : 0) | (e->attr.exclude_host ? 8 : 0) |
	       (e->attr.exclude_idle ? 16 : 0);
}

static u64 hw_cache_access(unsigned int cache)
{
	return cache | (PERF_COUNT_HW_CACHE_OP_READ << 8) | (PERF_COUNT_HW_CACHE_RESULT_ACCESS << 16);
}

static u64 hw_cache_miss(unsigned int cache)
{
	return cache | (PERF_COUNT_HW_CACHE_OP_READ << 8) | (PERF_COUNT_HW_CACHE_RESULT_MISS << 16);
}

/* the kind a counter contributes to the metrics of others, or -1 */
static int shadow_kind_of(const struct evsel *e)
{
	const struct perf_event_attr *a = &e->attr;

	if (evsel_is_clock(e))
		return SH_NSECS;
	if (a->type == PERF_TYPE_HARDWARE) {
		switch (a->config) {
		case PERF_COUNT_HW_CPU_CYCLES: return SH_CYCLES;
		case PERF_COUNT_HW_INSTRUCTIONS: return SH_INSTRUCTIONS;
		case PERF_COUNT_HW_BRANCH_INSTRUCTIONS: return SH_BRANCHES;
		case PERF_COUNT_HW_CACHE_REFERENCES: return SH_CACHE_REFS;
		case PERF_COUNT_HW_STALLED_CYCLES_FRONTEND: return SH_STALLED_FE;
		case PERF_COUNT_HW_STALLED_CYCLES_BACKEND: return SH_STALLED_BE;
		default: return -1;
		}
	}
	if (a->type == PERF_TYPE_HW_CACHE) {
		if (a->config == hw_cache_access(PERF_COUNT_HW_CACHE_L1D))
			return SH_L1D;
		if (a->config == hw_cache_access(PERF_COUNT_HW_CACHE_L1I))
			return SH_L1I;
		if (a->config == hw_cache_access(PERF_COUNT_HW_CACHE_LL))
			return SH_LL;
		if (a->config == hw_cache_access(PERF_COUNT_HW_CACHE_DTLB))
			return SH_DTLB;
		if (a->config == hw_cache_access(PERF_COUNT_HW_CACHE_ITLB))
			return SH_ITLB;
	}
	return -1;
}

/* the value, ena and run of @evsel's aggregate @a (the mean over runs in global mode) */
static void aggr_values(const struct stat_config *cfg, const struct evsel *evsel, int a,
			double *val, double *ena, double *run)
{
	const struct evsel_stat *st = evsel->priv;

	if (!st || a >= st->nr_aggr) {
		*val = *ena = *run = 0;
		return;
	}
	if (cfg->aggr_mode == AGGR_GLOBAL && !cfg->interval && st->res[0].count > 0) {
		*val = stats_avg(&st->res[0]);
		*ena = stats_avg(&st->res[1]);
		*run = stats_avg(&st->res[2]);
		return;
	}
	*val = (double)st->aggr[a].val;
	*ena = (double)st->aggr[a].ena;
	*run = (double)st->aggr[a].run;
}

static void shadow_collect(const struct stat_config *cfg, struct evlist *evlist, int a,
			   struct shadow *sh)
{
	struct evsel *e;

	memset(sh, 0, sizeof(*sh));
	evlist_for_each_entry(evlist, e) {
		int kind = shadow_kind_of(e), ctx = evsel_ctx(e);
		double val, ena, run;

		if (kind < 0 || !e->is_supported)
			continue;
		aggr_values(cfg, e, a, &val, &ena, &run);
		if (!run)
			continue;
		if (cfg->shadow_running_mean) {
			const struct evsel_stat *st = e->priv;

			if (st && st->aggr_mean && a < st->nr_aggr)
				val = stats_avg(&st->aggr_mean[a]);
		}
		sh->val[ctx][kind] += val; /* clocks in ns, the rest as counted */
		sh->has[ctx][kind] = true;
	}
}

/* the counter line being printed, and how many metric cells it has had so far */
struct stat_line {
	struct stat_config *cfg;
	const char *prefix;	/* interval timestamp or CSV "summary" column */
	const struct evsel *evsel;
	int aggr;		/* index into the aggregation map */
	int cells;
};

static void aggr_printout(struct stat_config *cfg, const struct evsel *evsel, int a);

/*
 * --metric-only keeps the metrics that make sense as a column of their own:
 * perf drops rates ("/sec"), frequencies and "CPUs utilized".
 */
static bool metric_only_unit_valid(const char *unit)
{
	if (!unit)
		return false;
	return !strstr(unit, "/sec") && !strstr(unit, "Hz") && !strstr(unit, "hz") &&
	       !strstr(unit, "CPUs utilized");
}

#define METRIC_ONLY_LEN 20

static void metric_only_value(struct stat_line *ln, const char *fmt, const char *unit, double val)
{
	struct stat_config *cfg = ln->cfg;
	char buf[64], *vals = buf;

	if (!metric_only_unit_valid(unit))
		return;
	if (!fmt) {
		buf[0] = 0;
	} else {
		snprintf(buf, sizeof(buf), fmt, val);
		while (*vals == ' ')
			vals++;
	}
	if (cfg->csv_output)
		fprintf(cfg->output, "%s%s", vals, cfg->csv_sep);
	else
		fprintf(cfg->output, "%*s ", METRIC_ONLY_LEN, vals);
}

/*
 * The text of one metric cell in CSV: the value with its padding and any
 * suffix ("%") dropped, then the unit without leading blanks.
 */
static void metric_csv(struct stat_line *ln, const char *fmt, const char *unit, double val)
{
	const char *sep = ln->cfg->csv_sep;
	char num[128], *digits;

	if (!fmt || !unit) {
		fprintf(ln->cfg->output, "%s%s", sep, sep);
		return;
	}
	snprintf(num, sizeof(num), fmt, val);
	digits = num + strspn(num, " ");
	digits[strspn(digits, "0123456789.")] = '\0';
	fprintf(ln->cfg->output, "%s%s%s%s", sep, digits, sep, unit + strspn(unit, " "));
}

/* the table's metric cell, built whole and then padded to its column */
static void metric_std(struct stat_line *ln, const char *fmt, const char *unit, double val)
{
	struct stat_config *cfg = ln->cfg;
	char cell[160] = "";
	size_t used;

	if (ln->cells > 0) {
		int pad = METRIC_CONT_COLUMN + (cfg->aggr_mode == AGGR_NONE ? 8 : 0);

		fprintf(cfg->output, "\n%s", ln->prefix);
		aggr_printout(cfg, ln->evsel, ln->aggr);
		fprintf(cfg->output, "%*s", pad, "");
	}
	if (fmt && unit) {
		used = (size_t)snprintf(cell, sizeof(cell), " # ");
		used += (size_t)snprintf(cell + used, sizeof(cell) - used, fmt, val);
		if (used < sizeof(cell))
			snprintf(cell + used, sizeof(cell) - used, " %s", unit);
	}
	fprintf(cfg->output, "%-*s", METRIC_CELL_WIDTH, cell);
}

static void put_metric(struct stat_line *ln, const char *fmt, const char *unit, double val)
{
	struct stat_config *cfg = ln->cfg;

	if (cfg->metric_only)
		metric_only_value(ln, fmt, unit, val);
	else if (cfg->json_output)
		/* perf prints the raw ratio, and "(null)" when the counter has no metric */
		fprintf(cfg->output, "\"metric-value\" : %f, \"metric-unit\" : \"%s\"",
			fmt && unit ? val : 0.0, unit ? unit : "(null)");
	else if (cfg->csv_output)
		metric_csv(ln, fmt, unit, val);
	else
		metric_std(ln, fmt, unit, val);
	ln->cells++;
}

static double convert_unit(double v, char *unit)
{
	*unit = ' ';
	if (v >= 1e9) {
		*unit = 'G';
		return v / 1e9;
	}
	if (v >= 1e6) {
		*unit = 'M';
		return v / 1e6;
	}
	if (v >= 1e3) {
		*unit = 'K';
		return v / 1e3;
	}
	return v;
}

static void print_ratio(struct stat_line *ln, double avg, const struct shadow *sh, int ctx,
			int kind, const char *unit)
{
	double total = sh->val[ctx][kind];

	if (!sh->has[ctx][kind] || !total) {
		put_metric(ln, NULL, unit, 0);
		return;
	}
	put_metric(ln, "%7.2f%%", unit, avg / total * 100.0);
}

static void print_shadow(struct stat_line *ln, struct evlist *evlist, const struct evsel *evsel,
			 double avg, const struct shadow *sh)
{
	const struct perf_event_attr *a = &evsel->attr;
	int ctx = evsel_ctx(evsel);
	double total;

	(void)evlist;
	if (a->type == PERF_TYPE_HARDWARE && a->config == PERF_COUNT_HW_INSTRUCTIONS) {
		double stalled;

		total = sh->val[ctx][SH_CYCLES];
		if (sh->has[ctx][SH_CYCLES] && total)
			put_metric(ln, "%7.2f ", "insn per cycle", avg / total);
		else
			put_metric(ln, NULL, "insn per cycle", 0);
		stalled = MAX(sh->val[ctx][SH_STALLED_FE], sh->val[ctx][SH_STALLED_BE]);
		if (stalled && avg)
			put_metric(ln, "%7.2f ", "stalled cycles per insn", stalled / avg);
		return;
	}
	if (a->type == PERF_TYPE_HARDWARE && a->config == PERF_COUNT_HW_BRANCH_MISSES) {
		print_ratio(ln, avg, sh, ctx, SH_BRANCHES, "of all branches");
		return;
	}
	if (a->type == PERF_TYPE_HARDWARE && a->config == PERF_COUNT_HW_CACHE_MISSES) {
		print_ratio(ln, avg, sh, ctx, SH_CACHE_REFS, "of all cache refs");
		return;
	}
	if (a->type == PERF_TYPE_HARDWARE && a->config == PERF_COUNT_HW_STALLED_CYCLES_FRONTEND) {
		print_ratio(ln, avg, sh, ctx, SH_CYCLES, "frontend cycles idle");
		return;
	}
	if (a->type == PERF_TYPE_HARDWARE && a->config == PERF_COUNT_HW_STALLED_CYCLES_BACKEND) {
		print_ratio(ln, avg, sh, ctx, SH_CYCLES, "backend cycles idle");
		return;
	}
	if (a->type == PERF_TYPE_HW_CACHE) {
		static const struct {
			unsigned int cache;
			int kind;
			const char *unit;
		} caches[] = {
			{ PERF_COUNT_HW_CACHE_L1D, SH_L1D, "of all L1-dcache accesses" },
			{ PERF_COUNT_HW_CACHE_L1I, SH_L1I, "of all L1-icache accesses" },
			{ PERF_COUNT_HW_CACHE_LL, SH_LL, "of all LL-cache accesses" },
			{ PERF_COUNT_HW_CACHE_DTLB, SH_DTLB, "of all dTLB cache accesses" },
			{ PERF_COUNT_HW_CACHE_ITLB, SH_ITLB, "of all iTLB cache accesses" },
		};
		for (size_t i = 0; i < ARRAY_SIZE(caches); i++)
			if (a->config == hw_cache_miss(caches[i].cache)) {
				print_ratio(ln, avg, sh, ctx, caches[i].kind, caches[i].unit);
				return;
			}
	}
	if (a->type == PERF_TYPE_HARDWARE && a->config == PERF_COUNT_HW_CPU_CYCLES) {
		total = sh->val[ctx][SH_NSECS];
		if (sh->has[ctx][SH_NSECS] && total)
			put_metric(ln, "%8.3f", "GHz", avg / total);
		else
			put_metric(ln, NULL, NULL, 0);
		return;
	}
	if (evsel_is_clock(evsel)) {
		double wall = stats_avg(&ln->cfg->walltime_stats);

		if (wall)
			put_metric(ln, "%8.3f", "CPUs utilized",
				     avg / (wall * stat_evsel_scale(evsel)));
		else
			put_metric(ln, NULL, NULL, 0);
		return;
	}
	if (sh->has[ctx][SH_NSECS]) {
		char unit, unit_buf[16] = "/sec";
		double ratio = 0;

		total = sh->val[ctx][SH_NSECS];
		if (total)
			ratio = convert_unit(1e9 * avg / total, &unit);
		else
			unit = ' ';
		if (unit != ' ')
			snprintf(unit_buf, sizeof(unit_buf), "%c/sec", unit);
		put_metric(ln, "%8.3f", unit_buf, ratio);
		return;
	}
	put_metric(ln, NULL, NULL, 0);
}

/* ---- one line ---- */

static void aggr_printout_json(struct stat_config *cfg, const struct evsel *evsel,
			       const struct aggr_id *id, int nr)
{
	FILE *out = cfg->output;

	switch (cfg->aggr_mode) {
	case AGGR_CORE:
		fprintf(out, "\"core\" : \"S%d-D%d-C%d\", \"aggregate-number\" : %d, ", id->socket,
			id->die, id->core, nr);
		break;
	case AGGR_DIE:
		fprintf(out, "\"die\" : \"S%d-D%d\", \"aggregate-number\" : %d, ", id->socket, id->die,
			nr);
		break;
	case AGGR_SOCKET:
		fprintf(out, "\"socket\" : \"S%d\", \"aggregate-number\" : %d, ", id->socket, nr);
		break;
	case AGGR_NODE:
		fprintf(out, "\"node\" : \"N%d\", \"aggregate-number\" : %d, ", id->node, nr);
		break;
	case AGGR_NONE:
		if (id->cpu > -1)
			fprintf(out, "\"cpu\" : \"%d\", ", id->cpu);
		break;
	case AGGR_THREAD:
		if (evsel->threads && id->thread >= 0 && id->thread < evsel->threads->nr)
			fprintf(out, "\"thread\" : \"%s-%d\", ",
				thread_map_comm(evsel->threads, id->thread),
				evsel->threads->pids[id->thread]);
		break;
	default:
		break;
	}
}

static void aggr_printout(struct stat_config *cfg, const struct evsel *evsel, int a)
{
	FILE *out = cfg->output;
	const char *sep = cfg->csv_sep;
	bool csv = cfg->csv_output;
	struct aggr_map *map = cfg->aggr_map;
	const struct aggr_id *id;
	int nr;

	if (!map || cfg->aggr_mode == AGGR_GLOBAL)
		return;
	id = &map->ids[a];
	nr = map->nr_members[a];
	/* perf counts no cpus into an event the kernel refused, and shows 1 */
	if (evsel && !evsel->is_supported)
		nr = 1;
	if (cfg->json_output) {
		aggr_printout_json(cfg, evsel, id, nr);
		return;
	}
	switch (cfg->aggr_mode) {
	case AGGR_CORE:
		fprintf(out, "S%d-D%d-C%*d%s%*d%s", id->socket, id->die, csv ? 0 : -8, id->core, sep,
			csv ? 0 : 4, nr, sep);
		break;
	case AGGR_DIE:
		fprintf(out, "S%d-D%*d%s%*d%s", id->socket, csv ? 0 : -8, id->die, sep, csv ? 0 : 4,
			nr, sep);
		break;
	case AGGR_SOCKET:
		fprintf(out, "S%*d%s%*d%s", csv ? 0 : -5, id->socket, sep, csv ? 0 : 4, nr, sep);
		break;
	case AGGR_NODE:
		fprintf(out, "N%*d%s%*d%s", csv ? 0 : -5, id->node, sep, csv ? 0 : 4, nr, sep);
		break;
	case AGGR_NONE:
		if (id->cpu > -1)
			fprintf(out, "CPU%*d%s", csv ? 0 : -7, id->cpu, sep);
		break;
	case AGGR_THREAD: {
		struct thread_map *threads = evsel->threads;
		int t = id->thread;

		if (threads && t >= 0 && t < threads->nr)
			fprintf(out, "%*s-%*d%s", csv ? 0 : 16, thread_map_comm(threads, t),
				csv ? 0 : -8, threads->pids[t], sep);
		break;
	}
	default:
		break;
	}
}

/* -G: the cgroup's name after the event's */
static void print_cgroup(struct stat_config *cfg, const struct evsel *evsel)
{
	if (evsel->cgroup_name)
		fprintf(cfg->output, "%s%s", cfg->csv_sep, evsel->cgroup_name);
}

/*
 * What follows a counter's name: its spread over the -r runs (relative
 * stddev; interval lines are single readings and have none), then the share
 * of the enabled time the counter really ran (multiplexing).
 */
static void print_run_spread(struct stat_config *cfg, const struct evsel *evsel, double avg,
			     double run, double ena)
{
	const struct evsel_stat *st = evsel->priv;
	bool repeated = cfg->run_count != 1 && st && !cfg->interval;
	double spread = repeated ? rel_stddev(stats_stddev(&st->res[0]), avg) : 0;
	double share = (run == ena || !ena) ? 100.0 : 100.0 * run / ena;
	FILE *out = cfg->output;

	if (cfg->json_output) {
		if (repeated)
			fprintf(out, "\"variance\" : %.2f, ", spread);
		fprintf(out, "\"event-runtime\" : %.0f, \"pcnt-running\" : %.2f, ", run, share);
	} else if (cfg->csv_output) {
		if (repeated)
			fprintf(out, "%s%.2f%%", cfg->csv_sep, spread);
		fprintf(out, "%s%.0f%s%.2f", cfg->csv_sep, run, cfg->csv_sep, share);
	} else {
		if (repeated && spread)
			fprintf(out, "  ( +-%6.2f%% )", spread);
		if (run != ena)
			fprintf(out, "  (%.2f%%)", 100.0 * run / ena);
	}
}

/* one JSON object per counter line, perf's keys and number formats */
static void print_counter_json(struct stat_config *cfg, struct evlist *evlist,
			       const struct evsel *evsel, int a, const char *prefix)
{
	FILE *out = cfg->output;
	const struct evsel_stat *st = evsel->priv;
	double val, ena, run, scale = stat_evsel_scale(evsel);
	struct stat_line ln = { cfg, prefix, evsel, a, 0 };
	struct shadow sh;

	aggr_values(cfg, evsel, a, &val, &ena, &run);
	fputc('{', out);
	fputs(prefix, out);
	aggr_printout(cfg, evsel, a);
	if (!evsel->is_supported || !st || run == 0 || ena == 0) {
		fprintf(out, "\"counter-value\" : \"%s\", \"unit\" : \"%s\", \"event\" : \"%s\", ",
			evsel->is_supported ? CNTR_NOT_COUNTED : CNTR_NOT_SUPPORTED,
			stat_evsel_unit(evsel), evsel->name ? evsel->name : "");
		print_run_spread(cfg, evsel, val, run, ena);
		put_metric(&ln, "", "", 0);
		fputs("}\n", out);
		return;
	}
	fprintf(out, "\"counter-value\" : \"%f\", \"unit\" : \"%s\", \"event\" : \"%s\", ",
		val * scale, stat_evsel_unit(evsel), evsel->name ? evsel->name : "");
	print_run_spread(cfg, evsel, val, run, ena);
	shadow_collect(cfg, evlist, a, &sh);
	print_shadow(&ln, evlist, evsel, val * scale, &sh);
	fputs("}\n", out);
}

static void print_counter_line(struct stat_config *cfg, struct evlist *evlist,
			       const struct evsel *evsel, int a, const char *prefix)
{
	FILE *out = cfg->output;
	const struct evsel_stat *st = evsel->priv;
	double val, ena, run, scale = stat_evsel_scale(evsel), uval;
	const char *unit = stat_evsel_unit(evsel);
	struct stat_line ln = { cfg, prefix, evsel, a, 0 };
	bool csv = cfg->csv_output;
	struct shadow sh;

	aggr_values(cfg, evsel, a, &val, &ena, &run);
	if (cfg->json_output) {
		print_counter_json(cfg, evlist, evsel, a, prefix);
		return;
	}
	if (cfg->metric_only) {
		struct shadow msh;

		if (!evsel->is_supported || !st || run == 0 || ena == 0)
			return;
		shadow_collect(cfg, evlist, a, &msh);
		print_shadow(&ln, evlist, evsel, val * scale, &msh);
		return;
	}
	fputs(prefix, out);
	if (!evsel->is_supported || !st || run == 0 || ena == 0 ||
	    (cfg->aggr_mode == AGGR_GLOBAL && st->scaled[0] < 0 && st->res[0].count == 0)) {
		aggr_printout(cfg, evsel, a);
		fprintf(out, "%*s%s", csv ? 0 : COUNTS_LEN,
			evsel->is_supported ? CNTR_NOT_COUNTED : CNTR_NOT_SUPPORTED, cfg->csv_sep);
		fprintf(out, "%-*s%s", csv ? 0 : cfg->unit_width, unit, cfg->csv_sep);
		fprintf(out, "%*s", csv ? 0 : -EVNAME_LEN_NC, evsel->name ? evsel->name : "");
		print_cgroup(cfg, evsel);
		if (!csv)
			put_metric(&ln, NULL, NULL, 0);
		print_run_spread(cfg, evsel, val, run, ena);
		if (csv)
			put_metric(&ln, NULL, NULL, 0);
		fputc('\n', out);
		return;
	}
	uval = val * scale;
	aggr_printout(cfg, evsel, a);
	if (csv)
		fprintf(out, floor(scale) != scale ? "%.2f%s" : "%.0f%s", uval, cfg->csv_sep);
	else if (cfg->big_num)
		fprintf(out, floor(scale) != scale ? "%'*.2f%s" : "%'*.0f%s", COUNTS_LEN, uval,
			cfg->csv_sep);
	else
		fprintf(out, floor(scale) != scale ? "%*.2f%s" : "%*.0f%s", COUNTS_LEN, uval,
			cfg->csv_sep);
	fprintf(out, "%-*s%s", csv ? 0 : cfg->unit_width, unit, cfg->csv_sep);
	fprintf(out, "%-*s", csv ? 0 : EVNAME_LEN, evsel->name ? evsel->name : "");
	print_cgroup(cfg, evsel);
	if (csv) {
		print_run_spread(cfg, evsel, val, run, ena);
	}
	shadow_collect(cfg, evlist, a, &sh);
	print_shadow(&ln, evlist, evsel, uval, &sh);
	if (!csv) {
		print_run_spread(cfg, evsel, val, run, ena);
	}
	fputc('\n', out);
}

/* ---- header, footer, intervals ---- */

static void print_header(struct stat_config *cfg)
{
	FILE *out = cfg->output;
	const struct target *t = cfg->target;

	if (cfg->csv_output || cfg->json_output)
		return;
	fprintf(out, "\n Performance counter stats for ");
	if (t && t->system_wide) {
		fprintf(out, "'system wide");
	} else if (t && t->cpu_list) {
		fprintf(out, "'CPU(s) %s", t->cpu_list);
	} else if (t && t->pid) {
		fprintf(out, "process id '%s", t->pid);
	} else if (t && t->tid) {
		fprintf(out, "thread id '%s", t->tid);
	} else {
		fprintf(out, "'%s", cfg->argc > 0 ? cfg->argv[0] : "pid");
		for (int i = 1; i < cfg->argc; i++)
			fprintf(out, " %s", cfg->argv[i]);
	}
	fprintf(out, "'");
	if (cfg->run_count > 1)
		fprintf(out, " (%d runs)", cfg->run_count);
	fprintf(out, ":\n\n");
}

/*
 * The -r footer shows the elapsed time with two decimals past the first
 * significant digit of its stddev (stddevs of a second and more: two).
 */
static int elapsed_decimals(double sd)
{
	double scaled = sd;
	int zeros = 0;

	while (scaled > 0 && scaled < 1 && zeros < 30) {
		zeros++;
		scaled = sd * pow(10.0, zeros);
	}
	return zeros + 2;
}

/*
 * --table: each run's time, its distance from the mean, and a bar of one
 * '#' plus one more per whole 5% the run is off the mean. The two titles
 * start where the mean's digits would in the " %17f" column.
 */
static void print_runs_table(struct stat_config *cfg, int decimals, double mean)
{
	FILE *out = cfg->output;
	int width = snprintf(NULL, 0, "%.*f", decimals, mean);
	int lead = 1 + (width < 17 ? 17 - width : 0);

	fprintf(out, "%*s# Table of individual measurements:\n", lead, "");
	for (int r = 0; r < cfg->run_count; r++) {
		double secs = (double)cfg->walltime_run[r] / NSEC_PER_SEC;
		double off_pct = secs ? fabs(100.0 * (secs - mean) / secs) : 0;
		int marks = off_pct < 2e9 ? 1 + (int)off_pct / 5 : 1;

		fprintf(out, " %17.*f (%+.*f) ", decimals, secs, decimals, secs - mean);
		while (marks-- > 0)
			fputc('#', out);
		fputc('\n', out);
	}
	fprintf(out, "\n%*s# Final result:\n", lead, "");
}

static void print_elapsed(struct stat_config *cfg)
{
	FILE *out = cfg->output;
	double mean = stats_avg(&cfg->walltime_stats) / NSEC_PER_SEC;
	double sd, spread;
	int decimals;

	if (cfg->csv_output || cfg->json_output)
		return;
	if (!cfg->null_run)
		fputc('\n', out);
	if (cfg->run_count == 1) {
		const struct timeval *tv[2] = { &cfg->ru.ru_utime, &cfg->ru.ru_stime };
		static const char *const what[2] = { "user", "sys" };

		fprintf(out, " %17.9f seconds time elapsed", mean);
		if (cfg->ru_display) {
			fputc('\n', out);
			for (int i = 0; i < 2; i++)
				fprintf(out, "\n %17.9f seconds %s", tv[i]->tv_sec + tv[i]->tv_usec / 1e6,
					what[i]);
			fputc('\n', out);
		}
		fputs("\n\n", out);
		return;
	}
	sd = stats_stddev(&cfg->walltime_stats) / NSEC_PER_SEC;
	decimals = elapsed_decimals(sd);
	if (cfg->walltime_run_table && cfg->walltime_run)
		print_runs_table(cfg, decimals, mean);
	fprintf(out, " %17.*f +- %.*f seconds time elapsed", decimals, mean, decimals, sd);
	spread = mean ? rel_stddev(sd, mean) : 0;
	if (spread)
		fprintf(out, "  ( +-%6.2f%% )", spread);
	fputs("\n\n", out);
}

/*
 * The column titles above interval lines, per aggregation: the prefix
 * columns, then the counts column (right-aligned to the counts) and the
 * unit's. --metric-only has its own titles and ends the line here.
 */
static const struct {
	enum aggr_mode mode;
	const char *ids;
	int counts_width;
} interval_titles[] = {
	{ AGGR_NODE, " node   cpus", 19 },
	{ AGGR_SOCKET, " socket cpus", 19 },
	{ AGGR_DIE, " die          cpus", 19 },
	{ AGGR_CORE, " core            cpus", 19 },
	{ AGGR_NONE, " CPU    ", 22 },
	{ AGGR_THREAD, "             comm-pid", 24 },
};

static void print_interval_titles(struct stat_config *cfg)
{
	const char *ids = "";
	int counts_width = 19;

	if (cfg->csv_output || cfg->json_output)
		return;
	if (cfg->num_print_interval != 0 && !cfg->interval_clear)
		return;
	for (size_t i = 0; i < ARRAY_SIZE(interval_titles); i++)
		if (interval_titles[i].mode == cfg->aggr_mode) {
			ids = interval_titles[i].ids;
			counts_width = interval_titles[i].counts_width;
		}
	fprintf(cfg->output, "#           time%s", ids);
	if (cfg->metric_only)
		fputc('\n', cfg->output);
	else
		fprintf(cfg->output, "%*s %*s events\n", counts_width, "counts", cfg->unit_width,
			"unit");
}

/* the metric-only table: a header line of metric names, then one line of values */
static void print_metric_only(struct stat_config *cfg, struct evlist *evlist, const char *prefix)
{
	struct evsel *evsel;
	struct aggr_map *map = cfg->aggr_map;
	int nr_aggr = map ? map->nr : 1;
	FILE *out = cfg->output;

	if (!*prefix || cfg->num_print_interval == 1) {
		/* the header: each kept metric's unit, as wide as its column */
		evlist_for_each_entry(evlist, evsel) {
			const char *u = NULL;

			if (evsel->attr.type == PERF_TYPE_HARDWARE &&
			    evsel->attr.config == PERF_COUNT_HW_INSTRUCTIONS)
				u = "insn per cycle";
			else if (evsel->attr.type == PERF_TYPE_HARDWARE &&
				 evsel->attr.config == PERF_COUNT_HW_BRANCH_MISSES)
				u = "of all branches";
			if (!u)
				continue;
			if (cfg->csv_output)
				fprintf(out, "%s%s", u, cfg->csv_sep);
			else
				fprintf(out, "%*s ", METRIC_ONLY_LEN, u);
		}
		fputc('\n', out);
	}
	for (int a = 0; a < nr_aggr; a++) {
		fputs(prefix, out);
		aggr_printout(cfg, evlist_first(evlist), a);
		evlist_for_each_entry(evlist, evsel)
			print_counter_line(cfg, evlist, evsel, a, prefix);
		fputc('\n', out);
	}
}

/* per-thread lines come sorted by count, highest first, as perf prints them */
struct thread_sort {
	int a;
	u64 val;
};

static int thread_sort_cmp(const void *x, const void *y)
{
	const struct thread_sort *a = x, *b = y;

	if (a->val != b->val)
		return a->val < b->val ? 1 : -1;
	return a->a - b->a;
}

void stat_print_counters(struct stat_config *cfg, struct evlist *evlist, const struct timespec *ts)
{
	char prefix[64] = "";
	struct evsel *evsel;
	struct aggr_map *map = cfg->aggr_map;
	int nr_aggr = map ? map->nr : 1;

	/* the unit column is as wide as the widest unit ("Joules"), 4 at least */
	evlist_for_each_entry(evlist, evsel) {
		int len = (int)strlen(stat_evsel_unit(evsel));

		if (len > cfg->unit_width)
			cfg->unit_width = len;
	}

	if (ts && cfg->json_output) {
		snprintf(prefix, sizeof(prefix), "\"interval\" : %lu.%09lu, ", (unsigned long)ts->tv_sec,
			 (unsigned long)ts->tv_nsec);
	} else if (ts) {
		/* perf clears the terminal (stdout, puts()) even when the report goes elsewhere */
		if (cfg->interval_clear) {
			puts("\033[H\033[2J");
			fflush(stdout);
		}
		snprintf(prefix, sizeof(prefix), "%6lu.%09lu%s", (unsigned long)ts->tv_sec,
			 (unsigned long)ts->tv_nsec, cfg->csv_sep);
		print_interval_titles(cfg);
		if (++cfg->num_print_interval == 25)
			cfg->num_print_interval = 0;
	} else {
		print_header(cfg);
		/* CSV --summary lines carry "summary" where the timestamp was */
		if (cfg->summary && cfg->csv_output && !cfg->no_csv_summary)
			snprintf(prefix, sizeof(prefix), "%16s%s", "summary", cfg->csv_sep);
	}
	if (cfg->metric_only && !cfg->null_run) {
		print_metric_only(cfg, evlist, prefix);
	} else if (!cfg->null_run) {
		switch (cfg->aggr_mode) {
		case AGGR_CORE:
		case AGGR_DIE:
		case AGGR_SOCKET:
		case AGGR_NODE:
			for (int a = 0; a < nr_aggr; a++)
				evlist_for_each_entry(evlist, evsel)
					print_counter_line(cfg, evlist, evsel, a, prefix);
			break;
		case AGGR_THREAD: {
			struct thread_sort *ts_buf = xcalloc(nr_aggr, sizeof(*ts_buf));

			evlist_for_each_entry(evlist, evsel) {
				const struct evsel_stat *st = evsel->priv;

				for (int a = 0; a < nr_aggr; a++) {
					ts_buf[a].a = a;
					ts_buf[a].val = st && a < st->nr_aggr ? st->aggr[a].val : 0;
				}
				qsort(ts_buf, nr_aggr, sizeof(*ts_buf), thread_sort_cmp);
				for (int a = 0; a < nr_aggr; a++) {
					/* system wide, the idle threads would drown the busy ones */
					if (cfg->target && cfg->target->system_wide && !ts_buf[a].val)
						continue;
					print_counter_line(cfg, evlist, evsel, ts_buf[a].a, prefix);
				}
			}
			free(ts_buf);
			break;
		}
		case AGGR_NONE:
		case AGGR_GLOBAL:
		default:
			evlist_for_each_entry(evlist, evsel)
				for (int a = 0; a < nr_aggr; a++)
					print_counter_line(cfg, evlist, evsel, a, prefix);
			break;
		}
	}
	if (!ts)
		print_elapsed(cfg);
	fflush(cfg->output);
}

void stat_print_verbose_counts(struct stat_config *cfg, const struct evsel *evsel,
			       const struct perf_counts_values *v, int cpu)
{
	if (cpu >= 0)
		fprintf(cfg->output, "%s: %d: %llu %llu %llu\n", evsel->name ? evsel->name : "", cpu,
			(unsigned long long)v->val, (unsigned long long)v->ena,
			(unsigned long long)v->run);
	else
		fprintf(cfg->output, "%s: %llu %llu %llu\n", evsel->name ? evsel->name : "",
			(unsigned long long)v->val, (unsigned long long)v->ena,
			(unsigned long long)v->run);
}
