/* SPDX-License-Identifier: MIT */
/* sonde probe: define, list and delete uprobe events from ELF symbols, as perf probe. */
#include "builtin.h"
#include "cmd/probe.h"

#include "lib/debug.h"
#include "lib/hashmap.h"
#include "lib/optspec.h"
#include "lib/strbuf.h"
#include "lib/strfilter.h"
#include "lib/strvec.h"
#include "lib/util.h"
#include "lib/xalloc.h"
#include "symbol/elf.h"
#include "symbol/probe-binary.h"
#include "symbol/symtab.h"
#include "trace/probe-plan.h"
#include "trace/probe-spec.h"
#include "trace/tracefs.h"

#include <ctype.h>
#include <elf.h>
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define UPROBE_EVENTS "uprobe_events"
#define KPROBE_EVENTS "kprobe_events"
#define FUNCS_DEFAULT_FILTER "!_* & !*@plt"

static const char *const probe_usage[] = {
	"perf probe [<options>] 'PROBEDEF' ['PROBEDEF' ...]",
	"perf probe [<options>] --add 'PROBEDEF' [--add 'PROBEDEF' ...]",
	"perf probe [<options>] --del '[GROUP:]EVENT' ...",
	"perf probe --list [GROUP:]EVENT ...",
	"perf probe [<options>] --line 'LINEDESC'",
	"perf probe [<options>] --vars 'PROBEPOINT'",
	"perf probe [<options>] --funcs",
	NULL,
};

#define PROBEDEF_LABEL "[EVENT=]FUNC[@SRC][+OFF|%return|:RL|;PT]|SRC:AL|SRC;PT [[NAME=]ARG ...]"

enum probe_action {
	ACT_NONE,
	ACT_ADD,
	ACT_DEFINE, /* -D */
	ACT_DEL,
	ACT_LIST,
	ACT_FUNCS,
	ACT_LINE,
	ACT_VARS,
};

static struct probe_opts {
	enum probe_action action;
	bool conflict;	     /* a second command besides --add */
	struct strvec specs; /* --add / -D values */
	struct strvec dels;
	const char *list_filter;
	const char *funcs_filter;
	const char *filter;  /* --filter */
	const char *exec;
	char *exec_abs; /* owned: realpath of -x */
	const char *module;  /* -m: a module name, or a path (made absolute) */
	char *module_abs;    /* owned */
	const char *target_ns; /* --target-ns PID (see cmd_probe) */
	const char *line_or_vars;
	bool force, dry_run, quiet, no_inlines, externs, range;
	int verbose;
	int max_probes;
	int bare_spec; /* index in specs of the bare-form PROBEDEF, or -1 */
} o = { .max_probes = 128, .bare_spec = -1 };

/* A second command after the first one (perf: "another command except --add is set"). */
static void set_action(enum probe_action act)
{
	if (o.action != ACT_NONE && o.action != act)
		o.conflict = true;
	o.action = act;
}

static int opt_add(const struct opt_spec *opt, const char *arg, int unset)
{
	set_action(opt->letter == 'D' ? ACT_DEFINE : ACT_ADD);
	strvec_push(&o.specs, arg);
	return 0;
}

static int opt_del(const struct opt_spec *opt, const char *arg, int unset)
{
	set_action(ACT_DEL);
	strvec_push(&o.dels, arg);
	return 0;
}

static int opt_list(const struct opt_spec *opt, const char *arg, int unset)
{
	set_action(ACT_LIST);
	o.list_filter = arg && *arg ? arg : NULL;
	return 0;
}

static int opt_funcs(const struct opt_spec *opt, const char *arg, int unset)
{
	set_action(ACT_FUNCS);
	o.funcs_filter = arg && *arg ? arg : NULL;
	return 0;
}

static int opt_line_vars(const struct opt_spec *opt, const char *arg, int unset)
{
	set_action(opt->letter == 'L' ? ACT_LINE : ACT_VARS);
	o.line_or_vars = arg;
	return 0;
}

