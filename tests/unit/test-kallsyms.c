/* SPDX-License-Identifier: MIT */
/* Unit tests: /proc/kallsyms and /proc/modules parsing (captured sample and the live file). */
#include "test.h"

#include "lib/hashmap.h"
#include "symbol/kallsyms.h"

#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <unistd.h>

static const char sample[] =
	"0000000000000000 A fixed_percpu_data\n"
	"ffffffff81000000 T srso_alias_untrain_ret\n"
	"ffffffff81000000 T _stext\n"
	"ffffffff81000000 T _text\n"
	"ffffffff81001000 t early_idt_handler_common\n"
	"ffffffff81001100 W arch_weak_thing\n"
	"ffffffff81002000 T do_syscall_64\n"
	"ffffffff81002100 r __ksymtab_foo\n"
	"ffffffff81003000 T _etext\n"
	"ffffffff82000000 D some_data\n"
	"ffffffff82001000 b some_bss\n"
	"ffffffffc0001000 t ext4_fill_super\t[ext4]\n"
	"ffffffffc0002000 T ext4_iget\t[ext4]\n"
	"ffffffffc0100000 t xfs_foo\t[xfs]\n"
	"ffffffffc0003000 t ext4_late\t[ext4]\n"
	"this is not a line\n"
	"ffffffffc0200000 t bpf_prog_6deef7357e7b4530_sd_devices\t[bpf]";

TEST(kallsyms_parse_sample)
{
	struct strpool pool = STRPOOL_INIT;
	struct kallsyms ks;
	const struct symbol *s;
	const struct kmodule *mod;
	struct kmodule *m;

	ASSERT_TRUE(kallsyms_parse(&ks, sample, sizeof(sample) - 1, &pool) == 0);
	EXPECT_UEQ(ks.text_start, 0xffffffff81000000ULL);
	EXPECT_UEQ(ks.stext, 0xffffffff81000000ULL);
	EXPECT_UEQ(ks.etext, 0xffffffff81003000ULL);
	EXPECT_TRUE(!ks.is_restricted);
	/*
	 * three names at _text: perf extends only the last zero-sized alias to
	 * the next symbol before it drops aliases, so the last line wins
	 */
	s = kallsyms_find(&ks, 0xffffffff81000010ULL, &mod);
	EXPECT_STREQ(s ? s->name : NULL, "_text");
	EXPECT_TRUE(mod == NULL);
	s = kallsyms_find(&ks, 0xffffffff81001050ULL, NULL);
	EXPECT_STREQ(s ? s->name : NULL, "early_idt_handler_common");
	EXPECT_EQ(s ? s->binding : -1, STB_LOCAL);
	s = kallsyms_find(&ks, 0xffffffff81001100ULL, NULL);
	EXPECT_EQ(s ? s->binding : -1, STB_WEAK);
	/* 'r' is not kept: do_syscall_64 extends over it up to _etext */
	s = kallsyms_find(&ks, 0xffffffff81002f00ULL, NULL);
	EXPECT_STREQ(s ? s->name : NULL, "do_syscall_64");
	s = kallsyms_find(&ks, 0xffffffff82000010ULL, NULL);
	EXPECT_STREQ(s ? s->name : NULL, "some_data");
	EXPECT_EQ(ks.nr_modules, 3);
	m = kallsyms_find_module(&ks, "[ext4]");
	ASSERT_TRUE(m != NULL);
	EXPECT_EQ(m->symtab.nr_syms, 3);
	s = kallsyms_find(&ks, 0xffffffffc0002010ULL, &mod);
	EXPECT_STREQ(s ? s->name : NULL, "ext4_iget");
	EXPECT_STREQ(mod ? mod->name : NULL, "ext4");
	/* out-of-order module lines are sorted */
	s = kallsyms_find(&ks, 0xffffffffc0003004ULL, &mod);
	EXPECT_STREQ(s ? s->name : NULL, "ext4_late");
	EXPECT_TRUE(kallsyms_find_module(&ks, "bpf") != NULL);
	/* as in perf's single table: a module's last symbol runs to the next module */
	s = kallsyms_find(&ks, 0xffffffffc00f0000ULL, &mod);
	EXPECT_STREQ(s ? s->name : NULL, "ext4_late");
	s = kallsyms_find(&ks, 0xffffffffc01ff000ULL, &mod);
	EXPECT_STREQ(s ? s->name : NULL, "xfs_foo");
	EXPECT_STREQ(mod ? mod->name : NULL, "xfs");
	EXPECT_TRUE(kallsyms_find_module(&ks, "nosuch") == NULL);
	/* the kernel table stops before module space */
	s = symtab_find(&ks.kernel, 0xffffffffc0001000ULL);
	EXPECT_TRUE(s == NULL);
	kallsyms_release(&ks);
	strpool_release(&pool);
}

