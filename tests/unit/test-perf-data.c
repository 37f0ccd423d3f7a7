/* SPDX-License-Identifier: MIT */
/* perf.data writer -> reader round trips (file, pipe, swapped, compressed) and perf 6.1 interchange. */
#include "test.h"

#include "core/evlist.h"
#include "data/reader.h"
#include "data/writer.h"
#include "session/session.h"
#include "ui/stats.h"
#include "lib/xalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NR_SAMPLES 50
#define PID 4242
#define BASE_TIME 1000000000ULL
#define MAP_START 0x400000ULL

static const char *target_binary(void)
{
	return access("/usr/bin/true", R_OK) == 0 ? "/usr/bin/true" : "/bin/true";
}

/* a sample of synth_attr's layout (IP, TID, TIME, PERIOD) */
struct small_sample {
	struct perf_event_header h;
	u64 ip;
	u32 pid, tid;
	u64 time, period;
};

static void synth_attr(struct perf_event_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->type = PERF_TYPE_SOFTWARE;
	attr->size = sizeof(*attr);
	attr->config = PERF_COUNT_SW_TASK_CLOCK;
	attr->sample_period = 100000;
	attr->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD;
	attr->disabled = 1;
	attr->mmap = 1;
	attr->comm = 1;
	attr->task = 1;
	attr->sample_id_all = 1;
	attr->mmap2 = 1;
	attr->exclude_guest = 1;
}

/* append a record of @size bytes built in @rec */
static void put(struct data_writer *w, const void *rec, bool ring)
{
	const struct perf_event_header *h = rec;

	if (ring)
		EXPECT_EQ(data_writer_write_ring(w, rec, h->size), 0);
	else
		EXPECT_EQ(data_writer_write(w, rec, h->size), 0);
}

/* id trailer for IP|TID|TIME|PERIOD with sample_id_all: {pid,tid} and time */
struct trailer {
	u32 pid, tid;
	u64 time;
};

static void write_synthetic(struct data_writer *w, bool ring)
{
	struct perf_event_attr attr;
	u64 id = 77;
	u8 buf[512];
	const char *bin = target_binary();

	synth_attr(&attr);
	data_writer_add_attr(w, &attr, &id, 1, "task-clock");
	data_writer_set_string(w, HEADER_HOSTNAME, "synth-host");
	data_writer_set_string(w, HEADER_OSRELEASE, "6.1.0-synth");
	data_writer_set_string(w, HEADER_VERSION, "6.1.187");
	data_writer_set_string(w, HEADER_ARCH, "x86_64");
	data_writer_set_nrcpus(w, 2, 2);
	data_writer_set_total_mem(w, 1024);
	{
		const char *argv[] = { "/usr/bin/perf", "record", "true" };

		data_writer_set_cmdline(w, 3, argv);
	}
	data_writer_set_sample_time(w, BASE_TIME, BASE_TIME + (NR_SAMPLES - 1) * 1000);
	EXPECT_EQ(data_writer_start(w), 0);

	/* the kernel map, as perf record synthesizes it (pid -1, "[kernel.kallsyms]_text") */
	{
		struct perf_record_mmap *m = (void *)buf;
		const char *name = "[kernel.kallsyms]_text";
		size_t len = PERF_ALIGN(strlen(name) + 1, 8);

		memset(buf, 0, sizeof(buf));
		m->header.type = PERF_RECORD_MMAP;
		m->header.misc = PERF_RECORD_MISC_KERNEL;
		m->header.size = sizeof(*m) + len + sizeof(struct trailer);
		m->pid = (u32)-1;
		m->tid = 0;
		m->start = 0xffffffff81000000ULL;
		m->len = 0x1000000;
		m->pgoff = 0xffffffff81000000ULL;
		strcpy(m->filename, name);
		put(w, buf, false);
	}
	/* COMM */
	{
		struct perf_record_comm *c = (void *)buf;
		struct trailer *t;
		size_t len = PERF_ALIGN(strlen("synth") + 1, 8);

		memset(buf, 0, sizeof(buf));
		c->header.type = PERF_RECORD_COMM;
		c->header.size = sizeof(*c) + len + sizeof(*t);
		c->pid = c->tid = PID;
		strcpy(c->comm, "synth");
		t = (void *)(buf + sizeof(*c) + len);
		t->pid = t->tid = PID;
		t->time = BASE_TIME - 10;
		put(w, buf, false);
	}
	/* MMAP2 of the binary, executable */
	{
		struct perf_record_mmap2 *m = (void *)buf;
		struct trailer *t;
		size_t len = PERF_ALIGN(strlen(bin) + 1, 8);

		memset(buf, 0, sizeof(buf));
		m->header.type = PERF_RECORD_MMAP2;
		m->header.misc = PERF_RECORD_MISC_USER;
		m->header.size = sizeof(*m) + len + sizeof(*t);
		m->pid = m->tid = PID;
		m->start = MAP_START;
		m->len = 0x10000;
		m->pgoff = 0;
		m->prot = 5;
		m->flags = 2;
		strcpy(m->filename, bin);
		t = (void *)(buf + sizeof(*m) + len);
		t->pid = t->tid = PID;
		t->time = BASE_TIME - 5;
		put(w, buf, false);
	}
	for (int i = 0; i < NR_SAMPLES; i++) {
		struct {
			struct perf_event_header h;
			u64 ip;
			u32 pid, tid;
			u64 time, period;
		} s = {
			.h = { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, sizeof(s) },
			.ip = MAP_START + 0x100 + i * 4,
			.pid = PID,
			.tid = PID,
			.time = BASE_TIME + i * 1000,
			.period = 100000,
		};
		put(w, &s, ring);
	}
	{
		struct perf_record_fork *e = (void *)buf;
		struct trailer *t;

		memset(buf, 0, sizeof(buf));
		e->header.type = PERF_RECORD_EXIT;
		e->header.size = sizeof(*e) + sizeof(*t);
		e->pid = e->tid = PID;
		e->ppid = e->ptid = 1;
		e->time = BASE_TIME + NR_SAMPLES * 1000;
		t = (void *)(buf + sizeof(*e));
		t->pid = t->tid = PID;
		t->time = e->time;
		put(w, buf, ring);
	}
	{
		struct perf_event_header fr = { PERF_RECORD_FINISHED_ROUND, 0, 8 };

		put(w, &fr, false);
	}
	EXPECT_EQ(data_writer_finish(w), 0);
}

