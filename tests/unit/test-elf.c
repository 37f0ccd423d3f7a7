/* SPDX-License-Identifier: MIT */
/*
 * Unit tests: ELF symbol loading on programs compiled at test time (PIE and
 * non-PIE, -O0/-O2, shared library, stripped with a debug file, MiniDebugInfo,
 * build-id cache), PLT entries, build-ids, address translation, the vdso.
 */
#include "test.h"

#include "lib/hashmap.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include "lib/xalloc.h"
#include "symbol/elf.h"
#include "symbol/srcline.h"
#include "symbol/symtab.h"

#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

/* the workload: known functions, an alias, a weak symbol, PLT calls */
static const char prog_src[] =
	"#include <stdio.h>\n"
	"#include <stdlib.h>\n"
	"#include <stdint.h>\n"
	"#include <string.h>\n"
	"int glob_counter;\n"
	"static int __attribute__((noinline)) local_helper(int x) { return x * 3 + glob_counter; }\n"
	"int __attribute__((noinline)) public_func(int x) { return local_helper(x) + 1; }\n"
	"__attribute__((weak, noinline)) int weak_func(int x) { return x - 1; }\n"
	"int __attribute__((noinline)) alias_target(int x) { return x + 7; }\n"
	"int alias_name(int x) __attribute__((alias(\"alias_target\")));\n"
	"static void where(const char *what, void *fn)\n"
	"{\n"
	"	char line[512]; unsigned long s, e, off; uintptr_t a = (uintptr_t)fn;\n"
	"	FILE *f = fopen(\"/proc/self/maps\", \"r\");\n"
	"	while (f && fgets(line, sizeof(line), f)) {\n"
	"		if (sscanf(line, \"%lx-%lx %*s %lx\", &s, &e, &off) == 3 && a >= s && a < e)\n"
	"			printf(\"%s %lx %lx %lx\\n\", what, (unsigned long)a, s, off);\n"
	"	}\n"
	"	if (f) fclose(f);\n"
	"}\n"
	"int main(int argc, char **argv)\n"
	"{\n"
	"	void *p = malloc(argc);\n"
	"	if (argc > 1 && !strcmp(argv[1], \"where\")) {\n"
	"		where(\"public_func\", (void *)public_func);\n"
	"		where(\"local_helper\", (void *)local_helper);\n"
	"		where(\"alias_target\", (void *)alias_target);\n"
	"		where(\"main\", (void *)main);\n"
	"	}\n"
	"	free(p);\n"
	"	return public_func(argc) + weak_func(argc) + alias_name(0) > 1000;\n"
	"}\n";

static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int sh(const char *fmt, ...)
{
	struct strbuf cmd = STRBUF_INIT;
	va_list ap;
	int rc;

	strbuf_addf(&cmd, "cd '%s' && (", test_tmpdir());
	va_start(ap, fmt);
	strbuf_vaddf(&cmd, fmt, ap);
	va_end(ap);
	strbuf_addstr(&cmd, ") >/dev/null 2>&1");
	rc = system(cmd.buf);
	strbuf_release(&cmd);
	return rc;
}

static const char *tmp_path(const char *name)
{
	static char buf[4][512];
	static int i;

	i = (i + 1) % 4;
	snprintf(buf[i], sizeof(buf[i]), "%s/%s", test_tmpdir(), name);
	return buf[i];
}

static void need_tools(void)
{
	if (system("cc --version >/dev/null 2>&1"))
		test_skip("no C compiler (cc)");
	if (system("nm --version >/dev/null 2>&1 && objcopy --version >/dev/null 2>&1"))
		test_skip("binutils (nm, objcopy) not installed");
}

static void build_prog(const char *out, const char *cflags)
{
	FILE *f = fopen(tmp_path("prog.c"), "w");

	ASSERT_TRUE(f);
	fputs(prog_src, f);
	fclose(f);
	if (sh("cc %s -Wl,--build-id=sha1 -o %s prog.c", cflags, out))
		test_fail_at(__FILE__, __LINE__, "cannot compile the workload (%s)", cflags);
	ASSERT_TRUE(access(tmp_path(out), X_OK) == 0);
}

/* symbol value of @name from nm, 0 when absent */
static u64 nm_value(const char *file, const char *name)
{
	char cmd[1024], line[512];
	FILE *p;
	u64 v = 0;

	snprintf(cmd, sizeof(cmd), "nm '%s' 2>/dev/null", tmp_path(file));
	p = popen(cmd, "r");
	if (!p)
		return 0;
	while (fgets(line, sizeof(line), p)) {
		unsigned long long a;
		char t, n[256];

		if (sscanf(line, "%llx %c %255s", &a, &t, n) == 3 && !strcmp(n, name))
			v = a;
	}
	pclose(p);
	return v;
}

static const char *name_at(const struct symsrc *ss, u64 addr)
{
	const struct symbol *s = symsrc_find(ss, addr);

	return s ? s->name : "(none)";
}

