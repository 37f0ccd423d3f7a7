/* SPDX-License-Identifier: MIT */
/* SDT notes of an ELF file and their uprobe definitions (libelf). */
#include "symbol/sdt.h"

#include "lib/xalloc.h"
#include "symbol/elf.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NT_STAPSDT 3

/* the address of section @name, or 0 */
static u64 section_addr(Elf *elf, const char *name)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return 0;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *n;

		if (!gelf_getshdr(scn, &sh))
			continue;
		n = elf_strptr(elf, shstrndx, sh.sh_name);
		if (n && !strcmp(n, name))
			return sh.sh_addr;
	}
	return 0;
}

/* one note's descriptor: three addresses, then provider, name, args */
static int parse_note(const char *desc, size_t len, int addr_size, u64 base_actual,
		      const struct load_segment *segs, size_t nr_segs, struct sdt_note *n)
{
	u64 a[3] = { 0 };
	const char *p = desc + 3 * addr_size, *end = desc + len;
	const char *prov, *name, *args;

	if (len < (size_t)(3 * addr_size) + 3)
		return -EINVAL;
	for (int i = 0; i < 3; i++) {
		if (addr_size == 8) {
			memcpy(&a[i], desc + 8 * i, 8);
		} else {
			u32 v;

			memcpy(&v, desc + 4 * i, 4);
			a[i] = v;
		}
	}
	prov = p;
	p = memchr(p, 0, (size_t)(end - p));
	if (!p++)
		return -EINVAL;
	name = p;
	p = memchr(p, 0, (size_t)(end - p));
	if (!p++)
		return -EINVAL;
	args = p < end ? p : "";
	if (p < end && !memchr(p, 0, (size_t)(end - p)))
		return -EINVAL;
	/* prelinked binaries moved: the note's base against .stapsdt.base */
	if (base_actual && a[1]) {
		a[0] += base_actual - a[1];
		if (a[2])
			a[2] += base_actual - a[1];
	}
	memset(n, 0, sizeof(*n));
	if (!elf_vaddr_to_offset(segs, nr_segs, a[0], &n->offset))
		return -ENOENT;
	if (a[2] && !elf_vaddr_to_offset(segs, nr_segs, a[2], &n->sem_offset))
		n->sem_offset = 0;
	n->provider = xstrdup(prov);
	n->name = xstrdup(name);
	n->args = xstrdup(args);
	return 0;
}

int sdt_notes_read(const char *path, struct sdt_note **notes)
{
	struct elf_syms_info info = { 0 };
	struct sdt_note *v = NULL;
	size_t nr = 0, shstrndx;
	Elf_Scn *scn = NULL;
	Elf *elf;
	u64 base;
	int fd, ret;

	*notes = NULL;
	ret = elf_read_info(path, &info);
	if (ret)
		return ret;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		free(info.segs);
		return -errno;
	}
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF || elf_getshdrstrndx(elf, &shstrndx)) {
		ret = -ENOTSUP;
		goto out;
	}
	base = section_addr(elf, ".stapsdt.base");
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *data;
		const char *sname;
		size_t off = 0, noff, doff;
		GElf_Nhdr nh;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		sname = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!sname || strcmp(sname, ".note.stapsdt") || !(data = elf_getdata(scn, NULL)))
			continue;
		while ((off = gelf_getnote(data, off, &nh, &noff, &doff)) > 0) {
			struct sdt_note n;

			if (nh.n_type != NT_STAPSDT || nh.n_namesz != sizeof("stapsdt") ||
			    memcmp((char *)data->d_buf + noff, "stapsdt", sizeof("stapsdt")))
				continue;
			if (parse_note((char *)data->d_buf + doff, nh.n_descsz,
				       gelf_getclass(elf) == ELFCLASS64 ? 8 : 4, base, info.segs,
				       info.nr_segs, &n))
				continue;
			v = xrealloc(v, (nr + 1) * sizeof(*v));
			v[nr++] = n;
		}
	}
	*notes = v;
	ret = (int)nr;
out:
	if (elf)
		elf_end(elf);
	close(fd);
	free(info.segs);
	return ret;
}

void sdt_notes_free(struct sdt_note *notes, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		free(notes[i].provider);
		free(notes[i].name);
		free(notes[i].args);
	}
	free(notes);
}

