/* SPDX-License-Identifier: MIT */
/* DWARF for sonde probe: variable types, the variables live at an address, their fetch arguments. */
#include "symbol/probe-dwarf.h"
#include "symbol/probe-dwarf-internal.h"

#include "lib/xalloc.h"

#include <ctype.h>
#include <dwarf.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Types */

/* @die's type with typedefs kept, const/volatile dropped; false: none (void) */
static bool type_of(Dwarf_Die *die, Dwarf_Die *type)
{
	Dwarf_Attribute attr;

	if (!dwarf_formref_die(dwarf_attr_integrate(die, DW_AT_type, &attr), type))
		return false;
	for (;;) {
		int tag = dwarf_tag(type);

		if (tag != DW_TAG_const_type && tag != DW_TAG_volatile_type &&
		    tag != DW_TAG_restrict_type && tag != DW_TAG_atomic_type)
			return true;
		if (!dwarf_formref_die(dwarf_attr_integrate(type, DW_AT_type, &attr), type))
			return false;
	}
}

/* @type with typedefs resolved too */
static bool real_type(Dwarf_Die *type)
{
	while (dwarf_tag(type) == DW_TAG_typedef) {
		Dwarf_Die t;

		if (!type_of(type, &t))
			return false;
		*type = t;
	}
	return true;
}

/* perf's name of a type: "struct point*", "char**", "(function_type)*" */
static void type_name(Dwarf_Die *type, struct strbuf *out)
{
	Dwarf_Die sub;
	const char *name;

	switch (dwarf_tag(type)) {
	case DW_TAG_pointer_type:
	case DW_TAG_array_type:
		if (!type_of(type, &sub)) {
			strbuf_addstr(out, "(unknown_type)");
			return;
		}
		type_name(&sub, out);
		strbuf_addch(out, '*');
		return;
	case DW_TAG_subroutine_type:
		strbuf_addstr(out, "(function_type)");
		return;
	case DW_TAG_structure_type:
		strbuf_addstr(out, "struct ");
		break;
	case DW_TAG_union_type:
		strbuf_addstr(out, "union ");
		break;
	case DW_TAG_enumeration_type:
		strbuf_addstr(out, "enum ");
		break;
	default:
		break;
	}
	name = dwarf_diename(type);
	strbuf_addstr(out, name ? name : "");
}

static void var_type_name(Dwarf_Die *var, struct strbuf *out)
{
	Dwarf_Die type;

	if (type_of(var, &type))
		type_name(&type, out);
	else
		strbuf_addstr(out, "(unknown_type)");
}

/* ------------------------------------------------------------------ */
/* Variables */

/* where a value is: in a register, or in memory at OFF(BASE) or @SYM+OFF */
struct fetch {
	enum { IN_REG, IN_MEM, IN_SYM } kind;
	struct strbuf base; /* register, inner fetch text, or symbol */
	long off;
};

static int var_fetch(struct probe_binary *pb, const struct probe_dwarf_func *fn, Dwarf_Die *var,
		     u64 addr, bool multi, struct fetch *f, struct probe_dwarf_error *err);

/* the location expression of @var at @addr; false when it has none there */
static bool var_location(Dwarf_Die *var, u64 addr, Dwarf_Op **ops, size_t *nops)
{
	Dwarf_Attribute attr;

	Dwarf_Addr base, start, end;
	int n;

	if (!dwarf_attr_integrate(var, DW_AT_location, &attr))
		return false;
	n = dwarf_getlocation_addr(&attr, addr, ops, nops, 1);
	if (n == 0 && dwarf_tag(var) == DW_TAG_formal_parameter &&
	    !dwarf_hasattr(var, DW_AT_abstract_origin))
		/* perf takes a parameter's first location when none covers @addr */
		n = dwarf_getlocations(&attr, 0, &base, &start, &end, ops, nops) > 0;
	return n == 1 && *nops > 0;
}

