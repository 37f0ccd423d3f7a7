/* SPDX-License-Identifier: MIT */
/* sonde inject: copy a perf.data stream (file or pipe) adding build-ids (-b) or merged sched_stat samples (-s). */
#include "builtin.h"
#include "cmd/inject-jit.h"
#include "cmd/inject-sched.h"
#include "cmd/open.h"
#include "core/evlist.h"
#include "core/evsel.h"
#include "data/reader.h"
#include "data/writer.h"
#include "lib/debug.h"
#include "lib/optspec.h"
#include "lib/xalloc.h"
#include "session/machine.h"
#include "session/session.h"
#include "symbol/elf.h"
#include "ui/itrace-help.h"
#include "ui/header.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

struct inject_opts {
	const char *input, *output, *itrace, *vmlinux, *kallsyms;
	bool build_ids, buildid_all, force, jit, sched_stat, strip, ignore_vmlinux;
	int verbose;
};

/* one dso whose build-id went into the output, in the order perf lists them */
struct inject_bid {
	const char *name;
	char *owned_name; /* --jit's .so paths */
	u32 order;	  /* where perf lists it: the dso's creation order */
	u16 cpumode;
	u8 id[BUILD_ID_SIZE];
	u8 size;
};

struct inject {
	struct tool tool;
	struct inject_opts *o;
	struct data_writer *w;
	const struct perf_header *in_hdr;
	struct inject_bid *bids;
	int nr_bids, alloc_bids;
	/* --jit: the code loads of the jitdumps seen so far, by time; the next to write */
	struct jit_load *loads;
	int nr_loads, next_load;
	bool *load_hit;
	u8 *trailer; /* the marker mmap's sample_id trailer, the model for the new MMAP2s */
	int trailer_size;
	struct inject_sched sched; /* -s */
	int err;
};

static const char *const inject_usage[] = {
	"perf inject [<options>]",
	NULL,
};

/* the build-id of @dso: from its MMAP2 record or the input's build-id table, else read from its file */
static int dso_build_id(const struct inject *in, const struct dso *dso, u8 *bid)
{
	const struct perf_header *h = in->in_hdr;

	if (dso->build_id_size) {
		memcpy(bid, dso->build_id, dso->build_id_size);
		return dso->build_id_size;
	}
	for (int i = 0; i < h->nr_build_ids; i++)
		if (!strcmp(h->build_ids[i].filename, dso->long_name)) {
			memcpy(bid, h->build_ids[i].build_id, h->build_ids[i].size);
			return h->build_ids[i].size;
		}
	/* perf reads files and its own vdso; the kernel needs the recorded id */
	if (dso->long_name[0] == '/')
		return buildid_read_path(dso->long_name, bid, BUILD_ID_SIZE);
	if (!strcmp(dso->long_name, "[vdso]")) {
		unsigned long base = getauxval(AT_SYSINFO_EHDR);

		return base ? buildid_read_mem((const void *)base, 2 * 4096, bid, BUILD_ID_SIZE) :
			      -ENOENT;
	}
	return -ENOENT;
}

/* a HEADER_BUILD_ID record as perf inject writes it: pid -1, cpumode in misc, name padded to 64 */
static int write_build_id_record(struct data_writer *w, const struct inject_bid *b)
{
	size_t n = strlen(b->name) + 1, name_len = (n + 63) & ~(size_t)63;
	size_t size = 8 + 4 + 24 + name_len;
	u8 *rec;
	int ret;

	if (size > 0xffff)
		return 0;
	rec = xcalloc(1, size);
	((struct perf_event_header *)rec)->type = PERF_RECORD_HEADER_BUILD_ID;
	((struct perf_event_header *)rec)->misc = b->cpumode;
	((struct perf_event_header *)rec)->size = (u16)size;
	memset(rec + 8, 0xff, 4);
	memcpy(rec + 12, b->id, b->size);
	memcpy(rec + 36, b->name, n - 1);
	ret = data_writer_write(w, rec, size);
	free(rec);
	return ret;
}

