/* SPDX-License-Identifier: MIT */
/* perf report -D: raw hex dumps and decoded records, ordered like perf 6.1, with the stats table. */
#include "ui/dump.h"
#include "ui/header.h"
#include "ui/stats.h"
#include "core/evlist.h"
#include "data/sample.h"
#include "lib/hashmap.h"
#include "lib/xalloc.h"
#include "session/machine.h"
#include "session/session.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

void dump_hex(FILE *fp, const void *p, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	const u8 *b = p;
	char line[96];

	fprintf(fp, ".\n. ... raw event: size %zu bytes\n", len);
	/* formatted by hand: this is most of -D's output on big files */
	for (size_t off = 0; off < len; off += 16) {
		size_t n = MIN((size_t)16, len - off);
		char *o = line;

		*o++ = '.';
		*o++ = ' ';
		*o++ = ' ';
		*o++ = hex[(off >> 12) & 15];
		*o++ = hex[(off >> 8) & 15];
		*o++ = hex[(off >> 4) & 15];
		*o++ = hex[off & 15];
		*o++ = ':';
		*o++ = ' ';
		for (size_t i = 0; i < 16; i++) {
			*o++ = ' ';
			if (i < n) {
				*o++ = hex[b[off + i] >> 4];
				*o++ = hex[b[off + i] & 15];
			} else {
				*o++ = ' ';
				*o++ = ' ';
			}
		}
		*o++ = ' ';
		*o++ = ' ';
		for (size_t i = 0; i < 16; i++)
			*o++ = i < n ? (isprint(b[off + i]) ? b[off + i] : '.') : ' ';
		*o++ = '\n';
		fwrite_unlocked(line, 1, o - line, fp);
	}
	fputc_unlocked('\n', fp);
}

struct dumper {
	struct tool tool; /* first: the session's callbacks get this back */
	FILE *fp;
	struct session *session;
	struct data_reader *r;
	const char *name; /* "perf.data" or "pipe" for the "@" part (current record's file) */
	bool pipe;
	u64 sample_type;  /* combined over the events seen so far */
	bool id_all;
	int nr_attrs_seen;
	struct record_stats st;
	const struct dump_hooks *hooks; /* NULL for perf report -D */
	bool hook_done;			/* the hook already ran inside this record's lines */
	bool hooks_unhandled_after; /* stats tool: ": unhandled!" after the decoded lines */
};

/* the sample_type bits of the events known so far (a pipe announces them one by one) */
static void refresh_sample_layout(struct dumper *d)
{
	const struct perf_header *h = data_reader_header(d->r);
	int n = d->pipe ? d->nr_attrs_seen : h->nr_attrs;

	d->sample_type = 0;
	for (int i = 0; i < n && i < h->nr_attrs; i++)
		d->sample_type |= h->attrs[i].attr.sample_type;
	d->id_all = n > 0 && h->nr_attrs > 0 && h->attrs[0].attr.sample_id_all;
}

/* "cpu time " before a record's name: what its sample fields hold, "-1 -1 " without them */
static void put_cpu_time(struct dumper *d, const union perf_event *ev, const struct perf_sample *s)
{
	if (ev->header.type != PERF_RECORD_SAMPLE && !d->id_all) {
		fputs("-1 -1 ", d->fp);
		return;
	}
	if (d->sample_type & PERF_SAMPLE_CPU)
		fprintf(d->fp, "%u ", s->cpu);
	if (d->sample_type & PERF_SAMPLE_TIME)
		fprintf(d->fp, "%" PRIu64 " ", s->time);
}

static void put_record_head(struct dumper *d, const union perf_event *ev, u64 off,
		      const struct perf_sample *s)
{
	fprintf(d->fp, "\n%#" PRIx64 "@%s [%#x]: event: %u\n", off, d->name, ev->header.size,
		ev->header.type);
	dump_hex(d->fp, ev, ev->header.size);
	if (s)
		put_cpu_time(d, ev, s);
	fprintf(d->fp, "%#" PRIx64 " [%#x]: PERF_RECORD_%s", off, ev->header.size,
		perf_event_name(ev->header.type));
}

/* one sample being shown: where to, its record and event, its decoded fields */
struct sample_view {
	FILE *fp;
	const union perf_event *ev;
	const struct evsel *evsel;
	const struct perf_sample *s;
};

