/* SPDX-License-Identifier: MIT */
/* sonde mem report: report --mem-mode with mem's sort orders, and the -D dump of the samples. */
#include "builtin.h"
#include "cmd/mem.h"
#include "cmd/open.h"

#include "core/evsel.h"
#include "data/reader.h"
#include "core/evlist.h"
#include "session/sample-filter.h"
#include "session/session.h"
#include "symbol/symtab.h"
#include "ui/header.h"

#include <stdio.h>
#include <string.h>

/* struct mem_dump - the -D pass: one line per sample */
struct mem_dump {
	struct tool tool; /* first */
	const struct mem_report_opts *o;
	struct cpu_bitmap cpus; /* -C */
	u64 nr;
};

/* page_size_name - perf's data page size text: "4K", "2M", "N/A" for none */
static void page_size_name(char *buf, size_t size, u64 v)
{
	static const char units[] = "KMGT";
	int u = -1;

	if (!v) {
		snprintf(buf, size, "N/A");
		return;
	}
	while (v >= 1024 && !(v % 1024) && u < 3) {
		v /= 1024;
		u++;
	}
	if (u < 0)
		snprintf(buf, size, "%llu", (unsigned long long)v);
	else
		snprintf(buf, size, "%llu%c", (unsigned long long)v, units[u]);
}

static int dump_sample(struct tool *tool, struct session *session, const union perf_event *ev,
		       const struct perf_sample *sample, struct evsel *evsel)
{
	struct mem_dump *d = (struct mem_dump *)tool;
	const struct mem_report_opts *o = d->o;
	struct addr_location loc;
	const char *sep = o->sep ? o->sep : " ";
	/* perf pads the first line only, and only with its own separator */
	bool pad;
	u64 weight = sample->weight;
	char page[32];
	const char *dso, *sym;

	(void)ev;
	if (!cpu_bitmap_has(&d->cpus, sample->cpu))
		return 0;
	if (evsel->attr.sample_type & PERF_SAMPLE_WEIGHT_STRUCT)
		weight = (u32)weight;
	machine_resolve(&session->machine, sample, &loc);
	if (o->hide_unresolved && !loc.frame->sym)
		return 0;
	pad = !o->sep && d->nr++ == 0;
	dso = loc.frame->dso ? loc.frame->dso->long_name : "???";
	sym = loc.frame->sym ? loc.frame->sym->name : "???";
	if (pad)
		printf("%5d%s%5d%s0x%016llx%s0x016%llx%s", (int)sample->pid, sep, (int)sample->tid, sep,
		       (unsigned long long)sample->ip, sep, (unsigned long long)sample->addr, sep);
	else
		printf("%d%s%d%s0x%llx%s0x%llx%s", (int)sample->pid, sep, (int)sample->tid, sep,
		       (unsigned long long)sample->ip, sep, (unsigned long long)sample->addr, sep);
	if (o->phys)
		printf("0x%016llx%s", (unsigned long long)sample->phys_addr, sep);
	if (o->page_size) {
		page_size_name(page, sizeof(page), sample->data_page_size);
		printf("%s%s", page, sep);
	}
	printf(pad ? "%5llu%s0x%llx%s%s:%s\n" : "%llu%s0x%llx%s%s:%s\n", (unsigned long long)weight,
	       sep, (unsigned long long)sample->data_src, sep, dso, sym);
	return 0;
}

static int mem_report_dump(const struct mem_report_opts *o)
{
	struct symbol_opts sopts = { 0 };
	struct machine_opts mopts = { .symbol_opts = &sopts };
	struct data_error derr = { 0 };
	struct data_reader *reader = data_open_for_read(o->input, o->force);
	struct session *session;
	struct mem_dump d = { .o = o };
	int ret = 0;

	if (!reader)
		return 255;
	if (o->cpus) {
		struct evsel *evsel;
		bool has_cpu = false;
		int too_large, highest;

		evlist_for_each_entry(data_reader_evlist(reader), evsel)
			has_cpu |= (evsel->attr.sample_type & PERF_SAMPLE_CPU) != 0;
		if (!has_cpu) {
			fputs("File does not contain CPU events. Remove -C option to proceed.\n", stderr);
			data_reader_close(reader);
			return 255;
		}
		if (cpu_bitmap_parse(&d.cpus, o->cpus, 0, &too_large, &highest)) {
			fprintf(stderr, "Invalid cpu_list\n");
			data_reader_close(reader);
			return 255;
		}
	}
	printf("# PID, TID, IP, ADDR, %s%sLOCAL WEIGHT, DSRC, SYMBOL\n", o->phys ? "PHYS ADDR, " : "",
	       o->page_size ? "DATA PAGE SIZE, " : "");
	d.tool.sample = dump_sample;
	d.tool.ordered = true;
	session = session_new(reader, &mopts);
	if (session_process(session, &d.tool, &derr) < 0) {
		data_error_print(data_reader_path(reader), &derr);
		ret = 255;
	}
	session_free(session);
	cpu_bitmap_release(&d.cpus);
	return ret;
}

int mem_report_run(const struct mem_report_opts *o)
{
	const char *argv[24];
	char sort[160];
	int argc = 0;
	bool load = !o->type, store = !o->type;

	if (o->type) {
		load = strstr(o->type, "load") != NULL;
		store = strstr(o->type, "store") != NULL;
	}
	if (o->dump)
		return mem_report_dump(o);
	/* perf's mem report leaves -U and -C to the dump (and record) */
	argv[argc++] = "report";
	argv[argc++] = "--mem-mode";
	argv[argc++] = "-n";
	/* perf's mem order, or its store order, and the -p / --data-page-size keys */
	if ((store && !load) || o->phys || o->page_size) {
		snprintf(sort, sizeof(sort), "%s%s%s",
			 store && !load ? "mem,sym,dso,symbol_daddr,dso_daddr,tlb,locked"
					: "local_weight,mem,sym,dso,symbol_daddr,dso_daddr,snoop,tlb,"
					  "locked,blocked",
			 o->phys ? ",phys_daddr" : "", o->page_size ? ",data_page_size" : "");
		argv[argc++] = "--sort";
		argv[argc++] = sort;
	}
	if (o->input) {
		argv[argc++] = "-i";
		argv[argc++] = o->input;
	}
	if (o->force)
		argv[argc++] = "-f";
	if (o->sep) {
		argv[argc++] = "-t";
		argv[argc++] = o->sep;
	}
	for (int i = 0; i < o->nr_extra && argc < 23; i++)
		argv[argc++] = o->extra[i];
	argv[argc] = NULL;
	return cmd_report(argc, argv);
}
