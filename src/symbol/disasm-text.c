/* SPDX-License-Identifier: MIT */
/* One instruction's text as GNU objdump prints it, AT&T or Intel (-M intel), from capstone's details. */
#include "symbol/disasm-internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* ---- objdump's AT&T text from capstone's details ---- */

static bool is_branch(unsigned int id)
{
	switch (id) {
	case X86_INS_JMP: case X86_INS_CALL: case X86_INS_JAE: case X86_INS_JA:
	case X86_INS_JBE: case X86_INS_JB: case X86_INS_JCXZ: case X86_INS_JECXZ:
	case X86_INS_JRCXZ: case X86_INS_JE: case X86_INS_JGE: case X86_INS_JG:
	case X86_INS_JLE: case X86_INS_JL: case X86_INS_JNE: case X86_INS_JNO:
	case X86_INS_JNP: case X86_INS_JNS: case X86_INS_JO: case X86_INS_JP:
	case X86_INS_JS: case X86_INS_LOOP: case X86_INS_LOOPE: case X86_INS_LOOPNE:
	case X86_INS_XBEGIN:
		return true;
	default:
		return false;
	}
}

/* in, out and their string forms: the port is an operand */
static bool is_port_io(unsigned int id)
{
	switch (id) {
	case X86_INS_IN: case X86_INS_OUT: case X86_INS_INSB: case X86_INS_INSW:
	case X86_INS_INSD: case X86_INS_OUTSB: case X86_INS_OUTSW: case X86_INS_OUTSD:
		return true;
	default:
		return false;
	}
}

/* 64-bit default operand size: objdump prints no suffix */
static bool never_suffixed(unsigned int id)
{
	switch (id) {
	case X86_INS_JMP: case X86_INS_CALL: case X86_INS_RET: case X86_INS_PUSH:
	case X86_INS_POP: case X86_INS_LEAVE: case X86_INS_ENTER: case X86_INS_PUSHFQ:
	case X86_INS_POPFQ:
		return true;
	default:
		return false;
	}
}

static bool is_shift(unsigned int id)
{
	switch (id) {
	case X86_INS_SHL: case X86_INS_SHR: case X86_INS_SAR: case X86_INS_SAL:
	case X86_INS_ROL: case X86_INS_ROR: case X86_INS_RCL: case X86_INS_RCR:
		return true;
	default:
		return false;
	}
}

/*
 * An x87 arithmetic or compare on a stack register, of which capstone
 * gives the st(i) operand alone: objdump writes both. 1: "st, st(i)" (the
 * result in st: D8, fcmov, fcomi), 2: "st(i), st" (DC, DE: the p forms),
 * 0: another instruction (fld st(i), fxch, fcom st(i) keep one operand).
 */
static int x87_pair(const cs_insn *in)
{
	const cs_x86 *x = &in->detail->x86;
	u8 op = x->opcode[0], r = (x->modrm >> 3) & 7;

	if (x->op_count != 1 || x->operands[0].type != X86_OP_REG || (x->modrm >> 6) != 3 ||
	    op < 0xd8 || op > 0xdf)
		return 0;
	switch (op) {
	case 0xd8:
		return r != 2 && r != 3 ? 1 : 0;
	case 0xdc:
	case 0xde:
		return r != 2 && r != 3 ? 2 : 0;
	case 0xda:
		return r <= 3 ? 1 : 0;
	case 0xdb:
		return r <= 3 || r == 5 || r == 6 ? 1 : 0;
	case 0xdf:
		return r == 5 || r == 6 ? 1 : 0;
	default:
		return 0;
	}
}

/* a conditional jump: objdump writes a cs/ds prefix on it as a hint (",pn", ",pt") */
static bool is_jcc(unsigned int id)
{
	return is_branch(id) && id != X86_INS_JMP && id != X86_INS_CALL && id != X86_INS_LOOP &&
	       id != X86_INS_LOOPE && id != X86_INS_LOOPNE && id != X86_INS_XBEGIN &&
	       id != X86_INS_JCXZ && id != X86_INS_JECXZ && id != X86_INS_JRCXZ;
}