static const struct opt_spec probe_options[] = {
	SPEC_FN("add", 'a', NULL, PROBEDEF_LABEL,
		"probe point definition, where\n"
		"\t\tGROUP:\tGroup name (optional)\n"
		"\t\tEVENT:\tEvent name\n"
		"\t\tFUNC:\tFunction name\n"
		"\t\tOFF:\tOffset from function entry (in byte)\n"
		"\t\t%return:\tPut the probe at function return\n"
		"\t\tSRC:\tSource code path\n"
		"\t\tRL:\tRelative line number from function entry.\n"
		"\t\tAL:\tAbsolute line number in file.\n"
		"\t\tPT:\tLazy expression of line code.\n"
		"\t\tARG:\tProbe argument (local variable name or\n"
		"\t\t\tkprobe-tracer argument format.)\n",
		opt_add),
	SPEC_FN("definition", 'D', NULL, PROBEDEF_LABEL,
		"Show trace event definition of given traceevent for k/uprobe_events.", opt_add),
	SPEC_FN("del", 'd', NULL, "[GROUP:]EVENT", "delete a probe event.", opt_del),
	SPEC_FLAG("force", 'f', &o.force, "forcibly add events with existing name"),
	SPEC_FN("funcs", 'F', NULL, "[FILTER]", "Show potential probe-able functions.", opt_funcs),
	SPEC_REFUSED("vmlinux", 'k', "file", "vmlinux pathname"),
	SPEC_FN("line", 'L', NULL, "FUNC[:RLN[+NUM|-RLN2]]|SRC:ALN[+NUM|-ALN2]",
		"Show source code lines.", opt_line_vars),
	SPEC_FN("list", 'l', NULL, "[GROUP:]EVENT", "list up probe events", opt_list),
	SPEC_TEXT("module", 'm', &o.module, "modname|path",
		  "target module name (for online) or path (for offline)"),
	SPEC_FLAG("dry-run", 'n', &o.dry_run, "dry run"),
	SPEC_FLAG("quiet", 'q', &o.quiet, "be quiet (do not show any warnings or messages)"),
	SPEC_REFUSED("source", 's', "directory", "path to kernel source"),
	SPEC_FN("vars", 'V', NULL, "FUNC[@SRC][+OFF|%return|:RL|;PT]|SRC:AL|SRC;PT",
		"Show accessible variables on PROBEDEF", opt_line_vars),
	SPEC_COUNT("verbose", 'v', &o.verbose, "be more verbose (show parsed arguments, etc)"),
	SPEC_TEXT("exec", 'x', &o.exec, "executable|path", "target executable name or path"),
	SPEC_REFUSED_NOVAL("bootconfig", 0, "Output probe definition with bootconfig format"),
	SPEC_REFUSED_NOVAL("cache", 0, "Manipulate probe cache"),
	SPEC_REFUSED_NOVAL("demangle", 0, "Enable symbol demangling"),
	SPEC_REFUSED_NOVAL("demangle-kernel", 0, "Enable kernel symbol demangling"),
	SPEC_FLAG("externs", 0, &o.externs, "Show external variables too (with --vars only)"),
	SPEC_TEXT("filter", 0, &o.filter, "[!]FILTER",
		  "Set a filter (with --vars/funcs only)\n"
		  "\t\t\t(default: \"!__k???tab_* & !__crc_*\" for --vars,\n"
		  "\t\t\t \"!_* & !*@plt\" for --funcs)"),
	SPEC_INT("max-probes", 0, &o.max_probes, "Set how many probe points can be found for a probe."),
	SPEC_FLAG("no-inlines", 0, &o.no_inlines, "Don't search inlined functions"),
	SPEC_FLAG("range", 0, &o.range, "Show variables location range in scope (with --vars only)"),
	SPEC_REFUSED("symfs", 0, "directory", "Look for files with symbols relative to this directory"),
	SPEC_TEXT("target-ns", 0, &o.target_ns, "pid", "target pid for namespace contexts"),
	SPEC_END(),
};

