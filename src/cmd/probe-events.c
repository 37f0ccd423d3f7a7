/* SPDX-License-Identifier: MIT */
/* sonde probe --list, --del and --funcs: the events in tracefs and the functions of a binary; the "Added new event" lines. */
#include "builtin.h"
#include "cmd/probe.h"

#include "lib/debug.h"
#include "lib/strbuf.h"
#include "lib/strfilter.h"
#include "lib/strvec.h"
#include "lib/xalloc.h"
#include "symbol/probe-binary.h"
#include "trace/probe-plan.h"
#include "trace/probe-spec.h"
#include "trace/tracefs.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define UPROBE_EVENTS "uprobe_events"
#define KPROBE_EVENTS "kprobe_events"

static int probe_exit_status(int err)
{
	return err & 0xff;
}

/* ------------------------------------------------------------------ */
/* --list and --del */

/* by GROUP then EVENT, the lines of one event in file order */
static int event_cmp(const void *a, const void *b)
{
	const struct probe_event *x = a, *y = b;
	int c = strcmp(x->group, y->group);

	if (!c)
		c = strcmp(x->event, y->event);
	return c ? c : (x->index > y->index) - (x->index < y->index);
}

/*
 * --list: perf's order is that of the definition lines as text: "p:"
 * events before "r:" ones, then GROUP/EVENT, then the target.
 */
static int list_cmp(const void *a, const void *b)
{
	const struct probe_event *x = a, *y = b;
	int c = (x->kind > y->kind) - (x->kind < y->kind);

	if (!c)
		c = strcmp(x->group, y->group);
	if (!c)
		c = strcmp(x->event, y->event);
	return c ? c : strcmp(x->target, y->target);
}

/* "work+4@/src/t.c in /bin/x" for a uprobe line, the raw target when no symbol is there */
static void describe_uprobe(struct strbuf *out, const struct probe_event *ev,
			    struct probe_binary *pb, u64 *carry)
{
	/* @pb keeps the last binary: events of one binary come together */
	if (!pb->path || strcmp(pb->path, ev->path)) {
		probe_binary_release(pb);
		probe_binary_load(pb, ev->path);
	}
	int ret = probe_binary_describe(pb, ev->offset, ev->kind == 'r', carry, out);

	if (ret < 0)
		strbuf_addf(out, "0x%" PRIx64, ev->offset);
	else if (ret > 0)
		pr_warning("Failed to find debug information for address %" PRIx64 "\n",
			   ev->offset);
	strbuf_addf(out, " in %s", ev->path);
}

static int read_all_events(struct probe_event **evs, struct probe_event **kevs, int *nk)
{
	int nu = probe_events_read(UPROBE_EVENTS, evs);

	*nk = probe_events_read(KPROBE_EVENTS, kevs);
	if (*nk < 0)
		*nk = 0;
	return nu;
}

