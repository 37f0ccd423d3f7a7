/* SPDX-License-Identifier: MIT */
/* sonde probe: define, list and delete uprobe events from ELF symbols, as perf probe. */
#include "builtin.h"

#include "lib/debug.h"
#include "lib/hashmap.h"
#include "lib/optspec.h"
#include "lib/strbuf.h"
#include "lib/strfilter.h"
#include "lib/strvec.h"
#include "lib/util.h"
#include "lib/xalloc.h"
#include "symbol/elf.h"
#include "symbol/kallsyms.h"
#include "symbol/probe-dwarf.h"
#include "symbol/symtab.h"
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
	const char *line_or_vars;
	bool force, dry_run, quiet, no_inlines, externs, range;
	int verbose;
	int max_probes;
} o = { .max_probes = 128 };

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
	SPEC_REFUSED("module", 'm', "modname|path",
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
	SPEC_REFUSED("target-ns", 0, "pid", "target pid for namespace contexts"),
	SPEC_END(),
};

/* ------------------------------------------------------------------ */
/* The target binary: its symbols and whether DWARF is there. */

struct probe_target {
	char *path;		/* owned: absolute path */
	char *group;		/* owned: probe_<basename up to the first non-name char> */
	char *debug_path;	/* owned: the debug file the symbols came from, or NULL */
	struct strpool pool;
	struct symtab st;	/* every name, aliases kept (perf probe finds any of them) */
	struct load_segment *segs; /* owned: the binary's PT_LOAD headers */
	size_t nr_segs;
	bool is_loaded;
	bool has_dwarf;		/* .debug_info in the binary or its debug file */
};

static void target_release(struct probe_target *t)
{
	if (t->is_loaded) {
		symtab_release(&t->st);
		strpool_release(&t->pool);
	}
	free(t->segs);
	free(t->path);
	free(t->group);
	free(t->debug_path);
	memset(t, 0, sizeof(*t));
}

static char *group_of(const char *path)
{
	const char *base = strrchr(path, '/');
	size_t n;

	base = base ? base + 1 : path;
	for (n = 0; base[n] && (isalnum((unsigned char)base[n]) || base[n] == '_'); n++)
		;
	return xasprintf("probe_%.*s", (int)n, base);
}

/*
 * The symbols of @path: its .symtab, or the debug file's (found by
 * build-id or debuglink) when the binary has only .dynsym. Returns 0 or
 * -errno (-ENOTSUP: not ELF).
 */
static int target_load(struct probe_target *t, const char *path)
{
	struct elf_syms_info info = { 0 };
	struct strbuf dbg = STRBUF_INIT;
	int n;

	strpool_init(&t->pool);
	symtab_init(&t->st, &t->pool);
	t->st.allow_aliases = true;
	t->is_loaded = true;
	t->path = xstrdup(path);
	t->group = group_of(path);
	n = elf_load_symbols(&t->st, path, NULL, &info);
	if (n < 0)
		return n;
	t->segs = info.segs;
	t->nr_segs = info.nr_segs;
	t->has_dwarf = info.has_debug_info;
	if (!info.has_symtab &&
	    !debugfile_find(&dbg, path, NULL, info.build_id, info.build_id_size, NULL)) {
		struct symtab full;
		struct elf_syms_info dinfo = { 0 };

		symtab_init(&full, &t->pool);
		full.allow_aliases = true;
		n = elf_load_symbols(&full, dbg.buf, NULL, &dinfo);
		free(dinfo.segs);
		if (n > 0 && dinfo.has_symtab) {
			symtab_release(&t->st);
			t->st = full;
			elf_load_plt(&t->st, path, NULL);
			t->debug_path = strbuf_detach(&dbg, NULL);
			t->has_dwarf |= dinfo.has_debug_info;
		} else {
			symtab_release(&full);
		}
	}
	strbuf_release(&dbg);
	symtab_finish(&t->st, false);
	return 0;
}

static bool target_has_dwarf(struct probe_target *t)
{
	return t->has_dwarf;
}

