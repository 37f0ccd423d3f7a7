/* SPDX-License-Identifier: MIT */
/*
 * In-process disassembly for annotate: x86-64 code of a symbol through
 * libcapstone (loaded on first use), printed in GNU objdump's AT&T form
 * ("mov    %rsp,%rbp", "jmp    1186 <hot+0x5d>", rip-relative comments),
 * with each instruction's DWARF line, discriminator and function through
 * libdw, and the source files' text, so that annotate needs no objdump.
 */
#ifndef SONDE_SYMBOL_DISASM_H
#define SONDE_SYMBOL_DISASM_H

#include "lib/util.h"
#include "symbol/symtab.h"

#include <stdbool.h>
#include <stddef.h>

/* where objdump starts a new block before an instruction */
enum disasm_brk {
	DISASM_BRK_NONE,
	DISASM_BRK_LABEL,   /* a symbol starts here: "<addr> <name>:" */
	DISASM_BRK_SECTION, /* another section starts here: "Disassembly of section .plt:" */
};

/* struct disasm_insn - one instruction (or an undecodable byte: ".byte 0x..") */
struct disasm_insn {
	u64 addr;
	u8 len;
	u8 brk;		      /* enum disasm_brk; never set on the first instruction */
	u8 bytes[16];
	u32 zeros;	      /* objdump's "..." (@text) over this many zero bytes; @len 0 */
	char *text;	      /* owned: objdump's text ("mov    %rsp,%rbp"), no trailing blanks */
	/* with disasm_lines(): where it comes from (NULL/0 without DWARF) */
	const char *file;     /* the line table's path, borrowed from the struct disasm */
	unsigned int line;
	unsigned int discr;   /* the row's discriminator */
	const char *func;     /* objdump -l's function text ("hot()", "ns::f(int)"), borrowed */
	const char *symfile;  /* no DWARF: addr2line's file from the symbol table (the STT_FILE
				 before the function's symbol, "nd.c"), borrowed; or NULL */
};

/* struct disasm - one binary opened for disassembly. Opaque. */
struct disasm;

/*
 * disasm_open - @path is the file holding the code, @debug_path the one
 * with symbols and DWARF (may equal @path or be NULL). @plt, may be NULL:
 * a symbol table whose SYMBOL_PLT entries name the PLT slots ("f@plt").
 * @runtime_labels: name addresses as objdump does without -S, from @path's
 * own symbols (a stripped file's .dynsym, versioned "f@@VER"); -l's
 * function names still come from the debug file.
 * Returns NULL with *@err set: -ENOENT (no file), -ENOTSUP (not x86-64
 * ELF), -ENOSYS (libcapstone does not load).
 */
struct disasm *disasm_open(const char *path, const char *debug_path, const struct symtab *plt,
			   bool runtime_labels, int *err);
void disasm_close(struct disasm *d);

/*
 * disasm_open_kcore - the kernel code of [@start, @end) in the kcore file
 * at @path (symbol/kcore.h), as objdump shows perf's copy of it: one
 * section, "load0", from @start to @end (or to the end of its segment's
 * bytes), no symbols, no DWARF. Returns NULL with *@err set: kcore_open()'s
 * errors, -ERANGE (no segment holds @start), -ENOSYS (no libcapstone).
 */
struct disasm *disasm_open_kcore(const char *path, u64 start, u64 end, int *err);

/*
 * disasm_set_intel - print instructions in objdump -M intel's syntax
 * ("mov    QWORD PTR [rbp-0x8],rdi") instead of AT&T. AVX-512 instructions,
 * which capstone 4 does not decode, stay in AT&T.
 */
void disasm_set_intel(struct disasm *d, bool intel);

/*
 * disasm_range - decode [@start, @end) (ELF virtual addresses) into *@out
 * (*@nr entries; free with disasm_insns_free()), as objdump does with
 * --start-address/--stop-address: the executable sections' parts of the
 * range, decoding afresh where a symbol starts (->brk marks those places
 * and the section changes). Returns 0 or -errno (-ENOENT: no allocated
 * section holds @start).
 */
int disasm_range(struct disasm *d, u64 start, u64 end, struct disasm_insn **out, size_t *nr);
void disasm_insns_free(struct disasm_insn *insns, size_t nr);

/* disasm_section_name - the section holding @addr (".text"), or NULL */
const char *disasm_section_name(struct disasm *d, u64 addr);

/*
 * disasm_block_label - objdump's "<name>" over a block starting at @addr
 * (a symbol's start, or a section's first byte): a symbol of @addr's own
 * section at or below it ("f", "f+0x8"), else the next one in the section
 * ("f@plt-0x10"), else the section's name (".init"). Writes into @buf and
 * returns it.
 */
const char *disasm_block_label(struct disasm *d, u64 addr, char *buf, size_t size);

/*
 * disasm_label - objdump's name for @addr: the nearest symbol at or below
 * it, demangled with parameters, and "+0x<off>" when inside it. Writes
 * "<name>" text into @buf without the angle brackets; returns NULL when no
 * symbol precedes @addr.
 */
const char *disasm_label(struct disasm *d, u64 addr, char *buf, size_t size);

/*
 * disasm_lines - fill the file, line, discriminator and function of each
 * instruction from the DWARF. Returns 0, or -ENOENT when there is none
 * (the fields stay NULL/0).
 */
int disasm_lines(struct disasm *d, struct disasm_insn *insns, size_t nr);

/*
 * disasm_warm_lines - the work disasm_lines() would start with for code at
 * @addr done now: the DWARF opened, and with compressed DWARF the unit of
 * @addr inflated. Annotate calls it on a second thread while the samples
 * are read; the lines come out the same either way.
 */
void disasm_warm_lines(struct disasm *d, u64 addr);

/*
 * disasm_source_line - line @line (from 1) of source file @file, without
 * its newline, or NULL when the file cannot be read or is shorter. The
 * text lives as long as @d.
 */
const char *disasm_source_line(struct disasm *d, const char *file, unsigned int line);

#endif
