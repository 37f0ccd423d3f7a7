/* SPDX-License-Identifier: MIT */
/* inject --jit: jitdump files (jit-PID.dump) turned into one small ELF per JIT_CODE_LOAD and MMAP2 records for them. */
#include "cmd/inject-jit.h"
#include "lib/hashmap.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* the jitdump layout (host byte order; the header's magic tells) */
#define JITDUMP_MAGIC 0x4A695444u
enum { JIT_CODE_LOAD = 0, JIT_CODE_MOVE, JIT_CODE_DEBUG_INFO, JIT_CODE_CLOSE, JIT_CODE_UNWINDING_INFO };

struct jd_file_header {
	u32 magic, version, total_size, elf_mach, pad1, pid;
	u64 timestamp, flags;
};

struct jd_rec_header {
	u32 id, total_size;
	u64 timestamp;
};

struct jd_code_load {
	struct jd_rec_header h;
	u32 pid, tid;
	u64 vma, code_addr, code_size, code_index;
};

/* the offset of .text in the ELF files written here (after the ELF and program headers) */
#define JIT_TEXT_OFF 0x80

bool jit_is_marker(const char *filename)
{
	const char *base = strrchr(filename, '/');
	int pid, n = 0;

	base = base ? base + 1 : filename;
	return sscanf(base, "jit-%d.dump%n", &pid, &n) == 1 && base[n] == 0;
}

static void put_bytes(struct strbuf *sb, const void *p, size_t n)
{
	strbuf_add(sb, p, n);
}

/* a 20-byte build-id over the code, its name and address (any stable digest will do) */
static void jit_build_id(const struct jd_code_load *r, const char *name, const u8 *code, u8 *bid)
{
	u64 h[3];

	h[0] = hash_bytes(code, r->code_size) ^ (r->code_addr * 0x9e3779b97f4a7c15ULL);
	h[1] = hash_bytes(name, strlen(name)) ^ r->code_addr;
	h[2] = hash_bytes(h, 16) ^ r->code_index;
	memcpy(bid, h, 20);
}

/*
 * One ELF shared object: .text (the code, at file offset and address
 * JIT_TEXT_OFF), a .symtab with the one function, .strtab, .shstrtab and a
 * GNU build-id note.
 */
static int write_elf(const char *path, const struct jd_code_load *r, const char *name,
		     const u8 *code, u16 machine, u8 *bid)
{
	static const char shstr[] = "\0.text\0.shstrtab\0.symtab\0.strtab\0.note.gnu.build-id";
	enum { SH_TEXT = 1, SH_SHSTR = 7, SH_SYMTAB = 17, SH_STRTAB = 25, SH_NOTE = 33 };
	struct strbuf sb = STRBUF_INIT;
	Elf64_Ehdr eh = { 0 };
	Elf64_Phdr ph = { 0 };
	Elf64_Shdr sh[6] = { { 0 } };
	Elf64_Sym syms[2] = { { 0 } };
	Elf64_Nhdr nh = { 4, 20, NT_GNU_BUILD_ID };
	size_t off, name_len = strlen(name) + 1;
	int fd, ret = 0;

	jit_build_id(r, name, code, bid);
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_type = ET_DYN;
	eh.e_machine = machine;
	eh.e_version = EV_CURRENT;
	eh.e_entry = JIT_TEXT_OFF;
	eh.e_phoff = sizeof(eh);
	eh.e_ehsize = sizeof(eh);
	eh.e_phentsize = sizeof(ph);
	eh.e_phnum = 1;
	eh.e_shentsize = sizeof(Elf64_Shdr);
	eh.e_shnum = 6;
	eh.e_shstrndx = 2;
	ph.p_type = PT_LOAD;
	ph.p_flags = PF_R | PF_X;
	ph.p_offset = ph.p_vaddr = ph.p_paddr = JIT_TEXT_OFF;
	ph.p_filesz = ph.p_memsz = r->code_size;
	ph.p_align = 16;

	strbuf_addchars(&sb, 0, JIT_TEXT_OFF);
	put_bytes(&sb, code, r->code_size);
	sh[1] = (Elf64_Shdr){ .sh_name = SH_TEXT, .sh_type = SHT_PROGBITS, .sh_flags = SHF_ALLOC | SHF_EXECINSTR,
			       .sh_addr = JIT_TEXT_OFF, .sh_offset = JIT_TEXT_OFF, .sh_size = r->code_size,
			       .sh_addralign = 16 };
	off = sb.len;
	put_bytes(&sb, shstr, sizeof(shstr));
	sh[2] = (Elf64_Shdr){ .sh_name = SH_SHSTR, .sh_type = SHT_STRTAB, .sh_offset = off,
			       .sh_size = sizeof(shstr), .sh_addralign = 1 };
	strbuf_addchars(&sb, 0, (8 - sb.len % 8) % 8);
	syms[1].st_name = 1;
	syms[1].st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC);
	syms[1].st_shndx = 1;
	syms[1].st_value = JIT_TEXT_OFF;
	syms[1].st_size = r->code_size;
	off = sb.len;
	put_bytes(&sb, syms, sizeof(syms));
	sh[3] = (Elf64_Shdr){ .sh_name = SH_SYMTAB, .sh_type = SHT_SYMTAB, .sh_offset = off,
			       .sh_size = sizeof(syms), .sh_link = 4, .sh_info = 1, .sh_addralign = 8,
			       .sh_entsize = sizeof(Elf64_Sym) };
	off = sb.len;
	strbuf_addchars(&sb, 0, 1);
	put_bytes(&sb, name, name_len);
	sh[4] = (Elf64_Shdr){ .sh_name = SH_STRTAB, .sh_type = SHT_STRTAB, .sh_offset = off,
			       .sh_size = name_len + 1, .sh_addralign = 1 };
	strbuf_addchars(&sb, 0, (4 - sb.len % 4) % 4);
	off = sb.len;
	put_bytes(&sb, &nh, sizeof(nh));
	put_bytes(&sb, "GNU", 4);
	put_bytes(&sb, bid, 20);
	sh[5] = (Elf64_Shdr){ .sh_name = SH_NOTE, .sh_type = SHT_NOTE, .sh_flags = SHF_ALLOC,
			       .sh_offset = off, .sh_size = sb.len - off, .sh_addralign = 4 };
	strbuf_addchars(&sb, 0, (8 - sb.len % 8) % 8);
	eh.e_shoff = sb.len;
	put_bytes(&sb, sh, sizeof(sh));
	memcpy(sb.buf, &eh, sizeof(eh));
	memcpy(sb.buf + sizeof(eh), &ph, sizeof(ph));

	fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0644);
	if (fd < 0)
		ret = -errno;
	else if (write(fd, sb.buf, sb.len) != (ssize_t)sb.len)
		ret = -EIO;
	if (fd >= 0 && close(fd) && !ret)
		ret = -errno;
	strbuf_release(&sb);
	return ret;
}