static void print_no_debuginfo(const char *path)
{
	pr_err("The %s file has no debug information.\n"
	       "Rebuild with -g, or install an appropriate debuginfo package.\n", path);
}

/* ------------------------------------------------------------------ */
/* Adding probes */

/* One resolved probe point, waiting to be written. */
struct pending_probe {
	struct probe_def def;
	char *group;  /* owned */
	char *event;  /* owned */
	char *on;     /* owned: "work" / "work+4" / "work%return" for the messages */
	const struct probe_spec *spec;
};

struct add_state {
	struct probe_event *existing;
	int nr_existing;
	struct pending_probe *probes;
	size_t nr_probes;
	size_t alloc_probes;
};

static bool event_taken(const struct add_state *as, const char *group, const char *event)
{
	for (int i = 0; i < as->nr_existing; i++)
		if (!strcmp(as->existing[i].group, group) && !strcmp(as->existing[i].event, event))
			return true;
	for (size_t i = 0; i < as->nr_probes; i++)
		if (!strcmp(as->probes[i].group, group) && !strcmp(as->probes[i].event, event))
			return true;
	return false;
}

/*
 * A free event name for @base in @group: @base itself, else with -f (or for
 * the second and later points of one spec) the first free "_N".
 * Returns NULL after printing perf's message when the name is taken.
 */
static char *pick_event_name(const struct add_state *as, const char *group, const char *base,
			     bool allow_suffix)
{
	if (!event_taken(as, group, base))
		return xstrdup(base);
	if (!allow_suffix) {
		pr_err("Error: event \"%s\" already exists.\n"
		       " Hint: Remove existing event by 'perf probe -d'\n"
		       "       or force duplicates by 'perf probe -f'\n"
		       "       or set 'force=yes' in BPF source.\n", base);
		return NULL;
	}
	for (int i = 1; i < 1024; i++) {
		char *name = xasprintf("%s_%d", base, i);

		if (!event_taken(as, group, name))
			return name;
		free(name);
	}
	pr_err("Too many events are on the same function.\n");
	return NULL;
}

static struct pending_probe *pending_new(struct add_state *as)
{
	as->probes = xgrow(as->probes, as->nr_probes + 1, &as->alloc_probes, sizeof(*as->probes));
	memset(&as->probes[as->nr_probes], 0, sizeof(*as->probes));
	return &as->probes[as->nr_probes++];
}

static void add_state_release(struct add_state *as)
{
	for (size_t i = 0; i < as->nr_probes; i++) {
		free(as->probes[i].group);
		free(as->probes[i].event);
		free(as->probes[i].on);
	}
	free(as->probes);
	probe_events_free(as->existing, as->nr_existing > 0 ? (size_t)as->nr_existing : 0);
}

/* the "(on ...)" text of the Added lines: the point as typed, without EVENT= */
static char *on_text(const struct probe_spec *ps)
{
	return xstrdup(ps->point);
}

/*
 * Resolve one uprobe spec against @t. Returns 0, or a negative errno after
 * printing perf's message.
 */
static int resolve_uprobe(struct probe_target *t, const struct probe_spec *ps,
			  struct add_state *as)
{
	const struct symtab *st = &t->st;
	const struct symbol *hits[64];
	size_t nr_hits = 0;
	const char *base;
	char *ret_name = NULL;

