/* SPDX-License-Identifier: MIT */
/* libdw on a file with compressed DWARF, inflating only the units looked at. */
#include "symbol/dwarf-lazy.h"

#include "lib/xalloc.h"

#include <dwarf.h>
#include <elf.h>
#include <gelf.h>
#include <libelf.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#ifndef DW_FORM_GNU_ref_alt
#define DW_FORM_GNU_ref_alt 0x1f20
#endif

/* a compressed section libdw sees through a buffer of its full size, filled from the front */
struct lazy_sec {
	Elf_Data *data; /* libdw's view: d_buf = @buf */
	u8 *buf;	/* owned, zeroed past @done */
	size_t size, done;
	z_stream zs;
	bool live;	/* @zs is initialised and not at its end */
};

/* one .debug_aranges entry */
struct arange {
	u64 lo, hi, cu_off;
};

enum { SEC_INFO, SEC_ABBREV, SEC_LINE, NR_LAZY };

struct dwarf_lazy {
	Elf *elf;
	Dwarf *dw;
	struct lazy_sec lazy[NR_LAZY];
	u8 **bufs; /* owned: the sections inflated whole */
	size_t nr_bufs;
	struct arange *ar; /* sorted by lo */
	u64 *max_hi;	   /* max_hi[i]: the highest hi of ar[0..i] */
	size_t nr_ar;
};

static const char *const lazy_names[NR_LAZY] = { ".debug_info", ".debug_abbrev", ".debug_line" };

/* sections libdw would inflate that nothing here reads */
static const char *const unread_names[] = {
	".debug_loc",	   ".debug_loclists",	 ".debug_macro",	".debug_macinfo",
	".debug_pubnames", ".debug_pubtypes",	 ".debug_gnu_pubnames", ".debug_gnu_pubtypes",
	".debug_names",	   ".debug_frame",
};

static bool name_in(const char *name, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(name, list[i]))
			return true;
	return false;
}

/* ensure - @ls inflated up to @upto bytes (or its end) */
static void ensure(struct lazy_sec *ls, size_t upto)
{
	if (upto > ls->size)
		upto = ls->size;
	while (ls->live && ls->done < upto) {
		size_t want = upto - ls->done, left = ls->size - ls->done;
		int ret;

		/* in steps of at least 64 KiB: inflate() calls cost too */
		if (want < (64u << 10))
			want = 64u << 10;
		if (want > left)
			want = left;
		ls->zs.next_out = ls->buf + ls->done;
		ls->zs.avail_out = (uInt)want;
		ret = inflate(&ls->zs, Z_SYNC_FLUSH);
		ls->done = (size_t)(ls->zs.next_out - ls->buf);
		if (ret == Z_STREAM_END || (ret != Z_OK && ret != Z_BUF_ERROR) ||
		    ls->done == ls->size || (ret == Z_BUF_ERROR && !ls->zs.avail_in)) {
			inflateEnd(&ls->zs);
			ls->live = false;
		}
	}
}

/* the byte at @pos of @ls, inflating as far as needed; -1 past the end */
static int lazy_byte(struct lazy_sec *ls, size_t pos)
{
	if (pos >= ls->done)
		ensure(ls, pos + 1);
	return pos < ls->done ? ls->buf[pos] : -1;
}

static bool lazy_uleb(struct lazy_sec *ls, size_t *pos, u64 *val)
{
	u64 v = 0;
	int shift = 0, b;

	do {
		b = lazy_byte(ls, (*pos)++);
		if (b < 0)
			return false;
		if (shift < 64)
			v |= (u64)(b & 0x7f) << shift;
		shift += 7;
	} while (b & 0x80);
	*val = v;
	return true;
}

static bool lazy_get(struct lazy_sec *ls, size_t pos, void *out, size_t n)
{
	ensure(ls, pos + n);
	if (pos + n > ls->done)
		return false;
	memcpy(out, ls->buf + pos, n);
	return true;
}

/*
 * abbrev_table_end - inflate the abbreviation table at @off to its end;
 * false when it is damaged or a form could reach outside its unit
 */