/*
 * x86_prefixes - objdump's prefix words of @in appended to @pre ("data16 cs "
 * on a long nop, "notrack ", "bnd ", "cs " on a call the kernel pads,
 * "addr32 "), *@cs_nop set for the nop whose cs segment they replace,
 * *@drop_seg when a cs/ds/es/ss override (which 64-bit mode ignores) is
 * such a word and no operand's prefix; a branch hint goes after @mn
 * ("je,pt", AT&T only). True when @in prints as a fixed text instead,
 * written to @sb: "xchg   %ax,%ax" (@intel: "ax,ax") and "repz ret".
 */
static bool x86_prefixes(const cs_insn *in, bool intel, bool string_op, char *pre, char *mn,
			 size_t mn_size, bool *cs_nop, bool *drop_seg, struct strbuf *sb)
{
	const cs_x86 *x = &in->detail->x86;
	bool jcall = in->id == X86_INS_JMP || in->id == X86_INS_CALL;
	u8 seg = x->prefix[1];

	if (in->id == X86_INS_NOP) {
		for (int i = 0; i < x->op_count; i++)
			if (x->operands[i].type == X86_OP_MEM &&
			    x->operands[i].mem.segment == X86_REG_CS)
				*cs_nop = true;
		if (*cs_nop) {
			int n66 = 0;

			for (int i = 0; i < in->size && in->bytes[i] == 0x66; i++)
				n66++;
			for (int i = 1; i < n66; i++)
				strcat(pre, "data16 ");
			strcat(pre, "cs ");
		}
		if (in->size == 2 && in->bytes[0] == 0x66 && in->bytes[1] == 0x90) {
			strbuf_addstr(sb, intel ? "xchg   ax,ax" : "xchg   %ax,%ax");
			return true;
		}
	}
	/* "f3 c3": objdump keeps the prefix AMD's branch predictors once wanted */
	if (in->id == X86_INS_RET && in->size == 2 && in->bytes[0] == 0xf3 && in->bytes[1] == 0xc3) {
		strbuf_addstr(sb, "repz ret");
		return true;
	}
	if (jcall && x->op_count == 1 && x->operands[0].type != X86_OP_IMM && seg == 0x3e) {
		strcat(pre, "notrack ");
	} else if (!*cs_nop && !string_op &&
		   (seg == 0x2e || seg == 0x3e || seg == 0x26 || seg == 0x36)) {
		if (!intel && is_jcc(in->id) && seg != 0x26 && seg != 0x36) {
			size_t l = strlen(mn);

			snprintf(mn + l, mn_size - l, "%s", seg == 0x3e ? ",pt" : ",pn");
		} else {
			strcat(pre, seg == 0x2e ? "cs " : seg == 0x3e ? "ds " : seg == 0x26 ? "es " : "ss ");
			*drop_seg = true;
		}
	}
	if (x->prefix[3] == 0x67 && is_branch(in->id) && x->op_count == 1 &&
	    x->operands[0].type == X86_OP_IMM)
		strcat(pre, "addr32 ");
	/* capstone names "bnd jmp" itself on some forms */
	if ((jcall || in->id == X86_INS_RET || is_branch(in->id)) && x->prefix[0] == 0xf2 &&
	    !strstr(pre, "bnd "))
		strcat(pre, "bnd ");
	return false;
}

/* add_st - x87's implied stack top @st before or after the operand in @ops */
static void add_st(struct strbuf *ops, const char *st, bool before)
{
	struct strbuf t = STRBUF_INIT;

	if (!before) {
		strbuf_addf(ops, ",%s", st);
		return;
	}
	strbuf_addf(&t, "%s,%s", st, ops->buf);
	strbuf_release(ops);
	*ops = t;
}

/* a branch's target as objdump writes it: "1186 <hot+0x5d>", or "0x1186" with no symbol to name it */
static void branch_target(struct disasm *d, struct strbuf *ops, u64 target)
{
	char lab[512];

	if (disasm_label(d, target, lab, sizeof(lab)))
		strbuf_addf(ops, "%" PRIx64 " <%s>", target, lab);
	else
		strbuf_addf(ops, "0x%" PRIx64, target);
}

