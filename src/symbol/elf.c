/* SPDX-License-Identifier: MIT */
/*
 * ELF through libelf: build-id notes, PT_LOAD segments, the symbols perf
 * keeps (.symtab or .dynsym, PLT entries, MiniDebugInfo) and the vdso image.
 */
#define PR_PREFIX "elf"
#include "symbol/elf.h"

#include "lib/debug.h"
#include "lib/util.h"
#include "lib/xalloc.h"
#include "symbol/demangle.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void elf_lib_init(void)
{
	static bool done;

	if (!done) {
		elf_version(EV_CURRENT);
		done = true;
	}
}

/* ---- build-ids ---------------------------------------------------------- */

/* walk GNU notes in @data; copy the NT_GNU_BUILD_ID descriptor */
static int notes_find_build_id(Elf_Data *data, u8 *bid, size_t size)
{
	GElf_Nhdr nhdr;
	size_t off = 0, name_off, desc_off;

	while ((off = gelf_getnote(data, off, &nhdr, &name_off, &desc_off)) > 0) {
		if (nhdr.n_type == NT_GNU_BUILD_ID && nhdr.n_namesz == 4 &&
		    !memcmp((char *)data->d_buf + name_off, "GNU", 4)) {
			size_t n = nhdr.n_descsz < size ? nhdr.n_descsz : size;

			if (!nhdr.n_descsz)
				continue;
			memcpy(bid, (char *)data->d_buf + desc_off, n);
			return (int)n;
		}
	}
	return -ENODATA;
}

static int elf_build_id(Elf *elf, u8 *bid, size_t size)
{
	size_t i, nr;
	Elf_Scn *scn = NULL;

	/* program headers first: no section table walk, works on stripped files */
	if (!elf_getphdrnum(elf, &nr)) {
		for (i = 0; i < nr; i++) {
			GElf_Phdr ph;
			Elf_Data *data;
			int ret;

			if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_NOTE)
				continue;
			data = elf_getdata_rawchunk(elf, ph.p_offset, ph.p_filesz, ELF_T_NHDR);
			if (!data)
				continue;
			ret = notes_find_build_id(data, bid, size);
			if (ret > 0)
				return ret;
		}
	}
	/* debug files and ET_REL: note sections */
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *data;
		int ret;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		data = elf_getdata(scn, NULL);
		if (!data)
			continue;
		ret = notes_find_build_id(data, bid, size);
		if (ret > 0)
			return ret;
	}
	return -ENODATA;
}

static Elf *open_elf(const char *path, int *fdp)
{
	int fd;
	Elf *elf;

	elf_lib_init();
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		*fdp = -errno;
		return NULL;
	}
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		if (elf)
			elf_end(elf);
		close(fd);
		*fdp = -ENOTSUP;
		return NULL;
	}
	*fdp = fd;
	return elf;
}

int buildid_read_path(const char *path, u8 *bid, size_t size)
{
	int fd, ret;
	Elf *elf = open_elf(path, &fd);

	if (!elf)
		return fd;
	ret = elf_build_id(elf, bid, size);
	elf_end(elf);
	close(fd);
	return ret;
}

int buildid_read_mem(const void *image, size_t len, u8 *bid, size_t size)
{
	Elf *elf;
	int ret;

	elf_lib_init();
	elf = elf_memory((char *)image, len);
	if (!elf)
		return -ENOTSUP;
	ret = elf_kind(elf) == ELF_K_ELF ? elf_build_id(elf, bid, size) : -ENOTSUP;
	elf_end(elf);
	return ret;
}

int buildid_parse_notes(const void *notes, size_t len, u8 *bid, size_t size)
{
	const u8 *p = notes, *end = p + len;

	/* raw native-endian notes: namesz, descsz, type, name (4-aligned), desc (4-aligned) */
	while (p + 12 <= end) {
		u32 namesz, descsz, type;
		const u8 *name, *desc;

		memcpy(&namesz, p, 4);
		memcpy(&descsz, p + 4, 4);
		memcpy(&type, p + 8, 4);
		name = p + 12;
		desc = name + PERF_ALIGN((size_t)namesz, 4);
		if (desc > end || PERF_ALIGN((size_t)descsz, 4) > (size_t)(end - desc))
			break;
		if (type == NT_GNU_BUILD_ID && namesz == 4 && !memcmp(name, "GNU", 4) && descsz) {
			size_t n = descsz < size ? descsz : size;

			memcpy(bid, desc, n);
			return (int)n;
		}
		p = desc + PERF_ALIGN((size_t)descsz, 4);
	}
	return -ENODATA;
}

