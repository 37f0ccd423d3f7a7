/* SPDX-License-Identifier: MIT */
/* AVX-512 (EVEX) instructions capstone 4 does not decode, in objdump's AT&T text. */
#include "symbol/disasm-internal.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

size_t evex_length(const u8 *b, size_t left)
{
	size_t len = 6;
	u8 map, op, modrm, mod, rm;

	if (left < 6 || b[0] != 0x62)
		return 0;
	map = b[1] & 3;
	op = b[4];
	modrm = b[5];
	mod = modrm >> 6;
	rm = modrm & 7;
	if (mod != 3 && rm == 4) {
		if (left < 7)
			return 0;
		if (mod == 0 && (b[6] & 7) == 5)
			len += 4;
		len++;
	}
	if (mod == 1)
		len += 1;
	else if (mod == 2 || (mod == 0 && rm == 5))
		len += 4;
	if (map == 3 || (map == 1 && ((op >= 0x70 && op <= 0x73) || op == 0xc2 ||
				      (op >= 0xc4 && op <= 0xc6))))
		len++;
	return len <= left ? len : 0;
}

static const char *const gpr64[16] = {
	"rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi",
	"r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15",
};
static const char *const gpr32[16] = {
	"eax", "ecx", "edx", "ebx", "esp", "ebp", "esi", "edi",
	"r8d", "r9d", "r10d", "r11d", "r12d", "r13d", "r14d", "r15d",
};

/* the decoded fields */
struct evex {
	unsigned int map, pp, w, len_bytes, mask, z;
	unsigned int reg, vvvv, rm; /* rm: a register when mod == 3 */
	unsigned int mod;
	char vec;		    /* 'x', 'y', 'z' */
};

enum evex_form {
	F_RM_V_R,	/* op rm, vvvv, reg */
	F_IMM_RM_V_R,	/* op $imm, rm, vvvv, reg */
	F_RM_R,		/* op rm, reg (loads) */
	F_R_RM,		/* op reg, rm (stores) */
	F_RM_V_K,	/* op rm, vvvv, %k (compares, tests) */
	F_CMP_RM_V_K,	/* vpcmp[u]b: the predicate in the name, or $imm */
	F_GPR_R,	/* op %r32, reg (broadcast from a general register) */
};

struct evex_op {
	unsigned int map, pp, opcode;
	int w; /* -1: any */
	const char *name;
	enum evex_form form;
};

static const struct evex_op evex_ops[] = {
	{ 1, 1, 0xef, 1, "vpxorq", F_RM_V_R },
	{ 1, 1, 0xef, 0, "vpxord", F_RM_V_R },
	{ 1, 1, 0xda, -1, "vpminub", F_RM_V_R },
	{ 1, 1, 0xde, -1, "vpmaxub", F_RM_V_R },
	{ 3, 1, 0x25, 0, "vpternlogd", F_IMM_RM_V_R },
	{ 3, 1, 0x25, 1, "vpternlogq", F_IMM_RM_V_R },
	{ 1, 1, 0x6f, 1, "vmovdqa64", F_RM_R },
	{ 1, 1, 0x6f, 0, "vmovdqa32", F_RM_R },
	{ 1, 2, 0x6f, 1, "vmovdqu64", F_RM_R },
	{ 1, 2, 0x6f, 0, "vmovdqu32", F_RM_R },
	{ 1, 3, 0x6f, 0, "vmovdqu8", F_RM_R },
	{ 1, 3, 0x6f, 1, "vmovdqu16", F_RM_R },
	{ 1, 1, 0x7f, 1, "vmovdqa64", F_R_RM },
	{ 1, 1, 0x7f, 0, "vmovdqa32", F_R_RM },
	{ 1, 2, 0x7f, 1, "vmovdqu64", F_R_RM },
	{ 1, 2, 0x7f, 0, "vmovdqu32", F_R_RM },
	{ 1, 3, 0x7f, 0, "vmovdqu8", F_R_RM },
	{ 1, 3, 0x7f, 1, "vmovdqu16", F_R_RM },
	{ 2, 1, 0x26, 0, "vptestmb", F_RM_V_K },
	{ 2, 2, 0x26, 0, "vptestnmb", F_RM_V_K },
	{ 1, 1, 0x74, -1, "vpcmpeqb", F_RM_V_K },
	{ 1, 1, 0x64, -1, "vpcmpgtb", F_RM_V_K },
	{ 3, 1, 0x3f, 0, "b", F_CMP_RM_V_K },
	{ 3, 1, 0x3e, 0, "ub", F_CMP_RM_V_K },
	{ 2, 1, 0x7a, 0, "vpbroadcastb", F_GPR_R },
};