/*
 * emit_insn - objdump's line: prefixes and mnemonic padded to six, the
 * operands, and for a rip-relative operand "# <target> <name>"; releases @ops
 */
static void emit_insn(struct disasm *d, struct strbuf *sb, const char *pre, const char *mn,
		      struct strbuf *ops, bool has_rip, u64 rip_target)
{
	char full[160];

	snprintf(full, sizeof(full), "%s%s", pre, mn);
	if (ops->len)
		strbuf_addf(sb, "%-6s %s", full, ops->buf);
	else
		strbuf_addstr(sb, full);
	if (has_rip) {
		char lab[512];

		/* with no symbol to name it (a kcore), objdump writes the address alone, 0x first */
		if (disasm_label(d, rip_target, lab, sizeof(lab)))
			strbuf_addf(sb, "        # %" PRIx64 " <%s>", rip_target, lab);
		else
			strbuf_addf(sb, "        # 0x%" PRIx64, rip_target);
	}
	strbuf_release(ops);
}

static bool is_string_op(const char *name)
{
	static const char *const ops[] = { "stos", "lods", "movs", "scas", "cmps", "ins", "outs" };

	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		size_t n = strlen(ops[i]);

		if (!strncmp(name, ops[i], n) && (!name[n] || !name[n + 1]) &&
		    (!name[n] || strchr("bwdlq", name[n])))
			return true;
	}
	return false;
}

/* rax..rdi, rsp, rbp, r8..r15 (not r8d, r8w, r8b) */
static bool is_gpr64(const char *r)
{
	size_t n = r ? strlen(r) : 0;

	if (n < 2 || r[0] != 'r' || !strcmp(r, "rip"))
		return false;
	return n == 3 ? !(r[1] >= '0' && r[1] <= '9') || (r[2] >= '0' && r[2] <= '9')
		      : (r[n - 1] >= '0' && r[n - 1] <= '9');
}

/* a general-purpose register: it tells an instruction's operand size */
static bool is_gpr(const char *r)
{
	static const char *const names[] = {
		"al", "ah", "ax", "eax", "rax", "bl", "bh", "bx", "ebx", "rbx", "cl", "ch", "cx",
		"ecx", "rcx", "dl", "dh", "dx", "edx", "rdx", "sil", "si", "esi", "rsi", "dil",
		"di", "edi", "rdi", "bpl", "bp", "ebp", "rbp", "spl", "sp", "esp", "rsp",
	};

	if (!r)
		return false;
	if (r[0] == 'r' && r[1] >= '0' && r[1] <= '9')
		return true; /* r8..r15 and their b/w/d parts */
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(r, names[i]))
			return true;
	return false;
}

/*
 * objdump spells out a string instruction's implicit operands:
 * "rep stos %rax,%es:(%rdi)", "movsb %ds:(%rsi),%es:(%rdi)", "repz cmpsb ...".
 * Returns false for what is not one.
 */
static bool format_string_op(const char *pre, const char *mn, struct strbuf *sb)
{
	static const char *const acc[] = { "al", "ax", "eax", "rax" };
	const char *sizes = "bwlq", *p;
	char stem[8], prefix[64] = "", full[160];
	size_t n = strlen(mn);
	const char *reg;
	bool cmp_like;

	if (n != 5 || !(p = strchr(sizes, mn[4])))
		return false;
	snprintf(stem, sizeof(stem), "%.4s", mn);
	reg = acc[p - sizes];
	cmp_like = !strcmp(stem, "cmps") || !strcmp(stem, "scas");
	if (*pre) {
		if (cmp_like && !strncmp(pre, "repne", 5))
			snprintf(prefix, sizeof(prefix), "repnz ");
		else if (cmp_like && !strncmp(pre, "rep", 3))
			snprintf(prefix, sizeof(prefix), "repz ");
		else
			snprintf(prefix, sizeof(prefix), "%s", pre);
	}
	if (!strcmp(stem, "stos")) {
		snprintf(full, sizeof(full), "%sstos", prefix);
		strbuf_addf(sb, "%-6s %%%s,%%es:(%%rdi)", full, reg);
	} else if (!strcmp(stem, "lods")) {
		snprintf(full, sizeof(full), "%slods", prefix);
		strbuf_addf(sb, "%-6s %%ds:(%%rsi),%%%s", full, reg);
	} else if (!strcmp(stem, "scas")) {
		snprintf(full, sizeof(full), "%sscas", prefix);
		strbuf_addf(sb, "%-6s %%es:(%%rdi),%%%s", full, reg);
	} else if (!strcmp(stem, "movs")) {
		snprintf(full, sizeof(full), "%s%s", prefix, mn);
		strbuf_addf(sb, "%-6s %%ds:(%%rsi),%%es:(%%rdi)", full);
	} else if (!strcmp(stem, "cmps")) {
		snprintf(full, sizeof(full), "%s%s", prefix, mn);
		strbuf_addf(sb, "%-6s %%es:(%%rdi),%%ds:(%%rsi)", full);
	} else {
		return false;
	}
	return true;
}

