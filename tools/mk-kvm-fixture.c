// SPDX-License-Identifier: MIT
/* Writes tests/fixtures/kvm-stat.data: kvm_exit/kvm_entry samples of two vcpu threads, for kvm stat report. */
// Build: cc -std=c11 -D_GNU_SOURCE -Isrc -I/usr/include/traceevent tools/mk-kvm-fixture.c <build/src/{core,data,lib,session,symbol,trace}/*.o> $(LDLIBS); run it on a host with the kvm tracepoints.
#include "data/header.h"
#include "data/tracing-data.h"
#include "data/writer.h"
#include "lib/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PID 4242
#define BASE 1000000000000ULL

enum { ID_ENTRY = 101, ID_EXIT = 102, ID_MMIO = 103, ID_PIO = 104 };

/* sample_type IP|TID|TIME|ID|CPU|PERIOD|RAW, as perf kvm stat record asks */
static void put_sample(struct data_writer *w, u64 id, u32 tid, u32 cpu, u64 time,
		       const void *raw, u32 raw_len)
{
	u8 buf[256];
	u64 *p = (u64 *)(buf + sizeof(struct perf_event_header));
	struct perf_event_header *h = (void *)buf;
	u32 raw_size = raw_len;

	while ((raw_size + 4) % 8)
		raw_size++;
	memset(buf, 0, sizeof(buf));
	*p++ = 0xffffffff81000000ULL + tid;		/* ip */
	*p++ = ((u64)tid << 32) | PID;			/* pid, tid */
	*p++ = time;
	*p++ = id;
	*p++ = cpu;					/* cpu, res */
	*p++ = 1;					/* period */
	*(u32 *)p = raw_size;
	memcpy((u8 *)p + 4, raw, raw_len);
	h->type = PERF_RECORD_SAMPLE;
	h->misc = PERF_RECORD_MISC_KERNEL;
	h->size = (u16)((u8 *)p + 4 + raw_size - buf);
	data_writer_write(w, buf, h->size);
}

static void put_comm(struct data_writer *w, u32 tid, const char *comm, u64 time)
{
	u8 buf[128];
	struct perf_event_header *h = (void *)buf;
	u32 *ids = (u32 *)(h + 1);
	size_t len = (strlen(comm) + 1 + 7) / 8 * 8;
	u64 *trailer;

	memset(buf, 0, sizeof(buf));
	ids[0] = PID;
	ids[1] = tid;
	strcpy((char *)(ids + 2), comm);
	trailer = (u64 *)((u8 *)(ids + 2) + len);
	*trailer++ = ((u64)tid << 32) | PID;
	*trailer++ = time;
	*trailer++ = ID_ENTRY;
	*trailer++ = 0;
	h->type = PERF_RECORD_COMM;
	h->size = (u16)((u8 *)trailer - buf);
	data_writer_write(w, buf, h->size);
}

static void put_exit(struct data_writer *w, u32 tid, u32 cpu, u32 vcpu, u64 time, u32 reason,
		     u64 rip)
{
	u8 raw[72];

	memset(raw, 0, sizeof(raw));
	*(u16 *)raw = 103;			/* common_type: kvm_exit */
	*(s32 *)(raw + 4) = (s32)tid;
	*(u32 *)(raw + 8) = reason;
	*(u64 *)(raw + 16) = rip;		/* guest_rip */
	*(u32 *)(raw + 24) = 1;			/* isa: VMX */
	*(u32 *)(raw + 56) = vcpu;
	put_sample(w, ID_EXIT, tid, cpu, time, raw, sizeof(raw));
}

static void put_entry(struct data_writer *w, u32 tid, u32 cpu, u32 vcpu, u64 time, u64 rip)
{
	u8 raw[36];

	memset(raw, 0, sizeof(raw));
	*(u16 *)raw = 115;			/* common_type: kvm_entry */
	*(s32 *)(raw + 4) = (s32)tid;
	*(u32 *)(raw + 8) = vcpu;
	*(u64 *)(raw + 16) = rip;
	put_sample(w, ID_ENTRY, tid, cpu, time, raw, sizeof(raw));
}

static void put_mmio(struct data_writer *w, u32 tid, u32 cpu, u64 time, u32 type, u64 gpa)
{
	u8 raw[32];

	memset(raw, 0, sizeof(raw));
	*(u16 *)raw = 38;			/* common_type: kvm_mmio */
	*(s32 *)(raw + 4) = (s32)tid;
	*(u32 *)(raw + 8) = type;		/* 1 read, 2 write */
	*(u32 *)(raw + 12) = 4;			/* len */
	*(u64 *)(raw + 16) = gpa;
	*(u64 *)(raw + 24) = 0x11;
	put_sample(w, ID_MMIO, tid, cpu, time, raw, sizeof(raw));
}

