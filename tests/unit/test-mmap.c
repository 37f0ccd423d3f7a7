/* SPDX-License-Identifier: MIT */
/* Unit tests for core/mmap: the ring protocol on a fake in-memory mmap page. */
#include "test.h"
#include "core/mmap.h"
#include "data/event.h"
#include "lib/debug.h"
#include "lib/xalloc.h"

#include <errno.h>
#include <linux/perf_event.h>

#define DATA_SIZE 256

struct fake_ring {
	unsigned char *mem; /* page_size control + DATA_SIZE data */
	u64 head;
};

static struct perf_event_mmap_page *fake_ctl(struct fake_ring *r)
{
	return (struct perf_event_mmap_page *)r->mem;
}

static void fake_init(struct fake_ring *r)
{
	r->mem = xzalloc(page_size + DATA_SIZE);
	r->head = 0;
}

/* the "kernel": write a record of @size bytes (type = @tag) at head, forward */
static void fake_put(struct fake_ring *r, u32 tag, u16 size)
{
	unsigned char rec[64];
	struct perf_event_header *h = (void *)rec;

	memset(rec, (int)tag, sizeof(rec));
	h->type = tag;
	h->misc = 0;
	h->size = size;
	for (u16 i = 0; i < size; i++)
		r->mem[page_size + ((r->head + i) & (DATA_SIZE - 1))] = rec[i];
	r->head += size;
	fake_ctl(r)->data_head = r->head;
}

/* backward: the kernel moves head down first, then writes the record there */
static void fake_put_backward(struct fake_ring *r, u32 tag, u16 size)
{
	unsigned char rec[64];
	struct perf_event_header *h = (void *)rec;

	memset(rec, (int)tag, sizeof(rec));
	h->type = tag;
	h->misc = 0;
	h->size = size;
	r->head -= size;
	for (u16 i = 0; i < size; i++)
		r->mem[page_size + ((r->head + i) & (DATA_SIZE - 1))] = rec[i];
	fake_ctl(r)->data_head = r->head;
}

TEST(mmap_empty_ring)
{
	struct fake_ring r;
	struct perf_mmap m;

	fake_init(&r);
	perf_mmap_init_mem(&m, r.mem, DATA_SIZE, false);
	EXPECT_EQ(perf_mmap_read_init(&m), -EAGAIN);
	perf_mmap_release(&m);
	free(r.mem);
}

TEST(mmap_forward_wraps_and_sets_tail)
{
	struct fake_ring r;
	struct perf_mmap m;
	union perf_event *ev;
	int n = 0;

	fake_init(&r);
	perf_mmap_init_mem(&m, r.mem, DATA_SIZE, false);
	/* 5 x 40 = 200 bytes, consumed */
	for (int i = 0; i < 5; i++)
		fake_put(&r, 10 + i, 40);
	ASSERT_TRUE(perf_mmap_read_init(&m) == 0);
	while ((ev = perf_mmap_read_event(&m)))
		EXPECT_EQ(ev->header.type, 10 + n++);
	EXPECT_EQ(n, 5);
	perf_mmap_read_done(&m);
	EXPECT_UEQ(fake_ctl(&r)->data_tail, 200);

	/* the next record (64 bytes at 200) wraps past 256: seen whole, via the bounce buffer */
	fake_put(&r, 20, 64);
	fake_put(&r, 21, 16);
	ASSERT_TRUE(perf_mmap_read_init(&m) == 0);
	ev = perf_mmap_read_event(&m);
	ASSERT_TRUE(ev != NULL);
	EXPECT_EQ(ev->header.type, 20);
	EXPECT_EQ(ev->header.size, 64);
	/* the body crossed the end and must be contiguous */
	for (int i = 8; i < 64; i++)
		EXPECT_EQ(((unsigned char *)ev)[i], 20);
	EXPECT_TRUE((unsigned char *)ev == m.bounce);
	ev = perf_mmap_read_event(&m);
	ASSERT_TRUE(ev != NULL);
	EXPECT_EQ(ev->header.type, 21);
	EXPECT_TRUE(perf_mmap_read_event(&m) == NULL);
	perf_mmap_read_done(&m);
	EXPECT_UEQ(fake_ctl(&r)->data_tail, 280);
	EXPECT_EQ(perf_mmap_read_init(&m), -EAGAIN);
	perf_mmap_release(&m);
	free(r.mem);
}

