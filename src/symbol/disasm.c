/* SPDX-License-Identifier: MIT */
/* In-process disassembly for annotate: capstone in objdump's AT&T text, DWARF lines, source text. */
#include "symbol/disasm.h"
#include "symbol/disasm-internal.h"

#include "lib/debug.h"
#include "lib/hashmap.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "symbol/demangle.h"
#include "symbol/dwarf-lazy.h"
#include "symbol/kcore.h"
#include "symbol/srcline.h"

#include <capstone/capstone.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct dsec {
	u64 addr, size, offset, entsize;
	const char *name; /* owned */
	bool nobits;
	bool exec;
};

struct dsym {
	u64 addr, size;
	const char *name; /* owned, demangled with parameters */
	int rank;	  /* lower wins among symbols at one address */
	bool exact;	  /* names its own address only (a GOT slot), never "+0x.." */
	bool is_elf;	  /* an ELF symbol table's (not objdump's synthetic "f@plt" or GOT name) */
	const char *file; /* .symtab: the STT_FILE name before it, interned ("" after an empty one) */
	u64 value;	  /* exact ones: the relocation symbol's value, for objdump's offset */
};

struct srcfile {
	char *buf;	   /* owned: the file's bytes, lines cut at '\n' */
	char **lines;	   /* owned */
	size_t nr_lines;
	bool missing;
};

struct disasm {
	int fd;
	Elf *elf;
	struct dsec *secs;
	size_t nr_secs;
	struct dsym *syms; /* sorted by addr, then rank: the names of addresses */
	size_t nr_syms, alloc_syms;
	struct dsym *fsyms; /* the same for the -l function names (may be @syms) */
	size_t nr_fsyms;
	ssize_t *elf_below; /* made on first use: elf_below[i], the last ELF table symbol of
			       fsyms[0..i], -1 for none */
	csh cs;
	char *debug_path;
	int dw_fd;
	Dwarf *dw;
	struct dwarf_lazy *dl; /* @dw's file with compressed DWARF, or NULL */
	bool dw_tried;
	bool intel;	      /* -M intel: objdump's Intel syntax */
	struct strpool names; /* file paths and function texts */
	struct u64map files;  /* interned path pointer -> struct srcfile * */
};

/*
 * objdump -C's text of @raw: a mangled name demangled with its parameters,
 * and a version or "@plt" suffix kept ("operator new[](unsigned long)@plt").
 * Returns a malloc'ed string, or NULL when @raw is not mangled.
 */
static char *demangle_suffixed(const char *raw)
{
	const char *at = strchr(raw, '@');
	char *base, *dm, *r;

	if (!at)
		return demangle_is_mangled(raw) ? demangle(raw, DEMANGLE_PARAMS) : NULL;
	base = xstrndup(raw, (size_t)(at - raw));
	dm = demangle_is_mangled(base) ? demangle(base, DEMANGLE_PARAMS) : NULL;
	free(base);
	if (!dm)
		return NULL;
	r = xmalloc(strlen(dm) + strlen(at) + 1);
	strcpy(r, dm);
	strcat(r, at);
	free(dm);
	return r;
}

static void add_sym(struct disasm *d, u64 addr, u64 size, const char *raw, int rank)
{
	char *dm = demangle_suffixed(raw);

	if (d->nr_syms == d->alloc_syms) {
		d->alloc_syms = d->alloc_syms ? 2 * d->alloc_syms : 256;
		d->syms = xrealloc(d->syms, d->alloc_syms * sizeof(*d->syms));
	}
	d->syms[d->nr_syms].addr = addr;
	d->syms[d->nr_syms].size = size;
	d->syms[d->nr_syms].name = dm ? dm : xstrdup(raw);
	d->syms[d->nr_syms].rank = rank;
	d->syms[d->nr_syms].exact = false;
	d->syms[d->nr_syms].is_elf = false;
	d->syms[d->nr_syms].file = NULL;
	d->syms[d->nr_syms].value = 0;
	d->nr_syms++;
}

/* objdump's preference among names at one address: global, then weak, then local functions */
static int sym_rank(const GElf_Sym *s)
{
	int bind = GELF_ST_BIND(s->st_info), type = GELF_ST_TYPE(s->st_info);
	int r = bind == STB_GLOBAL ? 0 : bind == STB_WEAK ? 1 : 2;

	/* an ifunc resolver's name loses to the plain function's, even a local one */
	if (type == STT_NOTYPE || type == STT_GNU_IFUNC)
		r += 3;
	return r;
}

/*
 * the version objdump appends to a .dynsym name: "@@VER" for a default
 * definition, "@VER" for a hidden one or a reference (verneed)
 */
static const char *sym_version(Elf *elf, size_t idx, bool defined, char *buf, size_t size)
{
	Elf_Scn *scn = NULL, *vs = NULL, *vd = NULL, *vn = NULL;
	GElf_Shdr sh;
	Elf_Data *vsd, *data;
	GElf_Versym ver;
	size_t off = 0;

	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_GNU_versym)
			vs = scn;
		else if (sh.sh_type == SHT_GNU_verdef)
			vd = scn;
		else if (sh.sh_type == SHT_GNU_verneed)
			vn = scn;
	}
	if (!vs || !(vsd = elf_getdata(vs, NULL)) || !gelf_getversym(vsd, (int)idx, &ver) ||
	    !(ver & 0x7fff))
		return NULL;
	if ((ver & 0x7fff) == 1) {
		/* the base version: "@@Base" on a definition, "@Base" on a reference (a GOT slot) */
		snprintf(buf, size, "%s", defined ? "@@Base" : "@Base");
		return buf;
	}
	if (vd && (data = elf_getdata(vd, NULL)) && gelf_getshdr(vd, &sh)) {
		for (off = 0;;) {
			GElf_Verdef def;
			GElf_Verdaux aux;

			if (!gelf_getverdef(data, (int)off, &def))
				break;
			if (def.vd_ndx == (ver & 0x7fff)) {
				if (!gelf_getverdaux(data, (int)(off + def.vd_aux), &aux))
					return NULL;
				snprintf(buf, size, "%s%s", ver & 0x8000 ? "@" : "@@",
					 elf_strptr(elf, sh.sh_link, aux.vda_name));
				return buf;
			}
			if (!def.vd_next)
				break;
			off += def.vd_next;
		}
	}
	if (vn && (data = elf_getdata(vn, NULL)) && gelf_getshdr(vn, &sh)) {
		for (off = 0;;) {
			GElf_Verneed need;
			size_t aoff;

			if (!gelf_getverneed(data, (int)off, &need))
				break;
			aoff = off + need.vn_aux;
			for (unsigned int k = 0; k < need.vn_cnt; k++) {
				GElf_Vernaux aux;

				if (!gelf_getvernaux(data, (int)aoff, &aux))
					break;
				if (aux.vna_other == (ver & 0x7fff)) {
					snprintf(buf, size, "@%s",
						 elf_strptr(elf, sh.sh_link, aux.vna_name));
					return buf;
				}
				if (!aux.vna_next)
					break;
				aoff += aux.vna_next;
			}
			if (!need.vn_next)
				break;
			off += need.vn_next;
		}
	}
	return NULL;
}

