/* SPDX-License-Identifier: MIT */
/* perf_sample_parse for every sample_type bit, truncation, byte-swap round trips, attr swap. */
#include "test.h"

#include "data/reader.h"
#include "core/evsel.h"
#include "data/feature.h"
#include "data/sample.h"
#include "lib/xalloc.h"

#include <errno.h>
#include <string.h>

/* builds a SAMPLE record word by word */
struct rec {
	u64 w[256];
	int n;
};

static void put(struct rec *r, u64 v)
{
	r->w[r->n++] = v;
}

static void all_bits_attr(struct perf_event_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			 PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID |
			 PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_READ |
			 PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW | PERF_SAMPLE_BRANCH_STACK |
			 PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER | PERF_SAMPLE_WEIGHT |
			 PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_TRANSACTION | PERF_SAMPLE_REGS_INTR |
			 PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_CGROUP | PERF_SAMPLE_DATA_PAGE_SIZE |
			 PERF_SAMPLE_CODE_PAGE_SIZE | PERF_SAMPLE_AUX;
	a->read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_TOTAL_TIME_ENABLED |
			 PERF_FORMAT_LOST;
	a->branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_HW_INDEX;
	a->sample_regs_user = 0x7; /* 3 regs */
	a->sample_regs_intr = 0x3; /* 2 regs */
	a->sample_id_all = 1;
}

static void build_all_bits(struct rec *r)
{
	memset(r, 0, sizeof(*r));
	put(r, 0); /* header, filled below */
	put(r, 1001);		      /* identifier */
	put(r, 0xffffffff81000010ULL); /* ip */
	put(r, (u64)22 << 32 | 11);   /* pid 11 tid 22 */
	put(r, 123456789);	      /* time */
	put(r, 0xdead);		      /* addr */
	put(r, 1001);		      /* id */
	put(r, 7);		      /* stream id */
	put(r, 3);		      /* cpu 3 */
	put(r, 5000);		      /* period */
	/* read group: nr 2, time_enabled, {value,id,lost} x2 */
	put(r, 2);
	put(r, 999);
	put(r, 10);
	put(r, 1001);
	put(r, 0);
	put(r, 20);
	put(r, 1002);
	put(r, 1);
	/* callchain: nr 3 */
	put(r, 3);
	put(r, (u64)-128);
	put(r, 0xffffffff81000010ULL);
	put(r, 0xffffffff81000020ULL);
	/* raw: u32 size 12 + 12 bytes = 16 */
	put(r, 12 | (u64)0xaabbccdd << 32);
	put(r, 0x1122334455667788ULL);
	/* branch stack: nr 1, hw_idx, {from,to,flags} */
	put(r, 1);
	put(r, 5);
	put(r, 0x100);
	put(r, 0x200);
	put(r, 0x3);
	/* regs user: abi 2 + 3 regs */
	put(r, 2);
	put(r, 0xa);
	put(r, 0xb);
	put(r, 0xc);
	/* stack user: size 16, 16 bytes, dyn_size 8 */
	put(r, 16);
	put(r, 0x5555);
	put(r, 0x6666);
	put(r, 8);
	put(r, 77);   /* weight */
	put(r, 0x42); /* data_src */
	put(r, 0x9);  /* transaction */
	/* regs intr: abi 2 + 2 regs */
	put(r, 2);
	put(r, 0xd);
	put(r, 0xe);
	put(r, 0x12345000); /* phys addr */
	put(r, 4242);	    /* cgroup */
	put(r, 4096);	    /* data page size */
	put(r, 2097152);    /* code page size */
	/* aux: size 8 + 8 bytes */
	put(r, 8);
	put(r, 0xfeedULL);
	{
		struct perf_event_header *h = (void *)r->w;

		h->type = PERF_RECORD_SAMPLE;
		h->misc = PERF_RECORD_MISC_KERNEL;
		h->size = r->n * 8;
	}
}

#define EXPECT_FALSE_HW(s) EXPECT_TRUE(!(s)->no_hw_idx)