static bool abbrev_table_end(struct lazy_sec *ab, size_t off)
{
	size_t pos = off;
	u64 code, v, attr, form;

	for (;;) {
		if (!lazy_uleb(ab, &pos, &code))
			return false;
		if (!code)
			return true;
		if (!lazy_uleb(ab, &pos, &v) || lazy_byte(ab, pos++) < 0)
			return false; /* the tag, the children flag */
		do {
			if (!lazy_uleb(ab, &pos, &attr) || !lazy_uleb(ab, &pos, &form))
				return false;
			if (form == DW_FORM_ref_addr || form == DW_FORM_ref_sig8 ||
			    form == DW_FORM_indirect || form == DW_FORM_GNU_ref_alt ||
			    form == DW_FORM_ref_sup4 || form == DW_FORM_ref_sup8)
				return false;
			if (form == DW_FORM_implicit_const && !lazy_uleb(ab, &pos, &v))
				return false; /* an sleb: the same bytes to skip */
		} while (attr || form);
	}
}

static int cmp_arange(const void *a, const void *b)
{
	const struct arange *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* parse_aranges - the entries of .debug_aranges (@p, @n bytes), sorted */
static void parse_aranges(struct dwarf_lazy *dl, const u8 *p, size_t n)
{
	size_t pos = 0, alloc = 0;

	while (pos + 4 <= n) {
		u32 len32;
		u64 len, cu_off = 0;
		size_t start = pos, end, offsz = 4;
		u16 version;
		u8 asz, ssz;

		memcpy(&len32, p + pos, 4);
		pos += 4;
		len = len32;
		if (len32 == 0xffffffff) {
			if (pos + 8 > n)
				break;
			memcpy(&len, p + pos, 8);
			pos += 8;
			offsz = 8;
		}
		if (len > n - pos)
			break;
		end = pos + len;
		if (pos + 2 + offsz + 2 > end)
			break;
		memcpy(&version, p + pos, 2);
		pos += 2;
		memcpy(&cu_off, p + pos, offsz);
		pos += offsz;
		asz = p[pos++];
		ssz = p[pos++];
		if (version != 2 || asz != 8 || ssz) {
			pos = end;
			continue;
		}
		/* the tuples start at a multiple of their size from the set's start */
		pos = start + (pos - start + 15) / 16 * 16;
		while (pos + 16 <= end) {
			u64 lo, size;

			memcpy(&lo, p + pos, 8);
			memcpy(&size, p + pos + 8, 8);
			pos += 16;
			if (!lo && !size)
				break;
			if (!size)
				continue;
			dl->ar = xgrow(dl->ar, dl->nr_ar + 1, &alloc, sizeof(*dl->ar));
			dl->ar[dl->nr_ar++] = (struct arange){ lo, lo + size, cu_off };
		}
		pos = end;
	}
	if (!dl->nr_ar)
		return;
	qsort(dl->ar, dl->nr_ar, sizeof(*dl->ar), cmp_arange);
	dl->max_hi = xreallocarray(dl->max_hi, dl->nr_ar, sizeof(*dl->max_hi));
	for (size_t i = 0; i < dl->nr_ar; i++)
		dl->max_hi[i] = i && dl->max_hi[i - 1] > dl->ar[i].hi ? dl->max_hi[i - 1] : dl->ar[i].hi;
}

/* the section's inflated buffer, or NULL (not zlib, or damaged) */
static u8 *inflate_all(const u8 *src, size_t src_len, size_t size)
{
	u8 *buf = xmalloc(size ? size : 1);
	uLongf out = size;

	if (uncompress(buf, &out, src, src_len) != Z_OK || out != size) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* what happens to each section: a first pass decides, so that a refusal changes nothing */
enum sec_plan { PLAN_REFUSE = -1, PLAN_KEEP, PLAN_LAZY, PLAN_WHOLE, PLAN_HIDE };

static int plan_of(Elf_Scn *scn, const GElf_Shdr *sh, const char *name, int *lazy_idx)
{
	GElf_Chdr ch;

	*lazy_idx = -1;
	if (strncmp(name, ".debug_", 7) || !(sh->sh_flags & SHF_COMPRESSED))
		return PLAN_KEEP;
	if (!gelf_getchdr(scn, &ch) || ch.ch_type != ELFCOMPRESS_ZLIB)
		return PLAN_REFUSE;
	if (name_in(name, unread_names, sizeof(unread_names) / sizeof(*unread_names)))
		return PLAN_HIDE;
	for (int i = 0; i < NR_LAZY; i++)
		if (!strcmp(name, lazy_names[i])) {
			*lazy_idx = i;
			return PLAN_LAZY;
		}
	return PLAN_WHOLE;
}

/* point libdw at @buf (@size bytes) for @scn, as an inflated section */
static bool replace_data(Elf_Scn *scn, Elf_Data *data, u8 *buf, size_t size)
{
	GElf_Shdr sh;

	if (!gelf_getshdr(scn, &sh))
		return false;
	sh.sh_flags &= ~(GElf_Xword)SHF_COMPRESSED;
	sh.sh_size = size;
	if (!gelf_update_shdr(scn, &sh))
		return false;
	data->d_buf = buf;
	data->d_size = size;
	data->d_type = ELF_T_BYTE;
	data->d_off = 0;
	data->d_align = 1;
	return true;
}

/* the compressed bytes after the header of @scn's data */
static bool comp_bytes(Elf_Data *data, const u8 **src, size_t *len, size_t *size)
{
	Elf64_Chdr ch;

	if (!data || !data->d_buf || data->d_size < sizeof(ch))
		return false;
	memcpy(&ch, data->d_buf, sizeof(ch));
	*src = (const u8 *)data->d_buf + sizeof(ch);
	*len = data->d_size - sizeof(ch);
	*size = ch.ch_size;
	return ch.ch_type == ELFCOMPRESS_ZLIB;
}

static bool setup(struct dwarf_lazy *dl, size_t shstrndx)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	bool any = false, aranges = false;

	/* first pass: refuse before anything changes */
	while ((scn = elf_nextscn(dl->elf, scn))) {
		const char *name;
		int idx;
		int plan;

		if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(dl->elf, shstrndx, sh.sh_name)))
			continue;
		if (!strcmp(name, ".gnu_debugaltlink") || !strncmp(name, ".zdebug", 7))
			return false;
		plan = plan_of(scn, &sh, name, &idx);
		if (plan == PLAN_REFUSE)
			return false;
		any |= plan == PLAN_LAZY;
		aranges |= !strcmp(name, ".debug_aranges");
	}
	if (!any || !aranges)
		return false;
	while ((scn = elf_nextscn(dl->elf, scn))) {
		const char *name;
		const u8 *src;
		size_t len, size;
		Elf_Data *data;
		int idx, plan;

		if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(dl->elf, shstrndx, sh.sh_name)))
			continue;
		plan = plan_of(scn, &sh, name, &idx);
		if (plan == PLAN_KEEP) {
			if (!strcmp(name, ".debug_aranges") && (data = elf_getdata(scn, NULL)) &&
			    data->d_buf)
				parse_aranges(dl, data->d_buf, data->d_size);
			continue;
		}
		if (plan == PLAN_HIDE) {
			/* a nameless section: libdw leaves it be */
			sh.sh_name = 0;
			if (!gelf_update_shdr(scn, &sh))
				return false;
			continue;
		}
		data = elf_getdata(scn, NULL);
		if (!comp_bytes(data, &src, &len, &size))
			return false;
		if (plan == PLAN_WHOLE) {
			u8 *buf = inflate_all(src, len, size);

			if (!buf)
				return false;
			dl->bufs = xreallocarray(dl->bufs, dl->nr_bufs + 1, sizeof(*dl->bufs));
			dl->bufs[dl->nr_bufs++] = buf;
			if (!replace_data(scn, data, buf, size))
				return false;
			if (!strcmp(name, ".debug_aranges"))
				parse_aranges(dl, buf, size);
			continue;
		}
		struct lazy_sec *ls = &dl->lazy[idx];

		if (ls->buf)
			return false; /* twice the same name */
		ls->buf = xcalloc(1, size ? size : 1);
		ls->size = size;
		ls->data = data;
		ls->zs.next_in = (Bytef *)src;
		ls->zs.avail_in = (uInt)len;
		if (len != ls->zs.avail_in || inflateInit(&ls->zs) != Z_OK)
			return false;
		ls->live = true;
		if (!replace_data(scn, data, ls->buf, size))
			return false;
	}
	return dl->lazy[SEC_INFO].buf != NULL;
}

