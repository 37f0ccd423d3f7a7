/* SPDX-License-Identifier: MIT */
/* perf report --stdio: event header, column titles and rows (callchains: ui/callchain.c). */
#include "ui/hists.h"

#include "ui/callchain.h"
#include "session/hists-mem.h"

#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "symbol/elf.h"
#include "trace/tep.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NR_MAX_COLS 48

struct col {
	int type;	/* enum hist_column */
	int key;	/* enum sort_key when type == COL_KEY */
	int width;
	bool left;	/* left-aligned values */
	int field;	/* trace_fields: the tracepoint field of the column */
};

struct printer {
	struct hists *hists;
	const struct hists_print_opts *o;
	FILE *fp;
	struct col cols[NR_MAX_COLS];
	int nr_cols;
	struct tep_event *tp;	/* the tracepoint of the entries (trace_fields), or NULL */
	struct strbuf field;	/* a trace_fields value */
	u8 *raw;		/* an entry's payload bytes */
	size_t raw_alloc;
	u64 total;	/* the 100% of the percent columns */
	char *origin;	/* -v: symtab origin char by dso id, 0: not computed yet */
	size_t origin_alloc;
	char buf[4096];
};

const char *hist_entry_sym_text(const struct hist_entry *e, char *buf, size_t size)
{
	const struct frame *f = e->frame;

	/* perf's "%#.16llx": no 0x for a zero address */
	if (f->sym)
		snprintf(buf, size, "[%c] %s%s", e->level, f->sym->name, f->inlined ? " (inlined)" : "");
	else
		snprintf(buf, size, "[%c] %#.16llx", e->level, (unsigned long long)e->addr);
	return buf;
}

static const char *key_title(int key)
{
	switch (key) {
	case SORT_COMM:
		return "Command";
	case SORT_PID:
		return "Pid:Command";
	case SORT_DSO:
		return "Shared Object";
	case SORT_SYM:
		return "Symbol";
	case SORT_PARENT:
		return "Parent symbol";
	case SORT_CPU:
		return "CPU";
	case SORT_SOCKET:
		return "Socket";
	case SORT_SRCLINE:
		return "Source:Line";
	case SORT_SRCFILE:
		return "Source File";
	case SORT_TRACE:
		return "Trace output";
	case SORT_TIME:
		return "Time";
	case SORT_SYM_SIZE:
		return "Symbol size";
	case SORT_DSO_SIZE:
		return "DSO size";
	case SORT_CGROUP:
		return "Cgroup";
	case SORT_CGROUP_ID:
		return "cgroup id (dev/inode)";
	case SORT_WEIGHT:
		return "Weight";
	case SORT_LOCAL_WEIGHT:
		return "Local Weight";
	case SORT_TRANSACTION:
		return "Transaction";
	case SORT_CODE_PAGE_SIZE:
		return "Code Page Size";
	case SORT_INS_LAT:
		return "INSTR Latency";
	case SORT_P_STAGE_CYC:
		return "Pipeline Stage Cycle";
	case SORT_IPC_NULL:
		return "IPC   [IPC Coverage]";
	case SORT_MEM:
		return "Memory access";
	case SORT_SNOOP:
		return "Snoop";
	case SORT_TLB:
		return "TLB access";
	case SORT_LOCKED:
		return "Locked";
	case SORT_BLOCKED:
		return "Blocked";
	case SORT_SYMBOL_DADDR:
		return "Data Symbol";
	case SORT_DSO_DADDR:
		return "Data Object";
	case SORT_LOCAL_INS_LAT:
		return "Local INSTR Latency";
	case SORT_DCACHELINE:
		return "Data Cacheline";
	case SORT_PHYS_DADDR:
		return "Data Physical Address";
	case SORT_DATA_PAGE_SIZE:
		return "Data Page Size";
	default:
		return "?";
	}
}

/* key_min_width - a key column's width before its values: the title's, or perf's fixed one */
static int key_min_width(int key)
{
	switch (key) {
	case SORT_TIME:
	case SORT_WEIGHT:
	case SORT_LOCAL_WEIGHT:
		return 12;
	case SORT_TRANSACTION:
		return 27;
	case SORT_MEM: /* perf's fixed widths: longer texts overflow */
		return 24;
	case SORT_SNOOP:
		return 12;
	case SORT_TLB:
		return 22;
	case SORT_BLOCKED:
		return 10;
	case SORT_DCACHELINE:
	case SORT_PHYS_DADDR:
	case SORT_DATA_PAGE_SIZE:
		return 22;
	default:
		return (int)strlen(key_title(key));
	}
}