	if (probe_spec_needs_dwarf(ps)) {
		if (!target_has_dwarf(t)) {
			print_no_debuginfo(t->path);
			return -ENOENT;
		}
		pr_err("sonde probe: source lines, lazy patterns and variables need DWARF "
		       "probe finding, which sonde does not implement yet.\n");
		return -EOPNOTSUPP;
	}
	for (size_t i = 0; i < st->nr_syms && nr_hits < ARRAY_SIZE(hits); i++) {
		const struct symbol *s = &st->syms[i];
		bool dup = false;

		if ((s->type != STT_FUNC && s->type != STT_GNU_IFUNC) || (s->flags & SYMBOL_PLT) ||
		    strcmp(s->name, ps->func))
			continue;
		for (size_t j = 0; j < nr_hits; j++)
			dup |= hits[j]->start == s->start;
		if (!dup)
			hits[nr_hits++] = s;
	}
	if (!nr_hits) {
		if (target_has_dwarf(t))
			pr_err("Probe point '%s' not found.\n", ps->point);
		else
			pr_err("Failed to find symbol %s in %s\n", ps->func, t->path);
		return -ENOENT;
	}
	if (o.max_probes > 0 && nr_hits > (size_t)o.max_probes) {
		pr_err("Too many( > %d) probe point found.\n", o.max_probes);
		return -E2BIG;
	}
	if (ps->is_return)
		ret_name = xasprintf("%s__return", ps->func);
	base = ps->event ? ps->event : ret_name ? ret_name : ps->func;
	for (size_t i = 0; i < nr_hits; i++) {
		const struct symbol *s = hits[i];
		u64 size = s->end > s->start ? s->end - s->start : 0;
		struct pending_probe *pp;
		const char *group = ps->group ? ps->group : t->group;
		char *event;
		u64 off;

		if (ps->has_offset && ps->offset > size) {
			pr_err("Offset %" PRIu64 " is bigger than the size of %s\n", ps->offset,
			       ps->func);
			free(ret_name);
			return -ENOENT;
		}
		if (!elf_vaddr_to_offset(t->segs, t->nr_segs, s->start + ps->offset, &off)) {
			pr_err("Failed to find symbol %s in %s\n", ps->func, t->path);
			free(ret_name);
			return -ENOENT;
		}
		event = pick_event_name(as, group, base, o.force || i > 0);
		if (!event) {
			free(ret_name);
			return -EEXIST;
		}
		pp = pending_new(as);
		pp->group = xstrdup(group);
		pp->event = event;
		pp->on = on_text(ps);
		pp->spec = ps;
		pp->def.is_return = ps->is_return;
		pp->def.group = pp->group;
		pp->def.event = pp->event;
		pp->def.path = t->path;
		pp->def.offset = off;
		pp->def.args = ps->args;
		pp->def.nr_args = ps->nr_args;
	}
	free(ret_name);
	return 0;
}

/* Kernel specs: -D from kallsyms; adding needs kprobe_events. */
static int resolve_kprobe(const struct probe_spec *ps, struct add_state *as, struct kallsyms *ks)
{
	const struct symbol *fn = ps->func ? symtab_find_by_name(&ks->kernel, ps->func) : NULL;
	struct pending_probe *pp;
	char *event;
	char *ret_name = NULL;

	if (probe_spec_needs_dwarf(ps) || !ps->func) {
		pr_err("sonde probe: kernel probes on lines, patterns or variables need the "
		       "kernel's DWARF, which sonde does not implement yet.\n");
		return -EOPNOTSUPP;
	}
	if (!fn || !ks->text_start) {
		pr_err("Probe point '%s' not found.\n", ps->point);
		return -ENOENT;
	}
	if (ps->is_return)
		ret_name = xasprintf("%s__return", ps->func);
	event = pick_event_name(as, ps->group ? ps->group : "probe",
				ps->event ? ps->event : ret_name ? ret_name : ps->func, o.force);
	free(ret_name);
	if (!event)
		return -EEXIST;
	pp = pending_new(as);
	pp->group = xstrdup(ps->group ? ps->group : "probe");
	pp->event = event;
	pp->on = on_text(ps);
	pp->spec = ps;
	pp->def.is_kernel = true;
	pp->def.is_return = ps->is_return;
	pp->def.group = pp->group;
	pp->def.event = pp->event;
	/* entries: _text-relative; return probes: the function itself */
	if (ps->is_return) {
		pp->def.symbol = fn->name;
		pp->def.offset = 0;
	} else {
		pp->def.symbol = "_text";
		pp->def.offset = fn->start + ps->offset - ks->text_start;
	}
	pp->def.args = ps->args;
	pp->def.nr_args = ps->nr_args;
	return 0;
}

static int exit_status(int err)
{
	return err & 0xff;
}

