/* SPDX-License-Identifier: MIT */
/* The memory sort keys (mem, snoop, tlb, locked, blocked): data_src fields and their texts. */
#include "session/hists-mem.h"

#include "symbol/symtab.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* the data_src bit fields (uapi perf_mem_data_src), as shift and width */
enum { LVL_SHIFT = 5, SNOOP_SHIFT = 19, LOCK_SHIFT = 24, TLB_SHIFT = 26, LVLNUM_SHIFT = 33,
       REMOTE_SHIFT = 37, SNOOPX_SHIFT = 38, BLK_SHIFT = 40 };

static unsigned int bits(u64 v, int shift, int width)
{
	return (unsigned int)((v >> shift) & ((1u << width) - 1));
}

u64 mem_key_field(enum sort_key key, u64 data_src)
{
	switch (key) {
	case SORT_MEM:
		return bits(data_src, LVL_SHIFT, 14);
	case SORT_SNOOP:
		return bits(data_src, SNOOP_SHIFT, 5);
	case SORT_TLB:
		return bits(data_src, TLB_SHIFT, 7);
	case SORT_LOCKED:
		return bits(data_src, LOCK_SHIFT, 2);
	case SORT_BLOCKED:
		return bits(data_src, BLK_SHIFT, 3);
	default:
		return 0;
	}
}

u64 mem_key_daddr(enum sort_key key, const struct frame *f)
{
	if (!f)
		return 0;
	if (key == SORT_DSO_DADDR)
		return (u64)(uintptr_t)f->dso;
	/* one row per data symbol, per address outside any */
	return f->sym ? f->sym->start ^ (u64)(uintptr_t)f->dso : f->addr;
}

bool sort_key_needs_mem_mode(enum sort_key key)
{
	return sort_key_is_mem(key) || key == SORT_SYMBOL_DADDR || key == SORT_DSO_DADDR ||
	       key == SORT_DCACHELINE || key == SORT_PHYS_DADDR || key == SORT_DATA_PAGE_SIZE;
}

bool sort_key_is_mem(enum sort_key key)
{
	return key == SORT_MEM || key == SORT_SNOOP || key == SORT_TLB || key == SORT_LOCKED ||
	       key == SORT_BLOCKED;
}

/* struct names_out - a text being built: names joined by " or " */
struct names_out {
	char *buf;
	size_t size, len;
	int nr;
};

static void out_put(struct names_out *o, const char *s)
{
	int n;

	if (o->len >= o->size)
		return;
	n = snprintf(o->buf + o->len, o->size - o->len, "%s", s);
	if (n > 0)
		o->len += (size_t)n;
	if (o->len >= o->size)
		o->len = o->size - 1;
}

static void out_name(struct names_out *o, const char *s)
{
	if (o->nr++)
		out_put(o, " or ");
	out_put(o, s);
}

/* out_bits - the names of the set bits of @v (bit i: @names[i], NULL: not named) */
static void out_bits(struct names_out *o, unsigned int v, const char *const *names, int nr)
{
	for (int i = 0; i < nr; i++)
		if ((v & (1u << i)) && names[i])
			out_name(o, names[i]);
}

/* out_hit_miss - " hit", " miss" for the HIT/MISS bits (bits 1 and 2 of a level field) */
static void out_hit_miss(struct names_out *o, unsigned int v)
{
	if (v & 2)
		out_put(o, " hit");
	if (v & 4)
		out_put(o, " miss");
}

static const char *const lvl_names[14] = {
	"N/A", NULL, NULL, "L1", "LFB/MAB", "L2", "L3", "Local RAM",
	"Remote RAM (1 hop)", "Remote RAM (2 hops)", "Remote Cache (1 hop)",
	"Remote Cache (2 hops)", "I/O", "Uncached",
};

static const char *lvlnum_name(unsigned int n)
{
	switch (n) {
	case 1: return "L1";
	case 2: return "L2";
	case 3: return "L3";
	case 4: return "L4";
	case 0xb: return "Any cache";
	case 0xc: return "LFB/MAB";
	case 0xd: return "RAM";
	case 0xe: return "PMEM";
	case 0xf: return "N/A";
	default: return NULL;
	}
}

static void mem_text(struct names_out *o, u64 ds)
{
	unsigned int lvl = bits(ds, LVL_SHIFT, 14), num = bits(ds, LVLNUM_SHIFT, 4);
	const char *n = lvlnum_name(num);

	if (bits(ds, REMOTE_SHIFT, 1))
		out_put(o, "Remote ");
	out_bits(o, lvl, lvl_names, 14);
	if (n)
		out_name(o, n);
	if (!o->nr)
		out_put(o, "N/A");
	out_hit_miss(o, lvl);
}

static void snoop_text(struct names_out *o, u64 ds)
{
	static const char *const snoop[5] = { "N/A", "None", "Hit", "Miss", "HitM" };
	static const char *const snoopx[2] = { "Fwd", "Peer" };

	out_bits(o, bits(ds, SNOOP_SHIFT, 5), snoop, 5);
	out_bits(o, bits(ds, SNOOPX_SHIFT, 2), snoopx, 2);
	if (!o->nr)
		out_put(o, "N/A");
}

static void tlb_text(struct names_out *o, u64 ds)
{
	static const char *const tlb[7] = { "N/A", NULL, NULL, "L1", "L2", "Walker", "Fault" };
	unsigned int v = bits(ds, TLB_SHIFT, 7);

	out_bits(o, v, tlb, 7);
	if (!o->nr)
		out_put(o, "N/A");
	out_hit_miss(o, v);
}

const char *mem_key_text(enum sort_key key, u64 data_src, char *buf, size_t size)
{
	struct names_out o = { .buf = buf, .size = size };
	unsigned int v;

	if (!size)
		return "";
	buf[0] = '\0';
	switch (key) {
	case SORT_MEM:
		mem_text(&o, data_src);
		break;
	case SORT_SNOOP:
		snoop_text(&o, data_src);
		break;
	case SORT_TLB:
		tlb_text(&o, data_src);
		break;
	case SORT_LOCKED:
		v = bits(data_src, LOCK_SHIFT, 2);
		out_put(&o, v & 1 ? "N/A" : v & 2 ? "Yes" : "No");
		break;
	case SORT_BLOCKED:
		/* perf's texts start with a space */
		v = bits(data_src, BLK_SHIFT, 3);
		if (v & 1 || !v)
			out_name(&o, " N/A");
		if (v & 2)
			out_name(&o, " Data");
		if (v & 4)
			out_name(&o, " Addr");
		break;
	default:
		break;
	}
	return buf;
}