/* key_right_aligned - the keys perf prints right-aligned (numbers) */
static bool key_right_aligned(int key)
{
	return key == SORT_CPU || key == SORT_SOCKET || key == SORT_SYM_SIZE ||
	       key == SORT_DSO_SIZE;
}

/* page_size_text - perf's page size names: "4K", "2M", "1G"; 0 is "N/A" */
static const char *page_size_text(u64 size, char *buf, size_t bufsize)
{
	static const char units[] = "KMGT";
	int u = -1;

	if (!size)
		return "N/A";
	while (u < 3 && size >= 1024 && !(size % 1024)) {
		size /= 1024;
		u++;
	}
	if (u < 0)
		snprintf(buf, bufsize, "%llu", (unsigned long long)size);
	else
		snprintf(buf, bufsize, "%llu%c", (unsigned long long)size, units[u]);
	return buf;
}

/*
 * dso_origin - perf's -v symtab origin letter of @dso: where perf's loader
 * would take the symbols from, in perf's lookup order ('B' the build-id
 * cache copy, 'D' its debug file, 'b' /usr/lib/debug/.build-id, 'l' a
 * debuglink file, 'd' the file on its path, 'k' kallsyms, 'j' a perf map,
 * '!' nothing).
 */
static char dso_origin(const struct dso *dso, const struct symbol_opts *sopts)
{
	const struct symsrc *ss = dso ? dso->ss : NULL;
	const u8 *bid;
	size_t bl;
	char c = '!';

	if (!ss || ss->kind == SYMSRC_NONE || ss->status)
		return '!';
	if (ss->kind == SYMSRC_KALLSYMS)
		return 'k';
	if (ss->kind == SYMSRC_PERF_MAP)
		return 'j';
	bid = dso->build_id_size ? dso->build_id : ss->build_id;
	bl = dso->build_id_size ? dso->build_id_size : ss->build_id_size;
	bool from_debug = ss->symbol_path && ss->path && strcmp(ss->symbol_path, ss->path);

	if (bl && !(sopts && sopts->no_buildid_cache)) {
		char *dir = buildid_dir(sopts);
		struct strbuf f = STRBUF_INIT;

		if (!buildid_cache_find(&f, dir, bid, bl, false)) {
			c = 'B';
			if (from_debug) {
				strbuf_reset(&f);
				if (!buildid_cache_find(&f, dir, bid, bl, true))
					c = 'D';
			}
		}
		strbuf_release(&f);
		free(dir);
		if (c != '!' && !(from_debug && c == 'B'))
			return c;
		c = '!';
	}
	/* perf finds the vdso only in the build-id cache */
	if (ss->kind == SYMSRC_VDSO)
		return '!';
	if (from_debug)
		return !strncmp(ss->symbol_path, "/usr/lib/debug/.build-id/", 25) ? 'b' : 'l';
	return 'd';
}

static char printer_origin(struct printer *p, const struct dso *dso)
{
	if (!dso)
		return '!';
	if (dso->id >= p->origin_alloc) {
		size_t n = dso->id + 64;

		p->origin = xrealloc(p->origin, n);
		memset(p->origin + p->origin_alloc, 0, n - p->origin_alloc);
		p->origin_alloc = n;
	}
	if (!p->origin[dso->id])
		p->origin[dso->id] = dso_origin(dso, p->o->symbol_opts);
	return p->origin[dso->id];
}

