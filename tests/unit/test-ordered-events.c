/* SPDX-License-Identifier: MIT */
/* Unit tests for session/ordered-events: delivery order, ties, partial flushes, kept and copied records. */
#include "test.h"
#include "session/ordered-events.h"
#include "lib/xalloc.h"

/* records are 16 bytes: header + one u64 naming the record */
struct rec {
	struct perf_event_header h;
	u64 name;
};

struct got {
	u64 names[4096];
	u64 times[4096];
	u64 offsets[4096]; /* record_pos offset, ~0 without one */
	int n;
	int stop_at; /* return non-zero on this delivery (1-based), 0: never */
};

static int collect(void *arg, const union perf_event *ev, u64 time, const struct record_pos *pos)
{
	struct got *g = arg;
	const struct rec *r = (const struct rec *)ev;

	g->names[g->n] = r->name;
	g->times[g->n] = time;
	g->offsets[g->n] = pos ? pos->offset : ~0ULL;
	g->n++;
	return g->stop_at && g->n == g->stop_at ? 7 : 0;
}

static struct rec *recs_new(int n)
{
	struct rec *v = xcalloc((size_t)n, sizeof(*v));

	for (int i = 0; i < n; i++) {
		v[i].h.type = PERF_RECORD_SAMPLE;
		v[i].h.size = sizeof(v[i]);
		v[i].name = (u64)i;
	}
	return v;
}

/* queue record @i of @v at @time, copied when @copy, else in place */
static void put(struct ordered_events *oe, struct rec *v, int i, u64 time, bool copy)
{
	struct record_pos pos = { (u64)i * 100, ~0ULL, NULL };

	if (copy)
		ordered_events_queue(oe, (const union perf_event *)&v[i], time, &pos);
	else
		ordered_events_queue_kept(oe, (const union perf_event *)&v[i], time);
}

TEST(ordered_events_merges_runs_ties_in_arrival_order)
{
	/* two rings' runs, interleaved in time, with equal times across and within runs */
	static const u64 t[] = { 10, 20, 20, 30, 50, /* run 2: */ 5, 20, 25, 50, 60 };
	static const u64 want[] = { 5, 0, 1, 2, 6, 7, 3, 4, 8, 9 };
	struct rec *v = recs_new(10);
	struct ordered_events *oe = ordered_events_new(0, false);
	struct got *g = xzalloc(sizeof(*g));

	for (int i = 0; i < 10; i++)
		put(oe, v, i, t[i], i % 3 == 0);
	EXPECT_EQ(ordered_events_max_time(oe), 60);
	EXPECT_EQ(ordered_events_flush(oe, 0, true, collect, g), 0);
	EXPECT_EQ(g->n, 10);
	for (int i = 0; i < 10; i++)
		EXPECT_EQ(g->names[i], want[i]);
	EXPECT_EQ(ordered_events_last_delivered(oe), 60);
	ordered_events_free(oe);
	free(g);
	free(v);
}

TEST(ordered_events_flush_limit_keeps_the_rest)
{
	struct rec *v = recs_new(12);
	struct ordered_events *oe = ordered_events_new(0, false);
	struct got *g = xzalloc(sizeof(*g));

	/* round 1: times 1..6 in two runs */
	for (int i = 0; i < 6; i++)
		put(oe, v, i, i < 3 ? (u64)(2 * i + 1) : (u64)(2 * (i - 3) + 2), false);
	EXPECT_EQ(ordered_events_flush(oe, 3, false, collect, g), 0);
	EXPECT_EQ(g->n, 3);
	EXPECT_EQ(g->times[0], 1);
	EXPECT_EQ(g->times[2], 3);
	/* left: records 2, 4, 5 (times 5, 4, 6); record 2 came first */
	EXPECT_TRUE(ordered_events_oldest_kept(oe) == (const union perf_event *)&v[2]);
	/* round 2: more, some older than what is left */
	for (int i = 6; i < 12; i++)
		put(oe, v, i, (u64)(i - 2), i & 1);
	EXPECT_EQ(ordered_events_flush(oe, 0, true, collect, g), 0);
	EXPECT_EQ(g->n, 12);
	for (int i = 1; i < 12; i++)
		EXPECT_TRUE(g->times[i] >= g->times[i - 1]);
	EXPECT_TRUE(ordered_events_oldest_kept(oe) == NULL);
	ordered_events_free(oe);
	free(g);
	free(v);
}

TEST(ordered_events_many_runs_and_compaction)
{
	enum { N = 3000 };
	struct rec *v = recs_new(N);
	struct ordered_events *oe = ordered_events_new(0, false);
	struct got *g = xzalloc(sizeof(*g));
	u64 last = 0;
	int delivered = 0;

	/* descending blocks make many short runs; partial flushes leave holes */
	for (int round = 0; round < 10; round++) {
		for (int i = round * (N / 10); i < (round + 1) * (N / 10); i++)
			put(oe, v, i, (u64)(round * 1000 + (997 * i) % 1000), i % 7 == 0);
		g->n = 0;
		EXPECT_EQ(ordered_events_flush(oe, (u64)(round * 1000 + 500), false, collect, g), 0);
		for (int i = 0; i < g->n; i++) {
			EXPECT_TRUE(g->times[i] >= last);
			last = g->times[i];
		}
		delivered += g->n;
	}
	g->n = 0;
	EXPECT_EQ(ordered_events_flush(oe, 0, true, collect, g), 0);
	for (int i = 0; i < g->n; i++) {
		EXPECT_TRUE(g->times[i] >= last);
		last = g->times[i];
	}
	EXPECT_EQ(delivered + g->n, N);
	ordered_events_free(oe);
	free(g);
	free(v);
}

TEST(ordered_events_half_positions_and_stop)
{
	struct rec *v = recs_new(8);
	struct ordered_events *oe = ordered_events_new(64, true);
	struct got *g = xzalloc(sizeof(*g));

	for (int i = 0; i < 8; i++)
		put(oe, v, i, (u64)(8 - i), !(i & 1)); /* kept asked: positions force copies */
	EXPECT_TRUE(ordered_events_over_limit(oe));
	EXPECT_TRUE(ordered_events_oldest_kept(oe) == NULL);
	EXPECT_EQ(ordered_events_flush_half(oe, collect, g), 0);
	EXPECT_EQ(g->n, 4);
	EXPECT_EQ(g->names[0], 7);
	EXPECT_EQ(g->offsets[0], 0); /* asked as kept: copied without a position */
	EXPECT_EQ(g->offsets[1], 600);
	EXPECT_EQ(g->names[3], 4);
	/* a callback's non-zero return stops the flush; the rest stays queued */
	g->stop_at = 5;
	EXPECT_EQ(ordered_events_flush(oe, 0, true, collect, g), 7);
	EXPECT_EQ(g->n, 5);
	EXPECT_EQ(g->names[4], 3);
	g->stop_at = 0;
	EXPECT_EQ(ordered_events_flush(oe, 0, true, collect, g), 0);
	EXPECT_EQ(g->n, 8);
	EXPECT_EQ(g->names[7], 0);
	EXPECT_EQ(g->offsets[7], 0);
	EXPECT_TRUE(!ordered_events_over_limit(oe));
	ordered_events_free(oe);
	free(g);
	free(v);
}
