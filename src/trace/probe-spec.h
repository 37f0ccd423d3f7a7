/* SPDX-License-Identifier: MIT */
/*
 * perf probe's probe definitions: the PROBEDEF syntax parsed into a struct
 * probe_spec, the k/uprobe_events definition text built from a resolved
 * probe point, and the uprobe_events file (read, append, remove).
 */
#ifndef SONDE_TRACE_PROBE_SPEC_H
#define SONDE_TRACE_PROBE_SPEC_H

#include "lib/strbuf.h"
#include "lib/util.h"

#include <stdbool.h>
#include <stddef.h>

/* struct probe_arg - one ARG of a PROBEDEF: [NAME=]EXPR[:TYPE] */
struct probe_arg {
	char *name;    /* owned: NAME, or NULL */
	char *expr;    /* owned: EXPR without the type ("%di", "+8(%sp)", "$retval", "n") */
	char *type;    /* owned: TYPE without ':' ("u32", "string"), or NULL */
	char *text;    /* owned: the argument as typed */
	bool is_resolved; /* made from a variable through DWARF: -D shows NAME=EXPR[:TYPE],
			     and a NULL text (the rest of a $vars) is not listed */
	bool is_fetch; /* a tracer fetch argument (%reg, $var, +/-offs(...), @addr, digits):
			  passed to the kernel as is; else a variable that needs DWARF */
};

/* struct probe_spec - one parsed PROBEDEF. */
struct probe_spec {
	char *group;	  /* owned: GROUP, or NULL */
	char *event;	  /* owned: EVENT, or NULL (derived from the point) */
	char *func;	  /* owned: FUNC, or NULL for SRC:ALN / SRC;PTN */
	char *file;	  /* owned: @SRC or the SRC of SRC:ALN, or NULL */
	char *lazy;	  /* owned: ;PTN, or NULL */
	char *point;	  /* owned: the probe point as typed (without EVENT=) */
	long line;	  /* :RLN / :ALN */
	u64 offset;	  /* +OFFS */
	bool has_line;
	bool has_offset;
	bool is_return;	  /* %return */
	struct probe_arg *args; /* owned */
	size_t nr_args;
};

/* struct probe_spec_error - why a PROBEDEF was refused (perf's "Semantic error :" text). */
struct probe_spec_error {
	char msg[160];
};

/*
 * probe_spec_parse - parse @text into @ps (zeroed first). Returns 0, or
 * -EOPNOTSUPP (an unknown %MARKER) or
 * -EINVAL with @err->msg set to perf's semantic error text.
 */
int probe_spec_parse(struct probe_spec *ps, const char *text, struct probe_spec_error *err);
/* probe_spec_release - free what @ps owns; it may be parsed again. */
void probe_spec_release(struct probe_spec *ps);
/* probe_spec_needs_dwarf - the spec needs debug info (a line, a lazy pattern, a variable). */
bool probe_spec_needs_dwarf(const struct probe_spec *ps);
/* probe_event_name_ok - @s follows the C identifier rule perf asks of event names. */
bool probe_event_name_ok(const char *s);

/*
 * probe_group_for_path - perf's default group of a uprobe on @path:
 * "probe_" and the basename up to its first character that is not a
 * letter, digit or '_' ("probe_libc" for libc.so.6). Malloc'ed.
 */
char *probe_group_for_path(const char *path);

/* struct probe_def - one resolved probe, as written to k/uprobe_events. */
struct probe_def {
	bool is_return;
	bool is_kernel;
	const char *group;
	const char *event;
	const char *path;   /* uprobe: the binary's absolute path */
	u64 offset;	    /* uprobe: file offset; kprobe: offset from @symbol */
	u64 ref_ctr_offset; /* uprobe: file offset of an SDT semaphore, 0 for none */
	const char *symbol; /* kprobe: "_text", the function, or "MOD:sym" */
	const struct probe_arg *args;
	size_t nr_args;
};

/*
 * probe_def_format - append the definition line (no newline) to @out.
 * With @for_write, the text written to tracefs: uprobe offsets as
 * 0x%016lx and unnamed arguments named argN (1-based); else perf's -D text:
 * 0x%lx and arguments as typed. Returns 0.
 */
int probe_def_format(struct strbuf *out, const struct probe_def *def, bool for_write);

/* struct probe_event - one line of k/uprobe_events, parsed. */
struct probe_event {
	char kind;	/* 'p' or 'r' */
	char *group;	/* owned */
	char *event;	/* owned */
	char *target;	/* owned: "PATH:0xOFFSET" or "SYM+OFF" */
	char *path;	/* owned: the uprobe's path, or NULL */
	u64 offset;	/* the uprobe's offset */
	char **arg_names; /* owned: the NAME of each NAME=VALUE argument */
	size_t nr_args;
	size_t index;	/* line number in the file, from 0 */
};

/*
 * probe_event_matches - perf's --list/--del filter: "GROUP:EVENT" globs;
 * without ':', a glob on the event name or on the whole "GROUP:EVENT"
 * ("probe_*" hits probe_libc:malloc). NULL matches everything.
 */
bool probe_event_matches(const struct probe_event *ev, const char *filter);

/*
 * probe_events_read - parse the lines of @file ("uprobe_events" or
 * "kprobe_events" under the tracefs root). Returns the number of events
 * with *@evs allocated (probe_events_free), or -errno (-ENOENT: no file).
 */
int probe_events_read(const char *file, struct probe_event **evs);
/* probe_events_free - free @nr events from probe_events_read(). */
void probe_events_free(struct probe_event *evs, size_t nr);
/*
 * probe_events_append - write one definition line to @file. Returns 0 or
 * -errno from the kernel (-EINVAL: rejected definition).
 */
int probe_events_append(const char *file, const char *line);
/*
 * probe_events_open_check - whether @file can be opened for writing (perf
 * checks before it adds or deletes). Returns 0 or -errno (-EACCES).
 */
int probe_events_open_check(const char *file);
/* probe_events_remove - write "-:GROUP/EVENT" to @file. Returns 0 or -errno. */
int probe_events_remove(const char *file, const char *group, const char *event);
/* probe_events_path - "<tracefs root>/<file>" into @out; -ENOENT without tracefs. */
int probe_events_path(struct strbuf *out, const char *file);

#endif