/* key_text - the value of a key column, unpadded (@p->o->verbose: perf -v's forms) */
static const char *key_text(struct printer *p, const struct hist_entry *e, int key, char *buf,
			    size_t size)
{
	if (p && p->o->verbose) {
		if (key == SORT_DSO && e->frame->dso)
			return e->frame->dso->long_name;
		if (key == SORT_SYM) {
			/* perf: "%-#18llx %c " (the address, the symtab origin) before "[.] " */
			int n = snprintf(buf, size, "%-#*llx %c ", 18, (unsigned long long)e->addr,
					 printer_origin(p, e->frame->dso));

			if (n > 0 && (size_t)n < size)
				hist_entry_sym_text(e, buf + n, size - n);
			return buf;
		}
	}
	switch (key) {
	case SORT_COMM:
		return e->comm;
	case SORT_PID:
		snprintf(buf, size, "%7d:%s", e->thread->tid, e->thread->comm);
		return buf;
	case SORT_DSO:
		return e->frame->dso ? e->frame->dso->short_name : "[unknown]";
	case SORT_SYM:
		return hist_entry_sym_text(e, buf, size);
	case SORT_PARENT:
		return e->parent && e->parent->sym ? e->parent->sym->name : "[other]";
	case SORT_CPU:
		snprintf(buf, size, "%.3d", e->cpu);
		return buf;
	case SORT_SOCKET:
		snprintf(buf, size, "%.3d", e->socket);
		return buf;
	case SORT_SRCLINE:
		return e->srcline ? e->srcline : "??:0";
	case SORT_SRCFILE:
		return e->srcfile ? e->srcfile : "";
	case SORT_TRACE:
		/* perf's trace key on an event that is no tracepoint */
		return e->trace ? e->trace : "N/A";
	case SORT_TIME:
		snprintf(buf, size, "%llu.%06llu", (unsigned long long)(e->time / 1000000000ULL),
			 (unsigned long long)(e->time % 1000000000ULL / 1000));
		return buf;
	case SORT_SYM_SIZE:
		if (!e->frame->sym)
			return "unknown";
		snprintf(buf, size, "%llu", (unsigned long long)hist_entry_sym_size(e));
		return buf;
	case SORT_DSO_SIZE:
		if (!e->frame->map)
			return "unknown";
		snprintf(buf, size, "%llu", (unsigned long long)hist_entry_dso_size(e));
		return buf;
	case SORT_CGROUP:
		return e->cgroup ? e->cgroup : "N/A";
	case SORT_CGROUP_ID:
		snprintf(buf, size, "%llu/0x%llx", (unsigned long long)e->ns_dev,
			 (unsigned long long)e->ns_ino);
		return buf;
	case SORT_WEIGHT:
		snprintf(buf, size, "%llu", (unsigned long long)e->weight_sum);
		return buf;
	case SORT_LOCAL_WEIGHT:
		snprintf(buf, size, "%llu", (unsigned long long)e->weight);
		return buf;
	case SORT_TRANSACTION:
		/* the abort flags: none recorded here (no TSX), see docs/cmd/report.md */
		if (!e->transaction)
			return "";
		snprintf(buf, size, "%#llx", (unsigned long long)e->transaction);
		return buf;
	case SORT_CODE_PAGE_SIZE:
		return page_size_text(e->code_page_size, buf, size);
	case SORT_INS_LAT:
		snprintf(buf, size, "%llu", (unsigned long long)e->ins_lat_sum);
		return buf;
	case SORT_P_STAGE_CYC:
		snprintf(buf, size, "%u", (unsigned)e->p_stage_cyc);
		return buf;
	case SORT_IPC_NULL:
		return "-      -";
	case SORT_MEM:
	case SORT_SNOOP:
	case SORT_TLB:
	case SORT_LOCKED:
	case SORT_BLOCKED:
		return mem_key_text(key, e->data_src, buf, size);
	case SORT_SYMBOL_DADDR:
		/* outside any map, the level is the sample's */
		if (e->dframe && e->dframe->sym)
			snprintf(buf, size, "[%c] %s", e->dframe->level, e->dframe->sym->name);
		else
			snprintf(buf, size, "[%c] %#.16llx",
				 e->dframe && e->dframe->dso ? e->dframe->level : e->level,
				 (unsigned long long)(e->dframe ? e->dframe->addr : 0));
		return buf;
	case SORT_DSO_DADDR:
		return e->dframe && e->dframe->dso ? e->dframe->dso->short_name : "[unknown]";
	case SORT_LOCAL_INS_LAT:
		snprintf(buf, size, "%u", (unsigned)e->ins_lat);
		return buf;
	case SORT_DCACHELINE:
		/* outside any map (all the fixtures know): perf's [X] */
		snprintf(buf, size, "[X] %#.16llx", (unsigned long long)(e->daddr & ~63ULL));
		return buf;
	case SORT_PHYS_DADDR:
		snprintf(buf, size, "[.] %#.16llx", (unsigned long long)e->phys_addr);
		return buf;
	case SORT_DATA_PAGE_SIZE:
		return page_size_text(e->data_page_size, buf, size);
	default:
		return "";
	}
}

/* entry_raw - @e's payload bytes (from its hex copy) in @p's scratch; returns its size */
static u32 entry_raw(struct printer *p, const struct hist_entry *e)
{
	size_t n = e->traw ? strlen(e->traw) / 2 : 0;

	p->raw = xgrow(p->raw, n + 1, &p->raw_alloc, 1);
	for (size_t i = 0; i < n; i++)
		p->raw[i] = (u8)(hex_digit(e->traw[2 * i]) << 4 | hex_digit(e->traw[2 * i + 1]));
	return (u32)n;
}