static void add_hex_signed(struct strbuf *sb, s64 v)
{
	if (v < 0)
		strbuf_addf(sb, "-0x%" PRIx64, (u64)-v);
	else
		strbuf_addf(sb, "0x%" PRIx64, (u64)v);
}

static void format_att(struct disasm *d, csh cs, const cs_insn *in, struct strbuf *sb)
{
	const cs_x86 *x = &in->detail->x86;
	const char *iname = cs_insn_name(cs, in->id);
	char mn[64], pre[64] = "";
	const char *sp = strrchr(in->mnemonic, ' ');
	bool has_reg = false, string_op, cs_nop = false, drop_seg = false;
	u64 rip_target = 0;
	bool has_rip = false;
	size_t ml, il;
	struct strbuf ops = STRBUF_INIT;

	/* "lock cmpxchgl": the prefixes are printed as they are */
	if (sp) {
		snprintf(pre, sizeof(pre), "%.*s ", (int)(sp - in->mnemonic), in->mnemonic);
		snprintf(mn, sizeof(mn), "%s", sp + 1);
	} else {
		snprintf(mn, sizeof(mn), "%s", in->mnemonic);
	}
	for (int i = 0; i < x->op_count; i++)
		if (x->operands[i].type == X86_OP_REG &&
		    is_gpr(cs_reg_name(cs, x->operands[i].reg)))
			has_reg = true;
	string_op = is_string_op(mn);
	/* movsd/cmpsd on xmm registers are SSE, not string operations */
	for (int i = 0; string_op && i < x->op_count; i++)
		if (x->operands[i].type == X86_OP_REG &&
		    !strncmp(cs_reg_name(cs, x->operands[i].reg), "xmm", 3))
			string_op = false;
	if (string_op && format_string_op(pre, mn, sb))
		return;
	ml = strlen(mn);
	il = iname ? strlen(iname) : 0;
	/* capstone's AT&T size suffix: objdump only keeps it where no register tells the size */
	if (iname && ml == il + 1 && !strncmp(mn, iname, il) && strchr("bwlq", mn[il]) &&
	    (has_reg || never_suffixed(in->id)))
		mn[il] = 0;
	if (!strcmp(mn, "movd")) {
		for (int i = 0; i < x->op_count; i++)
			if (x->operands[i].type == X86_OP_REG &&
			    is_gpr64(cs_reg_name(cs, x->operands[i].reg)))
				snprintf(mn, sizeof(mn), "movq");
	}
	if (x86_prefixes(in, false, string_op, pre, mn, sizeof(mn), &cs_nop, &drop_seg, sb))
		return;
	/* the one-byte xchg (90+r): objdump names the accumulator first */
	if (in->id == X86_INS_XCHG && x->op_count == 2 && in->size <= 2 &&
	    (in->bytes[in->size - 1] & 0xf8) == 0x90) {
		cs_x86_op t = x->operands[0];

		((cs_x86 *)x)->operands[0] = x->operands[1];
		((cs_x86 *)x)->operands[1] = t;
	}
	/* an EVEX write mask: objdump writes {%kN} after the destination, capstone an operand */
	u8 evex_mask = 0;

	if (in->size > 4 && in->bytes[0] == 0x62)
		evex_mask = in->bytes[3] & 7;
	for (int i = 0; i < x->op_count; i++) {
		const cs_x86_op *op = &x->operands[i];

		if (evex_mask && op->type == X86_OP_REG) {
			const char *rn = cs_reg_name(cs, op->reg);

			if (rn && rn[0] == 'k' && rn[1] - '0' == evex_mask && !rn[2])
				continue;
		}
		/* a shift or rotate by one (D0/D1) has no immediate in objdump's text */
		if (op->type == X86_OP_IMM && !x->encoding.imm_size && is_shift(in->id))
			continue;
		if (ops.len)
			strbuf_addch(&ops, ',');
		switch (op->type) {
		case X86_OP_REG:
			if ((in->id == X86_INS_JMP || in->id == X86_INS_CALL) && x->op_count == 1)
				strbuf_addch(&ops, '*');
			/* the I/O port in dx: objdump writes it as an address, "(%dx)" */
			if (op->reg == X86_REG_DX && is_port_io(in->id))
				strbuf_addstr(&ops, "(%dx)");
			else
				strbuf_addf(&ops, "%%%s", cs_reg_name(cs, op->reg));
			break;
		case X86_OP_IMM:
			if (is_branch(in->id)) {
				branch_target(d, &ops, (u64)op->imm);
			} else {
				u64 v = (u64)op->imm;
				unsigned int sz = op->size ? op->size : 8;

				/* xabort's imm8 is no address: objdump shows its byte */
				if (in->id == X86_INS_XABORT)
					sz = 1;
				if (sz < 8)
					v &= (1ULL << (sz * 8)) - 1;
				strbuf_addf(&ops, "$0x%" PRIx64, v);
			}
			break;
		case X86_OP_MEM: {
			const x86_op_mem *m = &op->mem;
			x86_reg seg = m->segment;

			if ((in->id == X86_INS_JMP || in->id == X86_INS_CALL) && x->op_count == 1)
				strbuf_addch(&ops, '*');
			if (string_op && seg == X86_REG_INVALID) {
				if (m->base == X86_REG_RDI || m->base == X86_REG_EDI)
					seg = X86_REG_ES;
				else if (m->base == X86_REG_RSI || m->base == X86_REG_ESI)
					seg = X86_REG_DS;
			}
			if (seg != X86_REG_INVALID && !cs_nop && !drop_seg)
				strbuf_addf(&ops, "%%%s:", cs_reg_name(cs, seg));
			if (m->base == X86_REG_RIP) {
				add_hex_signed(&ops, m->disp);
				has_rip = true;
				rip_target = in->address + in->size + (u64)m->disp;
			} else if (m->base == X86_REG_INVALID && m->index == X86_REG_INVALID) {
				strbuf_addf(&ops, "0x%" PRIx64, (u64)m->disp);
			} else if (x->encoding.disp_size || m->disp) {
				add_hex_signed(&ops, m->disp);
			}
			if (m->base != X86_REG_INVALID || m->index != X86_REG_INVALID) {
				strbuf_addch(&ops, '(');
				if (m->base != X86_REG_INVALID)
					strbuf_addf(&ops, "%%%s", cs_reg_name(cs, m->base));
				if (m->index != X86_REG_INVALID)
					strbuf_addf(&ops, ",%%%s,%d", cs_reg_name(cs, m->index),
						    m->scale);
				strbuf_addch(&ops, ')');
			}
			break;
		}
		default:
			break;
		}
	}
	if (evex_mask) {
		strbuf_addf(&ops, "{%%k%u}", evex_mask);
		if (in->bytes[3] & 0x80)
			strbuf_addstr(&ops, "{z}");
	}
	/* x87 on a stack register: objdump writes the implied %st too (source first) */
	if (x87_pair(in))
		add_st(&ops, "%st", x87_pair(in) == 2);
	emit_insn(d, sb, pre, mn, &ops, has_rip, rip_target);
}