/* run the workload @file and check each function it reports (nm of @symfile), through map_ip */
static void check_runtime(const char *file, const char *symfile, const struct symsrc *ss)
{
	char cmd[1024], line[512];
	FILE *p;
	int n = 0;

	snprintf(cmd, sizeof(cmd), "'%s' where", tmp_path(file));
	p = popen(cmd, "r");
	ASSERT_TRUE(p != NULL);
	while (fgets(line, sizeof(line), p)) {
		char what[64];
		unsigned long long ip, start, pgoff;
		u64 addr;

		if (sscanf(line, "%63s %llx %llx %llx", what, &ip, &start, &pgoff) != 4)
			continue;
		addr = symsrc_map_ip(ss, start, pgoff, ip);
		EXPECT_UEQ(addr, nm_value(symfile, what));
		EXPECT_STREQ(name_at(ss, addr), what);
		EXPECT_UEQ(symsrc_unmap_ip(ss, start, pgoff, addr), ip);
		n++;
	}
	pclose(p);
	EXPECT_EQ(n, 4);
}

static void check_runtime_addresses(const char *file, const struct symsrc *ss)
{
	check_runtime(file, file, ss);
}

static void check_prog_symbols(const char *file, const struct symsrc *ss)
{
	u64 v;

	v = nm_value(file, "public_func");
	EXPECT_TRUE(v != 0);
	EXPECT_STREQ(name_at(ss, v), "public_func");
	EXPECT_STREQ(name_at(ss, v + 1), "public_func");
	v = nm_value(file, "local_helper");
	EXPECT_STREQ(name_at(ss, v), "local_helper");
	v = nm_value(file, "weak_func");
	EXPECT_STREQ(name_at(ss, v), "weak_func");
	/* two global names, same size: perf keeps the longer one */
	v = nm_value(file, "alias_name");
	EXPECT_STREQ(name_at(ss, v), "alias_target");
	v = nm_value(file, "main");
	EXPECT_STREQ(name_at(ss, v), "main");
}

static struct symsrc *load(struct strpool *pool, const char *file, int expect)
{
	struct symsrc *ss = symsrc_new(pool);

	EXPECT_EQ(symsrc_load(ss, tmp_path(file), NULL), expect);
	return ss;
}

static void variant(const char *cflags)
{
	struct strpool pool = STRPOOL_INIT;
	struct symsrc *ss;

	need_tools();
	build_prog("prog", cflags);
	ss = load(&pool, "prog", 0);
	EXPECT_EQ(ss->kind, SYMSRC_ELF);
	EXPECT_TRUE(ss->has_symtab);
	EXPECT_EQ(ss->build_id_size, 20);
	check_prog_symbols("prog", ss);
	check_runtime_addresses("prog", ss);
	symsrc_free(ss);
	strpool_release(&pool);
}

TEST(elf_pie_O0)
{
	variant("-O0 -fPIE -pie");
	{
		struct strpool pool = STRPOOL_INIT;
		struct symsrc *ss = load(&pool, "prog", 0);

		EXPECT_EQ(ss->e_type, ET_DYN);
		symsrc_free(ss);
		strpool_release(&pool);
	}
}

TEST(elf_nopie_O2)
{
	variant("-O2 -fno-pie -no-pie");
	{
		struct strpool pool = STRPOOL_INIT;
		struct symsrc *ss = load(&pool, "prog", 0);

		EXPECT_EQ(ss->e_type, ET_EXEC);
		symsrc_free(ss);
		strpool_release(&pool);
	}
}

TEST(elf_pie_O2_debuginfo)
{
	variant("-O2 -g");
}

TEST(elf_nonzero_vaddr_offset_gap)
{
	/* a linker script shift: vaddr and file offset differ by more than a page */
	variant("-O1 -Wl,-z,separate-code -Wl,-Ttext-segment=0x10000000 -no-pie -fno-pie");
}

/* objdump's "<name@plt>" addresses are what perf names the PLT entries */
static void check_plt(const char *cflags)
{
	struct strpool pool = STRPOOL_INIT;
	struct symsrc *ss;
	char cmd[1024], line[512];
	FILE *p;
	int n = 0;
	bool in_plt = false;
	const struct symbol *sym;

	build_prog("prog", cflags);
	ss = load(&pool, "prog", 0);
	snprintf(cmd, sizeof(cmd), "objdump -d '%s'", tmp_path("prog"));
	p = popen(cmd, "r");
	ASSERT_TRUE(p != NULL);
	while (fgets(line, sizeof(line), p)) {
		unsigned long long a;
		char name[256];

		/* the .rela.plt stubs only (not .plt.got, not the header) */
		if (!strncmp(line, "Disassembly of section ", 23))
			in_plt = !strncmp(line + 23, ".plt:", 5) || !strncmp(line + 23, ".plt.sec:", 9);
		if (!in_plt || sscanf(line, "%llx <%255[^>]>:", &a, name) != 2 ||
		    !strendswith(name, "@plt"))
			continue;
		/*
		 * the entry exists at objdump's address; a lookup may still
		 * answer "_init" when perf's tree does (zero-sized _init is
		 * stretched over .plt before the entries are added)
		 */
		sym = symtab_find_by_name(&ss->symtab, name);
		EXPECT_UEQ(sym ? sym->start : 0, a);
		n++;
	}
	pclose(p);
	EXPECT_TRUE(n >= 2); /* malloc, free, printf... */
	EXPECT_TRUE(symtab_find_by_name(&ss->symtab, "malloc@plt") != NULL);
	symsrc_free(ss);
	strpool_release(&pool);
}