/*
 * field_text - the value of trace_fields column @col: the field's raw value
 * with "/raw", else the text after "name" and one character in the first
 * word of the payload text that starts with the field's name (perf reads
 * "name=value" there), the raw value when no word does.
 */
static const char *field_text(struct printer *p, const struct hist_entry *e, const struct col *col,
			      bool *in_text)
{
	const char *name = trace_tep_field_name(e->tp, col->field);
	size_t nl = strlen(name);

	strbuf_reset(&p->field);
	if (!e->tp)
		return "";
	if (col->key == SORT_TRACE_FIELDS && e->trace) {
		for (const char *w = e->trace; *w;) {
			size_t wl = strcspn(w, " ");

			if (wl >= nl && !strncmp(w, name, nl)) {
				if (in_text)
					*in_text = true;
				if (wl > nl)
					strbuf_add(&p->field, w + nl + 1, wl - nl - 1);
				return p->field.buf;
			}
			w += wl;
			w += strspn(w, " ");
		}
	}
	if (e->traw) {
		u32 n = entry_raw(p, e);

		trace_tep_field_raw(e->tp, col->field, p->raw, n, &p->field);
	}
	return p->field.buf;
}

/*
 * field_width - the room trace_fields column @col needs for @e beyond its
 * title and size: a value read from the payload text (not raw values);
 * a __data_loc field perf compared counts its recorded length (the NUL
 * too).
 */
static int field_width(struct printer *p, const struct hist_entry *e, const struct col *col)
{
	int w = 0, dyn = -1;

	if (!e->tp)
		return 0;
	if (col->field < 64 && (e->tf_met >> col->field & 1)) {
		u32 n = entry_raw(p, e);

		dyn = trace_tep_field_dynlen(e->tp, col->field, p->raw, n);
	}
	if (col->key == SORT_TRACE_FIELDS) {
		bool in_text = false;
		const char *t = field_text(p, e, col, &in_text);

		if (in_text)
			w = (int)strlen(t);
	}
	return dyn > w ? dyn : w;
}

static bool is_fields_key(int key)
{
	return key == SORT_TRACE_FIELDS || key == SORT_TRACE_FIELDS_RAW;
}

static void add_col(struct printer *p, int type, int key, int width, bool left)
{
	if (type == COL_KEY && is_fields_key(key)) {
		/* one right-aligned column per field of the tracepoint, none for other events */
		for (int i = 0; i < trace_tep_nr_fields(p->tp) && p->nr_cols < NR_MAX_COLS; i++) {
			int w = (int)strlen(trace_tep_field_name(p->tp, i));

			if (trace_tep_field_width(p->tp, i) > w)
				w = trace_tep_field_width(p->tp, i);
			p->cols[p->nr_cols++] = (struct col){ .type = type, .key = key,
							      .width = w, .field = i };
		}
		return;
	}
	if (p->nr_cols == NR_MAX_COLS)
		return;
	/* the pid column is as wide as its title "    Pid:Command" at least */
	if (type == COL_KEY && key == SORT_PID && width < 15)
		width = 15;
	/* in the group view every number column holds one value per member */
	if (type != COL_KEY && p->o->nr_group > 1)
		width *= p->o->nr_group;
	p->cols[p->nr_cols++] = (struct col){ .type = type, .key = key, .width = width, .left = left };
}

static bool entry_visible(const struct printer *p, const struct hist_entry *e)
{
	u64 v = p->hists->opts.children ? e->acc_period : e->period;

	if (e->filtered)
		return false;
	if (p->o->percent_limit > 0 && p->total &&
	    100.0 * (double)v / (double)p->total < p->o->percent_limit)
		return false;
	return true;
}

/* num_col_width - the width of a number column (perf's) */
static int num_col_width(int type)
{
	switch (type) {
	case COL_SAMPLE:
	case COL_PERIOD:
		return 12;
	case COL_OVERHEAD_GUEST_SYS:
	case COL_OVERHEAD_GUEST_US:
		return 9;
	default:
		return 8;
	}
}

