/* SPDX-License-Identifier: MIT */
/* libtraceevent handles from TRACING_DATA blobs or tracefs, payload formatting, field access. */
#define PR_PREFIX "tep"
#include "trace/tep.h"

#include "lib/debug.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <errno.h>
#include <stdio.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>
#include <unistd.h>

/* TRACING_DATA magic: 0x17 0x08 0x44 then "tracing" */
static const unsigned char tracing_magic[10] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };

/* a bounds-checked cursor over the blob; numbers in the blob's byte order */
struct blob {
	const unsigned char *p, *end;
	bool swap;
	bool bad;
};

static bool blob_take(struct blob *b, size_t n, const unsigned char **out)
{
	if (b->bad || (size_t)(b->end - b->p) < n) {
		b->bad = true;
		return false;
	}
	*out = b->p;
	b->p += n;
	return true;
}

static u64 blob_num(struct blob *b, size_t n)
{
	const unsigned char *q;
	u64 v = 0;
	size_t i;

	if (!blob_take(b, n, &q))
		return 0;
	for (i = 0; i < n; i++) {
		/* file little-endian unless swap says the file is the other order */
		size_t k = b->swap ? n - 1 - i : i;
		v |= (u64)q[k] << (8 * i);
	}
	return v;
}

/* a NUL-terminated string in the blob; NULL when none before the end */
static const char *blob_str(struct blob *b)
{
	const unsigned char *nul;

	if (b->bad)
		return NULL;
	nul = memchr(b->p, 0, b->end - b->p);
	if (!nul) {
		b->bad = true;
		return NULL;
	}
	const char *s = (const char *)b->p;
	b->p = nul + 1;
	return s;
}

/* the next @n bytes as an owned NUL-terminated copy, or NULL when truncated */
static char *blob_text(struct blob *b, u64 n)
{
	const unsigned char *q;

	if (n > (u64)(b->end - b->p)) {
		b->bad = true;
		return NULL;
	}
	if (!blob_take(b, n, &q))
		return NULL;
	char *t = xmalloc(n + 1);
	memcpy(t, q, n);
	t[n] = 0;
	return t;
}

/* printk_line_ok - one line of the printk block: 0xADDR : "TEXT" */
static bool printk_line_ok(const char *l, size_t len)
{
	size_t i = 0;

	while (i < len && l[i] == ' ')
		i++;
	if (i + 2 > len || l[i] != '0' || (l[i + 1] != 'x' && l[i + 1] != 'X'))
		return false;
	i += 2;
	if (i >= len || !isxdigit((unsigned char)l[i]))
		return false;
	while (i < len && isxdigit((unsigned char)l[i]))
		i++;
	while (i < len && l[i] == ' ')
		i++;
	if (i >= len || l[i++] != ':')
		return false;
	while (i < len && l[i] == ' ')
		i++;
	if (i >= len || l[i++] != '"')
		return false;
	while (len > i && l[len - 1] == ' ')
		len--;
	return len > i && l[len - 1] == '"';
}

/*
 * keep_printk_lines - drop, in place, every line of the printk block that is
 * not "0xADDR : \"TEXT\"": libtraceevent's parser reads past the end of its
 * input on such damaged lines (found by fuzzing).
 */
static void keep_printk_lines(char *text)
{
	char *out = text, *l = text;

	while (*l) {
		char *nl = strchr(l, '\n');
		size_t len = nl ? (size_t)(nl - l) : strlen(l);

		if (printk_line_ok(l, len)) {
			memmove(out, l, len);
			out += len;
			*out++ = '\n';
		}
		l += len + (nl ? 1 : 0);
	}
	*out = 0;
}

static void parse_one_format(struct tep_handle *tep, struct blob *b, const char *sys)
{
	u64 n = blob_num(b, 8);
	char *text = blob_text(b, n);

	if (!text)
		return;
	if (tep_parse_event(tep, text, n, sys))
		pr_debug("cannot parse an event format of system %s\n", sys);
	free(text);
}

