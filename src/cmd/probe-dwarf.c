/* SPDX-License-Identifier: MIT */
/* sonde probe with debug info: --vars listings, probe points at lines and variable arguments. */
#include "builtin.h"
#include "cmd/probe.h"

#include "lib/debug.h"
#include "lib/strbuf.h"
#include "lib/strfilter.h"
#include "lib/strvec.h"
#include "lib/xalloc.h"
#include "symbol/probe-binary.h"
#include "symbol/probe-dwarf.h"
#include "trace/probe-plan.h"
#include "trace/probe-spec.h"

#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define VARS_DEFAULT_FILTER "!__k???tab_* & !__crc_*"

int probe_cmd_no_debuginfo(const char *path, const char *what)
{
	pr_err("The %s file has no debug information.\n"
	       "Rebuild with -g, or install an appropriate debuginfo package.\n"
	       "  Error: Failed to show %s.\n", path, what);
	return 254;
}

/*
 * The functions named @name in DWARF; failing that, the DWARF functions at
 * the ELF symbols of that name (an alias: libc's malloc is __libc_malloc).
 */
int probe_cmd_find_funcs(struct probe_binary *pb, const char *name, const char *file, bool inlines,
			 bool by_symbols, struct probe_dwarf_func **fns)
{
	size_t len = strlen(name);
	int n = probe_dwarf_find_funcs(pb, name, file, inlines, fns);

	if (n != 0 || file || !by_symbols)
		return n;
	free(*fns);
	*fns = NULL;
	/* symbol names with their version ("fopen@@GLIBC_2.2.5") count */
	for (size_t i = 0; i < pb->st.nr_syms; i++) {
		const struct symbol *s = &pb->st.syms[i];
		struct probe_dwarf_func fn;
		bool dup = false;

		if (strncmp(s->name, name, len) || (s->name[len] && s->name[len] != '@') ||
		    (s->flags & SYMBOL_PLT) || (s->type != STT_FUNC && s->type != STT_GNU_IFUNC))
			continue;
		for (int j = 0; j < n && !dup; j++)
			dup = (*fns)[j].entry == s->start;
		if (dup || probe_dwarf_func_at(pb, s->start, &fn) || fn.entry != s->start)
			continue;
		*fns = xrealloc(*fns, (size_t)(n + 1) * sizeof(**fns));
		(*fns)[n++] = fn;
	}
	return n;
}

/* ------------------------------------------------------------------ */
/* Probe points from DWARF */

/* struct dwarf_point - one address a spec resolves to, with its function */
struct dwarf_point {
	u64 addr;
	struct probe_dwarf_func fn;
};

/* perf's name of the point in messages: FUNC[:RLN] or @SRC:ALN */
static char *point_name(const struct probe_spec *ps)
{
	if (ps->func && ps->has_line && ps->line)
		return xasprintf("%s:%ld", ps->func, ps->line);
	if (ps->func && ps->has_offset)
		return xasprintf("%s+%" PRIu64, ps->func, ps->offset);
	if (ps->func && ps->is_return)
		return xasprintf("%s%%return", ps->func);
	if (ps->func)
		return xstrdup(ps->func);
	if (ps->has_line)
		return xasprintf("@%s:%ld", ps->file, ps->line);
	return xasprintf("@%s", ps->file);
}

static void points_push(struct dwarf_point **v, size_t *nr, u64 addr,
			const struct probe_dwarf_func *fn)
{
	*v = xrealloc(*v, (*nr + 1) * sizeof(**v));
	(*v)[*nr].addr = addr;
	(*v)[*nr].fn = *fn;
	(*nr)++;
}

/*
 * FUNC;PTN and SRC;PTN: the matching lines' addresses; in a function
 * without a match, perf 6.1 takes the function's entry
 */
