/* SPDX-License-Identifier: MIT */
/* Unit tests for src/lib: strbuf, strvec, hash maps, string pool, numbers. */
#include "test.h"
#include "lib/hashmap.h"
#include "lib/strbuf.h"
#include "lib/strvec.h"
#include "lib/util.h"
#include "lib/xalloc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

TEST(strbuf_basics)
{
	struct strbuf sb = STRBUF_INIT;

	EXPECT_STREQ(sb.buf, "");
	strbuf_addstr(&sb, "abc");
	strbuf_addch(&sb, '-');
	strbuf_addf(&sb, "%d/%s", 42, "x");
	EXPECT_STREQ(sb.buf, "abc-42/x");
	EXPECT_EQ(sb.len, 8);
	for (int i = 0; i < 1000; i++)
		strbuf_addf(&sb, "%04d", i);
	EXPECT_EQ(sb.len, 8 + 4000);
	strbuf_setlen(&sb, 3);
	strbuf_addstr(&sb, "  \n");
	strbuf_rtrim(&sb);
	EXPECT_STREQ(sb.buf, "abc");
	strbuf_release(&sb);
	EXPECT_EQ(sb.len, 0);
}

TEST(strbuf_empty_owns_nothing)
{
	struct strbuf sb = STRBUF_INIT;
	size_t len = 99;
	char *s;

	/* reset, rtrim and release of an empty buffer never write or free */
	strbuf_reset(&sb);
	strbuf_rtrim(&sb);
	EXPECT_EQ(sb.alloc, 0);
	strbuf_release(&sb);
	/* detach of an empty buffer gives an owned "" */
	s = strbuf_detach(&sb, &len);
	EXPECT_STREQ(s, "");
	EXPECT_EQ(len, 0);
	free(s);
	strbuf_init(&sb, 100);
	EXPECT_TRUE(sb.alloc >= 101);
	EXPECT_STREQ(sb.buf, "");
	strbuf_addchars(&sb, 'x', 3);
	strbuf_add(&sb, "ab\0c", 4); /* bytes, NUL included */
	EXPECT_EQ(sb.len, 7);
	EXPECT_MEMEQ(sb.buf, "xxxab\0c", 8);
	s = strbuf_detach(&sb, &len);
	EXPECT_EQ(len, 7);
	EXPECT_EQ(sb.alloc, 0);
	EXPECT_STREQ(sb.buf, "");
	free(s);
}