/* objdump's Intel size keyword of a memory operand of @size bytes */
static const char *intel_size(unsigned int size)
{
	switch (size) {
	case 1:
		return "BYTE PTR ";
	case 2:
		return "WORD PTR ";
	case 4:
		return "DWORD PTR ";
	case 8:
		return "QWORD PTR ";
	case 10:
		return "TBYTE PTR ";
	case 16:
		return "XMMWORD PTR ";
	case 32:
		return "YMMWORD PTR ";
	case 64:
		return "ZMMWORD PTR ";
	default:
		return "";
	}
}

/* "[rbp-0x18]", "[rax+rax*1+0x0]", "fs:0x28", "ds:0x601040" */
static void intel_mem(csh cs, const cs_insn *in, const cs_x86_op *op, x86_reg seg,
		      struct strbuf *sb)
{
	const cs_x86 *x = &in->detail->x86;
	const x86_op_mem *m = &op->mem;

	if (m->base == X86_REG_INVALID && m->index == X86_REG_INVALID) {
		strbuf_addf(sb, "%s:0x%" PRIx64, seg != X86_REG_INVALID ? cs_reg_name(cs, seg) : "ds",
			    (u64)m->disp);
		return;
	}
	if (seg != X86_REG_INVALID)
		strbuf_addf(sb, "%s:", cs_reg_name(cs, seg));
	strbuf_addch(sb, '[');
	if (m->base != X86_REG_INVALID)
		strbuf_addstr(sb, cs_reg_name(cs, m->base));
	if (m->index != X86_REG_INVALID)
		strbuf_addf(sb, "%s%s*%d", m->base != X86_REG_INVALID ? "+" : "",
			    cs_reg_name(cs, m->index), m->scale);
	if (m->base == X86_REG_RIP) {
		/* objdump -M intel: a rip displacement as an unsigned 64-bit number */
		strbuf_addf(sb, "+0x%" PRIx64, (u64)m->disp);
	} else if (x->encoding.disp_size || m->disp) {
		if (m->disp < 0)
			strbuf_addf(sb, "-0x%" PRIx64, (u64)-m->disp);
		else
			strbuf_addf(sb, "+0x%" PRIx64, (u64)m->disp);
	}
	strbuf_addch(sb, ']');
}