static bool host_is_big_endian(void)
{
	const u16 one = 1;
	return *(const u8 *)&one == 0;
}

int trace_tep_from_data(const void *data, size_t size, struct tep_handle **out)
{
	struct blob b = { data, (const unsigned char *)data + size, false, false };
	const unsigned char *magic, *q;
	struct tep_handle *tep;
	const char *version;
	u32 i, j, nr;
	int file_be, long_size;
	char *text;
	u64 n;

	*out = NULL;
	if (!data || !blob_take(&b, sizeof(tracing_magic), &magic) ||
	    memcmp(magic, tracing_magic, sizeof(tracing_magic)))
		return -EINVAL;
	version = blob_str(&b);
	if (!version || !blob_take(&b, 2, &q))
		return -EINVAL;
	file_be = q[0];
	long_size = q[1];
	if (long_size != 4 && long_size != 8)
		return -EINVAL;
	/* blob numbers are in the recording host's order; blob_num decodes either */
	b.swap = file_be != 0;

	tep = tep_alloc();
	if (!tep)
		die("out of memory");
	tep_set_file_bigendian(tep, file_be ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, host_is_big_endian() ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_long_size(tep, long_size);
	tep_set_page_size(tep, (int)blob_num(&b, 4));

	/* header_page */
	if (!blob_str(&b))
		goto bad;
	n = blob_num(&b, 8);
	text = blob_text(&b, n);
	if (!text)
		goto bad;
	if (tep_parse_header_page(tep, text, n, long_size))
		pr_debug("cannot parse header_page\n");
	free(text);

	/* header_event: libtraceevent derives it, skip */
	if (!blob_str(&b))
		goto bad;
	n = blob_num(&b, 8);
	if (n > (u64)(b.end - b.p))
		goto bad;
	b.p += n;

	nr = (u32)blob_num(&b, 4);
	for (i = 0; i < nr && !b.bad; i++)
		parse_one_format(tep, &b, "ftrace");

	nr = (u32)blob_num(&b, 4);
	for (i = 0; i < nr && !b.bad; i++) {
		const char *sys = blob_str(&b);
		u32 count;

		if (!sys)
			goto bad;
		count = (u32)blob_num(&b, 4);
		for (j = 0; j < count && !b.bad; j++)
			parse_one_format(tep, &b, sys);
	}
	if (b.bad)
		goto bad;

	/* the rest is optional in practice: stop quietly on a short blob */
	if (b.end - b.p >= 4) {
		n = blob_num(&b, 4);
		text = blob_text(&b, n);
		if (text && n && tep_parse_kallsyms(tep, text))
			pr_debug("cannot parse kallsyms\n");
		free(text);
	}
	if (!b.bad && b.end - b.p >= 4) {
		n = blob_num(&b, 4);
		text = blob_text(&b, n);
		if (text)
			keep_printk_lines(text);
		if (text && *text && tep_parse_printk_formats(tep, text))
			pr_debug("cannot parse printk formats\n");
		free(text);
	}
	if (!b.bad && strcmp(version, "0.5") && b.end - b.p >= 8) {
		n = blob_num(&b, 8);
		text = blob_text(&b, n);
		if (text && n && tep_parse_saved_cmdlines(tep, text))
			pr_debug("cannot parse saved_cmdlines\n");
		free(text);
	}
	*out = tep;
	return 0;
bad:
	tep_free(tep);
	return -EINVAL;
}

const char *trace_tep_tracefs_root(void)
{
	static const char *const roots[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	struct stat st;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(roots); i++) {
		char path[64];

		snprintf(path, sizeof(path), "%s/events", roots[i]);
		if (!stat(path, &st) && S_ISDIR(st.st_mode))
			return roots[i];
	}
	return NULL;
}

int trace_tep_from_tracefs(struct tep_handle **out)
{
	const char *root = trace_tep_tracefs_root();
	struct strbuf sb = STRBUF_INIT;
	struct tep_handle *tep;
	char *path;
	long n;

	*out = NULL;
	if (!root)
		return -ENOENT;
	tep = tep_alloc();
	if (!tep)
		die("out of memory");
	tep_set_file_bigendian(tep, host_is_big_endian() ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, host_is_big_endian() ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_long_size(tep, sizeof(long));
	tep_set_page_size(tep, (int)sysconf(_SC_PAGESIZE));
	path = xasprintf("%s/events/header_page", root);
	n = strbuf_read_file(&sb, path, 4096);
	free(path);
	if (n > 0 && tep_parse_header_page(tep, sb.buf, sb.len, sizeof(long)))
		pr_debug("cannot parse header_page\n");
	strbuf_release(&sb);
	*out = tep;
	return 0;
}

struct tep_event *trace_tep_load_event(struct tep_handle *tep, const char *sys, const char *name)
{
	const char *root = trace_tep_tracefs_root();
	struct strbuf sb = STRBUF_INIT;
	struct tep_event *ev;
	char *path;
	long n;

	ev = tep_find_event_by_name(tep, sys, name);
	if (ev)
		return ev;
	if (!root) {
		errno = ENOENT;
		return NULL;
	}
	path = xasprintf("%s/events/%s/%s/format", root, sys, name);
	n = strbuf_read_file(&sb, path, 4096);
	free(path);
	if (n < 0) {
		strbuf_release(&sb);
		errno = (int)-n;
		return NULL;
	}
	if (tep_parse_event(tep, sb.buf, sb.len, sys)) {
		strbuf_release(&sb);
		errno = EINVAL;
		return NULL;
	}
	strbuf_release(&sb);
	return tep_find_event_by_name(tep, sys, name);
}

void trace_tep_free(struct tep_handle *tep)
{
	if (tep)
		tep_free(tep);
}

struct tep_event *trace_tep_find_event(struct tep_handle *tep, int id)
{
	return tep ? tep_find_event(tep, id) : NULL;
}

/*
 * payload_is_sane - libtraceevent reads fields without checking the record
 * size: true when every field (and every dynamic array it points to) lies
 * inside the @size bytes of @raw.
 */
static bool payload_is_sane(struct tep_event *event, const unsigned char *raw, u32 size)
{
	struct tep_format_field *lists[2] = { event->format.common_fields, event->format.fields };

	for (int l = 0; l < 2; l++) {
		for (struct tep_format_field *f = lists[l]; f; f = f->next) {
			if ((u64)f->offset + f->size > size)
				return false;
			if (f->flags & TEP_FIELD_IS_DYNAMIC) {
				unsigned long long loc;
				u64 off;

				if (f->size != 4 || tep_read_number_field(f, raw, &loc))
					return false;
				off = loc & 0xffff;
				if (f->flags & TEP_FIELD_IS_RELATIVE)
					off += (u64)f->offset + f->size;
				if (off + ((loc >> 16) & 0xffff) > size)
					return false;
			}
		}
	}
	return true;
}

void trace_tep_format(struct tep_event *event, const void *raw, u32 size, int cpu, u64 time,
		      struct strbuf *out)
{
	struct tep_record rec;
	struct trace_seq s;
	void *copy = NULL;

	if (!event || !raw)
		return;
	if (!payload_is_sane(event, raw, size)) {
		/*
		 * A corrupt record: format a zero-padded copy big enough for any
		 * 16-bit offset and length, so nothing is read out of bounds.
		 */
		copy = xcalloc(1, 2 * 65536 + (size_t)size);
		memcpy(copy, raw, size);
		raw = copy;
	}
	memset(&rec, 0, sizeof(rec));
	rec.ts = time;
	rec.cpu = cpu;
	rec.size = (int)size;
	rec.record_size = (int)size;
	rec.data = (void *)raw;
	trace_seq_init(&s);
	tep_print_event(event->tep, &s, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&s);
	if (s.state == TRACE_SEQ__GOOD)
		strbuf_add(out, s.buffer, s.len);
	trace_seq_destroy(&s);
	free(copy);
}

static struct tep_format_field *find_field(struct tep_event *event, const void *raw, u32 size,
					    const char *name, int *err)
{
	struct tep_format_field *f;

	*err = 0;
	f = event ? tep_find_any_field(event, name) : NULL;
	if (!f) {
		*err = -ENOENT;
		return NULL;
	}
	if (!raw || (u64)f->offset + f->size > size) {
		*err = -EINVAL;
		return NULL;
	}
	return f;
}

int trace_tep_field_u64(struct tep_event *event, const void *raw, u32 size, const char *name,
			u64 *val)
{
	struct tep_format_field *f;
	unsigned long long v;
	int err;

	f = find_field(event, raw, size, name, &err);
	if (!f)
		return err;
	if (f->size != 1 && f->size != 2 && f->size != 4 && f->size != 8)
		return -EINVAL;
	if (tep_read_number_field(f, raw, &v))
		return -EINVAL;
	if ((f->flags & TEP_FIELD_IS_SIGNED) && f->size < 8) {
		unsigned shift = 64 - 8 * f->size;
		v = (unsigned long long)((long long)(v << shift) >> shift);
	}
	*val = v;
	return 0;
}

int trace_tep_field_str(struct tep_event *event, const void *raw, u32 size, const char *name,
			const char **str, size_t *len)
{
	struct tep_format_field *f;
	const char *p;
	u64 off, n;
	int err;

	f = find_field(event, raw, size, name, &err);
	if (!f)
		return err;
	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		unsigned long long loc;

		if (f->size != 4 || tep_read_number_field(f, raw, &loc))
			return -EINVAL;
		off = loc & 0xffff;
		n = (loc >> 16) & 0xffff;
		if (f->flags & TEP_FIELD_IS_RELATIVE)
			off += f->offset + f->size;
	} else {
		off = f->offset;
		n = f->size;
	}
	if (off + n > size)
		return -EINVAL;
	p = (const char *)raw + off;
	*str = p;
	*len = strnlen(p, n);
	return 0;
}

static char *resolver_call(void *priv, unsigned long long *addrp, char **modp)
{
	struct trace_tep_resolver *res = priv;
	u64 start = 0;
	const char *name = res->fn(res->priv, *addrp, &start);

	if (!name)
		return NULL;
	*addrp = start;
	if (modp)
		*modp = NULL;
	/* libtraceevent does not free what the resolver returns */
	return (char *)name;
}

void trace_tep_set_resolver(struct tep_handle *tep, struct trace_tep_resolver *res)
{
	if (!tep)
		return;
	if (!res || !res->fn)
		tep_reset_function_resolver(tep);
	else
		tep_set_function_resolver(tep, resolver_call, res);
}

const char *trace_tep_event_name(struct tep_event *event, char *buf, size_t len)
{
	snprintf(buf, len, "%s:%s", event->system ? event->system : "", event->name ? event->name : "");
	return buf;
}

/* own_field - the @i-th field of @event after the common ones, or NULL */
static struct tep_format_field *own_field(struct tep_event *event, int i)
{
	struct tep_format_field *f = event ? event->format.fields : NULL;

	while (f && i-- > 0)
		f = f->next;
	return f;
}

int trace_tep_nr_fields(struct tep_event *event)
{
	return event ? event->format.nr_fields : 0;
}

const char *trace_tep_field_name(struct tep_event *event, int i)
{
	struct tep_format_field *f = own_field(event, i);

	return f ? f->name : "";
}

int trace_tep_field_width(struct tep_event *event, int i)
{
	struct tep_format_field *f = own_field(event, i);

	if (!f || (f->flags & TEP_FIELD_IS_DYNAMIC))
		return 0;
	/* a char array holds its text; a number room for its hex digits and "0x" */
	if ((f->flags & TEP_FIELD_IS_ARRAY) && (f->flags & TEP_FIELD_IS_STRING))
		return f->size;
	return f->size * 2 + 2;
}

/* field_bytes - where field @f's value is in @raw (the text of a dynamic one); false when outside */
static bool field_bytes(struct tep_format_field *f, const void *raw, u32 size,
			const unsigned char **p, u32 *n)
{
	u64 off = f->offset, len = f->size;

	if (!raw || off + len > size)
		return false;
	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		unsigned long long loc;

		if (f->size != 4 || tep_read_number_field(f, raw, &loc))
			return false;
		off = loc & 0xffff;
		len = (loc >> 16) & 0xffff;
		if (f->flags & TEP_FIELD_IS_RELATIVE)
			off += f->offset + f->size;
		if (off + len > size)
			return false;
	}
	*p = (const unsigned char *)raw + off;
	*n = (u32)len;
	return true;
}

