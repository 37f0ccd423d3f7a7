/* SPDX-License-Identifier: MIT */
/* Unit tests for perf probe's PROBEDEF parser, the k/uprobe_events definition text and --filter expressions. */
#include "test.h"

#include "lib/strbuf.h"
#include "lib/strfilter.h"
#include "lib/util.h"
#include "symbol/probe-binary.h"
#include "symbol/debug-inflate.h"
#include "trace/probe-plan.h"
#include "symbol/sdt.h"
#include "trace/probe-spec.h"

#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

TEST(probe_spec_function_offset_return)
{
	struct probe_spec ps;
	struct probe_spec_error err;

	EXPECT_EQ(probe_spec_parse(&ps, "work", &err), 0);
	EXPECT_STREQ(ps.func, "work");
	EXPECT_TRUE(!ps.event && !ps.group && !ps.has_offset && !ps.is_return && !ps.nr_args);
	EXPECT_TRUE(!probe_spec_needs_dwarf(&ps));
	probe_spec_release(&ps);

	EXPECT_EQ(probe_spec_parse(&ps, "work+0x10", &err), 0);
	EXPECT_TRUE(ps.has_offset);
	EXPECT_EQ(ps.offset, 16);
	EXPECT_STREQ(ps.point, "work+0x10");
	probe_spec_release(&ps);

	/* "work+" is an offset of 0, as perf takes it */
	EXPECT_EQ(probe_spec_parse(&ps, "work+", &err), 0);
	EXPECT_TRUE(ps.has_offset);
	EXPECT_EQ(ps.offset, 0);
	probe_spec_release(&ps);

	EXPECT_EQ(probe_spec_parse(&ps, "grp:ev=work%return", &err), 0);
	EXPECT_STREQ(ps.group, "grp");
	EXPECT_STREQ(ps.event, "ev");
	EXPECT_STREQ(ps.func, "work");
	EXPECT_STREQ(ps.point, "work%return");
	EXPECT_TRUE(ps.is_return);
	probe_spec_release(&ps);
}

TEST(probe_spec_args)
{
	struct probe_spec ps;
	struct probe_spec_error err;

	EXPECT_EQ(probe_spec_parse(&ps, "work+4 %di:u32 +8(%sp):x64 foo=%ax:s16 $retval n s:string "
					"p=+0(-16(%bp)):string",
				   &err), 0);
	EXPECT_EQ(ps.nr_args, 7);
	EXPECT_TRUE(!ps.args[0].name);
	EXPECT_STREQ(ps.args[0].expr, "%di");
	EXPECT_STREQ(ps.args[0].type, "u32");
	EXPECT_STREQ(ps.args[1].expr, "+8(%sp)");
	EXPECT_STREQ(ps.args[1].type, "x64");
	EXPECT_STREQ(ps.args[2].name, "foo");
	EXPECT_STREQ(ps.args[2].expr, "%ax");
	EXPECT_STREQ(ps.args[2].text, "foo=%ax:s16");
	EXPECT_TRUE(ps.args[3].is_fetch && !ps.args[3].type);
	/* variables need DWARF */
	EXPECT_TRUE(!ps.args[4].is_fetch);
	EXPECT_STREQ(ps.args[5].expr, "s");
	EXPECT_STREQ(ps.args[5].type, "string");
	EXPECT_STREQ(ps.args[6].expr, "+0(-16(%bp))");
	EXPECT_STREQ(ps.args[6].type, "string");
	EXPECT_TRUE(probe_spec_needs_dwarf(&ps));
	probe_spec_release(&ps);

	EXPECT_EQ(probe_spec_parse(&ps, "f $arg1 $comm @sym 12", &err), 0);
	for (size_t i = 0; i < ps.nr_args; i++)
		EXPECT_TRUE(ps.args[i].is_fetch);
	EXPECT_TRUE(!probe_spec_needs_dwarf(&ps));
	probe_spec_release(&ps);
}