/* objdump -M intel: destination first, "QWORD PTR [rbp-0x8]", bare registers and numbers */
static void format_intel(struct disasm *d, csh cs, const cs_insn *in, struct strbuf *sb)
{
	const cs_x86 *x = &in->detail->x86;
	char mn[64], pre[64] = "";
	const char *sp = strrchr(in->mnemonic, ' ');
	bool string_op = false, cs_nop = false, drop_seg = false, has_rip = false;
	u64 rip_target = 0;
	struct strbuf ops = STRBUF_INIT;

	if (sp) {
		snprintf(pre, sizeof(pre), "%.*s ", (int)(sp - in->mnemonic), in->mnemonic);
		snprintf(mn, sizeof(mn), "%s", sp + 1);
	} else {
		snprintf(mn, sizeof(mn), "%s", in->mnemonic);
	}
	/* "rep stos QWORD PTR es:[rdi],rax": the size is in the operands, not the name */
	{
		static const char *const str_ops[] = { "stos", "movs", "cmps", "scas", "lods",
						       "ins", "outs" };
		size_t ml = strlen(mn);

		for (size_t i = 0; i < sizeof(str_ops) / sizeof(str_ops[0]); i++) {
			size_t l = strlen(str_ops[i]);

			if (!strncmp(mn, str_ops[i], l) &&
			    (ml == l || (ml == l + 1 && strchr("bwdq", mn[l])))) {
				/* movsd/cmpsd with xmm operands are SSE, not string operations */
				bool sse = false;

				for (int k = 0; k < x->op_count; k++)
					if (x->operands[k].type == X86_OP_REG &&
					    !strncmp(cs_reg_name(cs, x->operands[k].reg), "xmm", 3))
						sse = true;
				if (!sse && x->op_count) {
					mn[l] = 0;
					string_op = true;
				}
			}
		}
	}
	if (x86_prefixes(in, true, string_op, pre, mn, sizeof(mn), &cs_nop, &drop_seg, sb))
		return;
	/* the one-byte xchg (90+r): objdump names the accumulator last */
	int first = 0, step = 1;

	if (in->id == X86_INS_XCHG && x->op_count == 2 && in->size <= 2 &&
	    (in->bytes[in->size - 1] & 0xf8) == 0x90) {
		first = 1;
		step = -1;
	}
	for (int k = 0, i = first; k < x->op_count; k++, i += step) {
		const cs_x86_op *op = &x->operands[i];

		if (ops.len)
			strbuf_addch(&ops, ',');
		switch (op->type) {
		case X86_OP_REG:
			strbuf_addstr(&ops, cs_reg_name(cs, op->reg));
			break;
		case X86_OP_IMM:
			if (is_branch(in->id)) {
				branch_target(d, &ops, (u64)op->imm);
			} else if (!x->encoding.imm_size && is_shift(in->id)) {
				strbuf_addstr(&ops, "1"); /* D0/D1: a shift by one */
			} else {
				u64 v = (u64)op->imm;
				unsigned int sz = op->size ? op->size : 8;

				if (in->id == X86_INS_XABORT)
					sz = 1;
				if (sz < 8)
					v &= (1ULL << (sz * 8)) - 1;
				strbuf_addf(&ops, "0x%" PRIx64, v);
			}
			break;
		case X86_OP_MEM: {
			x86_reg seg = op->mem.segment;

			if (string_op && seg == X86_REG_INVALID) {
				if (op->mem.base == X86_REG_RDI || op->mem.base == X86_REG_EDI)
					seg = X86_REG_ES;
				else if (op->mem.base == X86_REG_RSI || op->mem.base == X86_REG_ESI)
					seg = X86_REG_DS;
			}
			if (cs_nop || drop_seg)
				seg = X86_REG_INVALID;
			if (in->id != X86_INS_LEA)
				strbuf_addstr(&ops, intel_size(op->size));
			intel_mem(cs, in, op, seg, &ops);
			if (op->mem.base == X86_REG_RIP) {
				has_rip = true;
				rip_target = in->address + in->size + (u64)op->mem.disp;
			}
			break;
		}
		default:
			break;
		}
	}
	/* x87 on a stack register: objdump writes the implied st too (destination first) */
	if (x87_pair(in))
		add_st(&ops, "st", x87_pair(in) == 1);
	emit_insn(d, sb, pre, mn, &ops, has_rip, rip_target);
}