/* ------------------------------------------------------------------ */
/* Adding probes */


static int exit_status(int err)
{
	return err & 0xff;
}

/* The event name of a spec: -D takes it as it is; adding makes it unique (-f: "_N"). */
static int name_event(const struct probe_plan *plan, const char *group, const char *base,
		      bool allow_suffix, char **event)
{
	int err;

	if (o.action == ACT_DEFINE) {
		*event = xstrdup(base);
		return 0;
	}
	err = probe_plan_name(plan, group, base, allow_suffix, event);
	if (err == -EEXIST)
		pr_err("Error: event \"%s\" already exists.\n"
		       " Hint: Remove existing event by 'perf probe -d'\n"
		       "       or force duplicates by 'perf probe -f'\n"
		       "       or set 'force=yes' in BPF source.\n", base);
	else if (err)
		pr_err("Too many events are on the same function.\n");
	return err;
}

/*
 * perf: the event (given, or the function's up to a '.' of a clone suffix)
 * with "__return" for return probes
 */
char *probe_base_name(const struct probe_spec *ps)
{
	int len = ps->event ? (int)strlen(ps->event) : (int)strcspn(ps->func, ".");

	return xasprintf("%.*s%s", len, ps->event ? ps->event : ps->func,
			 ps->is_return ? "__return" : "");
}

/* not_found - perf's message for a probe point with no address: -ENOENT */
static int not_found(const struct probe_binary *pb, const struct probe_spec *ps, bool by_dwarf)
{
	if (by_dwarf)
		pr_err("Probe point '%s' not found.\n", ps->point);
	else
		pr_err("Failed to find symbol %s in %s\n", ps->func, pb->path);
	return -ENOENT;
}

/*
 * A function without a symbol (a static one the compiler inlined): perf
 * finds its instances in DWARF, concrete and inlined, one event for all.
 */
static int resolve_dwarf_instances(struct probe_binary *pb, const char *group,
				   const struct probe_spec *ps, struct probe_plan *plan,
				   bool by_dwarf)
{
	u64 addrs[64];
	size_t nr = probe_binary_find_dwarf(pb, ps->func, addrs, ARRAY_SIZE(addrs));
	char *base, *event = NULL;
	int err = 0;

	if (o.max_probes > 0 && nr > (size_t)o.max_probes)
		nr = (size_t)o.max_probes;
	if (!nr)
		return not_found(pb, ps, by_dwarf);
	base = probe_base_name(ps);
	err = name_event(plan, group, base, o.force, &event);
	free(base);
	for (size_t i = 0; i < nr && !err; i++) {
		struct probe_plan_item *it;
		u64 off;

		if (probe_binary_file_offset(pb, addrs[i], &off)) {
			pr_err("Probe point '%s' not found.\n", ps->point);
			err = -ENOENT;
			break;
		}
		it = probe_plan_add(plan, group, xstrdup(event), ps->point);
		it->def.path = pb->path;
		it->def.offset = off;
		it->def.args = ps->args;
		it->def.nr_args = ps->nr_args;
	}
	free(event);
	return err;
}

