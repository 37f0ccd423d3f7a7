/* SPDX-License-Identifier: MIT */
/*
 * sonde probe's parts: cmd/probe.c (options, adding) and
 * cmd/probe-events.c (--list, --del, --funcs). Each returns the exit status.
 */
#ifndef SONDE_CMD_PROBE_H
#define SONDE_CMD_PROBE_H

#include <stdbool.h>

struct opt_spec;
struct strvec;
struct probe_binary;
struct probe_dwarf_func;
struct probe_plan;
struct probe_spec;

/*
 * probe_print_added - perf's "Added new event(s):" lines for @plan's
 * probes and the record hint, on stderr (nothing for an empty plan).
 */
void probe_print_added(const struct probe_plan *plan);
/* probe_cmd_list - --list: k/uprobe events matching @filter (NULL: all), in perf's layout. */
int probe_cmd_list(const char *filter);
/* probe_cmd_del - --del: remove the events matching each glob of @globs. */
int probe_cmd_del(const struct strvec *globs);
/*
 * probe_cmd_funcs - --funcs: the symbol names of the binary @path (NULL:
 * the kernel) that pass the filter @rules, sorted.
 */
int probe_cmd_funcs(const char *path, const char *rules);

/* probe_cmd_line - --line: the source lines of a function or file of @path, perf's layout. */
int probe_cmd_line(const char *path, const char *spec);
/*
 * probe_cmd_vars - --vars: the variables live at each address of @spec in
 * @path, filtered by @filter (NULL: perf's default); @range: --range.
 */
int probe_cmd_vars(const char *path, const char *spec, bool externs, bool no_inlines, bool range,
		   const char *filter);

/* struct probe_dwarf_opts - what probe_dwarf_resolve() needs from the command. */
struct probe_dwarf_opts {
	bool force;
	int max_probes;
	/* a free event name in @group for @base (probe.c's name_event) */
	int (*name_event)(const struct probe_plan *plan, const char *group, const char *base,
			  bool allow_suffix, char **event);
};

/*
 * probe_dwarf_resolve - the probes of a spec that needs debug info (a
 * line, variables) into @plan: perf's messages on failure, -errno.
 */
int probe_dwarf_resolve(struct probe_binary *pb, const char *group, const struct probe_spec *ps,
			struct probe_plan *plan, const struct probe_dwarf_opts *po);
/* probe_cmd_dwarf_release - free the arguments probe_dwarf_resolve() made. */
void probe_cmd_dwarf_release(void);

/*
 * probe_cmd_no_debuginfo - perf's message that @path has no debug
 * information, so --line or --vars (@what: "lines", "vars") fails: 254
 */
int probe_cmd_no_debuginfo(const char *path, const char *what);

/*
 * probe_cmd_find_funcs - the functions named @name in DWARF (@file: in that
 * source file; @inlines: inlined copies too); failing that with @by_symbols,
 * the DWARF functions at the ELF symbols of that name. Returns how many, in
 * *@fns (malloc'ed), or -errno.
 */
int probe_cmd_find_funcs(struct probe_binary *pb, const char *name, const char *file, bool inlines,
			 bool by_symbols, struct probe_dwarf_func **fns);

/*
 * probe_optional_values - a copy of @argv (strings malloc'ed) where a bare
 * -F/--funcs or -l/--list, one without a value after it, has an empty one.
 */
const char **probe_optional_values(int argc, const char **argv);

/*
 * probe_check_exclusive - perf's exclusive commands, on argv before parsing:
 * a second different one is a usage error naming both (@usage and the
 * @options of both printed), exit 129.
 */
void probe_check_exclusive(int argc, const char **argv, const char *const usage[],
			   const struct opt_spec *options);

/* probe_base_name - perf's event name of a spec: EVENT, or FUNC up to a '.', "__return" added. */
char *probe_base_name(const struct probe_spec *ps);

/* struct probe_kernel_opts - what the kernel resolution needs from the command. */
struct probe_kernel_opts {
	const char *module;	/* -m, or NULL */
	const char *module_abs; /* -m as an absolute path, when it was one */
	bool force;
	int (*name_event)(const struct probe_plan *plan, const char *group, const char *base,
			  bool allow_suffix, char **event);
};

/*
 * probe_kernel_resolve - a kernel spec into @plan: from kallsyms (@kernel),
 * or with -m a module's function. perf's messages; returns 0 or -errno.
 */
int probe_kernel_resolve(const struct probe_spec *ps, struct probe_plan *plan,
			 const struct probe_binary *kernel, const struct probe_kernel_opts *ko);
/* probe_module_loaded - @module is listed in /proc/modules. */
bool probe_module_loaded(const char *module);
/* probe_kprobe_events_check - perf's check before adding kernel probes: 0 or -ENOENT (said). */
int probe_kprobe_events_check(void);
/* probe_kernel_release - free what probe_kernel_resolve() made. */
void probe_kernel_release(void);

/* probe_sdt_is_spec - @spec names cached SDT events: %GROUP:NAME or sdt_PROV:NAME (globs). */
bool probe_sdt_is_spec(const char *spec);
/*
 * probe_sdt_resolve - the SDT events of the build-id cache's probes files
 * matching @spec (of the binary @exec when not NULL) into @plan, named as
 * perf does. Returns 0, -ENOENT (none) or -errno.
 */
int probe_sdt_resolve(const char *spec, const char *exec, struct probe_plan *plan,
		      const struct probe_dwarf_opts *po);
/* probe_sdt_release - free what probe_sdt_resolve() made. */
void probe_sdt_release(void);

#endif
