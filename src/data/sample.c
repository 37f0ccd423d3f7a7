/* SPDX-License-Identifier: MIT */
/* Sample decoding (every sample_type bit) and byte-swapping of records and attrs. */
#include "data/sample.h"
#include "core/evsel.h"
#include "lib/xalloc.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>

/* a bounded cursor over u64 words of a record body */
struct cur {
	const u64 *p, *end;
};

#define NEED(c, n)                                                                         \
	do {                                                                               \
		if ((size_t)((c)->end - (c)->p) < (size_t)(n))                             \
			return -EINVAL;                                                    \
	} while (0)

static int parse_read(struct cur *c, u64 rf, struct perf_sample *s)
{
	int vsz = perf_sample_read_value_size(rf) / 8;

	if (rf & PERF_FORMAT_GROUP) {
		NEED(c, 1);
		s->read.nr = *c->p++;
		if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED) {
			NEED(c, 1);
			s->read.time_enabled = *c->p++;
		}
		if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING) {
			NEED(c, 1);
			s->read.time_running = *c->p++;
		}
		if (s->read.nr > (u64)(c->end - c->p) / vsz)
			return -EINVAL;
		s->read.values = (const struct sample_read_value *)c->p;
		c->p += s->read.nr * vsz;
	} else {
		NEED(c, 1);
		s->read.one.value = *c->p++;
		if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED) {
			NEED(c, 1);
			s->read.time_enabled = *c->p++;
		}
		if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING) {
			NEED(c, 1);
			s->read.time_running = *c->p++;
		}
		if (rf & PERF_FORMAT_ID) {
			NEED(c, 1);
			s->read.one.id = *c->p++;
		}
		if (rf & PERF_FORMAT_LOST) {
			NEED(c, 1);
			s->read.one.lost = *c->p++;
		}
		s->read.nr = 1;
		s->read.values = NULL;
	}
	return 0;
}

void perf_sample_parse_id(const struct perf_event_attr *attr, const union perf_event *ev,
			  struct perf_sample *s)
{
	u64 t = attr->sample_type, v;
	const u8 *body = (const u8 *)ev + sizeof(ev->header), *p = (const u8 *)ev + ev->header.size;

	/* the trailer's fields from the last one back, while they fit */
#define ID_FIELD(bit, dst)                                                                         \
	do {                                                                                       \
		if (t & (bit)) {                                                                   \
			if (p < body + 8)                                                          \
				return;                                                            \
			p -= 8;                                                                    \
			memcpy(&v, p, 8);                                                          \
			dst;                                                                       \
		}                                                                                  \
	} while (0)
	ID_FIELD(PERF_SAMPLE_IDENTIFIER, s->id = v);
	ID_FIELD(PERF_SAMPLE_CPU, s->cpu = (u32)v);
	ID_FIELD(PERF_SAMPLE_STREAM_ID, s->stream_id = v);
	/* IDENTIFIER, when there, is the id (the kernel writes both the same) */
	ID_FIELD(PERF_SAMPLE_ID, s->id = (t & PERF_SAMPLE_IDENTIFIER) ? s->id : v);
	ID_FIELD(PERF_SAMPLE_TIME, s->time = v);
	ID_FIELD(PERF_SAMPLE_TID, (s->pid = (u32)v, s->tid = (u32)(v >> 32)));
#undef ID_FIELD
}

static int parse_trailer(const struct perf_event_attr *attr, const union perf_event *ev,
			 struct perf_sample *s)
{
	if (!attr->sample_id_all)
		return 0;
	if ((size_t)perf_event_id_hdr_size(attr) > ev->header.size - sizeof(ev->header))
		return -EINVAL;
	perf_sample_parse_id(attr, ev, s);
	return 0;
}

/*
 * gcc expands a memset of perf_sample's constant size inline as `rep stos`,
 * whose start-up costs more than libc's vector stores for these ~300 bytes
 * (it was a third of a sched tool's sample parsing): call libc's through a
 * pointer the compiler cannot look through.
 */
static void *(*volatile const sample_memset)(void *, int, size_t) = memset;