static void print_added(const struct add_state *as)
{
	const struct pending_probe *last = NULL;

	if (o.quiet || !as->nr_probes)
		return;
	fprintf(stderr, "Added new event%s:\n", as->nr_probes > 1 ? "s" : "");
	for (size_t i = 0; i < as->nr_probes; i++) {
		const struct pending_probe *pp = &as->probes[i];
		struct strbuf name = STRBUF_INIT;

		strbuf_addf(&name, "%s:%s", pp->group, pp->event);
		fprintf(stderr, "  %-20s (on %s", name.buf, pp->on);
		if (!pp->def.is_kernel)
			fprintf(stderr, " in %s", pp->def.path);
		if (pp->def.nr_args) {
			fprintf(stderr, " with");
			for (size_t j = 0; j < pp->def.nr_args; j++)
				fprintf(stderr, " %s", pp->def.args[j].text);
		}
		fprintf(stderr, ")\n");
		strbuf_release(&name);
		last = pp;
	}
	fprintf(stderr, "\nYou can now use it in all perf tools, such as:\n\n"
			"\tperf record -e %s:%s -aR sleep 1\n\n", last->group, last->event);
}

/* the running kernel's symbols from /proc/kallsyms */
static int kernel_symbols(struct kallsyms *ks, struct strpool *pool)
{
	memset(ks, 0, sizeof(*ks));
	return kallsyms_load(ks, NULL, pool);
}

static int probe_add(void)
{
	struct probe_spec *specs = xcalloc(o.specs.nr, sizeof(*specs));
	struct probe_target t = { 0 };
	struct add_state as = { 0 };
	struct strpool kpool;
	struct kallsyms ks = { 0 };
	bool has_ks = false;
	struct strbuf line = STRBUF_INIT;
	const char *events_file = o.exec ? UPROBE_EVENTS : KPROBE_EVENTS;
	bool is_define = o.action == ACT_DEFINE;
	size_t nr_specs = 0;
	int err = 0;

	strpool_init(&kpool);
	for (size_t i = 0; i < o.specs.nr; i++) {
		struct probe_spec_error perr;

		err = probe_spec_parse(&specs[i], o.specs.v[i], &perr);
		if (err) {
			pr_err("Semantic error :%s\n", perr.msg);
			fprintf(stderr, "  Error: Command Parse Error.\n");
			goto out;
		}
		nr_specs++;
	}
	if (o.exec) {
		char *abs = realpath(o.exec, NULL);

		if (!abs) {
			pr_err("Failed to get the absolute path of %s: %s\n\n", o.exec,
			       strerror(errno));
			opts_usage_for(probe_usage, probe_options, 'x', NULL);
			err = -129;
			goto out;
		}
		err = target_load(&t, abs);
		free(abs);
		if (err) {
			pr_err("Failed to load symbols from %s\nPlease ensure the file is not stripped.\n",
			       t.path);
			err = -ENOENT;
			goto fail_add;
		}
	} else if (!is_define) {
		struct strbuf path = STRBUF_INIT;
		const char *root = tracefs_root();

		strbuf_addf(&path, "%s/%s", root ? root : "/sys/kernel/tracing", KPROBE_EVENTS);
		if (access(path.buf, F_OK)) {
			pr_err("%s//%s does not exist.\nPlease rebuild kernel with CONFIG_KPROBE_EVENTS=y.\n",
			       root ? root : "/sys/kernel/tracing", KPROBE_EVENTS);
			strbuf_release(&path);
			err = -ENOENT;
			goto fail_add;
		}
		strbuf_release(&path);
	}
	if (!o.exec) {
		err = kernel_symbols(&ks, &kpool);
		has_ks = true;
		if (err) {
			pr_err("Failed to load kernel symbols: %s\n", strerror(-err));
			goto fail_add;
		}
	}
	err = probe_events_read(events_file, &as.existing);
	as.nr_existing = err > 0 ? err : 0;
	err = 0;
	for (size_t i = 0; i < nr_specs && !err; i++)
		err = o.exec ? resolve_uprobe(&t, &specs[i], &as) : resolve_kprobe(&specs[i], &as, &ks);
	if (err)
		goto fail_add;
	if (is_define) {
		for (size_t i = 0; i < as.nr_probes; i++) {
			strbuf_setlen(&line, 0);
			probe_def_format(&line, &as.probes[i].def, false);
			printf("%s\n", line.buf);
		}
		goto out;
	}
	if (!o.dry_run) {
		for (size_t i = 0; i < as.nr_probes; i++) {
			strbuf_setlen(&line, 0);
			probe_def_format(&line, &as.probes[i].def, true);
			pr_debug("Writing event: %s\n", line.buf);
			err = probe_events_append(events_file, line.buf);
			if (err) {
				pr_err("Failed to write event: %s\n", strerror(-err));
				/* take back what this command already wrote */
				while (i-- > 0)
					probe_events_remove(events_file, as.probes[i].group,
							    as.probes[i].event);
				goto fail_add;
			}
		}
	}
	print_added(&as);
	goto out;
fail_add:
	fprintf(stderr, "  Error: Failed to add events.\n");
out:
	strbuf_release(&line);
	add_state_release(&as);
	for (size_t i = 0; i < nr_specs; i++)
		probe_spec_release(&specs[i]);
	free(specs);
	target_release(&t);
	if (has_ks)
		kallsyms_release(&ks);
	strpool_release(&kpool);
	if (err == -129)
		return 129;
	return exit_status(err);
}

