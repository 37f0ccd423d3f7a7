/* SPDX-License-Identifier: MIT */
/* Unit tests: source lines and inline chains through libdw, with the per-DSO cache. */
#include "test.h"

#include "lib/hashmap.h"
#include "symbol/srcline.h"
#include "symbol/symtab.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static const char src[] =
	"static inline __attribute__((always_inline)) int sq(int x)\n" /* 1 */
	"{\n"
	"	return x * x + 3;\n"					  /* 3 */
	"}\n"
	"int __attribute__((noinline)) calc(int v)\n"		  /* 5 */
	"{\n"
	"	return sq(v) + 1;\n"					  /* 7 */
	"}\n"
	"int main(int argc, char **argv)\n"			  /* 9 */
	"{\n"
	"	return calc(argc) > 100;\n"				  /* 11 */
	"}\n";

static const char *build(const char *cflags, const char *out)
{
	static char path[512];
	char cmd[1024];
	FILE *f;

	if (system("cc --version >/dev/null 2>&1"))
		test_skip("no C compiler (cc)");
	snprintf(path, sizeof(path), "%s/sl.c", test_tmpdir());
	f = fopen(path, "w");
	ASSERT_TRUE(f);
	fputs(src, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "cd '%s' && cc %s -o %s sl.c", test_tmpdir(), cflags, out);
	ASSERT_TRUE(system(cmd) == 0);
	snprintf(path, sizeof(path), "%s/%s", test_tmpdir(), out);
	return path;
}

TEST(srcline_function_lines)
{
	struct strpool pool = STRPOOL_INIT;
	const char *bin = build("-O0 -g", "sl");
	struct symsrc *ss = symsrc_new(&pool);
	struct srcline_cache *sc;
	const struct symbol *s;
	struct srcline sl;
	char buf[256];

	ASSERT_TRUE(symsrc_load(ss, bin, NULL) == 0);
	sc = srcline_cache_new(bin, NULL, NULL, &pool);
	s = symtab_find_by_name(&ss->symtab, "main");
	ASSERT_TRUE(s != NULL);
	EXPECT_EQ(srcline_find(sc, s->start, false, &sl), 0);
	EXPECT_EQ(sl.line, 10);
	EXPECT_TRUE(sl.file && strstr(sl.file, "sl.c"));
	EXPECT_STREQ(srcline_format(&sl, false, buf, sizeof(buf)), "sl.c:10");
	EXPECT_TRUE(strchr(srcline_format(&sl, true, buf, sizeof(buf)), '/') != NULL);
	/* cached: same interned pointers */
	{
		struct srcline again;

		EXPECT_EQ(srcline_find(sc, s->start, false, &again), 0);
		EXPECT_TRUE(again.file == sl.file);
	}
	s = symtab_find_by_name(&ss->symtab, "calc");
	ASSERT_TRUE(s != NULL);
	EXPECT_EQ(srcline_find(sc, s->start, false, &sl), 0);
	EXPECT_EQ(sl.line, 6);
	/* an address without lines */
	EXPECT_EQ(srcline_find(sc, 0x10, false, &sl), -ENOENT);
	EXPECT_STREQ(srcline_format(&sl, false, buf, sizeof(buf)), "??:0");
	/* what perf report --sort srcline prints then */
	EXPECT_STREQ(srcline_format_unknown(buf, sizeof(buf), "@plt", 0, "wl", 0x1030), "@plt+0");
	EXPECT_STREQ(srcline_format_unknown(buf, sizeof(buf), "finish_task_switch.isra.0", 147,
					    "[kernel.kallsyms]", 0),
		     "finish_task_switch.isra.0+147");
	EXPECT_STREQ(srcline_format_unknown(buf, sizeof(buf), NULL, 0, "libfoo.so", 0x1234),
		     "libfoo.so[1234]");
	srcline_cache_free(sc);
	symsrc_free(ss);
	strpool_release(&pool);
}

TEST(srcline_inline_chain)
{
	struct strpool pool = STRPOOL_INIT;
	const char *bin = build("-O2 -g", "sl2");
	struct symsrc *ss = symsrc_new(&pool);
	struct srcline_cache *sc;
	const struct symbol *s;
	struct srcline sl;
	u64 a;
	bool seen = false;

	ASSERT_TRUE(symsrc_load(ss, bin, NULL) == 0);
	sc = srcline_cache_new(bin, NULL, NULL, &pool);
	s = symtab_find_by_name(&ss->symtab, "calc");
	ASSERT_TRUE(s != NULL);
	for (a = s->start; a < s->end && !seen; a++) {
		if (srcline_find(sc, a, true, &sl))
			continue;
		if (sl.nr_inlines && sl.line == 3) {
			EXPECT_STREQ(sl.inlines[0].func, "sq");
			EXPECT_EQ(sl.inlines[0].line, 7);
			seen = true;
		}
	}
	EXPECT_TRUE(seen);
	srcline_cache_free(sc);
	symsrc_free(ss);
	strpool_release(&pool);
}

