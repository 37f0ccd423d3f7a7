/* SPDX-License-Identifier: MIT */
/* perf annotate's text form: one symbol's disassembly with source, percentages per instruction. */
#ifndef SONDE_UI_ANNOTATE_STDIO_H
#define SONDE_UI_ANNOTATE_STDIO_H

#include "session/annotate.h"
#include "symbol/disasm.h"

#include <stdbool.h>
#include <stdio.h>

enum annotate_percent_type {
	PERCENT_LOCAL_PERIOD,
	PERCENT_GLOBAL_PERIOD,
	PERCENT_LOCAL_HITS,
	PERCENT_GLOBAL_HITS,
};

/* struct annotate_print_opts - what the text shows */
struct annotate_print_opts {
	bool source;	      /* interleave source lines (--source, the default) */
	bool asm_raw;	      /* --asm-raw: the instruction bytes */
	bool show_nr_samples; /* -n: sample counts instead of percentages */
	bool show_total_period; /* --show-total-period: periods instead of percentages */
	bool print_line;      /* -l: the per-source-line summary and "// file:line" marks */
	bool full_paths;      /* -P: whole source paths in them */
	bool intel;	      /* -M intel: objdump's Intel syntax */
	/*
	 * -l when the code's file is none addr2line reads (a kcore): lines
	 * are named "DSO[addr]" after this dso ("[kernel.kallsyms]"), and
	 * addr2line's complaint goes to stderr once per line summed, as perf's
	 */
	const char *unread_dso;
	enum annotate_percent_type percent_type;
};

/* annotate_percent_type_name - "local period", "global hits"... as the header says it */
const char *annotate_percent_type_name(enum annotate_percent_type t);

/* annotate_percent - @a's share (%) of @as or of its event, by @t; 0 when @a is NULL */
double annotate_percent(const struct annotate_addr *a, const struct annotate_sym *as,
			const struct annotate_hists *ah, enum annotate_percent_type t);

/*
 * enum annotate_line_kind - the lines of an annotation, in the order perf's
 * objdump run prints them: text (section and symbol headers, function
 * names, source), location markers, instructions.
 */
enum annotate_line_kind {
	ALINE_TEXT,
	ALINE_MARKER,	/* "file:line": sets the source line counter */
	ALINE_INSN,
};

/* struct annotate_line - one line; @text owned, @insn borrowed */
struct annotate_line {
	enum annotate_line_kind kind;
	char *text;
	const struct disasm_insn *insn;
	unsigned int line;	/* ALINE_MARKER: the line number */
};

/*
 * annotate_shown_insns - how many of @insns perf shows: all but the nops
 * that end the symbol (alignment padding), which perf leaves out: a nop
 * with operands ("nopl 0x0(%rax)", "cs nopw ..."), and a bare "nop" unless
 * @raw (--asm-raw) or a prefix comes first ("ds nop" stays); with @raw not
 * one longer than seven bytes either (its last line holds bytes alone)
 */
size_t annotate_shown_insns(const struct disasm_insn *insns, size_t nr, bool raw);

/*
 * annotate_build_lines - the lines of @insns (a symbol starting at
 * @start) as objdump -l -d [-S] prints them. @with_source: -S. Free with
 * annotate_lines_free().
 */
struct annotate_line *annotate_build_lines(struct disasm *d, const struct disasm_insn *insns,
					   size_t nr, u64 start, bool with_source, size_t *nr_lines);
void annotate_lines_free(struct annotate_line *lines, size_t nr);

/*
 * annotate_fprintf - perf annotate --stdio's text for @as: the header,
 * then each line with its percentage (or sample count). @dso_name and
 * @event_name go in the header.
 */
void annotate_fprintf(FILE *out, const struct annotate_line *lines, size_t nr,
		      const struct annotate_sym *as, const struct annotate_hists *ah,
		      const char *dso_name, const char *dso_path, const char *event_name,
		      const struct annotate_print_opts *o);

#endif