TEST(elf_plt_entries)
{
	need_tools();
	check_plt("-O0 -fPIE -pie -Wl,-z,lazy");
}

TEST(elf_plt_sec_entries_ibt)
{
	need_tools();
	/* -z ibtplt puts the callable stubs in .plt.sec */
	if (sh("echo 'int main(void){return 0;}' > ibt.c && cc -fcf-protection -Wl,-z,ibtplt -o ibt ibt.c"))
		test_skip("the linker cannot make IBT PLTs");
	check_plt("-O0 -fcf-protection -Wl,-z,ibtplt -Wl,-z,lazy");
}

TEST(elf_build_id_matches_readelf)
{
	u8 bid[BUILD_ID_SIZE];
	char hex[2 * BUILD_ID_SIZE + 1], cmd[1024], line[512], want[128] = "";
	FILE *p;
	int n;

	need_tools();
	build_prog("prog", "-O0");
	n = buildid_read_path(tmp_path("prog"), bid, sizeof(bid));
	EXPECT_EQ(n, 20);
	snprintf(cmd, sizeof(cmd), "readelf -n '%s'", tmp_path("prog"));
	p = popen(cmd, "r");
	ASSERT_TRUE(p != NULL);
	while (fgets(line, sizeof(line), p))
		if (sscanf(line, " Build ID: %127s", want) == 1)
			break;
	pclose(p);
	EXPECT_STREQ(buildid_to_hex(bid, n > 0 ? n : 0, hex), want);
	EXPECT_EQ(buildid_from_hex(want, bid, sizeof(bid)), 20);
	EXPECT_STREQ(buildid_to_hex(bid, 20, hex), want);
	EXPECT_EQ(buildid_from_hex("xyz", bid, sizeof(bid)), -EINVAL);
	EXPECT_EQ(buildid_read_path("/nonexistent", bid, sizeof(bid)), -ENOENT);
	EXPECT_EQ(buildid_read_path(tmp_path("prog.c"), bid, sizeof(bid)), -ENOTSUP);
	if (sh("cc -O0 -Wl,--build-id=none -o nobid prog.c") == 0)
		EXPECT_EQ(buildid_read_path(tmp_path("nobid"), bid, sizeof(bid)), -ENODATA);
}

TEST(elf_build_id_mismatch_is_reported)
{
	struct strpool pool = STRPOOL_INIT;
	struct symsrc *ss = symsrc_new(&pool);
	struct symbol_opts opts = { .no_buildid_cache = true };
	u8 other[20] = { 1, 2, 3 };
	struct symsrc_args args = { .opts = &opts, .build_id = other, .build_id_size = 20 };
	char buf[512];

	need_tools();
	build_prog("prog", "-O0");
	EXPECT_EQ(symsrc_load(ss, tmp_path("prog"), &args), -ESTALE);
	EXPECT_TRUE(symsrc_find(ss, nm_value("prog", "main")) == NULL);
	symsrc_strerror(ss, "prog", buf, sizeof(buf));
	EXPECT_STREQ(buf, "prog with build id 0102030000000000000000000000000000000000 not found, "
			  "continuing without symbols");
	symsrc_free(ss);
	strpool_release(&pool);
}

TEST(elf_stripped_with_debuglink)
{
	struct strpool pool = STRPOOL_INIT;
	struct symsrc *ss;

	need_tools();
	build_prog("prog", "-O2 -g");
	ASSERT_TRUE(sh("objcopy --only-keep-debug prog prog.debug && strip --strip-all prog && "
		       "objcopy --add-gnu-debuglink=prog.debug prog") == 0);
	ss = load(&pool, "prog", 0);
	EXPECT_TRUE(ss->has_symtab);
	EXPECT_STREQ(ss->symbol_path, tmp_path("prog.debug"));
	check_prog_symbols("prog.debug", ss);
	check_runtime("prog", "prog.debug", ss);
	/* the PLT still comes from the stripped binary */
	EXPECT_TRUE(symtab_find_by_name(&ss->symtab, "fopen@plt") != NULL);
	symsrc_free(ss);

	/* in .debug/ works too */
	ASSERT_TRUE(sh("mkdir .debug && mv prog.debug .debug/") == 0);
	ss = load(&pool, "prog", 0);
	EXPECT_STREQ(ss->symbol_path, tmp_path(".debug/prog.debug"));
	symsrc_free(ss);

	/* a debug file whose CRC does not match is ignored: only .dynsym is left */
	ASSERT_TRUE(sh("echo x >> .debug/prog.debug") == 0);
	ss = load(&pool, "prog", 0);
	EXPECT_TRUE(!ss->has_symtab);
	EXPECT_STREQ(name_at(ss, nm_value(".debug/prog.debug", "local_helper")), "(none)");
	symsrc_free(ss);
	strpool_release(&pool);
}