/* ------------------------------------------------------------------ */
/* --list and --del */

static int event_cmp(const void *a, const void *b)
{
	const struct probe_event *x = a, *y = b;
	int c = strcmp(x->group, y->group);

	return c ? c : strcmp(x->event, y->event);
}

/*
 * perf's event filter: "GROUP:EVENT" globs; without ':', a glob that
 * matches the event name or the whole "GROUP:EVENT" ("probe_*" hits
 * probe_libc:malloc).
 */
static bool event_matches(const struct probe_event *ev, const char *filter)
{
	const char *colon;
	char group[256];

	if (!filter)
		return true;
	colon = strchr(filter, ':');
	if (!colon) {
		char full[512];

		snprintf(full, sizeof(full), "%s:%s", ev->group, ev->event);
		return !fnmatch(filter, ev->event, 0) || !fnmatch(filter, full, 0);
	}
	snprintf(group, sizeof(group), "%.*s", (int)(colon - filter), filter);
	return !fnmatch(group, ev->group, 0) && !fnmatch(colon + 1, ev->event, 0);
}

/* "work", "work+4", "work%return", "work@/src/t.c" for a uprobe line */
static void describe_uprobe(struct strbuf *out, const struct probe_event *ev)
{
	struct probe_target t = { 0 };
	const struct symbol *s;
	u64 vaddr;

	if (target_load(&t, ev->path) ||
	    !elf_offset_to_vaddr(t.segs, t.nr_segs, ev->offset, &vaddr) ||
	    !(s = symtab_find(&t.st, vaddr))) {
		strbuf_addf(out, "0x%" PRIx64, ev->offset);
	} else {
		struct strbuf file = STRBUF_INIT;

		/* of aliases, the first one in the file's symbol table */
		while (s > t.st.syms && s[-1].start == s->start)
			s--;
		if (t.has_dwarf)
			probe_dwarf_decl_file(&file, t.debug_path ? t.debug_path : t.path, s->start);
		strbuf_addstr(out, s->name);
		if (vaddr != s->start)
			strbuf_addf(out, "+%" PRIu64, vaddr - s->start);
		if (ev->kind == 'r')
			strbuf_addstr(out, "%return");
		if (file.len)
			strbuf_addf(out, "@%s", file.buf);
		strbuf_release(&file);
	}
	strbuf_addf(out, " in %s", ev->path);
	target_release(&t);
}

static int read_all_events(struct probe_event **evs, struct probe_event **kevs, int *nk)
{
	int nu = probe_events_read(UPROBE_EVENTS, evs);

	*nk = probe_events_read(KPROBE_EVENTS, kevs);
	if (*nk < 0)
		*nk = 0;
	return nu;
}

