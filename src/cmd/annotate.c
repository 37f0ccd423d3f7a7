/* SPDX-License-Identifier: MIT */
/* sonde annotate: per-instruction sample percentages of symbols, disassembled in-process. */
#include "builtin.h"
#include "cmd/open.h"
#include "core/evlist.h"
#include "core/evsel.h"
#include "data/reader.h"
#include "lib/debug.h"
#include "lib/hashmap.h"
#include "lib/optspec.h"
#include "lib/xalloc.h"
#include "session/annotate.h"
#include "session/machine.h"
#include "session/session.h"
#include "symbol/disasm.h"
#include "symbol/elf.h"
#include "symbol/kcore.h"
#include "ui/annotate-browser.h"
#include "ui/annotate-stdio.h"
#include "ui/hists-browser.h"
#include "cmd/annotate.h"
#include "cmd/annotate-code.h"
#include "cmd/script-lang.h"
#include "ui/header.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct annotate_opts {
	const char *input, *symbol, *dsos, *percent_type, *symfs, *vmlinux, *objdump;
	const char *disassembler_style, *cpu, *stdio_color, *percent_limit;
	bool force, print_line, show_nr_samples, full_paths, quiet, source, asm_raw;
	bool stdio, stdio2, tui, demangle, demangle_kernel, skip_missing, ignore_vmlinux;
	bool show_total_period, group, modules;
};

static const char *const annotate_usage[] = {
	"perf annotate [<options>]",
	NULL,
};

static int parse_percent_type(const char *s, enum annotate_percent_type *t)
{
	static const struct {
		const char *name;
		enum annotate_percent_type t;
	} types[] = {
		{ "local-period", PERCENT_LOCAL_PERIOD },
		{ "global-period", PERCENT_GLOBAL_PERIOD },
		{ "local-hits", PERCENT_LOCAL_HITS },
		{ "global-hits", PERCENT_GLOBAL_HITS },
		{ "period-local", PERCENT_LOCAL_PERIOD },
		{ "period-global", PERCENT_GLOBAL_PERIOD },
		{ "hits-local", PERCENT_LOCAL_HITS },
		{ "hits-global", PERCENT_GLOBAL_HITS },
	};

	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		if (!strcmp(s, types[i].name)) {
			*t = types[i].t;
			return 0;
		}
	}
	return -EINVAL;
}

static const char *event_name(struct session *s, int idx)
{
	struct evsel *evsel;

	evlist_for_each_entry(s->evlist, evsel)
		if (evsel->idx == idx)
			return evsel->name ? evsel->name : "";
	return "";
}

/* annotate_one - one symbol's text on stdout. Returns 0 or -errno (nothing printed). */
static int annotate_one(struct disasm *d, const struct annotate_sym *as,
			const struct annotate_hists *ah, const char *evname,
			const struct annotate_print_opts *po, bool stdio2, const char *title)
{
	struct annotate_print_opts kpo = *po;
	struct annotate_sym *folded;
	struct disasm_insn *insns;
	struct annotate_line *lines;
	const char *name, *path;
	size_t nr, nr_lines;
	int ret;

	ret = disasm_range(d, as->sym->start, as->sym->end, &insns, &nr);
	if (ret)
		return ret;
	disasm_lines(d, insns, nr);
	lines = annotate_build_lines(d, insns, annotate_shown_insns(insns, nr, po->asm_raw && !stdio2),
				     as->sym->start, po->source || stdio2, &nr_lines);
	annotate_code_names(as->dso, &name, &path);
	/* samples inside an instruction count at its start, as perf counts them */
	folded = annotate_sym_fold(as, insns, nr, po->asm_raw && !stdio2 ? 7 : 0);
	if (folded)
		as = folded;
	/* a kcore is nothing addr2line reads: perf's -l names lines "[kernel.kallsyms][addr]" */
	if (as->dso->is_kernel && annotate_kernel_code(as->dso) == 1)
		kpo.unread_dso = as->dso->long_name;
	if (stdio2) {
		struct annotate_browse_args a = { .lines = lines, .nr_lines = nr_lines, .as = as,
						  .ah = ah, .title = title, .dso_path = path,
						  .percent_type = po->percent_type };

		annotate_kernel_targets(as, &a, NULL);
		a.hidden_syms = &ah->dropped;
		annotate_stdio2_fprintf(stdout, &a);
	} else {
		annotate_fprintf(stdout, lines, nr_lines, as, ah, name, path, evname, &kpo);
	}
	annotate_sym_free(folded);
	annotate_lines_free(lines, nr_lines);
	disasm_insns_free(insns, nr);
	return 0;
}

/* struct prefetch_ctx - the second thread opening the named symbol's code */
struct prefetch_ctx {
	const struct annotate_print_opts *po;
	struct annotate_prefetch *pf;
};