void disasm_format_insn(struct disasm *d, csh cs, bool intel, const cs_insn *in,
			struct strbuf *sb)
{
	/* 9b alone: objdump's name is fwait in either syntax */
	if (in->id == X86_INS_WAIT && in->size == 1) {
		strbuf_addstr(sb, "fwait");
		return;
	}
	if (intel)
		format_intel(d, cs, in, sb);
	else
		format_att(d, cs, in, sb);
}

size_t disasm_format_unknown(const u8 *b, size_t left, struct strbuf *sb)
{
	/* the protection-key register instructions (0f 01 ee/ef) */
	if (left >= 3 && b[0] == 0x0f && b[1] == 0x01 && (b[2] == 0xee || b[2] == 0xef)) {
		strbuf_addstr(sb, b[2] == 0xee ? "rdpkru" : "wrpkru");
		return 3;
	}
	return 0;
}

/* ---- what capstone does not decode the way objdump shows it ---- */

/* objdump's name of a lone prefix byte, or NULL */
static const char *prefix_name(u8 b)
{
	static const char *const rex[16] = {
		"rex",	 "rex.B",  "rex.X",  "rex.XB",	"rex.R",  "rex.RB",  "rex.RX",	"rex.RXB",
		"rex.W", "rex.WB", "rex.WX", "rex.WXB", "rex.WR", "rex.WRB", "rex.WRX", "rex.WRXB",
	};

	if (b >= 0x40 && b <= 0x4f)
		return rex[b - 0x40];
	switch (b) {
	case 0x66: return "data16";
	case 0x67: return "addr32";
	case 0xf2: return "repnz";
	case 0xf3: return "repz";
	case 0xf0: return "lock";
	case 0x2e: return "cs";
	case 0x36: return "ss";
	case 0x3e: return "ds";
	case 0x26: return "es";
	case 0x64: return "fs";
	case 0x65: return "gs";
	default: return NULL;
	}
}

