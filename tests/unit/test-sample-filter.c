/* SPDX-License-Identifier: MIT */
/* Unit tests for the --time, --cpu and id list parsers of session/sample-filter. */
#include "test.h"
#include "session/sample-filter.h"

#include <errno.h>
#include <stdlib.h>

#define S(x) ((u64)(x) * 1000000000ULL)

/* parse @str over a recording from 100s to 200s; the number of spans or -1 */
static int spans_of(const char *str, struct time_span **sp)
{
	int nr;

	if (time_spans_parse(str, S(100), S(200), sp, &nr))
		return -1;
	return nr;
}

TEST(sample_filter_time_absolute)
{
	struct time_span *sp;

	ASSERT_TRUE(spans_of("10.5,20", &sp) == 1);
	EXPECT_UEQ(sp[0].start, 10500000000ULL);
	EXPECT_UEQ(sp[0].end, S(20));
	free(sp);
	ASSERT_TRUE(spans_of(",1.000000001", &sp) == 1);
	EXPECT_UEQ(sp[0].start, 0);
	EXPECT_UEQ(sp[0].end, 1000000001ULL);
	free(sp);
	ASSERT_TRUE(spans_of(",", &sp) == 1);
	EXPECT_TRUE(time_spans_include(sp, 1, 12345));
	free(sp);
	/* several, in order, separated by spaces (leading ones too) */
	ASSERT_TRUE(spans_of(" 1,2  3,", &sp) == 2);
	EXPECT_TRUE(time_spans_include(sp, 2, S(1)));
	EXPECT_TRUE(!time_spans_include(sp, 2, S(2) + 1));
	EXPECT_TRUE(time_spans_include(sp, 2, S(300)));
	free(sp);
	/* what perf refuses */
	EXPECT_EQ(spans_of("", &sp), -1);
	EXPECT_EQ(spans_of("abc", &sp), -1);
	EXPECT_EQ(spans_of("5", &sp), -1);
	EXPECT_EQ(spans_of("5,4", &sp), -1);
	EXPECT_EQ(spans_of("1,2,3", &sp), -1);
	EXPECT_EQ(spans_of("1,2 ", &sp), -1);
	EXPECT_EQ(spans_of("1.0000000001,", &sp), -1);
	EXPECT_EQ(spans_of("1,3 2,4", &sp), -1);   /* overlapping */
	EXPECT_EQ(spans_of("1,2 2,4", &sp), -1);   /* touching */
	EXPECT_EQ(spans_of("3, 4,5", &sp), -1);    /* after an open end */
	EXPECT_EQ(spans_of("1,2 ,5", &sp), -1);    /* an open start after the first */
}

TEST(sample_filter_time_percent)
{
	struct time_span *sp;

	/* the second 10% slice of 100s..200s */
	ASSERT_TRUE(spans_of("10%/2", &sp) == 1);
	EXPECT_UEQ(sp[0].start, S(110));
	EXPECT_UEQ(sp[0].end, S(120) - 1);
	free(sp);
	/* the last slice ends with the last sample */
	ASSERT_TRUE(spans_of("100%", &sp) == 1);
	EXPECT_UEQ(sp[0].start, S(100));
	EXPECT_UEQ(sp[0].end, S(200));
	free(sp);
	ASSERT_TRUE(spans_of("0%-10%,30%-40%", &sp) == 2);
	EXPECT_UEQ(sp[1].start, S(130));
	EXPECT_UEQ(sp[1].end, S(140));
	free(sp);
	/* perf takes a span that runs down, and selects nothing with it */
	ASSERT_TRUE(spans_of("10%-5%", &sp) == 1);
	EXPECT_TRUE(!time_spans_include(sp, 1, S(107)));
	free(sp);
	/* text between the '%' and the '/' is skipped, as perf does */
	ASSERT_TRUE(spans_of("5%-10%/2", &sp) == 1);
	EXPECT_UEQ(sp[0].start, S(105));
	free(sp);
	EXPECT_EQ(spans_of("0%", &sp), -1);
	EXPECT_EQ(spans_of("110%", &sp), -1);
	EXPECT_EQ(spans_of("10%/20", &sp), -1);
	EXPECT_EQ(spans_of("10%/0", &sp), -1);
	EXPECT_EQ(spans_of("10%,20%", &sp), -1);      /* "P%" stands alone */
	EXPECT_EQ(spans_of("10%/1,0%-10%", &sp), -1); /* one form per string */
	EXPECT_EQ(spans_of("10%/1,3,", &sp), -1);
	EXPECT_EQ(spans_of("50% ", &sp), -1);
	EXPECT_EQ(spans_of("5-10%", &sp), -1);
	EXPECT_EQ(spans_of("-10%", &sp), -1);
}

TEST(sample_filter_cpus)
{
	struct cpu_bitmap bm = { 0 };
	int big, high;

	EXPECT_TRUE(cpu_bitmap_has(&bm, 7)); /* no --cpu: every cpu */
	EXPECT_EQ(cpu_bitmap_parse(&bm, "0,2-3", 4, &big, &high), 0);
	EXPECT_TRUE(cpu_bitmap_has(&bm, 0) && !cpu_bitmap_has(&bm, 1) && cpu_bitmap_has(&bm, 3));
	EXPECT_TRUE(!cpu_bitmap_has(&bm, 4000));
	EXPECT_EQ(high, 3);
	cpu_bitmap_release(&bm);
	EXPECT_EQ(cpu_bitmap_parse(&bm, "1,5000", 2, &big, &high), -ERANGE);
	EXPECT_EQ(big, 5000);
	EXPECT_EQ(high, 5000);
	cpu_bitmap_release(&bm);
	EXPECT_EQ(cpu_bitmap_parse(&bm, "1-0", 2, &big, &high), -EINVAL);
	cpu_bitmap_release(&bm);
	/* "" selects no cpu */
	EXPECT_EQ(cpu_bitmap_parse(&bm, "", 2, &big, &high), 0);
	EXPECT_TRUE(!cpu_bitmap_has(&bm, 0));
	cpu_bitmap_release(&bm);
}

TEST(sample_filter_id_lists)
{
	int *ids, nr;

	ASSERT_TRUE(id_list_parse("12,,-1, 7", &ids, &nr) == 0);
	ASSERT_TRUE(nr == 3);
	EXPECT_EQ(ids[0], 12);
	EXPECT_EQ(ids[1], -1);
	EXPECT_EQ(ids[2], 7);
	free(ids);
	EXPECT_EQ(id_list_parse("12 7", &ids, &nr), -EINVAL);
	EXPECT_EQ(id_list_parse("0x10", &ids, &nr), -EINVAL);
	EXPECT_EQ(id_list_parse("abc", &ids, &nr), -EINVAL);
}