TEST(kallsyms_restricted_all_zero)
{
	static const char zeros[] = "0000000000000000 T _text\n0000000000000000 T do_thing\n"
				    "0000000000000000 t x\t[mod]\n";
	struct strpool pool = STRPOOL_INIT;
	struct kallsyms ks;

	EXPECT_EQ(kallsyms_parse(&ks, zeros, sizeof(zeros) - 1, &pool), -EPERM);
	EXPECT_TRUE(ks.is_restricted);
	kallsyms_release(&ks);
	EXPECT_EQ(kallsyms_parse(&ks, "", 0, &pool), -EINVAL);
	kallsyms_release(&ks);
	strpool_release(&pool);
}

TEST(modules_parse_sizes)
{
	static const char mods[] =
		"ext4 983040 2 - Live 0xffffffffc0001000\n"
		"crc16 16384 1 ext4, Live 0xffffffffc0200000 (E)\n"
		"short line\n";
	struct strpool pool = STRPOOL_INIT;
	struct kallsyms ks;
	struct kmodule *m;
	const struct kmodule *mod;
	const struct symbol *s;

	ASSERT_TRUE(kallsyms_parse(&ks, sample, sizeof(sample) - 1, &pool) == 0);
	EXPECT_EQ(modules_parse(&ks, mods, sizeof(mods) - 1, &pool), 2);
	m = kallsyms_find_module(&ks, "ext4");
	ASSERT_TRUE(m != NULL);
	EXPECT_UEQ(m->start, 0xffffffffc0001000ULL);
	EXPECT_UEQ(m->size, 983040);
	m = kallsyms_find_module(&ks, "crc16");
	ASSERT_TRUE(m != NULL);
	EXPECT_EQ(m->symtab.nr_syms, 0);
	EXPECT_UEQ(m->size, 16384);
	s = kallsyms_find(&ks, 0xffffffffc0001004ULL, &mod);
	EXPECT_STREQ(s ? s->name : NULL, "ext4_fill_super");
	kallsyms_release(&ks);
	strpool_release(&pool);
}

TEST(kallsyms_live_file)
{
	struct strpool pool = STRPOOL_INIT;
	struct kallsyms ks;
	const struct symbol *s;
	int err;

	if (access("/proc/kallsyms", R_OK))
		test_skip("/proc/kallsyms not readable");
	err = kallsyms_load(&ks, NULL, &pool);
	if (err == -EPERM) {
		kallsyms_release(&ks);
		strpool_release(&pool);
		test_skip("kernel addresses hidden (kptr_restrict)");
	}
	EXPECT_EQ(err, 0);
	EXPECT_TRUE(ks.nr_lines > 1000);
	EXPECT_TRUE(ks.kernel.nr_syms > 1000);
	EXPECT_TRUE(ks.text_start != 0);
	EXPECT_TRUE(kernel_addr_is_kernel(ks.text_start));
	s = symtab_find_by_name(&ks.kernel, "schedule");
	ASSERT_TRUE(s != NULL);
	EXPECT_TRUE(kallsyms_find(&ks, s->start, NULL) == s);
	EXPECT_TRUE(!kernel_addr_is_kernel(0x400000));
	kallsyms_release(&ks);
	strpool_release(&pool);
}

