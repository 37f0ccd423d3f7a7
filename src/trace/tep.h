/* SPDX-License-Identifier: MIT */
/*
 * libtraceevent glue: a struct tep_handle built from a perf.data TRACING_DATA
 * blob or from the live tracefs, tracepoint payload formatting as perf
 * script prints it, and field access helpers.
 */
#ifndef SONDE_TRACE_TEP_H
#define SONDE_TRACE_TEP_H

#include "lib/util.h"

#include <stdbool.h>
#include <stddef.h>

struct strbuf;
struct tep_handle;
struct tep_event;

/*
 * trace_tep_from_data - parse a TRACING_DATA blob (perf.data feature 1 or a
 * HEADER_TRACING_DATA record; versions 0.5 and 0.6): header_page, ftrace
 * and per-system event formats, kallsyms, printk formats, saved_cmdlines.
 * Returns 0 with *@out set (caller frees with trace_tep_free), or -EINVAL
 * when the blob is malformed (truncated, bad magic, bad sizes). Event formats
 * libtraceevent cannot parse are skipped, not fatal.
 */
int trace_tep_from_data(const void *data, size_t size, struct tep_handle **out);

/*
 * trace_tep_from_tracefs - a handle for the running kernel: header_page
 * from tracefs and no events yet; add them with trace_tep_load_event().
 * Returns 0 with *@out set, or -errno (-ENOENT: no tracefs).
 */
int trace_tep_from_tracefs(struct tep_handle **out);

/*
 * trace_tep_load_event - parse tracefs events/@sys/@name/format into @tep
 * (no-op when it is already known). Returns the event (owned by @tep), or
 * NULL with errno set.
 */
struct tep_event *trace_tep_load_event(struct tep_handle *tep, const char *sys,
				       const char *name);

/* trace_tep_tracefs_root - the mounted tracefs directory, or NULL. */
const char *trace_tep_tracefs_root(void);

/* trace_tep_free - free a handle from trace_tep_from_*; NULL is fine. */
void trace_tep_free(struct tep_handle *tep);

/* trace_tep_find_event - the format of tracepoint @id, or NULL (owned by @tep). */
struct tep_event *trace_tep_find_event(struct tep_handle *tep, int id);

/*
 * trace_tep_format - append @raw (a PERF_SAMPLE_RAW payload of @size bytes)
 * formatted by @event's print format, exactly as perf script prints a
 * tracepoint payload (no trailing newline). @cpu and @time feed print
 * formats that use them. An event without a known format appends nothing.
 */
void trace_tep_format(struct tep_event *event, const void *raw, u32 size, int cpu, u64 time,
		      struct strbuf *out);

/*
 * trace_tep_field_u64 - the value of numeric field @name of @event in @raw
 * (signed fields sign-extended). Returns 0, -ENOENT for no such field,
 * -EINVAL when @raw is too short for it.
 */
int trace_tep_field_u64(struct tep_event *event, const void *raw, u32 size, const char *name,
			u64 *val);

/*
 * trace_tep_field_str - the bytes of string/array field @name (fixed arrays
 * and __data_loc/__rel_loc dynamic strings). *@str points into @raw and is
 * not NUL-terminated; *@len stops at the first NUL. Returns 0, -ENOENT or
 * -EINVAL.
 */
int trace_tep_field_str(struct tep_event *event, const void *raw, u32 size, const char *name,
			const char **str, size_t *len);

/*
 * trace_tep_resolver_fn - kernel address to function for %ps/%pS in print
 * formats: returns the name (owned by the caller of trace_tep_set_resolver,
 * alive as long as @tep) and sets *@start to the function's first address,
 * or returns NULL when unknown.
 */
typedef const char *trace_tep_resolver_fn(void *priv, u64 addr, u64 *start);

/* struct trace_tep_resolver - the caller's resolver; must outlive the handle it is set on. */
struct trace_tep_resolver {
	trace_tep_resolver_fn *fn;
	void *priv;
};

/*
 * trace_tep_set_resolver - resolve function pointers with @res (NULL:
 * print addresses), as perf does with its kernel map.
 */
void trace_tep_set_resolver(struct tep_handle *tep, struct trace_tep_resolver *res);

/* trace_tep_event_name - "sys:name" of @event into @buf (size @len); returns @buf. */
const char *trace_tep_event_name(struct tep_event *event, char *buf, size_t len);

/* trace_tep_nr_fields - the number of @event's own fields (the common_* ones not counted). */
int trace_tep_nr_fields(struct tep_event *event);

/* trace_tep_field_name - the name of @event's @i-th own field ("" when there is none). */
const char *trace_tep_field_name(struct tep_event *event, int i);

/* trace_tep_field_is_string - own field @i holds text (a char array or a __data_loc string). */
bool trace_tep_field_is_string(struct tep_event *event, int i);

/*
 * trace_tep_field_width - the room perf's trace_fields column makes for own
 * field @i before its values: a char array's size, a number's hex digits
 * and "0x" (2 + 2 * size); 0 for a dynamic (__data_loc) field.
 */
int trace_tep_field_width(struct tep_event *event, int i);

/*
 * trace_tep_fields_key - the bytes of every own field of @event in @raw (a
 * dynamic field's data), hex, each followed by a space: equal keys for
 * payloads equal field by field; strcmp orders them as a bytewise compare
 * of each field in turn.
 */
void trace_tep_fields_key(struct tep_event *event, const void *raw, u32 size, struct strbuf *out);

/*
 * trace_tep_field_raw - own field @i of @raw as perf prints a raw field:
 * strings as text, pointers and unsigned longs "0x%llx", other numbers in
 * decimal (by their signedness); anything else as libtraceevent prints a
 * field's content.
 */
void trace_tep_field_raw(struct tep_event *event, int i, const void *raw, u32 size,
			 struct strbuf *out);

/*
 * trace_tep_field_dynlen - the length of dynamic (__data_loc) own field @i
 * in @raw as the payload records it (a string's NUL counted), or -1 for
 * a field of fixed size.
 */
int trace_tep_field_dynlen(struct tep_event *event, int i, const void *raw, u32 size);

#endif