int perf_sample_parse(const struct perf_event_attr *attr, const union perf_event *ev,
		      struct perf_sample *s)
{
	u64 t = attr->sample_type;
	struct cur c;

	sample_memset(s, 0, sizeof(*s));
	s->pid = s->tid = s->cpu = (u32)-1;
	s->misc = ev->header.misc;
	s->cpumode = ev->header.misc & PERF_RECORD_MISC_CPUMODE_MASK;
	/* without PERIOD in the sample, perf takes the attr's period (fixed -c periods) */
	s->period = attr->sample_period;
	if (ev->header.size < sizeof(ev->header) || (ev->header.size & 7))
		return ev->header.type == PERF_RECORD_SAMPLE ? -EINVAL : 0;
	if (ev->header.type != PERF_RECORD_SAMPLE)
		return parse_trailer(attr, ev, s);

	c.p = (const u64 *)((const u8 *)ev + sizeof(ev->header));
	c.end = (const u64 *)((const u8 *)ev + ev->header.size);

	if (t & PERF_SAMPLE_IDENTIFIER) {
		NEED(&c, 1);
		s->id = *c.p++;
	}
	if (t & PERF_SAMPLE_IP) {
		NEED(&c, 1);
		s->ip = *c.p++;
	}
	if (t & PERF_SAMPLE_TID) {
		NEED(&c, 1);
		s->pid = (u32)*c.p;
		s->tid = (u32)(*c.p >> 32);
		c.p++;
	}
	if (t & PERF_SAMPLE_TIME) {
		NEED(&c, 1);
		s->time = *c.p++;
	}
	if (t & PERF_SAMPLE_ADDR) {
		NEED(&c, 1);
		s->addr = *c.p++;
	}
	if (t & PERF_SAMPLE_ID) {
		NEED(&c, 1);
		s->id = *c.p++;
	}
	if (t & PERF_SAMPLE_STREAM_ID) {
		NEED(&c, 1);
		s->stream_id = *c.p++;
	}
	if (t & PERF_SAMPLE_CPU) {
		NEED(&c, 1);
		s->cpu = (u32)*c.p++;
	}
	if (t & PERF_SAMPLE_PERIOD) {
		NEED(&c, 1);
		s->period = *c.p++;
	}
	if (t & PERF_SAMPLE_READ) {
		if (parse_read(&c, attr->read_format, s))
			return -EINVAL;
	}
	if (t & PERF_SAMPLE_CALLCHAIN) {
		u64 nr;

		NEED(&c, 1);
		nr = *c.p;
		if (nr > (u64)(c.end - c.p) - 1)
			return -EINVAL;
		s->callchain = (const struct ip_callchain *)c.p;
		c.p += 1 + nr;
	}
	if (t & PERF_SAMPLE_RAW) {
		u32 size;
		const u8 *b = (const u8 *)c.p;

		NEED(&c, 1);
		memcpy(&size, b, 4);
		if (size > (size_t)((const u8 *)c.end - b) - 4)
			return -EINVAL;
		s->raw_size = size;
		s->raw_data = b + 4;
		/* the u32 size and the data are padded together to 8 bytes */
		c.p = (const u64 *)(b + PERF_ALIGN((size_t)size + 4, 8));
		if (c.p > c.end)
			return -EINVAL;
	}
	if (t & PERF_SAMPLE_BRANCH_STACK) {
		u64 nr, words;
		bool hw_idx = attr->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX;

		NEED(&c, 1);
		nr = c.p[0];
		words = 1 + (hw_idx ? 1 : 0);
		NEED(&c, words);
		if (nr > ((u64)(c.end - c.p) - words) / 3)
			return -EINVAL;
		s->branch_stack = (const struct branch_stack *)c.p;
		s->no_hw_idx = !hw_idx;
		c.p += words + nr * 3;
	}
	if (t & PERF_SAMPLE_REGS_USER) {
		NEED(&c, 1);
		s->user_regs.abi = *c.p++;
		if (s->user_regs.abi) {
			u64 n = __builtin_popcountll(attr->sample_regs_user);

			NEED(&c, n);
			s->user_regs.mask = attr->sample_regs_user;
			s->user_regs.regs = c.p;
			c.p += n;
		}
	}
	if (t & PERF_SAMPLE_STACK_USER) {
		u64 size;

		NEED(&c, 1);
		size = *c.p++;
		s->user_stack.size = size;
		if (size) {
			if (size & 7 || size / 8 > (u64)(c.end - c.p))
				return -EINVAL;
			s->user_stack.data = (const char *)c.p;
			c.p += size / 8;
			NEED(&c, 1);
			s->user_stack.dyn_size = *c.p++;
			if (s->user_stack.dyn_size > size)
				s->user_stack.dyn_size = size;
		}
	}
	if (t & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)) {
		NEED(&c, 1);
		s->weight = *c.p++;
		if (t & PERF_SAMPLE_WEIGHT_STRUCT) {
			/* var1_dw is the weight; ins_lat in var2_w */
			s->weight = (u32)s->weight | ((s->weight >> 32) & 0xffff) << 32 |
				    (s->weight & 0xffff000000000000ULL);
		}
	}
	if (t & PERF_SAMPLE_DATA_SRC) {
		NEED(&c, 1);
		s->data_src = *c.p++;
	}
	if (t & PERF_SAMPLE_TRANSACTION) {
		NEED(&c, 1);
		s->transaction = *c.p++;
	}
	if (t & PERF_SAMPLE_REGS_INTR) {
		NEED(&c, 1);
		s->intr_regs.abi = *c.p++;
		if (s->intr_regs.abi) {
			u64 n = __builtin_popcountll(attr->sample_regs_intr);

			NEED(&c, n);
			s->intr_regs.mask = attr->sample_regs_intr;
			s->intr_regs.regs = c.p;
			c.p += n;
		}
	}
	if (t & PERF_SAMPLE_PHYS_ADDR) {
		NEED(&c, 1);
		s->phys_addr = *c.p++;
	}
	if (t & PERF_SAMPLE_CGROUP) {
		NEED(&c, 1);
		s->cgroup = *c.p++;
	}
	if (t & PERF_SAMPLE_DATA_PAGE_SIZE) {
		NEED(&c, 1);
		s->data_page_size = *c.p++;
	}
	if (t & PERF_SAMPLE_CODE_PAGE_SIZE) {
		NEED(&c, 1);
		s->code_page_size = *c.p++;
	}
	if (t & PERF_SAMPLE_AUX) {
		u64 size;

		NEED(&c, 1);
		size = *c.p++;
		if (size > (u64)((const u8 *)c.end - (const u8 *)c.p))
			return -EINVAL;
		s->aux_size = size;
		s->aux_data = c.p;
		c.p = (const u64 *)((const u8 *)c.p + PERF_ALIGN(size, 8));
		if (c.p > c.end)
			return -EINVAL;
	}
	return 0;
}