static int find_lazy_points(struct probe_binary *pb, const struct probe_spec *ps, bool inlines,
			    bool by_symbols, struct dwarf_point **out)
{
	struct probe_dwarf_func *fns = NULL;
	size_t nr = 0;
	u64 *addrs = NULL;
	int n;

	if (!ps->func) {
		const char *path = ps->file ? probe_dwarf_find_file(pb, ps->file) : NULL;

		n = path ? probe_dwarf_lazy_addrs(pb, path, ps->lazy, NULL, &addrs) : 0;
		for (int i = 0; i < n; i++) {
			struct probe_dwarf_func fn;

			if (!probe_dwarf_func_at(pb, addrs[i], &fn))
				points_push(out, &nr, addrs[i], &fn);
		}
		free(addrs);
		return (int)nr;
	}
	n = probe_cmd_find_funcs(pb, ps->func, ps->file, inlines, by_symbols, &fns);
	for (int i = 0; i < n; i++) {
		int na;

		if (fns[i].is_inlined || !fns[i].file)
			continue;
		na = probe_dwarf_lazy_addrs(pb, fns[i].file, ps->lazy, &fns[i], &addrs);
		if (na <= 0)
			points_push(out, &nr, fns[i].entry, &fns[i]);
		for (int j = 0; j < na; j++)
			points_push(out, &nr, addrs[j], &fns[i]);
		free(addrs);
		addrs = NULL;
	}
	free(fns);
	return (int)nr;
}

/*
 * The addresses of @ps: a function's entry (plus +OFFS), a line of a
 * function or a file. Returns how many (malloc'ed into *@out) or -errno
 * after saying why.
 */
static int find_points(struct probe_binary *pb, const struct probe_spec *ps, bool inlines,
		       bool by_symbols, struct dwarf_point **out)
{
	struct probe_dwarf_func *fns = NULL;
	size_t nr = 0;
	int n;

	*out = NULL;
	if (ps->lazy)
		return find_lazy_points(pb, ps, inlines, by_symbols, out);
	if (!ps->func) {
		const char *path = ps->file ? probe_dwarf_find_file(pb, ps->file) : NULL;
		u64 *addrs = NULL;

		n = path && ps->has_line ? probe_dwarf_line_addrs(pb, path, (int)ps->line, NULL, &addrs)
					 : 0;
		for (int i = 0; i < n; i++) {
			struct probe_dwarf_func fn;

			if (probe_dwarf_func_at(pb, addrs[i], &fn))
				continue;
			if (!fn.is_inlined && addrs[i] == fn.entry && ps->line != fn.decl_line) {
				pr_err("This line is sharing the address with other lines.\n"
				       "Please try to probe at %s:%d instead.\n", path, fn.decl_line);
				free(addrs);
				free(*out);
				*out = NULL;
				return -ENOENT;
			}
			points_push(out, &nr, addrs[i], &fn);
		}
		free(addrs);
		return (int)nr;
	}
	n = probe_cmd_find_funcs(pb, ps->func, ps->file, inlines, by_symbols, &fns);
	for (int i = 0; i < n; i++) {
		const struct probe_dwarf_func *fn = &fns[i];
		u64 *addrs = NULL;
		int na;

		if (!ps->has_line || !ps->line) {
			points_push(out, &nr, fn->entry + (ps->has_offset ? ps->offset : 0), fn);
			continue;
		}
		na = probe_dwarf_line_addrs(pb, fn->file, fn->decl_line + (int)ps->line, fn, &addrs);
		int shared = 0, own = 0;

		/*
		 * an address an earlier line's statement has belongs to that
		 * line: perf refuses a line that owns none of its addresses
		 */
		for (int j = 0; j < na; j++) {
			int first = probe_dwarf_stmt_line_at(fn, addrs[j]);

			/* any address at the entry: perf's hint names FUNC:0 */
			if (addrs[j] == fn->entry) {
				shared = fn->decl_line;
				own = 0;
				break;
			}
			if (first && first != fn->decl_line + (int)ps->line)
				shared = shared ? shared : first;
			else
				own++;
		}
		for (int j = 0; j < na && own; j++)
			points_push(out, &nr, addrs[j], fn);
		free(addrs);
		if (shared && !own) {
			pr_err("This line is sharing the address with other lines.\n"
			       "Please try to probe at %s:%d instead.\n", ps->func, shared - fn->decl_line);
			free(fns);
			free(*out);
			*out = NULL;
			return -ENOENT;
		}
	}
	free(fns);
	return (int)nr;
}