static int buildid_read_notes_file(const char *path, u8 *bid, size_t size)
{
	struct strbuf sb = STRBUF_INIT;
	long n = strbuf_read_file(&sb, path, 4096);
	int ret;

	if (n < 0) {
		strbuf_release(&sb);
		return (int)n;
	}
	ret = buildid_parse_notes(sb.buf, sb.len, bid, size);
	strbuf_release(&sb);
	return ret;
}

int buildid_read_kernel(u8 *bid, size_t size)
{
	return buildid_read_notes_file("/sys/kernel/notes", bid, size);
}

int buildid_read_module(const char *name, u8 *bid, size_t size)
{
	char path[512];

	snprintf(path, sizeof(path), "/sys/module/%s/notes/.note.gnu.build-id", name);
	return buildid_read_notes_file(path, bid, size);
}

char *buildid_to_hex(const u8 *bid, size_t len, char *out)
{
	static const char hex[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < len; i++) {
		out[2 * i] = hex[bid[i] >> 4];
		out[2 * i + 1] = hex[bid[i] & 15];
	}
	out[2 * len] = 0;
	return out;
}

int buildid_from_hex(const char *s, u8 *bid, size_t size)
{
	size_t n = 0;

	while (s[0] && s[1] && n < size) {
		int hi = hex_digit(s[0]), lo = hex_digit(s[1]);

		if (hi < 0 || lo < 0)
			return -EINVAL;
		bid[n++] = (u8)(hi << 4 | lo);
		s += 2;
	}
	if (*s || !n)
		return -EINVAL;
	return (int)n;
}

/* ---- segments ----------------------------------------------------------- */

static int read_segments(Elf *elf, struct elf_syms_info *info)
{
	size_t i, nr;
	GElf_Ehdr eh;

	if (!gelf_getehdr(elf, &eh))
		return -ENOTSUP;
	info->e_type = eh.e_type;
	if (elf_getphdrnum(elf, &nr))
		return 0;
	info->segs = xcalloc(nr ? nr : 1, sizeof(*info->segs));
	info->nr_segs = 0;
	for (i = 0; i < nr; i++) {
		GElf_Phdr ph;
		struct load_segment *s;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		s = &info->segs[info->nr_segs++];
		s->offset = ph.p_offset;
		s->vaddr = ph.p_vaddr;
		s->filesz = ph.p_filesz;
		s->memsz = ph.p_memsz;
		s->is_exec = !!(ph.p_flags & PF_X);
	}
	return 0;
}

int elf_read_info(const char *path, struct elf_syms_info *info)
{
	int fd, ret;
	Elf *elf = open_elf(path, &fd);

	memset(info, 0, sizeof(*info));
	if (!elf)
		return fd;
	ret = read_segments(elf, info);
	if (!ret) {
		int n = elf_build_id(elf, info->build_id, sizeof(info->build_id));

		info->build_id_size = n > 0 ? (size_t)n : 0;
	}
	elf_end(elf);
	close(fd);
	return ret;
}

bool elf_offset_to_vaddr(const struct load_segment *segs, size_t nr, u64 off, u64 *vaddr)
{
	size_t i;
	int pass;

	/*
	 * Segments overlap on their page-aligned file ranges; an executable
	 * mapping's offset belongs to the executable segment first.
	 */
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < nr; i++) {
			const struct load_segment *s = &segs[i];

			if (pass == 0 && !s->is_exec)
				continue;
			if (off >= s->offset && off < s->offset + (s->filesz ? s->filesz : 1)) {
				*vaddr = off - s->offset + s->vaddr;
				return true;
			}
		}
	}
	return false;
}

