/* SPDX-License-Identifier: MIT */
/* Unit tests for trace/tep: TRACING_DATA parsing, payload formatting, field helpers. */
#include "test.h"

#include "lib/strbuf.h"
#include "trace/tep.h"

#include <errno.h>
#include <traceevent/event-parse.h>
#include <unistd.h>

static const char sched_switch_fmt[] =
	"name: sched_switch\n"
	"ID: 372\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
	"\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
	"\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> next_comm=%s "
	"next_pid=%d next_prio=%d\", REC->prev_comm, REC->prev_pid, REC->prev_prio, "
	"(REC->prev_state & ((((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | "
	"0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) - 1)) ? __print_flags(REC->prev_state & "
	"((((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | "
	"0x00000020 | 0x00000040) + 1) << 1) - 1), \"|\", { 0x00000001, \"S\" }, { 0x00000002, "
	"\"D\" }, { 0x00000004, \"T\" }, { 0x00000008, \"t\" }, { 0x00000010, \"X\" }, { "
	"0x00000020, \"Z\" }, { 0x00000040, \"P\" }, { 0x00000080, \"I\" }) : \"R\", "
	"REC->prev_state & (((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | "
	"0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) ? \"+\" : \"\", REC->next_comm, "
	"REC->next_pid, REC->next_prio\n";

static const char header_page[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:1;\n";

static void put(struct strbuf *sb, u64 v, int n)
{
	for (int i = 0; i < n; i++)
		strbuf_addch(sb, (int)((v >> (8 * i)) & 0xff));
}

static void put_text(struct strbuf *sb, const char *s, int nbytes)
{
	put(sb, strlen(s), nbytes);
	strbuf_addstr(sb, s);
}

/* a version 0.6 little-endian blob with one system holding sched_switch */
static void build_blob(struct strbuf *sb)
{
	static const char magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };

	strbuf_add(sb, magic, sizeof(magic));
	strbuf_add(sb, "0.6", 4);
	strbuf_addch(sb, 0);
	strbuf_addch(sb, 8);
	put(sb, 4096, 4);
	strbuf_add(sb, "header_page", 12);
	put_text(sb, header_page, 8);
	strbuf_add(sb, "header_event", 13);
	put_text(sb, "# compressed entry header\n", 8);
	put(sb, 0, 4); /* ftrace formats */
	put(sb, 1, 4); /* systems */
	strbuf_add(sb, "sched", 6);
	put(sb, 1, 4);
	put_text(sb, sched_switch_fmt, 8);
	put(sb, 0, 4); /* kallsyms */
	put(sb, 0, 4); /* printk */
	put_text(sb, "372 perf\n", 8);
}

static void build_payload(unsigned char *raw)
{
	memset(raw, 0, 64);
	raw[0] = 372 & 0xff;
	raw[1] = 372 >> 8;
	memcpy(raw + 8, "perf", 5);
	raw[24] = 0x6e; /* prev_pid 9838 = 0x266e */
	raw[25] = 0x26;
	raw[28] = 120;
	raw[32] = 2; /* D */
	memcpy(raw + 40, "migration/0", 12);
	raw[56] = 18;
	raw[60] = 0;
}

TEST(tep_parse_and_format_sched_switch)
{
	struct strbuf blob = STRBUF_INIT, out = STRBUF_INIT;
	struct tep_handle *tep;
	struct tep_event *ev;
	unsigned char raw[64];
	char name[64];

	build_blob(&blob);
	ASSERT_TRUE(trace_tep_from_data(blob.buf, blob.len, &tep) == 0);
	ev = trace_tep_find_event(tep, 372);
	ASSERT_TRUE(ev != NULL);
	EXPECT_STREQ(trace_tep_event_name(ev, name, sizeof(name)), "sched:sched_switch");
	build_payload(raw);
	trace_tep_format(ev, raw, sizeof(raw), 0, 0, &out);
	EXPECT_STREQ(out.buf, "prev_comm=perf prev_pid=9838 prev_prio=120 prev_state=D ==> "
			      "next_comm=migration/0 next_pid=18 next_prio=0");
	raw[32] = 0;
	strbuf_reset(&out);
	trace_tep_format(ev, raw, sizeof(raw), 0, 0, &out);
	EXPECT_TRUE(strstr(out.buf, "prev_state=R ==>") != NULL);
	trace_tep_free(tep);
	strbuf_release(&blob);
	strbuf_release(&out);
}