TEST(symsrc_kernel_from_kallsyms_file)
{
	char path[512];
	struct strpool pool = STRPOOL_INIT;
	struct symbol_opts opts = { 0 };
	struct symsrc_args args = { 0 };
	struct symsrc *ss;
	const struct symbol *s;
	FILE *f;

	snprintf(path, sizeof(path), "%s/kallsyms", test_tmpdir());
	f = fopen(path, "w");
	ASSERT_TRUE(f);
	fputs(sample, f);
	fclose(f);
	opts.kallsyms = path;
	args.opts = &opts;
	ss = symsrc_new(&pool);
	EXPECT_EQ(symsrc_load(ss, "[kernel.kallsyms]", &args), 0);
	EXPECT_EQ(ss->kind, SYMSRC_KALLSYMS);
	/* kernel addresses are absolute: map_ip is the identity */
	EXPECT_UEQ(symsrc_map_ip(ss, 0xffffffff81000000ULL, 0, 0xffffffff81002004ULL),
		   0xffffffff81002004ULL);
	s = symsrc_find(ss, 0xffffffff81002004ULL);
	EXPECT_STREQ(s ? s->name : NULL, "do_syscall_64");
	symsrc_free(ss);
	ss = symsrc_new(&pool);
	EXPECT_EQ(symsrc_load(ss, "[ext4]", &args), 0);
	s = symsrc_find(ss, 0xffffffffc0002004ULL);
	EXPECT_STREQ(s ? s->name : NULL, "ext4_iget");
	EXPECT_TRUE(symsrc_find(ss, 0xffffffff81002004ULL) == NULL);
	symsrc_free(ss);
	strpool_release(&pool);
}

TEST(symsrc_kernel_demangle_kernel_option)
{
	static const char ks[] = "ffffffff81000000 T _text\n"
				 "ffffffff81001000 T _ZN6kernel4core4initEv\n"
				 "ffffffff81002000 T _RNvCs1234_6kernel5start\n";
	char path[512];
	struct strpool pool = STRPOOL_INIT;
	struct symbol_opts opts = { 0 };
	struct symsrc_args args = { .opts = &opts };
	struct symsrc *ss;
	const struct symbol *s;
	FILE *f;

	snprintf(path, sizeof(path), "%s/kallsyms", test_tmpdir());
	f = fopen(path, "w");
	ASSERT_TRUE(f);
	fputs(ks, f);
	fclose(f);
	opts.kallsyms = path;
	ss = symsrc_new(&pool);
	EXPECT_EQ(symsrc_load(ss, "[kernel.kallsyms]", &args), 0);
	s = symsrc_find(ss, 0xffffffff81001004ULL);
	EXPECT_STREQ(s ? s->name : NULL, "_ZN6kernel4core4initEv"); /* perf: off by default */
	symsrc_free(ss);
	opts.demangle_kernel = true;
	ss = symsrc_new(&pool);
	EXPECT_EQ(symsrc_load(ss, "[kernel.kallsyms]", &args), 0);
	s = symsrc_find(ss, 0xffffffff81001004ULL);
	EXPECT_STREQ(s ? s->name : NULL, "kernel::core::init");
	s = symsrc_find(ss, 0xffffffff81002004ULL);
	EXPECT_STREQ(s ? s->name : NULL, "kernel::start");
	symsrc_free(ss);
	strpool_release(&pool);
}

TEST(symsrc_take_kallsyms_one_parse)
{
	struct strpool pool = STRPOOL_INIT;
	struct kallsyms ks;
	struct symsrc *k = symsrc_new(&pool), *m = symsrc_new(&pool), *none = symsrc_new(&pool);
	const struct symbol *s;

	ASSERT_TRUE(kallsyms_parse(&ks, sample, sizeof(sample) - 1, &pool) == 0);
	EXPECT_EQ(symsrc_take_kallsyms(k, &ks, NULL), 0);
	EXPECT_EQ(symsrc_take_kallsyms(m, &ks, "[ext4]"), 0);
	EXPECT_EQ(symsrc_take_kallsyms(none, &ks, "nosuch"), -ENOENT);
	EXPECT_EQ(k->kind, SYMSRC_KALLSYMS);
	s = symsrc_find(k, symsrc_map_ip(k, 0, 0, 0xffffffff81002004ULL));
	EXPECT_STREQ(s ? s->name : NULL, "do_syscall_64");
	s = symsrc_find(m, 0xffffffffc0002004ULL);
	EXPECT_STREQ(s ? s->name : NULL, "ext4_iget");
	EXPECT_TRUE(symsrc_find(none, 0xffffffffc0002004ULL) == NULL);
	/* moved out: the kallsyms no longer holds them; a load after is a no-op */
	EXPECT_EQ(ks.kernel.nr_syms, 0);
	EXPECT_EQ(symsrc_load(k, "[kernel.kallsyms]", NULL), 0);
	kallsyms_release(&ks);
	symsrc_free(k);
	symsrc_free(m);
	symsrc_free(none);
	strpool_release(&pool);
}