static char *make_file(const char *name, const struct data_writer_opts *opts, bool ring)
{
	char *path = xasprintf("%s/%s", test_tmpdir(), name);
	int err = 0;
	struct data_writer *w = data_writer_open(path, opts, &err);

	EXPECT_TRUE(w != NULL);
	if (!w)
		return path;
	write_synthetic(w, ring);
	data_writer_free(w);
	return path;
}

/* read back: every sample in order, header strings */
static void check_read(const char *path)
{
	struct data_error err = { 0 };
	struct data_reader *r = data_reader_open(path, &err);
	union perf_event *ev;
	u64 off;
	int ret, nr = 0, comm = 0, mmap2 = 0, exits = 0;

	EXPECT_TRUE(r != NULL);
	if (!r) {
		fprintf(stderr, "# open: %s at %#llx\n", err.msg, (unsigned long long)err.offset);
		return;
	}
	EXPECT_STREQ(data_reader_header(r)->hostname, "synth-host");
	EXPECT_STREQ(data_reader_header(r)->version, "6.1.187");
	EXPECT_EQ(data_reader_header(r)->nr_cpus_online, 2);
	EXPECT_EQ(data_reader_evlist(r)->nr_entries, 1);
	EXPECT_STREQ(evlist_first(data_reader_evlist(r))->name, "task-clock");
	while ((ret = data_reader_next(r, &ev, &off, &err)) > 0) {
		struct perf_sample s;

		switch (ev->header.type) {
		case PERF_RECORD_SAMPLE:
			EXPECT_EQ(data_reader_parse_sample(r, ev, &s, NULL), 0);
			EXPECT_UEQ(s.ip, MAP_START + 0x100 + nr * 4);
			EXPECT_EQ(s.pid, PID);
			EXPECT_UEQ(s.time, BASE_TIME + nr * 1000);
			EXPECT_UEQ(s.period, 100000);
			nr++;
			break;
		case PERF_RECORD_COMM:
			EXPECT_STREQ(ev->comm.comm, "synth");
			EXPECT_EQ(data_reader_parse_sample(r, ev, &s, NULL), 0);
			EXPECT_UEQ(s.time, BASE_TIME - 10);
			comm++;
			break;
		case PERF_RECORD_MMAP2:
			EXPECT_UEQ(ev->mmap2.start, MAP_START);
			EXPECT_EQ(ev->mmap2.prot, 5);
			mmap2++;
			break;
		case PERF_RECORD_EXIT:
			exits++;
			break;
		}
	}
	EXPECT_EQ(ret, 0);
	if (ret < 0)
		fprintf(stderr, "# next: %s at %#llx\n", err.msg, (unsigned long long)err.offset);
	EXPECT_EQ(nr, NR_SAMPLES);
	EXPECT_EQ(comm, 1);
	EXPECT_EQ(mmap2, 1);
	EXPECT_EQ(exits, 1);
	data_reader_close(r);
}