static void setup_cols(struct printer *p)
{
	struct hists *h = p->hists;

	for (size_t i = 0; i < h->nr_entries && !p->tp; i++)
		p->tp = h->entries[i]->tp;

	if (h->opts.nr_fields) {
		/* -F: exactly these columns, in this order */
		for (int i = 0; i < h->opts.nr_fields; i++) {
			const struct hist_field *f = &h->opts.fields[i];

			if (f->type == COL_KEY)
				add_col(p, COL_KEY, f->key, key_min_width(f->key),
					!key_right_aligned(f->key));
			else if (f->type == COL_CHILDREN && !h->opts.children)
				continue;
			else
				add_col(p, f->type, 0, num_col_width(f->type), false);
		}
		goto widths;
	}
	if (h->opts.children && !h->opts.hide_children) {
		add_col(p, COL_CHILDREN, 0, 8, false);
		add_col(p, COL_OVERHEAD, 0, 8, false);
	} else {
		add_col(p, COL_OVERHEAD, 0, 8, false);
	}
	if (p->o->show_nr_samples)
		add_col(p, COL_SAMPLE, 0, 12, false);
	if (p->o->show_total_period)
		add_col(p, COL_PERIOD, 0, 12, false);
	if (h->opts.nr_sort_list) {
		/* --sort naming output fields: each one not shown yet, in its place */
		for (int i = 0; i < h->opts.nr_sort_list; i++) {
			const struct hist_field *f = &h->opts.sort_list[i];
			bool shown = false;

			for (int c = 0; c < p->nr_cols; c++)
				shown |= p->cols[c].type == (int)f->type &&
					 (f->type != COL_KEY || p->cols[c].key == (int)f->key);
			/* without children perf still shows the column ("N/A") if
			 * the file has callchains */
			if (shown || (f->type == COL_CHILDREN &&
				      (h->opts.children || !h->opts.file_callchains)))
				continue;
			if (f->type != COL_KEY)
				add_col(p, f->type, 0, num_col_width(f->type), false);
			else if (f->key >= 32 || !((p->o->elide_keys >> f->key) & 1) || h->opts.nr_keys <= 1)
				add_col(p, COL_KEY, f->key, key_min_width(f->key),
					!key_right_aligned(f->key));
		}
		goto widths;
	}
	for (int i = 0; i < h->opts.nr_keys; i++) {
		int k = h->opts.keys[i];

		if (k < 32 && ((p->o->elide_keys >> k) & 1) && h->opts.nr_keys > 1)
			continue;
		add_col(p, COL_KEY, k, key_min_width(k), !key_right_aligned(k));
	}
widths:
	/* widths from the entries that will be shown */
	for (size_t i = 0; i < h->nr_entries; i++) {
		const struct hist_entry *e = h->entries[i];

		if (e->filtered)
			continue;
		if (!e->frame->sym) {
			/* room for a raw address, as perf makes for any unresolved entry */
			for (int c = 0; c < p->nr_cols; c++) {
				struct col *col = &p->cols[c];

				if (col->type != COL_KEY)
					continue;
				if (col->key == SORT_DSO && col->width < 16 && !p->o->has_dso_filter &&
				    !p->o->field_sep)
					col->width = 16;
				if ((col->key == SORT_SYM || col->key == SORT_SYMBOL_DADDR) &&
				    col->width < 22)
					col->width = 22;
				if (col->key == SORT_DSO_DADDR && col->width < 16 && !p->o->field_sep)
					col->width = 16;
			}
		}
		for (int c = 0; c < p->nr_cols; c++) {
			struct col *col = &p->cols[c];
			int w;

			/* cpu and socket keep their 3-wide title width, as perf's do */
			/*
			 * perf formats a payload only when comparing it, so the
			 * trace column of a lone entry keeps its title width
			 */
			/* and the sizes theirs: a longer number overflows the column */
			if (col->type == COL_KEY && is_fields_key(col->key)) {
				w = field_width(p, e, col);
				if (w > col->width)
					col->width = w;
				continue;
			}
			if (col->type != COL_KEY || col->key == SORT_CPU || col->key == SORT_SOCKET ||
			    col->key == SORT_SYM_SIZE || col->key == SORT_DSO_SIZE ||
			    sort_key_is_mem(col->key) ||
			    (col->key == SORT_TRACE && !(e->lazy_compared & HIST_LAZY_TRACE)) ||
			    (col->key == SORT_SRCLINE && !(e->lazy_compared & HIST_LAZY_SRCLINE)) ||
			    (col->key == SORT_SRCFILE && !(e->lazy_compared & HIST_LAZY_SRCFILE)))
				continue;
			w = (int)strlen(key_text(p, e, col->key, p->buf, sizeof(p->buf)));
			/* perf sizes an unresolved symbol by the raw address alone, even with -v */
			if (col->key == SORT_SYM && !e->frame->sym && p->o->verbose)
				w = 22;
			/* perf sizes the symbol column by the name, without " (inlined)" */
			if (col->key == SORT_SYM && e->frame->inlined)
				w -= (int)strlen(" (inlined)");
			/* perf sizes the comm column by the thread's last comm */
			if (col->key == SORT_COMM)
				w = (int)strlen(e->thread->comm);
			/* perf -v makes the pid column room for a 7-wide comm at least */
			if (col->key == SORT_PID && p->o->verbose && w < 15)
				w = 15;
			if (w > col->width)
				col->width = w;
		}
	}
}