/* Resolve one uprobe spec against @pb into @plan. Returns 0 or -errno (said). */
static int resolve_uprobe(struct probe_binary *pb, const char *group_default,
			  const struct probe_spec *ps, struct probe_plan *plan)
{
	const char *group = ps->group ? ps->group : group_default;
	const struct symbol *hits[64];
	size_t nr_hits;
	bool by_dwarf;
	char *base;
	int err = 0;

	if (probe_spec_needs_dwarf(ps)) {
		struct probe_dwarf_opts po = { o.force, o.max_probes, name_event };

		if (!pb->has_dwarf) {
			pr_err("The %s file has no debug information.\n"
			       "Rebuild with -g, or install an appropriate debuginfo package.\n",
			       pb->path);
			return -ENOENT;
		}
		return probe_dwarf_resolve(pb, group, ps, plan, &po);
	}
	/*
	 * perf with DWARF looks a plain FUNC[+OFF] up there (functions only:
	 * "Probe point 'F' not found."); with arguments, %return or without
	 * DWARF it takes the ELF symbols, PLT entries included.
	 * --max-probes caps DWARF's points silently, ELF matches with an error.
	 */
	by_dwarf = pb->has_dwarf && !ps->nr_args && !ps->is_return;
	nr_hits = probe_binary_find_func(pb, ps->func, !by_dwarf, hits,
					 by_dwarf && o.max_probes > 0 &&
							 (size_t)o.max_probes < ARRAY_SIZE(hits)
						 ? (size_t)o.max_probes : ARRAY_SIZE(hits));
	if (!by_dwarf && o.max_probes > 0 && nr_hits > (size_t)o.max_probes) {
		pr_err("Too many functions matched in %s\n", pb->path);
		return -E2BIG;
	}
	if (!nr_hits && pb->has_dwarf && !ps->is_return && !ps->has_offset)
		return resolve_dwarf_instances(pb, group, ps, plan, by_dwarf);
	if (!nr_hits)
		return not_found(pb, ps, by_dwarf);
	base = probe_base_name(ps);
	for (size_t i = 0; i < nr_hits && !err; i++) {
		const struct symbol *s = hits[i];
		struct probe_plan_item *it;
		char *event;
		u64 off;

		if (ps->has_offset && ps->offset > s->end - s->start) {
			pr_err("Offset %" PRIu64 " is bigger than the size of %s\n", ps->offset,
			       ps->func);
			err = -ENOENT;
		} else if (probe_binary_file_offset(pb, s->start + ps->offset, &off)) {
			pr_err("Failed to find symbol %s in %s\n", ps->func, pb->path);
			err = -ENOENT;
		} else if (i > 0 || !(err = name_event(plan, group, base, o.force, &event))) {
			/* later points of one spec join the first one's event (the
			   kernel appends probes with equal names and arguments) */
			if (i > 0)
				event = xstrdup(plan->items[plan->nr_items - 1].event);
			it = probe_plan_add(plan, group, event, ps->point);
			it->def.is_return = ps->is_return;
			it->def.path = pb->path;
			it->def.offset = off;
			it->def.args = ps->args;
			it->def.nr_args = ps->nr_args;
		}
	}
	free(base);
	return err;
}

/* Parse every spec; a bad one ends the command with perf's text and status. */
static int parse_specs(struct probe_spec *specs)
{
	for (size_t i = 0; i < o.specs.nr; i++) {
		struct probe_spec_error perr;
		int err;

		if (probe_sdt_is_spec(o.specs.v[i]))
			continue; /* cached SDT events: cmd/probe-sdt.c */
		err = probe_spec_parse(&specs[i], o.specs.v[i], &perr);
		if (!err)
			continue;
		pr_err("Semantic error :%s\n", perr.msg);
		if ((int)i != o.bare_spec) {
			/* from -a/-D: the option parser's usage error */
			opts_usage_for(probe_usage, probe_options,
				       o.action == ACT_DEFINE ? 'D' : 'a', NULL);
			exit(129);
		}
		fprintf(stderr, "  Error: Command Parse Error.\n");
		return err;
	}
	return 0;
}

