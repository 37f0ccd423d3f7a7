/* SPDX-License-Identifier: MIT */
/* perf's fixed event names: hardware, software, tool and hardware-cache vocabularies. */
#include "core/parse-events-names.h"
#include "lib/strbuf.h"

#include <errno.h>
#include <string.h>

const struct event_symbol event_symbols_hw[PERF_COUNT_HW_MAX] = {
	[PERF_COUNT_HW_CPU_CYCLES] = { "cpu-cycles", "cycles" },
	[PERF_COUNT_HW_INSTRUCTIONS] = { "instructions", "" },
	[PERF_COUNT_HW_CACHE_REFERENCES] = { "cache-references", "" },
	[PERF_COUNT_HW_CACHE_MISSES] = { "cache-misses", "" },
	[PERF_COUNT_HW_BRANCH_INSTRUCTIONS] = { "branch-instructions", "branches" },
	[PERF_COUNT_HW_BRANCH_MISSES] = { "branch-misses", "" },
	[PERF_COUNT_HW_BUS_CYCLES] = { "bus-cycles", "" },
	[PERF_COUNT_HW_STALLED_CYCLES_FRONTEND] = { "stalled-cycles-frontend", "idle-cycles-frontend" },
	[PERF_COUNT_HW_STALLED_CYCLES_BACKEND] = { "stalled-cycles-backend", "idle-cycles-backend" },
	[PERF_COUNT_HW_REF_CPU_CYCLES] = { "ref-cycles", "" },
};

const struct event_symbol event_symbols_sw[EVENT_SYMBOLS_SW_MAX] = {
	[PERF_COUNT_SW_CPU_CLOCK] = { "cpu-clock", "" },
	[PERF_COUNT_SW_TASK_CLOCK] = { "task-clock", "" },
	[PERF_COUNT_SW_PAGE_FAULTS] = { "page-faults", "faults" },
	[PERF_COUNT_SW_CONTEXT_SWITCHES] = { "context-switches", "cs" },
	[PERF_COUNT_SW_CPU_MIGRATIONS] = { "cpu-migrations", "migrations" },
	[PERF_COUNT_SW_PAGE_FAULTS_MIN] = { "minor-faults", "" },
	[PERF_COUNT_SW_PAGE_FAULTS_MAJ] = { "major-faults", "" },
	[PERF_COUNT_SW_ALIGNMENT_FAULTS] = { "alignment-faults", "" },
	[PERF_COUNT_SW_EMULATION_FAULTS] = { "emulation-faults", "" },
	[PERF_COUNT_SW_DUMMY] = { "dummy", "" },
	[PERF_COUNT_SW_BPF_OUTPUT] = { "bpf-output", "" },
	[11] = { "cgroup-switches", "" }, /* PERF_COUNT_SW_CGROUP_SWITCHES, newer than some headers */
};

const char *const tool_event_names[TOOL_EVENT_MAX] = {
	[TOOL_EVENT_NONE] = NULL,
	[TOOL_EVENT_DURATION_TIME] = "duration_time",
	[TOOL_EVENT_USER_TIME] = "user_time",
	[TOOL_EVENT_SYSTEM_TIME] = "system_time",
};

static bool name_eq(const char *a, size_t len, const char *b)
{
	return b && b[0] && strlen(b) == len && !memcmp(a, b, len);
}

bool event_symbol_find(const char *name, size_t len, u32 *type, u64 *config)
{
	for (unsigned int i = 0; i < PERF_COUNT_HW_MAX; i++) {
		const struct event_symbol *s = &event_symbols_hw[i];

		if (name_eq(name, len, s->name) || name_eq(name, len, s->alias)) {
			*type = PERF_TYPE_HARDWARE;
			*config = i;
			return true;
		}
	}
	for (unsigned int i = 0; i < EVENT_SYMBOLS_SW_MAX; i++) {
		const struct event_symbol *s = &event_symbols_sw[i];

		if (name_eq(name, len, s->name) || name_eq(name, len, s->alias)) {
			*type = PERF_TYPE_SOFTWARE;
			*config = i;
			return true;
		}
	}
	return false;
}

enum tool_event tool_event_find(const char *name, size_t len)
{
	for (int i = TOOL_EVENT_NONE + 1; i < TOOL_EVENT_MAX; i++)
		if (name_eq(name, len, tool_event_names[i]))
			return i;
	return TOOL_EVENT_NONE;
}

const char *const hw_cache_names[PERF_COUNT_HW_CACHE_MAX][HW_CACHE_MAX_NAMES] = {
	{ "L1-dcache", "l1-d", "l1d", "L1-data" },
	{ "L1-icache", "l1-i", "l1i", "L1-instruction" },
	{ "LLC", "L2" },
	{ "dTLB", "d-tlb", "Data-TLB" },
	{ "iTLB", "i-tlb", "Instruction-TLB" },
	{ "branch", "branches", "bpu", "btb", "bpc" },
	{ "node" },
};

const char *const hw_cache_op_names[PERF_COUNT_HW_CACHE_OP_MAX][HW_CACHE_MAX_NAMES] = {
	{ "load", "loads", "read" },
	{ "store", "stores", "write" },
	{ "prefetch", "prefetches", "speculative-read", "speculative-load" },
};

const char *const hw_cache_result_names[PERF_COUNT_HW_CACHE_RESULT_MAX][HW_CACHE_MAX_NAMES] = {
	{ "refs", "Reference", "ops", "access" },
	{ "misses", "miss" },
};