static int load_symtab(struct disasm *d, Elf *elf, Elf64_Word want)
{
	Elf_Scn *scn = NULL;
	int n = 0;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != want || !sh.sh_entsize)
			continue;
		const char *file = NULL;

		data = elf_getdata(scn, NULL);
		if (!data)
			continue;
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym s;
			const char *name;
			int type;

			if (!gelf_getsym(data, (int)i, &s))
				continue;
			type = GELF_ST_TYPE(s.st_info);
			/* the object file the symbols after it come from (addr2line's fallback) */
			if (type == STT_FILE && want == SHT_SYMTAB) {
				name = elf_strptr(elf, sh.sh_link, s.st_name);
				file = strpool_intern(&d->names, name ? name : "");
				continue;
			}
			if (s.st_shndx == SHN_UNDEF ||
			    (type != STT_FUNC && type != STT_OBJECT && type != STT_NOTYPE &&
			     type != STT_GNU_IFUNC && type != STT_TLS))
				continue;
			name = elf_strptr(elf, sh.sh_link, s.st_name);
			if (!name || !*name || name[0] == '$')
				continue;
			if (want == SHT_DYNSYM) {
				char ver[256], full[1024];

				if (sym_version(elf, i, true, ver, sizeof(ver))) {
					snprintf(full, sizeof(full), "%s%s", name, ver);
					name = full;
					add_sym(d, s.st_value, s.st_size, name, sym_rank(&s));
					n++;
					continue;
				}
			}
			add_sym(d, s.st_value, s.st_size, name, sym_rank(&s));
			/* objdump -l names functions from .symtab only, never .dynsym */
			d->syms[d->nr_syms - 1].is_elf = want == SHT_SYMTAB;
			d->syms[d->nr_syms - 1].file = file;
			n++;
		}
	}
	return n;
}

static int cmp_dsym(const void *a, const void *b)
{
	const struct dsym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank - y->rank;
	return strcmp(x->name, y->name);
}

static int load_sections(struct disasm *d)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;

	if (!gelf_getehdr(d->elf, &eh) || eh.e_machine != EM_X86_64 ||
	    elf_getshdrstrndx(d->elf, &shstrndx))
		return -ENOTSUP;
	while ((scn = elf_nextscn(d->elf, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC) || !sh.sh_size)
			continue;
		name = elf_strptr(d->elf, shstrndx, sh.sh_name);
		d->secs = xrealloc(d->secs, (d->nr_secs + 1) * sizeof(*d->secs));
		d->secs[d->nr_secs].addr = sh.sh_addr;
		d->secs[d->nr_secs].size = sh.sh_size;
		d->secs[d->nr_secs].offset = sh.sh_offset;
		d->secs[d->nr_secs].name = xstrdup(name ? name : "");
		d->secs[d->nr_secs].nobits = sh.sh_type == SHT_NOBITS;
		d->secs[d->nr_secs].exec = sh.sh_flags & SHF_EXECINSTR;
		d->secs[d->nr_secs].entsize = sh.sh_entsize;
		d->nr_secs++;
	}
	return 0;
}

/* the GOT slots that dynamic relocations fill: slot -> "name" or "*ABS*+0x<addend>" */
static void plt_slots(struct disasm *d, struct u64map *slots, struct strpool *pool)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(d->elf, scn))) {
		GElf_Shdr sh, symsh;
		Elf_Data *data, *symdata;
		Elf_Scn *symscn;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_RELA || !sh.sh_entsize ||
		    !(data = elf_getdata(scn, NULL)))
			continue;
		symscn = elf_getscn(d->elf, sh.sh_link);
		symdata = symscn ? elf_getdata(symscn, NULL) : NULL;
		if (!symscn || !gelf_getshdr(symscn, &symsh))
			symdata = NULL;
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Rela r;
			GElf_Sym sym;
			size_t idx;
			char buf[512];
			const char *name = NULL;

			if (!gelf_getrela(data, (int)i, &r))
				continue;
			idx = GELF_R_SYM(r.r_info);
			if (idx && symdata && gelf_getsym(symdata, (int)idx, &sym))
				name = elf_strptr(d->elf, symsh.sh_link, sym.st_name);
			if (!idx) {
				snprintf(buf, sizeof(buf), "*ABS*+0x%" PRIx64, (u64)r.r_addend);
				name = buf;
			}
			if (name && *name && !u64map_find(slots, r.r_offset))
				u64map_set(slots, r.r_offset, (void *)strpool_intern(pool, name));
		}
	}
}

static const struct dsec *find_sec(const struct disasm *d, u64 addr);