TEST(probe_spec_dwarf_points)
{
	struct probe_spec ps;
	struct probe_spec_error err;

	EXPECT_EQ(probe_spec_parse(&ps, "work:3", &err), 0);
	EXPECT_TRUE(ps.has_line && ps.line == 3 && probe_spec_needs_dwarf(&ps));
	probe_spec_release(&ps);
	EXPECT_EQ(probe_spec_parse(&ps, "t.c:12", &err), 0);
	EXPECT_STREQ(ps.file, "t.c");
	EXPECT_TRUE(!ps.func && ps.line == 12);
	probe_spec_release(&ps);
	/* compiler clones are functions, not files */
	EXPECT_EQ(probe_spec_parse(&ps, "f.part.0+4", &err), 0);
	EXPECT_STREQ(ps.func, "f.part.0");
	EXPECT_TRUE(!ps.file && ps.offset == 4);
	probe_spec_release(&ps);
	EXPECT_EQ(probe_spec_parse(&ps, "work@src/t.c;foo*", &err), 0);
	EXPECT_STREQ(ps.func, "work");
	EXPECT_STREQ(ps.file, "src/t.c");
	EXPECT_STREQ(ps.lazy, "foo*");
	probe_spec_release(&ps);
}

/* perf 6.1's "Semantic error :" texts */
TEST(probe_spec_errors)
{
	static const struct {
		const char *spec;
		int ret;
		const char *msg;
	} cases[] = {
		{ "work%foo", -EOPNOTSUPP, "%foo is not supported." },
		{ "=work", -EINVAL, " is bad for event name -it must follow C symbol-naming rule." },
		{ "a:b:c=work", -EINVAL, "b:c is bad for event name -it must follow C symbol-naming rule." },
		{ "work:3+4", -EINVAL, "Offset can't be used with line number." },
		{ "work+abc", -EINVAL, "There is non-digit character in offset." },
		{ "work%return:3", -EINVAL, "Offset/Line/Lazy pattern can't be used with return probe." },
		{ "grp:calloc%return", -EINVAL, "There is non-digit char in line number." },
	};
	struct probe_spec ps;
	struct probe_spec_error err;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		EXPECT_EQ(probe_spec_parse(&ps, cases[i].spec, &err), cases[i].ret);
		EXPECT_STREQ(err.msg, cases[i].msg);
		EXPECT_TRUE(!ps.func && !ps.args);
	}
}

static const char *def_text(const struct probe_def *def, bool for_write)
{
	static struct strbuf sb = STRBUF_INIT;

	strbuf_setlen(&sb, 0);
	probe_def_format(&sb, def, for_write);
	return sb.buf;
}

/* expectations from perf probe -x BIN -D SPEC and uprobe_events after perf probe -x BIN SPEC */
TEST(probe_def_uprobe)
{
	struct probe_spec ps;
	struct probe_spec_error err;
	struct probe_def def = { .group = "probe_tprog", .event = "work",
				 .path = "/tmp/pr/tprog", .offset = 0x116d };

	EXPECT_EQ(probe_spec_parse(&ps, "work+4 %di:u32 +8(%sp):x64 foo=%ax:s16", &err), 0);
	def.args = ps.args;
	def.nr_args = ps.nr_args;
	EXPECT_STREQ(def_text(&def, false),
		     "p:probe_tprog/work /tmp/pr/tprog:0x116d %di:u32 +8(%sp):x64 foo=%ax:s16");
	EXPECT_STREQ(def_text(&def, true),
		     "p:probe_tprog/work /tmp/pr/tprog:0x000000000000116d arg1=%di:u32 "
		     "arg2=+8(%sp):x64 foo=%ax:s16");
	probe_spec_release(&ps);

	EXPECT_EQ(probe_spec_parse(&ps, "work%return $retval", &err), 0);
	def.event = "work__return";
	def.is_return = true;
	def.offset = 0x1169;
	def.args = ps.args;
	def.nr_args = ps.nr_args;
	EXPECT_STREQ(def_text(&def, false), "r:probe_tprog/work__return /tmp/pr/tprog:0x1169 $retval");
	EXPECT_STREQ(def_text(&def, true),
		     "r:probe_tprog/work__return /tmp/pr/tprog:0x0000000000001169 arg1=$retval");
	probe_spec_release(&ps);
}

/*
 * kprobes: perf 6.1's -D text on this machine (it reads kallsyms even
 * without kprobe_events): entries relative to _text, return probes on the
 * symbol. The written form follows Documentation/trace/kprobetrace.rst
 * ("p[:[GRP/]EVENT] [MOD:]SYM[+offs] [FETCHARGS]"); unnamed arguments get
 * argN names as in uprobe_events (not verifiable here: no kprobe_events).
 */
