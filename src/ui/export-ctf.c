/* SPDX-License-Identifier: MIT */
/* data convert --to-ctf: samples written as a CTF 1.8 trace by libbabeltrace-ctf's writer (dlopen'd). */
#include "ui/export-ctf.h"
#include "ui/header.h"

#include "core/evlist.h"
#include "core/evsel.h"
#include "data/reader.h"
#include "lib/hashmap.h"
#include "lib/xalloc.h"
#include "trace/tep.h"

#include <ctype.h>
#include <dlfcn.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <traceevent/event-parse.h>

/* the writer's objects, opaque here: sonde needs no babeltrace header to build */
struct bt_ctf_writer;
struct bt_ctf_clock;
struct bt_ctf_stream_class;
struct bt_ctf_stream;
struct bt_ctf_event_class;
struct bt_ctf_event;
struct bt_ctf_field_type;
struct bt_ctf_field;

#define CTF_BASE_DECIMAL 10
#define CTF_BASE_HEX 16

/* libbabeltrace-ctf is loaded on first use, so no other command pays for it */
static struct {
	void *handle;
	struct bt_ctf_writer *(*writer_create)(const char *);
	int (*writer_add_env)(struct bt_ctf_writer *, const char *, const char *);
	int (*writer_add_clock)(struct bt_ctf_writer *, struct bt_ctf_clock *);
	struct bt_ctf_stream *(*writer_create_stream)(struct bt_ctf_writer *, struct bt_ctf_stream_class *);
	void (*writer_flush_metadata)(struct bt_ctf_writer *);
	void (*writer_put)(struct bt_ctf_writer *);
	struct bt_ctf_clock *(*clock_create)(const char *);
	int (*clock_set_description)(struct bt_ctf_clock *, const char *);
	int (*clock_set_frequency)(struct bt_ctf_clock *, uint64_t);
	int (*clock_set_precision)(struct bt_ctf_clock *, uint64_t);
	int (*clock_set_offset_s)(struct bt_ctf_clock *, uint64_t);
	int (*clock_set_offset)(struct bt_ctf_clock *, uint64_t);
	int (*clock_set_is_absolute)(struct bt_ctf_clock *, int);
	int (*clock_set_time)(struct bt_ctf_clock *, int64_t);
	void (*clock_put)(struct bt_ctf_clock *);
	struct bt_ctf_stream_class *(*stream_class_create)(const char *);
	int (*stream_class_set_clock)(struct bt_ctf_stream_class *, struct bt_ctf_clock *);
	int (*stream_class_add_event_class)(struct bt_ctf_stream_class *, struct bt_ctf_event_class *);
	struct bt_ctf_field_type *(*stream_class_get_packet_context_type)(struct bt_ctf_stream_class *);
	void (*stream_class_put)(struct bt_ctf_stream_class *);
	struct bt_ctf_field_type *(*type_integer_create)(unsigned int);
	int (*type_integer_set_signed)(struct bt_ctf_field_type *, int);
	int (*type_integer_set_base)(struct bt_ctf_field_type *, int);
	int (*type_set_alignment)(struct bt_ctf_field_type *, unsigned int);
	int (*type_structure_add_field)(struct bt_ctf_field_type *, struct bt_ctf_field_type *, const char *);
	struct bt_ctf_field_type *(*type_sequence_create)(struct bt_ctf_field_type *, const char *);
	struct bt_ctf_field_type *(*type_array_create)(struct bt_ctf_field_type *, unsigned int);
	struct bt_ctf_field_type *(*type_string_create)(void);
	void (*type_put)(struct bt_ctf_field_type *);
	struct bt_ctf_event_class *(*event_class_create)(const char *);
	int (*event_class_add_field)(struct bt_ctf_event_class *, struct bt_ctf_field_type *, const char *);
	void (*event_class_put)(struct bt_ctf_event_class *);
	struct bt_ctf_event *(*event_create)(struct bt_ctf_event_class *);
	struct bt_ctf_field *(*event_get_payload)(struct bt_ctf_event *, const char *);
	void (*event_put)(struct bt_ctf_event *);
	struct bt_ctf_field *(*field_create)(struct bt_ctf_field_type *);
	int (*field_unsigned_set)(struct bt_ctf_field *, uint64_t);
	int (*field_signed_set)(struct bt_ctf_field *, int64_t);
	int (*field_sequence_set_length)(struct bt_ctf_field *, struct bt_ctf_field *);
	struct bt_ctf_field *(*field_sequence_get_field)(struct bt_ctf_field *, uint64_t);
	struct bt_ctf_field *(*field_array_get_field)(struct bt_ctf_field *, uint64_t);
	int (*field_string_set)(struct bt_ctf_field *, const char *);
	struct bt_ctf_field *(*field_structure_get_field)(struct bt_ctf_field *, const char *);
	void (*field_put)(struct bt_ctf_field *);
	struct bt_ctf_field *(*stream_get_packet_context)(struct bt_ctf_stream *);
	int (*stream_append_event)(struct bt_ctf_stream *, struct bt_ctf_event *);
	int (*stream_flush)(struct bt_ctf_stream *);
	void (*stream_put)(struct bt_ctf_stream *);
} bt;