/* the length of the instruction at @b (capstone's, or the AVX-512 decoders'), 0 when none */
static size_t insn_length(struct disasm *d, csh cs, const u8 *b, size_t left, u64 addr)
{
	struct strbuf scratch = STRBUF_INIT;
	const u8 *code = b;
	size_t size = left, n = 0;
	cs_insn *in = cs_malloc(cs);

	if (in && cs_disasm_iter(cs, &code, &size, &addr, in))
		n = in->size;
	if (in)
		cs_free(in, 1);
	if (!n && !(n = evex_format(d, b, left, addr, &scratch)) &&
	    !(n = vex_kmask_format(b, left, &scratch)) &&
	    !(n = disasm_format_unknown(b, left, &scratch)))
		n = evex_length(b, left);
	strbuf_release(&scratch);
	return n;
}

/*
 * cut_insn - an instruction that the end of the bytes cuts short (the
 * next symbol or the section's end comes first): objdump shows its first
 * byte alone, as the prefix it is ("rex.W", "data16") or ".byte 0x89", and
 * decodes again from the next one. Fills @sb and returns true then.
 */
bool disasm_cut_insn(struct disasm *d, csh cs, const u8 *b, size_t left, struct strbuf *sb)
{
	/* what may follow: memory and register ModRM forms, a few VEX opcodes */
	static const u8 fills[] = { 0x00, 0xc0, 0x10, 0x58, 0x77 };
	u8 pad[32];
	const char *name;
	bool cut = false;

	if (!left || left >= 16)
		return false;
	/* cut short: some next byte makes it an instruction longer than what is there */
	for (unsigned int v = 0; v < 256 && !cut; v++) {
		for (size_t f = 0; f < sizeof(fills) && !cut; f++) {
			memset(pad, fills[f], sizeof(pad));
			memcpy(pad, b, left);
			pad[left] = (u8)v;
			cut = insn_length(d, cs, pad, sizeof(pad), 0) > left;
		}
	}
	if (!cut)
		return false;
	name = prefix_name(b[0]);
	if (name)
		strbuf_addstr(sb, name);
	else
		strbuf_addf(sb, ".byte 0x%x", b[0]);
	return true;
}

/*
 * rex_vex - a REX prefix before a VEX instruction, which capstone refuses:
 * objdump prints the prefix as a word ("rex.W vpcmpeqd 0x40(%rdi),...").
 * Returns the length (0: not one) with the text in @sb.
 */
size_t disasm_rex_vex(struct disasm *d, csh cs, bool intel, const u8 *b, size_t left, u64 addr,
		      struct strbuf *sb)
{
	struct strbuf t = STRBUF_INIT;
	const u8 *code = b + 1;
	size_t size = left - 1, n = 0;
	cs_insn *in;
	const char *sp;

	if (left < 3 || b[0] < 0x40 || b[0] > 0x4f || (b[1] != 0xc4 && b[1] != 0xc5))
		return 0;
	in = cs_malloc(cs);
	addr++;
	if (in && cs_disasm_iter(cs, &code, &size, &addr, in)) {
		disasm_format_insn(d, cs, intel, in, &t);
		/* "vmovd  %xmm0,%eax": with the prefix the name is past six columns, one blank */
		sp = strchr(t.buf, ' ');
		if (sp) {
			strbuf_addf(sb, "%s %.*s ", prefix_name(b[0]), (int)(sp - t.buf), t.buf);
			strbuf_addstr(sb, sp + strspn(sp, " "));
		} else {
			strbuf_addf(sb, "%s %s", prefix_name(b[0]), t.buf);
		}
		n = 1 + in->size;
	}
	if (in)
		cs_free(in, 1);
	strbuf_release(&t);
	return n;
}

/*
 * zero_run - objdump's "..." over zero bytes at @b (@left to the piece's
 * end): a run of eight or more is skipped in whole words of four, and one
 * reaching the end when it is that long or under three bytes. Returns the
 * bytes skipped, 0 to decode them.
 */
size_t disasm_zero_run(const u8 *b, size_t left)
{
	size_t n = 0;

	while (n < left && !b[n])
		n++;
	if (!n)
		return 0;
	if (n == left)
		return n >= 8 || n < 3 ? n : 0;
	return n >= 8 ? n & ~(size_t)3 : 0;
}