int probe_cmd_list(const char *filter)
{
	struct probe_event *evs = NULL, *kevs = NULL;
	int nk, nu = read_all_events(&evs, &kevs, &nk);
	struct probe_binary pb = { 0 };
	u64 carry = 0; /* perf's offset carried between events */

	if (nu < 0) {
		if (nu == -EACCES || nu == -EPERM)
			pr_err("No permission to read tracefs.\n"
			       "Please try 'sudo mount -o remount,mode=755 %s/'\n",
			       tracefs_root() ? tracefs_root() : "/sys/kernel/tracing");
		else
			pr_err("Failed to open %s: %s\n", UPROBE_EVENTS, strerror(-nu));
		fprintf(stderr, "  Error: Failed to show event list.\n");
		return probe_exit_status(nu);
	}
	if (nk > 0)
		qsort(kevs, (size_t)nk, sizeof(*kevs), list_cmp);
	if (nu > 0)
		qsort(evs, (size_t)nu, sizeof(*evs), list_cmp);
	for (int pass = 0; pass < 2; pass++) {
		struct probe_event *v = pass ? evs : kevs;
		int n = pass ? nu : nk;

		for (int i = 0; i < n; i++) {
			struct strbuf name = STRBUF_INIT, on = STRBUF_INIT;

			if (!probe_event_matches(&v[i], filter))
				continue;
			strbuf_addf(&name, "%s:%s", v[i].group, v[i].event);
			if (v[i].path)
				describe_uprobe(&on, &v[i], &pb, &carry);
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
	probe_binary_release(&pb);
	probe_events_free(evs, (size_t)nu);
	probe_events_free(kevs, (size_t)nk);
	return 0;
}

int probe_cmd_del(const struct strvec *globs)
{
	struct probe_event *evs = NULL, *kevs = NULL;
	int err = probe_events_open_check(UPROBE_EVENTS);
	int nk = 0, nu = err ? err : read_all_events(&evs, &kevs, &nk);
	const char *bad = UPROBE_EVENTS;

	/* perf names kprobe_events' failure when neither file opens */
	if (nu < 0 && err) {
		int kerr = probe_events_open_check(KPROBE_EVENTS);

		if (kerr) {
			nu = kerr;
			bad = KPROBE_EVENTS;
		}
	}
	if (nu < 0) {
		const char *root = tracefs_root() ? tracefs_root() : "/sys/kernel/tracing";

		if (nu == -EACCES || nu == -EPERM)
			pr_err("No permission to write tracefs.\n"
			       "Please run this command again with sudo.\n");
		else if (nu == -ENOENT && !strcmp(bad, KPROBE_EVENTS))
			pr_err("%s//%s does not exist.\nPlease rebuild kernel with CONFIG_KPROBE_EVENTS=y.\n",
			       root, KPROBE_EVENTS);
		else
			pr_err("Failed to open %s//%s: %s\n", root, bad, strerror(-nu));
		fprintf(stderr, "  Error: Failed to delete events.\n");
		return probe_exit_status(nu);
	}
	if (nu > 0)
		qsort(evs, (size_t)nu, sizeof(*evs), event_cmp);
	if (nk > 0)
		qsort(kevs, (size_t)nk, sizeof(*kevs), event_cmp);
	for (size_t d = 0; d < globs->nr && !err; d++) {
		bool hit = false;

		for (int pass = 0; pass < 2 && !err; pass++) {
			struct probe_event *v = pass ? evs : kevs;
			int n = pass ? nu : nk;

			for (int i = 0; i < n; i++) {
				/* kind 0: removed already (an event may hold several probes) */
				if (!v[i].kind || !probe_event_matches(&v[i], globs->v[d]))
					continue;
				hit = true;
				err = probe_events_remove(pass ? UPROBE_EVENTS : KPROBE_EVENTS,
							  v[i].group, v[i].event);
				if (err) {
					pr_err("Failed to delete event: %s\n", strerror(-err));
					break;
				}
				fprintf(stderr, "Removed event: %s:%s\n", v[i].group, v[i].event);
				for (int j = i; j < n && !strcmp(v[j].group, v[i].group) &&
						!strcmp(v[j].event, v[i].event); j++)
					v[j].kind = 0;
			}
		}
		if (!hit && !err) {
			pr_err("\"%s\" does not hit any event.\n", globs->v[d]);
			err = -ENOENT;
		}
	}
	if (err)
		fprintf(stderr, "  Error: Failed to delete events.\n");
	probe_events_free(evs, (size_t)nu);
	probe_events_free(kevs, (size_t)nk);
	return probe_exit_status(err);
}

/* ------------------------------------------------------------------ */
/* --funcs */

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* the names of @st that pass @f, sorted, one per symbol (perf repeats equal names) */
static void print_funcs(const struct symtab *st, const struct strfilter *f)
{
	const char **names = xcalloc(st->nr_syms + 1, sizeof(*names));
	size_t nr = 0;

	for (size_t i = 0; i < st->nr_syms; i++)
		if (strfilter_match(f, st->syms[i].name))
			names[nr++] = st->syms[i].name;
	if (nr)
		qsort(names, nr, sizeof(*names), name_cmp);
	for (size_t i = 0; i < nr; i++)
		printf("%s\n", names[i]);
	free(names);
}

int probe_cmd_funcs(const char *path, const char *rules)
{
	struct probe_binary pb = { 0 };
	struct strfilter *f;
	int errpos = 0, err;

	f = strfilter_new(rules, &errpos);
	if (!f) {
		pr_err("Filter parse error at %d.\n", errpos + 1);
		pr_err("Source: \"%s\"\n", rules);
		pr_err("         %*c\n", errpos + 1, '^');
		return 129;
	}
	err = path ? probe_binary_load_names(&pb, path) : probe_binary_load_kallsyms(&pb, NULL);
	if (err)
		pr_err("Failed to load symbols in %s\n  Error: Failed to show functions.\n", pb.path);
	else
		print_funcs(&pb.st, f);
	probe_binary_release(&pb);
	strfilter_free(f);
	return err ? 255 : 0;
}

void probe_print_added(const struct probe_plan *plan)
{
	const struct probe_plan_item *it = NULL;

	if (!plan->nr_items)
		return;
	fprintf(stderr, "Added new event%s:\n", plan->nr_items > 1 ? "s" : "");
	for (size_t i = 0; i < plan->nr_items; i++) {
		char *name;

		it = &plan->items[i];
		name = xasprintf("%s:%s", it->group, it->event);
		fprintf(stderr, "  %-20s (on %s", name, it->on);
		free(name);
		if (!it->def.is_kernel)
			fprintf(stderr, " in %s", it->def.path);
		for (size_t j = 0, shown = 0; j < it->def.nr_args; j++)
			if (it->def.args[j].text)
				fprintf(stderr, "%s %s", shown++ ? "" : " with", it->def.args[j].text);
		fprintf(stderr, ")\n");
	}
	fprintf(stderr, "\nYou can now use it in all perf tools, such as:\n\n"
			"\t%s record -e %s:%s -aR sleep 1\n\n", prog_name, it->group, it->event);
}