int export_ctf_load(void)
{
	if (bt.handle)
		return 0;
	bt.handle = dlopen("libbabeltrace-ctf.so.1", RTLD_LAZY | RTLD_LOCAL);
	if (!bt.handle)
		return -ENOENT;
#define SYM(field, name)                                        \
	do {                                                    \
		*(void **)&bt.field = dlsym(bt.handle, name);   \
		if (!bt.field)                                  \
			goto missing;                           \
	} while (0)
	SYM(writer_create, "bt_ctf_writer_create");
	SYM(writer_add_env, "bt_ctf_writer_add_environment_field");
	SYM(writer_add_clock, "bt_ctf_writer_add_clock");
	SYM(writer_create_stream, "bt_ctf_writer_create_stream");
	SYM(writer_flush_metadata, "bt_ctf_writer_flush_metadata");
	SYM(writer_put, "bt_ctf_writer_put");
	SYM(clock_create, "bt_ctf_clock_create");
	SYM(clock_set_description, "bt_ctf_clock_set_description");
	SYM(clock_set_frequency, "bt_ctf_clock_set_frequency");
	SYM(clock_set_precision, "bt_ctf_clock_set_precision");
	SYM(clock_set_offset_s, "bt_ctf_clock_set_offset_s");
	SYM(clock_set_offset, "bt_ctf_clock_set_offset");
	SYM(clock_set_is_absolute, "bt_ctf_clock_set_is_absolute");
	SYM(clock_set_time, "bt_ctf_clock_set_time");
	SYM(clock_put, "bt_ctf_clock_put");
	SYM(stream_class_create, "bt_ctf_stream_class_create");
	SYM(stream_class_set_clock, "bt_ctf_stream_class_set_clock");
	SYM(stream_class_add_event_class, "bt_ctf_stream_class_add_event_class");
	SYM(stream_class_get_packet_context_type, "bt_ctf_stream_class_get_packet_context_type");
	SYM(stream_class_put, "bt_ctf_stream_class_put");
	SYM(type_integer_create, "bt_ctf_field_type_integer_create");
	SYM(type_integer_set_signed, "bt_ctf_field_type_integer_set_signed");
	SYM(type_integer_set_base, "bt_ctf_field_type_integer_set_base");
	SYM(type_set_alignment, "bt_ctf_field_type_set_alignment");
	SYM(type_structure_add_field, "bt_ctf_field_type_structure_add_field");
	SYM(type_sequence_create, "bt_ctf_field_type_sequence_create");
	SYM(type_array_create, "bt_ctf_field_type_array_create");
	SYM(type_string_create, "bt_ctf_field_type_string_create");
	SYM(type_put, "bt_ctf_field_type_put");
	SYM(event_class_create, "bt_ctf_event_class_create");
	SYM(event_class_add_field, "bt_ctf_event_class_add_field");
	SYM(event_class_put, "bt_ctf_event_class_put");
	SYM(event_create, "bt_ctf_event_create");
	SYM(event_get_payload, "bt_ctf_event_get_payload");
	SYM(event_put, "bt_ctf_event_put");
	SYM(field_create, "bt_ctf_field_create");
	SYM(field_unsigned_set, "bt_ctf_field_unsigned_integer_set_value");
	SYM(field_signed_set, "bt_ctf_field_signed_integer_set_value");
	SYM(field_sequence_set_length, "bt_ctf_field_sequence_set_length");
	SYM(field_sequence_get_field, "bt_ctf_field_sequence_get_field");
	SYM(field_array_get_field, "bt_ctf_field_array_get_field");
	SYM(field_string_set, "bt_ctf_field_string_set_value");
	SYM(field_structure_get_field, "bt_ctf_field_structure_get_field");
	SYM(field_put, "bt_ctf_field_put");
	SYM(stream_get_packet_context, "bt_ctf_stream_get_packet_context");
	SYM(stream_append_event, "bt_ctf_stream_append_event");
	SYM(stream_flush, "bt_ctf_stream_flush");
	SYM(stream_put, "bt_ctf_stream_put");
#undef SYM
	return 0;
missing:
	dlclose(bt.handle);
	bt.handle = NULL;
	return -ENOSYS;
}

/*
 * the sample fields written as event fields (perf_ip, ...; TIME and CPU go
 * elsewhere), and those perf writes nothing for (seen in its traces: ADDR,
 * READ, registers, user stacks, physical address, page sizes, the weight
 * struct, the cgroup, a non-tracepoint's RAW)
 */
#define CTF_SAMPLE_FIELDS                                                                       \
	(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_CPU | \
	 PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_IDENTIFIER |                    \
	 PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_ADDR | PERF_SAMPLE_READ | PERF_SAMPLE_REGS_USER |      \
	 PERF_SAMPLE_STACK_USER | PERF_SAMPLE_REGS_INTR | PERF_SAMPLE_PHYS_ADDR |                 \
	 PERF_SAMPLE_DATA_PAGE_SIZE | PERF_SAMPLE_CODE_PAGE_SIZE | PERF_SAMPLE_WEIGHT_STRUCT |    \
	 PERF_SAMPLE_CGROUP | PERF_SAMPLE_RAW)