/* objdump names a GOT slot filled by a GLOB_DAT relocation after its symbol, versioned */
static void add_got(struct disasm *d)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(d->elf, scn))) {
		GElf_Shdr sh, symsh;
		Elf_Data *data, *symdata;
		Elf_Scn *symscn;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_RELA || !sh.sh_entsize ||
		    !(data = elf_getdata(scn, NULL)))
			continue;
		symscn = elf_getscn(d->elf, sh.sh_link);
		if (!symscn || !gelf_getshdr(symscn, &symsh) || symsh.sh_type != SHT_DYNSYM ||
		    !(symdata = elf_getdata(symscn, NULL)))
			continue;
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Rela r;
			GElf_Sym sym;
			size_t idx;
			const char *name;
			char ver[256], full[1024];

			if (!gelf_getrela(data, (int)i, &r) ||
			    (GELF_R_TYPE(r.r_info) != R_X86_64_GLOB_DAT &&
			     GELF_R_TYPE(r.r_info) != R_X86_64_JUMP_SLOT))
				continue;
			idx = GELF_R_SYM(r.r_info);
			if (!idx || !gelf_getsym(symdata, (int)idx, &sym))
				continue;
			/* a PLT slot is named only in a lazily bound .got.plt, as objdump shows */
			if (GELF_R_TYPE(r.r_info) == R_X86_64_JUMP_SLOT) {
				const struct dsec *gs = find_sec(d, r.r_offset);

				if (!gs || strcmp(gs->name, ".got.plt"))
					continue;
			}
			name = elf_strptr(d->elf, symsh.sh_link, sym.st_name);
			if (!name || !*name)
				continue;
			if (!sym_version(d->elf, idx, sym.st_shndx != SHN_UNDEF, ver, sizeof(ver)))
				ver[0] = 0;
			/* seen from objdump: a definition of a hidden version ("f@V") names no slot */
			if (sym.st_shndx != SHN_UNDEF && ver[0] == '@' && ver[1] != '@')
				continue;
			snprintf(full, sizeof(full), "%s%s", name, ver);
			add_sym(d, r.r_offset, 8, full, 0);
			d->syms[d->nr_syms - 1].exact = true;
			d->syms[d->nr_syms - 1].value = sym.st_shndx != SHN_UNDEF ? sym.st_value : 0;
		}
	}
}

/* objdump's "f@plt" names: each PLT entry jumps through the GOT slot of its relocation */
static void add_plt(struct disasm *d)
{
	struct u64map slots;
	struct strpool pool;
	cs_insn *in = cs_malloc(d->cs);

	u64map_init(&slots);
	strpool_init(&pool);
	plt_slots(d, &slots, &pool);
	for (size_t i = 0; in && i < d->nr_secs; i++) {
		const struct dsec *sec = &d->secs[i];
		u64 ent = sec->entsize ? sec->entsize : 16;
		u8 *buf;
		const u8 *code;
		size_t left;
		u64 addr = sec->addr;

		if (strcmp(sec->name, ".plt") && strcmp(sec->name, ".plt.sec") &&
		    strcmp(sec->name, ".plt.got"))
			continue;
		buf = xmalloc(sec->size);
		if (pread(d->fd, buf, sec->size, (off_t)sec->offset) != (ssize_t)sec->size) {
			free(buf);
			continue;
		}
		code = buf;
		left = sec->size;
		while (left) {
			u64 at = addr;

			if (!cs_disasm_iter(d->cs, &code, &left, &addr, in)) {
				code++;
				left--;
				addr++;
				continue;
			}
			if (in->id == X86_INS_JMP && in->detail->x86.op_count == 1 &&
			    in->detail->x86.operands[0].type == X86_OP_MEM &&
			    in->detail->x86.operands[0].mem.base == X86_REG_RIP) {
				u64 slot = addr + (u64)in->detail->x86.operands[0].mem.disp;
				const char *name = u64map_find(&slots, slot);

				if (name) {
					char full[600];

					snprintf(full, sizeof(full), "%s@plt", name);
					add_sym(d, sec->addr + (at - sec->addr) / ent * ent, ent, full, 0);
				}
			}
		}
		free(buf);
	}
	if (in)
		cs_free(in, 1);
	u64map_release(&slots);
	strpool_release(&pool);
}

struct disasm *disasm_open(const char *path, const char *debug_path, const struct symtab *plt,
			   bool runtime_labels, int *err)
{
	struct disasm *d;
	int ret;

	elf_version(EV_CURRENT);
	(void)plt;
	d = xcalloc(1, sizeof(*d));
	d->dw_fd = -1;
	strpool_init(&d->names);
	u64map_init(&d->files);
	d->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (d->fd < 0) {
		*err = -errno;
		goto fail;
	}
	d->elf = elf_begin(d->fd, ELF_C_READ_MMAP, NULL);
	if (!d->elf || elf_kind(d->elf) != ELF_K_ELF) {
		*err = -ENOTSUP;
		goto fail;
	}
	ret = load_sections(d);
	if (ret) {
		*err = ret;
		goto fail;
	}
	if (cs_open(CS_ARCH_X86, CS_MODE_64, &d->cs) != CS_ERR_OK) {
		*err = -ENOSYS;
		goto fail;
	}
	cs_option(d->cs, CS_OPT_SYNTAX, CS_OPT_SYNTAX_ATT);
	cs_option(d->cs, CS_OPT_DETAIL, CS_OPT_ON);
	d->debug_path = debug_path ? xstrdup(debug_path) : NULL;
	/* objdump names addresses from the file's .symtab; a stripped file's from its debug file */
	if (!load_symtab(d, d->elf, SHT_SYMTAB)) {
		int fd = d->debug_path && strcmp(d->debug_path, path)
				 ? open(d->debug_path, O_RDONLY | O_CLOEXEC) : -1;
		Elf *e = fd >= 0 ? elf_begin(fd, ELF_C_READ_MMAP, NULL) : NULL;
		bool from_debug = e && load_symtab(d, e, SHT_SYMTAB);

		if (from_debug && runtime_labels) {
			/* without -S objdump reads the stripped file alone: .dynsym, versioned */
			add_plt(d);
			add_got(d);
			if (d->nr_syms)
				qsort(d->syms, d->nr_syms, sizeof(*d->syms), cmp_dsym);
			d->fsyms = d->syms;
			d->nr_fsyms = d->nr_syms;
			d->syms = NULL;
			d->nr_syms = d->alloc_syms = 0;
			from_debug = false;
		}
		if (!from_debug)
			load_symtab(d, d->elf, SHT_DYNSYM);
		if (e)
			elf_end(e);
		if (fd >= 0)
			close(fd);
	}
	add_plt(d);
	add_got(d);
	if (d->nr_syms)
		qsort(d->syms, d->nr_syms, sizeof(*d->syms), cmp_dsym);
	pr_debug("disasm: %s (debug file %s): %zu symbols\n", path, debug_path ? debug_path : "-",
		 d->nr_syms);
	if (!d->fsyms) {
		d->fsyms = d->syms;
		d->nr_fsyms = d->nr_syms;
	}
	return d;
fail:
	disasm_close(d);
	return NULL;
}