TEST(srcline_from_separate_debug_file)
{
	struct strpool pool = STRPOOL_INIT;
	const char *bin = build("-O0 -g", "sl3");
	struct symsrc *ss = symsrc_new(&pool);
	struct srcline_cache *sc;
	const struct symbol *s;
	struct srcline sl;
	char cmd[1024];

	if (system("objcopy --version >/dev/null 2>&1"))
		test_skip("objcopy not installed");
	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && objcopy --only-keep-debug sl3 sl3.debug && strip --strip-all sl3 && "
		 "objcopy --add-gnu-debuglink=sl3.debug sl3", test_tmpdir());
	ASSERT_TRUE(system(cmd) == 0);
	ASSERT_TRUE(symsrc_load(ss, bin, NULL) == 0);
	s = symtab_find_by_name(&ss->symtab, "main");
	ASSERT_TRUE(s != NULL);
	sc = srcline_cache_new(bin, NULL, NULL, &pool);
	EXPECT_EQ(srcline_find(sc, s->start, false, &sl), 0);
	EXPECT_EQ(sl.line, 10);
	srcline_cache_free(sc);
	/* no DWARF at all */
	sc = srcline_cache_new("/nonexistent", NULL, NULL, &pool);
	EXPECT_EQ(srcline_find(sc, 0x1000, true, &sl), -ENODATA);
	srcline_cache_free(sc);
	symsrc_free(ss);
	strpool_release(&pool);
}

TEST(srcline_nested_inline_chain)
{
	static const char nested[] =
		"static inline __attribute__((always_inline)) int inner(int x)\n" /* 1 */
		"{\n"
		"	return x * x + 3;\n"					     /* 3 */
		"}\n"
		"static inline __attribute__((always_inline)) int middle(int x)\n" /* 5 */
		"{\n"
		"	return inner(x) + 5;\n"					     /* 7 */
		"}\n"
		"int __attribute__((noinline)) outer(int v)\n"		     /* 9 */
		"{\n"
		"	return middle(v) + 1;\n"				     /* 11 */
		"}\n"
		"int main(int argc, char **argv) { return outer(argc) > 100; }\n";
	struct strpool pool = STRPOOL_INIT;
	struct symsrc *ss = symsrc_new(&pool);
	struct srcline_cache *sc;
	const struct symbol *s;
	struct srcline sl;
	char path[512], cmd[1024];
	FILE *f;
	u64 a;
	bool seen = false;

	if (system("cc --version >/dev/null 2>&1"))
		test_skip("no C compiler (cc)");
	snprintf(path, sizeof(path), "%s/nest.c", test_tmpdir());
	f = fopen(path, "w");
	ASSERT_TRUE(f);
	fputs(nested, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "cd '%s' && cc -O2 -g -o nest nest.c", test_tmpdir());
	ASSERT_TRUE(system(cmd) == 0);
	snprintf(path, sizeof(path), "%s/nest", test_tmpdir());
	ASSERT_TRUE(symsrc_load(ss, path, NULL) == 0);
	sc = srcline_cache_new(path, NULL, NULL, &pool);
	s = symtab_find_by_name(&ss->symtab, "outer");
	ASSERT_TRUE(s != NULL);
	for (a = s->start; a < s->end && !seen; a++) {
		if (srcline_find(sc, a, true, &sl) || sl.line != 3 || sl.nr_inlines != 2)
			continue;
		/* innermost first: inner() called at line 7 of middle(), middle() at line 11 */
		EXPECT_STREQ(sl.inlines[0].func, "inner");
		EXPECT_EQ(sl.inlines[0].line, 7);
		EXPECT_STREQ(sl.inlines[1].func, "middle");
		EXPECT_EQ(sl.inlines[1].line, 11);
		EXPECT_TRUE(sl.inlines[1].file && strstr(sl.inlines[1].file, "nest.c"));
		seen = true;
	}
	EXPECT_TRUE(seen);
	srcline_cache_free(sc);
	symsrc_free(ss);
	strpool_release(&pool);
}
