/* SPDX-License-Identifier: MIT */
/* Private to symbol/disasm*.c: instruction text, and the AVX-512 (EVEX) decoder capstone 4 lacks. */
#ifndef SONDE_SYMBOL_DISASM_INTERNAL_H
#define SONDE_SYMBOL_DISASM_INTERNAL_H

#include "lib/strbuf.h"
#include "lib/util.h"
#include "symbol/disasm.h"

#include <capstone/capstone.h>
#include <stdbool.h>
#include <stddef.h>

/*
 * disasm_format_insn - objdump's text of @in (decoded by @cs with details
 * on) into @sb: AT&T ("mov    %rsp,%rbp"), or with @intel objdump -M
 * intel's ("mov    rbp,rsp"); branch targets and rip-relative comments
 * named through disasm_label().
 */
void disasm_format_insn(struct disasm *d, csh cs, bool intel, const cs_insn *in,
			struct strbuf *sb);

/*
 * disasm_format_unknown - objdump's text of an instruction capstone 4 does
 * not decode (rdpkru, wrpkru) into @sb. Returns its length, or 0.
 */
size_t disasm_format_unknown(const u8 *b, size_t left, struct strbuf *sb);

/*
 * evex_length - the length of the EVEX instruction at @b (62 P0 P1 P2,
 * opcode, ModRM, [SIB], [disp], [imm8]), 0 when @b is not one.
 */
size_t evex_length(const u8 *b, size_t left);

/*
 * evex_format - objdump's AT&T text of the EVEX instruction at @b (at
 * address @addr) into @sb, for the opcodes glibc's string functions use
 * (vmovdqu8/64, vmovdqa64, vpxorq, vpternlogd, vpminub, vptestmb,
 * vpcmpeqb, vpcmp[u]b with objdump's predicate names, vpbroadcastb).
 * Returns the length, or 0 (nothing written) for another instruction.
 */
size_t evex_format(struct disasm *d, const u8 *b, size_t left, u64 addr, struct strbuf *sb);

/*
 * vex_kmask_format - the same for the VEX-encoded mask-register
 * instructions used with them (kmov, kortest, ktest, kunpck, kand/kor/kxor...).
 */
size_t vex_kmask_format(const u8 *b, size_t left, struct strbuf *sb);

/*
 * disasm_cut_insn - an instruction that the end of the bytes (@left of
 * them at @b) cuts short: objdump shows its first byte alone, as the prefix
 * it is ("rex.W", "data16") or ".byte 0x89", and decodes again from the
 * next one. Writes that into @sb and returns true then.
 */
bool disasm_cut_insn(struct disasm *d, csh cs, const u8 *b, size_t left, struct strbuf *sb);

/*
 * disasm_rex_vex - a REX prefix before a VEX instruction, which capstone
 * refuses: objdump prints the prefix as a word ("rex.W vpcmpeqd ...").
 * Returns the length (0: not one) with the text in @sb.
 */
size_t disasm_rex_vex(struct disasm *d, csh cs, bool intel, const u8 *b, size_t left, u64 addr,
		      struct strbuf *sb);

/*
 * disasm_zero_run - objdump's "..." over the zero bytes at @b (@left to the
 * end of the piece): a run of eight or more is skipped in whole words of
 * four, one reaching the end when it is that long or under three bytes.
 * Returns the bytes skipped, 0 to decode them.
 */
size_t disasm_zero_run(const u8 *b, size_t left);

#endif