/* ---- byte swapping ---- */

/* the swap helpers use memcpy: fields of hostile or unpadded records may be unaligned */
static void swap64s(void *p, size_t n)
{
	u8 *b = p;

	for (size_t i = 0; i < n; i++) {
		u64 v;

		memcpy(&v, b + i * 8, 8);
		v = __builtin_bswap64(v);
		memcpy(b + i * 8, &v, 8);
	}
}

static void swap32s(void *p, size_t n)
{
	u8 *b = p;

	for (size_t i = 0; i < n; i++) {
		u32 v;

		memcpy(&v, b + i * 4, 4);
		v = __builtin_bswap32(v);
		memcpy(b + i * 4, &v, 4);
	}
}

/* reverse the bits of each byte: C bit-fields of a big-endian writer are laid out MSB-first */
static u64 bitrev_bytes(u64 v)
{
	u64 r = 0;

	for (int b = 0; b < 8; b++) {
		u8 x = (v >> (b * 8)) & 0xff, y = 0;

		for (int i = 0; i < 8; i++)
			if (x & (1 << i))
				y |= 1 << (7 - i);
		r |= (u64)y << (b * 8);
	}
	return r;
}

void perf_attr_swap(struct perf_event_attr *attr, size_t size)
{
	u8 *b = (u8 *)attr;

#define SW32(off)                                                                          \
	do {                                                                               \
		if ((off) + 4 <= size)                                                     \
			swap32s(b + (off), 1);                                             \
	} while (0)
#define SW64(off)                                                                          \
	do {                                                                               \
		if ((off) + 8 <= size)                                                     \
			swap64s(b + (off), 1);                                             \
	} while (0)
	SW32(0);
	SW32(4);
	SW64(8);
	SW64(16);
	SW64(24);
	SW64(32);
	/*
	 * The flag word: bit-fields are allocated from the most significant
	 * bit on big-endian ABIs, so byte k holds the same flags in either
	 * order, bit-reversed: reverse the bits of each byte, no byte swap.
	 */
	if (48 <= size) {
		u64 f;

		memcpy(&f, b + 40, 8);
		f = bitrev_bytes(f);
		memcpy(b + 40, &f, 8);
	}
	SW32(48);
	SW32(52);
	SW64(56);
	SW64(64);
	SW64(72);
	SW64(80);
	SW32(88);
	SW32(92);
	SW64(96);
	SW32(104);
	if (110 <= size) {
		u16 v;

		memcpy(&v, b + 108, 2);
		v = __builtin_bswap16(v);
		memcpy(b + 108, &v, 2);
	}
	SW32(112);
	SW64(120);
#undef SW32
#undef SW64
}