static const char *col_title(const struct col *c)
{
	switch (c->type) {
	case COL_OVERHEAD:
		return "Self";
	case COL_CHILDREN:
		return "Children";
	case COL_SAMPLE:
		return "Samples";
	case COL_PERIOD:
		return "Period";
	case COL_OVERHEAD_SYS:
		return "sys";
	case COL_OVERHEAD_US:
		return "usr";
	case COL_OVERHEAD_GUEST_SYS:
		return "guest sys";
	case COL_OVERHEAD_GUEST_US:
		return "guest usr";
	default:
		return c->key == SORT_TRACE_FIELDS || c->key == SORT_TRACE_FIELDS_RAW ? NULL
										 : key_title(c->key);
	}
}

static void print_titles(struct printer *p)
{
	FILE *fp = p->fp;

	fputs("# ", fp);
	for (int c = 0; c < p->nr_cols; c++) {
		const struct col *col = &p->cols[c];
		const char *t = col_title(col);

		if (!t)
			t = trace_tep_field_name(p->tp, col->field);

		if (col->type == COL_OVERHEAD &&
		    (!p->hists->opts.children || p->hists->opts.hide_children || p->o->overhead_title))
			t = "Overhead";
		if (c)
			fputs(p->o->field_sep ? p->o->field_sep : "  ", fp);
		if (col->type == COL_KEY && col->key == SORT_PID)
			/* "Pid" lines up with the right-aligned tids */
			fprintf(fp, "%-*s", col->width, "    Pid:Command");
		else if (col->type == COL_KEY && col->left)
			fprintf(fp, "%-*s", col->width, t);
		else
			fprintf(fp, "%*s", col->width, t);
	}
	if (p->o->field_sep) {
		/* perf -t: no dot rule */
		fputc('\n', fp);
		return;
	}
	fputs("\n# ", fp);
	for (int c = 0; c < p->nr_cols; c++) {
		if (c)
			fputs("  ", fp);
		for (int i = 0; i < p->cols[c].width; i++)
			fputc('.', fp);
	}
	fputs("\n#\n", fp);
}

static double pct(u64 v, u64 total)
{
	return total ? 100.0 * (double)v / (double)total : 0.0;
}

/*
 * pct_text - "%.2f%%" of @v into @buf (at least 32 bytes). The hundredths
 * are rounded here unless @v lies near a tie, a sign or out of range:
 * snprintf decides those, so the text is always printf's.
 */
static void pct_text(char *buf, size_t size, double v)
{
	double x = v * 100.0, fl, frac;
	char digits[24];
	int nd = 0;
	size_t o = 0;
	u64 n;

	if (!(v >= 0.0 && v < 1e9) || signbit(v))
		goto slow;
	fl = floor(x);
	frac = x - fl;
	if (fabs(frac - 0.5) < 1e-6)
		goto slow;
	n = (u64)fl + (frac > 0.5);
	/* the digits of n, at least three (0.0x), lowest first */
	do {
		digits[nd++] = (char)('0' + n % 10);
		n /= 10;
	} while (n || nd < 3);
	while (nd > 2)
		buf[o++] = digits[--nd];
	buf[o++] = '.';
	buf[o++] = digits[1];
	buf[o++] = digits[0];
	buf[o++] = '%';
	buf[o] = '\0';
	return;
slow:
	snprintf(buf, size, "%.2f%%", v);
}

/*
 * sep_safe - perf -t: the separator's first character inside a value
 * becomes '.' (the "[k]" level marker included, as in perf). Returns
 * @t or a copy in @p's scratch.
 */
static const char *sep_safe(struct printer *p, const char *t, char sep)
{
	static char copy[4096];
	size_t n = strlen(t);

	if (!strchr(t, sep))
		return t;
	if (n >= sizeof(copy))
		n = sizeof(copy) - 1;
	memmove(copy, t, n);
	copy[n] = '\0';
	for (size_t i = 0; i < n; i++)
		if (copy[i] == sep)
			copy[i] = '.';
	(void)p;
	return copy;
}

