/* SPDX-License-Identifier: MIT */
/* Unit tests for ui/script: -F parsing, field validation, the sample printer. */
#include "test.h"

#include <errno.h>

#include "core/evlist.h"
#include "core/evsel.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "ui/script-run.h"
#include "ui/script.h"

static struct evlist *one_event(u32 type, u64 config, u64 sample_type, const char *name)
{
	struct perf_event_attr attr = { 0 };
	struct evlist *evlist = evlist_new();
	struct evsel *evsel;

	attr.type = type;
	attr.config = config;
	attr.sample_type = sample_type;
	attr.sample_period = 1000000;
	evsel = evsel_new(&attr);
	evsel->name = xstrdup(name);
	evlist_add(evlist, evsel);
	return evlist;
}

static void add_event(struct evlist *evlist, u32 type, u64 sample_type, const char *name)
{
	struct perf_event_attr attr = { 0 };
	struct evsel *evsel;

	attr.type = type;
	attr.sample_type = sample_type;
	evsel = evsel_new(&attr);
	evsel->name = xstrdup(name);
	evlist_add(evlist, evsel);
}

static struct perf_sample mk_sample(void)
{
	struct perf_sample s;

	memset(&s, 0, sizeof(s));
	s.ip = 0x56258cba715bULL;
	s.pid = s.tid = 11910;
	s.time = 559983475123ULL;
	s.period = 1000000;
	s.cpu = 1;
	return s;
}

TEST(script_default_sw_line)
{
	struct evlist *evlist = one_event(PERF_TYPE_SOFTWARE, 0, PERF_SAMPLE_IP | PERF_SAMPLE_TID |
					  PERF_SAMPLE_TIME, "cpu-clock");
	struct script_config cfg;
	struct script_printer p;
	struct script_sample s = { 0 };
	struct perf_sample ps = mk_sample();
	struct strbuf msg = STRBUF_INIT;

	script_config_init(&cfg);
	EXPECT_EQ(script_check_fields(&cfg, evlist, false, &msg), 0);
	script_printer_init(&p, &cfg, evlist, -1);
	s.sample = &ps;
	s.evsel = evlist_first(evlist);
	s.comm = "w";
	s.ip.sym = "f";
	s.ip.symoff = 0x22;
	s.ip.dso = "/tmp/bs/w";
	script_print_sample(&p, &s);
	EXPECT_STREQ(p.buf.buf, "               w 11910   559.983475:    1000000 cpu-clock: "
				"     56258cba715b f+0x22 (/tmp/bs/w)\n");
	strbuf_reset(&p.buf);
	s.ip.sym = NULL;
	s.ip.dso = NULL;
	s.comm = NULL;
	script_print_sample(&p, &s);
	EXPECT_STREQ(p.buf.buf, "             :-1 11910   559.983475:    1000000 cpu-clock: "
				"     56258cba715b [unknown] ([unknown])\n");
	strbuf_reset(&p.buf);
	script_printer_release(&p);
	evlist_free(evlist);
	strbuf_release(&msg);
}