/* x86 register names by PERF_REG_X86_* number */
static const char *const x86_reg_names[] = {
	"AX", "BX", "CX", "DX", "SI", "DI", "BP", "SP", "IP", "FLAGS", "CS", "SS", "DS", "ES",
	"FS", "GS", "R8", "R9", "R10", "R11", "R12", "R13", "R14", "R15",
};

/* "... user regs: mask 0x.. ABI 64-bit", then one line per register in the mask */
static void put_regs(FILE *fp, const char *which, const struct regs_dump *regs)
{
	static const char *const abi_names[] = { "none", "32-bit", "64-bit" };
	const u64 *val = regs->regs;

	fprintf(fp, "... %s regs: mask 0x%" PRIx64 " ABI %s\n", which, regs->mask,
		regs->abi < ARRAY_SIZE(abi_names) ? abi_names[regs->abi] : "unknown");
	if (!val)
		return;
	for (u64 rest = regs->mask; rest; rest &= rest - 1) {
		unsigned reg = __builtin_ctzll(rest);

		fprintf(fp, ".... %-5s 0x%016" PRIx64 "\n",
			reg < ARRAY_SIZE(x86_reg_names) ? x86_reg_names[reg] : "unknown", *val++);
	}
}

/* a page size as -D shows it: "4K", "2M", "N/A" when the kernel gave none */
static const char *page_size_text(char *buf, size_t len, u64 bytes)
{
	return bytes ? size_str(buf, len, bytes) : "N/A";
}

static void show_callchain(const struct sample_view *v)
{
	const struct ip_callchain *chain = v->s->callchain;

	if (!chain)
		return;
	fprintf(v->fp, "... FP chain: nr:%" PRIu64 "\n", chain->nr);
	for (u64 i = 0; i < chain->nr; i++)
		fprintf(v->fp, "..... %2d: %016" PRIx64 "\n", (int)i, chain->ips[i]);
}

static void show_branches(const struct sample_view *v)
{
	const struct branch_stack *bs = v->s->branch_stack;
	const struct branch_entry *e;

	if (!bs)
		return;
	/* without the hw_idx word the entries start where it would be */
	e = v->s->no_hw_idx ? (const struct branch_entry *)&bs->hw_idx : bs->entries;
	fprintf(v->fp, "... branch stack: nr:%" PRIu64 "\n", bs->nr);
	for (u64 i = 0; i < bs->nr; i++, e++) {
		/* flags word: mispred, predicted, in_tx, abort, cycles:16, type:4 */
		u64 fl = e->flags;
		char marks[5] = { fl & 1 ? 'P' : ' ', fl & 2 ? 'M' : ' ', fl & 4 ? 'X' : ' ',
				  fl & 8 ? 'A' : ' ', 0 };

		fprintf(v->fp, "..... %2" PRIu64 ": %016" PRIx64 " -> %016" PRIx64 " %hu cycles %s %x\n",
			i, e->from, e->to, (unsigned short)(fl >> 4), marks, (unsigned)(fl >> 20) & 0xf);
	}
}

static void show_user_regs(const struct sample_view *v)
{
	put_regs(v->fp, "user", &v->s->user_regs);
}

static void show_intr_regs(const struct sample_view *v)
{
	put_regs(v->fp, "intr", &v->s->intr_regs);
}

static void show_user_stack(const struct sample_view *v)
{
	const struct stack_dump *st = &v->s->user_stack;
	/* where the size word sits in the record: just before the stack bytes */
	unsigned at = st->data ? (unsigned)((const char *)st->data - 8 - (const char *)v->ev) : 0;

	fprintf(v->fp, "... ustack: size %" PRIu64 ", offset 0x%x\n", st->size ? st->dyn_size : 0,
		at);
}

static void show_weight(const struct sample_view *v)
{
	u64 w = v->s->weight;

	if (v->evsel->attr.sample_type & PERF_SAMPLE_WEIGHT_STRUCT)
		fprintf(v->fp, "... weight: %" PRIu64 ",0x%" PRIx64 ",0x%" PRIx64 "\n",
			w & 0xffffffff, (w >> 32) & 0xffff, (w >> 48) & 0xffff);
	else
		fprintf(v->fp, "... weight: %" PRIu64 "\n", w);
}

static void show_data_src(const struct sample_view *v)
{
	fprintf(v->fp, " . data_src: 0x%" PRIx64 "\n", v->s->data_src);
}

static void show_phys_addr(const struct sample_view *v)
{
	fprintf(v->fp, " .. phys_addr: 0x%" PRIx64 "\n", v->s->phys_addr);
}