TEST(elf_build_id_cache_and_deleted_binary)
{
	struct strpool pool = STRPOOL_INIT;
	struct symbol_opts opts = { 0 };
	struct symsrc_args args = { .opts = &opts };
	struct strbuf link = STRBUF_INIT;
	struct symsrc *ss;
	u8 bid[BUILD_ID_SIZE];
	char hex[64], orig[512];
	int n;

	need_tools();
	build_prog("prog", "-O0");
	n = buildid_read_path(tmp_path("prog"), bid, sizeof(bid));
	ASSERT_TRUE(n == 20);
	buildid_to_hex(bid, 20, hex);
	snprintf(orig, sizeof(orig), "%s", tmp_path("prog"));
	/* perf 6.1 layout: .build-id/xx/rest -> ../../<path>/<hex>/ holding "elf" */
	ASSERT_TRUE(sh("mkdir -p cache/.build-id/%.2s cache%s/%s && cp prog cache%s/%s/elf && "
		       "ln -s ../..%s/%s cache/.build-id/%.2s/%s",
		       hex, orig, hex, orig, hex, orig, hex, hex, hex + 2) == 0);
	setenv("PERF_BUILDID_DIR", tmp_path("cache"), 1);
	buildid_cache_link(&link, tmp_path("cache"), bid, 20);
	EXPECT_TRUE(access(link.buf, R_OK) == 0);
	/* the binary is rebuilt differently: the recorded build-id is in the cache */
	ASSERT_TRUE(sh("cc -O2 -DX=1 -o prog prog.c") == 0);
	args.build_id = bid;
	args.build_id_size = 20;
	ss = symsrc_new(&pool);
	EXPECT_EQ(symsrc_load(ss, orig, &args), 0);
	EXPECT_TRUE(ss->path && strstr(ss->path, "/elf"));
	EXPECT_TRUE(symtab_find_by_name(&ss->symtab, "local_helper") != NULL);
	symsrc_free(ss);
	/* and deleted: still found */
	unlink(orig);
	ss = symsrc_new(&pool);
	EXPECT_EQ(symsrc_load(ss, orig, &args), 0);
	EXPECT_TRUE(symtab_find_by_name(&ss->symtab, "public_func") != NULL);
	symsrc_free(ss);
	/* without the cache: missing */
	opts.no_buildid_cache = true;
	ss = symsrc_new(&pool);
	EXPECT_EQ(symsrc_load(ss, orig, &args), -ENOENT);
	symsrc_free(ss);
	unsetenv("PERF_BUILDID_DIR");
	strbuf_release(&link);
	strpool_release(&pool);
}

TEST(elf_minidebuginfo)
{
	struct strpool pool = STRPOOL_INIT;
	struct symsrc *ss;

	need_tools();
	if (system("xz --version >/dev/null 2>&1"))
		test_skip("xz not installed");
	build_prog("prog", "-O2");
	ASSERT_TRUE(sh("cp prog orig && "
		       "nm -D prog --format=posix --defined-only | awk '{print $1}' | sort > dyn && "
		       "nm prog --format=posix --defined-only | "
		       "awk '$2 ~ /[TtWw]/ {print $1}' | sort > funcs && "
		       "comm -13 dyn funcs > keep && "
		       "objcopy --only-keep-debug prog mini && "
		       "objcopy -S --remove-section .comment --keep-symbols=keep mini && "
		       "strip --strip-all prog && xz mini && "
		       "objcopy --add-section .gnu_debugdata=mini.xz prog") == 0);
	ss = load(&pool, "prog", 0);
	EXPECT_STREQ(name_at(ss, nm_value("orig", "local_helper")), "local_helper");
	EXPECT_STREQ(name_at(ss, nm_value("orig", "public_func")), "public_func");
	symsrc_free(ss);
	strpool_release(&pool);
}

static void check_shared_library(const char *ldflags);

TEST(elf_shared_library)
{
	check_shared_library("");
}

/* a library linked at a fixed base, as prelink leaves them: vaddr != file offset */
TEST(elf_shared_library_prelinked_base)
{
	check_shared_library("-Wl,-Ttext-segment=0x40000000");
}

static void check_shared_library(const char *ldflags)
{
	struct strpool pool = STRPOOL_INIT;
	struct symsrc *ss;
	void *h, *fn;
	FILE *f;
	char line[512];
	int found = 0;

	need_tools();
	f = fopen(tmp_path("lib.c"), "w");
	ASSERT_TRUE(f);
	fputs("static int __attribute__((noinline)) lib_local(int x) { return x * 5; }\n"
	      "int lib_entry(int x) { return lib_local(x) + 2; }\n", f);
	fclose(f);
	ASSERT_TRUE(sh("cc -O1 -shared -fPIC -Wl,--build-id %s -o libt.so lib.c", ldflags) == 0);
	ss = load(&pool, "libt.so", 0);
	EXPECT_STREQ(name_at(ss, nm_value("libt.so", "lib_entry")), "lib_entry");
	EXPECT_STREQ(name_at(ss, nm_value("libt.so", "lib_local")), "lib_local");
	/* loaded in this process: translate its runtime address through our own maps */
	h = dlopen(tmp_path("libt.so"), RTLD_NOW);
	ASSERT_TRUE(h != NULL);
	fn = dlsym(h, "lib_entry");
	f = fopen("/proc/self/maps", "r");
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long long s, e, off;

		if (sscanf(line, "%llx-%llx %*s %llx", &s, &e, &off) == 3 &&
		    (uintptr_t)fn >= s && (uintptr_t)fn < e) {
			u64 a = symsrc_map_ip(ss, s, off, (uintptr_t)fn);

			EXPECT_STREQ(name_at(ss, a), "lib_entry");
			found = 1;
		}
	}
	if (f)
		fclose(f);
	EXPECT_TRUE(found);
	dlclose(h);
	symsrc_free(ss);
	strpool_release(&pool);
}