/* swap a sample_id trailer of @n words ending the record */
static void swap_trailer(u8 *end, const struct perf_event_attr *attr, size_t avail)
{
	int n;
	u64 t;
	u8 *p;

	if (!attr || !attr->sample_id_all)
		return;
	n = perf_event_id_hdr_size(attr) / 8;
	if ((size_t)n * 8 > avail)
		return;
	t = attr->sample_type;
	p = end - n * 8;
	/* TID and CPU are pairs of u32 */
	if (t & PERF_SAMPLE_TID) {
		swap32s(p, 2);
		p += 8;
	}
	if (t & PERF_SAMPLE_TIME) {
		swap64s(p, 1);
		p += 8;
	}
	if (t & PERF_SAMPLE_ID) {
		swap64s(p, 1);
		p += 8;
	}
	if (t & PERF_SAMPLE_STREAM_ID) {
		swap64s(p, 1);
		p += 8;
	}
	if (t & PERF_SAMPLE_CPU) {
		swap32s(p, 2);
		p += 8;
	}
	if (t & PERF_SAMPLE_IDENTIFIER)
		swap64s(p, 1);
}

static u64 get64(const u8 *p, bool swapped_already, bool to_host)
{
	u64 v;

	memcpy(&v, p, 8);
	/* a length is meaningful in host order: after the swap when converting to host */
	return (to_host == swapped_already) ? v : __builtin_bswap64(v);
}

