/* SPDX-License-Identifier: MIT */
/* Unit tests for session/stacks: stackcollapse-perf.pl's frame names, the trie and its totals. */
#include "test.h"
#include "lib/strbuf.h"
#include "session/stacks.h"

#include <stdlib.h>

/* the folded name(s) of one perf script frame line, or "SKIP" */
static const char *fold(const char *sym, const char *dso, bool java)
{
	static struct strbuf sb = STRBUF_INIT;

	strbuf_setlen(&sb, 0);
	if (!stacks_fold_name(&sb, sym, dso, java))
		return "SKIP";
	return sb.buf;
}

TEST(stacks_fold_names)
{
	EXPECT_STREQ(fold("main", "/usr/bin/x", false), "main");
	/* unknown symbols: the module's basename in brackets, unless unknown too */
	EXPECT_STREQ(fold(NULL, "/usr/lib/libc.so.6", false), "[libc.so.6]");
	EXPECT_STREQ(fold(NULL, NULL, false), "[unknown]");
	EXPECT_STREQ(fold(NULL, "[kernel.kallsyms]", false), "[[kernel.kallsyms]]");
	/* C++ arguments dropped, not an anonymous namespace */
	EXPECT_STREQ(fold("ns::f(int, char const*) const", "/x", false), "ns::f");
	EXPECT_STREQ(fold("(anonymous namespace)::g(int)", "/x", false), "SKIP");
	EXPECT_STREQ(fold("a::(anonymous namespace)::g(int)", "/x", false),
		     "a::(anonymous namespace)::g");
	/* Go methods keep their receiver */
	EXPECT_STREQ(fold("net/http.(*Client).Do", "/x", false), "net/http.(*Client).Do");
	/* ';' would split the stack; quotes are dropped */
	EXPECT_STREQ(fold("RegExp:[&<>\"';]", "/tmp/perf-1.map", false), "RegExp:[&<>:]");
	/* "->" splits (perf's inline chains), the later parts marked */
	EXPECT_STREQ(fold("outer->inner", "/x", false), "outer\ninner_[i]");
	/* Java signatures under a "java" process */
	EXPECT_STREQ(fold("Lorg/a/B;.call(Lorg/a/C;)V", "/tmp/perf-9.map", true), "org/a/B:.call");
	EXPECT_STREQ(fold("Lorg/a/B;.call(Lorg/a/C;)V", "/tmp/perf-9.map", false), "Lorg/a/B:.call");
	EXPECT_STREQ(fold("Lmain", "/x", true), "Lmain");
}

TEST(stacks_trie_totals)
{
	struct stacks st;
	u32 a, b, c;
	u64 *incl;

	stacks_init(&st, NULL);
	a = stacks_child(&st, 0, "sh", 2);
	b = stacks_child(&st, a, "main", 4);
	c = stacks_child(&st, a, "other", 5);
	EXPECT_EQ(stacks_child(&st, a, "main", 4), b);
	EXPECT_TRUE(stacks_child(&st, b, "sh", 2) != a);
	st.nodes[b].self[0] = 3;
	st.nodes[c].self[0] = 2;
	st.nodes[c].self[1] = 7;
	incl = stacks_totals(&st);
	EXPECT_UEQ(incl[0], 5);
	EXPECT_UEQ(incl[1], 7);
	EXPECT_UEQ(incl[2 * a], 5);
	EXPECT_UEQ(incl[2 * b], 3);
	free(incl);
	stacks_release(&st);
}