TEST(strbuf_addf_long_and_grow)
{
	struct strbuf sb = STRBUF_INIT;
	char big[5000];

	memset(big, 'q', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	strbuf_addf(&sb, "<%s>", big);
	EXPECT_EQ(sb.len, sizeof(big) + 1);
	EXPECT_TRUE(sb.buf[0] == '<' && sb.buf[sb.len - 1] == '>' && sb.buf[sb.len] == 0);
	strbuf_grow(&sb, 10000);
	EXPECT_TRUE(sb.alloc >= sb.len + 10001);
	strbuf_setlen(&sb, 1);
	EXPECT_STREQ(sb.buf, "<");
	strbuf_release(&sb);
}

TEST(strbuf_read_fd_and_file)
{
	struct strbuf sb = STRBUF_INIT;
	int p[2];
	char chunk[3000];

	EXPECT_EQ(pipe(p), 0);
	memset(chunk, 'z', sizeof(chunk));
	/* 3 writes of 3000 bytes: more than the first read's room with a small hint */
	for (int i = 0; i < 3; i++)
		EXPECT_EQ(write(p[1], chunk, sizeof(chunk)), (long)sizeof(chunk));
	close(p[1]);
	strbuf_addstr(&sb, "head");
	EXPECT_EQ(strbuf_read_fd(&sb, p[0], 16), 9000);
	close(p[0]);
	EXPECT_EQ(sb.len, 9004);
	EXPECT_EQ(strlen(sb.buf), 9004);
	EXPECT_EQ(strbuf_read_file(&sb, "/nonexistent/sonde-test", 0), -ENOENT);
	EXPECT_EQ(sb.len, 9004);
	strbuf_release(&sb);
}

TEST(xgrow_capacity)
{
	int *a = NULL;
	size_t cap = 0;

	a = xgrow(a, 1, &cap, sizeof(*a));
	EXPECT_TRUE(a != NULL && cap >= 1);
	for (int i = 0; i < 1000; i++) {
		a = xgrow(a, (size_t)i + 1, &cap, sizeof(*a));
		EXPECT_TRUE(cap >= (size_t)i + 1);
		a[i] = i;
	}
	EXPECT_EQ(a[999], 999);
	/* enough room already: same array, same capacity */
	{
		size_t before = cap;
		int *same = xgrow(a, 10, &cap, sizeof(*a));

		EXPECT_TRUE(same == a && cap == before);
	}
	/* a jump far past double the capacity */
	a = xgrow(a, 100000, &cap, sizeof(*a));
	EXPECT_TRUE(cap >= 100000);
	a[99999] = 1;
	free(a);
}

TEST(strvec_split)
{
	struct strvec sv = STRVEC_INIT;

	strvec_split(&sv, "a,,b,c", ",");
	EXPECT_EQ(sv.nr, 3);
	EXPECT_STREQ(sv.v[0], "a");
	EXPECT_STREQ(sv.v[2], "c");
	EXPECT_TRUE(sv.v[3] == NULL);
	strvec_clear(&sv);
	EXPECT_EQ(sv.nr, 0);
}

TEST(u64map_set_find_remove)
{
	struct u64map m = U64MAP_INIT;
	static int vals[5000];

	for (int i = 0; i < 5000; i++)
		EXPECT_TRUE(u64map_set(&m, (uint64_t)i * 4096, &vals[i]) == NULL);
	EXPECT_EQ(m.nr, 5000);
	for (int i = 0; i < 5000; i++)
		EXPECT_TRUE(u64map_find(&m, (uint64_t)i * 4096) == &vals[i]);
	EXPECT_TRUE(u64map_find(&m, 1) == NULL);
	for (int i = 0; i < 5000; i += 2)
		EXPECT_TRUE(u64map_remove(&m, (uint64_t)i * 4096) == &vals[i]);
	for (int i = 0; i < 5000; i++)
		EXPECT_TRUE(u64map_find(&m, (uint64_t)i * 4096) == (i % 2 ? &vals[i] : NULL));
	EXPECT_EQ(m.nr, 2500);
	u64map_release(&m);
}

TEST(strpool_interns)
{
	struct strpool p = STRPOOL_INIT;
	const char *a = strpool_intern(&p, "hello");
	char buf[16];

	snprintf(buf, sizeof(buf), "hel%s", "lo");
	EXPECT_TRUE(strpool_intern(&p, buf) == a);
	EXPECT_TRUE(strpool_intern(&p, "hell") != a);
	EXPECT_TRUE(strpool_intern_len(&p, "hello world", 5) == a);
	for (int i = 0; i < 10000; i++) {
		snprintf(buf, sizeof(buf), "s%d", i);
		strpool_intern(&p, buf);
	}
	EXPECT_STREQ(strpool_intern(&p, "s9999"), "s9999");
	EXPECT_EQ(p.nr, 10002);
	strpool_release(&p);
}

TEST(parse_numbers)
{
	u64 v;
	s64 s;

	EXPECT_EQ(parse_u64("123", &v), 0);
	EXPECT_EQ(v, 123);
	EXPECT_EQ(parse_u64("0x1f", &v), 0);
	EXPECT_EQ(v, 31);
	EXPECT_EQ(parse_u64("12k", &v), -EINVAL);
	EXPECT_EQ(parse_u64("", &v), -EINVAL);
	EXPECT_EQ(parse_u64("-1", &v), -EINVAL);
	EXPECT_EQ(parse_u64("99999999999999999999999", &v), -ERANGE);
	EXPECT_EQ(parse_s64("-5", &s), 0);
	EXPECT_EQ(s, -5);
	EXPECT_TRUE(strstarts("syscalls:sys_enter", "syscalls:"));
	EXPECT_TRUE(strendswith("file.debug", ".debug"));
	EXPECT_TRUE(!strendswith("g", ".debug"));
}

TEST(size_str_units)
{
	/* perf 6.1's header (memory nodes) and -D (page sizes) texts for these sizes */
	static const struct {
		u64 bytes;
		const char *text;
	} cases[] = {
		{ 0, "0B" },
		{ 1023, "1023B" },
		{ 1024, "1024B" },
		{ 2047, "2047B" },
		{ 2048, "2K" },
		{ 5000, "4K" },
		{ 1048576, "1024K" },
		{ 2097151, "2047K" },
		{ 2097152, "2M" },
		{ 1ULL << 30, "1024M" },
		{ 2ULL << 30, "2G" },
		{ 24ULL << 30, "24G" },
		{ 2ULL << 40, "2048G" },
		{ 1ULL << 62, "4294967296G" },
		{ ~0ULL, "17179869183G" },
	};
	char buf[32];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		EXPECT_STREQ(size_str(buf, sizeof(buf), cases[i].bytes), cases[i].text);
}