TEST(script_callchain_layout)
{
	struct evlist *evlist = one_event(PERF_TYPE_SOFTWARE, 0,
					  PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
						  PERF_SAMPLE_CPU | PERF_SAMPLE_CALLCHAIN,
					  "cpu-clock");
	struct script_frame frames[2] = {
		{ 0xffffffff821d376eULL, "mas_wr_store_entry", 0x46e, "[kernel.kallsyms]", NULL },
		{ 0xd4ad7, NULL, 0, NULL, NULL },
	};
	struct script_config cfg;
	struct script_printer p;
	struct script_sample s = { 0 };
	struct perf_sample ps = mk_sample();
	struct strbuf msg = STRBUF_INIT;

	script_config_init(&cfg);
	EXPECT_EQ(script_check_fields(&cfg, evlist, false, &msg), 0);
	script_printer_init(&p, &cfg, evlist, -1);
	s.sample = &ps;
	s.evsel = evlist_first(evlist);
	s.comm = "sleep";
	s.frames = frames;
	s.nr_frames = 2;
	s.has_callchain = true;
	script_print_sample(&p, &s);
	EXPECT_STREQ(p.buf.buf, "sleep 11910 [001]   559.983475:    1000000 cpu-clock: \n"
				"\tffffffff821d376e mas_wr_store_entry+0x46e ([kernel.kallsyms])\n"
				"\t           d4ad7 [unknown] ([unknown])\n"
				"\n");
	/* -G: callchain hidden, the classic one-line layout comes back */
	strbuf_reset(&p.buf);
	cfg.use_callchain = false;
	s.has_callchain = false;
	s.ip.sym = "f";
	s.ip.dso = "/x";
	script_print_sample(&p, &s);
	EXPECT_STREQ(p.buf.buf, "           sleep 11910 [001]   559.983475:    1000000 cpu-clock: "
				"     56258cba715b f+0x0 (/x)\n");
	/* --max-stack 1 */
	strbuf_reset(&p.buf);
	cfg.use_callchain = true;
	cfg.max_stack = 1;
	s.has_callchain = true;
	script_print_sample(&p, &s);
	EXPECT_STREQ(p.buf.buf, "sleep 11910 [001]   559.983475:    1000000 cpu-clock: \n"
				"\tffffffff821d376e mas_wr_store_entry+0x46e ([kernel.kallsyms])\n\n");
	strbuf_reset(&p.buf);
	script_printer_release(&p);
	evlist_free(evlist);
	strbuf_release(&msg);
}

TEST(script_event_name_width_and_times)
{
	struct evlist *evlist = one_event(PERF_TYPE_SOFTWARE, 0, PERF_SAMPLE_IP | PERF_SAMPLE_TID |
					  PERF_SAMPLE_TIME, "cpu-clock");
	struct script_config cfg;
	struct script_printer p;
	struct script_sample s = { 0 };
	struct perf_sample ps = mk_sample();
	struct strbuf msg = STRBUF_INIT;

	add_event(evlist, PERF_TYPE_SOFTWARE, PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME,
		  "task-clock");
	script_config_init(&cfg);
	EXPECT_EQ(script_parse_fields(&cfg, "comm,tid,pid,time,event", &msg), 0);
	EXPECT_EQ(script_check_fields(&cfg, evlist, false, &msg), 0);
	EXPECT_STREQ(msg.buf, "");
	cfg.nanosecs = true;
	script_printer_init(&p, &cfg, evlist, -1);
	s.sample = &ps;
	s.evsel = evlist_first(evlist);
	s.comm = "w";
	script_print_sample(&p, &s);
	EXPECT_STREQ(p.buf.buf, "               w 11910/11910   559.983475123:  cpu-clock: \n");
	strbuf_reset(&p.buf);
	cfg.nanosecs = false;
	cfg.deltatime = true;
	script_print_sample(&p, &s);
	ps.time += 1500;
	script_print_sample(&p, &s);
	EXPECT_STREQ(p.buf.buf, "               w 11910/11910     0.000000:  cpu-clock: \n"
				"               w 11910/11910     0.000001:  cpu-clock: \n");
	strbuf_reset(&p.buf);
	script_printer_release(&p);
	evlist_free(evlist);
	strbuf_release(&msg);
}

