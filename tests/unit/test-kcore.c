/* SPDX-License-Identifier: MIT */
/* Unit tests: kcore files (PT_LOAD segments, bytes by kernel address), their disassembly, the kernel image's sources. */
#include "test.h"

#include "lib/hashmap.h"
#include "lib/lazy-libs.h"
#include "lib/strbuf.h"
#include "symbol/disasm.h"
#include "symbol/elf.h"
#include "symbol/kcore.h"
#include "symbol/symtab.h"
#include "symbol/vmlinux.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#define KTEXT 0xffffffff81000000ULL

struct seg_spec {
	u32 type, flags;
	u64 vaddr, filesz, memsz;
	const u8 *bytes; /* filesz of them (NULL: zeroes) */
};

/* write an ELF64 core file (ET_CORE, x86-64) with these program headers, data from 0x1000 on */
static void write_core(const char *path, const struct seg_spec *segs, int n)
{
	Elf64_Ehdr eh = { 0 };
	u64 off = 0x1000;
	FILE *f = fopen(path, "w");

	ASSERT_TRUE(f != NULL);
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_type = ET_CORE;
	eh.e_machine = EM_X86_64;
	eh.e_version = EV_CURRENT;
	eh.e_phoff = sizeof(eh);
	eh.e_ehsize = sizeof(eh);
	eh.e_phentsize = sizeof(Elf64_Phdr);
	eh.e_phnum = (u16)n;
	fwrite(&eh, sizeof(eh), 1, f);
	for (int i = 0; i < n; i++) {
		Elf64_Phdr ph = { .p_type = segs[i].type, .p_flags = segs[i].flags,
				  .p_offset = segs[i].filesz ? off : 0, .p_vaddr = segs[i].vaddr,
				  .p_filesz = segs[i].filesz, .p_memsz = segs[i].memsz,
				  .p_align = 0x1000 };

		fwrite(&ph, sizeof(ph), 1, f);
		off += (segs[i].filesz + 0xfff) & ~0xfffULL;
	}
	off = 0x1000;
	for (int i = 0; i < n; i++) {
		if (!segs[i].filesz)
			continue;
		fseek(f, (long)off, SEEK_SET);
		for (u64 k = 0; k < segs[i].filesz; k++)
			fputc(segs[i].bytes ? segs[i].bytes[k] : 0, f);
		off += (segs[i].filesz + 0xfff) & ~0xfffULL;
	}
	fclose(f);
}

static char *tmp_path(const char *name)
{
	static char buf[4][512];
	static int i;

	snprintf(buf[i & 3], sizeof(buf[0]), "%s/%s", test_tmpdir(), name);
	return buf[i++ & 3];
}