static int probe_add(void)
{
	struct probe_spec *specs = xcalloc(o.specs.nr, sizeof(*specs));
	struct probe_dwarf_opts po = { o.force, o.max_probes, name_event };
	struct probe_kernel_opts ko = { o.module, o.module_abs, o.force, name_event };
	bool all_sdt = true;
	const char *events_file;
	struct probe_binary pb = { 0 };
	struct probe_plan plan;
	char *group = NULL;
	int err;

	for (size_t i = 0; i < o.specs.nr; i++)
		all_sdt &= probe_sdt_is_spec(o.specs.v[i]);
	events_file = o.exec || all_sdt ? UPROBE_EVENTS : KPROBE_EVENTS;
	probe_plan_init(&plan, events_file);
	err = parse_specs(specs);
	if (err)
		goto out;
	if (all_sdt) {
		for (size_t i = 0; i < o.specs.nr && !err; i++)
			err = probe_sdt_resolve(o.specs.v[i], o.exec_abs, &plan, &po);
		if (err)
			goto fail;
		goto resolved;
	}
	if (o.exec) {
		err = probe_binary_load(&pb, o.exec_abs);
		group = probe_group_for_path(o.exec_abs);
		if (err) {
			pr_err("Failed to load symbols from %s\nPlease ensure the file is not stripped.\n",
			       pb.path);
			err = -ENOENT;
			goto fail;
		}
	} else {
		if (o.module && !probe_module_loaded(o.module)) {
			/* perf: the module's map is looked for first */
			for (size_t i = 0; i < o.specs.nr && !err; i++)
				err = probe_kernel_resolve(&specs[i], &plan, NULL, &ko);
			goto fail;
		}
		if (o.action != ACT_DEFINE && (err = probe_kprobe_events_check()))
			goto fail;
		err = probe_binary_load_kallsyms(&pb, NULL);
		if (err) {
			pr_err("Failed to load kernel symbols: %s\n", strerror(-err));
			goto fail;
		}
	}
	for (size_t i = 0; i < o.specs.nr && !err; i++)
		err = probe_sdt_is_spec(o.specs.v[i])
			      ? probe_sdt_resolve(o.specs.v[i], o.exec_abs, &plan, &po)
		      : o.exec ? resolve_uprobe(&pb, group, &specs[i], &plan)
			       : probe_kernel_resolve(&specs[i], &plan, &pb, &ko);
	if (err)
		goto fail;
resolved:
	if (o.action == ACT_DEFINE) {
		struct strbuf line = STRBUF_INIT;

		for (size_t i = 0; i < plan.nr_items; i++) {
			strbuf_setlen(&line, 0);
			probe_def_format(&line, &plan.items[i].def, false);
			printf("%s\n", line.buf);
		}
		strbuf_release(&line);
		goto out;
	}
	if (!o.dry_run && (err = probe_events_open_check(events_file))) {
		if (err == -EACCES || err == -EPERM)
			pr_err("No permission to write tracefs.\nPlease run this command again with sudo.\n");
		else
			pr_err("Failed to open %s//%s: %s\n",
			       tracefs_root() ? tracefs_root() : "/sys/kernel/tracing", events_file,
			       strerror(-err));
		goto fail;
	}
	if (!o.dry_run && (err = probe_plan_write(&plan, events_file))) {
		pr_err("Failed to write event: %s\n", strerror(-err));
		goto fail;
	}
	if (!o.quiet)
		probe_print_added(&plan);
	goto out;
fail:
	fprintf(stderr, "  Error: Failed to add events.\n");
out:
	probe_plan_release(&plan);
	for (size_t i = 0; i < o.specs.nr; i++)
		probe_spec_release(&specs[i]);
	free(specs);
	probe_binary_release(&pb);
	probe_cmd_dwarf_release();
	probe_sdt_release();
	probe_kernel_release();
	free(group);
	return exit_status(err);
}

/* -F: perf's filter rules, then the listing (cmd/probe-events.c) */
static int run_funcs(void)
{
	if (o.module && !o.exec && !probe_module_loaded(o.module)) {
		pr_err("Failed to get a map for %s\n  Error: Failed to show functions.\n", o.module);
		return 234;
	}
	/*
	 * perf: -F FILTER after --filter X lists "X | FILTER"; a bare -F shows
	 * the default whatever --filter says.
	 */
	char *rules = !o.funcs_filter ? xstrdup(FUNCS_DEFAULT_FILTER)
		      : o.filter      ? xasprintf("(%s) | (%s)", o.filter, o.funcs_filter)
				      : xstrdup(o.funcs_filter);
	int ret = probe_cmd_funcs(o.exec_abs, rules);

	free(rules);
	return ret;
}