static struct inject_bid *bid_add(struct inject *in, const struct dso *dso, const u8 *id, int len)
{
	struct inject_bid *b;

	if (in->nr_bids == in->alloc_bids) {
		in->alloc_bids = in->alloc_bids ? 2 * in->alloc_bids : 16;
		in->bids = xrealloc(in->bids, in->alloc_bids * sizeof(*in->bids));
	}
	b = &in->bids[in->nr_bids++];
	b->name = dso->long_name;
	b->owned_name = NULL;
	b->order = dso->id;
	b->cpumode = dso->is_kernel ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER;
	memcpy(b->id, id, len);
	b->size = (u8)len;
	return b;
}

/* -b: the first sample that lands in a dso brings its build-id record in front of it */
static int inject_sample_build_id(struct inject *in, struct session *session,
				  const union perf_event *ev)
{
	struct perf_sample s;
	struct machine *m = &session->machine;
	struct evsel *evsel = NULL;
	const struct maps *maps = NULL;
	struct map *map;
	u8 bid[BUILD_ID_SIZE];
	int len;

	if (data_reader_parse_sample(session->reader, ev, &s, &evsel) < 0)
		return 0;
	if (s.cpumode == PERF_RECORD_MISC_KERNEL || s.cpumode == PERF_RECORD_MISC_GUEST_KERNEL)
		maps = &m->kmaps;
	else if (s.cpumode == PERF_RECORD_MISC_USER || s.cpumode == PERF_RECORD_MISC_GUEST_USER)
		maps = machine_findnew_thread(m, (int)s.pid, (int)s.tid)->maps;
	map = maps ? maps_find(maps, s.ip) : NULL;
	if (!map || !map->dso || map->dso->is_hit)
		return 0;
	map->dso->is_hit = true;
	len = dso_build_id(in, map->dso, bid);
	if (len <= 0)
		return 0;
	{
		struct inject_bid *b = bid_add(in, map->dso, bid, len);

		/* --jit alone only notes the hit, for the BUILD_ID feature */
		return in->o->build_ids ? write_build_id_record(in->w, b) : 0;
	}
}


/* the sample_id trailer of a record written for @l: the marker's, with the load's pid/tid and time */
static void jit_trailer(const struct inject *in, const struct jit_load *l, u8 *out)
{
	u64 t = in->in_hdr->nr_attrs ? in->in_hdr->attrs[0].attr.sample_type : 0;
	int off = 0;

	memcpy(out, in->trailer, in->trailer_size);
	if (t & PERF_SAMPLE_TID) {
		if (in->trailer_size >= 8) {
			memcpy(out, &l->pid, 4);
			memcpy(out + 4, &l->tid, 4);
		}
		off = 8;
	}
	if ((t & PERF_SAMPLE_TIME) && in->trailer_size >= off + 8)
		memcpy(out + off, &l->time, 8);
}

/* --jit: an MMAP2 record (as perf inject writes it: st_mode in prot, MAP_SHARED) for one code load */
static int jit_write_mmap(struct inject *in, const struct jit_load *l)
{
	size_t n = strlen(l->path) + 1, name_len = (n + 7) & ~(size_t)7;
	size_t size = sizeof(struct perf_record_mmap2) + name_len + in->trailer_size;
	u8 *rec = xcalloc(1, size);
	struct perf_record_mmap2 *m = (void *)rec;
	int ret;

	m->header.type = PERF_RECORD_MMAP2;
	m->header.misc = PERF_RECORD_MISC_USER;
	m->header.size = (u16)size;
	m->pid = l->pid;
	m->tid = l->tid;
	m->start = l->addr;
	m->len = l->len;
	m->pgoff = l->pgoff;
	m->maj = major(l->dev);
	m->min = minor(l->dev);
	m->ino = l->ino;
	m->ino_generation = 1;
	m->prot = l->mode;
	m->flags = MAP_SHARED;
	memcpy(rec + sizeof(*m), l->path, n - 1);
	jit_trailer(in, l, rec + sizeof(*m) + name_len);
	ret = data_writer_write(in->w, rec, size);
	free(rec);
	return ret;
}