TEST(kcore_segments_and_bytes)
{
	u8 text[0x40], mod[0x10];
	struct seg_spec segs[] = {
		{ PT_NOTE, 0, 0, 0, 0, NULL },
		{ PT_LOAD, PF_R | PF_X, KTEXT, sizeof(text), sizeof(text), text },
		{ PT_LOAD, PF_R | PF_W, 0xffffffffc0000000ULL, sizeof(mod), 0x100, mod },
	};
	const char *p = tmp_path("kcore");
	struct kcore kc;
	u8 got[8];
	u64 off, avail;

	for (size_t i = 0; i < sizeof(text); i++)
		text[i] = (u8)(0x40 + i);
	memset(mod, 0xcc, sizeof(mod));
	write_core(p, segs, 3);
	ASSERT_TRUE(kcore_open(&kc, p) == 0);
	EXPECT_EQ(kc.nr_segs, 2); /* the PT_NOTE is no segment of code */
	EXPECT_UEQ(kc.segs[0].vaddr, KTEXT);
	EXPECT_UEQ(kc.segs[0].offset, 0x1000);
	EXPECT_TRUE(kc.segs[0].exec);
	EXPECT_TRUE(!kc.segs[1].exec);
	EXPECT_EQ(kcore_read(&kc, KTEXT + 0x10, got, sizeof(got)), 0);
	EXPECT_EQ(got[0], 0x50);
	EXPECT_EQ(got[7], 0x57);
	EXPECT_EQ(kcore_offset(&kc, KTEXT + 0x3f, &off, &avail), 0);
	EXPECT_UEQ(off, 0x103f);
	EXPECT_UEQ(avail, 1);
	/* past a segment's file bytes, across its end, or outside every segment */
	EXPECT_EQ(kcore_read(&kc, KTEXT + 0x3c, got, sizeof(got)), -ERANGE);
	EXPECT_EQ(kcore_read(&kc, 0xffffffffc0000020ULL, got, 1), -ERANGE);
	EXPECT_TRUE(kcore_find(&kc, 0xffffffffc0000020ULL) == NULL);
	EXPECT_TRUE(kcore_find(&kc, 0xffffffffc000000fULL) == &kc.segs[1]);
	EXPECT_EQ(kcore_read(&kc, KTEXT - 1, got, 1), -ERANGE);
	EXPECT_EQ(kcore_read(&kc, 0xffffffffc0000000ULL, got, 4), 0);
	EXPECT_EQ(got[3], 0xcc);
	kcore_close(&kc);
	EXPECT_TRUE(kcore_check(p));
}

TEST(kcore_rejects_what_is_no_core_file)
{
	const char *junk = tmp_path("junk");
	FILE *f = fopen(junk, "w");
	struct kcore kc;

	ASSERT_TRUE(f != NULL);
	fputs("junk\n", f);
	fclose(f);
	EXPECT_EQ(kcore_open(&kc, junk), -ENOEXEC);
	EXPECT_EQ(kcore_open(&kc, tmp_path("missing")), -ENOENT);
	/* an executable is ELF, but no core file */
	EXPECT_EQ(kcore_open(&kc, "/proc/self/exe"), -ENOEXEC);
	EXPECT_TRUE(!kcore_check(junk));
	{
		/* a core file without PT_LOAD */
		struct seg_spec note[] = { { PT_NOTE, 0, 0, 0, 0, NULL } };
		const char *p = tmp_path("noload");

		write_core(p, note, 1);
		EXPECT_EQ(kcore_open(&kc, p), -ENOEXEC);
	}
}

/* the texts objdump 2.40 prints for these bytes in a kcore copy starting at KTEXT */
static const struct {
	const char *hex;
	const char *text;
} insns[] = {
	{ "0f8502000000", "jne    0xffffffff81000008" },
	{ "488d3500100000", "lea    0x1000(%rip),%rsi        # 0xffffffff8100100d" },
	{ "2ee800000000", "cs call 0xffffffff81000013" },
	{ "3e8b00", "ds mov (%rax),%eax" },
	{ "3e7400", "je,pt  0xffffffff81000019" },
	{ "ed", "in     (%dx),%eax" },
	{ "6f", "outsl  %ds:(%rsi),(%dx)" },
	{ "48c5e5765f40", "rex.W vpcmpeqd 0x40(%rdi),%ymm3,%ymm3" },
	{ "f2e900000000", "bnd jmp 0xffffffff81000027" },
	{ "6690", "xchg   %ax,%ax" },
	{ "0000000000000000", "..." }, /* ten zero bytes: eight skipped, two decoded */
	{ "0000", "add    %al,(%rax)" },
	{ "c3", "ret" },
	{ "488b", "rex.W" }, /* cut short by the symbol's end */
	{ "", ".byte 0x8b" },
};

static size_t unhex(const char *hex, u8 *out)
{
	size_t n = 0;

	for (; hex[0] && hex[1]; hex += 2)
		sscanf(hex, "%2hhx", &out[n++]);
	return n;
}