TEST(elf_libc_against_dlsym)
{
	struct strpool pool = STRPOOL_INIT;
	struct symsrc *ss = NULL;
	static const char *const fns[] = { "getpid", "qsort", "memchr", "fopen" };
	char line[512], path[400];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(fns); i++) {
		void *fn = dlsym(RTLD_DEFAULT, fns[i]);
		FILE *f = fopen("/proc/self/maps", "r");
		Dl_info info;

		/* under ASan, dlsym finds the sanitizer's interceptors: libc only */
		if (!fn || !dladdr(fn, &info) || !info.dli_sname || !strstr(info.dli_fname, "libc.so"))
			continue;
		while (f && fgets(line, sizeof(line), f)) {
			unsigned long long s, e, off;
			const struct symbol *sym;

			if (sscanf(line, "%llx-%llx %*s %llx %*s %*s %399s", &s, &e, &off, path) != 4 ||
			    (uintptr_t)fn < s || (uintptr_t)fn >= e)
				continue;
			if (!ss) {
				ss = symsrc_new(&pool);
				EXPECT_EQ(symsrc_load(ss, path, NULL), 0);
			}
			sym = symsrc_find(ss, symsrc_map_ip(ss, s, off, (uintptr_t)fn));
			ASSERT_TRUE(sym != NULL);
			/* the symbol starts exactly at the function (its name may be an alias) */
			EXPECT_UEQ(symsrc_unmap_ip(ss, s, off, sym->start), (uintptr_t)fn);
		}
		if (f)
			fclose(f);
	}
	if (!ss)
		test_skip("libc functions not found through dlsym");
	symsrc_free(ss);
	strpool_release(&pool);
}

TEST(elf_cxx_demangled)
{
	struct strpool pool = STRPOOL_INIT;
	struct symbol_opts opts = { 0 };
	struct symsrc_args args = { .opts = &opts };
	struct symsrc *ss;
	FILE *f;

	need_tools();
	if (system("g++ --version >/dev/null 2>&1"))
		test_skip("g++ not installed");
	f = fopen(tmp_path("cx.cpp"), "w");
	ASSERT_TRUE(f);
	fputs("namespace ns { struct K { int f(int x); template<class T> T g(T v); }; }\n"
	      "int ns::K::f(int x) { return x + 1; }\n"
	      "template<class T> T ns::K::g(T v) { return v; }\n"
	      "int main() { ns::K k; return k.f(1) + k.g<int>(2); }\n", f);
	fclose(f);
	ASSERT_TRUE(sh("g++ -O0 -o cx cx.cpp") == 0);
	ss = symsrc_new(&pool);
	EXPECT_EQ(symsrc_load(ss, tmp_path("cx"), &args), 0);
	EXPECT_STREQ(name_at(ss, nm_value("cx", "_ZN2ns1K1fEi")), "ns::K::f");
	EXPECT_STREQ(name_at(ss, nm_value("cx", "_ZN2ns1K1gIiEET_S2_")), "ns::K::g<int>");
	symsrc_free(ss);
	opts.demangle_params = true;
	ss = symsrc_new(&pool);
	EXPECT_EQ(symsrc_load(ss, tmp_path("cx"), &args), 0);
	EXPECT_STREQ(name_at(ss, nm_value("cx", "_ZN2ns1K1gIiEET_S2_")), "int ns::K::g<int>(int)");
	symsrc_free(ss);
	opts.demangle_params = false;
	opts.no_demangle = true;
	ss = symsrc_new(&pool);
	EXPECT_EQ(symsrc_load(ss, tmp_path("cx"), &args), 0);
	EXPECT_STREQ(name_at(ss, nm_value("cx", "_ZN2ns1K1fEi")), "_ZN2ns1K1fEi");
	symsrc_free(ss);
	strpool_release(&pool);
}

TEST(elf_vdso)
{
	struct strpool pool = STRPOOL_INIT;
	struct symsrc *ss;
	void *image = NULL;
	size_t len = 0;
	u8 bid[BUILD_ID_SIZE];
	const struct symbol *s;

	if (!getauxval(AT_SYSINFO_EHDR))
		test_skip("no vdso in this process");
	EXPECT_EQ(vdso_read_self(&image, &len), 0);
	EXPECT_TRUE(len >= 4096);
	EXPECT_TRUE(image && !memcmp(image, ELFMAG, SELFMAG));
	ss = symsrc_new(&pool);
	EXPECT_EQ(symsrc_load(ss, "[vdso]", NULL), 0);
	EXPECT_EQ(ss->kind, SYMSRC_VDSO);
	/* clock_gettime is a weak alias of the global __vdso_clock_gettime */
	s = symtab_find_by_name(&ss->symtab, "__vdso_clock_gettime");
	EXPECT_TRUE(s != NULL);
	EXPECT_TRUE(symtab_find_by_name(&ss->symtab, "clock_gettime") == NULL);
	if (buildid_read_mem(image, len, bid, sizeof(bid)) > 0)
		EXPECT_MEMEQ(bid, ss->build_id, ss->build_id_size);
	free(image);
	symsrc_free(ss);
	strpool_release(&pool);
}