static void print_row(struct printer *p, const struct hist_entry *e)
{
	FILE *fp = p->fp;
	char num[64];

	const char *sep = p->o->field_sep;

	if (!sep)
		fputs("  ", fp);
	for (int c = 0; c < p->nr_cols; c++) {
		const struct col *col = &p->cols[c];
		bool last = c == p->nr_cols - 1;

		if (c)
			fputs(sep ? sep : "  ", fp);
		switch (col->type) {
		case COL_OVERHEAD_SYS:
		case COL_OVERHEAD_US:
		case COL_OVERHEAD_GUEST_SYS:
		case COL_OVERHEAD_GUEST_US: {
			int n = p->o->nr_group > 1 && e->grp ? p->o->nr_group : 1;
			int w = col->width / (p->o->nr_group > 1 ? p->o->nr_group : 1);
			int mode = col->type - COL_OVERHEAD_SYS;

			/* in the group view one value per member */
			for (int m = 0; m < n; m++) {
				u64 v = n > 1 ? e->grp[m].period_mode[mode] : e->period_mode[mode];

				pct_text(num, sizeof(num),
					 pct(v, n > 1 ? p->o->group_totals[m] : p->total));
				if (sep)
					fprintf(fp, " %-*s", w - 1, num);
				else /* perf's " %*.2f%%": 1000% and more overflow by one */
					fprintf(fp, " %*s", w - 1, num);
			}
			break;
		}
		case COL_OVERHEAD:
		case COL_CHILDREN:
		case COL_SAMPLE:
		case COL_PERIOD: {
			int n = p->o->nr_group > 1 && e->grp ? p->o->nr_group : 1;
			int w = col->width / (p->o->nr_group > 1 ? p->o->nr_group : 1);

			for (int m = 0; m < n; m++) {
				u64 period = n > 1 ? e->grp[m].period : e->period;
				u64 acc = n > 1 ? e->grp[m].acc_period : e->acc_period;
				u64 events = n > 1 ? e->grp[m].nr_events : e->nr_events;
				u64 total = n > 1 ? p->o->group_totals[m] : p->total;

				if (col->type == COL_CHILDREN && !p->hists->opts.children)
					snprintf(num, sizeof(num), "N/A");
				else if (col->type == COL_OVERHEAD)
					pct_text(num, sizeof(num), pct(period, total));
				else if (col->type == COL_CHILDREN)
					pct_text(num, sizeof(num), pct(acc, total));
				else
					snprintf(num, sizeof(num), "%llu",
						 (unsigned long long)(col->type == COL_SAMPLE ? events
											       : period));
				if (col->type == COL_CHILDREN && !p->hists->opts.children)
					fprintf(fp, "%*s", w, num); /* "N/A", right-aligned even with -t */
				else if (sep) /* perf -t: " value", left-aligned */
					fprintf(fp, " %-*s", w - 1, num);
				else if (col->type == COL_OVERHEAD || col->type == COL_CHILDREN)
					/* perf's " %*.2f%%": 1000% and more overflow by one */
					fprintf(fp, " %*s", w - 1, num);
				else
					fprintf(fp, "%*s", w, num);
			}
			break;
		}
		default: {
			const char *t = is_fields_key(col->key)
					? field_text(p, e, col, NULL)
					: key_text(p, e, col->key, p->buf, sizeof(p->buf));

			/* perf leaves the separator in trace_fields values */
			if (sep && !is_fields_key(col->key))
				t = sep_safe(p, t, *sep);

			if (is_fields_key(col->key))
				fprintf(fp, "%*.*s", col->width, col->width, t); /* cut to the column */
			else if ((col->key == SORT_TRACE || col->key == SORT_SRCLINE ||
				  col->key == SORT_SRCFILE) && last)
				fprintf(fp, "%.*s", col->width, t); /* cut to the column, unpadded */
			else if ((col->key == SORT_SYM || col->key == SORT_TIME ||
				  col->key == SORT_CGROUP || col->key == SORT_CGROUP_ID) && last)
				fputs(t, fp);
			else if ((col->key == SORT_LOCKED || col->key == SORT_BLOCKED) && last)
				fputs(t, fp); /* perf pads these only before another column */
			else if (sort_key_is_mem(col->key))
				fprintf(fp, "%-*s", col->width, t); /* a longer text overflows */
			else if (col->left)
				fprintf(fp, "%-*.*s", col->width, col->width, t);
			else
				fprintf(fp, "%*s", col->width, t);
			break;
		}
		}
	}
	fputc('\n', fp);
}

u64 hists_visible_period(const struct hists *hists)
{
	u64 sum = 0;

	for (size_t i = 0; i < hists->nr_entries; i++)
		if (!hists->entries[i]->filtered)
			sum += hists->entries[i]->period;
	return sum;
}