static void vreg(struct strbuf *sb, char vec, unsigned int n)
{
	strbuf_addf(sb, "%%%cmm%u", vec, n);
}

/* the memory operand, rip-relative target in *@rip when it is one */
static size_t mem_operand(const u8 *b, size_t left, const struct evex *e, struct strbuf *sb,
			  bool *is_rip, s64 *rip_disp)
{
	size_t pos = 6;
	u8 modrm = b[5], rm = modrm & 7;
	bool x = !(b[1] & 0x40), bb = !(b[1] & 0x20);
	int base = -1, index = -1, scale = 1;
	s64 disp = 0;
	bool has_disp = false;

	*is_rip = false;
	if (rm == 4) {
		u8 sib;

		if (left < 7)
			return 0;
		sib = b[pos++];
		scale = 1 << (sib >> 6);
		index = ((sib >> 3) & 7) | (x << 3);
		if (index == 4)
			index = -1;
		base = (sib & 7) | (bb << 3);
		if ((sib & 7) == 5 && e->mod == 0)
			base = -1;
	} else if (rm == 5 && e->mod == 0) {
		*is_rip = true;
	} else {
		base = rm | (bb << 3);
	}
	if (e->mod == 1) {
		if (pos + 1 > left)
			return 0;
		disp = (s64)(int8_t)b[pos++] * (s64)e->len_bytes;
		has_disp = true;
	} else if (e->mod == 2 || *is_rip || (e->mod == 0 && base < 0)) {
		int32_t v;

		if (pos + 4 > left)
			return 0;
		memcpy(&v, b + pos, 4);
		pos += 4;
		disp = v;
		has_disp = true;
	}
	if (*is_rip) {
		*rip_disp = disp;
		strbuf_addf(sb, disp < 0 ? "-0x%" PRIx64 "(%%rip)" : "0x%" PRIx64 "(%%rip)",
			    (u64)(disp < 0 ? -disp : disp));
		return pos;
	}
	if (has_disp && (disp || base < 0))
		strbuf_addf(sb, disp < 0 ? "-0x%" PRIx64 : "0x%" PRIx64, (u64)(disp < 0 ? -disp : disp));
	else if (has_disp && e->mod == 1)
		strbuf_addstr(sb, "0x0");
	strbuf_addch(sb, '(');
	if (base >= 0)
		strbuf_addf(sb, "%%%s", gpr64[base]);
	if (index >= 0)
		strbuf_addf(sb, ",%%%s,%d", gpr64[index], scale);
	strbuf_addch(sb, ')');
	return pos;
}

static const char *const cmp_pred[8] = { "eq", "lt", "le", NULL, "neq", "nlt", "nle", NULL };