/* --jit: write the code loads read so far that are not written yet */
static int jit_flush(struct inject *in)
{
	int ret = 0;

	while (!ret && in->next_load < in->nr_loads)
		ret = jit_write_mmap(in, &in->loads[in->next_load++]);
	return ret;
}

/*
 * --jit, one kernel record at delivery: a jitdump marker mmap is replaced
 * by the dump's code loads; samples in jitted code mark that .so hit.
 * Returns 1 when the record is consumed, 0 to write it, -errno.
 */
static int jit_record(struct inject *in, struct session *session, const union perf_event *ev)
{
	struct perf_sample s = { 0 };
	struct evsel *evsel = NULL;
	const char *filename = NULL;
	int ret;

	if (data_reader_parse_sample(session->reader, ev, &s, &evsel) != 0)
		memset(&s, 0, sizeof(s));
	if (ev->header.type == PERF_RECORD_MMAP2)
		filename = ev->mmap2.filename;
	else if (ev->header.type == PERF_RECORD_MMAP)
		filename = ev->mmap.filename;
	if (filename && jit_is_marker(filename)) {
		int old = in->nr_loads, id_size = data_reader_id_hdr_size(session->reader);

		if (!in->trailer && id_size > 0 && id_size < ev->header.size) {
			in->trailer = xmalloc(id_size);
			memcpy(in->trailer, (const u8 *)ev + ev->header.size - id_size, id_size);
			in->trailer_size = id_size;
		}
		ret = jit_read_dump(filename, &in->loads, &in->nr_loads);
		if (ret && ret != -ENOENT)
			return ret;
		in->load_hit = xrealloc(in->load_hit, in->nr_loads ? in->nr_loads : 1);
		memset(in->load_hit + old, 0, in->nr_loads - old);
		/*
		 * perf inject writes all the dump's code loads in place of the
		 * marker, in time order, though their times are later and records
		 * of the times between follow them (found by running perf)
		 */
		ret = jit_flush(in);
		return ret ? ret : 1;
	}
	if (ev->header.type == PERF_RECORD_SAMPLE)
		for (int i = 0; i < in->nr_loads; i++) {
			const struct jit_load *l = &in->loads[i];

			if (in->load_hit[i] || l->pid != s.pid || s.ip < l->addr || s.ip >= l->addr + l->len)
				continue;
			in->load_hit[i] = true;
			if (in->nr_bids == in->alloc_bids) {
				in->alloc_bids = in->alloc_bids ? 2 * in->alloc_bids : 16;
				in->bids = xrealloc(in->bids, in->alloc_bids * sizeof(*in->bids));
			}
			in->bids[in->nr_bids++] = (struct inject_bid){ .owned_name = xstrdup(l->path),
				.cpumode = PERF_RECORD_MISC_USER, .size = 20 };
			in->bids[in->nr_bids - 1].name = in->bids[in->nr_bids - 1].owned_name;
			in->bids[in->nr_bids - 1].order = 0x80000000u + (u32)i; /* mapped after the file's dsos */
			memcpy(in->bids[in->nr_bids - 1].id, l->build_id, 20);
		}
	return 0;
}

/*
 * Records as read: tool records (rounds, id index, maps...) go out at once,
 * in file order; the pipe header records are dropped (the writer puts attrs,
 * features and tracing data up front). Kernel records wait for delivery.
 */