TEST(script_parse_fields_messages)
{
	struct script_config cfg;
	struct strbuf msg = STRBUF_INIT;

	script_config_init(&cfg);
	EXPECT_EQ(script_parse_fields(&cfg, "comm,bogus", &msg), -1);
	EXPECT_STREQ(msg.buf, "Invalid field requested.\n");
	strbuf_reset(&msg);
	EXPECT_EQ(script_parse_fields(&cfg, "foo:comm", &msg), -1);
	EXPECT_STREQ(msg.buf, "Invalid event type in field string.\n");
	strbuf_reset(&msg);
	EXPECT_EQ(script_parse_fields(&cfg, "", &msg), -1);
	EXPECT_STREQ(msg.buf, "Cannot set fields to 'none' for all event types.\n");
	strbuf_reset(&msg);
	EXPECT_EQ(script_parse_fields(&cfg, "comm,+cpu", &msg), -1);
	EXPECT_STREQ(msg.buf, "Cannot mix +-field with overridden fields\n");
	script_config_init(&cfg);
	strbuf_reset(&msg);
	EXPECT_EQ(script_parse_fields(&cfg, "hw:comm,trace", &msg), -1);
	EXPECT_STREQ(msg.buf, "'trace' not valid for hardware events.\n");

	script_config_init(&cfg);
	strbuf_reset(&msg);
	EXPECT_EQ(script_parse_fields(&cfg, "comm,trace", &msg), 0);
	EXPECT_STREQ(msg.buf, "'trace' not valid for hardware events. Ignoring.\n"
			      "'trace' not valid for software events. Ignoring.\n"
			      "'trace' not valid for hardware-cache events. Ignoring.\n"
			      "'trace' not valid for unknown events. Ignoring.\n"
			      "'trace' not valid for unknown events. Ignoring.\n"
			      "'trace' not valid for unknown events. Ignoring.\n"
			      "'trace' not valid for unknown events. Ignoring.\n");
	EXPECT_UEQ(cfg.out[SOT_TRACE].fields, SFB(COMM) | SFB(TRACE));
	EXPECT_UEQ(cfg.out[SOT_SW].fields, SFB(COMM));
	strbuf_reset(&msg);
	EXPECT_EQ(script_parse_fields(&cfg, "tid", &msg), 0);
	EXPECT_STREQ(msg.buf, "Overriding previous field request for all events.\n");
	EXPECT_UEQ(cfg.out[SOT_SW].fields, SFB(TID));

	script_config_init(&cfg);
	strbuf_reset(&msg);
	EXPECT_EQ(script_parse_fields(&cfg, "-period,-tid,+pid", &msg), 0);
	EXPECT_TRUE(!(cfg.out[SOT_SW].fields & SFB(PERIOD)));
	EXPECT_TRUE(cfg.out[SOT_SW].fields & SFB(PID));
	EXPECT_TRUE(cfg.out[SOT_SW].fields & SFB(SYM));
	strbuf_release(&msg);
}

TEST(script_check_fields_errors)
{
	struct evlist *evlist = one_event(PERF_TYPE_SOFTWARE, 0, PERF_SAMPLE_IP | PERF_SAMPLE_TID |
					  PERF_SAMPLE_TIME, "cpu-clock");
	struct script_config cfg;
	struct strbuf msg = STRBUF_INIT;

	script_config_init(&cfg);
	EXPECT_EQ(script_parse_fields(&cfg, "+cpu", &msg), 0);
	EXPECT_EQ(script_check_fields(&cfg, evlist, false, &msg), -1);
	EXPECT_STREQ(msg.buf, "Samples for 'cpu-clock' event do not have CPU attribute set. "
			      "Cannot print 'cpu' field.\n");
	script_config_init(&cfg);
	strbuf_reset(&msg);
	EXPECT_EQ(script_parse_fields(&cfg, "trace:comm", &msg), 0);
	EXPECT_EQ(script_check_fields(&cfg, evlist, false, &msg), 0);
	script_config_init(&cfg);
	EXPECT_EQ(script_parse_fields(&cfg, "trace:", &msg), 0);
	EXPECT_EQ(script_check_fields(&cfg, evlist, false, &msg), -1);
	EXPECT_STREQ(msg.buf, "tracepoint events do not exist. Remove corresponding -F option "
			      "to proceed.\n");
	/* defaults the file cannot give are dropped quietly */
	script_config_init(&cfg);
	strbuf_reset(&msg);
	EXPECT_EQ(script_check_fields(&cfg, evlist, false, &msg), 0);
	EXPECT_TRUE(!(cfg.out[SOT_SW].fields & SFB(CPU)));
	EXPECT_TRUE(cfg.out[SOT_SW].fields & SFB(PERIOD));
	evlist_free(evlist);
	strbuf_release(&msg);
}