struct disasm *disasm_open_kcore(const char *path, u64 start, u64 end, int *err)
{
	struct disasm *d;
	struct kcore kc;
	u64 off, avail;
	int ret;

	ret = kcore_open(&kc, path);
	if (ret) {
		*err = ret;
		return NULL;
	}
	if (end <= start || kcore_offset(&kc, start, &off, &avail)) {
		kcore_close(&kc);
		*err = -ERANGE;
		return NULL;
	}
	d = xcalloc(1, sizeof(*d));
	d->dw_fd = -1;
	d->dw_tried = true; /* no DWARF in a core file */
	strpool_init(&d->names);
	u64map_init(&d->files);
	/* the fd moves into @d; the segment table is not needed any more */
	d->fd = kc.fd;
	kc.fd = -1;
	kcore_close(&kc);
	/*
	 * perf hands objdump a copy of the symbol's bytes alone: one PT_LOAD,
	 * which objdump names "load0", starting at the symbol
	 */
	d->secs = xcalloc(1, sizeof(*d->secs));
	d->secs[0].addr = start;
	d->secs[0].size = MIN(end - start, avail);
	d->secs[0].offset = off;
	d->secs[0].name = xstrdup("load0");
	d->secs[0].exec = true;
	d->nr_secs = 1;
	if (cs_open(CS_ARCH_X86, CS_MODE_64, &d->cs) != CS_ERR_OK) {
		disasm_close(d);
		*err = -ENOSYS;
		return NULL;
	}
	cs_option(d->cs, CS_OPT_SYNTAX, CS_OPT_SYNTAX_ATT);
	cs_option(d->cs, CS_OPT_DETAIL, CS_OPT_ON);
	pr_debug("disasm: %s: %#" PRIx64 "-%#" PRIx64 " at offset %#" PRIx64 "\n", path, start,
		 start + d->secs[0].size, off);
	return d;
}

static int free_srcfile(uint64_t key, void *val, void *arg)
{
	struct srcfile *sf = val;

	(void)key;
	(void)arg;
	free(sf->buf);
	free(sf->lines);
	free(sf);
	return 0;
}

void disasm_set_intel(struct disasm *d, bool intel)
{
	d->intel = intel;
	/* capstone names and orders the operands by its syntax: Intel's for objdump -M intel */
	cs_option(d->cs, CS_OPT_SYNTAX, intel ? CS_OPT_SYNTAX_INTEL : CS_OPT_SYNTAX_ATT);
}

void disasm_close(struct disasm *d)
{
	if (!d)
		return;
	if (d->cs)
		cs_close(&d->cs);
	for (size_t i = 0; i < d->nr_secs; i++)
		free((char *)d->secs[i].name);
	free(d->secs);
	if (d->fsyms != d->syms) {
		for (size_t i = 0; i < d->nr_fsyms; i++)
			free((char *)d->fsyms[i].name);
		free(d->fsyms);
	}
	for (size_t i = 0; i < d->nr_syms; i++)
		free((char *)d->syms[i].name);
	free(d->syms);
	if (d->elf)
		elf_end(d->elf);
	if (d->fd >= 0)
		close(d->fd);
	if (d->dl)
		dwarf_lazy_close(d->dl);
	else if (d->dw)
		dwarf_end(d->dw);
	if (d->dw_fd >= 0)
		close(d->dw_fd);
	free(d->debug_path);
	free(d->elf_below);
	u64map_for_each(&d->files, free_srcfile, NULL);
	u64map_release(&d->files);
	strpool_release(&d->names);
	free(d);
}

static const struct dsec *find_sec(const struct disasm *d, u64 addr)
{
	for (size_t i = 0; i < d->nr_secs; i++)
		if (addr >= d->secs[i].addr && addr < d->secs[i].addr + d->secs[i].size &&
		    !d->secs[i].nobits)
			return &d->secs[i];
	return NULL;
}

const char *disasm_section_name(struct disasm *d, u64 addr)
{
	const struct dsec *s = find_sec(d, addr);

	return s ? s->name : NULL;
}