/* how a tracepoint field is written: perf's mapping of the format's fields */
enum tp_kind { TP_INT, TP_ARRAY, TP_STRING };

struct tp_field {
	struct tep_format_field *f; /* owned by the run's tep handle */
	char *name; /* the CTF name: a CTF keyword gets a '_' in front, as perf does */
	enum tp_kind kind;
	bool is_signed;
	unsigned int esize; /* bytes of the number, or of one array element */
};

/* one event class: the writer's object and the tracepoint fields it carries */
struct ctf_class {
	struct bt_ctf_event_class *ec;
	struct tp_field *tf;
	int nr_tf;
};

struct ctfrun {
	struct tool tool; /* first */
	struct bt_ctf_writer *writer;
	struct bt_ctf_clock *clock;
	struct bt_ctf_stream_class *sclass;
	struct bt_ctf_field_type *t_u64, *t_hex, *t_s32, *t_u32;
	struct u64map classes; /* struct evsel * -> struct ctf_class * */
	struct tep_handle *tep; /* the file's tracepoint formats, when it has tracepoints */
	struct strbuf text; /* a string field's value */
	struct u64map streams; /* cpu + 1 -> struct bt_ctf_stream * */
	long nr_samples;
	long nr_others; /* --all: the non-sample records converted */
	/* --all: the side-band classes (COMM, EXIT, FORK, MMAP, MMAP2), by record type */
	struct bt_ctf_event_class *side[PERF_RECORD_MMAP2 + 1];
	u64 bytes; /* of the sample records converted, as perf counts what it wrote */
	int err;
};

/* an integer type as perf declares its fields: byte aligned, @bits wide */
static struct bt_ctf_field_type *int_type(unsigned int bits, bool is_signed, int base)
{
	struct bt_ctf_field_type *t = bt.type_integer_create(bits);

	if (!t)
		return NULL;
	if (bt.type_integer_set_signed(t, is_signed) || bt.type_integer_set_base(t, base) ||
	    bt.type_set_alignment(t, 1)) {
		bt.type_put(t);
		return NULL;
	}
	return t;
}

/* CTF 1.8's reserved words: a field so named is written with a '_' in front */
static const char *const ctf_keywords[] = {
	"align",   "callsite", "const",	  "char",    "clock",	 "double",    "enum",
	"env",	   "event",    "floating_point", "float", "integer", "int", "long",
	"short",   "signed",   "stream",  "string",  "struct",	 "trace",     "typealias",
	"typedef", "unsigned", "variant", "void",    "_Bool",	 "_Complex",  "_Imaginary",
};

static char *ctf_name(const char *name)
{
	for (size_t i = 0; i < sizeof(ctf_keywords) / sizeof(ctf_keywords[0]); i++)
		if (!strcmp(name, ctf_keywords[i]))
			return xasprintf("_%s", name);
	return xstrdup(name);
}

/*
 * @f as perf writes it: text (char and u8 arrays, __data_loc strings) as a
 * string; a number of 1, 2 or 4 bytes as a 32-bit integer, of 8 bytes as a
 * 64-bit one, signed as the format says, hexadecimal for unsigned pointers
 * and longs; a fixed array as an array of such integers. Returns 0, or
 * -EOPNOTSUPP with @msg saying what sonde does not convert.
 */
static int tp_classify(struct tep_format_field *f, struct tp_field *tf, const char *evname,
		       struct strbuf *msg)
{
	memset(tf, 0, sizeof(*tf));
	tf->f = f;
	tf->is_signed = f->flags & TEP_FIELD_IS_SIGNED;
	if (f->flags & TEP_FIELD_IS_STRING) {
		tf->kind = TP_STRING;
	} else if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		strbuf_addf(msg, "--to-ctf: tracepoint field '%s' of '%s' is a dynamic array, "
				 "which sonde does not convert to CTF yet; --to-json converts the file",
			    f->name, evname);
		return -EOPNOTSUPP;
	} else if (f->flags & TEP_FIELD_IS_ARRAY) {
		tf->kind = TP_ARRAY;
		tf->esize = (unsigned int)f->elementsize;
	} else {
		tf->kind = TP_INT;
		tf->esize = (unsigned int)f->size;
	}
	if (tf->kind != TP_STRING && tf->esize != 1 && tf->esize != 2 && tf->esize != 4 &&
	    tf->esize != 8) {
		strbuf_addf(msg, "--to-ctf: tracepoint field '%s' of '%s' has a size (%u bytes) "
				 "sonde does not convert to CTF yet; --to-json converts the file",
			    f->name, evname, tf->esize);
		return -EOPNOTSUPP;
	}
	tf->name = ctf_name(f->name);
	return 0;
}

static struct bt_ctf_field_type *tp_type(const struct tp_field *tf)
{
	struct bt_ctf_field_type *t, *arr;
	int hex = !tf->is_signed && (tf->f->flags & (TEP_FIELD_IS_POINTER | TEP_FIELD_IS_LONG));