TEST(elf_kernel_build_id)
{
	u8 bid[BUILD_ID_SIZE];
	char hex[64], cmd[256], line[256] = "";
	FILE *p;
	int n;

	if (access("/sys/kernel/notes", R_OK))
		test_skip("/sys/kernel/notes not readable");
	n = buildid_read_kernel(bid, sizeof(bid));
	EXPECT_TRUE(n >= 16);
	if (n <= 0 || access("/usr/bin/perf", X_OK))
		return;
	snprintf(cmd, sizeof(cmd), "/usr/bin/perf buildid-list -k 2>/dev/null");
	p = popen(cmd, "r");
	if (p && fgets(line, sizeof(line), p)) {
		line[strcspn(line, "\n")] = 0;
		EXPECT_STREQ(buildid_to_hex(bid, n, hex), line);
	}
	if (p)
		pclose(p);
}

TEST(elf_offset_vaddr_translation)
{
	/* an ET_EXEC with text at file offset 0x1000, vaddr 0x401000; data shifted */
	struct load_segment segs[] = {
		{ 0x0, 0x400000, 0x5f0, 0x5f0, false },
		{ 0x1000, 0x401000, 0x1000, 0x1000, true },
		{ 0x2e10, 0x403e10, 0x220, 0x228, false },
	};
	u64 v, off;

	EXPECT_TRUE(elf_offset_to_vaddr(segs, 3, 0x1136, &v));
	EXPECT_UEQ(v, 0x401136);
	EXPECT_TRUE(elf_offset_to_vaddr(segs, 3, 0x2e20, &v));
	EXPECT_UEQ(v, 0x403e20);
	EXPECT_TRUE(!elf_offset_to_vaddr(segs, 3, 0x9000, &v));
	EXPECT_TRUE(elf_vaddr_to_offset(segs, 3, 0x401136, &off));
	EXPECT_UEQ(off, 0x1136);
	EXPECT_TRUE(elf_vaddr_to_offset(segs, 3, 0x404030, &off)); /* .bss part of memsz */
}

TEST(debuglink_crc32_known_value)
{
	/* the standard CRC-32 check value */
	EXPECT_UEQ(gnu_debuglink_crc32(0, "123456789", 9), 0xcbf43926);
	EXPECT_UEQ(gnu_debuglink_crc32(gnu_debuglink_crc32(0, "1234", 4), "56789", 5), 0xcbf43926);
}

TEST(elf_other_mount_namespace_via_proc_root)
{
	struct strpool pool = STRPOOL_INIT;
	struct symsrc_args args = { 0 };
	struct symsrc *ss;
	char buf[64];
	FILE *f;
	int pid = 0, i;

	need_tools();
	if (getuid() != 0 || system("unshare --version >/dev/null 2>&1"))
		test_skip("needs root and unshare(1) to make a mount namespace");
	ASSERT_TRUE(sh("echo 'int __attribute__((noinline)) in_host(void){return 1;} int main(void){return in_host();}' > h.c && "
		       "echo 'int __attribute__((noinline)) in_container(void){return 2;} int main(void){return in_container();}' > c.c && "
		       "cc -O1 -o hostbin h.c && cc -O1 -o ctrbin c.c") == 0);
	/* a "container": its own mount namespace where hostbin is another file */
	if (sh("(unshare -m --propagation private sh -c 'mount --bind ctrbin hostbin && echo $$ > ns.pid && exec sleep 20' &)"))
		test_skip("unshare -m failed here");
	for (i = 0; i < 100 && access(tmp_path("ns.pid"), R_OK); i++)
		usleep(50 * 1000);
	f = fopen(tmp_path("ns.pid"), "r");
	if (f && fgets(buf, sizeof(buf), f))
		pid = atoi(buf);
	if (f)
		fclose(f);
	if (pid <= 0)
		test_skip("the mount namespace did not come up");
	args.pid = pid;
	ss = symsrc_new(&pool);
	EXPECT_EQ(symsrc_load(ss, tmp_path("hostbin"), &args), 0);
	EXPECT_TRUE(symtab_find_by_name(&ss->symtab, "in_container") != NULL);
	EXPECT_TRUE(symtab_find_by_name(&ss->symtab, "in_host") == NULL);
	symsrc_free(ss);
	/* the same path for a host process: the host's file */
	args.pid = getpid();
	ss = symsrc_new(&pool);
	EXPECT_EQ(symsrc_load(ss, tmp_path("hostbin"), &args), 0);
	EXPECT_TRUE(symtab_find_by_name(&ss->symtab, "in_host") != NULL);
	symsrc_free(ss);
	kill(pid, SIGTERM);
	strpool_release(&pool);
}