/* the samples of the entries the filters let through (self, as the period) */
static u64 hists_visible_samples(const struct hists *hists)
{
	u64 sum = 0;

	for (size_t i = 0; i < hists->nr_entries; i++)
		if (!hists->entries[i]->filtered)
			sum += hists->entries[i]->nr_events;
	return sum;
}

void hists_fprintf_event_header(const struct hists *hists, const struct hists_print_opts *o,
				FILE *fp)
{
	u64 n = hists->nr_samples, count = hists->total_period;

	if (!o->percent_absolute) {
		/* relative: what the filters let through */
		n = hists_visible_samples(hists);
		count = hists_visible_period(hists);
	}

	if (o->nr_group > 1) {
		n = o->group_nr_samples;
		count = o->group_period;
	}
	char unit = ' ';

	if (n > 1000ULL * 1000 * 1000) {
		n /= 1000ULL * 1000 * 1000;
		unit = 'G';
	} else if (n > 1000ULL * 1000) {
		n /= 1000ULL * 1000;
		unit = 'M';
	} else if (n > 1000) {
		n /= 1000;
		unit = 'K';
	}
	fprintf(fp, "# Samples: %llu%c of event%s '%s'", (unsigned long long)n, unit,
		o->plural ? "s" : "", o->event_name ? o->event_name : "");
	if (o->time_str)
		fprintf(fp, " (time slices: %s)", o->time_str);
	fputc('\n', fp);
	if (o->total_weight)
		fprintf(fp, "# Total weight : %llu\n", (unsigned long long)count);
	else
		fprintf(fp, "# Event count (approx.): %llu\n", (unsigned long long)count);
	if (o->sort_order)
		fprintf(fp, "# Sort order   : %s\n", o->sort_order);
	fputs("#\n", fp);
}

size_t hists_fprintf(struct hists *hists, const struct hists_print_opts *o, FILE *fp)
{
	struct printer p = { .hists = hists, .o = o, .fp = fp, .field = STRBUF_INIT };
	size_t printed = 0;

	p.total = o->percent_absolute ? hists->total_period : hists_visible_period(hists);
	setup_cols(&p);
	if (!o->quiet)
		print_titles(&p);
	for (int c = 0; c < o->nr_col_widths && c < p.nr_cols; c++)
		if (o->col_widths[c] > 0)
			p.cols[c].width = o->col_widths[c];
	for (size_t i = 0; i < hists->nr_entries; i++) {
		const struct hist_entry *e = hists->entries[i];

		if (!entry_visible(&p, e))
			continue;
		if (o->max_entries && printed >= o->max_entries)
			break;
		print_row(&p, e);
		hist_entry_fprintf_callchain(hists, e, o, p.total, fp);
		printed++;
	}
	free(p.origin);
	strbuf_release(&p.field);
	free(p.raw);
	return printed;
}

/* ---- row by row (the TUI browsers) ---- */

struct hists_rows {
	struct printer p;
};

struct hists_rows *hists_rows_new(struct hists *hists, const struct hists_print_opts *o)
{
	struct hists_rows *r = xzalloc(sizeof(*r));

	r->p.hists = hists;
	r->p.o = o;
	strbuf_init(&r->p.field, 0);
	r->p.total = o->percent_absolute ? hists->total_period : hists_visible_period(hists);
	setup_cols(&r->p);
	for (int c = 0; c < o->nr_col_widths && c < r->p.nr_cols; c++)
		if (o->col_widths[c] > 0)
			r->p.cols[c].width = o->col_widths[c];
	return r;
}

void hists_rows_free(struct hists_rows *r)
{
	if (!r)
		return;
	free(r->p.origin);
	strbuf_release(&r->p.field);
	free(r->p.raw);
	free(r);
}

u64 hists_rows_total(const struct hists_rows *r)
{
	return r->p.total;
}

void hists_rows_update_total(struct hists_rows *r)
{
	r->p.total = r->p.o->percent_absolute ? r->p.hists->total_period
					      : hists_visible_period(r->p.hists);
}

bool hists_rows_visible(const struct hists_rows *r, const struct hist_entry *e)
{
	return entry_visible(&r->p, e);
}

void hists_rows_title(struct hists_rows *r, FILE *fp)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	char *nl;

	if (!mem)
		return;
	r->p.fp = mem;
	print_titles(&r->p);
	fclose(mem);
	/* the first line, without perf's "# " */
	nl = text ? strchr(text, '\n') : NULL;
	if (nl)
		*nl = '\0';
	if (text && len > 2)
		fputs(text + 2, fp);
	free(text);
}

void hists_rows_entry(struct hists_rows *r, const struct hist_entry *e, FILE *fp)
{
	r->p.fp = fp;
	print_row(&r->p, e);
}