TEST(probe_def_kprobe)
{
	struct probe_spec ps;
	struct probe_spec_error err;
	struct probe_def def = { .is_kernel = true, .group = "probe", .event = "do_sys_open",
				 .symbol = "_text", .offset = 7034240 };

	EXPECT_STREQ(def_text(&def, false), "p:probe/do_sys_open _text+7034240");
	EXPECT_STREQ(def_text(&def, true), "p:probe/do_sys_open _text+7034240");

	EXPECT_EQ(probe_spec_parse(&ps, "do_sys_open%return $retval", &err), 0);
	def.is_return = true;
	def.event = "do_sys_open__return";
	def.symbol = "do_sys_open";
	def.offset = 0;
	def.args = ps.args;
	def.nr_args = ps.nr_args;
	EXPECT_STREQ(def_text(&def, false), "r:probe/do_sys_open__return do_sys_open+0 $retval");
	EXPECT_STREQ(def_text(&def, true), "r:probe/do_sys_open__return do_sys_open+0 arg1=$retval");
	probe_spec_release(&ps);

	EXPECT_EQ(probe_spec_parse(&ps, "myk:ev=vfs_read %si:u64", &err), 0);
	def = (struct probe_def){ .is_kernel = true, .group = ps.group, .event = ps.event,
				  .symbol = "_text", .offset = 7047664, .args = ps.args,
				  .nr_args = ps.nr_args };
	EXPECT_STREQ(def_text(&def, false), "p:myk/ev _text+7047664 %si:u64");
	probe_spec_release(&ps);
}

/*
 * -m: a module's function is defined on the module's symbol, the
 * kprobe_events form "[MOD:]SYM[+offs]" (Documentation/trace/kprobetrace.rst);
 * not verifiable on this machine (no modules, no kprobe_events).
 */
TEST(probe_def_kmodule)
{
	struct probe_spec ps;
	struct probe_spec_error err;
	struct probe_def def = { .is_kernel = true, .group = "probe", .event = "ext4_sync_file",
				 .symbol = "ext4:ext4_sync_file", .offset = 0 };

	EXPECT_STREQ(def_text(&def, false), "p:probe/ext4_sync_file ext4:ext4_sync_file+0");
	EXPECT_STREQ(def_text(&def, true), "p:probe/ext4_sync_file ext4:ext4_sync_file+0");
	EXPECT_EQ(probe_spec_parse(&ps, "ext4_sync_file+8 %di datasync=%dx:s32", &err), 0);
	def.offset = ps.offset;
	def.args = ps.args;
	def.nr_args = ps.nr_args;
	EXPECT_STREQ(def_text(&def, true),
		     "p:probe/ext4_sync_file ext4:ext4_sync_file+8 arg1=%di datasync=%dx:s32");
	probe_spec_release(&ps);
	/* a uprobe with an SDT semaphore: the reference counter offset after the address */
	def = (struct probe_def){ .group = "sdt_app", .event = "hit", .path = "/bin/app",
				  .offset = 0x10ac, .ref_ctr_offset = 0x3018 };
	EXPECT_STREQ(def_text(&def, false), "p:sdt_app/hit /bin/app:0x10ac(0x3018)");
	EXPECT_STREQ(def_text(&def, true), "p:sdt_app/hit /bin/app:0x00000000000010ac(0x3018)");
}

/* SDT note arguments as perf writes them into the probes file */
TEST(sdt_args_text)
{
	struct strbuf sb = STRBUF_INIT;

	sdt_args_format(&sb, "-4@%ebx -8@%rbp 8@-16(%rsp) 1@%al -2@(%r12d) 4@$5");
	EXPECT_STREQ(sb.buf, " arg1=%bx:s32 arg2=%bp:s64 arg3=-16(%sp):u64 arg4=%ax:u8"
			     " arg5=+0(%r12):s16");
	strbuf_release(&sb);
}

TEST(strfilter_perf_syntax)
{
	struct strfilter *f = strfilter_new("!_* & !*@plt", NULL);
	int pos = -1;

	EXPECT_TRUE(f != NULL);
	EXPECT_TRUE(strfilter_match(f, "main"));
	EXPECT_TRUE(!strfilter_match(f, "_start"));
	EXPECT_TRUE(!strfilter_match(f, "puts@plt"));
	strfilter_free(f);

	f = strfilter_new("(w* | h*) & !*er", NULL);
	EXPECT_TRUE(strfilter_match(f, "work"));
	EXPECT_TRUE(!strfilter_match(f, "helper"));
	EXPECT_TRUE(strfilter_match(f, "help"));
	strfilter_free(f);

	EXPECT_TRUE(strfilter_new("a & (b", &pos) == NULL);
	EXPECT_EQ(pos, 6);
	EXPECT_TRUE(strfilter_new("a &", &pos) == NULL);
}

