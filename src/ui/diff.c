/* SPDX-License-Identifier: MIT */
/* perf diff's table: entries matched across files by their key texts, the computed columns, perf's order and widths. */
#include "ui/diff.h"

#include "core/evlist.h"
#include "core/evsel.h"
#include "lib/hashmap.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "ui/hists.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* struct diff_row - one key (its column texts) and its period in each file */
struct diff_row {
	const char **text; /* per key, interned */
	u64 *period;	   /* per file */
	bool *has;	   /* per file: the file has an entry with these keys */
	const struct hist_entry *first; /* the first entry met (in the first file that has it) */
	u32 *seq;	   /* per file: the sample that made its first entry */
	bool *vis;	   /* per file: that entry passed the filters */
	const struct hists *first_hists;
	u32 order;	   /* creation order */
};

struct diff_table {
	const struct diff_opts *o;
	int nr_files;
	u64 *total;		/* per file: the event's total period */
	u64 base_shown;		/* the baseline's period of the rows shown (the 100% of its column) */
	struct diff_row **rows;
	size_t nr_rows, alloc_rows;
	struct u64map by_key;	/* interned joined key -> row */
	struct strpool pool;
};

static const char *key_title(enum sort_key k)
{
	switch (k) {
	case SORT_COMM:
		return "Command";
	case SORT_PID:
		return "Pid:Command";
	case SORT_DSO:
		return "Shared Object";
	case SORT_SYM:
		return "Symbol";
	case SORT_CPU:
		return "CPU";
	default:
		return sort_key_name(k);
	}
}

static const char *key_text(struct diff_table *t, const struct hist_entry *e, enum sort_key k)
{
	char buf[1024];

	switch (k) {
	case SORT_COMM:
		return e->comm;
	case SORT_PID:
		snprintf(buf, sizeof(buf), "%7d:%s", e->thread ? e->thread->tid : -1,
			 e->thread ? e->thread->comm : "");
		break;
	case SORT_DSO:
		return e->frame && e->frame->dso ? e->frame->dso->short_name : "[unknown]";
	case SORT_SYM:
		hist_entry_sym_text(e, buf, sizeof(buf));
		break;
	case SORT_CPU:
		snprintf(buf, sizeof(buf), "%03d", e->cpu);
		break;
	default:
		buf[0] = '\0';
		break;
	}
	return strpool_intern(&t->pool, buf);
}

static struct diff_row *row_findnew(struct diff_table *t, const struct hists *h,
				    const struct hist_entry *e)
{
	const struct diff_opts *o = t->o;
	const char *texts[SORT_NR_KEYS];
	struct strbuf key = STRBUF_INIT;
	struct diff_row *row;
	const char *ikey;
	for (int i = 0; i < o->nr_keys; i++) {
		texts[i] = key_text(t, e, o->keys[i]);
		/* perf pairs every unresolved address of a dso as one symbol */
		if (o->keys[i] == SORT_SYM && !e->frame->sym) {
			strbuf_addf(&key, "\002[%c]", e->level);
			strbuf_addch(&key, '\001');
			continue;
		}
		strbuf_addstr(&key, texts[i]);
		strbuf_addch(&key, '\001');
	}
	ikey = strpool_intern(&t->pool, key.buf);
	strbuf_release(&key);
	row = u64map_find(&t->by_key, (u64)(uintptr_t)ikey);
	if (row) {
		/* an unresolved symbol shows the lowest address of the file that made the row */
		if (row->first_hists == h && !e->frame->sym && e->addr < row->first->addr) {
			memcpy(row->text, texts, (size_t)o->nr_keys * sizeof(*texts));
			row->first = e;
		}
		return row;
	}
	row = xcalloc(1, sizeof(*row));
	row->text = xcalloc((size_t)o->nr_keys, sizeof(*row->text));
	memcpy(row->text, texts, (size_t)o->nr_keys * sizeof(*texts));
	row->period = xcalloc((size_t)t->nr_files, sizeof(*row->period));
	row->has = xcalloc((size_t)t->nr_files, sizeof(*row->has));
	row->seq = xcalloc((size_t)t->nr_files, sizeof(*row->seq));
	row->vis = xcalloc((size_t)t->nr_files, sizeof(*row->vis));
	row->order = (u32)t->nr_rows;
	row->first = e;
	row->first_hists = h;
	u64map_set(&t->by_key, (u64)(uintptr_t)ikey, row);
	if (t->nr_rows == t->alloc_rows) {
		t->alloc_rows = t->alloc_rows ? 2 * t->alloc_rows : 64;
		t->rows = xreallocarray(t->rows, t->alloc_rows, sizeof(*t->rows));
	}
	t->rows[t->nr_rows++] = row;
	return row;
}