size_t evex_format(struct disasm *d, const u8 *b, size_t left, u64 addr, struct strbuf *sb)
{
	const struct evex_op *op = NULL;
	struct evex e;
	struct strbuf rmtext = STRBUF_INIT;
	size_t len = evex_length(b, left), pos;
	bool is_rip = false;
	s64 rip_disp = 0;
	u8 modrm, ll;
	char name[32];
	u8 imm = 0;

	if (!len || (b[1] & 0x0c) || !(b[2] & 0x04))
		return 0;
	memset(&e, 0, sizeof(e));
	e.map = b[1] & 3;
	e.pp = b[2] & 3;
	e.w = b[2] >> 7;
	e.mask = b[3] & 7;
	e.z = b[3] >> 7;
	ll = (b[3] >> 5) & 3;
	if (ll == 3 || (b[3] & 0x10)) /* no 512+ lengths; no broadcast or rounding */
		return 0;
	e.vec = "xyz"[ll];
	e.len_bytes = 16u << ll;
	modrm = b[5];
	e.mod = modrm >> 6;
	e.reg = ((modrm >> 3) & 7) | (!(b[1] & 0x80) << 3) | (!(b[1] & 0x10) << 4);
	e.vvvv = ((~b[2] >> 3) & 0xf) | (!(b[3] & 0x08) << 4);
	e.rm = (modrm & 7) | (!(b[1] & 0x20) << 3) | (!(b[1] & 0x40) << 4);
	for (size_t i = 0; i < sizeof(evex_ops) / sizeof(evex_ops[0]); i++) {
		const struct evex_op *o = &evex_ops[i];

		if (o->map == e.map && o->pp == e.pp && o->opcode == b[4] &&
		    (o->w < 0 || (unsigned int)o->w == e.w)) {
			op = o;
			break;
		}
	}
	if (!op)
		return 0;
	if (e.mod == 3) {
		if (op->form == F_GPR_R)
			strbuf_addf(&rmtext, "%%%s", gpr32[e.rm & 15]);
		else
			vreg(&rmtext, e.vec, e.rm);
		pos = 6;
	} else {
		if (op->form == F_GPR_R)
			goto unknown;
		pos = mem_operand(b, left, &e, &rmtext, &is_rip, &rip_disp);
		if (!pos)
			goto unknown;
	}
	if (op->form == F_IMM_RM_V_R || op->form == F_CMP_RM_V_K)
		imm = b[pos++];
	if (pos != len)
		goto unknown;
	snprintf(name, sizeof(name), "%s", op->name);
	if (op->form == F_CMP_RM_V_K) {
		if (imm < 8 && cmp_pred[imm])
			snprintf(name, sizeof(name), "vpcmp%s%s", cmp_pred[imm], op->name);
		else
			snprintf(name, sizeof(name), "vpcmp%s", op->name);
	}
	strbuf_addf(sb, "%-6s ", name);
	switch (op->form) {
	case F_IMM_RM_V_R:
		strbuf_addf(sb, "$0x%x,", imm);
		/* fall through */
	case F_RM_V_R:
		strbuf_addf(sb, "%s,", rmtext.buf);
		vreg(sb, e.vec, e.vvvv);
		strbuf_addch(sb, ',');
		vreg(sb, e.vec, e.reg);
		break;
	case F_RM_R:
	case F_GPR_R:
		strbuf_addf(sb, "%s,", rmtext.buf);
		vreg(sb, e.vec, e.reg);
		break;
	case F_R_RM:
		vreg(sb, e.vec, e.reg);
		strbuf_addf(sb, ",%s", rmtext.buf);
		break;
	case F_CMP_RM_V_K:
		if (imm >= 8 || !cmp_pred[imm])
			strbuf_addf(sb, "$0x%x,", imm);
		/* fall through */
	case F_RM_V_K:
		strbuf_addf(sb, "%s,", rmtext.buf);
		vreg(sb, e.vec, e.vvvv);
		strbuf_addf(sb, ",%%k%u", e.reg & 7);
		break;
	}
	if (e.mask)
		strbuf_addf(sb, "{%%k%u}", e.mask);
	if (e.z)
		strbuf_addstr(sb, "{z}");
	if (is_rip) {
		char lab[512];
		u64 target = addr + len + (u64)rip_disp;

		if (disasm_label(d, target, lab, sizeof(lab)))
			strbuf_addf(sb, "        # %" PRIx64 " <%s>", target, lab);
		else
			strbuf_addf(sb, "        # 0x%" PRIx64, target);
	}
	strbuf_release(&rmtext);
	return len;
unknown:
	strbuf_release(&rmtext);
	return 0;
}