static void show_data_page_size(const struct sample_view *v)
{
	char text[32];

	fprintf(v->fp, " .. data page size: %s\n",
		page_size_text(text, sizeof(text), v->s->data_page_size));
}

static void show_code_page_size(const struct sample_view *v)
{
	char text[32];

	fprintf(v->fp, " .. code page size: %s\n",
		page_size_text(text, sizeof(text), v->s->code_page_size));
}

static void show_transaction(const struct sample_view *v)
{
	fprintf(v->fp, "... transaction: %" PRIx64 "\n", v->s->transaction);
}

/* one "..... id X, value Y[, lost Z]" line */
static void put_read_value(FILE *fp, u64 id, u64 value, bool has_lost, u64 lost)
{
	fprintf(fp, "..... id %016" PRIx64 ", value %016" PRIx64, id, value);
	if (has_lost)
		fprintf(fp, ", lost %" PRIu64, lost);
	fputc('\n', fp);
}

static void show_read(const struct sample_view *v)
{
	u64 rf = v->evsel->attr.read_format;
	bool has_id = rf & PERF_FORMAT_ID, has_lost = rf & PERF_FORMAT_LOST;
	const struct perf_sample *s = v->s;

	fputs("... sample_read:\n", v->fp);
	if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
		fprintf(v->fp, "...... time enabled %016" PRIx64 "\n", s->read.time_enabled);
	if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
		fprintf(v->fp, "...... time running %016" PRIx64 "\n", s->read.time_running);
	if (!(rf & PERF_FORMAT_GROUP)) {
		put_read_value(v->fp, s->read.one.id, s->read.one.value, has_lost, s->read.one.lost);
		return;
	}
	fprintf(v->fp, ".... group nr %" PRIu64 "\n", s->read.nr);
	/* group entries: value, then id and lost when the format has them */
	for (u64 i = 0; i < s->read.nr; i++) {
		int step = perf_sample_read_value_size(rf);
		u64 words[3] = { 0 };

		memcpy(words, (const u8 *)s->read.values + i * step, step);
		put_read_value(v->fp, has_id ? words[1] : 0, words[0], has_lost,
			       words[has_id ? 2 : 1]);
	}
}

/* the sample's detail lines after its first line, in this order, each for its sample_type bits */
static const struct {
	u64 bits;
	void (*show)(const struct sample_view *v);
} sample_parts[] = {
	{ PERF_SAMPLE_CALLCHAIN, show_callchain },
	{ PERF_SAMPLE_BRANCH_STACK, show_branches },
	{ PERF_SAMPLE_REGS_USER, show_user_regs },
	{ PERF_SAMPLE_REGS_INTR, show_intr_regs },
	{ PERF_SAMPLE_STACK_USER, show_user_stack },
	{ PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT, show_weight },
	{ PERF_SAMPLE_DATA_SRC, show_data_src },
	{ PERF_SAMPLE_PHYS_ADDR, show_phys_addr },
	{ PERF_SAMPLE_DATA_PAGE_SIZE, show_data_page_size },
	{ PERF_SAMPLE_CODE_PAGE_SIZE, show_code_page_size },
	{ PERF_SAMPLE_TRANSACTION, show_transaction },
	{ PERF_SAMPLE_READ, show_read },
};

/* "(IP, 0x..): pid/tid: ip period: N addr: A" and the detail lines of the sample's fields */
static void show_sample(struct dumper *d, const union perf_event *ev, const struct evsel *evsel,
			const struct perf_sample *s)
{
	const struct sample_view v = { .fp = d->fp, .ev = ev, .evsel = evsel, .s = s };

	fprintf(d->fp, "(IP, 0x%x): %d/%d: %#" PRIx64 " period: %" PRIu64 " addr: %#" PRIx64 "\n",
		ev->header.misc, (int)s->pid, (int)s->tid, s->ip, s->period, s->addr);
	for (size_t i = 0; i < ARRAY_SIZE(sample_parts); i++)
		if (evsel->attr.sample_type & sample_parts[i].bits)
			sample_parts[i].show(&v);
}