static double pct(u64 v, u64 total)
{
	return total ? 100.0 * (double)v / (double)total : 0.0;
}

/* the computed value of @row for file @f (>= 1); false when there is none to show */
static bool row_value(const struct diff_table *t, const struct diff_row *row, int f, double *v)
{
	const struct diff_opts *o = t->o;

	if (!row->has[f])
		return false;
	switch (o->compute) {
	case DIFF_DELTA:
	case DIFF_DELTA_ABS:
		*v = pct(row->period[f], t->total[f]) - pct(row->period[0], t->total[0]);
		if (o->compute == DIFF_DELTA_ABS)
			*v = fabs(*v);
		return true;
	case DIFF_RATIO:
		if (!row->period[0])
			return false;
		*v = (double)row->period[f] / (double)row->period[0];
		return true;
	case DIFF_WDIFF:
		if (!row->period[0])
			return false;
		*v = (double)((s64)row->period[f] * o->w2 - (s64)row->period[0] * o->w1);
		return true;
	}
	return false;
}

static const struct diff_table *sort_table;

/* perf's rank of a row in the ordering column: a value, then N/A, then no entry */
static int row_rank(const struct diff_table *t, const struct diff_row *r, int f, double *v)
{
	if (row_value(t, r, f, v))
		return 0;
	return r->has[f] ? 1 : 2;
}

static int row_origin(const struct diff_table *t, const struct diff_row *r)
{
	for (int f = 0; f < t->nr_files; f++)
		if (r->has[f])
			return f;
	return t->nr_files;
}

/* -1/1: the row with the larger period in file @f first (0 where it has none) */
static int period_cmp(const struct diff_row *a, const struct diff_row *b, int f)
{
	u64 pa = a->has[f] ? a->period[f] : 0, pb = b->has[f] ? b->period[f] : 0;

	return pa == pb ? 0 : pa > pb ? -1 : 1;
}

/*
 * perf's order, found by running perf diff on many files: the ordering
 * file's column (a value, highest first, then N/A, then no entry). Rows equal
 * there: with a value or N/A, as perf meets them (the baseline's rows, then
 * those new in file 1, 2, ..., each by its period in that file, then in the
 * ordering file); without an
 * entry, the baseline's rows first, by its period. Then by the other files'
 * columns, the baseline's period, the sort keys.
 */