TEST(mmap_window_pieces)
{
	struct fake_ring r;
	struct perf_mmap m;
	const void *ptr[2];
	size_t len[2];

	fake_init(&r);
	perf_mmap_init_mem(&m, r.mem, DATA_SIZE, false);
	EXPECT_EQ(perf_mmap_window(&m, 0, 0, ptr, len), 0);
	EXPECT_EQ(perf_mmap_window(&m, 16, 80, ptr, len), 1);
	EXPECT_EQ(len[0], 64);
	EXPECT_TRUE(ptr[0] == r.mem + page_size + 16);
	EXPECT_EQ(perf_mmap_window(&m, 240, 300, ptr, len), 2);
	EXPECT_EQ(len[0], 16);
	EXPECT_EQ(len[1], 44);
	EXPECT_TRUE(ptr[1] == r.mem + page_size);
	/* positions are free-running counters: a second lap maps the same way */
	EXPECT_EQ(perf_mmap_window(&m, 256 + 240, 256 + 300, ptr, len), 2);
	EXPECT_EQ(len[0], 16);
	perf_mmap_release(&m);
	free(r.mem);
}

TEST(mmap_partial_header_at_end_is_not_read)
{
	struct fake_ring r;
	struct perf_mmap m;

	fake_init(&r);
	perf_mmap_init_mem(&m, r.mem, DATA_SIZE, false);
	fake_put(&r, 5, 32);
	/* a head that claims a record larger than the window: stop, don't overrun */
	fake_ctl(&r)->data_head = 24;
	ASSERT_TRUE(perf_mmap_read_init(&m) == 0);
	EXPECT_TRUE(perf_mmap_read_event(&m) == NULL);
	perf_mmap_release(&m);
	free(r.mem);
}

TEST(mmap_backward_overwrite)
{
	struct fake_ring r;
	struct perf_mmap m;
	union perf_event *ev;
	int types[16], n = 0;

	fake_init(&r);
	perf_mmap_init_mem(&m, r.mem, DATA_SIZE, true);
	EXPECT_EQ(perf_mmap_read_init(&m), -EAGAIN);
	fake_put_backward(&r, 1, 32);
	fake_put_backward(&r, 2, 32);
	fake_put_backward(&r, 3, 32);
	ASSERT_TRUE(perf_mmap_read_init(&m) == 0);
	/* newest first: 3, 2, 1 */
	while ((ev = perf_mmap_read_event(&m)))
		types[n++] = ev->header.type;
	EXPECT_EQ(n, 3);
	EXPECT_EQ(types[0], 3);
	EXPECT_EQ(types[2], 1);
	perf_mmap_read_done(&m);
	/* nothing new */
	EXPECT_EQ(perf_mmap_read_init(&m), -EAGAIN);

	/* overfill: 12 x 32 = 384 > 256; only the newest ring-full survives, none read twice */
	for (int i = 0; i < 12; i++)
		fake_put_backward(&r, 10 + i, 32);
	ASSERT_TRUE(perf_mmap_read_init(&m) == 0);
	n = 0;
	while ((ev = perf_mmap_read_event(&m)))
		types[n++] = ev->header.type;
	EXPECT_EQ(n, 8);
	EXPECT_EQ(types[0], 21);
	EXPECT_EQ(types[7], 14);
	perf_mmap_read_done(&m);

	/* two more: only those two are new */
	fake_put_backward(&r, 30, 32);
	fake_put_backward(&r, 31, 32);
	ASSERT_TRUE(perf_mmap_read_init(&m) == 0);
	n = 0;
	while ((ev = perf_mmap_read_event(&m)))
		types[n++] = ev->header.type;
	EXPECT_EQ(n, 2);
	EXPECT_EQ(types[0], 31);
	perf_mmap_release(&m);
	free(r.mem);
}

TEST(mmap_pages_parse)
{
	size_t pages = 0;

	EXPECT_EQ(perf_mmap_pages_parse("128", &pages), 0);
	EXPECT_EQ(pages, 128);
	EXPECT_EQ(perf_mmap_pages_parse("100", &pages), 0);
	EXPECT_EQ(pages, 128);
	EXPECT_EQ(perf_mmap_pages_parse("1", &pages), 0);
	EXPECT_EQ(pages, 1);
	EXPECT_EQ(perf_mmap_pages_parse("512K", &pages), 0);
	EXPECT_EQ(pages, 512 * 1024 / page_size);
	EXPECT_EQ(perf_mmap_pages_parse("1M", &pages), 0);
	EXPECT_EQ(pages, 1024 * 1024 / page_size);
	EXPECT_EQ(perf_mmap_pages_parse("", &pages), -EINVAL);
	EXPECT_EQ(perf_mmap_pages_parse("12x", &pages), -EINVAL);
	EXPECT_EQ(perf_mmap_pages_parse("0", &pages), -EINVAL);
}