/* -L/-V (cmd/probe-line.c, cmd/probe-dwarf.c); without -x perf looks for the kernel's DWARF */
static int run_line_vars(void)
{
	if (!o.exec_abs) {
		pr_err("Failed to find the path for the kernel: Invalid ELF file\n"
		       "  Error: Failed to show %s.\n", o.action == ACT_LINE ? "lines" : "vars");
		return 254;
	}
	if (o.action == ACT_LINE)
		return probe_cmd_line(o.exec_abs, o.line_or_vars);
	return probe_cmd_vars(o.exec_abs, o.line_or_vars, o.externs, o.no_inlines, o.range,
			      o.filter);
}

int cmd_probe(int argc, const char **argv)
{
	const char **owned;
	const char **args;
	int nargs = argc;
	int ret;

	probe_check_exclusive(argc, argv, probe_usage, probe_options);
	owned = probe_optional_values(argc, argv);
	args = xmemdup(owned, ((size_t)argc + 1) * sizeof(*owned));

	strvec_init(&o.specs);
	strvec_init(&o.dels);
	argv = args;
	argc = opts_parse(argc, argv, probe_options, probe_usage, 0);
	verbose += o.verbose;
	if (o.exec && !(o.exec_abs = realpath(o.exec, NULL))) {
		pr_err("Failed to get the absolute path of %s: %s\n", o.exec, strerror(errno));
		opts_usage_for(probe_usage, probe_options, 'x', NULL);
		exit(129);
	}
	if (o.module && strchr(o.module, '/') && !(o.module_abs = realpath(o.module, NULL))) {
		pr_err("Failed to get the absolute path of %s: %s\n", o.module, strerror(errno));
		opts_usage_for(probe_usage, probe_options, 'm', NULL);
		exit(129);
	}
	/*
	 * --target-ns: the uprobe paths are those of the target's mount
	 * namespace; sonde reads them as given (the same namespace), as perf
	 * does when the pid shares ours or does not exist
	 */
	(void)o.target_ns;
	/* perf -q prints nothing at all, errors included */
	if (o.quiet && !freopen("/dev/null", "w", stderr))
		o.quiet = true;
	if (argc > 0) {
		struct strbuf spec = STRBUF_INIT;

		if (o.action != ACT_NONE && o.action != ACT_ADD) {
			fprintf(stderr, "  Error: another command except --add is set.\n\n");
			opts_usage_exit(probe_usage, probe_options);
		}
		/* perf: with -a, each word is one more PROBEDEF; alone they form one */
		o.bare_spec = (int)o.specs.nr;
		if (o.action == ACT_ADD) {
			for (int i = 0; i < argc; i++)
				strvec_push(&o.specs, argv[i]);
		} else {
			for (int i = 0; i < argc; i++)
				strbuf_addf(&spec, "%s%s", i ? " " : "", argv[i]);
			strvec_push(&o.specs, spec.buf);
		}
		strbuf_release(&spec);
		o.action = ACT_ADD;
	}
	if (o.conflict) {
		fprintf(stderr, "  Error: another command except --add is set.\n\n");
		opts_usage_exit(probe_usage, probe_options);
	}
	switch (o.action) {
	case ACT_ADD:
	case ACT_DEFINE:
		ret = probe_add();
		break;
	case ACT_DEL:
		ret = probe_cmd_del(&o.dels);
		break;
	case ACT_LIST:
		ret = probe_cmd_list(o.list_filter);
		break;
	case ACT_FUNCS:
		ret = run_funcs();
		break;
	case ACT_LINE:
	case ACT_VARS:
		ret = run_line_vars();
		break;
	default:
		opts_usage_exit(probe_usage, probe_options);
	}
	strvec_clear(&o.specs);
	strvec_clear(&o.dels);
	for (int i = 0; i < nargs; i++)
		free((char *)owned[i]);
	free(owned);
	free(args);
	free(o.exec_abs);
	free(o.module_abs);
	return ret;
}
