/* SPDX-License-Identifier: MIT */
/* Parsers of the sample selections report and script share (--time, --cpu, id and name lists). */
#include "session/sample-filter.h"
#include "core/cpumap.h"
#include "lib/xalloc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ---- --time ---- */

/* seconds_parse - "SECS[.FRACTION]" (at most 9 decimals) in @len bytes; empty is 0 */
static int seconds_parse(const char *s, size_t len, u64 *ns)
{
	u64 whole = 0, frac = 0;
	int decimals = 0;
	size_t i = 0;

	while (i < len && s[i] >= '0' && s[i] <= '9')
		whole = whole * 10 + (u64)(s[i++] - '0');
	if (i < len && s[i] == '.')
		for (i++; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
			if (++decimals > 9)
				return -EINVAL;
			frac = frac * 10 + (u64)(s[i] - '0');
		}
	if (i != len)
		return -EINVAL;
	for (; decimals < 9; decimals++)
		frac *= 10;
	*ns = whole * NSEC_PER_SEC + frac;
	return 0;
}

static void span_add(struct time_span **spans, int *nr, u64 start, u64 end)
{
	*spans = xreallocarray(*spans, (size_t)*nr + 1, sizeof(**spans));
	(*spans)[(*nr)++] = (struct time_span){ .start = start, .end = end };
}

/*
 * absolute_parse - "start,stop" pieces separated by runs of spaces (leading
 * ones skipped, a trailing one refused); after the first piece each must
 * start after the previous one ended
 */
static int absolute_parse(const char *str, struct time_span **spans, int *nr)
{
	const char *p = str;

	while (*p == ' ')
		p++;
	if (!*p)
		return -EINVAL;
	while (*p) {
		size_t len = strcspn(p, " ");
		const char *comma = memchr(p, ',', len);
		u64 start, end;

		if (!comma || memchr(comma + 1, ',', len - (size_t)(comma - p) - 1) ||
		    seconds_parse(p, (size_t)(comma - p), &start) ||
		    seconds_parse(comma + 1, len - (size_t)(comma - p) - 1, &end))
			return -EINVAL;
		if (start && end && start > end)
			return -EINVAL;
		if (*nr) {
			const struct time_span *prev = &(*spans)[*nr - 1];

			if (!prev->end || start <= prev->end)
				return -EINVAL;
		}
		span_add(spans, nr, start, end);
		p += len;
		if (*p) {
			while (*p == ' ')
				p++;
			if (!*p)
				return -EINVAL;
		}
	}
	return 0;
}

/* percent_parse - "<number>%" at @s: the fraction (0.1 for 10%), *@after past the '%' */
static int percent_parse(const char *s, double *frac, const char **after)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || *end != '%')
		return -EINVAL;
	*frac = v / 100;
	*after = end + 1;
	return 0;
}

/*
 * slice_span - the @n-th slice of @frac of [@first, @last]; the last slice
 * ends with the last sample
 */
static int slice_span(double frac, long n, u64 first, u64 last, struct time_span *out)
{
	double span = last > first ? (double)(last - first) : 0;

	if (frac <= 0 || frac > 1 || n < 1)
		return -EINVAL;
	out->start = first + (u64)(span * frac * (double)(n - 1));
	if (out->start > last)
		return -EINVAL;
	out->end = out->start + (u64)(span * frac) - 1;
	if (out->end > last || frac * (double)n >= 1.0)
		out->end = last;
	return 0;
}

/*
 * percent_item_parse - one item of a percent list: "P%<ignored>/N" when
 * @slices, else "A%-B%" (B below A selects nothing)
 */
static int percent_item_parse(const char *item, bool slices, u64 first, u64 last,
			      struct time_span *out)
{
	double span = last > first ? (double)(last - first) : 0;
	const char *rest;
	double a, b;

	if (percent_parse(item, &a, &rest))
		return -EINVAL;
	if (slices) {
		const char *slash = strchr(rest, '/');
		char *end;
		long n;

		if (!slash)
			return -EINVAL;
		n = strtol(slash + 1, &end, 10);
		if (end == slash + 1 || *end)
			return -EINVAL;
		return slice_span(a, n, first, last, out);
	}
	if (*rest != '-' || percent_parse(rest + 1, &b, &rest) || *rest)
		return -EINVAL;
	if (a < 0 || b > 1)
		return -EINVAL;
	out->start = first + (u64)(span * a);
	out->end = first + (u64)(span * b);
	return 0;
}