/* ------------------------------------------------------------------ */
/* --vars */

int probe_cmd_vars(const char *path, const char *spec, bool externs, bool no_inlines,
		   bool range, const char *filter)
{
	struct probe_spec ps;
	struct probe_spec_error perr;
	struct probe_binary pb;
	struct dwarf_point *pts = NULL;
	struct strfilter *sf = NULL;
	char *name = NULL;
	int n, err, ret = 0;

	if (probe_spec_parse(&ps, spec, &perr)) {
		pr_err("Semantic error :%s\n", perr.msg);
		return 234;
	}
	err = probe_binary_load_names(&pb, path);
	if (err || !pb.has_dwarf) {
		ret = probe_cmd_no_debuginfo(path, "vars");
		goto out;
	}
	sf = strfilter_new(filter ? filter : VARS_DEFAULT_FILTER, NULL);
	name = point_name(&ps);
	n = find_points(&pb, &ps, !no_inlines, true, &pts);
	if (n == 0 && !ps.func) {
		pr_err("Debuginfo analysis failed.\n  Error: Failed to show vars.\n");
		ret = 161;
		goto out;
	}
	if (n <= 0) {
		pr_err("Failed to find the address of %s\n  Error: Failed to show vars.\n", name);
		ret = n == -EOPNOTSUPP ? 161 : 254;
		goto out;
	}
	printf("Available variables at %s\n", name);
	for (int i = 0; i < n; i++) {
		struct strvec vars = STRVEC_INIT;
		bool any = false;

		printf("\t@<%s+%" PRIu64 ">\n", pts[i].fn.caller_name ? pts[i].fn.caller_name : "",
		       pts[i].addr - pts[i].fn.caller_entry);
		probe_dwarf_vars(&pb, &pts[i].fn, pts[i].addr,
				 (externs ? PROBE_VARS_EXTERN : 0) | (range ? PROBE_VARS_RANGE : 0), &vars);
		for (size_t j = 0; j < vars.nr; j++) {
			/* the filter sees the name; with --range (perf) the
			   text after the [VAL] tag: type, name and range */
			const char *at = strrchr(vars.v[j], '\t');

			if (range)
				at = strchr(vars.v[j], '\t');
			if (sf && !strfilter_match(sf, at ? at + 1 : vars.v[j]))
				continue;
			printf("\t\t%s\n", vars.v[j]);
			any = true;
		}
		if (!any)
			printf("\t\t(No matched variables)\n");
		strvec_clear(&vars);
	}
out:
	free(pts);
	free(name);
	strfilter_free(sf);
	probe_spec_release(&ps);
	probe_binary_release(&pb);
	return ret;
}

/* ------------------------------------------------------------------ */
/* Adding */

/* the argument arrays made here live until probe_cmd_dwarf_release() */
static struct {
	struct probe_arg **v;
	size_t *nr;
	size_t count;
} made_args;

void probe_cmd_dwarf_release(void)
{
	for (size_t i = 0; i < made_args.count; i++) {
		for (size_t j = 0; j < made_args.nr[i]; j++) {
			free(made_args.v[i][j].name);
			free(made_args.v[i][j].expr);
			free(made_args.v[i][j].type);
			free(made_args.v[i][j].text);
		}
		free(made_args.v[i]);
	}
	free(made_args.v);
	free(made_args.nr);
	memset(&made_args, 0, sizeof(made_args));
}