static const struct dsym *sym_at_or_below(const struct disasm *d, u64 addr)
{
	size_t lo = 0, hi = d->nr_fsyms;
	const struct dsym *s;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (d->fsyms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	s = &d->fsyms[lo - 1];
	while (s > d->fsyms && s[-1].addr == s->addr)
		s--;
	return s;
}

const char *disasm_label(struct disasm *d, u64 addr, char *buf, size_t size)
{
	size_t lo = 0, hi = d->nr_syms;
	const struct dsym *s = NULL;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (d->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* the best ranked name of the nearest address at or below; a GOT slot only at its own */
	while (lo && !s) {
		size_t end = lo, start = lo - 1;

		while (start && d->syms[start - 1].addr == d->syms[end - 1].addr)
			start--;
		for (size_t i = start; i < end && !s; i++)
			if (!d->syms[i].exact || d->syms[i].addr == addr)
				s = &d->syms[i];
		lo = start;
	}
	if (!s) {
		/* below every symbol: objdump counts back from the first one */
		for (size_t i = 0; i < d->nr_syms; i++) {
			if (!d->syms[i].exact) {
				snprintf(buf, size, "%s-0x%" PRIx64, d->syms[i].name,
					 d->syms[i].addr - addr);
				return buf;
			}
		}
		return NULL;
	}
	if (s->exact) {
		/* a GOT slot: its symbol, plus the slot's distance from a defined one's value */
		if (s->value && s->value < addr)
			snprintf(buf, size, "%s+0x%" PRIx64, s->name, addr - s->value);
		else if (s->value && s->value > addr)
			snprintf(buf, size, "%s-0x%" PRIx64, s->name, s->value - addr);
		else
			snprintf(buf, size, "%s", s->name);
	} else if (addr == s->addr) {
		snprintf(buf, size, "%s", s->name);
	} else {
		snprintf(buf, size, "%s+0x%" PRIx64, s->name, addr - s->addr);
	}
	return buf;
}

const char *disasm_block_label(struct disasm *d, u64 addr, char *buf, size_t size)
{
	const struct dsec *sec = find_sec(d, addr);
	const struct dsym *below = NULL, *above = NULL;

	if (!sec) {
		if (!disasm_label(d, addr, buf, size))
			snprintf(buf, size, "%s", "");
		return buf;
	}
	for (size_t i = 0; i < d->nr_syms; i++) {
		const struct dsym *y = &d->syms[i];

		if (y->exact || y->addr < sec->addr || y->addr >= sec->addr + sec->size)
			continue;
		/* the best ranked name of the highest address at or below; syms are sorted */
		if (y->addr <= addr && (!below || y->addr > below->addr))
			below = y;
		else if (y->addr > addr && !above)
			above = y;
	}
	if (below && below->addr == addr)
		snprintf(buf, size, "%s", below->name);
	else if (below)
		snprintf(buf, size, "%s+0x%" PRIx64, below->name, addr - below->addr);
	else if (above)
		snprintf(buf, size, "%s-0x%" PRIx64, above->name, above->addr - addr);
	else if (addr > sec->addr)
		snprintf(buf, size, "%s+0x%" PRIx64, sec->name, addr - sec->addr);
	else
		snprintf(buf, size, "%s", sec->name);
	return buf;
}

/* the first address above @addr where a symbol starts (objdump restarts decoding there) */
static u64 next_label(const struct disasm *d, u64 addr)
{
	size_t lo = 0, hi = d->nr_syms;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (d->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < d->nr_syms; lo++)
		if (!d->syms[lo].exact)
			return d->syms[lo].addr;
	return UINT64_MAX;
}

/* the executable section starting lowest in [@from, @end), or NULL */
static const struct dsec *next_exec_sec(const struct disasm *d, u64 from, u64 end)
{
	const struct dsec *best = NULL;

	for (size_t i = 0; i < d->nr_secs; i++) {
		const struct dsec *c = &d->secs[i];

		if (c->exec && !c->nobits && c->addr >= from && c->addr < end &&
		    (!best || c->addr < best->addr))
			best = c;
	}
	return best;
}

/* decode [@start, @end) of section @s into @v, the first one marked @brk */
static int decode_piece(struct disasm *d, const struct dsec *s, u64 start, u64 end, u8 brk,
			struct disasm_insn **v, size_t *n, size_t *alloc)
{
	u64 len = end - start, pos = 0;
	u8 *buf = xmalloc(len);
	ssize_t got = pread(d->fd, buf, len, (off_t)(s->offset + (start - s->addr)));
	struct strbuf sb = STRBUF_INIT;
	cs_insn *in;

	if (got < 0 || (u64)got != len) {
		free(buf);
		return -EIO;
	}
	in = cs_malloc(d->cs);
	while (pos < len) {
		const u8 *code = buf + pos;
		size_t left = len - pos;
		u64 addr = start + pos;
		struct disasm_insn *di;
		size_t el;

		if (*n == *alloc) {
			*alloc = *alloc ? 2 * *alloc : 64;
			*v = xrealloc(*v, *alloc * sizeof(**v));
		}
		di = &(*v)[(*n)++];
		memset(di, 0, sizeof(*di));
		di->addr = addr;
		di->brk = pos ? DISASM_BRK_NONE : brk;
		strbuf_reset(&sb);
		if ((el = disasm_zero_run(buf + pos, len - pos))) {
			di->zeros = (u32)el;
			di->text = xstrdup("...");
			pos += el;
			continue;
		}
		if (in && cs_disasm_iter(d->cs, &code, &left, &addr, in)) {
			di->len = (u8)in->size;
			disasm_format_insn(d, d->cs, d->intel, in, &sb);
		} else if ((el = evex_format(d, buf + pos, len - pos, start + pos, &sb)) ||
			   (el = vex_kmask_format(buf + pos, len - pos, &sb)) ||
			   (el = disasm_format_unknown(buf + pos, len - pos, &sb))) {
			di->len = (u8)el;	/* AVX-512, which capstone 4 does not know */
		} else if ((el = disasm_rex_vex(d, d->cs, d->intel, buf + pos, len - pos, start + pos,
						&sb))) {
			di->len = (u8)el;
		} else if (disasm_cut_insn(d, d->cs, buf + pos, len - pos, &sb)) {
			di->len = 1; /* the next byte starts afresh, as objdump goes on */
		} else {
			el = evex_length(buf + pos, len - pos);
			/* keep the following instructions in step */
			di->len = el ? (u8)el : 1;
			strbuf_addf(&sb, "(bad)");
		}
		/* an instruction running past the piece's end is cut there, as objdump stops */
		if (di->len > len - pos)
			di->len = (u8)(len - pos);
		memcpy(di->bytes, buf + pos, di->len);
		while (sb.len && sb.buf[sb.len - 1] == ' ')
			sb.buf[--sb.len] = 0;
		di->text = xstrdup(sb.buf);
		pos += di->len;
	}
	if (in)
		cs_free(in, 1);
	strbuf_release(&sb);
	free(buf);
	return 0;
}

int disasm_range(struct disasm *d, u64 start, u64 end, struct disasm_insn **out, size_t *nr)
{
	const struct dsec *s = find_sec(d, start);
	struct disasm_insn *v = NULL;
	size_t n = 0, alloc = 0;
	u8 brk = DISASM_BRK_NONE;
	u64 at = start;
	int ret = 0;

	*out = NULL;
	*nr = 0;
	if (!s || end <= start)
		return -ENOENT;
	/*
	 * objdump --start/--stop-address: each executable section's part of the
	 * range, decoding afresh at each symbol's start (perf gives a size-less
	 * symbol such as _init the bytes up to the next one, across .plt)
	 */
	while (s && at < end) {
		u64 sec_end = s->addr + s->size < end ? s->addr + s->size : end;

		while (at < sec_end) {
			u64 lab = next_label(d, at);
			u64 to = lab < sec_end ? lab : sec_end;

			ret = decode_piece(d, s, at, to, brk, &v, &n, &alloc);
			if (ret)
				break;
			brk = DISASM_BRK_LABEL;
			at = to;
		}
		if (ret)
			break;
		s = next_exec_sec(d, sec_end, end);
		if (s) {
			at = s->addr;
			brk = DISASM_BRK_SECTION;
		}
	}
	if (ret && !n) {
		free(v);
		return ret;
	}
	*out = v;
	*nr = n;
	return 0;
}

void disasm_insns_free(struct disasm_insn *insns, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		free(insns[i].text);
	free(insns);
}

/* ---- DWARF lines and functions, source text ---- */

static Dwarf *get_dwarf(struct disasm *d)
{
	if (d->dw_tried)
		return d->dw;
	d->dw_tried = true;
	if (d->debug_path) {
		d->dw_fd = open(d->debug_path, O_RDONLY | O_CLOEXEC);
		if (d->dw_fd >= 0) {
			/* one symbol's lines need one unit: not libdw's inflating of them all */
			d->dl = dwarf_lazy_open(d->dw_fd);
			d->dw = d->dl ? dwarf_lazy_dwarf(d->dl) : dwarf_begin(d->dw_fd, DWARF_C_READ);
			if (!d->dw) {
				close(d->dw_fd);
				d->dw_fd = -1;
			}
		}
	}
	if (!d->dw && d->elf)
		d->dw = dwarf_begin_elf(d->elf, DWARF_C_READ, NULL);
	return d->dw;
}

/*
 * objdump -l's function text: the linkage name, demangled with its
 * parameters when mangled, else with "()" (an asm label such as glibc's
 * "__GI___libc_malloc"); without one the DWARF name with "()"
 */
static const char *func_text(struct disasm *d, Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	const char *name = NULL;
	const char *r;
	char *dm = NULL;

	if (dwarf_attr_integrate(die, DW_AT_linkage_name, &attr) ||
	    dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &attr))
		name = dwarf_formstring(&attr);
	if (name && demangle_is_mangled(name))
		dm = demangle(name, DEMANGLE_PARAMS);
	if (dm) {
		r = strpool_intern(&d->names, dm);
		free(dm);
		return r;
	}
	/* a C linkage name (an asm label: glibc's "__GI_bsearch") wins over the plain name */
	if (!name &&
	    (!dwarf_attr_integrate(die, DW_AT_name, &attr) || !(name = dwarf_formstring(&attr))))
		return NULL;
	{
		struct strbuf sb = STRBUF_INIT;

		strbuf_addf(&sb, "%s()", name);
		r = strpool_intern(&d->names, sb.buf);
		strbuf_release(&sb);
	}
	return r;
}

/*
 * objdump -l's function from the symbol table (an assembler unit, code no
 * DWARF unit covers, a file without DWARF): of the .symtab names at the
 * nearest start at or below @addr in its section, the first in byte order
 */
static const char *asm_func_text(struct disasm *d, u64 addr)
{
	const struct dsym *sym = sym_at_or_below(d, addr), *best = NULL;
	const struct dsec *sec = find_sec(d, addr);
	struct strbuf sb = STRBUF_INIT;
	const char *r;

	/* objdump's synthetic names (f@plt, GOT slots) are not in the table */
	if (sym) {
		const struct dsym *last = sym;
		ssize_t j;

		if (!d->elf_below) {
			d->elf_below = xmalloc(d->nr_fsyms * sizeof(*d->elf_below));
			for (size_t i = 0; i < d->nr_fsyms; i++)
				d->elf_below[i] = d->fsyms[i].is_elf ? (ssize_t)i
					       : i ? d->elf_below[i - 1] : -1;
		}
		/* the nearest address at or below with a table symbol: its first name */
		while (last + 1 < d->fsyms + d->nr_fsyms && last[1].addr == sym->addr)
			last++;
		j = d->elf_below[last - d->fsyms];
		sym = j < 0 ? NULL : sym_at_or_below(d, d->fsyms[j].addr);
	}
	if (!sym || !sec || sym->addr < sec->addr || sym->addr >= sec->addr + sec->size)
		return NULL;
	for (const struct dsym *o = sym; o < d->fsyms + d->nr_fsyms && o->addr == sym->addr; o++)
		if ((!o->size || addr < o->addr + o->size) && o->is_elf &&
		    (!best || strcmp(o->name, best->name) < 0))
			best = o;
	if (!best)
		return NULL;
	strbuf_addf(&sb, "%s%s", best->name, strchr(best->name, '(') ? "" : "()");
	r = strpool_intern(&d->names, sb.buf);
	strbuf_release(&sb);
	return r;
}

/*
 * addr2line's file for code without DWARF: the STT_FILE symbol before the
 * function's in .symtab ("nd.c" for a static function), NULL when there is
 * none or it is empty (a global one, after the linker's empty STT_FILE)
 */
static const char *symtab_file(struct disasm *d, u64 addr)
{
	const struct dsym *sym = sym_at_or_below(d, addr);

	for (const struct dsym *o = sym; o && o < d->fsyms + d->nr_fsyms && o->addr == sym->addr;
	     o++)
		if (o->is_elf && (!o->size || addr < o->addr + o->size))
			return o->file && *o->file ? o->file : NULL;
	return NULL;
}

static const char *scope_func(struct disasm *d, Dwarf_Die *cu, u64 addr)
{
	Dwarf_Die *scopes = NULL;
	int n;
	const char *r = NULL;

	if (dwarf_srclang(cu) == DW_LANG_Mips_Assembler)
		return asm_func_text(d, addr);
	n = dwarf_getscopes(cu, addr, &scopes);

	for (int i = 0; i < n; i++) {
		int tag = dwarf_tag(&scopes[i]);

		if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine) {
			r = func_text(d, &scopes[i]);
			break;
		}
	}
	free(scopes);
	return r;
}

