/* SPDX-License-Identifier: MIT */
/*
 * The fixed event vocabulary of perf: hardware, software and tool event
 * names with their aliases, and the hardware-cache name matrix.
 * Shared by the -e parser, evsel naming and "list".
 */
#ifndef SONDE_CORE_PARSE_EVENTS_NAMES_H
#define SONDE_CORE_PARSE_EVENTS_NAMES_H

#include "lib/util.h"

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>

struct strbuf;

/* struct event_symbol - one symbolic event: perf's name and its alias ("" when none). */
struct event_symbol {
	const char *name;
	const char *alias;
};

/* Indexed by config; entries with a NULL name are holes. */
extern const struct event_symbol event_symbols_hw[PERF_COUNT_HW_MAX];
#define EVENT_SYMBOLS_SW_MAX 12
extern const struct event_symbol event_symbols_sw[EVENT_SYMBOLS_SW_MAX];

/* Tool events: counted by the command itself, opened as the dummy software event. */
enum tool_event {
	TOOL_EVENT_NONE,
	TOOL_EVENT_DURATION_TIME,
	TOOL_EVENT_USER_TIME,
	TOOL_EVENT_SYSTEM_TIME,
	TOOL_EVENT_MAX,
};
extern const char *const tool_event_names[TOOL_EVENT_MAX];

/*
 * event_symbol_find - look up a hardware or software name or alias
 * ("cycles", "cs", "idle-cycles-backend") given as @name of @len bytes.
 * Returns true and fills @type and @config when found.
 */
bool event_symbol_find(const char *name, size_t len, u32 *type, u64 *config);
/* tool_event_find - the tool event named @name (@len bytes), or TOOL_EVENT_NONE. */
enum tool_event tool_event_find(const char *name, size_t len);

/* Hardware cache vocabulary: [id][0] is the canonical spelling. */
#define HW_CACHE_MAX_NAMES 5
extern const char *const hw_cache_names[PERF_COUNT_HW_CACHE_MAX][HW_CACHE_MAX_NAMES];
extern const char *const hw_cache_op_names[PERF_COUNT_HW_CACHE_OP_MAX][HW_CACHE_MAX_NAMES];
extern const char *const hw_cache_result_names[PERF_COUNT_HW_CACHE_RESULT_MAX][HW_CACHE_MAX_NAMES];

/* hw_cache_op_valid - whether perf accepts operation @op on cache @type. */
bool hw_cache_op_valid(unsigned int type, unsigned int op);

/*
 * hw_cache_parse - parse "<cache>[-<op-or-result>[-<op-or-result>]]"
 * (every spelling perf accepts, e.g. "l1d-loads", "LLC-prefetch-misses")
 * of @len bytes. Returns 1 with *@config set, 0 when @name is not a cache
 * event, or -EINVAL for a cache event perf rejects (op not valid for the
 * cache, op or result given twice).
 */
int hw_cache_parse(const char *name, size_t len, u64 *config);

/*
 * hw_cache_op_result_len - the length of the operation or result spelling
 * that starts @s (@len bytes) and ends at '-' or the end; 0 when none.
 */
size_t hw_cache_op_result_len(const char *s, size_t len);

/*
 * hw_cache_name - append perf's canonical name of cache @config
 * ("L1-dcache-load-misses", "dTLB-stores"); "unknown-ext-hardware-cache-type"
 * style fallbacks for out-of-range configs. Returns false for those.
 */
bool hw_cache_name(u64 config, struct strbuf *out);

#endif