/* damaged binaries: every load returns (symbols or an error), none crashes */
TEST(elf_corrupt_files_do_not_crash)
{
	struct strpool pool = STRPOOL_INIT;
	struct strbuf img = STRBUF_INIT;
	u64 x = 0x2545f4914f6cdd1dULL;
	u8 bid[BUILD_ID_SIZE];
	int round, i;

	need_tools();
	build_prog("prog", "-O1 -g");
	ASSERT_TRUE(strbuf_read_file(&img, tmp_path("prog"), 0) > 1000);
	for (round = 0; round < 150; round++) {
		struct strbuf bad = STRBUF_INIT;
		struct symsrc *ss;
		FILE *f;

		strbuf_add(&bad, img.buf, img.len);
		/* flip bytes, biased to the headers where offsets and sizes live */
		for (i = 0; i < 1 + round % 8; i++) {
			size_t at;

			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			at = (round % 3 == 0) ? x % 64 : (round % 3 == 1) ? bad.len - 1 - x % 4096
									   : x % bad.len;
			bad.buf[at] ^= (char)(1 + (x >> 32) % 255);
		}
		if (round % 10 == 9)
			strbuf_setlen(&bad, (x >> 8) % bad.len); /* truncated */
		f = fopen(tmp_path("bad"), "w");
		ASSERT_TRUE(f);
		fwrite(bad.buf, 1, bad.len, f);
		fclose(f);
		ss = symsrc_new(&pool);
		symsrc_load(ss, tmp_path("bad"), NULL);
		symsrc_find(ss, 0x1139);
		symsrc_free(ss);
		{
			struct srcline_cache *sc = srcline_cache_new(tmp_path("bad"), NULL, NULL, &pool);
			struct srcline sl;

			srcline_find(sc, 0x1139, true, &sl);
			srcline_find(sc, 0x1150, false, &sl);
			srcline_cache_free(sc);
		}
		buildid_read_path(tmp_path("bad"), bid, sizeof(bid));
		buildid_read_mem(bad.buf, bad.len, bid, sizeof(bid));
		strbuf_release(&bad);
	}
	strbuf_release(&img);
	strpool_release(&pool);
}

TEST(elf_symfs_prefix)
{
	struct strpool pool = STRPOOL_INIT;
	struct symbol_opts opts = { .no_buildid_cache = true };
	struct symsrc_args args = { .opts = &opts };
	struct symsrc *ss;
	char symfs[512];

	need_tools();
	build_prog("prog", "-O0");
	/* the "target's" root: <symfs>/usr/bin/prog */
	snprintf(symfs, sizeof(symfs), "%s", tmp_path("root"));
	ASSERT_TRUE(sh("mkdir -p root/usr/bin && cp prog root/usr/bin/prog") == 0);
	opts.symfs = symfs;
	ss = symsrc_new(&pool);
	EXPECT_EQ(symsrc_load(ss, "/usr/bin/prog", &args), 0);
	EXPECT_TRUE(symtab_find_by_name(&ss->symtab, "public_func") != NULL);
	symsrc_free(ss);
	/* a file only on the host is not used with --symfs */
	ss = symsrc_new(&pool);
	EXPECT_EQ(symsrc_load(ss, "/usr/bin/ls", &args), -ENOENT);
	symsrc_free(ss);
	strpool_release(&pool);
}

/* Rust programs, legacy and v0 mangling, compiled here when rustc is installed */
TEST(elf_rust_symbols)
{
	struct strpool pool = STRPOOL_INIT;
	struct symsrc *ss;
	FILE *f;

	if (system("rustc --version >/dev/null 2>&1"))
		test_skip("rustc not installed");
	f = fopen(tmp_path("r.rs"), "w");
	ASSERT_TRUE(f);
	fputs("trait Tr { fn go(&self) -> u64; }\n"
	      "struct S(u64);\n"
	      "impl Tr for S { #[inline(never)] fn go(&self) -> u64 { self.0 * 3 } }\n"
	      "#[inline(never)] fn work<T: Copy + Into<u64>>(v: &[T]) -> u64 { v.iter().map(|x| (*x).into()).sum() }\n"
	      "fn main() { let d: Box<dyn Tr> = Box::new(S(std::env::args().count() as u64));\n"
	      "  let v: Vec<u8> = std::env::args().map(|a| a.len() as u8).collect();\n"
	      "  println!(\"{} {}\", work(&v), d.go()); }\n", f);
	fclose(f);
	/* legacy is the default mangling of stable rustc (naming it needs -Z) */
	ASSERT_TRUE(sh("rustc -O -o rleg r.rs") == 0);
	ss = load(&pool, "rleg", 0);
	/* legacy names lose their hash; generics are not encoded */
	EXPECT_TRUE(symtab_find_by_name(&ss->symtab, "r::work") != NULL);
	EXPECT_TRUE(symtab_find_by_name(&ss->symtab, "<r::S as r::Tr>::go") != NULL);
	symsrc_free(ss);
	if (sh("rustc -O -C symbol-mangling-version=v0 -o rv0 r.rs")) {
		strpool_release(&pool);
		test_skip("this rustc has no v0 mangling");
	}
	ss = load(&pool, "rv0", 0);
	EXPECT_TRUE(symtab_find_by_name(&ss->symtab, "r::work::<u8>") != NULL);
	EXPECT_TRUE(symtab_find_by_name(&ss->symtab, "<r::S as r::Tr>::go") != NULL);
	EXPECT_TRUE(symtab_find_by_name(&ss->symtab, "r::main") != NULL);
	symsrc_free(ss);
	strpool_release(&pool);
}