TEST(perf_data_roundtrip_file)
{
	char *p = make_file("file.data", NULL, false);

	check_read(p);
	free(p);
}

TEST(perf_data_roundtrip_pipe_layout)
{
	struct data_writer_opts o = { .force_pipe = true };
	char *p = make_file("pipe.data", &o, false);

	check_read(p);
	free(p);
}

TEST(perf_data_roundtrip_swapped)
{
	struct data_writer_opts o = { .swap = true };
	char *p = make_file("swap.data", &o, false);

	check_read(p);
	free(p);
}

TEST(perf_data_roundtrip_swapped_pipe)
{
	struct data_writer_opts o = { .swap = true, .force_pipe = true };
	char *p = make_file("swap-pipe.data", &o, false);

	check_read(p);
	free(p);
}

TEST(perf_data_roundtrip_compressed)
{
	struct data_writer_opts o = { .comp_level = 1 };
	char *p = make_file("z.data", &o, true);

	check_read(p);
	free(p);
}

TEST(perf_data_killed_writer_is_readable)
{
	char *path = xasprintf("%s/killed.data", test_tmpdir());
	struct data_writer *w = data_writer_open(path, NULL, NULL);
	struct perf_event_attr attr;
	struct data_reader *r;
	struct data_error err = { 0 };
	u64 id = 1;
	struct small_sample s = { { PERF_RECORD_SAMPLE, 2, sizeof(s) }, 1, 2, 2, 3, 4 };

	synth_attr(&attr);
	data_writer_add_attr(w, &attr, &id, 1, NULL);
	EXPECT_EQ(data_writer_start(w), 0);
	EXPECT_EQ(data_writer_write(w, &s, sizeof(s)), 0);
	EXPECT_EQ(data_writer_write(w, &s, sizeof(s)), 0);
	data_writer_free(w); /* never finished: as if killed */
	r = data_reader_open(path, &err);
	EXPECT_TRUE(r != NULL);
	if (r) {
		union perf_event *ev;
		u64 off;
		int n = 0;

		EXPECT_TRUE(data_reader_data_size_was_zero(r));
		while (data_reader_next(r, &ev, &off, &err) > 0)
			n++;
		EXPECT_EQ(n, 2);
		data_reader_close(r);
	}
	free(path);
}

/*
 * A file bigger than the reader's give-back window (8 MiB): the pages
 * behind the reader are dropped as it goes, and every record still reads
 * back whole, also after a rewind (the pages fault in again) and from a
 * byte-swapped file (records swapped where they lie must not be lost).
 */
static void big_file_reads_back(const struct data_writer_opts *opts)
{
	char *path = xasprintf("%s/big.data", test_tmpdir());
	struct data_writer *w = data_writer_open(path, opts, NULL);
	struct perf_event_attr attr;
	struct data_error err = { 0 };
	struct data_reader *r;
	const u32 nr = 400000; /* 40-byte samples: about 16 MiB */
	u64 id = 1;
	struct small_sample s = { { PERF_RECORD_SAMPLE, 2, sizeof(s) }, 0, 2, 2, 0, 1 };

	synth_attr(&attr);
	data_writer_add_attr(w, &attr, &id, 1, NULL);
	EXPECT_EQ(data_writer_start(w), 0);
	for (u32 i = 0; i < nr; i++) {
		s.ip = 0x400000 + i;
		s.time = 1000 + i;
		EXPECT_EQ(data_writer_write(w, &s, sizeof(s)), 0);
	}
	EXPECT_EQ(data_writer_finish(w), 0);
	data_writer_free(w);
	r = data_reader_open(path, &err);
	EXPECT_TRUE(r != NULL);
	for (int pass = 0; r && pass < 2; pass++) {
		union perf_event *ev;
		u64 off;
		u32 n = 0, bad = 0;

		while (data_reader_next(r, &ev, &off, &err) > 0) {
			u64 ip, t;

			if (ev->header.type != PERF_RECORD_SAMPLE)
				continue;
			memcpy(&ip, (const u8 *)ev + 8, 8);
			memcpy(&t, (const u8 *)ev + 24, 8);
			if (ip != 0x400000 + n || t != 1000 + n)
				bad++;
			n++;
		}
		EXPECT_EQ(n, nr);
		EXPECT_EQ(bad, 0);
		EXPECT_EQ(data_reader_rewind(r), 0);
	}
	if (r)
		data_reader_close(r);
	unlink(path);
	free(path);
}