static void first_kept(struct annotate_hists *ah, const struct annotate_sym *as, void *arg)
{
	struct prefetch_ctx *pc = arg;

	(void)ah;
	pc->pf = annotate_prefetch_start(as, pc->po->source, pc->po->intel);
}

int cmd_annotate(int argc, const char **argv)
{
	struct annotate_opts o = { .source = true, .demangle = true };
	const struct opt_spec options[] = {
		SPEC_TEXT("cpu", 'C', &o.cpu, "cpu", "list of cpus to profile"),
		SPEC_TEXT("dsos", 'd', &o.dsos, "dso[,dso...]", "only consider symbols in these dsos"),
		SPEC_FLAG("force", 'f', &o.force, "don't complain, do it"),
		SPEC_TEXT("input", 'i', &o.input, "file", "input file name"),
		SPEC_TEXT("vmlinux", 'k', &o.vmlinux, "file", "vmlinux pathname"),
		SPEC_FLAG("print-line", 'l', &o.print_line,
			  "print matching source lines (may be slow)"),
		SPEC_TEXT("disassembler-style", 'M', &o.disassembler_style, "disassembler style",
			  "Specify disassembler style (e.g. -M intel for intel syntax)"),
		SPEC_FLAG("modules", 'm', &o.modules,
			  "load module symbols - WARNING: use only with -k and LIVE kernel"),
		SPEC_FLAG("show-nr-samples", 'n', &o.show_nr_samples,
			  "Show a column with the number of samples"),
		SPEC_FLAG("full-paths", 'P', &o.full_paths, "Don't shorten the displayed pathnames"),
		SPEC_FLAG("quiet", 'q', &o.quiet, "do now show any warnings or messages"),
		SPEC_TEXT("symbol", 's', &o.symbol, "symbol", "symbol to annotate"),
		SPEC_COUNT("verbose", 'v', &verbose, "be more verbose (show symbol address, etc)"),
		SPEC_FLAG("asm-raw", 0, &o.asm_raw,
			  "Display raw encoding of assembly instructions (default)"),
		SPEC_FLAG("demangle", 0, &o.demangle, "Enable symbol demangling"),
		SPEC_FLAG("demangle-kernel", 0, &o.demangle_kernel, "Enable kernel symbol demangling"),
		SPEC_FLAG("group", 0, &o.group, "Show event group information together"),
		SPEC_FLAG("ignore-vmlinux", 0, &o.ignore_vmlinux, "don't load vmlinux even if found"),
		SPEC_TEXT("objdump", 0, &o.objdump, "path",
			  "objdump binary to use for disassembly and annotations"),
		SPEC_TEXT("percent-limit", 0, &o.percent_limit, "percent",
			  "Don't show entries under that percent"),
		SPEC_TEXT("percent-type", 0, &o.percent_type, "local-period",
			  "Set percent type local/global-period/hits"),
		SPEC_FLAG("show-total-period", 0, &o.show_total_period,
			  "Show a column with the sum of periods"),
		SPEC_FLAG("skip-missing", 0, &o.skip_missing, "Skip symbols that cannot be annotated"),
		SPEC_FLAG("source", 0, &o.source,
			  "Interleave source code with assembly code (default)"),
		SPEC_FLAG("stdio", 0, &o.stdio, "Use the stdio interface"),
		SPEC_TEXT("stdio-color", 0, &o.stdio_color, "mode",
			  "'always' (default), 'never' or 'auto' only applicable to --stdio mode"),
		SPEC_FLAG("stdio2", 0, &o.stdio2, "Use the stdio interface"),
		SPEC_TEXT("symfs", 0, &o.symfs, "directory",
			  "Look for files with symbols relative to this directory"),
		SPEC_FLAG("tui", 0, &o.tui, "Use the TUI interface"),
		SPEC_END(),
	};
	struct annotate_print_opts po = { 0 };
	struct symbol_opts sopts = { 0 };
	struct machine_opts mopts = { .symbol_opts = &sopts };
	struct annotate_filter filter = { 0 };
	struct annotate_hists ah;
	struct data_error err = { 0 };
	struct data_reader *r;
	struct session *s;
	struct u64map cache;
	struct prefetch_ctx pc = { 0 };
	bool kernel_said = false, use_tui;
	char title[512] = "", kcore_dir[PATH_MAX];
	double limit = 0;
	size_t nr_shown = 0;
	int ret = 0;

	argc = opts_parse(argc, argv, options, annotate_usage, 0);
	if (argc > 1)
		opts_usage_exit(annotate_usage, options);
	if (argc == 1)
		o.symbol = argv[0];
	if (o.percent_type && parse_percent_type(o.percent_type, &po.percent_type)) {
		opts_usage_for(annotate_usage, options, 0, "percent-type");
		return 129;
	}
	if (o.disassembler_style) {
		/* objdump's -M list: intel or att; objdump ignores what it does not know, so does perf */
		char *list = xstrdup(o.disassembler_style), *save = NULL;

		for (char *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
			if (!strcmp(t, "intel"))
				po.intel = true;
			else if (!strcmp(t, "att"))
				po.intel = false;
			else
				fprintf(stderr, "Warning: disassembler option '%s' ignored (intel and att are known)\n",
					t);
		}
		free(list);
	}
	if (o.show_total_period && o.show_nr_samples) {
		fprintf(stderr, " Error: option `show-total-period' cannot be used with show-nr-samples\n");
		fprintf(stderr, " Usage: %s annotate [<options>]\n\n", prog_name);
		opts_usage_for(NULL, options, 0, "show-total-period");
		opts_usage_for(NULL, options, 'n', NULL);
		return 129;
	}
	/* the TUI on a terminal, unless --stdio; --tui without one prints text as perf does */
	use_tui = !o.stdio && !o.stdio2 && isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
	po.show_total_period = o.show_total_period;
	if (o.percent_limit)
		limit = strtod(o.percent_limit, NULL);
	po.source = o.source;
	po.asm_raw = o.asm_raw;
	po.show_nr_samples = o.show_nr_samples;
	po.print_line = o.print_line;
	po.full_paths = o.full_paths;
	sopts.symfs = o.symfs;
	sopts.vmlinux = o.vmlinux;
	sopts.ignore_vmlinux = o.ignore_vmlinux;
	sopts.no_demangle = !o.demangle;
	sopts.demangle_kernel = o.demangle_kernel;
	filter.symbol = o.symbol;
	filter.dso = o.dsos;

	/* perf checks -k's file first, and exits with -EINVAL's status */
	if (o.vmlinux && access(o.vmlinux, R_OK)) {
		fprintf(stderr, "Invalid file: %s\n", o.vmlinux);
		return 234;
	}
	r = data_open_for_read(o.input, o.force);
	if (!r)
		return 255;
	sopts.kcore_dir = data_kcore_dir(r, kcore_dir, sizeof(kcore_dir));
	s = session_new(r, &mopts);
	annotate_hists_init(&ah, s, &filter);
	if (!use_tui) {
		/* one symbol named: its code is opened while the samples are read */
		ah.first_kept = first_kept;
		ah.first_kept_arg = &pc;
	}
	pc.po = &po;
	ret = annotate_collect(&ah, s, &err);
	u64map_init(&cache);
	annotate_prefetch_finish(pc.pf, &cache);
	if (ret < 0) {
		annotate_disasm_cache_release(&cache);
		data_error_print(data_reader_path(s->reader), &err);
		ret = 255;
		goto out;
	}
	ret = 0;
	if (use_tui) {
		ret = annotate_tui(s, &ah, &cache, &po, limit, o.quiet, o.input);
		annotate_disasm_cache_release(&cache);
		goto out;
	}
	for (size_t i = 0; i < ah.nr_syms; i++) {
		const struct annotate_sym *as = ah.syms[i];
		struct disasm *d;
		bool own;
		int e = 0;

		/* --percent-limit: the symbol's share of its event */
		if (limit > 0 && ah.total_period[as->evsel_idx] &&
		    100.0 * (double)as->period / (double)ah.total_period[as->evsel_idx] < limit)
			continue;
		if (as->dso->is_kernel && annotate_kernel_code(as->dso) < 0) {
			if (!kernel_said && !o.quiet)
				annotate_print_kernel_error(as);
			kernel_said = true;
			continue;
		}
		d = annotate_sym_disasm(&cache, as, po.source, po.intel, &own, &e);
		if (o.stdio2)
			annotate_tui_title(s->evlist, &ah, as, title, sizeof(title));
		if (d)
			e = annotate_one(d, as, &ah, event_name(s, as->evsel_idx), &po, o.stdio2,
					 title);
		if (own)
			disasm_close(d);
		if (e) {
			if (!o.quiet && !o.skip_missing)
				fprintf(stderr, "Couldn't annotate %s: %s (%s)\n", as->sym->name,
					e == -ESTALE ? "build-id mismatch" : strerror(-e),
					as->dso->long_name);
			continue;
		}
		nr_shown++;
	}
	annotate_disasm_cache_release(&cache);
	if (!nr_shown && !ah.nr_syms) {
		/* perf's text; unlike perf (status 0) the status says nothing was annotated */
		for (struct dso *d = s->machine.dsos; d; d = d->next)
			if (d->is_hit && !d->is_kernel && !o.quiet) {
				if (d->load_status == -ESTALE)
					fprintf(stderr,
						"%s has a different build-id than at record time\n",
						d->long_name);
				else if (d->load_status == -ENOENT && d->long_name[0] == '/')
					fprintf(stderr, "%s was not found, nor in the build-id cache\n",
						d->long_name);
			}
		fprintf(stderr, "Error:\nThe %s data has no samples!\n",
			data_reader_path(s->reader));
		ret = 1;
	}
out:
	annotate_hists_release(&ah);
	session_free(s);
	return ret;
}