/* which operations each cache supports, as perf's table says */
static const unsigned char hw_cache_ops[PERF_COUNT_HW_CACHE_MAX] = {
	[PERF_COUNT_HW_CACHE_L1D] = 7,
	[PERF_COUNT_HW_CACHE_L1I] = 1 | 4,
	[PERF_COUNT_HW_CACHE_LL] = 7,
	[PERF_COUNT_HW_CACHE_DTLB] = 7,
	[PERF_COUNT_HW_CACHE_ITLB] = 1,
	[PERF_COUNT_HW_CACHE_BPU] = 1,
	[PERF_COUNT_HW_CACHE_NODE] = 7,
};

bool hw_cache_op_valid(unsigned int type, unsigned int op)
{
	if (type >= PERF_COUNT_HW_CACHE_MAX || op >= PERF_COUNT_HW_CACHE_OP_MAX)
		return false;
	return hw_cache_ops[type] & (1u << op);
}

/*
 * longest spelling in @table (rows x HW_CACHE_MAX_NAMES) that prefixes
 * @s and ends at '-' or the end; returns the row or -1, *@mlen the length.
 */
static int match_longest(const char *const (*table)[HW_CACHE_MAX_NAMES], int rows, const char *s,
			 size_t len, size_t *mlen)
{
	int best = -1;
	size_t best_len = 0;

	for (int r = 0; r < rows; r++) {
		for (int j = 0; j < HW_CACHE_MAX_NAMES && table[r][j]; j++) {
			size_t l = strlen(table[r][j]);

			if (l > len || l <= best_len || memcmp(s, table[r][j], l))
				continue;
			if (l < len && s[l] != '-')
				continue;
			best = r;
			best_len = l;
		}
	}
	*mlen = best_len;
	return best;
}

int hw_cache_parse(const char *name, size_t len, u64 *config)
{
	size_t pos, l;
	int type, op = -1, result = -1;

	type = match_longest(hw_cache_names, PERF_COUNT_HW_CACHE_MAX, name, len, &l);
	if (type < 0)
		return 0;
	pos = l;
	for (int part = 0; part < 2 && pos < len; part++) {
		int o, r;
		size_t lo, lr;

		if (name[pos] != '-')
			return 0;
		pos++;
		o = match_longest(hw_cache_op_names, PERF_COUNT_HW_CACHE_OP_MAX, name + pos,
				  len - pos, &lo);
		r = match_longest(hw_cache_result_names, PERF_COUNT_HW_CACHE_RESULT_MAX, name + pos,
				  len - pos, &lr);
		if (o >= 0 && lo >= lr) {
			if (op >= 0)
				return -EINVAL;
			op = o;
			pos += lo;
		} else if (r >= 0) {
			if (result >= 0)
				return -EINVAL;
			result = r;
			pos += lr;
		} else {
			return 0;
		}
	}
	if (pos != len)
		return 0;
	if (op < 0)
		op = PERF_COUNT_HW_CACHE_OP_READ;
	if (result < 0)
		result = PERF_COUNT_HW_CACHE_RESULT_ACCESS;
	if (!hw_cache_op_valid(type, op))
		return -EINVAL;
	*config = (u64)type | ((u64)op << 8) | ((u64)result << 16);
	return 1;
}

/* what follows the cache's name in a canonical event name, by operation and result */
static const char *const cache_event_tail[PERF_COUNT_HW_CACHE_OP_MAX]
					 [PERF_COUNT_HW_CACHE_RESULT_MAX] = {
	[PERF_COUNT_HW_CACHE_OP_READ] = { "loads", "load-misses" },
	[PERF_COUNT_HW_CACHE_OP_WRITE] = { "stores", "store-misses" },
	[PERF_COUNT_HW_CACHE_OP_PREFETCH] = { "prefetches", "prefetch-misses" },
};

bool hw_cache_name(u64 config, struct strbuf *out)
{
	/* config bytes 0..2: cache, operation, result; the first out of range names the event */
	static const struct {
		unsigned int limit;
		const char *what;
	} part[3] = {
		{ PERF_COUNT_HW_CACHE_MAX, "type" },
		{ PERF_COUNT_HW_CACHE_OP_MAX, "op" },
		{ PERF_COUNT_HW_CACHE_RESULT_MAX, "result" },
	};
	unsigned int v[3];

	for (int i = 0; i < 3; i++) {
		v[i] = (config >> (8 * i)) & 0xff;
		if (v[i] >= part[i].limit) {
			strbuf_addf(out, "unknown-ext-hardware-cache-%s", part[i].what);
			return false;
		}
	}
	if (!hw_cache_op_valid(v[0], v[1])) {
		strbuf_addstr(out, "invalid-cache");
		return false;
	}
	strbuf_addf(out, "%s-%s", hw_cache_names[v[0]][0], cache_event_tail[v[1]][v[2]]);
	return true;
}

size_t hw_cache_op_result_len(const char *s, size_t len)
{
	size_t lo = 0, lr = 0;

	match_longest(hw_cache_op_names, PERF_COUNT_HW_CACHE_OP_MAX, s, len, &lo);
	match_longest(hw_cache_result_names, PERF_COUNT_HW_CACHE_RESULT_MAX, s, len, &lr);
	return lo > lr ? lo : lr;
}