bool elf_vaddr_to_offset(const struct load_segment *segs, size_t nr, u64 vaddr, u64 *off)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		const struct load_segment *s = &segs[i];

		if (vaddr >= s->vaddr && vaddr < s->vaddr + (s->memsz ? s->memsz : 1)) {
			*off = vaddr - s->vaddr + s->offset;
			return true;
		}
	}
	return false;
}

/* ---- symbols ------------------------------------------------------------ */

static Elf_Scn *find_section(Elf *elf, const char *name, GElf_Shdr *shp, size_t *idx)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *n;

		if (!gelf_getshdr(scn, shp))
			continue;
		n = elf_strptr(elf, shstrndx, shp->sh_name);
		if (n && !strcmp(n, name)) {
			if (idx)
				*idx = elf_ndxscn(scn);
			return scn;
		}
	}
	return NULL;
}

static Elf_Scn *find_section_type(Elf *elf, Elf64_Word type, GElf_Shdr *shp)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, shp) && shp->sh_type == type)
			return scn;
	return NULL;
}

static const char *display_name(const char *raw, const struct symbol_opts *opts, char **tofree)
{
	char *d;

	*tofree = NULL;
	if ((opts && opts->no_demangle) || !demangle_is_mangled(raw))
		return raw;
	d = demangle(raw, opts && opts->demangle_params ? DEMANGLE_PARAMS : 0);
	if (!d)
		return raw;
	*tofree = d;
	return d;
}

static bool section_is_alloc(Elf *elf, size_t shndx)
{
	Elf_Scn *scn = elf_getscn(elf, shndx);
	GElf_Shdr sh;

	return scn && gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_ALLOC);
}

/* perf keeps NOTYPE labels only in sections whose name says "text" or "data" */
static bool section_is_text(Elf *elf, size_t shndx)
{
	size_t shstrndx;
	Elf_Scn *scn = elf_getscn(elf, shndx);
	GElf_Shdr sh;
	const char *n;

	if (!scn || !gelf_getshdr(scn, &sh) || elf_getshdrstrndx(elf, &shstrndx))
		return false;
	n = elf_strptr(elf, shstrndx, sh.sh_name);
	return n && (strstr(n, "text") || strstr(n, "data"));
}

static int add_table(struct symtab *st, Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh,
		     const struct symbol_opts *opts)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t i, nr;
	int added = 0;

	if (!data || !sh->sh_entsize)
		return 0;
	nr = sh->sh_size / sh->sh_entsize;
	for (i = 1; i < nr; i++) {
		GElf_Sym sym;
		const char *raw, *name;
		char *tofree;
		int type, vis;
		bool keep;

		if (!gelf_getsym(data, (int)i, &sym) || !sym.st_name)
			continue;
		/* perf shows no absolute symbols (symbol-version names like "GLIBC_2.2.5") */
		if (sym.st_shndx == SHN_UNDEF || sym.st_shndx == SHN_ABS)
			continue;
		type = GELF_ST_TYPE(sym.st_info);
		vis = GELF_ST_VISIBILITY(sym.st_other);
		keep = type == STT_FUNC || type == STT_GNU_IFUNC || type == STT_OBJECT;
		if (!keep && type == STT_NOTYPE && sym.st_shndx != SHN_ABS &&
		    sym.st_shndx < SHN_LORESERVE && vis != STV_HIDDEN && vis != STV_INTERNAL)
			keep = section_is_text(elf, sym.st_shndx);
		if (!keep)
			continue;
		/* symbols of sections not loaded at run time (.gnu.warning.*) name nothing */
		if (sym.st_shndx < SHN_LORESERVE && !section_is_alloc(elf, sym.st_shndx))
			continue;
		raw = elf_strptr(elf, sh->sh_link, sym.st_name);
		if (!raw || !*raw)
			continue;
		name = display_name(raw, opts, &tofree);
		symtab_add(st, sym.st_value, sym.st_size, GELF_ST_BIND(sym.st_info), type, name);
		free(tofree);
		added++;
	}
	return added;
}