/* " ... thread: comm:tid" and " ...... dso: name" (the map holding the sample ip) */
static void show_thread_dso(struct dumper *d, const struct perf_sample *s)
{
	struct thread *t = machine_findnew_thread(&d->session->machine, (int)s->pid, (int)s->tid);
	const struct maps *maps;
	struct map *map = NULL;

	fprintf(d->fp, " ... thread: %s:%d\n", t->comm, t->tid);
	switch (s->cpumode) {
	case PERF_RECORD_MISC_KERNEL:
	case PERF_RECORD_MISC_GUEST_KERNEL:
		maps = &d->session->machine.kmaps;
		break;
	case PERF_RECORD_MISC_USER:
	case PERF_RECORD_MISC_GUEST_USER:
		maps = t->maps;
		break;
	default:
		maps = NULL;
		break;
	}
	if (maps)
		map = maps_find(maps, s->ip);
	fprintf(d->fp, " ...... dso: %s\n",
		map && map->dso ? map->dso->long_name :
		s->cpumode == PERF_RECORD_MISC_HYPERVISOR ? "[hypervisor]" : "<not found>");
}

static void put_mmap2_prot(FILE *fp, const struct perf_record_mmap2 *m)
{
	fprintf(fp, "%c%c%c%c", (m->prot & PROT_READ) ? 'r' : '-', (m->prot & PROT_WRITE) ? 'w' : '-',
		(m->prot & PROT_EXEC) ? 'x' : '-', (m->flags & MAP_SHARED) ? 's' : 'p');
}

/* a string field of a record, bounded by the record end */
static const char *rec_str(const union perf_event *ev, const char *s, char *buf, size_t len)
{
	size_t max = (const char *)ev + ev->header.size - s;

	if ((const char *)ev + ev->header.size <= s)
		return "";
	snprintf(buf, len, "%.*s", (int)MIN(max, len - 1), s);
	return buf;
}