TEST(kcore_disassembly_as_objdump_shows_perfs_copy)
{
	u8 code[256];
	size_t len = 0, nr = 0;
	struct disasm_insn *v = NULL;
	struct disasm *d;
	struct seg_spec seg = { PT_LOAD, PF_R | PF_X, KTEXT, 0, 0, code };
	const char *p = tmp_path("kcore");
	char lab[64];
	int err = 0;

	if (!lazy_capstone_loadable())
		test_skip("libcapstone does not load");
	for (size_t i = 0; i < sizeof(insns) / sizeof(insns[0]); i++)
		len += unhex(insns[i].hex, code + len);
	seg.filesz = seg.memsz = len + 0x20; /* more bytes after the symbol */
	write_core(p, &seg, 1);
	d = disasm_open_kcore(p, KTEXT, KTEXT + len, &err);
	ASSERT_TRUE(d != NULL);
	EXPECT_STREQ(disasm_section_name(d, KTEXT), "load0");
	EXPECT_STREQ(disasm_block_label(d, KTEXT, lab, sizeof(lab)), "load0");
	EXPECT_TRUE(disasm_label(d, KTEXT, lab, sizeof(lab)) == NULL);
	ASSERT_TRUE(disasm_range(d, KTEXT, KTEXT + len, &v, &nr) == 0);
	EXPECT_EQ(nr, sizeof(insns) / sizeof(insns[0]));
	for (size_t i = 0; i < nr && i < sizeof(insns) / sizeof(insns[0]); i++)
		EXPECT_STREQ(v[i].text, insns[i].text);
	/* the zero run: one "..." over the eight bytes skipped */
	for (size_t i = 0; i < nr; i++)
		if (v[i].zeros)
			EXPECT_EQ(v[i].zeros, 8);
	/* no DWARF, no symbols: no line, no function */
	EXPECT_EQ(disasm_lines(d, v, nr), -ENOENT);
	EXPECT_TRUE(v[0].func == NULL && v[0].file == NULL);
	disasm_insns_free(v, nr);
	disasm_close(d);
	/* a symbol outside every segment */
	EXPECT_TRUE(disasm_open_kcore(p, KTEXT + 0x1000, KTEXT + 0x1010, &err) == NULL);
	EXPECT_EQ(err, -ERANGE);
}

/* copy @from to @to */
static void copy_file(const char *from, const char *to)
{
	FILE *in = fopen(from, "r"), *out = fopen(to, "w");
	char buf[65536];
	size_t n;

	ASSERT_TRUE(in && out);
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		fwrite(buf, 1, n, out);
	fclose(in);
	fclose(out);
}

TEST(vmlinux_found_on_the_search_path_by_build_id)
{
	struct symbol_opts opts = { .no_buildid_cache = true };
	struct strbuf out = STRBUF_INIT;
	struct utsname u;
	u8 bid[BUILD_ID_SIZE], other[BUILD_ID_SIZE];
	char dir[512], path[600];
	int n;

	/* this test program stands in for a vmlinux: any ELF file with a build-id */
	n = buildid_read_path("/proc/self/exe", bid, sizeof(bid));
	if (n <= 0)
		test_skip("the unit-test binary has no build-id");
	ASSERT_TRUE(uname(&u) == 0);
	snprintf(dir, sizeof(dir), "%s/boot", test_tmpdir());
	ASSERT_TRUE(mkdir(dir, 0755) == 0);
	snprintf(path, sizeof(path), "%s/vmlinux-%s", dir, u.release);
	copy_file("/proc/self/exe", path);
	EXPECT_EQ(vmlinux_find(&out, bid, (size_t)n, &opts, test_tmpdir()), 0);
	EXPECT_STREQ(out.buf, path);
	/* another kernel's build-id: that file is passed over */
	memcpy(other, bid, sizeof(other));
	other[0] ^= 0xff;
	strbuf_reset(&out);
	EXPECT_EQ(vmlinux_find(&out, other, (size_t)n, &opts, test_tmpdir()), -ENOENT);
	strbuf_release(&out);
}