	if (tf->kind == TP_STRING)
		return bt.type_string_create();
	t = int_type(tf->esize == 8 ? 64 : 32, tf->is_signed, hex ? CTF_BASE_HEX : CTF_BASE_DECIMAL);
	if (!t || tf->kind == TP_INT)
		return t;
	arr = bt.type_array_create(t, (unsigned int)tf->f->arraylen);
	bt.type_put(t);
	return arr;
}

/* the common_* fields, then the tracepoint's own, after perf's sample fields */
static int tp_add_fields(struct ctfrun *c, struct ctf_class *cc, const struct evsel *evsel,
			 struct strbuf *msg)
{
	struct tep_event *te;
	struct tep_format_field **lists[2];
	int ret = 0;

	if (!c->tep) {
		strbuf_addf(msg, "--to-ctf: the file has no tracepoint formats for '%s'",
			    evsel->name ? evsel->name : "?");
		return -EINVAL;
	}
	te = trace_tep_find_event(c->tep, (int)evsel->attr.config);
	if (!te) {
		strbuf_addf(msg, "--to-ctf: the file has no format for tracepoint '%s'",
			    evsel->name ? evsel->name : "?");
		return -EINVAL;
	}
	lists[0] = tep_event_common_fields(te);
	lists[1] = tep_event_fields(te);
	for (int l = 0; l < 2 && !ret; l++) {
		for (int i = 0; lists[l] && lists[l][i] && !ret; i++) {
			struct bt_ctf_field_type *t;
			struct tp_field *tf;

			cc->tf = xrealloc(cc->tf, sizeof(*cc->tf) * (size_t)(cc->nr_tf + 1));
			tf = &cc->tf[cc->nr_tf];
			ret = tp_classify(lists[l][i], tf, evsel->name ? evsel->name : "?", msg);
			if (ret)
				break;
			cc->nr_tf++;
			t = tp_type(tf);
			if (!t || bt.event_class_add_field(cc->ec, t, tf->name))
				ret = -EIO;
			if (t)
				bt.type_put(t);
		}
	}
	free(lists[0]);
	free(lists[1]);
	return ret;
}

static void class_free(struct ctf_class *cc)
{
	for (int i = 0; i < cc->nr_tf; i++)
		free(cc->tf[i].name);
	free(cc->tf);
	if (cc->ec)
		bt.event_class_put(cc->ec);
	free(cc);
}

static struct ctf_class *event_class_new(struct ctfrun *c, const struct evsel *evsel,
					 struct strbuf *msg, int *err)
{
	u64 st = evsel->attr.sample_type;
	struct ctf_class *cc = xcalloc(1, sizeof(*cc));
	struct bt_ctf_event_class *ec = bt.event_class_create(evsel->name ? evsel->name : "unknown");
	struct bt_ctf_field_type *seq = NULL;
	int bad = !ec;

	cc->ec = ec;
	*err = -EIO;
	if (!bad && (st & PERF_SAMPLE_IP))
		bad |= bt.event_class_add_field(ec, c->t_hex, "perf_ip");
	if (!bad && (st & PERF_SAMPLE_TID)) {
		bad |= bt.event_class_add_field(ec, c->t_s32, "perf_tid");
		bad |= bt.event_class_add_field(ec, c->t_s32, "perf_pid");
	}
	if (!bad && (st & (PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER)))
		bad |= bt.event_class_add_field(ec, c->t_u64, "perf_id");
	if (!bad && (st & PERF_SAMPLE_PERIOD))
		bad |= bt.event_class_add_field(ec, c->t_u64, "perf_period");
	if (!bad && (st & PERF_SAMPLE_DATA_SRC))
		bad |= bt.event_class_add_field(ec, c->t_u64, "perf_data_src");
	if (!bad && (st & PERF_SAMPLE_CALLCHAIN)) {
		bad |= bt.event_class_add_field(ec, c->t_u32, "perf_callchain_size");
		seq = bt.type_sequence_create(c->t_hex, "perf_callchain_size");
		bad |= !seq || bt.event_class_add_field(ec, seq, "perf_callchain");
		if (seq)
			bt.type_put(seq);
	}
	if (!bad && (st & PERF_SAMPLE_RAW) && evsel->attr.type == PERF_TYPE_TRACEPOINT) {
		int ret = tp_add_fields(c, cc, evsel, msg);

		if (ret) {
			*err = ret;
			bad = 1;
		}
	}
	if (!bad)
		bad |= bt.stream_class_add_event_class(c->sclass, ec);
	if (bad) {
		class_free(cc);
		return NULL;
	}
	return cc;
}

static int set_u(struct bt_ctf_event *ev, const char *name, u64 v)
{
	struct bt_ctf_field *f = bt.event_get_payload(ev, name);
	int ret = f ? bt.field_unsigned_set(f, v) : -1;

	if (f)
		bt.field_put(f);
	return ret;
}

static int set_s(struct bt_ctf_event *ev, const char *name, s64 v)
{
	struct bt_ctf_field *f = bt.event_get_payload(ev, name);
	int ret = f ? bt.field_signed_set(f, v) : -1;

	if (f)
		bt.field_put(f);
	return ret;
}

/*
 * event_finish - append @ev (its fields set, unless @bad) to stream @s and
 * drop our reference; nonzero with c->err = -EIO when either failed
 */