/* swap a SAMPLE body walking it with the sample_type */
static int swap_sample(u8 *p, u8 *end, const struct perf_event_attr *attr, bool to_host)
{
	u64 t = attr->sample_type;

#define W64(n)                                                                             \
	do {                                                                               \
		if ((size_t)(end - p) < (size_t)(n) * 8)                                   \
			return -EINVAL;                                                    \
		swap64s(p, n);                                                             \
		p += (n) * 8;                                                              \
	} while (0)
#define W32PAIR()                                                                          \
	do {                                                                               \
		if (end - p < 8)                                                           \
			return -EINVAL;                                                    \
		swap32s(p, 2);                                                             \
		p += 8;                                                                    \
	} while (0)
	if (t & PERF_SAMPLE_IDENTIFIER)
		W64(1);
	if (t & PERF_SAMPLE_IP)
		W64(1);
	if (t & PERF_SAMPLE_TID)
		W32PAIR();
	if (t & PERF_SAMPLE_TIME)
		W64(1);
	if (t & PERF_SAMPLE_ADDR)
		W64(1);
	if (t & PERF_SAMPLE_ID)
		W64(1);
	if (t & PERF_SAMPLE_STREAM_ID)
		W64(1);
	if (t & PERF_SAMPLE_CPU)
		W32PAIR();
	if (t & PERF_SAMPLE_PERIOD)
		W64(1);
	if (t & PERF_SAMPLE_READ) {
		u64 rf = attr->read_format, nr = 1;
		int vsz = perf_sample_read_value_size(rf) / 8;

		if (rf & PERF_FORMAT_GROUP) {
			if (end - p < 8)
				return -EINVAL;
			W64(1);
			nr = get64(p - 8, true, to_host);
		}
		if (rf & PERF_FORMAT_GROUP) {
			if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
				W64(1);
			if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
				W64(1);
			if (nr > (u64)(end - p) / 8 / vsz)
				return -EINVAL;
			W64(nr * vsz);
		} else {
			int n = 1 + !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
				!!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING) + !!(rf & PERF_FORMAT_ID) +
				!!(rf & PERF_FORMAT_LOST);
			W64(n);
		}
	}
	if (t & PERF_SAMPLE_CALLCHAIN) {
		u64 nr;

		W64(1);
		nr = get64(p - 8, true, to_host);
		if (nr > (u64)(end - p) / 8)
			return -EINVAL;
		W64(nr);
	}
	if (t & PERF_SAMPLE_RAW) {
		u32 size;

		if (end - p < 4)
			return -EINVAL;
		swap32s(p, 1);
		memcpy(&size, p, 4);
		if (!to_host)
			size = __builtin_bswap32(size);
		if (size > (size_t)(end - p) - 4)
			return -EINVAL;
		/* raw tracepoint payloads are left in the writer's order (perf does the same) */
		p += PERF_ALIGN((size_t)size + 4, 8);
		if (p > end)
			return -EINVAL;
	}
	if (t & PERF_SAMPLE_BRANCH_STACK) {
		u64 nr;

		W64(1);
		nr = get64(p - 8, true, to_host);
		if (attr->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX)
			W64(1);
		if (nr > (u64)(end - p) / 24)
			return -EINVAL;
		W64(nr * 3);
	}
	if (t & PERF_SAMPLE_REGS_USER) {
		W64(1);
		if (get64(p - 8, true, to_host))
			W64(__builtin_popcountll(attr->sample_regs_user));
	}
	if (t & PERF_SAMPLE_STACK_USER) {
		u64 size;

		W64(1);
		size = get64(p - 8, true, to_host);
		if (size) {
			if (size > (u64)(end - p))
				return -EINVAL;
			p += PERF_ALIGN(size, 8); /* stack bytes stay as they are */
			if (p > end)
				return -EINVAL;
			W64(1);
		}
	}
	if (t & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT))
		W64(1);
	if (t & PERF_SAMPLE_DATA_SRC)
		W64(1);
	if (t & PERF_SAMPLE_TRANSACTION)
		W64(1);
	if (t & PERF_SAMPLE_REGS_INTR) {
		W64(1);
		if (get64(p - 8, true, to_host))
			W64(__builtin_popcountll(attr->sample_regs_intr));
	}
	if (t & PERF_SAMPLE_PHYS_ADDR)
		W64(1);
	if (t & PERF_SAMPLE_CGROUP)
		W64(1);
	if (t & PERF_SAMPLE_DATA_PAGE_SIZE)
		W64(1);
	if (t & PERF_SAMPLE_CODE_PAGE_SIZE)
		W64(1);
	if (t & PERF_SAMPLE_AUX) {
		u64 size;

		W64(1);
		size = get64(p - 8, true, to_host);
		if (size > (u64)(end - p))
			return -EINVAL;
	}
#undef W64
#undef W32PAIR
	return 0;
}

static void swap16s(void *p, size_t n)
{
	u8 *b = p;

	for (size_t i = 0; i < n; i++) {
		u16 v;

		memcpy(&v, b + i * 2, 2);
		v = __builtin_bswap16(v);
		memcpy(b + i * 2, &v, 2);
	}
}