void trace_tep_fields_key(struct tep_event *event, const void *raw, u32 size, struct strbuf *out)
{
	static const char hex[] = "0123456789abcdef";

	for (struct tep_format_field *f = event ? event->format.fields : NULL; f; f = f->next) {
		const unsigned char *p;
		u32 n = 0;

		if (!field_bytes(f, raw, size, &p, &n))
			n = 0;
		for (u32 k = 0; k < n; k++) {
			strbuf_addch(out, hex[p[k] >> 4]);
			strbuf_addch(out, hex[p[k] & 15]);
		}
		/* below every digit: a shorter value that starts the same sorts first */
		strbuf_addch(out, ' ');
	}
}

void trace_tep_field_raw(struct tep_event *event, int i, const void *raw, u32 size,
			 struct strbuf *out)
{
	struct tep_format_field *f = own_field(event, i);
	const unsigned char *p;
	unsigned long long v;
	struct trace_seq s;
	u32 n;

	if (!f || !raw || (u64)f->offset + f->size > size)
		return;
	/* text as text, pointers in hex, other numbers in decimal (perf's raw values) */
	if ((f->flags & TEP_FIELD_IS_STRING) && field_bytes(f, raw, size, &p, &n)) {
		strbuf_add(out, p, strnlen((const char *)p, n));
		return;
	}
	if (!(f->flags & TEP_FIELD_IS_ARRAY) &&
	    (f->size == 1 || f->size == 2 || f->size == 4 || f->size == 8) &&
	    !tep_read_number_field(f, raw, &v)) {
		if ((f->flags & TEP_FIELD_IS_POINTER) ||
		    ((f->flags & TEP_FIELD_IS_LONG) && !(f->flags & TEP_FIELD_IS_SIGNED))) {
			strbuf_addf(out, "0x%llx", v);
		} else if ((f->flags & TEP_FIELD_IS_SIGNED)) {
			unsigned shift = 64 - 8 * f->size;

			strbuf_addf(out, "%lld", (long long)(v << shift) >> shift);
		} else {
			strbuf_addf(out, "%llu", v);
		}
		return;
	}
	trace_seq_init(&s);
	tep_print_field_content(&s, (void *)raw, (int)size, f);
	trace_seq_terminate(&s);
	if (s.buffer)
		strbuf_add(out, s.buffer, s.len);
	trace_seq_destroy(&s);
}

int trace_tep_field_dynlen(struct tep_event *event, int i, const void *raw, u32 size)
{
	struct tep_format_field *f = own_field(event, i);
	const unsigned char *p;
	u32 n;

	if (!f || !(f->flags & TEP_FIELD_IS_DYNAMIC) || !field_bytes(f, raw, size, &p, &n))
		return -1;
	return (int)n;
}

bool trace_tep_field_is_string(struct tep_event *event, int i)
{
	struct tep_format_field *f = own_field(event, i);

	return f && (f->flags & TEP_FIELD_IS_STRING);
}