static int event_finish(struct ctfrun *c, struct bt_ctf_stream *s, struct bt_ctf_event *ev, int bad)
{
	if (!bad)
		bad |= bt.stream_append_event(s, ev);
	bt.event_put(ev);
	if (bad)
		c->err = -EIO;
	return bad;
}

static int set_callchain(struct ctfrun *c, struct bt_ctf_event *ev, const struct ip_callchain *cc)
{
	u64 nr = cc ? cc->nr : 0;
	struct bt_ctf_field *seq = bt.event_get_payload(ev, "perf_callchain");
	struct bt_ctf_field *len = bt.field_create(c->t_u32);
	int ret = !seq || !len || set_u(ev, "perf_callchain_size", nr) ||
		  bt.field_unsigned_set(len, nr) || bt.field_sequence_set_length(seq, len);

	for (u64 i = 0; !ret && i < nr; i++) {
		struct bt_ctf_field *e = bt.field_sequence_get_field(seq, i);

		ret = !e || bt.field_unsigned_set(e, cc->ips[i]);
		if (e)
			bt.field_put(e);
	}
	if (len)
		bt.field_put(len);
	if (seq)
		bt.field_put(seq);
	return ret;
}

/* the number of @esize bytes at @off of the payload (0 past its end), sign-extended when signed */
static u64 tp_number(struct ctfrun *c, const struct tp_field *tf, const u8 *raw, u32 size, u64 off)
{
	u64 v;

	if (off + tf->esize > size)
		return 0;
	v = tep_read_number(c->tep, raw + off, (int)tf->esize);
	if (tf->is_signed && tf->esize < 8) {
		unsigned int shift = 64 - 8 * tf->esize;

		v = (u64)((s64)(v << shift) >> shift);
	}
	return v;
}

static int tp_set_number(struct bt_ctf_field *f, const struct tp_field *tf, u64 v)
{
	return tf->is_signed ? bt.field_signed_set(f, (s64)v) : bt.field_unsigned_set(f, v);
}

/*
 * the text of a string field (a char array up to its NUL, a __data_loc/__rel_loc
 * string), an unprintable byte written as the four characters \xHH, as perf does
 */
static void tp_string(struct ctfrun *c, const struct tp_field *tf, const u8 *raw, u32 size,
		      struct strbuf *out)
{
	const struct tep_format_field *f = tf->f;
	u64 off = (u64)f->offset, len = (u64)f->size;

	strbuf_reset(out);
	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		u64 loc;

		if ((u64)f->offset + 4 > size)
			return;
		loc = tep_read_number(c->tep, raw + f->offset, 4);
		off = loc & 0xffff;
		len = loc >> 16;
		if (f->flags & TEP_FIELD_IS_RELATIVE)
			off += (u64)f->offset + (u64)f->size;
	}
	if (off >= size)
		return;
	if (off + len > size)
		len = size - off;
	for (u64 i = 0; i < len && raw[off + i]; i++) {
		u8 ch = raw[off + i];

		if (isprint(ch))
			strbuf_addch(out, (char)ch);
		else
			strbuf_addf(out, "\\x%02x", ch);
	}
}

static int tp_set_fields(struct ctfrun *c, const struct ctf_class *cc, struct bt_ctf_event *ev,
			 const struct perf_sample *sample)
{
	const u8 *raw = sample->raw_data;
	u32 size = raw ? sample->raw_size : 0;
	int bad = 0;

	for (int i = 0; i < cc->nr_tf && !bad; i++) {
		const struct tp_field *tf = &cc->tf[i];
		struct bt_ctf_field *f = bt.event_get_payload(ev, tf->name);

		if (!f)
			return -1;
		switch (tf->kind) {
		case TP_INT:
			bad = tp_set_number(f, tf, tp_number(c, tf, raw, size, (u64)tf->f->offset));
			break;
		case TP_ARRAY:
			for (unsigned int j = 0; j < tf->f->arraylen && !bad; j++) {
				struct bt_ctf_field *e = bt.field_array_get_field(f, (u64)j);
				u64 off = (u64)tf->f->offset + (u64)j * tf->esize;

				bad = !e || tp_set_number(e, tf, tp_number(c, tf, raw, size, off));
				if (e)
					bt.field_put(e);
			}
			break;
		case TP_STRING:
			tp_string(c, tf, raw, size, &c->text);
			bad = bt.field_string_set(f, c->text.len ? c->text.buf : "");
			break;
		}
		bt.field_put(f);
	}
	return bad;
}

/* the stream of @cpu, made on first use with cpu_id in its packet context */
static struct bt_ctf_stream *stream_of(struct ctfrun *c, u32 cpu)
{
	struct bt_ctf_stream *s = u64map_find(&c->streams, (u64)cpu + 1);
	struct bt_ctf_field *ctx, *f;

	if (s)
		return s;
	s = bt.writer_create_stream(c->writer, c->sclass);
	if (!s)
		return NULL;
	ctx = bt.stream_get_packet_context(s);
	f = ctx ? bt.field_structure_get_field(ctx, "cpu_id") : NULL;
	if (!f || bt.field_unsigned_set(f, cpu)) {
		if (f)
			bt.field_put(f);
		if (ctx)
			bt.field_put(ctx);
		bt.stream_put(s);
		return NULL;
	}
	bt.field_put(f);
	bt.field_put(ctx);
	u64map_set(&c->streams, (u64)cpu + 1, s);
	return s;
}