/* the decoded part after "PERF_RECORD_X" for a kernel record; also updates the machine */
static void show_kernel_record(struct dumper *d, const union perf_event *ev, u64 off)
{
	struct perf_sample s;
	struct evsel *evsel = NULL;
	FILE *fp = d->fp;
	char buf[4096];
	int bad = data_reader_parse_sample(d->r, ev, &s, &evsel);

	put_record_head(d, ev, off, &s);
	if (d->hooks && d->hooks->stats_tool && ev->header.type != PERF_RECORD_SWITCH &&
	    ev->header.type != PERF_RECORD_SWITCH_CPU_WIDE) {
		/*
		 * the sample lines come from the session, the rest from stub
		 * handlers; switch records perf decodes whatever the tool
		 */
		if (ev->header.type == PERF_RECORD_SAMPLE && !bad && evsel)
			show_sample(d, ev, evsel, &s);
		else if (ev->header.type == PERF_RECORD_LOST)
			fprintf(fp, ": id:%" PRIu64 ": lost:%" PRIu64 "\n", ev->lost.id, ev->lost.lost);
		else if (ev->header.type == PERF_RECORD_LOST_SAMPLES)
			; /* counted silently: the next record's newline ends the line */
		else
			fprintf(fp, ": unhandled!\n");
		return;
	}
	switch (ev->header.type) {
	case PERF_RECORD_SAMPLE:
		if (bad || !evsel) {
			fputc('\n', fp);
			break;
		}
		show_sample(d, ev, evsel, &s);
		show_thread_dso(d, &s);
		break;
	case PERF_RECORD_MMAP:
		fprintf(fp, " %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64 "]: %c %s\n",
			(int)ev->mmap.pid, (int)ev->mmap.tid, ev->mmap.start, ev->mmap.len,
			ev->mmap.pgoff, (ev->header.misc & PERF_RECORD_MISC_MMAP_DATA) ? 'r' : 'x',
			rec_str(ev, ev->mmap.filename, buf, sizeof(buf)));
		break;
	case PERF_RECORD_MMAP2: {
		const struct perf_record_mmap2 *m = &ev->mmap2;

		if (ev->header.misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
			char id[41];

			for (int i = 0; i < MIN((int)m->build_id_size, 20); i++)
				sprintf(id + i * 2, "%02x", m->build_id[i]);
			id[MIN((int)m->build_id_size, 20) * 2] = 0;
			fprintf(fp, " %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64 " <%s>]: ",
				(int)m->pid, (int)m->tid, m->start, m->len, m->pgoff, id);
		} else {
			fprintf(fp, " %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64
				    " %02x:%02x %" PRIu64 " %" PRIu64 "]: ",
				(int)m->pid, (int)m->tid, m->start, m->len, m->pgoff, m->maj, m->min,
				m->ino, m->ino_generation);
		}
		put_mmap2_prot(fp, m);
		fprintf(fp, " %s\n", rec_str(ev, m->filename, buf, sizeof(buf)));
		break;
	}
	case PERF_RECORD_COMM:
		fprintf(fp, "%s: %s:%d/%d\n", (ev->header.misc & PERF_RECORD_MISC_COMM_EXEC) ? " exec" : "",
			rec_str(ev, ev->comm.comm, buf, sizeof(buf)), (int)ev->comm.pid,
			(int)ev->comm.tid);
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		if (ev->header.type == PERF_RECORD_EXIT && d->hooks && d->hooks->after_record) {
			/*
			 * perf script handles EXIT before perf's own exit processing
			 * prints the details: its line lands between the name and them.
			 */
			fflush(fp);
			d->hooks->after_record(d->hooks->arg, d->session, ev);
			d->hook_done = true;
		}
		fprintf(fp, "(%d:%d):(%d:%d)\n", (int)ev->fork.pid, (int)ev->fork.tid,
			(int)ev->fork.ppid, (int)ev->fork.ptid);
		break;
	case PERF_RECORD_LOST:
		fprintf(fp, ": id:%" PRIu64 ": lost:%" PRIu64 "\n", ev->lost.id, ev->lost.lost);
		break;
	case PERF_RECORD_LOST_SAMPLES:
		fprintf(fp, ": id:%" PRIu64 ": lost samples :%" PRIu64 "\n", s.id,
			ev->lost_samples.lost);
		break;
	case PERF_RECORD_KSYMBOL:
		fprintf(fp, " addr %" PRIx64 " len %u type %u flags 0x%x name %s\n", ev->ksymbol.addr,
			ev->ksymbol.len, ev->ksymbol.ksym_type, ev->ksymbol.flags,
			rec_str(ev, ev->ksymbol.name, buf, sizeof(buf)));
		break;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE: {
		bool out = ev->header.misc & PERF_RECORD_MISC_SWITCH_OUT;
		const char *io = !out ? "IN         " :
			(ev->header.misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT) ? "OUT preempt" :
										    "OUT        ";

		if (ev->header.type == PERF_RECORD_SWITCH)
			fprintf(fp, " %s\n", io);
		else
			fprintf(fp, " %s  %s pid/tid: %5d/%-5d\n", io, out ? "next" : "prev",
				(int)ev->context_switch.next_prev_pid,
				(int)ev->context_switch.next_prev_tid);
		break;
	}
	case PERF_RECORD_NAMESPACES: {
		static const char *const ns[] = { "net", "uts", "ipc", "pid", "user", "mnt", "cgroup" };
		u32 pid, tid;
		u64 nr, max;

		memcpy(&pid, (const u8 *)ev + 8, 4);
		memcpy(&tid, (const u8 *)ev + 12, 4);
		memcpy(&nr, (const u8 *)ev + 16, 8);
		max = (ev->header.size - 24u) / 16;
		fprintf(fp, " %d/%d - nr_namespaces: %" PRIu64 "\n\t\t[", (int)pid, (int)tid, nr);
		for (u64 i = 0; i < nr && i < max; i++) {
			u64 dev, ino;

			memcpy(&dev, (const u8 *)ev + 24 + i * 16, 8);
			memcpy(&ino, (const u8 *)ev + 32 + i * 16, 8);
			if (i && i % 4 == 0)
				fprintf(fp, "\n\t\t ");
			fprintf(fp, "%u/%s: %" PRIu64 "/%#" PRIx64 "%s", (unsigned)i,
				i < ARRAY_SIZE(ns) ? ns[i] : "UNKNOWN", dev, ino,
				i + 1 != nr ? ", " : "]\n");
		}
		break;
	}
	case PERF_RECORD_AUX: {
		u64 aoff, asize, flags;

		memcpy(&aoff, (const u8 *)ev + 8, 8);
		memcpy(&asize, (const u8 *)ev + 16, 8);
		memcpy(&flags, (const u8 *)ev + 24, 8);
		fprintf(fp, " offset: %#" PRIx64 " size: %#" PRIx64 " flags: %#" PRIx64 " [%s%s%s]\n",
			aoff, asize, flags, (flags & 1) ? "T" : "", (flags & 2) ? "O" : "",
			(flags & 4) ? "P" : "");
		break;
	}
	case PERF_RECORD_ITRACE_START: {
		u32 pid, tid;

		memcpy(&pid, (const u8 *)ev + 8, 4);
		memcpy(&tid, (const u8 *)ev + 12, 4);
		fprintf(fp, " pid: %u tid: %u\n", pid, tid);
		break;
	}
	case PERF_RECORD_CGROUP: {
		u64 id;

		memcpy(&id, (const u8 *)ev + 8, 8);
		fprintf(fp, " cgroup: %" PRIu64 " %s\n", id,
			rec_str(ev, (const char *)ev + 16, buf, sizeof(buf)));
		break;
	}
	case PERF_RECORD_BPF_EVENT: {
		u16 type, flags;
		u32 id;

		memcpy(&type, (const u8 *)ev + 8, 2);
		memcpy(&flags, (const u8 *)ev + 10, 2);
		memcpy(&id, (const u8 *)ev + 12, 4);
		fprintf(fp, " type %u, flags %u, id %u\n", type, flags, id);
		break;
	}
	default:
		fprintf(fp, ": unhandled!\n");
		break;
	}
}