static int row_cmp(const void *pa, const void *pb)
{
	const struct diff_table *t = sort_table;
	const struct diff_row *a = *(const struct diff_row *const *)pa;
	const struct diff_row *b = *(const struct diff_row *const *)pb;
	int first = t->o->order > 0 && t->o->order < t->nr_files ? t->o->order : 1;
	double va = 0, vb = 0;
	int ra = row_rank(t, a, first, &va), rb = row_rank(t, b, first, &vb);
	int c;

	if (ra != rb)
		return ra < rb ? -1 : 1;
	if (!ra && va != vb)
		return va > vb ? -1 : 1;
	if (ra == 2) {
		if (a->has[0] != b->has[0])
			return a->has[0] ? -1 : 1;
		if ((c = period_cmp(a, b, 0)))
			return c;
	} else {
		int oa = row_origin(t, a), ob = row_origin(t, b);

		if (oa != ob)
			return oa < ob ? -1 : 1;
		if (oa < t->nr_files && (c = period_cmp(a, b, oa)))
			return c;
		if ((c = period_cmp(a, b, first)))
			return c;
	}
	for (int f = 1; f < t->nr_files; f++) {
		if (f == first)
			continue;
		ra = row_rank(t, a, f, &va);
		rb = row_rank(t, b, f, &vb);
		if (ra != rb)
			return ra < rb ? -1 : 1;
		if (!ra && va != vb)
			return va > vb ? -1 : 1;
		if (ra == 1 && (c = period_cmp(a, b, f)))
			return c;
	}
	if ((c = period_cmp(a, b, 0)))
		return c;
	c = hists_entry_cmp_keys(a->first_hists, a->first, b->first);
	if (c)
		return c;
	return a->order < b->order ? -1 : a->order > b->order;
}

/* ---- printing ---- */

struct diff_col {
	char title[32];
	int width;
	int kind;	/* 0 baseline %, 1 base period, 2 compute, 3 formula, 4 period, 5 key */
	int file;	/* for 2..4 */
	int key;	/* for 5: index into o->keys */
};

static void col_text(const struct diff_table *t, const struct diff_col *c,
		     const struct diff_row *r, char *buf, size_t len)
{
	const struct diff_opts *o = t->o;
	int f = c->file;
	double v;

	buf[0] = '\0';
	switch (c->kind) {
	case 0:
		if (r->has[0])
			snprintf(buf, len, "%.2f%%", pct(r->period[0], t->base_shown));
		break;
	case 1:
		snprintf(buf, len, "%" PRIu64, r->period[0]);
		break;
	case 2:
		if (!r->has[f])
			break;
		if (!row_value(t, r, f, &v)) {
			snprintf(buf, len, "N/A");
			break;
		}
		if (o->compute == DIFF_DELTA || o->compute == DIFF_DELTA_ABS)
			snprintf(buf, len, "%+.2f%%",
				 pct(r->period[f], t->total[f]) - pct(r->period[0], t->total[0]));
		else if (o->compute == DIFF_RATIO)
			snprintf(buf, len, "%.6f", v);
		else
			snprintf(buf, len, "%" PRId64, (s64)v);
		break;
	case 3:
		if (!r->has[f])
			break;
		if (o->compute == DIFF_RATIO)
			snprintf(buf, len, "%" PRIu64 " / %" PRIu64, r->period[f], r->period[0]);
		else if (o->compute == DIFF_WDIFF)
			snprintf(buf, len, "(%" PRIu64 " * %" PRId64 ") - (%" PRIu64 " * %" PRId64 ")",
				 r->period[f], o->w2, r->period[0], o->w1);
		else
			snprintf(buf, len,
				 "(%" PRIu64 " * 100 / %" PRIu64 ") - (%" PRIu64 " * 100 / %" PRIu64 ")",
				 r->period[f], t->total[f], r->period[0], t->total[0]);
		break;
	case 4:
		if (r->has[f])
			snprintf(buf, len, "%" PRIu64, r->period[f]);
		break;
	default:
		snprintf(buf, len, "%s", r->text[c->key]);
		break;
	}
}

/* a weighted diff value as perf prints it: right-aligned in 14, whatever the title's width */
static const char *tmp_wdiff(const char *v)
{
	static char out[64];

	snprintf(out, sizeof(out), "%14.60s", v); /* values are short: the bound quiets -Wformat-truncation */
	return out;
}