static void put_pio(struct data_writer *w, u32 tid, u32 cpu, u64 time, u32 rw, u32 port)
{
	u8 raw[28];

	memset(raw, 0, sizeof(raw));
	*(u16 *)raw = 110;			/* common_type: kvm_pio */
	*(s32 *)(raw + 4) = (s32)tid;
	*(u32 *)(raw + 8) = rw;
	*(u32 *)(raw + 12) = port;
	*(u32 *)(raw + 16) = 1;			/* size */
	*(u32 *)(raw + 20) = 1;			/* count */
	put_sample(w, ID_PIO, tid, cpu, time, raw, sizeof(raw));
}

int main(int argc, char **argv)
{
	static const char *const names[] = { "kvm:kvm_entry", "kvm:kvm_exit", "kvm:kvm_mmio",
					     "kvm:kvm_pio" };
	/* exit reason, handling time in ns: HLT, EXTERNAL_INTERRUPT, IO_INSTRUCTION, EPT_VIOLATION, MSR_WRITE */
	static const u32 reasons[] = { 12, 1, 30, 48, 32, 12, 1, 12, 48, 1, 30, 12 };
	static const u64 cost[] = { 95000, 2100, 7300, 4100, 1200, 180000, 1900, 64000, 3900, 2500,
				    8100, 120000 };
	struct perf_event_attr attr;
	struct strbuf td = STRBUF_INIT;
	struct data_writer *w;
	u64 id, t = BASE;
	int err;

	if (argc != 2 || tracing_data_build(&td, names, 4)) {
		fprintf(stderr, "usage: mk-kvm-fixture OUT (needs tracefs with kvm events)\n");
		return 1;
	}
	w = data_writer_open(argv[1], NULL, &err);
	if (!w)
		return 1;
	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
			   PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_RAW;
	attr.read_format = PERF_FORMAT_ID;
	attr.sample_id_all = 1;
	attr.exclude_host = 1;
	attr.config = 115;
	id = ID_ENTRY;
	data_writer_add_attr(w, &attr, &id, 1, "kvm:kvm_entry");
	attr.config = 103;
	id = ID_EXIT;
	data_writer_add_attr(w, &attr, &id, 1, "kvm:kvm_exit");
	attr.config = 38;
	id = ID_MMIO;
	data_writer_add_attr(w, &attr, &id, 1, "kvm:kvm_mmio");
	attr.config = 110;
	id = ID_PIO;
	data_writer_add_attr(w, &attr, &id, 1, "kvm:kvm_pio");
	data_writer_set_string(w, HEADER_HOSTNAME, "kvm-host");
	data_writer_set_string(w, HEADER_OSRELEASE, "6.1.0-synth");
	data_writer_set_string(w, HEADER_VERSION, "6.1.192");
	data_writer_set_string(w, HEADER_ARCH, "x86_64");
	data_writer_set_string(w, HEADER_CPUID, "GenuineIntel,6,85,7");
	data_writer_set_nrcpus(w, 2, 2);
	data_writer_set_total_mem(w, 1024);
	{
		const char *cmd[] = { "/usr/bin/perf", "kvm", "stat", "record", "-p", "4242" };

		data_writer_set_cmdline(w, 6, cmd);
	}
	data_writer_set_tracing_data(w, td.buf, td.len);
	data_writer_set_sample_time(w, BASE, BASE + 4000000);
	if (data_writer_start(w))
		return 1;
	put_comm(w, PID + 1, "CPU 0/KVM", t);
	put_comm(w, PID + 2, "CPU 1/KVM", t);
	for (unsigned i = 0; i < sizeof(reasons) / sizeof(reasons[0]); i++) {
		u32 vcpu = i % 2, tid = PID + 1 + vcpu;
		u64 rip = 0xffffffff81a3c000ULL + 0x40 * i;

		t += 250000;
		put_exit(w, tid, vcpu, vcpu, t, reasons[i], rip);
		/* port IO and EPT faults on MMIO: the access, a third of the way in */
		if (reasons[i] == 30)
			put_pio(w, tid, vcpu, t + cost[i] / 3, i & 1, i < 6 ? 0x3f8 : 0x70);
		if (reasons[i] == 48)
			put_mmio(w, tid, vcpu, t + cost[i] / 3, 2 - (i & 1), 0xfee00000ULL + (i & 4) * 0x40);
		put_entry(w, tid, vcpu, vcpu, t + cost[i], rip);
	}
	if (data_writer_finish(w))
		return 1;
	data_writer_free(w);
	strbuf_release(&td);
	return 0;
}