static void put_cpu_list(FILE *fp, const int *cpus, int nr)
{
	for (int i = 0; i < nr; i++) {
		int j = i;

		while (j + 1 < nr && cpus[j + 1] == cpus[j] + 1 && cpus[i] >= 0)
			j++;
		if (j > i)
			fprintf(fp, "%s%d-%d", i ? "," : "", cpus[i], cpus[j]);
		else
			fprintf(fp, "%s%d", i ? "," : "", cpus[i]);
		i = j;
	}
}

static void show_cpu_map(FILE *fp, const union perf_event *ev)
{
	const u8 *p = (const u8 *)ev + 8, *end = (const u8 *)ev + ev->header.size;
	int cpus[4096], nr = 0;
	u16 type;

	if (end - p < 2)
		goto out;
	memcpy(&type, p, 2);
	if (type == 0 && end - p >= 4) {
		u16 n;

		memcpy(&n, p + 2, 2);
		for (int i = 0; i < n && 4 + (i + 1) * 2 <= end - p && nr < 4096; i++) {
			u16 c;

			memcpy(&c, p + 4 + i * 2, 2);
			cpus[nr++] = c == 0xffff ? -1 : c;
		}
	} else if (type == 1 && end - p >= 8) {
		u16 n, lsz;
		const u8 *m;

		memcpy(&n, p + 2, 2);
		memcpy(&lsz, p + 4, 2);
		m = p + (lsz == 8 ? 8 : 6);
		for (int w = 0; w < n; w++) {
			u64 word = 0;

			if (m + (w + 1) * lsz > end || (lsz != 4 && lsz != 8))
				break;
			memcpy(&word, m + w * lsz, lsz);
			for (int b = 0; b < lsz * 8; b++)
				if ((word >> b & 1) && nr < 4096)
					cpus[nr++] = w * lsz * 8 + b;
		}
	} else if (type == 2 && end - p >= 8) {
		u8 any;
		u16 start, stop;

		any = p[2];
		memcpy(&start, p + 4, 2);
		memcpy(&stop, p + 6, 2);
		if (any)
			cpus[nr++] = -1;
		for (int c = start; c <= stop && nr < 4096; c++)
			cpus[nr++] = c;
	}
out:
	fprintf(fp, ": ");
	put_cpu_list(fp, cpus, nr);
	fputc('\n', fp);
}