TEST(tep_fields)
{
	struct strbuf blob = STRBUF_INIT;
	struct tep_handle *tep;
	struct tep_event *ev;
	unsigned char raw[64];
	const char *s;
	size_t len;
	u64 v;

	build_blob(&blob);
	ASSERT_TRUE(trace_tep_from_data(blob.buf, blob.len, &tep) == 0);
	ev = trace_tep_find_event(tep, 372);
	ASSERT_TRUE(ev != NULL);
	build_payload(raw);
	EXPECT_EQ(trace_tep_field_u64(ev, raw, sizeof(raw), "prev_pid", &v), 0);
	EXPECT_EQ(v, 9838);
	EXPECT_EQ(trace_tep_field_u64(ev, raw, sizeof(raw), "common_type", &v), 0);
	EXPECT_EQ(v, 372);
	raw[24] = 0xff; raw[25] = 0xff; raw[26] = 0xff; raw[27] = 0xff;
	EXPECT_EQ(trace_tep_field_u64(ev, raw, sizeof(raw), "prev_pid", &v), 0);
	EXPECT_EQ((s64)v, -1);
	EXPECT_EQ(trace_tep_field_str(ev, raw, sizeof(raw), "next_comm", &s, &len), 0);
	EXPECT_EQ(len, 11);
	EXPECT_TRUE(!memcmp(s, "migration/0", 11));
	EXPECT_EQ(trace_tep_field_u64(ev, raw, sizeof(raw), "nosuch", &v), -ENOENT);
	EXPECT_EQ(trace_tep_field_u64(ev, raw, 30, "prev_state", &v), -EINVAL);
	trace_tep_free(tep);
	strbuf_release(&blob);
}

TEST(tep_rejects_truncated_blobs)
{
	struct strbuf blob = STRBUF_INIT;
	struct tep_handle *tep;
	size_t cut;

	build_blob(&blob);
	EXPECT_EQ(trace_tep_from_data("nope", 4, &tep), -EINVAL);
	/* every prefix up to the end of the event formats must fail cleanly */
	for (cut = 0; cut < blob.len - 30; cut += 7) {
		int r = trace_tep_from_data(blob.buf, cut, &tep);
		if (r == 0)
			trace_tep_free(tep);
		EXPECT_TRUE(r == -EINVAL || r == 0);
	}
	strbuf_release(&blob);
}

TEST(tep_from_tracefs)
{
	struct tep_handle *tep;
	struct tep_event *ev;

	if (!trace_tep_tracefs_root() || access("/sys/kernel/tracing/events/sched/sched_switch/format", R_OK))
		test_skip("tracefs not readable");
	ASSERT_TRUE(trace_tep_from_tracefs(&tep) == 0);
	ev = trace_tep_load_event(tep, "sched", "sched_switch");
	ASSERT_TRUE(ev != NULL);
	EXPECT_TRUE(trace_tep_load_event(tep, "sched", "sched_switch") == ev);
	EXPECT_TRUE(trace_tep_load_event(tep, "nosuch", "nosuch") == NULL);
	trace_tep_free(tep);
}

TEST(tep_format_short_payload_stays_in_bounds)
{
	struct strbuf blob = STRBUF_INIT, out = STRBUF_INIT;
	struct tep_handle *tep;
	struct tep_event *ev;
	unsigned char full[64];
	unsigned char *raw;

	build_blob(&blob);
	ASSERT_TRUE(trace_tep_from_data(blob.buf, blob.len, &tep) == 0);
	ev = trace_tep_find_event(tep, 372);
	ASSERT_TRUE(ev != NULL);
	build_payload(full);
	/* a corrupt record: the payload ends before the fields do (ASan checks the reads) */
	for (u32 n = 0; n <= 40; n += 8) {
		raw = malloc(n ? n : 1);
		memcpy(raw, full, n);
		strbuf_reset(&out);
		trace_tep_format(ev, raw, n, 0, 0, &out);
		free(raw);
	}
	trace_tep_free(tep);
	strbuf_release(&blob);
	strbuf_release(&out);
}