TEST(script_time_format)
{
	struct strbuf sb = STRBUF_INIT;

	script_format_time(&sb, 1234567890123ULL, false);
	EXPECT_STREQ(sb.buf, "1234.567890");
	strbuf_reset(&sb);
	script_format_time(&sb, 1234567890123ULL, true);
	EXPECT_STREQ(sb.buf, " 1234.567890123");
	strbuf_release(&sb);
}

TEST(script_record_lines)
{
	struct evlist *evlist = one_event(PERF_TYPE_SOFTWARE, 0, PERF_SAMPLE_IP | PERF_SAMPLE_TID |
					  PERF_SAMPLE_TIME, "cpu-clock");
	struct script_config cfg;
	struct script_printer p;
	struct perf_sample ps = mk_sample();
	struct strbuf msg = STRBUF_INIT;
	union {
		union perf_event ev;
		char buf[256];
	} u;

	script_config_init(&cfg);
	EXPECT_EQ(script_check_fields(&cfg, evlist, false, &msg), 0);
	script_printer_init(&p, &cfg, evlist, -1);

	memset(&u, 0, sizeof(u));
	u.ev.header.type = PERF_RECORD_COMM;
	u.ev.header.misc = PERF_RECORD_MISC_COMM_EXEC;
	u.ev.header.size = sizeof(struct perf_record_comm) + 8;
	u.ev.comm.pid = u.ev.comm.tid = 11910;
	strcpy(u.ev.comm.comm, "w");
	script_print_record(&p, evlist_first(evlist), "w", &u.ev, &ps);
	EXPECT_STREQ(p.buf.buf, "               w 11910   559.983475: PERF_RECORD_COMM exec: w:11910/11910\n");
	strbuf_reset(&p.buf);

	memset(&u, 0, sizeof(u));
	u.ev.header.type = PERF_RECORD_EXIT;
	u.ev.header.size = sizeof(struct perf_record_fork);
	u.ev.fork.pid = u.ev.fork.tid = 11910;
	u.ev.fork.ppid = u.ev.fork.ptid = 11909;
	script_print_record(&p, evlist_first(evlist), "w", &u.ev, &ps);
	EXPECT_STREQ(p.buf.buf, "               w 11910   559.983475: PERF_RECORD_EXIT(11910:11910):(11909:11909)\n");
	strbuf_reset(&p.buf);

	memset(&u, 0, sizeof(u));
	u.ev.header.type = PERF_RECORD_MMAP2;
	u.ev.header.size = sizeof(struct perf_record_mmap2) + 16;
	u.ev.mmap2.pid = u.ev.mmap2.tid = 11910;
	u.ev.mmap2.start = 0x7f765ac39000ULL;
	u.ev.mmap2.len = 0x2000;
	u.ev.mmap2.prot = 5;
	u.ev.mmap2.flags = 2;
	strcpy(u.ev.mmap2.filename, "[vdso]");
	script_print_record(&p, evlist_first(evlist), "w", &u.ev, &ps);
	EXPECT_STREQ(p.buf.buf, "               w 11910   559.983475: PERF_RECORD_MMAP2 11910/11910: "
				"[0x7f765ac39000(0x2000) @ 0 00:00 0 0]: r-xp [vdso]\n");
	strbuf_reset(&p.buf);

	memset(&u, 0, sizeof(u));
	u.ev.header.type = PERF_RECORD_SWITCH_CPU_WIDE;
	u.ev.header.misc = PERF_RECORD_MISC_SWITCH_OUT | PERF_RECORD_MISC_SWITCH_OUT_PREEMPT;
	u.ev.header.size = sizeof(struct perf_record_switch);
	u.ev.context_switch.next_prev_pid = u.ev.context_switch.next_prev_tid = 23058;
	script_print_record(&p, evlist_first(evlist), "swapper", &u.ev, &ps);
	EXPECT_STREQ(p.buf.buf, "         swapper 11910   559.983475: PERF_RECORD_SWITCH_CPU_WIDE OUT "
				"preempt  next pid/tid: 23058/23058\n");
	strbuf_reset(&p.buf);
	script_printer_release(&p);
	evlist_free(evlist);
	strbuf_release(&msg);
}