static int on_sample(struct tool *tool, struct session *session, const union perf_event *event,
		     const struct perf_sample *sample, struct evsel *evsel)
{
	struct ctfrun *c = (struct ctfrun *)tool;
	struct ctf_class *cc = u64map_find(&c->classes, (u64)(uintptr_t)evsel);
	u64 st = evsel->attr.sample_type;
	struct bt_ctf_stream *s;
	struct bt_ctf_event *ev;
	int bad = 0;

	(void)session;
	if (!cc)
		return 0;
	c->bytes += event->header.size;
	s = stream_of(c, (st & PERF_SAMPLE_CPU) ? sample->cpu : 0);
	ev = s ? bt.event_create(cc->ec) : NULL;
	if (!ev) {
		c->err = -EIO;
		return c->err;
	}
	bt.clock_set_time(c->clock, (int64_t)sample->time);
	if (st & PERF_SAMPLE_IP)
		bad |= set_u(ev, "perf_ip", sample->ip);
	if (st & PERF_SAMPLE_TID) {
		bad |= set_s(ev, "perf_tid", (s32)sample->tid);
		bad |= set_s(ev, "perf_pid", (s32)sample->pid);
	}
	if (st & (PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER))
		bad |= set_u(ev, "perf_id", sample->id);
	if (st & PERF_SAMPLE_PERIOD)
		bad |= set_u(ev, "perf_period", sample->period);
	if (st & PERF_SAMPLE_DATA_SRC)
		bad |= set_u(ev, "perf_data_src", sample->data_src);
	if (st & PERF_SAMPLE_CALLCHAIN)
		bad |= set_callchain(c, ev, sample->callchain);
	if (!bad && cc->tf)
		bad |= tp_set_fields(c, cc, ev, sample);
	if (event_finish(c, s, ev, bad))
		return c->err;
	/* bound the writer's memory: a packet every 64k events of a stream */
	if (++c->nr_samples % 65536 == 0)
		bt.stream_flush(s);
	return 0;
}

/* the side-band record types --all converts, as perf names and registers them */
static const struct {
	u32 type;
	const char *name;
} side_events[] = {
	{ PERF_RECORD_COMM, "perf_comm" }, { PERF_RECORD_EXIT, "perf_exit" },
	{ PERF_RECORD_FORK, "perf_fork" }, { PERF_RECORD_MMAP, "perf_mmap" },
	{ PERF_RECORD_MMAP2, "perf_mmap2" },
};

/* perf's side-band event classes: pid, tid (, ppid, ptid, time; start, filename; comm) */
static int side_classes(struct ctfrun *c)
{
	for (size_t i = 0; i < sizeof(side_events) / sizeof(side_events[0]); i++) {
		u32 type = side_events[i].type;
		struct bt_ctf_event_class *ec = bt.event_class_create(side_events[i].name);
		struct bt_ctf_field_type *str = NULL;
		int bad = !ec;

		if (!bad)
			bad |= bt.event_class_add_field(ec, c->t_u32, "pid");
		if (!bad && (type == PERF_RECORD_FORK || type == PERF_RECORD_EXIT)) {
			bad |= bt.event_class_add_field(ec, c->t_u32, "ppid");
			bad |= bt.event_class_add_field(ec, c->t_u32, "tid");
			bad |= bt.event_class_add_field(ec, c->t_u32, "ptid");
			bad |= bt.event_class_add_field(ec, c->t_u64, "time");
		} else if (!bad) {
			bad |= bt.event_class_add_field(ec, c->t_u32, "tid");
			if (type != PERF_RECORD_COMM)
				bad |= bt.event_class_add_field(ec, c->t_hex, "start");
			str = bt.type_string_create();
			bad |= !str || bt.event_class_add_field(ec, str, type == PERF_RECORD_COMM ?
									 "comm" : "filename");
			if (str)
				bt.type_put(str);
		}
		if (!bad)
			bad |= bt.stream_class_add_event_class(c->sclass, ec);
		if (ec && bad) {
			bt.event_class_put(ec);
			return -EIO;
		}
		c->side[type] = ec;
	}
	return 0;
}

static int set_str(struct bt_ctf_event *ev, const char *name, const char *v)
{
	struct bt_ctf_field *f = bt.event_get_payload(ev, name);
	int ret = f ? bt.field_string_set(f, v) : -1;

	if (f)
		bt.field_put(f);
	return ret;
}