static void add_col(struct diff_col *cols, int *nr, int kind, int file, int key, const char *title,
		    int width, bool multi)
{
	struct diff_col *c = &cols[(*nr)++];

	if (multi && kind < 5)
		snprintf(c->title, sizeof(c->title), "%s/%d", title, kind <= 1 ? 0 : file);
	else
		snprintf(c->title, sizeof(c->title), "%s", title);
	c->kind = kind;
	c->file = file;
	c->key = key;
	c->width = (int)strlen(c->title) > width ? (int)strlen(c->title) : width;
}

static bool row_shown(const struct diff_table *t, const struct diff_row *r)
{
	bool paired = false, visible = false;

	for (int f = 0; f < t->nr_files; f++)
		visible |= r->vis[f];
	if (!visible)
		return false;
	if (!t->o->baseline_only)
		return true;
	for (int f = 1; f < t->nr_files; f++)
		paired |= r->has[f];
	return r->has[0] && paired;
}

static void print_event(struct diff_table *t, const char *event, struct diff_file *files)
{
	const struct diff_opts *o = t->o;
	bool multi = t->nr_files > 2;
	struct diff_col cols[64];
	int nr = 0;
	char buf[1024];
	static const char *const compute_title[] = { "Delta", "Delta Abs", "Ratio", "Weighted diff" };
	const char *sep = o->sep ? o->sep : "  ";

	add_col(cols, &nr, 0, 0, 0, "Baseline", 8, multi);
	if (o->show_period)
		add_col(cols, &nr, 1, 0, 0, "Base period", 14, multi);
	for (int f = 1; f < t->nr_files && nr < 56; f++) {
		add_col(cols, &nr, 2, f, 0, compute_title[o->compute],
			o->compute == DIFF_DELTA || o->compute == DIFF_DELTA_ABS ? 7 : 14, multi);
		if (o->show_formula)
			add_col(cols, &nr, 3, f, 0, "Formula", 70, multi);
		if (o->show_period)
			add_col(cols, &nr, 4, f, 0, "Period", 14, multi);
	}
	for (int k = 0; k < o->nr_keys; k++) {
		if (o->elide_keys & (1u << o->keys[k]))
			continue;
		add_col(cols, &nr, 5, 0, k, key_title(o->keys[k]), 0, multi);
		for (size_t i = 0; i < t->nr_rows; i++) {
			int w = (int)strlen(t->rows[i]->text[k]);

			if (!row_shown(t, t->rows[i]))
				continue;
			w = (int)strlen(t->rows[i]->text[k]);

			if (w > cols[nr - 1].width)
				cols[nr - 1].width = w;
		}
	}

	t->base_shown = 0;
	for (size_t i = 0; i < t->nr_rows; i++)
		if (row_shown(t, t->rows[i]))
			t->base_shown += t->rows[i]->period[0];
	if (!o->baseline_only)
		t->base_shown = t->total[0];
	printf("# Event '%s'\n#\n", event);
	if (multi) {
		printf("# Data files:\n");
		for (int f = 0; f < t->nr_files; f++)
			printf("#  [%d] %s %s\n", f, files[f].path, f ? "" : "(Baseline)");
		printf("#\n");
	}
	printf("# ");
	for (int i = 0; i < nr; i++) {
		if (i)
			printf("%s", sep);
		if (cols[i].kind == 5 && o->keys[cols[i].key] == SORT_PID)
			printf("%7s:%-*s", "Pid", cols[i].width - 8, "Command");
		else if (cols[i].kind == 5)
			printf("%-*s", cols[i].width, cols[i].title);
		else
			printf("%*s", cols[i].width, cols[i].title);
	}
	if (o->sep) {
		printf("\n"); /* perf: no dots and no "#" line with -t */
	} else {
		printf("\n# ");
		for (int i = 0; i < nr; i++) {
			if (i)
				printf("  ");
			for (int k = 0; k < cols[i].width; k++)
				putchar('.');
		}
		printf("\n#\n");
	}
	for (size_t i = 0; i < t->nr_rows; i++) {
		const struct diff_row *r = t->rows[i];

		if (!row_shown(t, r))
			continue;
		if (!o->sep)
			printf("  ");
		for (int c = 0; c < nr; c++) {
			bool right;

			if (c)
				printf("%s", sep);
			col_text(t, &cols[c], r, buf, sizeof(buf));
			if (o->sep && cols[c].kind == 0 && buf[0])
				buf[strlen(buf) - 1] = '\0'; /* perf drops the baseline's '%' with -t */
			if (o->sep && cols[c].kind == 2 && o->compute == DIFF_WDIFF && !strcmp(buf, "0"))
				buf[0] = '\0'; /* and leaves a zero weighted diff blank */
			/* with -t perf left-aligns the numbers, but for ratio and wdiff values */
			right = !o->sep || (cols[c].kind == 2 && o->compute >= DIFF_RATIO && buf[0] &&
					    strcmp(buf, "N/A"));
			if (cols[c].kind == 2 && o->compute == DIFF_WDIFF && buf[0] && strcmp(buf, "N/A"))
				printf("%-*s", cols[c].width, tmp_wdiff(buf)); /* perf: %14 in a wider column */
			else if (cols[c].kind != 5)
				printf(right ? "%*s" : "%-*s", cols[c].width, buf);
			else if (c == nr - 1 && o->keys[cols[c].key] == SORT_SYM)
				printf("%s", buf); /* perf leaves the symbol column unpadded */
			else
				printf("%-*s", cols[c].width, buf);
		}
		printf("\n");
	}
}