/* the mask-register instructions (VEX, map 0F) that go with them */
size_t vex_kmask_format(const u8 *b, size_t left, struct strbuf *sb)
{
	unsigned int r, w, vvvv, pp, map, op, modrm, reg, rm;
	size_t pos;
	const char *sfx;
	char name[16];

	if (left < 4 || (b[0] != 0xc4 && b[0] != 0xc5))
		return 0;
	if (b[0] == 0xc5) {
		r = !(b[1] & 0x80);
		w = 0;
		vvvv = (~b[1] >> 3) & 0xf;
		pp = b[1] & 3;
		map = 1;
		pos = 2;
	} else {
		if (left < 5)
			return 0;
		r = !(b[1] & 0x80);
		map = b[1] & 0x1f;
		w = b[2] >> 7;
		vvvv = (~b[2] >> 3) & 0xf;
		pp = b[2] & 3;
		pos = 3;
		if (!(b[1] & 0x20)) /* VEX.B extends rm: a general register above r7 */
			map |= 0x100;
	}
	if ((map & 0xff) != 1)
		return 0;
	op = b[pos++];
	modrm = b[pos++];
	if ((modrm >> 6) != 3)
		return 0;
	reg = ((modrm >> 3) & 7) | (r << 3);
	rm = (modrm & 7) | ((map & 0x100) ? 8 : 0);
	switch (op) {
	case 0x93: /* kmov r, k */
	case 0x92: /* kmov k, r */
		sfx = pp == 3 ? (w ? "q" : "d") : pp == 1 ? "b" : pp == 0 && !w ? "w" : NULL;
		if (!sfx)
			return 0;
		snprintf(name, sizeof(name), "kmov%s", sfx);
		if (op == 0x93)
			strbuf_addf(sb, "%-6s %%k%u,%%%s", name, rm & 7,
				    w ? gpr64[reg] : gpr32[reg]);
		else
			strbuf_addf(sb, "%-6s %%%s,%%k%u", name, w ? gpr64[rm] : gpr32[rm],
				    reg & 7);
		return pos;
	case 0x98: /* kortest */
	case 0x99: /* ktest */
		sfx = pp == 0 ? (w ? "q" : "w") : pp == 1 ? (w ? "d" : "b") : NULL;
		if (!sfx)
			return 0;
		snprintf(name, sizeof(name), "%s%s", op == 0x98 ? "kortest" : "ktest", sfx);
		strbuf_addf(sb, "%-6s %%k%u,%%k%u", name, rm & 7, reg & 7);
		return pos;
	case 0x41: /* kand */
	case 0x42: /* kandn */
	case 0x45: /* kor */
	case 0x46: /* kxnor */
	case 0x47: /* kxor */
		sfx = pp == 0 ? (w ? "q" : "w") : pp == 1 ? (w ? "d" : "b") : NULL;
		if (!sfx)
			return 0;
		snprintf(name, sizeof(name), "%s%s",
			 op == 0x41 ? "kand" : op == 0x42 ? "kandn" : op == 0x45 ? "kor"
			 : op == 0x46 ? "kxnor" : "kxor", sfx);
		strbuf_addf(sb, "%-6s %%k%u,%%k%u,%%k%u", name, rm & 7, vvvv & 7, reg & 7);
		return pos;
	case 0x44: /* knot */
		sfx = pp == 0 ? (w ? "q" : "w") : pp == 1 ? (w ? "d" : "b") : NULL;
		if (!sfx)
			return 0;
		snprintf(name, sizeof(name), "knot%s", sfx);
		strbuf_addf(sb, "%-6s %%k%u,%%k%u", name, rm & 7, reg & 7);
		return pos;
	case 0x4b: /* kunpck */
		sfx = pp == 0 ? (w ? "dq" : "wd") : pp == 1 && !w ? "bw" : NULL;
		if (!sfx)
			return 0;
		snprintf(name, sizeof(name), "kunpck%s", sfx);
		strbuf_addf(sb, "%-6s %%k%u,%%k%u,%%k%u", name, rm & 7, vvvv & 7, reg & 7);
		return pos;
	default:
		return 0;
	}
}