/* --all: a COMM, EXIT, FORK, MMAP or MMAP2 record as perf's event of that name, in cpu 0's stream */
static int on_other(struct tool *tool, struct session *session, const union perf_event *event,
		    const struct perf_sample *sample)
{
	struct ctfrun *c = (struct ctfrun *)tool;
	u32 type = event->header.type;
	struct bt_ctf_event_class *ec = type <= PERF_RECORD_MMAP2 ? c->side[type] : NULL;
	struct bt_ctf_stream *s;
	struct bt_ctf_event *ev;
	const char *text;
	size_t room;
	int bad = 0;

	(void)session;
	if (!ec)
		return 0;
	s = stream_of(c, 0);
	ev = s ? bt.event_create(ec) : NULL;
	if (!ev) {
		c->err = -EIO;
		return c->err;
	}
	c->bytes += event->header.size;
	bt.clock_set_time(c->clock, (int64_t)(sample ? sample->time : 0));
	switch (type) {
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		bad |= set_u(ev, "pid", event->fork.pid) | set_u(ev, "ppid", event->fork.ppid) |
		       set_u(ev, "tid", event->fork.tid) | set_u(ev, "ptid", event->fork.ptid) |
		       set_u(ev, "time", event->fork.time);
		break;
	case PERF_RECORD_COMM:
		text = event->comm.comm;
		room = event->header.size - offsetof(struct perf_record_comm, comm);
		bad |= set_u(ev, "pid", event->comm.pid) | set_u(ev, "tid", event->comm.tid);
		strbuf_reset(&c->text);
		strbuf_add(&c->text, text, strnlen(text, room));
		bad |= set_str(ev, "comm", c->text.buf);
		break;
	default: /* MMAP, MMAP2: the same leading fields */
		if (type == PERF_RECORD_MMAP) {
			text = event->mmap.filename;
			room = event->header.size - offsetof(struct perf_record_mmap, filename);
		} else {
			text = event->mmap2.filename;
			room = event->header.size - offsetof(struct perf_record_mmap2, filename);
		}
		bad |= set_u(ev, "pid", event->mmap.pid) | set_u(ev, "tid", event->mmap.tid) |
		       set_u(ev, "start", event->mmap.start);
		strbuf_reset(&c->text);
		strbuf_add(&c->text, text, strnlen(text, room));
		bad |= set_str(ev, "filename", c->text.buf);
		break;
	}
	if (event_finish(c, s, ev, bad))
		return c->err;
	c->nr_others++;
	return 0;
}

static int flush_stream(uint64_t key, void *val, void *arg)
{
	struct ctfrun *c = arg;

	(void)key;
	if (bt.stream_flush(val))
		c->err = -EIO;
	bt.stream_put(val);
	return 0;
}

static int put_class(uint64_t key, void *val, void *arg)
{
	(void)key;
	(void)arg;
	class_free(val);
	return 0;
}

/* the trace's env block, as perf writes it */
static int add_env(struct ctfrun *c, const struct perf_header *h)
{
	struct utsname u;
	const char *sysname = "Linux";
	int bad = 0;

	if (!uname(&u))
		sysname = u.sysname;
	if (h->hostname)
		bad |= bt.writer_add_env(c->writer, "host", h->hostname);
	bad |= bt.writer_add_env(c->writer, "sysname", sysname);
	if (h->os_release)
		bad |= bt.writer_add_env(c->writer, "release", h->os_release);
	if (h->version)
		bad |= bt.writer_add_env(c->writer, "version", h->version);
	if (h->arch)
		bad |= bt.writer_add_env(c->writer, "machine", h->arch);
	bad |= bt.writer_add_env(c->writer, "domain", "kernel");
	bad |= bt.writer_add_env(c->writer, "tracer_name", "perf");
	return bad ? -EIO : 0;
}

/*
 * the clock (with --tod: named after the clockid and offset by the wall
 * time CLOCK_DATA pairs with it), the stream class with cpu_id in its
 * packet context, the integer types
 */
static int setup(struct ctfrun *c, const struct perf_header *h, bool tod, struct strbuf *msg)
{
	struct bt_ctf_field_type *ctx;
	const char *desc = "perf clock";
	u64 offset = 0;
	int bad;

	if (tod) {
		desc = header_clockid_name(h->clock_data.clockid); /* --tod: perf names the clockid */
		offset = h->clock_data.wall_ns - h->clock_data.clockid_ns;
	}
	c->clock = bt.clock_create("perf_clock");
	if (!c->clock)
		return -EIO;
	bad = bt.clock_set_description(c->clock, desc) ||
	      bt.clock_set_frequency(c->clock, 1000000000) || bt.clock_set_precision(c->clock, 10) ||
	      bt.clock_set_offset_s(c->clock, 0) || bt.clock_set_offset(c->clock, offset) ||
	      bt.clock_set_is_absolute(c->clock, 0) || bt.writer_add_clock(c->writer, c->clock);
	c->sclass = bad ? NULL : bt.stream_class_create("perf_stream");
	if (!c->sclass || bt.stream_class_set_clock(c->sclass, c->clock))
		return -EIO;
	c->t_u64 = int_type(64, false, CTF_BASE_DECIMAL);
	c->t_hex = int_type(64, false, CTF_BASE_HEX);
	c->t_s32 = int_type(32, true, CTF_BASE_DECIMAL);
	c->t_u32 = int_type(32, false, CTF_BASE_DECIMAL);
	if (!c->t_u64 || !c->t_hex || !c->t_s32 || !c->t_u32)
		return -EIO;
	ctx = bt.stream_class_get_packet_context_type(c->sclass);
	bad = !ctx || bt.type_structure_add_field(ctx, c->t_u32, "cpu_id");
	if (ctx)
		bt.type_put(ctx);
	if (bad)
		strbuf_addstr(msg, "CTF: cannot add cpu_id to the packet context");
	return bad ? -EIO : 0;
}