static int probe_list(void)
{
	struct probe_event *evs = NULL, *kevs = NULL;
	int nk, nu = read_all_events(&evs, &kevs, &nk);

	if (nu < 0) {
		pr_err("Failed to open %s: %s\n", UPROBE_EVENTS, strerror(-nu));
		return exit_status(nu);
	}
	qsort(kevs, (size_t)nk, sizeof(*kevs), event_cmp);
	qsort(evs, (size_t)nu, sizeof(*evs), event_cmp);
	for (int pass = 0; pass < 2; pass++) {
		struct probe_event *v = pass ? evs : kevs;
		int n = pass ? nu : nk;

		for (int i = 0; i < n; i++) {
			struct strbuf name = STRBUF_INIT, on = STRBUF_INIT;

			if (!event_matches(&v[i], o.list_filter))
				continue;
			strbuf_addf(&name, "%s:%s", v[i].group, v[i].event);
			if (v[i].path)
				describe_uprobe(&on, &v[i]);
			else
				strbuf_addstr(&on, v[i].target);
			printf("  %-20s (on %s", name.buf, on.buf);
			if (v[i].nr_args) {
				printf(" with");
				for (size_t j = 0; j < v[i].nr_args; j++)
					printf(" %s", v[i].arg_names[j]);
			}
			printf(")\n");
			strbuf_release(&name);
			strbuf_release(&on);
		}
	}
	probe_events_free(evs, (size_t)nu);
	probe_events_free(kevs, (size_t)nk);
	return 0;
}

static int probe_del(void)
{
	struct probe_event *evs = NULL, *kevs = NULL;
	int nk, nu = read_all_events(&evs, &kevs, &nk);
	int err = 0;

	if (nu < 0) {
		pr_err("Failed to open %s: %s\n", UPROBE_EVENTS, strerror(-nu));
		fprintf(stderr, "  Error: Failed to delete events.\n");
		return exit_status(nu);
	}
	qsort(evs, (size_t)nu, sizeof(*evs), event_cmp);
	qsort(kevs, (size_t)nk, sizeof(*kevs), event_cmp);
	for (size_t d = 0; d < o.dels.nr && !err; d++) {
		bool hit = false;

		for (int pass = 0; pass < 2 && !err; pass++) {
			struct probe_event *v = pass ? evs : kevs;
			int n = pass ? nu : nk;

			for (int i = 0; i < n; i++) {
				if (!v[i].group[0] || !event_matches(&v[i], o.dels.v[d]))
					continue;
				hit = true;
				err = probe_events_remove(pass ? UPROBE_EVENTS : KPROBE_EVENTS,
							  v[i].group, v[i].event);
				if (err) {
					pr_err("Failed to delete event: %s\n", strerror(-err));
					break;
				}
				if (!o.quiet)
					fprintf(stderr, "Removed event: %s:%s\n", v[i].group,
						v[i].event);
				v[i].group[0] = 0; /* gone */
			}
		}
		if (!hit && !err) {
			pr_err("\"%s\" does not hit any event.\n", o.dels.v[d]);
			err = -ENOENT;
		}
	}
	if (err)
		fprintf(stderr, "  Error: Failed to delete events.\n");
	probe_events_free(evs, (size_t)nu);
	probe_events_free(kevs, (size_t)nk);
	return exit_status(err);
}