/* perf reads a location by its first operation: these it can translate */
static bool op_supported(const Dwarf_Op *op)
{
	unsigned int a = op->atom;

	return a == DW_OP_addr || a == DW_OP_fbreg || a == DW_OP_regx || a == DW_OP_bregx ||
	       (a >= DW_OP_reg0 && a <= DW_OP_reg31) || (a >= DW_OP_breg0 && a <= DW_OP_breg31);
}

/*
 * --vars lists a variable with a location at @addr that perf can
 * translate (not constants nor computed values)
 */
static bool var_listed(struct probe_binary *pb, const struct probe_dwarf_func *fn, Dwarf_Die *var,
		       u64 addr)
{
	Dwarf_Op *ops;
	size_t nops;

	if (!var_location(var, addr, &ops, &nops) || !op_supported(&ops[0]))
		return false;
	if (ops[0].atom == DW_OP_fbreg) {
		/* a frame-base slot counts when the frame base can be read there */
		struct fetch f = { .base = STRBUF_INIT };
		struct probe_dwarf_error err;
		int ret = var_fetch(pb, fn, var, addr, false, &f, &err);

		strbuf_release(&f.base);
		return !ret;
	}
	return true;
}

static bool is_var_tag(int tag)
{
	return tag == DW_TAG_variable || tag == DW_TAG_formal_parameter;
}