/* x86-64 register spellings of every width, by their 64-bit short name */
static const struct {
	const char *name;
	const char *alias[4];
} sdt_regs[] = {
	{ "ax", { "rax", "eax", "ax", "al" } },	    { "bx", { "rbx", "ebx", "bx", "bl" } },
	{ "cx", { "rcx", "ecx", "cx", "cl" } },	    { "dx", { "rdx", "edx", "dx", "dl" } },
	{ "si", { "rsi", "esi", "si", "sil" } },    { "di", { "rdi", "edi", "di", "dil" } },
	{ "bp", { "rbp", "ebp", "bp", "bpl" } },    { "sp", { "rsp", "esp", "sp", "spl" } },
	{ "r8", { "r8", "r8d", "r8w", "r8b" } },    { "r9", { "r9", "r9d", "r9w", "r9b" } },
	{ "r10", { "r10", "r10d", "r10w", "r10b" } }, { "r11", { "r11", "r11d", "r11w", "r11b" } },
	{ "r12", { "r12", "r12d", "r12w", "r12b" } }, { "r13", { "r13", "r13d", "r13w", "r13b" } },
	{ "r14", { "r14", "r14d", "r14w", "r14b" } }, { "r15", { "r15", "r15d", "r15w", "r15b" } },
	{ "ip", { "rip", "eip", "ip", NULL } },
};

static const char *reg64(const char *s, size_t len)
{
	for (size_t i = 0; i < ARRAY_SIZE(sdt_regs); i++)
		for (int j = 0; j < 4 && sdt_regs[i].alias[j]; j++)
			if (strlen(sdt_regs[i].alias[j]) == len && !strncmp(sdt_regs[i].alias[j], s, len))
				return sdt_regs[i].name;
	return NULL;
}

/* one operand: %reg, [OFF](%reg); false when it has no uprobe form */
static bool operand(struct strbuf *out, const char *op)
{
	const char *reg;
	char *end;
	long off = 0;

	if (op[0] == '%') {
		reg = reg64(op + 1, strlen(op + 1));
		if (!reg)
			return false;
		strbuf_addf(out, "%%%s", reg);
		return true;
	}
	if (op[0] != '(')
		off = strtol(op, &end, 10);
	else
		end = (char *)op;
	if (end == op && op[0] != '(')
		return false;
	if (end[0] != '(' || end[1] != '%' || !strchr(end, ')'))
		return false;
	reg = reg64(end + 2, (size_t)(strchr(end, ')') - end - 2));
	if (!reg || strchr(end, ')')[1])
		return false;
	strbuf_addf(out, "%+ld(%%%s)", off, reg);
	return true;
}

int sdt_args_format(struct strbuf *out, const char *args)
{
	char *copy = xstrdup(args), *save = NULL;
	int idx = 0;

	for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		char *at = strchr(w, '@');
		size_t mark = out->len;
		long size;
		bool is_signed;

		idx++;
		if (!at)
			continue;
		is_signed = w[0] == '-';
		size = labs(strtol(w, NULL, 10));
		if (size != 1 && size != 2 && size != 4 && size != 8)
			continue;
		strbuf_addf(out, " arg%d=", idx);
		if (!operand(out, at + 1)) {
			strbuf_setlen(out, mark);
			continue;
		}
		strbuf_addf(out, ":%c%ld", is_signed ? 's' : 'u', size * 8);
	}
	free(copy);
	return 0;
}

void sdt_probes_format(struct strbuf *out, const char *path, const struct sdt_note *notes,
		       size_t nr)
{
	bool *done = xcalloc(nr + 1, sizeof(*done));

	for (size_t i = 0; i < nr; i++) {
		if (done[i])
			continue;
		strbuf_addf(out, "%%sdt_%s:%s=%s\n", notes[i].provider, notes[i].name, notes[i].name);
		for (size_t j = i; j < nr; j++) {
			const struct sdt_note *n = &notes[j];

			if (done[j] || strcmp(n->provider, notes[i].provider) ||
			    strcmp(n->name, notes[i].name))
				continue;
			done[j] = true;
			strbuf_addf(out, "p:sdt_%s/%s %s:0x%" PRIx64, n->provider, n->name, path,
				    n->offset);
			if (n->sem_offset)
				strbuf_addf(out, "(0x%" PRIx64 ")", n->sem_offset);
			sdt_args_format(out, n->args);
			strbuf_addch(out, '\n');
		}
	}
	free(done);
}