static int load_cmp(const void *a, const void *b)
{
	const struct jit_load *x = a, *y = b;

	return x->time < y->time ? -1 : x->time > y->time;
}

int jit_read_dump(const char *dump_path, struct jit_load **loads, int *nr)
{
	char dir[4096];
	const char *slash = strrchr(dump_path, '/');
	struct jd_file_header fh;
	struct stat st, so;
	u8 *map;
	size_t pos;
	int fd, ret = 0, first = *nr;

	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - dump_path) : 1,
		 slash ? dump_path : ".");
	fd = open(dump_path, O_RDONLY);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || (size_t)st.st_size < sizeof(fh)) {
		close(fd);
		return -EINVAL;
	}
	map = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return -errno;
	memcpy(&fh, map, sizeof(fh));
	if (fh.magic != JITDUMP_MAGIC || fh.total_size < sizeof(fh) || fh.total_size > st.st_size) {
		munmap(map, st.st_size);
		return -EINVAL; /* other-endian dumps are not supported */
	}
	for (pos = fh.total_size; pos + sizeof(struct jd_rec_header) <= (size_t)st.st_size;) {
		struct jd_rec_header rh;
		struct jd_code_load r;
		struct jit_load *l;
		const char *name;
		size_t name_max;

		memcpy(&rh, map + pos, sizeof(rh));
		if (rh.total_size < sizeof(rh) || rh.total_size > st.st_size - pos)
			break; /* a record still being written: stop there, as perf */
		if (rh.id != JIT_CODE_LOAD || rh.total_size < sizeof(r)) {
			pos += rh.total_size;
			continue;
		}
		memcpy(&r, map + pos, sizeof(r));
		name = (const char *)map + pos + sizeof(r);
		name_max = rh.total_size - sizeof(r);
		if (!memchr(name, 0, name_max) || strlen(name) + 1 + r.code_size > name_max) {
			pos += rh.total_size;
			continue;
		}
		*loads = xrealloc(*loads, (*nr + 1) * sizeof(**loads));
		l = &(*loads)[(*nr)++];
		memset(l, 0, sizeof(*l));
		l->time = r.h.timestamp;
		l->pid = r.pid;
		l->tid = r.tid;
		l->addr = r.code_addr;
		l->len = r.code_size;
		l->pgoff = JIT_TEXT_OFF;
		snprintf(l->path, sizeof(l->path), "%s/jitted-%u-%llu.so", dir, r.pid,
			 (unsigned long long)r.code_index);
		ret = write_elf(l->path, &r, name, (const u8 *)name + strlen(name) + 1,
				fh.elf_mach, l->build_id);
		if (ret || stat(l->path, &so)) {
			ret = ret ? ret : -errno;
			break;
		}
		l->dev = so.st_dev;
		l->ino = so.st_ino;
		l->mode = so.st_mode;
		pos += rh.total_size;
	}
	munmap(map, (size_t)st.st_size);
	if (*nr - first > 1)
		qsort(*loads + first, (size_t)(*nr - first), sizeof(**loads), load_cmp);
	return ret;
}