/* the scopes at @addr from innermost up to @fn's own DIE; *scopes malloc'ed */
static int fn_scopes(const struct probe_dwarf_func *fn, u64 addr, Dwarf_Die **scopes)
{
	return probe_dwarf_scope_chain((Dwarf_Die *)(fn->is_inlined ? &fn->die : &fn->caller), addr, scopes);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * --range: where @var has a location, relative to the entry of the
 * function around the point: its location list's entries, or for a single
 * location the ranges of @scope, the DIE that holds it
 */
static void var_ranges(const struct probe_dwarf_func *fn, Dwarf_Die *var, Dwarf_Die *scope,
		       struct strbuf *out)
{
	Dwarf_Attribute attr;
	Dwarf_Addr base, start, end;
	Dwarf_Op *ops;
	size_t nops;
	ptrdiff_t off = 0;
	u64 entry = fn->caller_entry;
	bool first = true;

	strbuf_addf(out, "@<%s+[", fn->caller_name ? fn->caller_name : "");
	if (dwarf_attr_integrate(var, DW_AT_location, &attr) &&
	    (off = dwarf_getlocations(&attr, 0, &base, &start, &end, &ops, &nops)) > 0 &&
	    !(start == 0 && end == (Dwarf_Addr)-1)) {
		do {
			strbuf_addf(out, "%s%llu-%llu", first ? "" : ",",
				    (unsigned long long)(start - entry), (unsigned long long)(end - entry));
			first = false;
		} while ((off = dwarf_getlocations(&attr, off, &base, &start, &end, &ops, &nops)) > 0);
	} else if (scope) {
		off = 0;
		while ((off = dwarf_ranges(scope, off, &base, &start, &end)) > 0) {
			strbuf_addf(out, "%s%llu-%llu", first ? "" : ",",
				    (unsigned long long)(start - entry), (unsigned long long)(end - entry));
			first = false;
		}
	}
	strbuf_addstr(out, "]>");
}

/*
 * a location list with a non-empty entry, none of which covers @addr:
 * --range's [INV] (perf leaves out lists of empty entries only)
 */
static bool var_out_of_range(Dwarf_Die *var, u64 addr)
{
	Dwarf_Attribute attr;
	Dwarf_Addr base, start, end;
	Dwarf_Op *ops;
	size_t nops;
	ptrdiff_t off = 0;
	bool some = false;

	if (!dwarf_attr_integrate(var, DW_AT_location, &attr))
		return false;
	while (!some && (off = dwarf_getlocations(&attr, off, &base, &start, &end, &ops, &nops)) > 0) {
		if (start == 0 && end == (Dwarf_Addr)-1)
			return false;
		some = start < end;
	}
	return some && dwarf_getlocation_addr(&attr, addr, &ops, &nops, 1) == 0;
}

static void add_var(struct probe_binary *pb, const struct probe_dwarf_func *fn, Dwarf_Die *var,
		    Dwarf_Die *scope, u64 addr, unsigned int flags, struct strvec *out)
{
	struct strbuf sb = STRBUF_INIT;
	const char *name = dwarf_diename(var);
	bool is_extern = flags & PROBE_VARS_EXTERN;
	bool listed, inv = false;

	if (!name)
		return;
	/* a CU's extern declarations count with --externs, as in perf */
	listed = var_listed(pb, fn, var, addr) || (is_extern && dwarf_hasattr(var, DW_AT_declaration));
	if (!listed && (flags & PROBE_VARS_RANGE))
		inv = var_out_of_range(var, addr);
	if (!listed && !inv)
		return;
	if (flags & PROBE_VARS_RANGE)
		strbuf_addstr(&sb, is_extern ? "[EXT]\t" : inv ? "[INV]\t" : "[VAL]\t");
	var_type_name(var, &sb);
	strbuf_addf(&sb, "\t%s", name);
	/* perf gives the CU's globals no range */
	if ((flags & PROBE_VARS_RANGE) && !is_extern) {
		strbuf_addch(&sb, '\t');
		var_ranges(fn, var, scope, &sb);
	}
	strvec_push(out, sb.buf);
	strbuf_release(&sb);
}

int probe_dwarf_vars(struct probe_binary *pb, const struct probe_dwarf_func *fn, u64 addr,
		     unsigned int flags, struct strvec *out)
{
	Dwarf_Die *scopes = NULL, child;
	int n = fn_scopes(fn, addr, &scopes);

	for (int i = 0; i < n; i++) {
		if (dwarf_child(&scopes[i], &child))
			continue;
		do {
			if (is_var_tag(dwarf_tag(&child)))
				add_var(pb, fn, &child, &scopes[i], addr, flags & ~PROBE_VARS_EXTERN, out);
		} while (!dwarf_siblingof(&child, &child));
	}
	free(scopes);
	if ((flags & PROBE_VARS_EXTERN) && !dwarf_child((Dwarf_Die *)&fn->cu, &child)) {
		do {
			if (dwarf_tag(&child) == DW_TAG_variable)
				add_var(pb, fn, &child, NULL, addr, flags, out);
		} while (!dwarf_siblingof(&child, &child));
	}
	if (out->nr > 1)
		qsort(out->v, out->nr, sizeof(*out->v), cmp_str);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Fetch arguments */

static const char *const x86_64_regs[] = {
	"%ax", "%dx", "%cx", "%bx", "%si", "%di", "%bp", "%sp",
	"%r8", "%r9", "%r10", "%r11", "%r12", "%r13", "%r14", "%r15",
};

static const char *reg_name(unsigned int n)
{
	return n < ARRAY_SIZE(x86_64_regs) ? x86_64_regs[n] : NULL;
}

/* the fetch text of the value itself */
static void fetch_text(const struct fetch *f, struct strbuf *out)
{
	if (f->kind == IN_REG)
		strbuf_addstr(out, f->base.buf);
	else if (f->kind == IN_MEM)
		strbuf_addf(out, "%+ld(%s)", f->off, f->base.buf);
	else
		strbuf_addf(out, "@%s+%ld", f->base.buf, f->off);
}

/* the value of @f is a pointer: the memory it points to, at @off */
static void fetch_deref(struct fetch *f, long off)
{
	struct strbuf inner = STRBUF_INIT;

	fetch_text(f, &inner);
	strbuf_release(&f->base);
	f->base = inner;
	f->kind = IN_MEM;
	f->off = off;
}

__attribute__((format(printf, 2, 3))) static int fail(struct probe_dwarf_error *err,
						      const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return 0;
}

/* the CFA rule at @addr as register + offset */
static int frame_cfa(struct probe_binary *pb, u64 addr, unsigned int *reg, long *off)
{
	Dwarf *dw = probe_binary_dwarf(pb);
	Dwarf_CFI *cfis[2] = { dwarf_getcfi(dw), NULL };
	Elf *elf = dwarf_getelf(dw);
	int ret = -ENOENT;

	if (elf)
		cfis[1] = dwarf_getcfi_elf(elf);
	for (int i = 0; i < 2 && ret; i++) {
		Dwarf_Frame *frame = NULL;
		Dwarf_Op *ops;
		size_t nops;

		if (!cfis[i] || dwarf_cfi_addrframe(cfis[i], addr, &frame))
			continue;
		if (!dwarf_frame_cfa(frame, &ops, &nops) && nops == 1) {
			if (ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg31) {
				*reg = ops[0].atom - DW_OP_breg0;
				*off = (long)ops[0].number;
				ret = 0;
			} else if (ops[0].atom == DW_OP_bregx) {
				*reg = (unsigned int)ops[0].number;
				*off = (long)ops[0].number2;
				ret = 0;
			}
		}
		free(frame);
	}
	if (cfis[1])
		dwarf_cfi_end(cfis[1]);
	return ret;
}

/* the symbol at @addr for "@sym+off" */
static int global_fetch(struct probe_binary *pb, u64 addr, struct fetch *f)
{
	const struct symbol *s;

	probe_binary_finish(pb);
	s = symtab_find(&pb->st, addr);

	if (!s)
		return -ENOENT;
	f->kind = IN_SYM;
	strbuf_addstr(&f->base, s->name);
	f->off = (long)(addr - s->start);
	return 0;
}

/* the location of @var at @addr, from its first operation as perf reads it */
static int var_fetch(struct probe_binary *pb, const struct probe_dwarf_func *fn, Dwarf_Die *var,
		     u64 addr, bool multi, struct fetch *f, struct probe_dwarf_error *err)
{
	const char *name = dwarf_diename(var);
	Dwarf_Op *ops;
	size_t nops;
	unsigned int reg;
	long off;

	if (!var_location(var, addr, &ops, &nops) && multi) {
		/* one of several points: perf reads a marker value there */
		f->kind = IN_REG;
		strbuf_addstr(&f->base, "\\deade12d");
		return 0;
	}
	if (!var_location(var, addr, &ops, &nops)) {
		fail(err, "Failed to find the location of the '%s' variable at this address.\n"
			  " Perhaps it has been optimized out.\n"
			  " Use -V with the --range option to show '%s' location range.", name, name);
		return -ENOENT;
	}
	switch (ops[0].atom) {
	case DW_OP_addr:
		return global_fetch(pb, ops[0].number, f);
	case DW_OP_fbreg: {
		Dwarf_Attribute attr;
		Dwarf_Op *fb;
		size_t nfb;

		off = (long)ops[0].number;
		if (!dwarf_attr_integrate((Dwarf_Die *)&fn->caller, DW_AT_frame_base, &attr) ||
		    dwarf_getlocation_addr(&attr, addr, &fb, &nfb, 1) != 1 || !nfb)
			break;
		if (fb[0].atom == DW_OP_call_frame_cfa) {
			long cfa_off;

			if (frame_cfa(pb, addr, &reg, &cfa_off))
				break;
			off += cfa_off;
		} else if (fb[0].atom >= DW_OP_breg0 && fb[0].atom <= DW_OP_breg31) {
			reg = fb[0].atom - DW_OP_breg0;
			off += (long)fb[0].number;
		} else if (fb[0].atom >= DW_OP_reg0 && fb[0].atom <= DW_OP_reg31) {
			reg = fb[0].atom - DW_OP_reg0;
		} else {
			break;
		}
		if (!reg_name(reg))
			break;
		f->kind = IN_MEM;
		strbuf_addstr(&f->base, reg_name(reg));
		f->off = off;
		return 0;
	}
	case DW_OP_regx:
		reg = (unsigned int)ops[0].number;
		goto in_reg;
	case DW_OP_bregx:
		reg = (unsigned int)ops[0].number;
		off = (long)ops[0].number2;
		goto in_mem;
	default:
		if (ops[0].atom >= DW_OP_reg0 && ops[0].atom <= DW_OP_reg31) {
			reg = ops[0].atom - DW_OP_reg0;
			goto in_reg;
		}
		if (ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg31) {
			reg = ops[0].atom - DW_OP_breg0;
			off = (long)ops[0].number;
			goto in_mem;
		}
		break;
	}
	fail(err, "Sorry, we don't support this variable location yet.");
	return -EOPNOTSUPP;
in_reg:
	if (!reg_name(reg))
		goto bad_reg;
	f->kind = IN_REG;
	strbuf_addstr(&f->base, reg_name(reg));
	return 0;
in_mem:
	if (!reg_name(reg))
		goto bad_reg;
	f->kind = IN_MEM;
	strbuf_addstr(&f->base, reg_name(reg));
	f->off = off;
	return 0;
bad_reg:
	fail(err, "Mapping for the register number %u missing on this architecture.\n"
		  "Sorry, we don't support this variable location yet.", reg);
	return -EOPNOTSUPP;
}

/* the variable @name seen from @addr in @fn: innermost scope first, then the CU's globals */
static bool find_var(const struct probe_dwarf_func *fn, u64 addr, const char *name, size_t len,
		     Dwarf_Die *var)
{
	Dwarf_Die *scopes = NULL, child;
	int n = fn_scopes(fn, addr, &scopes);
	bool found = false;

	for (int i = 0; i < n && !found; i++) {
		if (dwarf_child(&scopes[i], &child))
			continue;
		do {
			const char *vn = dwarf_diename(&child);

			if (is_var_tag(dwarf_tag(&child)) && vn && strlen(vn) == len &&
			    !strncmp(vn, name, len)) {
				*var = child;
				found = true;
			}
		} while (!found && !dwarf_siblingof(&child, &child));
	}
	free(scopes);
	if (!found && !dwarf_child((Dwarf_Die *)&fn->cu, &child)) {
		do {
			const char *vn = dwarf_diename(&child);

			if (dwarf_tag(&child) == DW_TAG_variable && vn && strlen(vn) == len &&
			    !strncmp(vn, name, len) && !dwarf_hasattr(&child, DW_AT_declaration)) {
				*var = child;
				found = true;
			}
		} while (!found && !dwarf_siblingof(&child, &child));
	}
	return found;
}

/* the member @name of the struct/union @type: its DIE and byte offset */
static int find_member(Dwarf_Die *type, const char *name, size_t len, Dwarf_Die *mem, long *off)
{
	Dwarf_Die child;

	if (dwarf_child(type, &child))
		return -ENOENT;
	do {
		const char *mn = dwarf_diename(&child);
		Dwarf_Attribute attr;
		Dwarf_Word w;

		if (dwarf_tag(&child) != DW_TAG_member || !mn || strlen(mn) != len ||
		    strncmp(mn, name, len))
			continue;
		*mem = child;
		if (!dwarf_attr(&child, DW_AT_data_member_location, &attr))
			return dwarf_tag(type) == DW_TAG_union_type ? (*off = 0, 0) : -EFAULT;
		if (dwarf_formudata(&attr, &w))
			return -EFAULT;
		*off = (long)w;
		return 0;
	} while (!dwarf_siblingof(&child, &child));
	return -ENOENT;
}

static int die_size(Dwarf_Die *type)
{
	Dwarf_Attribute attr;
	Dwarf_Word w;
	Dwarf_Die t = *type;

	if (!real_type(&t))
		return 0;
	if (dwarf_tag(&t) == DW_TAG_pointer_type)
		return 8;
	if (dwarf_formudata(dwarf_attr_integrate(&t, DW_AT_byte_size, &attr), &w))
		return 0;
	return (int)w;
}

/* the default type suffix of a value of @type ("s32", "x64"), or "" */
static const char *default_type(Dwarf_Die *type, char *buf, size_t size, char *warn,
				size_t warn_size)
{
	Dwarf_Die t = *type;
	Dwarf_Attribute attr;
	Dwarf_Word enc;
	int bytes;

	if (!real_type(&t))
		return "";
	bytes = die_size(&t);
	switch (dwarf_tag(&t)) {
	case DW_TAG_pointer_type:
		return "x64";
	case DW_TAG_base_type:
		if (bytes <= 0 || bytes > 8)
			return "";
		enc = 0;
		dwarf_formudata(dwarf_attr(&t, DW_AT_encoding, &attr), &enc);
		snprintf(buf, size, "%c%d",
			 enc == DW_ATE_signed || enc == DW_ATE_signed_char ? 's' : 'x', bytes * 8);
		return buf;
	case DW_TAG_enumeration_type:
	case DW_TAG_union_type:
	case DW_TAG_structure_type:
		if (bytes <= 0)
			return "";
		if (bytes > 8) {
			const char *name = dwarf_diename(&t);

			/* perf's warning, and the first 64 bits */
			snprintf(warn, warn_size, "%s exceeds max-bitwidth. Cut down to 64 bits.",
				 name ? name : "");
			bytes = 8;
		}
		snprintf(buf, size, "x%d", bytes * 8);
		return buf;
	default:
		return "";
	}
}

/* one argument for variable @var (already found) with accessors @acc */
static int translate(struct probe_binary *pb, const struct probe_dwarf_func *fn, u64 addr,
		     bool multi, Dwarf_Die *var, const char *acc, const char *type, const char *name,
		     const char *text, struct strbuf *out, struct probe_dwarf_error *err)
{
	struct fetch f = { .base = STRBUF_INIT };
	struct strbuf tn = STRBUF_INIT;
	const char *last = dwarf_diename(var);
	size_t last_len = strlen(last);
	Dwarf_Die cur, t;
	bool has_type = type_of(var, &cur);
	char tbuf[16];
	int ret = var_fetch(pb, fn, var, addr, multi, &f, err);

	while (!ret && *acc) {
		bool arrow = acc[0] == '-' && acc[1] == '>';

		t = cur;
		if (!has_type || !real_type(&t)) {
			ret = -ENOENT;
			fail(err, "Failed to get the type of %.*s.", (int)last_len, last);
			break;
		}
		if (*acc == '[') {
			char *end;
			long idx = strtol(acc + 1, &end, 0);
			Dwarf_Die elem;
			int tag = dwarf_tag(&t);

			if (*end != ']' || (tag != DW_TAG_array_type && tag != DW_TAG_pointer_type) ||
			    !type_of(&t, &elem)) {
				ret = -EINVAL;
				fail(err, "%.*s is not a data structure nor a union.", (int)last_len, last);
				break;
			}
			if (tag == DW_TAG_pointer_type) {
				fetch_deref(&f, idx * die_size(&elem));
			} else if (f.kind == IN_REG) {
				ret = -EOPNOTSUPP;
				fail(err, "Structure on a register is not supported yet.");
				break;
			} else {
				f.off += idx * die_size(&elem);
			}
			cur = elem;
			acc = end + 1;
			continue;
		}
		if (arrow || *acc == '.') {
			const char *fname = acc + (arrow ? 2 : 1);
			size_t flen = strcspn(fname, ".-[");
			int tag = dwarf_tag(&t);
			Dwarf_Die st = t, mem;
			long moff = 0;
			int r;

			if (tag == DW_TAG_pointer_type) {
				if (!arrow) {
					ret = -EINVAL;
					fail(err, "Semantic error: %.*s must be referred by '->'",
					     (int)flen, fname);
					break;
				}
				if (!type_of(&t, &st) || !real_type(&st)) {
					ret = -ENOENT;
					fail(err, "Failed to get the type of %.*s.", (int)last_len, last);
					break;
				}
			} else if (arrow && tag != DW_TAG_structure_type && tag != DW_TAG_union_type) {
				ret = -EINVAL;
				fail(err, "%.*s is not a data structure nor a union.", (int)last_len, last);
				break;
			} else if (arrow) {
				ret = -EINVAL;
				fail(err, "Semantic error: %.*s must be referred by '.'", (int)flen, fname);
				break;
			}
			tag = dwarf_tag(&st);
			if (tag != DW_TAG_structure_type && tag != DW_TAG_union_type) {
				ret = -EINVAL;
				fail(err, "%.*s is not a data structure nor a union.", (int)last_len, last);
				break;
			}
			r = find_member(&st, fname, flen, &mem, &moff);
			if (r == -ENOENT) {
				const char *sn = dwarf_diename(&st);

				ret = -EINVAL;
				fail(err, "%.*s(type:%s) has no member %.*s.", (int)last_len, last,
				     sn ? sn : "", (int)flen, fname);
				break;
			}
			if (r) {
				ret = -ENOENT;
				fail(err, "Failed to get the offset of %.*s.", (int)flen, fname);
				break;
			}
			if (arrow) {
				fetch_deref(&f, moff);
			} else if (f.kind == IN_REG) {
				ret = -EOPNOTSUPP;
				fail(err, "Structure on a register is not supported yet.");
				break;
			} else {
				f.off += moff;
			}
			has_type = type_of(&mem, &cur);
			last = fname;
			last_len = flen;
			acc = fname + flen;
			continue;
		}
		ret = -EINVAL;
		fail(err, "Semantic error :%s is bad for a variable access.", acc);
	}
	if (ret)
		goto out;
	/* NAME= */
	if (name) {
		strbuf_addf(out, "%s=", name);
	} else if (text[strcspn(text, ".-[")]) {
		strbuf_addf(out, "%.*s=", (int)last_len, last);
	} else {
		for (const char *p = text; *p; p++)
			strbuf_addch(out, isalnum((unsigned char)*p) || *p == '_' ? *p : '_');
		if (type)
			strbuf_addch(out, '_');
		for (const char *p = type ? type : ""; *p; p++)
			strbuf_addch(out, isalnum((unsigned char)*p) || *p == '_' ? *p : '_');
		strbuf_addch(out, '=');
	}
	t = cur;
	if (type && (!strcmp(type, "string") || !strcmp(type, "ustring"))) {
		int tag = has_type && real_type(&t) ? dwarf_tag(&t) : 0;

		if (tag == DW_TAG_pointer_type) {
			strbuf_addstr(out, "+0(");
			fetch_text(&f, out);
			strbuf_addch(out, ')');
		} else if (tag == DW_TAG_array_type && f.kind != IN_REG) {
			fetch_text(&f, out);
		} else {
			if (has_type)
				type_name(&cur, &tn);
			ret = -EINVAL;
			fail(err, "Failed to cast into string: %.*s(%s) is not a pointer nor array.",
			     (int)last_len, last, tn.buf);
			goto out;
		}
		strbuf_addf(out, ":%s", type);
	} else {
		const char *dt = type ? type : has_type ? default_type(&cur, tbuf, sizeof(tbuf), err->warn,
								      sizeof(err->warn)) : "";

		fetch_text(&f, out);
		if (*dt)
			strbuf_addf(out, ":%s", dt);
	}
out:
	strbuf_release(&f.base);
	strbuf_release(&tn);
	return ret;
}

/* $params / $vars: every live parameter (and variable) of @fn's scopes */
static int expand_all(struct probe_binary *pb, const struct probe_dwarf_func *fn, u64 addr,
		      bool vars, bool multi, struct strbuf *out, struct probe_dwarf_error *err)
{
	Dwarf_Die *scopes = NULL, child;
	int n = fn_scopes(fn, addr, &scopes);
	int ret = 0;

	/* the function's own scope first, then the blocks inside it */
	for (int i = n - 1; i >= 0 && !ret; i--) {
		if ((!vars && i != n - 1) || dwarf_child(&scopes[i], &child))
			continue;
		do {
			int tag = dwarf_tag(&child);
			struct probe_dwarf_error e;
			const char *vn = dwarf_diename(&child);
			Dwarf_Op *ops;
			size_t nops;
			size_t mark = out->len;

			if (!vn || !(tag == DW_TAG_formal_parameter || (vars && tag == DW_TAG_variable)))
				continue;
			/* what has no location perf can read here is left out */
			if (!var_location(&child, addr, &ops, &nops) || !op_supported(&ops[0]))
				continue;
			if (out->len)
				strbuf_addch(out, ' ');
			e.warn[0] = 0;
			ret = translate(pb, fn, addr, false, &child, "", NULL, NULL, vn, out, &e);
			if (e.warn[0] && strlen(err->warn) + strlen(e.warn) + 2 < sizeof(err->warn))
				snprintf(err->warn + strlen(err->warn), sizeof(err->warn) - strlen(err->warn),
					 "%s%s", err->warn[0] ? "\n" : "", e.warn);
			if (ret) {
				/* perf gives up on the first it cannot read */
				strbuf_setlen(out, mark);
				snprintf(err->msg, sizeof(err->msg), "%s", e.msg);
				break;
			}
		} while (!dwarf_siblingof(&child, &child));
	}
	free(scopes);
	if (!ret && !out->len && !multi) {
		/* one point without any: perf's message (several points may have none) */
		fail(err, "Failed to find the location of the '%s' variable at this address.\n"
			  " Perhaps it has been optimized out.\n"
			  " Use -V with the --range option to show '%s' location range.",
		     vars ? "$vars" : "$params", vars ? "$vars" : "$params");
		ret = -ENOENT;
	}
	return ret;
}

/* a variable @name anywhere in @fn's scopes (not only those at one address) */
static bool in_function(const struct probe_dwarf_func *fn, const char *name, size_t len)
{
	Dwarf_Die stack[64];
	int depth = 0;

	if (dwarf_child((Dwarf_Die *)(fn->is_inlined ? &fn->die : &fn->caller), &stack[0]))
		return false;
	while (depth >= 0) {
		Dwarf_Die *d = &stack[depth];
		int tag = dwarf_tag(d);
		const char *vn = dwarf_diename(d);

		if (is_var_tag(tag) && vn && strlen(vn) == len && !strncmp(vn, name, len))
			return true;
		if ((tag == DW_TAG_lexical_block || tag == DW_TAG_inlined_subroutine) && depth < 63 &&
		    !dwarf_child(d, &stack[depth + 1])) {
			depth++;
			continue;
		}
		while (depth >= 0 && dwarf_siblingof(&stack[depth], &stack[depth]))
			depth--;
	}
	return false;
}

int probe_dwarf_arg(struct probe_binary *pb, const struct probe_dwarf_func *fn, u64 addr,
		    bool multi, const char *expr, const char *type, const char *name, struct strbuf *out,
		    struct probe_dwarf_error *err)
{
	size_t len = strcspn(expr, ".-[");
	Dwarf_Die var;

	err->msg[0] = 0;
	err->warn[0] = 0;
	if (!strcmp(expr, "$params") || !strcmp(expr, "$vars"))
		return expand_all(pb, fn, addr, expr[1] == 'v', multi, out, err);
	if (!find_var(fn, addr, expr, len, &var) && multi && in_function(fn, expr, len)) {
		fail(err, "Sorry, we don't support this variable location yet.");
		return -EOPNOTSUPP;
	}
	if (!find_var(fn, addr, expr, len, &var)) {
		fail(err, "Failed to find the location of the '%.*s' variable at this address.\n"
			  " Perhaps it has been optimized out.\n"
			  " Use -V with the --range option to show '%.*s' location range.",
		     (int)len, expr, (int)len, expr);
		return -ENOENT;
	}
	return translate(pb, fn, addr, multi, &var, expr + len, type, name, expr, out, err);
}