TEST(kernel_image_from_kcore_dir_and_vmlinux)
{
	static const char ksyms[] = "ffffffff81000000 T _stext\n"
				    "ffffffff81000000 T _text\n"
				    "ffffffff81000100 T do_syscall_64\n"
				    "ffffffff81000200 t read_zero\n"
				    "ffffffff81001000 T _etext\n";
	struct seg_spec seg = { PT_LOAD, PF_R | PF_X, KTEXT, 0x1000, 0x1000, NULL };
	struct strpool pool = STRPOOL_INIT;
	struct symbol_opts opts = { .no_buildid_cache = true };
	struct symsrc_args args = { .opts = &opts, .is_kernel = true };
	char dir[512], f[600];
	struct symsrc *ss;
	const struct symbol *s;
	FILE *fp;
	u8 bid[BUILD_ID_SIZE];
	int n;

	snprintf(dir, sizeof(dir), "%s/kcore_dir", test_tmpdir());
	ASSERT_TRUE(mkdir(dir, 0755) == 0);
	snprintf(f, sizeof(f), "%s/kallsyms", dir);
	fp = fopen(f, "w");
	ASSERT_TRUE(fp != NULL);
	fputs(ksyms, fp);
	fclose(fp);
	snprintf(f, sizeof(f), "%s/kcore", dir);
	write_core(f, &seg, 1);
	opts.kcore_dir = dir;

	/* no modules file: perf does not take the kcore, the kallsyms still */
	ss = symsrc_new(&pool);
	EXPECT_EQ(symsrc_load_kernel(ss, &args), 0);
	EXPECT_TRUE(ss->kcore_path == NULL);
	s = symsrc_find(ss, 0xffffffff81000150ULL);
	EXPECT_STREQ(s ? s->name : NULL, "do_syscall_64");
	EXPECT_UEQ(symsrc_map_ip(ss, KTEXT, KTEXT, 0xffffffff81000150ULL), 0xffffffff81000150ULL);
	symsrc_free(ss);

	snprintf(f, sizeof(f), "%s/modules", dir);
	fp = fopen(f, "w");
	ASSERT_TRUE(fp != NULL);
	fclose(fp);
	ss = symsrc_new(&pool);
	EXPECT_EQ(symsrc_load_kernel(ss, &args), 0);
	snprintf(f, sizeof(f), "%s/kcore", dir);
	EXPECT_STREQ(ss->kcore_path, f);
	EXPECT_TRUE(!ss->kernel_image);
	s = symsrc_find(ss, 0xffffffff81000210ULL);
	EXPECT_STREQ(s ? s->name : NULL, "read_zero");
	symsrc_free(ss);

	/* -k: that file alone; another build-id than the recorded one loads nothing */
	n = buildid_read_path("/proc/self/exe", bid, sizeof(bid));
	if (n <= 0)
		test_skip("the unit-test binary has no build-id");
	opts.vmlinux = "/proc/self/exe";
	args.build_id = bid;
	args.build_id_size = (size_t)n;
	ss = symsrc_new(&pool);
	EXPECT_EQ(symsrc_load_kernel(ss, &args), 0);
	EXPECT_TRUE(ss->kernel_image);
	EXPECT_STREQ(ss->path, "/proc/self/exe");
	EXPECT_TRUE(ss->kcore_path == NULL);
	EXPECT_TRUE(ss->symtab.nr_syms > 0);
	/* a kernel image's addresses are absolute */
	EXPECT_UEQ(symsrc_map_ip(ss, KTEXT, KTEXT, 0xffffffff81000150ULL), 0xffffffff81000150ULL);
	symsrc_free(ss);
	bid[0] ^= 0xff;
	ss = symsrc_new(&pool);
	EXPECT_EQ(symsrc_load_kernel(ss, &args), -ESTALE);
	EXPECT_EQ(ss->symtab.nr_syms, 0);
	symsrc_free(ss);
	/* --ignore-vmlinux with -k: kcore_dir's kallsyms, and (as perf) not its kcore */
	opts.ignore_vmlinux = true;
	ss = symsrc_new(&pool);
	EXPECT_EQ(symsrc_load_kernel(ss, &args), 0);
	EXPECT_TRUE(!ss->kernel_image && ss->kcore_path == NULL);
	s = symsrc_find(ss, 0xffffffff81000210ULL);
	EXPECT_STREQ(s ? s->name : NULL, "read_zero");
	symsrc_free(ss);
	/* --ignore-vmlinux alone: the kcore_dir's kcore */
	opts.vmlinux = NULL;
	ss = symsrc_new(&pool);
	EXPECT_EQ(symsrc_load_kernel(ss, &args), 0);
	EXPECT_TRUE(!ss->kernel_image && ss->kcore_path != NULL);
	symsrc_free(ss);
	strpool_release(&pool);
}