static int add_plt(struct symtab *st, Elf *elf, const struct symbol_opts *opts)
{
	GElf_Shdr rel_sh, plt_sh, dyn_sh, sec_sh;
	Elf_Scn *rel, *plt, *dyn, *sec;
	Elf_Data *rel_data, *dyn_data;
	size_t dynidx, i, nr;
	u64 addr, entsize;
	int added = 0;
	struct strbuf sb = STRBUF_INIT;

	rel = find_section(elf, ".rela.plt", &rel_sh, NULL);
	if (!rel)
		rel = find_section(elf, ".rel.plt", &rel_sh, NULL);
	plt = find_section(elf, ".plt", &plt_sh, NULL);
	dyn = find_section(elf, ".dynsym", &dyn_sh, &dynidx);
	if (!rel || !plt || !dyn || rel_sh.sh_link != dynidx || !rel_sh.sh_entsize ||
	    plt_sh.sh_type == SHT_NOBITS || rel_sh.sh_type == SHT_NOBITS)
		return 0;
	rel_data = elf_getdata(rel, NULL);
	dyn_data = elf_getdata(dyn, NULL);
	if (!rel_data || !dyn_data)
		return 0;
	/*
	 * x86_64: .plt starts with a header the size of one entry. With IBT
	 * (-fcf-protection) the callable stubs live in .plt.sec instead, one
	 * per relocation and no header.
	 */
	entsize = plt_sh.sh_entsize ? plt_sh.sh_entsize : 16;
	sec = find_section(elf, ".plt.sec", &sec_sh, NULL);
	if (sec && sec_sh.sh_type != SHT_NOBITS) {
		addr = sec_sh.sh_addr;
		entsize = sec_sh.sh_entsize ? sec_sh.sh_entsize : 16;
	} else {
		addr = plt_sh.sh_addr + entsize;
	}
	nr = rel_sh.sh_size / rel_sh.sh_entsize;
	for (i = 0; i < nr; i++, addr += entsize) {
		size_t symidx;
		GElf_Sym sym;
		const char *raw = "", *name;
		char *tofree = NULL;

		if (rel_sh.sh_type == SHT_RELA) {
			GElf_Rela r;

			if (!gelf_getrela(rel_data, (int)i, &r))
				break;
			symidx = GELF_R_SYM(r.r_info);
		} else {
			GElf_Rel r;

			if (!gelf_getrel(rel_data, (int)i, &r))
				break;
			symidx = GELF_R_SYM(r.r_info);
		}
		if (symidx && gelf_getsym(dyn_data, (int)symidx, &sym)) {
			raw = elf_strptr(elf, dyn_sh.sh_link, sym.st_name);
			if (!raw)
				raw = "";
		}
		name = display_name(raw, opts, &tofree);
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s@plt", name);
		free(tofree);
		symtab_add(st, addr, entsize, STB_GLOBAL, STT_FUNC, sb.buf)->flags |= SYMBOL_PLT;
		added++;
	}
	strbuf_release(&sb);
	return added;
}

static int load_elf(struct symtab *st, Elf *elf, const struct symbol_opts *opts,
		    struct elf_syms_info *info, int depth);

/* MiniDebugInfo: .gnu_debugdata holds an xz-compressed ELF with a .symtab */
static int add_minidebuginfo(struct symtab *st, Elf *elf, const struct symbol_opts *opts,
			     int depth)
{
	GElf_Shdr sh;
	Elf_Scn *scn = find_section(elf, ".gnu_debugdata", &sh, NULL);
	Elf_Data *data;
	lzma_stream strm = LZMA_STREAM_INIT;
	struct strbuf out = STRBUF_INIT;
	Elf *inner;
	int ret = 0;

	if (!scn || depth > 0 || sh.sh_type == SHT_NOBITS)
		return 0;
	data = elf_rawdata(scn, NULL);
	if (!data || !data->d_size)
		return 0;
	if (lzma_stream_decoder(&strm, UINT64_MAX, 0) != LZMA_OK)
		return -ENOMEM;
	strm.next_in = data->d_buf;
	strm.avail_in = data->d_size;
	for (;;) {
		lzma_ret lr;

		strbuf_grow(&out, 64 << 10);
		strm.next_out = (u8 *)out.buf + out.len;
		strm.avail_out = out.alloc - out.len - 1;
		lr = lzma_code(&strm, LZMA_FINISH);
		strbuf_setlen(&out, out.alloc - 1 - strm.avail_out);
		if (lr == LZMA_STREAM_END)
			break;
		if (lr != LZMA_OK) {
			ret = -EINVAL;
			goto out;
		}
		if (out.len > (256u << 20)) {
			ret = -EFBIG;
			goto out;
		}
	}
	inner = elf_memory(out.buf, out.len);
	if (inner) {
		if (elf_kind(inner) == ELF_K_ELF)
			ret = load_elf(st, inner, opts, NULL, depth + 1);
		elf_end(inner);
	}
out:
	lzma_end(&strm);
	strbuf_release(&out);
	return ret;
}