/* our cache entries are perf's: perf script finds a deleted binary through them */
TEST(elf_build_id_cache_add_is_read_by_perf)
{
	struct strpool pool = STRPOOL_INIT;
	struct strbuf found = STRBUF_INIT;
	struct symbol_opts opts = { 0 };
	struct symsrc_args args = { .opts = &opts };
	struct symsrc *ss;
	u8 bid[BUILD_ID_SIZE];
	char hex[64], path[512], cmd[2048], line[512];
	FILE *f, *p;
	int n, hits = 0;

	need_tools();
	f = fopen(tmp_path("spin.c"), "w");
	ASSERT_TRUE(f);
	fputs("long __attribute__((noinline)) spin(long n) { volatile long s = 0; "
	      "for (long i = 0; i < n; i++) s += i; return s; }\n"
	      "int main(void) { return spin(200000000) > 0 ? 0 : 1; }\n", f);
	fclose(f);
	ASSERT_TRUE(sh("cc -O1 -Wl,--build-id -o spin spin.c") == 0);
	snprintf(path, sizeof(path), "%s", tmp_path("spin"));
	n = buildid_read_path(path, bid, sizeof(bid));
	ASSERT_TRUE(n == 20);
	EXPECT_EQ(buildid_cache_add(tmp_path("cache"), path, NULL, bid, 20), 0);
	EXPECT_EQ(buildid_cache_add(tmp_path("cache"), path, NULL, bid, 20), 0); /* again: kept */
	EXPECT_EQ(buildid_cache_find(&found, tmp_path("cache"), bid, 20, false), 0);
	buildid_to_hex(bid, 20, hex);
	EXPECT_TRUE(strendswith(found.buf, "/elf") && strstr(found.buf, hex));
	opts.buildid_dir = tmp_path("cache");
	args.build_id = bid;
	args.build_id_size = 20;

	if (access("/usr/bin/perf", X_OK)) {
		strbuf_release(&found);
		strpool_release(&pool);
		test_skip("perf not installed: layout checked, not perf's reading of it");
	}
	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && /usr/bin/perf record -q -N -e cpu-clock -o spin.data ./spin >/dev/null 2>&1",
		 test_tmpdir());
	if (system(cmd))
		test_skip("perf record failed here");
	unlink(path);
	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && /usr/bin/perf --buildid-dir '%s' script -i spin.data -F ip,sym 2>/dev/null",
		 test_tmpdir(), tmp_path("cache"));
	p = popen(cmd, "r");
	ASSERT_TRUE(p != NULL);
	while (fgets(line, sizeof(line), p))
		hits += strstr(line, "spin") != NULL;
	pclose(p);
	EXPECT_TRUE(hits > 10);
	/* and we read it too, with the binary gone */
	ss = symsrc_new(&pool);
	EXPECT_EQ(symsrc_load(ss, path, &args), 0);
	EXPECT_TRUE(symtab_find_by_name(&ss->symtab, "spin") != NULL);
	symsrc_free(ss);
	strbuf_release(&found);
	strpool_release(&pool);
}

/* a JIT in a container: its map is /tmp/perf-<namespace pid>.map in the container's /tmp */
TEST(elf_perf_map_in_pid_and_mount_namespace)
{
	struct strpool pool = STRPOOL_INIT;
	struct symsrc_args args = { 0 };
	struct symsrc *ss;
	char buf[256], name[64];
	FILE *f;
	int upid = 0, pid = 0, i;

	if (getuid() != 0 || system("unshare --version >/dev/null 2>&1"))
		test_skip("needs root and unshare(1) to make namespaces");
	/* the scratch dir is under /tmp too: report readiness through a descriptor opened before */
	if (sh("(unshare -m -p -f --propagation private sh -c "
	       "'exec 3>%s/ns.ready; mount -t tmpfs none /tmp && "
	       "echo \"7f0000001000 40 ctr_jit_fn\" > /tmp/perf-$$.map && echo up >&3 && "
	       "exec sleep 20 3>&-' & echo $! > unshare.pid)",
	       test_tmpdir()))
		test_skip("unshare -m -p failed here");
	for (i = 0; i < 100; i++) {
		struct stat st;

		if (!stat(tmp_path("ns.ready"), &st) && st.st_size > 0)
			break;
		usleep(50 * 1000);
	}
	f = fopen(tmp_path("unshare.pid"), "r");
	if (f && fgets(buf, sizeof(buf), f))
		upid = atoi(buf);
	if (f)
		fclose(f);
	/* the container's init is unshare's child */
	snprintf(name, sizeof(name), "/proc/%d/task/%d/children", upid, upid);
	f = upid > 0 ? fopen(name, "r") : NULL;
	if (f && fgets(buf, sizeof(buf), f))
		pid = atoi(buf);
	if (f)
		fclose(f);
	if (pid <= 0 || i == 100)
		test_skip("the namespaces did not come up");
	snprintf(name, sizeof(name), "/tmp/perf-%d.map", pid);
	/* a host file of that name is stale (the pid is our container's now): it would win */
	unlink(name);
	args.pid = pid;
	ss = symsrc_new(&pool);
	EXPECT_EQ(symsrc_load(ss, name, &args), 0);
	EXPECT_TRUE(symtab_find_by_name(&ss->symtab, "ctr_jit_fn") != NULL);
	symsrc_free(ss);
	/* a namespace's init ignores SIGTERM from outside */
	kill(pid, SIGKILL);
	strpool_release(&pool);
}