TEST(probe_group_and_filters)
{
	struct probe_event ev = { .kind = 'p', .group = "probe_libc", .event = "malloc" };
	char *g;

	g = probe_group_for_path("/usr/lib/x86_64-linux-gnu/libc.so.6");
	EXPECT_STREQ(g, "probe_libc");
	free(g);
	g = probe_group_for_path("/tmp/t-x.y");
	EXPECT_STREQ(g, "probe_t");
	free(g);
	g = probe_group_for_path("my_prog2");
	EXPECT_STREQ(g, "probe_my_prog2");
	free(g);

	EXPECT_TRUE(probe_event_matches(&ev, NULL));
	EXPECT_TRUE(probe_event_matches(&ev, "malloc"));
	EXPECT_TRUE(probe_event_matches(&ev, "m*"));
	EXPECT_TRUE(probe_event_matches(&ev, "probe_*"));      /* the whole GROUP:EVENT */
	EXPECT_TRUE(!probe_event_matches(&ev, "probe_libc")); /* perf: no hit */
	EXPECT_TRUE(probe_event_matches(&ev, "probe_libc:*"));
	EXPECT_TRUE(probe_event_matches(&ev, "*:mal*"));
	EXPECT_TRUE(!probe_event_matches(&ev, "probe_libc:free"));
}

TEST(probe_plan_names)
{
	struct probe_plan plan = { 0 };
	struct probe_event existing[] = {
		{ .kind = 'p', .group = "probe_t", .event = "work" },
		{ .kind = 'p', .group = "probe_t", .event = "work_1" },
	};
	char *name;

	plan.existing = existing;
	plan.nr_existing = 2;
	EXPECT_EQ(probe_plan_name(&plan, "probe_t", "main", false, &name), 0);
	EXPECT_STREQ(name, "main");
	free(name);
	EXPECT_EQ(probe_plan_name(&plan, "probe_t", "work", false, &name), -EEXIST);
	EXPECT_TRUE(name == NULL);
	EXPECT_EQ(probe_plan_name(&plan, "probe_t", "work", true, &name), 0);
	EXPECT_STREQ(name, "work_2");
	probe_plan_add(&plan, "probe_t", name, "work");
	EXPECT_EQ(probe_plan_name(&plan, "probe_t", "work", true, &name), 0);
	EXPECT_STREQ(name, "work_3");
	free(name);
	/* another group is another namespace */
	EXPECT_EQ(probe_plan_name(&plan, "probe_u", "work", false, &name), 0);
	free(name);
	EXPECT_STREQ(plan.items[0].def.event, "work_2");
	EXPECT_STREQ(plan.items[0].def.group, "probe_t");
	plan.existing = NULL;
	plan.nr_existing = 0;
	probe_plan_release(&plan);
}