static int load_elf(struct symtab *st, Elf *elf, const struct symbol_opts *opts,
		    struct elf_syms_info *info, int depth)
{
	GElf_Shdr sh, tmp;
	Elf_Scn *scn;
	int nr = 0, n;
	bool has_symtab = false;

	if (info) {
		int b;

		memset(info, 0, sizeof(*info));
		if (read_segments(elf, info))
			return -ENOTSUP;
		b = elf_build_id(elf, info->build_id, sizeof(info->build_id));
		info->build_id_size = b > 0 ? (size_t)b : 0;
		info->has_debuglink = find_section(elf, ".gnu_debuglink", &tmp, NULL) != NULL;
		info->has_minidebuginfo = find_section(elf, ".gnu_debugdata", &tmp, NULL) != NULL;
		scn = find_section(elf, ".debug_info", &tmp, NULL);
		info->has_debug_info = scn && tmp.sh_type != SHT_NOBITS;
	}
	/* perf reads .symtab when there is one, and .dynsym only otherwise */
	scn = find_section_type(elf, SHT_SYMTAB, &sh);
	if (scn) {
		has_symtab = true;
		nr += add_table(st, elf, scn, &sh, opts);
	} else {
		scn = find_section_type(elf, SHT_DYNSYM, &sh);
		if (scn)
			nr += add_table(st, elf, scn, &sh, opts);
		n = add_minidebuginfo(st, elf, opts, depth);
		if (n > 0)
			nr += n;
	}
	if (info)
		info->has_symtab = has_symtab;
	if (depth == 0)
		nr += add_plt(st, elf, opts);
	return nr;
}

int elf_load_symbols(struct symtab *st, const char *path, const struct symbol_opts *opts,
		     struct elf_syms_info *info)
{
	int fd, ret;
	Elf *elf = open_elf(path, &fd);

	if (info)
		memset(info, 0, sizeof(*info));
	if (!elf)
		return fd;
	ret = load_elf(st, elf, opts, info, 0);
	elf_end(elf);
	close(fd);
	pr_debug("%s: %d symbols\n", path, ret);
	return ret;
}

int elf_load_symbols_mem(struct symtab *st, const void *image, size_t len,
			 const struct symbol_opts *opts, struct elf_syms_info *info)
{
	Elf *elf;
	int ret;

	elf_lib_init();
	if (info)
		memset(info, 0, sizeof(*info));
	elf = elf_memory((char *)image, len);
	if (!elf)
		return -ENOTSUP;
	ret = elf_kind(elf) == ELF_K_ELF ? load_elf(st, elf, opts, info, 0) : -ENOTSUP;
	elf_end(elf);
	return ret;
}

int elf_load_plt(struct symtab *st, const char *path, const struct symbol_opts *opts)
{
	int fd, ret;
	Elf *elf = open_elf(path, &fd);

	if (!elf)
		return fd;
	ret = add_plt(st, elf, opts);
	elf_end(elf);
	close(fd);
	return ret;
}

/* ---- the vdso ----------------------------------------------------------- */

int vdso_read_self(void **image, size_t *len)
{
	FILE *f = fopen("/proc/self/maps", "re");
	char line[512];
	unsigned long long start, end;
	int ret = -ENOENT;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		size_t l = strlen(line);

		if (l < 8 || !strstr(line, "[vdso]"))
			continue;
		if (sscanf(line, "%llx-%llx", &start, &end) != 2 || end <= start ||
		    end - start > (64u << 20))
			break;
		/* the vdso is mapped readable in every process: copy it out */
		*len = end - start;
		*image = xmemdup((const void *)(uintptr_t)start, *len);
		ret = 0;
		break;
	}
	fclose(f);
	return ret;
}