static void check_all_bits(const struct perf_sample *s)
{
	EXPECT_UEQ(s->id, 1001);
	EXPECT_UEQ(s->ip, 0xffffffff81000010ULL);
	EXPECT_EQ(s->pid, 11);
	EXPECT_EQ(s->tid, 22);
	EXPECT_UEQ(s->time, 123456789);
	EXPECT_UEQ(s->addr, 0xdead);
	EXPECT_UEQ(s->stream_id, 7);
	EXPECT_EQ(s->cpu, 3);
	EXPECT_UEQ(s->period, 5000);
	EXPECT_UEQ(s->read.nr, 2);
	EXPECT_UEQ(s->read.time_enabled, 999);
	EXPECT_TRUE(s->read.values != NULL);
	if (s->read.values) {
		EXPECT_UEQ(s->read.values[0].value, 10);
		EXPECT_UEQ(s->read.values[1].id, 1002);
		EXPECT_UEQ(s->read.values[1].lost, 1);
	}
	EXPECT_TRUE(s->callchain != NULL);
	if (s->callchain) {
		EXPECT_UEQ(s->callchain->nr, 3);
		EXPECT_UEQ(s->callchain->ips[2], 0xffffffff81000020ULL);
	}
	EXPECT_EQ(s->raw_size, 12);
	EXPECT_TRUE(s->branch_stack != NULL);
	if (s->branch_stack) {
		EXPECT_UEQ(s->branch_stack->nr, 1);
		EXPECT_UEQ(s->branch_stack->hw_idx, 5);
		EXPECT_UEQ(s->branch_stack->entries[0].to, 0x200);
	}
	EXPECT_FALSE_HW(s);
	EXPECT_UEQ(s->user_regs.abi, 2);
	EXPECT_TRUE(s->user_regs.regs && s->user_regs.regs[2] == 0xc);
	EXPECT_UEQ(s->user_stack.size, 16);
	EXPECT_UEQ(s->user_stack.dyn_size, 8);
	EXPECT_UEQ(s->weight, 77);
	EXPECT_UEQ(s->data_src, 0x42);
	EXPECT_UEQ(s->transaction, 0x9);
	EXPECT_TRUE(s->intr_regs.regs && s->intr_regs.regs[1] == 0xe);
	EXPECT_UEQ(s->phys_addr, 0x12345000);
	EXPECT_UEQ(s->cgroup, 4242);
	EXPECT_UEQ(s->data_page_size, 4096);
	EXPECT_UEQ(s->code_page_size, 2097152);
	EXPECT_UEQ(s->aux_size, 8);
	EXPECT_EQ(s->cpumode, PERF_RECORD_MISC_KERNEL);
}

TEST(sample_parse_every_bit)
{
	struct perf_event_attr attr;
	struct rec r;
	struct perf_sample s;

	all_bits_attr(&attr);
	build_all_bits(&r);
	EXPECT_EQ(perf_sample_parse(&attr, (void *)r.w, &s), 0);
	check_all_bits(&s);
}

TEST(sample_parse_truncated_is_einval_never_overreads)
{
	struct perf_event_attr attr;
	struct rec r;
	struct perf_sample s;

	all_bits_attr(&attr);
	build_all_bits(&r);
	for (int words = 1; words < r.n; words++) {
		/* an exact-size heap copy so ASan catches any read past the record */
		u64 *copy = xmalloc(words * 8);

		memcpy(copy, r.w, words * 8);
		((struct perf_event_header *)copy)->size = words * 8;
		EXPECT_EQ(perf_sample_parse(&attr, (void *)copy, &s), -EINVAL);
		free(copy);
	}
}

TEST(sample_parse_hostile_counts)
{
	struct perf_event_attr attr;
	struct rec r;
	struct perf_sample s;

	memset(&attr, 0, sizeof(attr));
	attr.sample_type = PERF_SAMPLE_CALLCHAIN;
	memset(&r, 0, sizeof(r));
	put(&r, 0);
	put(&r, ~0ULL); /* callchain nr huge */
	put(&r, 1);
	{
		struct perf_event_header h = { PERF_RECORD_SAMPLE, 0, 0 };

		h.size = r.n * 8;
		memcpy(r.w, &h, sizeof(h));
	}
	EXPECT_EQ(perf_sample_parse(&attr, (void *)r.w, &s), -EINVAL);

	attr.sample_type = PERF_SAMPLE_RAW;
	r.w[1] = 0xfffffff0; /* raw size huge */
	EXPECT_EQ(perf_sample_parse(&attr, (void *)r.w, &s), -EINVAL);

	attr.sample_type = PERF_SAMPLE_READ;
	attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	r.w[1] = 1ULL << 62; /* group nr huge */
	EXPECT_EQ(perf_sample_parse(&attr, (void *)r.w, &s), -EINVAL);

	attr.sample_type = PERF_SAMPLE_STACK_USER;
	r.w[1] = 1ULL << 40;
	EXPECT_EQ(perf_sample_parse(&attr, (void *)r.w, &s), -EINVAL);
}