/* a -g and a stripped build of one program: offsets, PLT matches and the --list text */
TEST(probe_binary_symbols)
{
	static const char src[] =
		"#include <stdlib.h>\n"
		"int work(int n) { return n * 3; }\n"
		"int main(int argc, char **argv) { void *p = calloc(1, 8); free(p); return work(argc); }\n";
	struct probe_binary pb;
	const struct symbol *hits[4];
	struct strbuf sb = STRBUF_INIT;
	char cmd[1024];
	FILE *f;
	u64 off, carry = 0;

	if (system("cc --version >/dev/null 2>&1"))
		test_skip("no C compiler");
	snprintf(cmd, sizeof(cmd), "%s/p.c", test_tmpdir());
	f = fopen(cmd, "w");
	EXPECT_TRUE(f != NULL);
	if (!f)
		return;
	fputs(src, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "cd %s && cc -g -O0 -o pg p.c && cc -O0 -s -o ps p.c",
		 test_tmpdir());
	if (system(cmd))
		test_skip("cc failed");

	snprintf(cmd, sizeof(cmd), "%s/pg", test_tmpdir());
	EXPECT_EQ(probe_binary_load(&pb, cmd), 0);
	EXPECT_TRUE(pb.has_dwarf);
	EXPECT_EQ(probe_binary_find_func(&pb, "work", true, hits, 4), 1);
	EXPECT_EQ(probe_binary_file_offset(&pb, hits[0]->start + 4, &off), 0);
	/* in the first line-table row of the CU's first function: the
	   offset, on the declaration's line too (perf 6.1) */
	EXPECT_EQ(probe_binary_describe(&pb, off, false, &carry, &sb), 0);
	EXPECT_TRUE(strncmp(sb.buf, "work+4@", 7) == 0 && strendswith(sb.buf, "/p.c"));
	EXPECT_EQ(carry, 4);
	strbuf_setlen(&sb, 0);
	/* perf 6.1 shows an offset carried from an earlier event instead
	   of %return */
	carry = 7;
	EXPECT_EQ(probe_binary_file_offset(&pb, hits[0]->start, &off), 0);
	EXPECT_EQ(probe_binary_describe(&pb, off, true, &carry, &sb), 0);
	EXPECT_TRUE(strncmp(sb.buf, "work+7@", 7) == 0);
	strbuf_setlen(&sb, 0);
	/* with nothing carried: the name and %return */
	carry = 0;
	EXPECT_EQ(probe_binary_describe(&pb, off, true, &carry, &sb), 0);
	EXPECT_TRUE(strncmp(sb.buf, "work%return@", 12) == 0);
	/* PLT entries match the function name */
	EXPECT_EQ(probe_binary_find_func(&pb, "calloc", true, hits, 4), 1);
	EXPECT_TRUE(hits[0]->flags & SYMBOL_PLT);
	EXPECT_EQ(probe_binary_find_func(&pb, "calloc", false, hits, 4), 0);
	EXPECT_EQ(probe_binary_find_func(&pb, "nosuch", true, hits, 4), 0);
	probe_binary_release(&pb);

	/* stripped: .dynsym only, no DWARF, main is gone */
	snprintf(cmd, sizeof(cmd), "%s/ps", test_tmpdir());
	EXPECT_EQ(probe_binary_load(&pb, cmd), 0);
	EXPECT_TRUE(!pb.has_dwarf);
	EXPECT_EQ(probe_binary_find_func(&pb, "main", true, hits, 4), 0);
	probe_binary_release(&pb);

	EXPECT_EQ(probe_binary_load(&pb, "/nonexistent/x"), -ENOENT);
	probe_binary_release(&pb);
	strbuf_release(&sb);
}

/* a -gz build: the cached copy has the same sections, none compressed, and is reused */
TEST(debug_inflated_copy)
{
	char cmd[1024], bin[512], cache[512];
	const char *old = getenv("XDG_CACHE_HOME");
	char *saved = old ? strdup(old) : NULL;
	size_t nr_compressed = 0, nr_inflated = 0;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	Elf *elf;
	int fd, fd2;

	if (system("cc --version >/dev/null 2>&1"))
		test_skip("no C compiler");
	snprintf(bin, sizeof(bin), "%s/z", test_tmpdir());
	snprintf(cmd, sizeof(cmd), "echo 'int main(void) { return 0; }' | cc -g -gz=zlib -x c -o %s -", bin);
	if (system(cmd))
		test_skip("cc -gz failed");
	snprintf(cache, sizeof(cache), "%s/cache", test_tmpdir());
	setenv("XDG_CACHE_HOME", cache, 1);
	fd = debug_inflated_open(bin);
	EXPECT_TRUE(fd >= 0);
	elf_version(EV_CURRENT);
	elf = fd >= 0 ? elf_begin(fd, ELF_C_READ, NULL) : NULL;
	EXPECT_TRUE(elf != NULL);
	while (elf && (scn = elf_nextscn(elf, scn))) {
		EXPECT_TRUE(gelf_getshdr(scn, &sh) != NULL);
		nr_compressed += !!(sh.sh_flags & SHF_COMPRESSED);
		nr_inflated += sh.sh_type == SHT_PROGBITS && sh.sh_size > 0;
	}
	EXPECT_EQ(nr_compressed, 0);
	EXPECT_TRUE(nr_inflated > 0);
	if (elf)
		elf_end(elf);
	/* the second open finds the copy */
	fd2 = debug_inflated_open(bin);
	EXPECT_TRUE(fd2 >= 0);
	if (fd >= 0)
		close(fd);
	if (fd2 >= 0)
		close(fd2);
	/* nothing compressed: no copy */
	EXPECT_EQ(debug_inflated_open("/bin/sh"), -ENOENT);
	if (saved)
		setenv("XDG_CACHE_HOME", saved, 1);
	else
		unsetenv("XDG_CACHE_HOME");
	free(saved);
}