TEST(script_branch_stack_and_data_src)
{
	struct evlist *evlist = one_event(PERF_TYPE_RAW, 0x1cd, PERF_SAMPLE_IP | PERF_SAMPLE_TID |
					  PERF_SAMPLE_TIME | PERF_SAMPLE_BRANCH_STACK |
					  PERF_SAMPLE_DATA_SRC, "raw 0x1cd:HG");
	struct script_config cfg;
	struct script_printer p;
	struct script_sample s = { 0 };
	struct perf_sample ps = mk_sample();
	struct strbuf msg = STRBUF_INIT;
	u64 stack[1 + 2 * 3];
	struct script_frame frames[4] = { { 0 } };

	/* no hw_idx: nr then {from, to, flags} */
	stack[0] = 2;
	stack[1] = 0x4011c7; stack[2] = 0x4026c1;
	stack[3] = 2 | 8 | (46219ULL << 4) | (11ULL << 20); /* predicted, abort, ERET */
	stack[4] = 0x4017fb; stack[5] = 0x4027a9;
	stack[6] = 1 | 4 | (7ULL << 4) | (15ULL << 20) | (6ULL << 26); /* mispred, in_tx, ARCH_4 */
	ps.branch_stack = (const struct branch_stack *)stack;
	ps.no_hw_idx = true;
	ps.data_src = 0x1e05080021ULL;
	script_config_init(&cfg);
	EXPECT_EQ(script_parse_fields(&cfg, "ip,brstack", &msg), 0);
	EXPECT_EQ(script_check_fields(&cfg, evlist, false, &msg), 0);
	script_printer_init(&p, &cfg, evlist, -1);
	s.sample = &ps;
	s.evsel = evlist_first(evlist);
	s.br_from = frames;
	s.br_to = frames + 2;
	s.nr_br = 2;
	script_print_sample(&p, &s);
	EXPECT_STREQ(p.buf.buf, "     56258cba715b 0x4011c7/0x4026c1/P/-/A/46219/ERET "
				" 0x4017fb/0x4027a9/M/X/-/7/ARCH_4 \n");
	strbuf_reset(&p.buf);
	script_printer_release(&p);

	script_config_init(&cfg);
	EXPECT_EQ(script_parse_fields(&cfg, "data_src", &msg), 0);
	EXPECT_EQ(script_check_fields(&cfg, evlist, false, &msg), 0);
	script_printer_init(&p, &cfg, evlist, -1);
	script_print_sample(&p, &s);
	EXPECT_STREQ(p.buf.buf, "      1e05080021 |OP N/A|LVL N/A or N/A|SNP N/A|TLB N/A|LCK N/A|BLK  N/A\n");
	strbuf_reset(&p.buf);
	ps.data_src = 0;
	script_print_sample(&p, &s);
	/* padded to the widest text printed so far, as perf */
	EXPECT_STREQ(p.buf.buf, "               0 |OP No|LVL N/A|SNP N/A|TLB N/A|LCK No|BLK  N/A         \n");
	strbuf_reset(&p.buf);
	script_printer_release(&p);
	evlist_free(evlist);
	strbuf_release(&msg);
}