static struct hists *file_hists(struct diff_file *file, const char *event)
{
	struct evsel *evsel;

	evlist_for_each_entry(file->rep->session->evlist, evsel)
		if (evsel->name && !strcmp(evsel->name, event) && evsel->idx < file->rep->nr_hists)
			return &file->rep->hists[evsel->idx];
	return NULL;
}

void diff_fprintf(struct diff_file *files, int nr_files, const struct diff_opts *o)
{
	struct evsel *evsel;
	bool first = true;

	evlist_for_each_entry(files[0].rep->session->evlist, evsel) {
		struct diff_table t = { .o = o, .nr_files = nr_files };

		if (!evsel->name || evsel->idx >= files[0].rep->nr_hists ||
		    !files[0].rep->hists[evsel->idx].nr_samples)
			continue;
		u64map_init(&t.by_key);
		strpool_init(&t.pool);
		t.total = xcalloc((size_t)nr_files, sizeof(*t.total));
		for (int f = 0; f < nr_files; f++) {
			struct hists *h = file_hists(&files[f], evsel->name);

			if (!h)
				continue;
			t.total[f] = o->relative ? hists_visible_period(h) : h->total_period;
			for (size_t i = 0; i < h->nr_entries; i++) {
				const struct hist_entry *e = h->entries[i];
				struct diff_row *r;

				/* a filtered entry still pairs (perf matches before it filters) */
				r = row_findnew(&t, h, e);
				r->period[f] += e->period;
				/* perf's entry is filtered or not by the sample that made it */
				if (!r->has[f] || e->seq < r->seq[f]) {
					r->seq[f] = e->seq;
					r->vis[f] = !e->filtered;
				}
				r->has[f] = true;
			}
		}
		sort_table = &t;
		if (t.nr_rows > 1)
			qsort(t.rows, t.nr_rows, sizeof(*t.rows), row_cmp);
		if (!first)
			printf("\n");
		first = false;
		print_event(&t, evsel->name, files);
		for (size_t i = 0; i < t.nr_rows; i++) {
			free(t.rows[i]->text);
			free(t.rows[i]->period);
			free(t.rows[i]->has);
			free(t.rows[i]->seq);
			free(t.rows[i]->vis);
			free(t.rows[i]);
		}
		free(t.rows);
		free(t.total);
		u64map_release(&t.by_key);
		strpool_release(&t.pool);
	}
}