/*
 * The function around the instructions, walked once: its ranges and every
 * inlined call in it (with its nesting depth), so that each instruction's
 * innermost function is a lookup, not a walk of the unit's DIEs.
 */
struct inl_range {
	u64 lo, hi;
	int depth;
	Dwarf_Die die;
	const char *name; /* made on first use */
};

struct func_scope {
	bool valid;
	Dwarf_Die sub;
	u64 *ranges; /* lo, hi pairs of @sub */
	size_t nr_ranges;
	const char *outer;
	struct inl_range *inl;
	size_t nr_inl, alloc_inl;
};

static void add_ranges(Dwarf_Die *die, int depth, struct func_scope *fs)
{
	Dwarf_Addr base, lo, hi;
	ptrdiff_t off = 0;

	while ((off = dwarf_ranges(die, off, &base, &lo, &hi)) > 0) {
		if (fs->nr_inl == fs->alloc_inl) {
			fs->alloc_inl = fs->alloc_inl ? 2 * fs->alloc_inl : 16;
			fs->inl = xrealloc(fs->inl, fs->alloc_inl * sizeof(*fs->inl));
		}
		fs->inl[fs->nr_inl].lo = lo;
		fs->inl[fs->nr_inl].hi = hi;
		fs->inl[fs->nr_inl].depth = depth;
		fs->inl[fs->nr_inl].die = *die;
		fs->inl[fs->nr_inl].name = NULL;
		fs->nr_inl++;
	}
}