static int inject_read(struct tool *tool, struct session *session, const union perf_event *ev,
		       const struct record_pos *pos)
{
	struct inject *in = (struct inject *)tool;
	int ret;

	(void)session, (void)pos;
	switch (ev->header.type) {
	case PERF_RECORD_HEADER_ATTR:
	case PERF_RECORD_HEADER_EVENT_TYPE:
	case PERF_RECORD_HEADER_TRACING_DATA:
	case PERF_RECORD_HEADER_FEATURE:
		return 0;
	case PERF_RECORD_AUXTRACE_INFO:
	case PERF_RECORD_AUXTRACE:
		if (in->o->itrace) {
			fprintf(stderr, "Instruction trace decoding (--itrace) is not supported by sonde: "
					"this file holds AUX area data\n");
			in->err = -ENOTSUP;
			return -ENOTSUP;
		}
		break;
	default:
		break;
	}
	if (ev->header.type < PERF_RECORD_USER_TYPE_START)
		return 0;
	if (ev->header.type == PERF_RECORD_ID_INDEX && in->o->itrace)
		return 0; /* perf inject --itrace drops it (decoded events get new ids) */
	if (ev->header.type == PERF_RECORD_FINISHED_ROUND && in->o->jit)
		return 0; /* and perf inject --jit the round markers */
	ret = data_writer_write(in->w, ev, ev->header.size);
	if (ret)
		in->err = ret;
	return ret;
}

/*
 * Kernel records at delivery (in time order with -b, as perf inject -b
 * writes them; in file order otherwise), after the session updated the
 * machine: -b puts a dso's build-id in front of the first sample in it.
 */
static int inject_deliver(struct tool *tool, struct session *session, const union perf_event *ev,
			  const struct record_pos *pos)
{
	struct inject *in = (struct inject *)tool;
	int ret = 0;

	(void)pos;
	if (in->o->sched_stat) {
		ev = inject_sched_record(&in->sched, session, ev);
		if (!ev)
			return 0;
	}
	if (in->o->jit) {
		ret = jit_record(in, session, ev);
		if (ret == 1)
			return 0;
	}
	if (!ret && ev->header.type == PERF_RECORD_SAMPLE && (in->o->build_ids || in->o->jit) &&
	    !in->o->buildid_all)
		ret = inject_sample_build_id(in, session, ev);
	if (!ret)
		ret = data_writer_write(in->w, ev, ev->header.size);
	if (ret)
		in->err = ret;
	return ret;
}

/* file output: the input's features, our command line, the build-ids of this run */
static void copy_features(struct inject *in, int argc, const char **argv)
{
	const struct perf_header *h = in->in_hdr;
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	const char **args = xcalloc(argc + 1, sizeof(*args));

	for (int f = HEADER_HOSTNAME; f < HEADER_LAST_FEATURE; f++) {
		if (f == HEADER_BUILD_ID || f == HEADER_CMDLINE || !perf_header_has_feat(h, f))
			continue;
		if (h->feat_raw[f] || !h->feat_raw_size[f])
			data_writer_set_feature_raw(in->w, f, h->feat_raw[f], h->feat_raw_size[f]);
	}
	if (h->tracing_data)
		data_writer_set_tracing_data(in->w, h->tracing_data, h->tracing_data_size);
	exe[n > 0 ? n : 0] = 0;
	args[0] = n > 0 ? exe : prog_name;
	for (int i = 0; i < argc; i++)
		args[i + 1] = argv[i];
	data_writer_set_cmdline(in->w, argc + 1, args);
	free(args);
}