struct dwarf_lazy *dwarf_lazy_open(int fd)
{
	struct dwarf_lazy *dl;
	GElf_Ehdr eh;
	size_t shstrndx;

	elf_version(EV_CURRENT);
	dl = xzalloc(sizeof(*dl));
	/* a private, writable mapping: the section headers change in memory only */
	dl->elf = elf_begin(fd, ELF_C_READ_MMAP_PRIVATE, NULL);
	if (!dl->elf || elf_kind(dl->elf) != ELF_K_ELF || !gelf_getehdr(dl->elf, &eh) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_type == ET_REL ||
	    elf_getshdrstrndx(dl->elf, &shstrndx) || !setup(dl, shstrndx))
		goto fail;
	dl->dw = dwarf_begin_elf(dl->elf, DWARF_C_READ, NULL);
	if (!dl->dw)
		goto fail;
	return dl;
fail:
	dwarf_lazy_close(dl);
	return NULL;
}

Dwarf *dwarf_lazy_dwarf(struct dwarf_lazy *dl)
{
	return dl->dw;
}

/* the whole unit at @cu_off inflated, with what it reads; false: inflate everything */
static bool unit_inflate(struct dwarf_lazy *dl, u64 cu_off)
{
	struct lazy_sec *info = &dl->lazy[SEC_INFO], *ab = &dl->lazy[SEC_ABBREV];
	size_t pos = cu_off, offsz = 4;
	u32 len32;
	u64 len, abbrev_off = 0;
	u16 version;
	u8 unit_type = DW_UT_compile;

	if (!lazy_get(info, pos, &len32, 4))
		return false;
	pos += 4;
	len = len32;
	if (len32 == 0xffffffff) {
		if (!lazy_get(info, pos, &len, 8))
			return false;
		pos += 8;
		offsz = 8;
	}
	if (len > info->size - pos || !lazy_get(info, pos, &version, 2))
		return false;
	pos += 2;
	if (version >= 5) {
		if (!lazy_get(info, pos, &unit_type, 1))
			return false;
		pos += 2; /* the unit type, the address size */
	}
	if (!lazy_get(info, pos, &abbrev_off, offsz) || version < 2 || version > 5 ||
	    (unit_type != DW_UT_compile && unit_type != DW_UT_partial))
		return false;
	/* the unit, and the next one's header, which a unit walk may peek at */
	ensure(info, pos + len + 64);
	if (!ab->buf || abbrev_off >= ab->size || !abbrev_table_end(ab, abbrev_off))
		return false;
	return true;
}