/* ------------------------------------------------------------------ */
/* --funcs */

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int probe_funcs(void)
{
	const char *rules = o.funcs_filter ? o.funcs_filter : o.filter ? o.filter
							      : FUNCS_DEFAULT_FILTER;
	struct strfilter *f;
	struct probe_target t = { 0 };
	const char **names;
	size_t nr = 0;
	int errpos = 0, err;

	f = strfilter_new(rules, &errpos);
	if (!f) {
		pr_err("Filter parse error at %d.\n", errpos + 1);
		pr_err("Source: \"%s\"\n", rules);
		pr_err("         %*c\n", errpos + 1, '^');
		return 129;
	}
	if (!o.exec) {
		struct strpool kpool;
		struct kallsyms ks;

		strpool_init(&kpool);
		err = kernel_symbols(&ks, &kpool);
		if (!err) {
			names = xcalloc(ks.kernel.nr_syms + 1, sizeof(*names));
			for (size_t i = 0; i < ks.kernel.nr_syms; i++)
				if (strfilter_match(f, ks.kernel.syms[i].name))
					names[nr++] = ks.kernel.syms[i].name;
			qsort(names, nr, sizeof(*names), name_cmp);
			for (size_t i = 0; i < nr; i++)
				if (!i || strcmp(names[i], names[i - 1]))
					printf("%s\n", names[i]);
			free(names);
		}
		kallsyms_release(&ks);
		strpool_release(&kpool);
		strfilter_free(f);
		return err ? exit_status(err) : 0;
	}
	{
		char *abs = realpath(o.exec, NULL);

		if (!abs) {
			pr_err("Failed to get the absolute path of %s: %s\n\n", o.exec,
			       strerror(errno));
			opts_usage_for(probe_usage, probe_options, 'x', NULL);
			strfilter_free(f);
			return 129;
		}
		err = target_load(&t, abs);
		free(abs);
	}
	if (err) {
		pr_err("Failed to load symbols in %s\n", t.path);
		target_release(&t);
		strfilter_free(f);
		return exit_status(-EINVAL);
	}
	names = xcalloc(t.st.nr_syms + 1, sizeof(*names));
	for (size_t i = 0; i < t.st.nr_syms; i++)
		if (strfilter_match(f, t.st.syms[i].name))
			names[nr++] = t.st.syms[i].name;
	qsort(names, nr, sizeof(*names), name_cmp);
	for (size_t i = 0; i < nr; i++)
		printf("%s\n", names[i]);
	free(names);
	target_release(&t);
	strfilter_free(f);
	return 0;
}

/* ------------------------------------------------------------------ */

/*
 * -F/--funcs and -l/--list take a value when one follows, else none (perf's
 * help shows them as taking one): an option word or the end of argv after
 * them becomes an empty value, which the handlers read as "no filter".
 */
static const char **optional_values(int argc, const char **argv)
{
	const char **v = xcalloc((size_t)argc + 1, sizeof(*v));

	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		bool bare = !strcmp(a, "-F") || !strcmp(a, "--funcs") || !strcmp(a, "-l") ||
			    !strcmp(a, "--list");

		if (bare && (i + 1 >= argc || argv[i + 1][0] == '-'))
			v[i] = a[1] == '-' ? xasprintf("%s=", a) : xasprintf("%s", a[1] == 'F' ? "--funcs=" : "--list=");
		else
			v[i] = xstrdup(a);
	}
	return v;
}

int cmd_probe(int argc, const char **argv)
{
	const char **owned = optional_values(argc, argv);
	const char **args = xmemdup(owned, ((size_t)argc + 1) * sizeof(*owned));
	int nargs = argc;
	int ret;

	strvec_init(&o.specs);
	strvec_init(&o.dels);
	argv = args;
	argc = opts_parse(argc, argv, probe_options, probe_usage, 0);
	verbose += o.verbose;
	if (argc > 0) {
		struct strbuf spec = STRBUF_INIT;

		if (o.action != ACT_NONE && o.action != ACT_ADD) {
			fprintf(stderr, "  Error: another command except --add is set.\n\n");
			opts_usage_exit(probe_usage, probe_options);
		}
		for (int i = 0; i < argc; i++)
			strbuf_addf(&spec, "%s%s", i ? " " : "", argv[i]);
		strvec_push(&o.specs, spec.buf);
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
		ret = probe_del();
		break;
	case ACT_LIST:
		ret = probe_list();
		break;
	case ACT_FUNCS:
		ret = probe_funcs();
		break;
	case ACT_LINE:
	case ACT_VARS:
		pr_err("sonde probe: %s (DWARF source lines and variables) is not implemented yet.\n",
		       o.action == ACT_LINE ? "--line" : "--vars");
		ret = 255;
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
	return ret;
}