static void collect_inlines(Dwarf_Die *parent, int depth, struct func_scope *fs)
{
	Dwarf_Die child;

	if (dwarf_child(parent, &child))
		return;
	do {
		int tag = dwarf_tag(&child);

		if (tag == DW_TAG_inlined_subroutine) {
			add_ranges(&child, depth, fs);
			collect_inlines(&child, depth + 1, fs);
		} else if (tag == DW_TAG_lexical_block) {
			collect_inlines(&child, depth, fs);
		}
	} while (!dwarf_siblingof(&child, &child));
}

static bool func_scope_has(const struct func_scope *fs, u64 addr)
{
	for (size_t i = 0; fs->valid && i < fs->nr_ranges; i++)
		if (addr >= fs->ranges[2 * i] && addr < fs->ranges[2 * i + 1])
			return true;
	return false;
}

static bool func_scope_set(struct disasm *d, struct func_scope *fs, Dwarf_Die *cu, u64 addr)
{
	Dwarf_Die *scopes = NULL;
	int n = dwarf_getscopes(cu, addr, &scopes);
	Dwarf_Addr base, lo, hi;
	ptrdiff_t off = 0;
	int i;

	fs->valid = false;
	fs->nr_ranges = 0;
	fs->nr_inl = 0;
	for (i = 0; i < n && dwarf_tag(&scopes[i]) != DW_TAG_subprogram; i++)
		;
	if (i >= n) {
		free(scopes);
		return false;
	}
	fs->sub = scopes[i];
	free(scopes);
	while ((off = dwarf_ranges(&fs->sub, off, &base, &lo, &hi)) > 0) {
		fs->ranges = xrealloc(fs->ranges, 2 * (fs->nr_ranges + 1) * sizeof(u64));
		fs->ranges[2 * fs->nr_ranges] = lo;
		fs->ranges[2 * fs->nr_ranges + 1] = hi;
		fs->nr_ranges++;
	}
	fs->outer = func_text(d, &fs->sub);
	collect_inlines(&fs->sub, 1, fs);
	fs->valid = true;
	return true;
}

static const char *func_scope_name(struct disasm *d, struct func_scope *fs, u64 addr)
{
	struct inl_range *best = NULL;

	for (size_t i = 0; i < fs->nr_inl; i++)
		if (addr >= fs->inl[i].lo && addr < fs->inl[i].hi &&
		    (!best || fs->inl[i].depth > best->depth))
			best = &fs->inl[i];
	if (!best)
		return fs->outer;
	if (!best->name)
		best->name = func_text(d, &best->die);
	return best->name;
}

/*
 * The address ranges of the unit in hand, so that the next instruction
 * stays in it without a lookup: a unit split over hot and cold text
 * (DW_AT_ranges) keeps its function walk too.
 */
struct cu_ranges {
	u64 *ranges; /* lo, hi pairs */
	size_t nr, alloc;
};

static void cu_ranges_set(struct cu_ranges *cr, Dwarf_Die *cu)
{
	Dwarf_Addr base, lo, hi;
	ptrdiff_t off = 0;

	cr->nr = 0;
	while ((off = dwarf_ranges(cu, off, &base, &lo, &hi)) > 0) {
		if (cr->nr == cr->alloc) {
			cr->alloc = cr->alloc ? 2 * cr->alloc : 8;
			cr->ranges = xrealloc(cr->ranges, 2 * cr->alloc * sizeof(u64));
		}
		cr->ranges[2 * cr->nr] = lo;
		cr->ranges[2 * cr->nr + 1] = hi;
		cr->nr++;
	}
}

