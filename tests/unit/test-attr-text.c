/* SPDX-License-Identifier: MIT */
/* Unit tests for ui/attr-text: which attr fields are shown, in what order, with what text. */
#include "test.h"
#include "ui/attr-text.h"

/* every shown field of @attr as "label=value;" */
static void all_fields(const struct perf_event_attr *attr, struct strbuf *out)
{
	struct strbuf val = STRBUF_INIT;
	const char *label;
	unsigned pos = 0;

	while (attr_text_next(attr, &pos, &label, &val))
		strbuf_addf(out, "%s=%s;", label, val.buf);
	strbuf_release(&val);
}

TEST(attr_text_zero_fields_hidden)
{
	struct perf_event_attr attr = { 0 };
	struct strbuf out = STRBUF_INIT;

	all_fields(&attr, &out);
	EXPECT_STREQ(out.buf, "");
	attr.type = PERF_TYPE_SOFTWARE;
	attr.size = 128;
	attr.config = 9;
	attr.sample_period = 4000;
	attr.freq = 1;
	attr.precise_ip = 3;
	attr.clockid = -1;
	attr.bp_addr = 0x10;
	all_fields(&attr, &out);
	EXPECT_STREQ(out.buf, "type=1;size=128;config=0x9;{ sample_period, sample_freq }=4000;"
			      "freq=1;precise_ip=3;{ bp_addr, config1 }=0x10;clockid=-1;");
	strbuf_release(&out);
}

TEST(attr_text_masks)
{
	struct perf_event_attr attr = { 0 };
	struct strbuf out = STRBUF_INIT;

	/* perf's order, not bit order; TRANSACTION and unknown bits not shown */
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC |
			   PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TRANSACTION | (1ULL << 40);
	attr.read_format = PERF_FORMAT_ID | PERF_FORMAT_LOST | 0x100;
	attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_PRIV_SAVE;
	all_fields(&attr, &out);
	EXPECT_STREQ(out.buf, "sample_type=IP|IDENTIFIER|DATA_SRC|WEIGHT;read_format=ID|LOST;"
			      "branch_sample_type=ANY|PRIV_SAVE;");
	strbuf_release(&out);
}

TEST(attr_text_unnamed_mask_repeats_previous)
{
	struct perf_event_attr attr = { 0 };
	struct strbuf out = STRBUF_INIT;

	/* perf 6.1 shows the previous field's text for a mask with only unnamed bits */
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	attr.read_format = 0x100;
	attr.inherit = 1;
	attr.branch_sample_type = 1ULL << 30;
	all_fields(&attr, &out);
	EXPECT_STREQ(out.buf, "sample_type=IP|TID;read_format=IP|TID;inherit=1;"
			      "branch_sample_type=1;");
	strbuf_release(&out);
}