/* the tracepoint formats of the file (its TRACING_DATA), when an event samples a tracepoint's payload */
static struct tep_handle *tracepoint_formats(struct session *session, struct strbuf *msg, long *ret)
{
	const struct perf_header *h = data_reader_header(session->reader);
	struct tep_handle *tep = NULL;
	struct evsel *evsel;
	bool need = false;

	*ret = 0;
	evlist_for_each_entry(session->evlist, evsel)
		need |= evsel->attr.type == PERF_TYPE_TRACEPOINT &&
			(evsel->attr.sample_type & PERF_SAMPLE_RAW);
	if (!need || !h->tracing_data)
		return NULL;
	if (trace_tep_from_data(h->tracing_data, h->tracing_data_size, &tep)) {
		strbuf_addstr(msg, "--to-ctf: the file's tracepoint formats (TRACING_DATA) are malformed");
		*ret = -EINVAL;
		return NULL;
	}
	return tep;
}

long export_ctf(struct session *session, const char *path, bool all, bool tod,
		struct data_error *err, struct strbuf *msg, u64 *bytes, long *nr_others)
{
	struct ctfrun c;
	struct evsel *evsel;
	int err_class = 0;
	long ret = 0;

	memset(&c, 0, sizeof(c));
	strbuf_init(&c.text, 0);
	if (export_ctf_load()) {
		strbuf_addstr(msg, "libbabeltrace-ctf.so.1 could not be loaded (install libbabeltrace1)");
		return -ENOSYS;
	}
	evlist_for_each_entry(session->evlist, evsel) {
		u64 extra = evsel->attr.sample_type & ~(u64)CTF_SAMPLE_FIELDS;


		if (extra) {
			strbuf_addf(msg, "--to-ctf: event '%s' has sample fields sonde does not convert "
					 "to CTF yet (sample_type 0x%llx); --to-json converts them",
				    evsel->name ? evsel->name : "?", (unsigned long long)extra);
			return -EOPNOTSUPP;
		}
	}
	c.tep = tracepoint_formats(session, msg, &ret);
	if (ret)
		return ret;
	c.writer = bt.writer_create(path);
	if (!c.writer) {
		strbuf_addf(msg, "CTF: cannot create a trace in %s", path);
		trace_tep_free(c.tep);
		return -EIO;
	}
	if (tod && !perf_header_has_feat(data_reader_header(session->reader), HEADER_CLOCK_DATA)) {
		/* perf's words; its writer, made already, leaves a bare metadata file */
		strbuf_addstr(msg, "Can't provide --tod time, missing clock data. Please record "
				   "with -k/--clockid option.\nFailed to setup CTF writer.\n"
				   "Error during conversion setup.");
		bt.writer_put(c.writer);
		trace_tep_free(c.tep);
		return -EINVAL;
	}
	u64map_init(&c.classes);
	u64map_init(&c.streams);
	c.tool.sample = on_sample;
	c.tool.ordered = true;
	ret = add_env(&c, data_reader_header(session->reader));
	if (!ret)
		ret = setup(&c, data_reader_header(session->reader), tod, msg);
	evlist_for_each_entry(session->evlist, evsel) {
		struct ctf_class *cc = ret ? NULL : event_class_new(&c, evsel, msg, &err_class);

		if (!ret && !cc)
			ret = err_class;
		if (cc)
			u64map_set(&c.classes, (u64)(uintptr_t)evsel, cc);
	}
	if (!ret && all) {
		c.tool.other = on_other;
		ret = side_classes(&c);
	}
	if (!ret)
		ret = session_process(session, &c.tool, err);
	u64map_for_each(&c.streams, flush_stream, &c);
	if (ret >= 0)
		bt.writer_flush_metadata(c.writer);
	if (ret >= 0 && c.err)
		ret = c.err;
	if (ret == -EIO && !msg->len)
		strbuf_addstr(msg, "CTF: the babeltrace writer failed");
	u64map_for_each(&c.classes, put_class, NULL);
	for (size_t i = 0; i < sizeof(c.side) / sizeof(c.side[0]); i++)
		if (c.side[i])
			bt.event_class_put(c.side[i]);
	u64map_release(&c.classes);
	u64map_release(&c.streams);
	if (c.t_u64)
		bt.type_put(c.t_u64);
	if (c.t_hex)
		bt.type_put(c.t_hex);
	if (c.t_s32)
		bt.type_put(c.t_s32);
	if (c.t_u32)
		bt.type_put(c.t_u32);
	if (c.sclass)
		bt.stream_class_put(c.sclass);
	if (c.clock)
		bt.clock_put(c.clock);
	bt.writer_put(c.writer);
	trace_tep_free(c.tep);
	strbuf_release(&c.text);
	*bytes = c.bytes;
	*nr_others = c.nr_others;
	return ret < 0 ? ret : c.nr_samples;
}