static bool cu_ranges_has(const struct cu_ranges *cr, u64 addr)
{
	for (size_t i = 0; i < cr->nr; i++)
		if (addr >= cr->ranges[2 * i] && addr < cr->ranges[2 * i + 1])
			return true;
	return false;
}

int disasm_lines(struct disasm *d, struct disasm_insn *insns, size_t nr)
{
	Dwarf *dw = get_dwarf(d);
	Dwarf_Die cu;
	bool have_cu = false, any = false, is_asm = false;
	struct cu_ranges cr = { 0 };
	struct func_scope fs = { 0 };

	if (!dw) {
		/* no DWARF: objdump -l still names each function from the symbol table */
		for (size_t i = 0; i < nr; i++) {
			if (insns[i].zeros)
				continue;
			insns[i].func = asm_func_text(d, insns[i].addr);
			insns[i].symfile = symtab_file(d, insns[i].addr);
		}
		return -ENOENT;
	}
	for (size_t i = 0; i < nr; i++) {
		struct disasm_insn *in = &insns[i];
		Dwarf_Line *l;

		if (in->zeros)
			continue; /* objdump's "...": no instruction to place */
		int line = 0;
		unsigned int discr = 0;
		const char *f;

		if (!have_cu || !cu_ranges_has(&cr, in->addr)) {
			have_cu = (d->dl ? dwarf_lazy_addrdie(d->dl, in->addr, &cu)
					 : dwarf_addrdie(dw, in->addr, &cu)) != NULL;
			if (!have_cu) {
				/* code no unit covers (crt's _init): the symbol table's name */
				in->func = asm_func_text(d, in->addr);
				in->symfile = symtab_file(d, in->addr);
				continue;
			}
			cu_ranges_set(&cr, &cu);
			is_asm = dwarf_srclang(&cu) == DW_LANG_Mips_Assembler;
			fs.valid = false;
		}
		l = dwarf_getsrc_die(&cu, in->addr);
		if (!l)
			continue;
		f = srcline_line_src(&cu, l);
		dwarf_lineno(l, &line);
		dwarf_linediscriminator(l, &discr);
		if (f && f[0] != '/') {
			/* objdump puts a relative path after the unit's compilation directory */
			Dwarf_Attribute attr;
			const char *dir = dwarf_attr(&cu, DW_AT_comp_dir, &attr) ? dwarf_formstring(&attr)
										  : NULL;

			if (dir && *dir) {
				struct strbuf sb = STRBUF_INIT;

				strbuf_addf(&sb, "%s/%s", dir, f);
				in->file = strpool_intern(&d->names, sb.buf);
				strbuf_release(&sb);
			} else {
				in->file = strpool_intern(&d->names, f);
			}
		} else {
			in->file = f ? strpool_intern(&d->names, f) : NULL;
		}
		in->line = line > 0 ? (unsigned int)line : 0;
		in->discr = discr;
		if (is_asm)
			in->func = asm_func_text(d, in->addr);
		else if (func_scope_has(&fs, in->addr) || func_scope_set(d, &fs, &cu, in->addr))
			in->func = func_scope_name(d, &fs, in->addr);
		else
			in->func = scope_func(d, &cu, in->addr);
		/* no function in the DWARF (crt files, some assembler): objdump names the symbol */
		if (!in->func)
			in->func = asm_func_text(d, in->addr);
		any = true;
	}
	free(fs.ranges);
	free(fs.inl);
	free(cr.ranges);
	return any ? 0 : -ENOENT;
}

void disasm_warm_lines(struct disasm *d, u64 addr)
{
	Dwarf_Die cu;

	if (get_dwarf(d) && d->dl)
		dwarf_lazy_addrdie(d->dl, addr, &cu);
}

static struct srcfile *srcfile_get(struct disasm *d, const char *file)
{
	const char *key = strpool_intern(&d->names, file);
	struct srcfile *sf = u64map_find(&d->files, (u64)(uintptr_t)key);
	FILE *fp;
	size_t len = 0, alloc = 0, nl = 0;
	char tmp[65536];
	size_t got;

	if (sf)
		return sf;
	sf = xcalloc(1, sizeof(*sf));
	u64map_set(&d->files, (u64)(uintptr_t)key, sf);
	fp = fopen(file, "r");
	if (!fp) {
		sf->missing = true;
		return sf;
	}
	while ((got = fread(tmp, 1, sizeof(tmp), fp)) > 0) {
		if (len + got + 1 > alloc) {
			alloc = 2 * (len + got + 1);
			sf->buf = xrealloc(sf->buf, alloc);
		}
		memcpy(sf->buf + len, tmp, got);
		len += got;
	}
	fclose(fp);
	if (!sf->buf)
		sf->buf = xcalloc(1, 1);
	sf->buf[len] = 0;
	for (size_t i = 0; i < len; i++)
		nl += sf->buf[i] == '\n';
	sf->lines = xcalloc(nl + 2, sizeof(char *));
	{
		char *p = sf->buf;

		while (*p || p < sf->buf + len) {
			char *e = memchr(p, '\n', (size_t)(sf->buf + len - p));

			sf->lines[sf->nr_lines++] = p;
			if (!e)
				break;
			*e = 0;
			p = e + 1;
			if (p >= sf->buf + len)
				break;
		}
	}
	return sf;
}

const char *disasm_source_line(struct disasm *d, const char *file, unsigned int line)
{
	struct srcfile *sf;

	if (!file || !line)
		return NULL;
	sf = srcfile_get(d, file);
	if (sf->missing || line > sf->nr_lines)
		return NULL;
	return sf->lines[line - 1];
}