/* the BUILD_ID feature: the dsos -b saw (kernel first, then in hit order), and the vdso as perf keeps it */
static int bid_order_cmp(const void *a, const void *b)
{
	const struct inject_bid *x = a, *y = b;
	bool kx = x->cpumode == PERF_RECORD_MISC_KERNEL, ky = y->cpumode == PERF_RECORD_MISC_KERNEL;

	if (kx != ky)
		return kx ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static void add_build_id_feature(struct inject *in, struct machine *m)
{
	const struct perf_header *h = in->in_hdr;
	struct inject_bid *v;
	int nr = in->nr_bids;
	bool vdso = false;

	if (in->o->buildid_all) {
		for (struct dso *d = m->dsos; d; d = d->next) {
			u8 bid[BUILD_ID_SIZE];
			int len = dso_build_id(in, d, bid);

			if (len > 0)
				bid_add(in, d, bid, len);
		}
		nr = in->nr_bids;
	}
	/* kernel first, then the others in the order their dsos appeared (perf's) */
	v = xcalloc(nr + 1, sizeof(*v));
	if (nr)
		memcpy(v, in->bids, nr * sizeof(*v));
	for (int i = 0; i < nr; i++)
		vdso |= !strcmp(v[i].name, "[vdso]");
	for (int i = 0; !vdso && i < h->nr_build_ids; i++) {
		const struct build_id_entry *e = &h->build_ids[i];

		if (strcmp(e->filename, "[vdso]"))
			continue;
		/* perf keeps the recorded vdso entry, hit or not */
		v[nr] = (struct inject_bid){ .name = e->filename, .cpumode = e->cpumode,
					     .size = e->size, .order = 0x7fffffffu };
		memcpy(v[nr].id, e->build_id, e->size);
		for (struct dso *d = m->dsos; d; d = d->next)
			if (!strcmp(d->long_name, "[vdso]"))
				v[nr].order = d->id;
		nr++;
		vdso = true;
	}
	qsort(v, nr, sizeof(*v), bid_order_cmp);
	for (int i = 0; i < nr; i++)
		data_writer_add_build_id(in->w, -1, v[i].cpumode, v[i].id, v[i].size, v[i].name);
	free(v);
}

static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return !strcmp(a, "-") || !strcmp(b, "-") ? false :
	       !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

static int run_inject(struct inject *in_, const char **argv, int argc)
{
	struct inject_opts o = *in_->o;
	struct machine_opts mopts = { .no_symbols = true };
	struct inject in = { .tool = { .read = inject_read, .event = inject_deliver }, .o = in_->o };
	struct data_error err = { 0 };
	struct data_reader *r;
	struct session *session;
	const struct perf_header *h;
	int ret = 0, oerr = 0;

	if (o.strip && !o.itrace) {
		fprintf(stderr, "--strip option requires --itrace option\n");
		return 255;
	}
	if (same_file(o.input, o.output)) {
		fprintf(stderr, "sonde inject: input and output are the same file (%s)\n", o.input);
		return 255;
	}
	if (strcmp(o.input, "-")) {
		struct stat st;

		if (stat(o.input, &st)) {
			fprintf(stderr, "failed to open %s: %s\n", o.input, strerror(errno));
			return 255;
		}
	}
	r = data_open_for_read(o.input, o.force);
	if (!r)
		return 255;
	h = data_reader_header(r);
	if (o.itrace && perf_header_has_feat(h, HEADER_AUXTRACE)) {
		fprintf(stderr, "Instruction trace decoding (--itrace) is not supported by sonde: "
				"this file holds AUX area data\n");
		data_reader_close(r);
		return 255;
	}
	in.in_hdr = h;
	in.tool.ordered = o.build_ids || o.itrace || o.jit || o.sched_stat; /* perf orders then, and only then */
	in.w = data_writer_open(o.output, NULL, &oerr);
	if (!in.w) {
		fprintf(stderr, "failed to create output file %s: %s\n", o.output, strerror(-oerr));
		data_reader_close(r);
		return 255;
	}
	for (int i = 0; i < h->nr_attrs; i++)
		data_writer_add_attr(in.w, &h->attrs[i].attr, h->attrs[i].ids, h->attrs[i].nr_ids,
				     h->attrs[i].name);
	copy_features(&in, argc, argv);
	session = session_new(r, &mopts);
	if (o.sched_stat)
		inject_sched_init(&in.sched, session);
	ret = data_writer_start(in.w);
	if (!ret)
		ret = session_process(session, &in.tool, &err);
	if (!ret && o.jit)
		ret = jit_flush(&in);
	if (ret < 0 && !in.err) {
		data_error_print(data_reader_path(r), &err);
		ret = 255;
		goto out;
	}
	if (in.err) {
		if (in.err != -ENOTSUP)
			fprintf(stderr, "failed to write %s: %s\n", o.output, strerror(-in.err));
		ret = 255;
		goto out;
	}
	/* without -b only the input's vdso entry stays, as perf keeps it */
	add_build_id_feature(&in, &session->machine);
	if (o.buildid_all && !strcmp(o.output, "-"))
		for (int i = 0; i < in.nr_bids && !ret; i++)
			ret = write_build_id_record(in.w, &in.bids[i]);
	if (!ret)
		ret = data_writer_finish(in.w);
	if (ret) {
		fprintf(stderr, "failed to write %s: %s\n", o.output, strerror(-ret));
		ret = 255;
	}
out:
	for (int i = 0; i < in.nr_bids; i++)
		free(in.bids[i].owned_name);
	free(in.bids);
	free(in.loads);
	free(in.load_hit);
	free(in.trailer);
	if (o.sched_stat)
		inject_sched_release(&in.sched);
	data_writer_free(in.w);
	session_free(session);
	return ret;
}

int cmd_inject(int argc, const char **argv)
{
	struct inject_opts o = { .input = "-", .output = "-" };
	const struct opt_spec options[] = {
		SPEC_FLAG("build-ids", 'b', &o.build_ids, "Inject build-ids into the output stream"),
		SPEC_FLAG("buildid-all", 0, &o.buildid_all,
			  "Inject build-ids of all DSOs into the output stream"),
		SPEC_TEXT("input", 'i', &o.input, "file", "input file name"),
		SPEC_TEXT("output", 'o', &o.output, "file", "output file name"),
		SPEC_FLAG("sched-stat", 's', &o.sched_stat,
			  "Merge sched-stat and sched-switch for getting events where and how long tasks slept"),
		SPEC_FLAG("jit", 'j', &o.jit, "merge jitdump files into perf.data file"),
		SPEC_COUNT("verbose", 'v', &o.verbose, "be more verbose (show build ids, etc)"),
		SPEC_TEXT("vmlinux", 'k', &o.vmlinux, "file", "vmlinux pathname"),
		SPEC_FLAG("ignore-vmlinux", 0, &o.ignore_vmlinux, "don't load vmlinux even if found"),
		SPEC_TEXT("kallsyms", 0, &o.kallsyms, "file", "kallsyms pathname"),
		SPEC_FLAG("force", 'f', &o.force, "don't complain, do it"),
		SPEC_TEXT_OPT("itrace", 0, &o.itrace, "opts", itrace_help, ""),
		SPEC_FLAG("strip", 0, &o.strip, "strip non-synthesized events (use with --itrace)"),
		SPEC_REFUSED("known-build-ids", 0, "buildid path [,buildid path...]",
			     "build-ids to use for given paths"),
		{ .name = "guest-data", .kind = OPTK_HANDLER, .traits = OPTT_VALUE_OPTIONAL,
		  .handler = opts_refuse, .label = "opts",
		  .desc = "inject events from a guest perf.data file" },
		SPEC_REFUSED("guestmount", 0, "directory",
			     "guest mount directory under which every guest os instance has a subdir"),
		{ .name = "vm-time-correlation", .kind = OPTK_HANDLER, .traits = OPTT_VALUE_OPTIONAL,
		  .handler = opts_refuse, .label = "opts",
		  .desc = "correlate time between VM guests and the host" },
		SPEC_END(),
	};
	struct inject in = { .o = &o };
	int ret;
	const char **orig_argv = xcalloc(argc + 1, sizeof(*orig_argv));

	memcpy(orig_argv, argv, argc * sizeof(*argv)); /* opts_parse reorders argv */
	if (opts_parse(argc, argv, options, inject_usage, 0) > 0)
		opts_usage_exit(inject_usage, options);
	ret = run_inject(&in, orig_argv, argc);
	free(orig_argv);
	return ret;
}