static void arg_push(struct probe_arg **v, size_t *nr, const char *name, const char *expr,
		     const char *type, const char *text)
{
	struct probe_arg *a;

	*v = xrealloc(*v, (*nr + 1) * sizeof(**v));
	a = &(*v)[(*nr)++];
	memset(a, 0, sizeof(*a));
	a->name = name ? xstrdup(name) : NULL;
	a->expr = xstrdup(expr);
	a->type = type ? xstrdup(type) : NULL;
	a->text = text ? xstrdup(text) : NULL;
}

/*
 * "NAME=FETCH[:TYPE] ..." from probe_dwarf_arg() into arguments; the
 * first carries @typed, the argument as typed, for perf's "with" text
 */
static void args_from_text(struct probe_arg **v, size_t *nr, const char *text, const char *typed)
{
	struct strvec words = STRVEC_INIT;

	strvec_split(&words, text, " ");
	for (size_t i = 0; i < words.nr; i++) {
		char *w = words.v[i];
		char *eq = strchr(w, '=');
		char *colon;

		if (!eq)
			continue;
		*eq = 0;
		colon = strrchr(eq + 1, ':');
		if (colon)
			*colon = 0;
		arg_push(v, nr, w, eq + 1, colon ? colon + 1 : NULL, typed);
		(*v)[*nr - 1].is_resolved = true;
		typed = NULL;
	}
	strvec_clear(&words);
}

/* the arguments of @ps at @pt; NULL after saying why (*@err set) */
static struct probe_arg *point_args(struct probe_binary *pb, const struct probe_spec *ps,
				    const struct dwarf_point *pt, bool multi, size_t *nr, int *err)
{
	struct probe_arg *v = NULL;

	*nr = 0;
	for (size_t i = 0; i < ps->nr_args; i++) {
		const struct probe_arg *a = &ps->args[i];
		struct probe_dwarf_error derr;
		struct strbuf sb = STRBUF_INIT;

		if (a->is_fetch) {
			arg_push(&v, nr, a->name, a->expr, a->type, a->text);
			continue;
		}
		*err = probe_dwarf_arg(pb, &pt->fn, pt->addr, multi, a->expr, a->type, a->name, &sb, &derr);
		if (*err) {
			pr_err("%s\n", derr.msg);
			strbuf_release(&sb);
			for (size_t j = 0; j < *nr; j++) {
				free(v[j].name);
				free(v[j].expr);
				free(v[j].type);
				free(v[j].text);
			}
			free(v);
			return NULL;
		}
		if (derr.warn[0])
			pr_err("%s\n", derr.warn);
		args_from_text(&v, nr, sb.buf, a->text);
		strbuf_release(&sb);
	}
	made_args.v = xrealloc(made_args.v, (made_args.count + 1) * sizeof(*made_args.v));
	made_args.nr = xrealloc(made_args.nr, (made_args.count + 1) * sizeof(*made_args.nr));
	made_args.v[made_args.count] = v;
	made_args.nr[made_args.count++] = *nr;
	return v;
}

static bool has_dwarf_args(const struct probe_spec *ps)
{
	for (size_t i = 0; i < ps->nr_args; i++)
		if (!ps->args[i].is_fetch)
			return true;
	return false;
}

/* the event name perf gives a point: FUNC_L<RLN> for lines of a function */
static char *point_event(const struct probe_spec *ps, const struct dwarf_point *pt)
{
	const char *fn = ps->func ? ps->func : pt->fn.caller_name ? pt->fn.caller_name : "probe";
	int len = (int)strcspn(fn, ".");

	if (ps->event)
		return xasprintf("%s%s", ps->event, ps->is_return ? "__return" : "");
	if (ps->func && ps->has_line && ps->line)
		return xasprintf("%.*s_L%ld", len, fn, ps->line);
	return xasprintf("%.*s%s", len, fn, ps->is_return ? "__return" : "");
}

