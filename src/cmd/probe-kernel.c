/* SPDX-License-Identifier: MIT */
/* sonde probe on the kernel: kprobe definitions from kallsyms, -m module functions, the kprobe_events check. */
#include "builtin.h"
#include "cmd/probe.h"

#include "lib/debug.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "symbol/probe-binary.h"
#include "symbol/symtab.h"
#include "trace/probe-plan.h"
#include "trace/probe-spec.h"
#include "trace/tracefs.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define KPROBE_EVENTS "kprobe_events"

static char **module_syms_made; /* "MOD:SYM" texts of -m definitions */
static size_t nr_module_syms;

void probe_kernel_release(void)
{
	for (size_t i = 0; i < nr_module_syms; i++)
		free(module_syms_made[i]);
	free(module_syms_made);
	module_syms_made = NULL;
	nr_module_syms = 0;
}

/* @module is listed in /proc/modules (loaded) */
bool probe_module_loaded(const char *module)
{
	FILE *f = fopen("/proc/modules", "r");
	char line[512];
	size_t len = strlen(module);
	bool found = false;

	while (f && !found && fgets(line, sizeof(line), f))
		found = !strncmp(line, module, len) && line[len] == ' ';
	if (f)
		fclose(f);
	return found;
}

/*
 * -m MODULE: a loaded module's function from kallsyms, defined on the
 * module's symbol ("p:probe/F MOD:F+OFF", the kprobe_events form
 * "[MOD:]SYM[+offs]"). Without the module loaded (or its DWARF, which sonde
 * does not read from .ko files) perf's messages.
 */
static int resolve_kmodule(const struct probe_spec *ps, struct probe_plan *plan,
			   const struct probe_binary *kernel, const struct probe_kernel_opts *ko)
{
	const char *name = ko->module_abs ? ko->module_abs : ko->module;
	const char *group = ps->group ? ps->group : "probe";
	const struct symbol *fn;
	struct probe_plan_item *it;
	char *base, *event;
	int err;

	if (probe_spec_needs_dwarf(ps) || !ps->func) {
		if (ko->module_abs)
			pr_err("sonde probe: DWARF of kernel modules (%s) is not read.\n", name);
		else
			pr_err("Module %s is not loaded, please specify its full path name.\n", name);
		return -ENOENT;
	}
	fn = probe_module_loaded(ko->module) && kernel ? symtab_find_by_name(&kernel->st, ps->func) : NULL;
	if (!fn)
		return -EINVAL; /* perf: nothing more than "Failed to add events" */
	base = probe_base_name(ps);
	err = ko->name_event(plan, group, base, ko->force, &event);
	free(base);
	if (err)
		return err;
	it = probe_plan_add(plan, group, event, ps->point);
	it->def.is_kernel = true;
	it->def.is_return = ps->is_return;
	it->def.symbol = xasprintf("%s:%s", ko->module, ps->func);
	it->def.offset = ps->has_offset ? ps->offset : 0;
	it->def.args = ps->args;
	it->def.nr_args = ps->nr_args;
	module_syms_made = xrealloc(module_syms_made, (nr_module_syms + 1) * sizeof(char *));
	module_syms_made[nr_module_syms++] = (char *)it->def.symbol;
	return 0;
}

/* A kernel spec from kallsyms: entries relative to _text, returns on the symbol (perf's -D). */
static int resolve_kprobe(const struct probe_spec *ps, struct probe_plan *plan,
			  const struct probe_binary *kernel, const struct probe_kernel_opts *ko)
{
	const struct symbol *fn = ps->func ? symtab_find_by_name(&kernel->st, ps->func) : NULL;
	const struct symbol *text = symtab_find_by_name(&kernel->st, "_text");
	const char *group = ps->group ? ps->group : "probe";
	struct probe_plan_item *it;
	char *base, *event;
	int err;

	if (probe_spec_needs_dwarf(ps) || !ps->func) {
		/* perf looks for the kernel's DWARF (vmlinux) and finds none here */
		pr_err("Failed to find the path for the kernel: Invalid ELF file\n");
		return -ENOENT;
	}
	if (!fn || !text) {
		pr_err("Failed to find symbol %s in kernel\n", ps->func);
		return -ENOENT;
	}
	if (ps->has_offset) {
		/* kallsyms has no sizes: up to the next address */
		const struct symbol *next = fn;
		const struct symbol *last = kernel->st.syms + kernel->st.nr_syms;

		while (next < last && next->start == fn->start)
			next++;
		if (next < last && ps->offset > next->start - fn->start) {
			pr_err("Offset %" PRIu64 " is bigger than the size of %s\n", ps->offset,
			       ps->func);
			return -ENOENT;
		}
	}
	base = probe_base_name(ps);
	err = ko->name_event(plan, group, base, ko->force, &event);
	free(base);
	if (err)
		return err;
	it = probe_plan_add(plan, group, event, ps->point);
	it->def.is_kernel = true;
	it->def.is_return = ps->is_return;
	it->def.symbol = ps->is_return ? fn->name : "_text";
	it->def.offset = ps->is_return ? 0 : fn->start + ps->offset - text->start;
	it->def.args = ps->args;
	it->def.nr_args = ps->nr_args;
	return 0;
}

/* perf's check before any kernel probe is added. Returns 0 or -ENOENT (said). */
int probe_kprobe_events_check(void)
{
	const char *root = tracefs_root();
	struct strbuf path = STRBUF_INIT;
	int err = 0;

	if (!root)
		root = "/sys/kernel/tracing";
	strbuf_addf(&path, "%s/%s", root, KPROBE_EVENTS);
	if (access(path.buf, F_OK)) {
		pr_err("%s//%s does not exist.\nPlease rebuild kernel with CONFIG_KPROBE_EVENTS=y.\n",
		       root, KPROBE_EVENTS);
		err = -ENOENT;
	}
	strbuf_release(&path);
	return err;
}

int probe_kernel_resolve(const struct probe_spec *ps, struct probe_plan *plan,
			 const struct probe_binary *kernel, const struct probe_kernel_opts *ko)
{
	return ko->module ? resolve_kmodule(ps, plan, kernel, ko) : resolve_kprobe(ps, plan, kernel, ko);
}
