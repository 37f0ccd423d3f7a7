/* SPDX-License-Identifier: MIT */
/* Private to symbol/disasm*.c: the AVX-512 (EVEX) decoder capstone 4 lacks. */
#ifndef SONDE_SYMBOL_DISASM_INTERNAL_H
#define SONDE_SYMBOL_DISASM_INTERNAL_H

#include "lib/strbuf.h"
#include "lib/util.h"
#include "symbol/disasm.h"

#include <stddef.h>

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

#endif