/* perf-tool records: dumped when read */
static void show_tool_record(struct dumper *d, const union perf_event *ev, u64 off)
{
	struct perf_sample s;
	FILE *fp = d->fp;

	memset(&s, 0, sizeof(s));
	put_record_head(d, ev, off, &s);
	if (d->hooks && d->hooks->stats_tool) {
		switch (ev->header.type) {
		case PERF_RECORD_HEADER_ATTR:
			d->nr_attrs_seen++;
			refresh_sample_layout(d);
			return;
		case PERF_RECORD_EVENT_UPDATE:
			/* decoded by the session, then the stub */
			d->hooks_unhandled_after = true;
			break;
		case PERF_RECORD_THREAD_MAP:
		case PERF_RECORD_CPU_MAP:
			break; /* printed as usual */
		default:
			fprintf(fp, ": unhandled!\n");
			return;
		}
	}
	switch (ev->header.type) {
	case PERF_RECORD_HEADER_ATTR:
		d->nr_attrs_seen++;
		refresh_sample_layout(d);
		break;
	case PERF_RECORD_HEADER_FEATURE:
	case PERF_RECORD_HEADER_TRACING_DATA:
	case PERF_RECORD_HEADER_BUILD_ID:
	case PERF_RECORD_COMPRESSED:
		break;
	case PERF_RECORD_EVENT_UPDATE: {
		u64 utype, id;
		const char *pl = (const char *)ev + 24;
		char buf[256];

		if (ev->header.size < 24)
			break;
		memcpy(&utype, (const u8 *)ev + 8, 8);
		memcpy(&id, (const u8 *)ev + 16, 8);
		fprintf(fp, "\n... id:    %" PRIu64 "\n", id);
		switch (utype) {
		case 0:
			fprintf(fp, "... unit:  %s\n", rec_str(ev, pl, buf, sizeof(buf)));
			break;
		case 1: {
			double sc = 0;

			if (ev->header.size >= 32)
				memcpy(&sc, pl, 8);
			fprintf(fp, "... scale: %f\n", sc);
			break;
		}
		case 2:
			fprintf(fp, "... name:  %s\n", rec_str(ev, pl, buf, sizeof(buf)));
			break;
		case 3: {
			/* a cpu_map payload: print it through the CPU_MAP decoder */
			fprintf(fp, "... ");
			break;
		}
		default:
			fprintf(fp, "... unknown type\n");
			break;
		}
		break;
	}
	case PERF_RECORD_FINISHED_ROUND:
		fputc('\n', fp);
		break;
	case PERF_RECORD_ID_INDEX: {
		u64 nr = ev->id_index.nr;

		if (nr > (ev->header.size - 16) / sizeof(struct perf_record_id_index_entry))
			nr = (ev->header.size - 16) / sizeof(struct perf_record_id_index_entry);
		fprintf(fp, " nr: %" PRIu64 "\n", ev->id_index.nr);
		for (u64 i = 0; i < nr; i++) {
			const struct perf_record_id_index_entry *e = &ev->id_index.entries[i];

			fprintf(fp, " ... id: %" PRIu64 "  idx: %" PRIu64 "  cpu: %" PRId64
				    "  tid: %" PRId64 "\n",
				e->id, e->idx, (s64)e->cpu, (s64)e->tid);
		}
		break;
	}
	case PERF_RECORD_THREAD_MAP: {
		u64 nr;

		memcpy(&nr, (const u8 *)ev + 8, 8);
		if (nr > (ev->header.size - 16u) / 24)
			nr = (ev->header.size - 16u) / 24;
		fprintf(fp, " nr: %" PRIu64 " thread%s: ", nr, nr > 1 ? "s" : "");
		for (u64 i = 0; i < nr; i++) {
			u64 pid;

			memcpy(&pid, (const u8 *)ev + 16 + i * 24, 8);
			fprintf(fp, "%s%d", i ? ", " : "", (int)pid);
		}
		fprintf(fp, (d->hooks && d->hooks->handles_maps) ? "\n" : "\n: unhandled!\n");
		break;
	}
	case PERF_RECORD_CPU_MAP:
		show_cpu_map(fp, ev);
		if (!d->hooks || !d->hooks->handles_maps)
			fprintf(fp, ": unhandled!\n");
		break;
	case PERF_RECORD_STAT_CONFIG: {
		u64 nr, v[3] = { 0, 0, 0 }; /* by tag: aggr_mode, interval, scale */

		memcpy(&nr, (const u8 *)ev + 8, 8);
		for (u64 i = 0; i < nr && 16 + (i + 1) * 16 <= ev->header.size; i++) {
			u64 tag, val;

			memcpy(&tag, (const u8 *)ev + 16 + i * 16, 8);
			memcpy(&val, (const u8 *)ev + 24 + i * 16, 8);
			if (tag < 3)
				v[tag] = val;
		}
		fprintf(fp, "\n... aggr_mode %d\n... scale     %d\n... interval  %u\n: unhandled!\n",
			(int)v[0], (int)v[2], (unsigned)v[1]);
		break;
	}
	case PERF_RECORD_STAT: {
		u64 id = 0, val = 0, ena = 0, run = 0;
		u32 cpu = 0, thread = 0;

		if (ev->header.size >= 48) {
			memcpy(&id, (const u8 *)ev + 8, 8);
			memcpy(&cpu, (const u8 *)ev + 16, 4);
			memcpy(&thread, (const u8 *)ev + 20, 4);
			memcpy(&val, (const u8 *)ev + 24, 8);
			memcpy(&ena, (const u8 *)ev + 32, 8);
			memcpy(&run, (const u8 *)ev + 40, 8);
		}
		fprintf(fp, "\n... id %" PRIu64 ", cpu %d, thread %d\n", id, (int)cpu, (int)thread);
		fprintf(fp, "... value %" PRIu64 ", enabled %" PRIu64 ", running %" PRIu64
			    "\n: unhandled!\n",
			val, ena, run);
		break;
	}
	case PERF_RECORD_STAT_ROUND: {
		u64 rtype = 0, time = 0;

		if (ev->header.size >= 24) {
			memcpy(&rtype, (const u8 *)ev + 8, 8);
			memcpy(&time, (const u8 *)ev + 16, 8);
		}
		fprintf(fp, "\n... time %" PRIu64 ", type %s\n: unhandled!\n", time,
			rtype == 1 ? "FINAL" : "INTERVAL");
		break;
	}
	default:
		fprintf(fp, ": unhandled!\n");
		break;
	}
	if (d->hooks_unhandled_after) {
		d->hooks_unhandled_after = false;
		fprintf(fp, ": unhandled!\n");
	}
}