/* a cpu_map payload: u16 type, then CPUS {u16 nr; u16 cpu[]}, MASK {u16 nr, long_size; longs}, RANGE {u8 any, pad; u16 start, end} */
static int swap_cpu_map(u8 *p, u8 *end, bool to_host)
{
	u16 type, nr, lsz;

	if (end - p < 2)
		return -EINVAL;
	swap16s(p, 1);
	memcpy(&type, p, 2);
	if (!to_host)
		type = __builtin_bswap16(type);
	switch (type) {
	case 0:
		if (end - p < 4)
			return -EINVAL;
		swap16s(p + 2, 1);
		memcpy(&nr, p + 2, 2);
		if (!to_host)
			nr = __builtin_bswap16(nr);
		if ((size_t)nr * 2 > (size_t)(end - p - 4))
			return -EINVAL;
		swap16s(p + 4, nr);
		return 0;
	case 1:
		if (end - p < 6)
			return -EINVAL;
		swap16s(p + 2, 2);
		memcpy(&nr, p + 2, 2);
		memcpy(&lsz, p + 4, 2);
		if (!to_host) {
			nr = __builtin_bswap16(nr);
			lsz = __builtin_bswap16(lsz);
		}
		if (lsz == 4) {
			if ((size_t)nr * 4 > (size_t)(end - p - 6))
				return -EINVAL;
			swap32s(p + 6, nr);
		} else if (lsz == 8) {
			if ((size_t)nr * 8 > (size_t)(end - p - 8))
				return -EINVAL;
			swap64s(p + 8, nr);
		} else {
			return -EINVAL;
		}
		return 0;
	case 2:
		if (end - p < 8)
			return -EINVAL;
		swap16s(p + 4, 2);
		return 0;
	default:
		return -EINVAL;
	}
}