/* put @text into the file @dir/@name */
static void put_file(const char *dir, const char *name, const char *text)
{
	char path[600];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fp = fopen(path, "w");
	ASSERT_TRUE(fp != NULL);
	fputs(text, fp);
	fclose(fp);
}

TEST(kcore_copy_keeps_kernel_text_and_module_code)
{
	static const char ksyms[] = "ffffffff81000000 T _text\n"
				    "ffffffff81000800 T _stext\n"
				    "ffffffff81000900 T do_syscall_64\n"
				    "ffffffff81001800 T _etext\n"
				    "ffffffffc0002010 t ext4_read\t[ext4]\n";
	static const char mods[] = "ext4 4096 1 - Live 0xffffffffc0002000\n"
				   "xfs 8192 0 - Live 0xffffffffc0005000\n";
	static u8 text[0x4000], modarea[0x10000];
	struct seg_spec segs[] = {
		{ PT_NOTE, 0, 0, 0, 0, NULL },
		/* the kernel image: more than its text, which is what the copy keeps */
		{ PT_LOAD, PF_R | PF_X | PF_W, KTEXT, sizeof(text), sizeof(text), text },
		/* the module area: the copy keeps the span the modules occupy */
		{ PT_LOAD, PF_R | PF_X | PF_W, 0xffffffffc0000000ULL, sizeof(modarea), sizeof(modarea), modarea },
		/* memory: left out */
		{ PT_LOAD, PF_R | PF_W, 0xffff888000000000ULL, 0x2000, 0x2000, NULL },
	};
	char src[512], dir[512], path[600];
	struct strbuf sb = STRBUF_INIT;
	struct kcore kc;
	u8 got[4];

	for (size_t i = 0; i < sizeof(text); i++)
		text[i] = (u8)(i * 7);
	for (size_t i = 0; i < sizeof(modarea); i++)
		modarea[i] = (u8)(i * 13 + 1);
	snprintf(src, sizeof(src), "%s/proc", test_tmpdir());
	ASSERT_TRUE(mkdir(src, 0755) == 0);
	put_file(src, "kallsyms", ksyms);
	put_file(src, "modules", mods);
	snprintf(path, sizeof(path), "%s/kcore", src);
	write_core(path, segs, 4);
	snprintf(dir, sizeof(dir), "%s/kcore_dir", test_tmpdir());

	{
		char kc_src[600], ks_src[600], mod_src[600], missing[600];

		snprintf(kc_src, sizeof(kc_src), "%s/kcore", src);
		snprintf(ks_src, sizeof(ks_src), "%s/kallsyms", src);
		snprintf(mod_src, sizeof(mod_src), "%s/modules", src);
		EXPECT_EQ(kcore_copy(kc_src, ks_src, mod_src, dir), 0);
		/* no kernel text in the source: nothing to keep */
		EXPECT_EQ(kcore_copy(ks_src, ks_src, mod_src, dir), -ENOEXEC);
		put_file(src, "bad-kallsyms", "ffffffff81000000 T _text\n");
		snprintf(ks_src, sizeof(ks_src), "%s/bad-kallsyms", src);
		EXPECT_EQ(kcore_copy(kc_src, ks_src, mod_src, dir), -ENOEXEC);
		snprintf(missing, sizeof(missing), "%s/missing", src);
		EXPECT_EQ(kcore_copy(kc_src, missing, mod_src, dir), -ENOENT);
		EXPECT_EQ(kcore_copy(kc_src, ks_src, missing, dir), -ENOEXEC);
		/* no modules file (no module support): an empty copy, the kernel text alone */
		snprintf(ks_src, sizeof(ks_src), "%s/kallsyms", src);
		snprintf(path, sizeof(path), "%s/kcore_dir2", test_tmpdir());
		EXPECT_EQ(kcore_copy(kc_src, ks_src, missing, path), 0);
		snprintf(path, sizeof(path), "%s/kcore_dir2/modules", test_tmpdir());
		EXPECT_TRUE(strbuf_read_file(&sb, path, 0) == 0);
		snprintf(path, sizeof(path), "%s/kcore_dir2/kcore", test_tmpdir());
		ASSERT_TRUE(kcore_open(&kc, path) == 0);
		EXPECT_EQ(kc.nr_segs, 1);
		kcore_close(&kc);
	}

	snprintf(path, sizeof(path), "%s/kallsyms", dir);
	EXPECT_TRUE(strbuf_read_file(&sb, path, 0) == (long)strlen(ksyms));
	EXPECT_STREQ(sb.buf, ksyms);
	strbuf_reset(&sb);
	snprintf(path, sizeof(path), "%s/modules", dir);
	EXPECT_TRUE(strbuf_read_file(&sb, path, 0) == (long)strlen(mods));
	EXPECT_STREQ(sb.buf, mods);
	strbuf_release(&sb);

	snprintf(path, sizeof(path), "%s/kcore", dir);
	ASSERT_TRUE(kcore_open(&kc, path) == 0);
	EXPECT_EQ(kc.nr_segs, 2);
	/* _stext to _etext, page-rounded: 0x...81000000 to 0x...81002000 */
	EXPECT_UEQ(kc.segs[0].vaddr, KTEXT);
	EXPECT_UEQ(kc.segs[0].filesz, 0x2000);
	EXPECT_TRUE(kc.segs[0].exec);
	EXPECT_EQ(kc.segs[0].offset % 4096, 0);
	/* ext4's start to xfs's end, page-rounded */
	EXPECT_UEQ(kc.segs[1].vaddr, 0xffffffffc0002000ULL);
	EXPECT_UEQ(kc.segs[1].filesz, 0x5000);
	EXPECT_EQ(kcore_read(&kc, 0xffffffff81000900ULL, got, 4), 0);
	EXPECT_TRUE(!memcmp(got, text + 0x900, 4));
	EXPECT_EQ(kcore_read(&kc, 0xffffffff81001ffcULL, got, 4), 0);
	EXPECT_TRUE(!memcmp(got, text + 0x1ffc, 4));
	EXPECT_EQ(kcore_read(&kc, 0xffffffff81002000ULL, got, 1), -ERANGE);
	EXPECT_EQ(kcore_read(&kc, 0xffffffffc0006ffcULL, got, 4), 0);
	EXPECT_TRUE(!memcmp(got, modarea + 0x6ffc, 4));
	EXPECT_EQ(kcore_read(&kc, 0xffffffffc0001ffcULL, got, 4), -ERANGE);
	EXPECT_EQ(kcore_read(&kc, 0xffff888000000000ULL, got, 1), -ERANGE);
	kcore_close(&kc);
}