/* show_kernel_record plus the command's hook (perf script's line after each record) */
static void show_kernel_record_hooked(struct dumper *d, const union perf_event *ev, u64 off)
{
	d->hook_done = false;
	show_kernel_record(d, ev, off);
	if (d->hooks && d->hooks->after_record && !d->hook_done) {
		fflush(d->fp);
		d->hooks->after_record(d->hooks->arg, d->session, ev);
	}
}

/* where perf -D says a record is: the COMPRESSED record's offset for what came out of one */
static u64 shown_offset(const struct dumper *d, const struct record_pos *pos)
{
	if (pos->compressed_offset != ~0ULL)
		return pos->compressed_offset;
	/* pipe offsets count from the end of the 16-byte pipe header */
	return d->pipe ? pos->offset - 16 : pos->offset;
}

/* tool.read: count every record; perf-tool records are dumped when read */
static int dump_read(struct tool *tool, struct session *session, const union perf_event *ev,
		     const struct record_pos *pos)
{
	struct dumper *d = (struct dumper *)tool;
	u32 type = ev->header.type;
	struct evsel *evsel = NULL;

	(void)session;
	if (type == PERF_RECORD_SAMPLE || type == PERF_RECORD_LOST_SAMPLES)
		evsel = data_reader_evsel_for_event(d->r, ev);
	record_stats_add(&d->st, ev, evsel ? evsel->idx : -1);
	/* perf does not dump the container, only what is inside */
	if (type >= PERF_RECORD_USER_TYPE_START && type != PERF_RECORD_COMPRESSED) {
		if (!d->pipe)
			d->name = pos->file;
		show_tool_record(d, ev, shown_offset(d, pos));
	}
	return 0;
}

/* tool.event: kernel records, in the session's delivery order */
static int dump_event(struct tool *tool, struct session *session, const union perf_event *ev,
		      const struct record_pos *pos)
{
	struct dumper *d = (struct dumper *)tool;

	(void)session;
	if (!d->pipe)
		d->name = pos->file;
	show_kernel_record_hooked(d, ev, shown_offset(d, pos));
	return 0;
}

bool dump_has_sample_id_all(struct data_reader *r)
{
	const struct perf_header *h = data_reader_header(r);

	return h->nr_attrs > 0 && h->attrs[0].attr.sample_id_all;
}

int dump_raw_trace(FILE *fp, struct session *session, bool ordered,
		   const struct dump_hooks *hooks, struct data_error *err)
{
	struct dumper d = {
		.tool = { .read = dump_read, .event = dump_event,
			  .ordered = ordered && !(hooks && hooks->stats_tool) },
		.fp = fp,
		.session = session,
		.r = session->reader,
		.hooks = hooks,
	};
	int ret;

	d.pipe = data_reader_is_pipe(d.r);
	d.name = d.pipe ? "pipe" : data_reader_path(d.r);
	refresh_sample_layout(&d);
	record_stats_init(&d.st, d.r);
	d.st.no_evsel_lost = !(hooks && hooks->stats_tool);
	/* perf registers the idle task before reading: pid 0 is "swapper" */
	thread_set_comm(&session->machine, machine_findnew_thread(&session->machine, 0, 0),
			"swapper");
	ret = session_process(session, &d.tool, err);
	if (ret >= 0) {
		/*
		 * perf warns of lost records before its stats, stdout not flushed
		 * first: where the warning lands in a 2>&1 file is where perf's
		 */
		if (!hooks || !hooks->stats_tool)
			stats_warn_lost(&d.st);
		if (!hooks || !hooks->no_stats)
			stats_fprintf(fp, &d.st, d.r);
	} else {
		fflush(fp);
	}
	record_stats_release(&d.st);
	return ret < 0 ? ret : 0;
}