/* the line program the unit DIE @cu names inflated; false: all of .debug_line */
static bool lines_inflate(struct dwarf_lazy *dl, Dwarf_Die *cu)
{
	struct lazy_sec *line = &dl->lazy[SEC_LINE];
	Dwarf_Attribute attr;
	Dwarf_Word off;
	u32 len32;
	u64 len;

	if (!line->buf || !dwarf_attr(cu, DW_AT_stmt_list, &attr))
		return true;
	if (dwarf_formudata(&attr, &off) || !lazy_get(line, off, &len32, 4))
		return false;
	len = len32;
	if (len32 == 0xffffffff) {
		if (!lazy_get(line, off + 4, &len, 8))
			return false;
		off += 8;
	}
	ensure(line, off + 4 + len);
	return true;
}

Dwarf_Die *dwarf_lazy_addrdie(struct dwarf_lazy *dl, u64 addr, Dwarf_Die *out)
{
	size_t lo = 0, hi = dl->nr_ar;
	Dwarf_Off next, cu_off;
	size_t hsize;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (dl->ar[mid].lo <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* the last entry starting at or below @addr, else an earlier one still holding it */
	while (lo > 0 && addr >= dl->ar[lo - 1].hi && addr < dl->max_hi[lo - 1])
		lo--;
	if (!lo || addr >= dl->ar[lo - 1].hi)
		return NULL;
	cu_off = dl->ar[lo - 1].cu_off;
	if (!unit_inflate(dl, cu_off)) {
		for (int i = 0; i < NR_LAZY; i++)
			ensure(&dl->lazy[i], dl->lazy[i].size);
	}
	if (dwarf_next_unit(dl->dw, cu_off, &next, &hsize, NULL, NULL, NULL, NULL, NULL, NULL) ||
	    !dwarf_offdie(dl->dw, cu_off + hsize, out))
		return NULL;
	if (!lines_inflate(dl, out))
		ensure(&dl->lazy[SEC_LINE], dl->lazy[SEC_LINE].size);
	return out;
}

void dwarf_lazy_close(struct dwarf_lazy *dl)
{
	if (!dl)
		return;
	if (dl->dw)
		dwarf_end(dl->dw);
	if (dl->elf)
		elf_end(dl->elf);
	for (int i = 0; i < NR_LAZY; i++) {
		if (dl->lazy[i].live)
			inflateEnd(&dl->lazy[i].zs);
		free(dl->lazy[i].buf);
	}
	for (size_t i = 0; i < dl->nr_bufs; i++)
		free(dl->bufs[i]);
	free(dl->bufs);
	free(dl->ar);
	free(dl->max_hi);
	free(dl);
}