TEST(perf_data_big_file_pages_given_back)
{
	struct data_writer_opts swapped = { .swap = true };

	big_file_reads_back(NULL);
	big_file_reads_back(&swapped);
}

/* run perf 6.1 on a file; returns its stdout+stderr (caller frees) or NULL */
static char *run_perf(const char *args, const char *path)
{
	char *cmd = xasprintf("/usr/bin/perf %s -i %s 2>&1", args, path);
	FILE *f = popen(cmd, "r");
	char *out = NULL;
	size_t len = 0;

	free(cmd);
	if (!f)
		return NULL;
	{
		char chunk[4096];
		size_t n;

		while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
			out = xrealloc(out, len + n + 1);
			memcpy(out + len, chunk, n);
			len += n;
			out[len] = 0;
		}
	}
	pclose(f);
	return out ? out : xstrdup("");
}

static int count_lines_with(const char *out, const char *needle)
{
	int n = 0;

	for (const char *p = out; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

static void check_perf_reads(const char *path)
{
	char *out;

	if (access("/usr/bin/perf", X_OK))
		test_skip("reference perf (/usr/bin/perf) not installed");
	out = run_perf("script -F comm,pid,time,ip", path);
	EXPECT_EQ(count_lines_with(out, "synth  4242"), NR_SAMPLES);
	EXPECT_TRUE(!strstr(out, "arning"));
	if (count_lines_with(out, "synth  4242") != NR_SAMPLES || strstr(out, "arning"))
		fprintf(stderr, "# perf script said:\n%.2000s\n", out);
	free(out);
	/* the same samples: every time and ip, in order */
	out = run_perf("script -F time,ip", path);
	{
		int n = 0, good = 0;

		for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
			unsigned long sec, usec, ip;

			if (sscanf(line, " %lu.%lu: %lx", &sec, &usec, &ip) != 3)
				continue;
			if (sec * 1000000 + usec == (BASE_TIME + n * 1000) / 1000 &&
			    ip == MAP_START + 0x100 + n * 4)
				good++;
			n++;
		}
		EXPECT_EQ(n, NR_SAMPLES);
		EXPECT_EQ(good, NR_SAMPLES);
	}
	free(out);
	out = run_perf("report --stdio --sort comm", path);
	EXPECT_TRUE(strstr(out, "# Samples: 50  of event 'task-clock'") != NULL);
	EXPECT_TRUE(strstr(out, "100.00%  synth") != NULL);
	EXPECT_TRUE(!strstr(out, "arning"));
	if (!strstr(out, "100.00%  synth") || strstr(out, "arning") ||
	    !strstr(out, "# Samples: 50  of event 'task-clock'"))
		fprintf(stderr, "# perf report said:\n%.2000s\n", out);
	free(out);
	out = run_perf("report --header-only", path);
	EXPECT_TRUE(strstr(out, "# hostname : synth-host") != NULL);
	EXPECT_TRUE(strstr(out, "# event : name = task-clock") != NULL);
	EXPECT_TRUE(!strstr(out, "arning"));
	if (!strstr(out, "# event : name = task-clock"))
		fprintf(stderr, "# perf report --header-only said:\n%.3000s\n", out);
	free(out);
}

TEST(perf_data_interchange_perf_reads_sonde_file)
{
	char *p = make_file("perf-file.data", NULL, false);

	check_perf_reads(p);
	free(p);
}

TEST(perf_data_interchange_perf_reads_sonde_swapped)
{
	struct data_writer_opts o = { .swap = true };
	char *p = make_file("perf-swap.data", &o, false);

	check_perf_reads(p);
	free(p);
}

TEST(perf_data_interchange_perf_reads_sonde_compressed)
{
	struct data_writer_opts o = { .comp_level = 1 };
	char *p = make_file("perf-z.data", &o, true);

	check_perf_reads(p);
	free(p);
}

TEST(perf_data_interchange_perf_reads_sonde_pipe)
{
	struct data_writer_opts o = { .force_pipe = true };
	char *p = make_file("perf-pipe.data", &o, false);

	check_perf_reads(p);
	free(p);
}

/*
 * A byte-swapped copy of a perf-written fixture, made with the writer
 * (swap mode): perf 6.1 and sonde must count the same records in it as perf
 * does in the original.
 */
static char *swap_fixture(const char *name)
{
	char *src = xasprintf("tests/fixtures/%s", name);
	char *dst = xasprintf("%s/swapped-%s", test_tmpdir(), name);
	struct data_error err = { 0 };
	struct data_reader *r = data_reader_open(src, &err);
	struct data_writer_opts o = { .swap = true };
	struct data_writer *w;
	const struct perf_header *h;
	union perf_event *ev;
	u64 off;

	free(src);
	if (!r)
		test_skip("fixture not found (run from the source tree)");
	h = data_reader_header(r);
	w = data_writer_open(dst, &o, NULL);
	EXPECT_TRUE(w != NULL);
	for (int i = 0; i < h->nr_attrs; i++)
		data_writer_add_attr(w, &h->attrs[i].attr, h->attrs[i].ids, h->attrs[i].nr_ids,
				     h->attrs[i].name);
	data_writer_set_string(w, HEADER_HOSTNAME, h->hostname);
	data_writer_set_string(w, HEADER_OSRELEASE, h->os_release);
	data_writer_set_string(w, HEADER_VERSION, h->version);
	data_writer_set_string(w, HEADER_ARCH, h->arch);
	data_writer_set_nrcpus(w, h->nr_cpus_avail, h->nr_cpus_online);
	data_writer_set_sample_time(w, h->first_sample_time, h->last_sample_time);
	for (int i = 0; i < h->nr_build_ids; i++)
		data_writer_add_build_id(w, h->build_ids[i].pid, h->build_ids[i].cpumode,
					 h->build_ids[i].build_id, h->build_ids[i].size,
					 h->build_ids[i].filename);
	if (h->tracing_data)
		data_writer_set_tracing_data(w, h->tracing_data, h->tracing_data_size);
	EXPECT_EQ(data_writer_start(w), 0);
	while (data_reader_next(r, &ev, &off, &err) > 0)
		EXPECT_EQ(data_writer_write_event(w, ev), 0);
	EXPECT_EQ(data_writer_finish(w), 0);
	data_writer_free(w);
	data_reader_close(r);
	return dst;
}

static void check_swapped_fixture(const char *name)
{
	char *dst, *orig, *perf_sw, *sonde_sw;
	char *src = xasprintf("tests/fixtures/%s", name);
	struct data_error err = { 0 };
	struct data_reader *r;
	size_t len = 0;
	FILE *mem;

	if (access("/usr/bin/perf", X_OK))
		test_skip("reference perf (/usr/bin/perf) not installed");
	dst = swap_fixture(name);
	orig = run_perf("report --stats", src);
	perf_sw = run_perf("report --stats", dst);
	EXPECT_STREQ(orig, perf_sw);
	r = data_reader_open(dst, &err);
	EXPECT_TRUE(r != NULL);
	sonde_sw = NULL;
	mem = open_memstream(&sonde_sw, &len);
	if (r) {
		EXPECT_TRUE(data_reader_header(r)->needs_swap);
		struct machine_opts mopts = { .no_symbols = true };
		struct session *s = session_new(r, &mopts);
		struct data_error serr = { 0 };

		report_stats(mem, s, &serr);
		session_free(s);
	}
	fclose(mem);
	EXPECT_STREQ(sonde_sw, perf_sw);
	if (strcmp(orig, perf_sw) || strcmp(sonde_sw ? sonde_sw : "", perf_sw))
		fprintf(stderr, "# original:\n%s\n# perf on swapped:\n%s\n# sonde on swapped:\n%s\n",
			orig, perf_sw, sonde_sw);
	free(src);
	free(dst);
	free(orig);
	free(perf_sw);
	free(sonde_sw);
}

TEST(perf_data_swapped_copy_of_perf_file_callgraph)
{
	check_swapped_fixture("callgraph.data");
}

TEST(perf_data_swapped_copy_of_perf_file_tracepoints)
{
	check_swapped_fixture("tracepoints.data");
}

TEST(perf_data_swapped_copy_of_perf_file_multi_event)
{
	check_swapped_fixture("multi-event.data");
}

/*
 * tests/fixtures/swapped-callgraph.data: callgraph.data converted to the
 * other byte order by the writer (regenerate with SONDE_REGEN_FIXTURES=1
 * build/unit-tests swapped_fixture, or tools/gen-fixtures.sh). The reader
 * must give back exactly the records of the original.
 */
TEST(perf_data_swapped_fixture)
{
	char *fresh = swap_fixture("callgraph.data");
	const char *fixed = "tests/fixtures/swapped-callgraph.data";
	struct data_error e1 = { 0 }, e2 = { 0 };
	struct data_reader *a, *b;
	union perf_event *ea, *eb;
	u64 oa, ob;
	int ra, rb, n = 0;

	if (getenv("SONDE_REGEN_FIXTURES")) {
		char *cmd = xasprintf("cp %s %s", fresh, fixed);

		EXPECT_EQ(system(cmd), 0);
		free(cmd);
	}
	a = data_reader_open("tests/fixtures/callgraph.data", &e1);
	b = data_reader_open(fixed, &e2);
	EXPECT_TRUE(a && b);
	if (!a || !b)
		goto out;
	EXPECT_TRUE(data_reader_header(b)->needs_swap);
	EXPECT_EQ(data_reader_header(b)->nr_build_ids, data_reader_header(a)->nr_build_ids);
	for (;;) {
		ra = data_reader_next(a, &ea, &oa, &e1);
		if (ra <= 0)
			break;
		{
			union perf_event *copy = xmemdup(ea, ea->header.size);

			rb = data_reader_next(b, &eb, &ob, &e2);
			EXPECT_EQ(rb, 1);
			if (rb == 1) {
				EXPECT_EQ(copy->header.size, eb->header.size);
				if (copy->header.size == eb->header.size &&
				    memcmp(copy, eb, copy->header.size)) {
					test_fail_at(__FILE__, __LINE__, "record %d (type %u) differs", n,
						     copy->header.type);
				}
			}
			free(copy);
			if (rb != 1)
				break;
		}
		n++;
	}
	EXPECT_EQ(ra, 0);
	EXPECT_EQ(data_reader_next(b, &eb, &ob, &e2), 0);
	EXPECT_TRUE(n > 10);
out:
	data_reader_close(a);
	data_reader_close(b);
	free(fresh);
}

/* the features gathered from this machine decode to what the system says */
TEST(perf_data_live_features)
{
	char *path = xasprintf("%s/live.data", test_tmpdir());
	struct data_writer *w = data_writer_open(path, NULL, NULL);
	const char *argv[] = { "record", "-g", "true" };
	struct perf_event_attr attr;
	struct data_error err = { 0 };
	struct data_reader *r;
	const struct perf_header *h;
	u64 id = 1;

	synth_attr(&attr);
	data_writer_add_attr(w, &attr, &id, 1, "cpu-clock");
	EXPECT_EQ(data_writer_set_live_features(w, 3, argv, "6.1.187"), 0);
	EXPECT_EQ(data_writer_start(w), 0);
	EXPECT_EQ(data_writer_finish(w), 0);
	data_writer_free(w);
	r = data_reader_open(path, &err);
	EXPECT_TRUE(r != NULL);
	if (!r)
		return;
	h = data_reader_header(r);
	EXPECT_TRUE(h->hostname && h->hostname[0]);
	EXPECT_STREQ(h->version, "6.1.187");
	EXPECT_EQ(h->nr_cpus_online, sysconf(_SC_NPROCESSORS_ONLN));
	EXPECT_TRUE(h->total_mem > 0);
	EXPECT_EQ(h->nr_cmdline, 3);
	if (h->nr_cmdline == 3) {
		EXPECT_TRUE(h->cmdline[0][0] == '/'); /* argv[0] replaced by the executable's path */
		EXPECT_STREQ(h->cmdline[2], "true");
	}
	EXPECT_TRUE(perf_header_has_feat(h, HEADER_PMU_MAPPINGS));
	EXPECT_TRUE(h->pmu_mappings.nr > 0);
	if (access("/sys/devices/system/cpu/cpu0/topology/core_id", R_OK) == 0) {
		EXPECT_TRUE(h->nr_core_siblings > 0);
		EXPECT_EQ(h->nr_cpu_topo, h->nr_cpus_avail);
	}
	if (access("/sys/devices/system/node/node0", R_OK) == 0)
		EXPECT_TRUE(h->nr_numa_nodes > 0);
	EXPECT_TRUE(perf_header_has_feat(h, HEADER_EVENT_DESC));
	EXPECT_STREQ(h->attrs[0].name, "cpu-clock");
	data_reader_close(r);
	free(path);
}