/*
 * percents_parse - the form is the whole string's: slices when it has a
 * '/', spans when it has a '-', else one "P%" (the first slice of P%)
 */
static int percents_parse(const char *str, u64 first, u64 last, struct time_span **spans, int *nr)
{
	struct strvec items = STRVEC_INIT;
	bool slices = strchr(str, '/') != NULL;
	struct time_span one;
	const char *rest;
	double frac;
	int err = 0;

	if (!slices && !strchr(str, '-')) {
		if (percent_parse(str, &frac, &rest) || *rest || slice_span(frac, 1, first, last, &one))
			return -EINVAL;
		span_add(spans, nr, one.start, one.end);
		return 0;
	}
	strvec_split(&items, str, ",");
	for (size_t i = 0; i < items.nr && !err; i++) {
		err = percent_item_parse(items.v[i], slices, first, last, &one);
		if (!err)
			span_add(spans, nr, one.start, one.end);
	}
	strvec_clear(&items);
	return err || !*nr ? -EINVAL : 0;
}

int time_spans_parse(const char *str, u64 first, u64 last, struct time_span **spans, int *nr)
{
	int err;

	*spans = NULL;
	*nr = 0;
	if (!str)
		return -EINVAL;
	err = strchr(str, '%') ? percents_parse(str, first, last, spans, nr)
			       : absolute_parse(str, spans, nr);
	if (err) {
		FREE_AND_NULL(*spans);
		*nr = 0;
	}
	return err;
}

bool time_spans_include(const struct time_span *spans, int nr, u64 t)
{
	if (!nr)
		return true;
	for (int i = 0; i < nr; i++)
		if ((!spans[i].start || t >= spans[i].start) && (!spans[i].end || t <= spans[i].end))
			return true;
	return false;
}

/* ---- --cpu ---- */

int cpu_bitmap_parse(struct cpu_bitmap *bm, const char *list, u32 nr_cpus, int *too_large,
		     int *highest)
{
	u32 limit = nr_cpus && nr_cpus < CPU_LIST_MAX ? nr_cpus : CPU_LIST_MAX;
	struct cpu_map *map;

	*too_large = -1;
	*highest = -1;
	bm->nr_bits = limit;
	bm->bits = xcalloc((limit + 63) / 64, sizeof(u64));
	if (!*list)
		return 0;
	map = cpu_map_parse(list);
	if (!map)
		return -EINVAL;
	*highest = map->map[map->nr - 1];
	for (int i = 0; i < map->nr; i++) {
		u32 cpu = (u32)map->map[i];

		if (cpu >= limit) {
			*too_large = (int)cpu;
			cpu_map_free(map);
			return -ERANGE;
		}
		bm->bits[cpu / 64] |= 1ULL << (cpu % 64);
	}
	cpu_map_free(map);
	return 0;
}

bool cpu_bitmap_has(const struct cpu_bitmap *bm, u32 cpu)
{
	if (!bm->bits)
		return true;
	return cpu < bm->nr_bits && (bm->bits[cpu / 64] >> (cpu % 64) & 1);
}

void cpu_bitmap_release(struct cpu_bitmap *bm)
{
	FREE_AND_NULL(bm->bits);
	bm->nr_bits = 0;
}

/* ---- id and name lists ---- */

int id_list_parse(const char *str, int **ids, int *nr)
{
	struct strvec items = STRVEC_INIT;

	*nr = 0;
	strvec_split(&items, str, ",");
	*ids = xcalloc(items.nr + 1, sizeof(**ids));
	for (size_t i = 0; i < items.nr; i++) {
		char *end;
		long v = strtol(items.v[i], &end, 10);

		if (end == items.v[i] || *end) {
			strvec_clear(&items);
			FREE_AND_NULL(*ids);
			*nr = 0;
			return -EINVAL;
		}
		(*ids)[(*nr)++] = (int)v;
	}
	strvec_clear(&items);
	return 0;
}

void name_list_parse(const char *str, struct strvec *names)
{
	strvec_split(names, str, ",");
}

bool name_list_has(const struct strvec *names, const char *name)
{
	for (size_t i = 0; name && i < names->nr; i++)
		if (!strcmp(names->v[i], name))
			return true;
	return false;
}

bool dso_list_has(const struct strvec *names, const char *long_name)
{
	const char *base;

	if (!long_name)
		return false;
	base = strrchr(long_name, '/');
	base = base ? base + 1 : long_name;
	return name_list_has(names, long_name) || name_list_has(names, base);
}