int perf_event_swap(union perf_event *ev, const struct perf_event_attr *attr, bool to_host)
{
	u8 *b = (u8 *)ev;
	u32 type;
	u16 size;
	u8 *end;
	size_t body;

	if (to_host) {
		ev->header.type = __builtin_bswap32(ev->header.type);
		ev->header.misc = __builtin_bswap16(ev->header.misc);
		ev->header.size = __builtin_bswap16(ev->header.size);
		type = ev->header.type;
		size = ev->header.size;
	} else {
		type = ev->header.type;
		size = ev->header.size;
		ev->header.type = __builtin_bswap32(ev->header.type);
		ev->header.misc = __builtin_bswap16(ev->header.misc);
		ev->header.size = __builtin_bswap16(ev->header.size);
	}
	if (size < 8)
		return -EINVAL;
	end = b + size;
	body = size - 8;
	b += 8;

	switch (type) {
	case PERF_RECORD_SAMPLE:
		if (!attr)
			return -EINVAL;
		return swap_sample(b, end, attr, to_host);
	case PERF_RECORD_MMAP:
		if (body < 32)
			return -EINVAL;
		swap32s(b, 2);
		swap64s(b + 8, 3);
		swap_trailer(end, attr, body - 32);
		return 0;
	case PERF_RECORD_MMAP2:
		if (body < 64)
			return -EINVAL;
		swap32s(b, 2);
		swap64s(b + 8, 3);
		{
			u16 misc = to_host ? ev->header.misc : __builtin_bswap16(ev->header.misc);

			if (!(misc & PERF_RECORD_MISC_MMAP_BUILD_ID)) {
				swap32s(b + 32, 2);
				swap64s(b + 40, 2);
			}
		}
		swap32s(b + 56, 2);
		swap_trailer(end, attr, body - 64);
		return 0;
	case PERF_RECORD_COMM:
		if (body < 8)
			return -EINVAL;
		swap32s(b, 2);
		swap_trailer(end, attr, body - 8);
		return 0;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		if (body < 24)
			return -EINVAL;
		swap32s(b, 4);
		swap64s(b + 16, 1);
		swap_trailer(end, attr, body - 24);
		return 0;
	case PERF_RECORD_LOST:
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
	case PERF_RECORD_LOST_SAMPLES:
	case PERF_RECORD_AUX:
	case PERF_RECORD_AUX_OUTPUT_HW_ID: {
		size_t n = type == PERF_RECORD_LOST ? 2 :
			   type == PERF_RECORD_LOST_SAMPLES || type == PERF_RECORD_AUX_OUTPUT_HW_ID ? 1 : 3;

		if (body < n * 8)
			return -EINVAL;
		swap64s(b, n);
		swap_trailer(end, attr, body - n * 8);
		return 0;
	}
	case PERF_RECORD_ITRACE_START:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		if (body < 8)
			return -EINVAL;
		swap32s(b, 2);
		swap_trailer(end, attr, body - 8);
		return 0;
	case PERF_RECORD_SWITCH:
		swap_trailer(end, attr, body);
		return 0;
	case PERF_RECORD_KSYMBOL:
		if (body < 16)
			return -EINVAL;
		swap64s(b, 1);
		swap32s(b + 8, 1);
		swap16s(b + 12, 2);
		swap_trailer(end, attr, body - 16);
		return 0;
	case PERF_RECORD_CGROUP:
		if (body < 8)
			return -EINVAL;
		swap64s(b, 1);
		swap_trailer(end, attr, body - 8);
		return 0;
	case PERF_RECORD_HEADER_ATTR: {
		u32 asz;

		if (body < PERF_ATTR_SIZE_VER0)
			return -EINVAL;
		memcpy(&asz, b + 4, 4);
		if (to_host)
			asz = __builtin_bswap32(asz);
		if (asz < PERF_ATTR_SIZE_VER0 || asz > body)
			return -EINVAL;
		perf_attr_swap((struct perf_event_attr *)b, asz);
		swap64s(b + asz, (body - asz) / 8);
		return 0;
	}
	case PERF_RECORD_HEADER_TRACING_DATA:
		if (body < 4)
			return -EINVAL;
		swap32s(b, 1);
		return 0;
	case PERF_RECORD_HEADER_BUILD_ID:
		if (body < 4)
			return -EINVAL;
		swap32s(b, 1);
		return 0;
	case PERF_RECORD_ID_INDEX:
	case PERF_RECORD_THREAD_MAP:
	case PERF_RECORD_STAT_CONFIG:
	case PERF_RECORD_STAT_ROUND:
	case PERF_RECORD_TIME_CONV:
	case PERF_RECORD_AUXTRACE:
		/* u64 words (thread names are only in THREAD_MAP: swap counts and pids) */
		if (type == PERF_RECORD_THREAD_MAP) {
			u64 nr;

			if (body < 8)
				return -EINVAL;
			swap64s(b, 1);
			memcpy(&nr, b, 8);
			if (!to_host)
				nr = __builtin_bswap64(nr);
			if (nr > (body - 8) / 24)
				return -EINVAL;
			for (u64 i = 0; i < nr; i++)
				swap64s(b + 8 + i * 24, 1);
			return 0;
		}
		if (type == PERF_RECORD_TIME_CONV) {
			swap64s(b, MIN(body / 8, (size_t)5));
			return 0;
		}
		if (type == PERF_RECORD_AUXTRACE) {
			if (body < 40)
				return -EINVAL;
			swap64s(b, 3);
			swap32s(b + 24, 4);
			return 0;
		}
		swap64s(b, body / 8);
		return 0;
	case PERF_RECORD_STAT:
		if (body < 40)
			return -EINVAL;
		swap64s(b, 1);
		swap32s(b + 8, 2);
		swap64s(b + 16, 3);
		return 0;
	case PERF_RECORD_CPU_MAP:
		return swap_cpu_map(b, end, to_host);
	case PERF_RECORD_EVENT_UPDATE: {
		u64 utype;

		if (body < 16)
			return -EINVAL;
		swap64s(b, 2);
		memcpy(&utype, b, 8);
		if (!to_host)
			utype = __builtin_bswap64(utype);
		if (utype == 1 && body >= 24) /* SCALE: a double */
			swap64s(b + 16, 1);
		else if (utype == 3) /* CPUS: a cpu map */
			return swap_cpu_map(b + 16, end, to_host);
		return 0;
	}
	case PERF_RECORD_HEADER_FEATURE:
		/* only the feature id: payloads are decoded with the swap flag */
		if (body < 8)
			return -EINVAL;
		swap64s(b, 1);
		return 0;
	default:
		/* records without a known layout are passed through */
		return 0;
	}
}