/*
 * perf reads a marker for a variable without a location at some points of
 * a spec, but refuses one located at none of them
 */
static int check_dead(const struct probe_plan *plan, size_t first, const struct probe_spec *ps)
{
	const struct probe_plan_item *items = plan->items + first;
	size_t nr = plan->nr_items - first;

	if (!nr)
		return 0;
	for (size_t j = 0; j < items[0].def.nr_args; j++) {
		bool all = true;

		for (size_t i = 0; i < nr && all; i++)
			all = items[i].def.nr_args == items[0].def.nr_args &&
			      !strcmp(items[i].def.args[j].expr, "\\deade12d");
		if (!all || j >= ps->nr_args)
			continue;
		{
			int len = (int)strcspn(ps->args[j].expr, ".-[");

			pr_err("Failed to find the location of the '%.*s' variable at this address.\n"
			       " Perhaps it has been optimized out.\n"
			       " Use -V with the --range option to show '%.*s' location range.\n",
			       len, ps->args[j].expr, len, ps->args[j].expr);
		}
		return -ENOENT;
	}
	return 0;
}

int probe_dwarf_resolve(struct probe_binary *pb, const char *group, const struct probe_spec *ps,
			struct probe_plan *plan, const struct probe_dwarf_opts *po)
{
	struct dwarf_point *pts = NULL;
	char *event = NULL, *last_base = NULL;
	char *on = point_name(ps); /* perf's "(on ...)" text: the point without a pattern */
	int n = find_points(pb, ps, true, false, &pts);
	size_t first = plan->nr_items;
	int err = 0;

	if (n < 0) {
		free(on);
		return n;
	}
	if (po->max_probes > 0 && n > po->max_probes)
		n = po->max_probes;
	if (!n) {
		char *name = point_name(ps);

		/* perf names the point only when the spec has no arguments */
		if (!ps->nr_args)
			pr_err("Probe point '%s' not found.\n", name);
		free(name);
		free(on);
		return -ENOENT;
	}
	for (int i = 0; i < n && !err; i++) {
		struct dwarf_point *pt = &pts[i];
		struct probe_plan_item *it;
		struct probe_arg *args;
		size_t nr_args;
		u64 off;

		if (!ps->has_line && !ps->has_offset && !ps->is_return && !ps->lazy &&
		    !pt->fn.is_inlined && !pt->fn.is_optimized && pt->addr == pt->fn.entry &&
		    has_dwarf_args(ps)) {
			u64 skipped = probe_dwarf_after_prologue(pb, &pt->fn);

			if (skipped != pt->addr) {
				u64 entry_off = pt->addr;

				probe_binary_file_offset(pb, pt->addr, &entry_off);
				pr_err("Target program is compiled without optimization. Skipping prologue.\n"
				       "Probe on address 0x%" PRIx64 " to force probing at the function entry.\n\n",
				       entry_off);
				pt->addr = skipped;
			}
		}
		args = point_args(pb, ps, pt, n > 1, &nr_args, &err);
		if (err)
			break;
		if (probe_binary_file_offset(pb, pt->addr, &off)) {
			char *name = point_name(ps);

			pr_err("Probe point '%s' not found.\n", name);
			free(name);
			err = -ENOENT;
			break;
		}
		{
			/* points in one function share an event; each function has its own */
			char *base = point_event(ps, pt);

			if (!event || strcmp(base, last_base)) {
				free(event);
				event = NULL;
				err = po->name_event(plan, group, base, po->force, &event);
			}
			free(last_base);
			last_base = base;
			if (err)
				break;
		}
		it = probe_plan_add(plan, group, xstrdup(event), on);
		it->def.is_return = ps->is_return;
		it->def.path = pb->path;
		it->def.offset = off;
		it->def.args = args;
		it->def.nr_args = nr_args;
	}
	if (!err)
		err = check_dead(plan, first, ps);
	free(last_base);
	free(on);
	free(event);
	free(pts);
	return err;
}