TEST(sample_id_all_trailer)
{
	struct perf_event_attr attr;
	struct perf_sample s;
	struct {
		struct perf_event_header h;
		u64 id, lost;
		u32 pid, tid;
		u64 time, sid;
		u32 cpu, res;
		u64 identifier;
	} lost = { { PERF_RECORD_LOST, 0, sizeof(lost) }, 5, 6, 100, 101, 999, 1, 1, 0, 77 };

	memset(&attr, 0, sizeof(attr));
	attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_CPU |
			   PERF_SAMPLE_IDENTIFIER;
	attr.sample_id_all = 1;
	EXPECT_EQ(perf_event_id_hdr_size(&attr), 40);
	EXPECT_EQ(perf_sample_parse(&attr, (void *)&lost, &s), 0);
	EXPECT_EQ(s.pid, 100);
	EXPECT_EQ(s.tid, 101);
	EXPECT_UEQ(s.time, 999);
	EXPECT_EQ(s.cpu, 1);
	EXPECT_UEQ(s.id, 77);
}

TEST(sample_id_trailer_of_a_short_record)
{
	struct perf_event_attr attr;
	struct perf_sample s;
	/* 16 bytes after the header, a 40-byte trailer layout: the last two fields fit */
	struct {
		struct perf_event_header h;
		u32 cpu, res;
		u64 identifier;
	} rec = { { PERF_RECORD_COMM, 0, sizeof(rec) }, 3, 0, 88 };

	memset(&attr, 0, sizeof(attr));
	attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_CPU |
			   PERF_SAMPLE_IDENTIFIER;
	attr.sample_id_all = 1;
	EXPECT_EQ(perf_sample_parse(&attr, (void *)&rec, &s), -EINVAL);
	memset(&s, 0, sizeof(s));
	s.time = 5;
	perf_sample_parse_id(&attr, (void *)&rec, &s);
	EXPECT_UEQ(s.id, 88);
	EXPECT_EQ(s.cpu, 3);
	EXPECT_UEQ(s.time, 5); /* did not fit: left alone */
	EXPECT_EQ(s.pid, 0);
}

TEST(sample_swap_round_trip)
{
	struct perf_event_attr attr;
	struct rec r, orig;
	struct perf_sample s;

	all_bits_attr(&attr);
	build_all_bits(&r);
	orig = r;
	EXPECT_EQ(perf_event_swap((void *)r.w, &attr, false), 0);
	EXPECT_TRUE(memcmp(r.w, orig.w, orig.n * 8) != 0);
	EXPECT_EQ(perf_event_swap((void *)r.w, &attr, true), 0);
	EXPECT_MEMEQ(r.w, orig.w, orig.n * 8);
	EXPECT_EQ(perf_sample_parse(&attr, (void *)r.w, &s), 0);
	check_all_bits(&s);
}

TEST(attr_swap_flags_bit_order)
{
	struct perf_event_attr a, b;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = 2;
	a.config = 0x174;
	a.disabled = 1;
	a.sample_id_all = 1;
	a.precise_ip = 2;
	a.sample_type = PERF_SAMPLE_IP;
	b = a;
	perf_attr_swap(&b, sizeof(b));
	/* the flags word: each byte bit-reversed, bytes in place (big-endian bit-fields) */
	EXPECT_UEQ(b.type, __builtin_bswap32(2));
	EXPECT_UEQ(b.config, __builtin_bswap64(0x174));
	EXPECT_EQ(((u8 *)&b)[40], 0x80); /* disabled was bit 0 of byte 0 */
	perf_attr_swap(&b, sizeof(b));
	EXPECT_MEMEQ(&a, &b, sizeof(a));
}

TEST(event_names)
{
	EXPECT_STREQ(perf_event_name(PERF_RECORD_SAMPLE), "SAMPLE");
	EXPECT_STREQ(perf_event_name(PERF_RECORD_FINISHED_ROUND), "FINISHED_ROUND");
	EXPECT_STREQ(perf_event_name(PERF_RECORD_HEADER_ATTR), "ATTR");
	EXPECT_STREQ(perf_event_name(1000), "UNKNOWN");
	EXPECT_STREQ(perf_header_feat_name(HEADER_MEM_TOPOLOGY), "MEM_TOPOLOGY");
}
