/* SPDX-License-Identifier: MIT */
/* Unit tests for ui/events-option: -e appends, --filter binds to the last -e's events. */
#include "test.h"

#include <stdlib.h>
#include <sys/stat.h>

#include "core/evlist.h"
#include "lib/optspec.h"
#include "lib/xalloc.h"
#include "cmd/events-option.h"

static void fake_tracefs(void)
{
	const char *dir = test_tmpdir();
	static const char *const paths[] = { "t", "t/events", "t/events/sched",
					     "t/events/sched/sched_switch", "t/events/sched/sched_wakeup",
					     "p", "p/software" };

	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		char *p = xasprintf("%s/%s", dir, paths[i]);

		mkdir(p, 0755);
		free(p);
	}
	for (int i = 0; i < 3; i++) {
		const char *rel[] = { "t/events/sched/sched_switch/id", "t/events/sched/sched_wakeup/id",
				      "p/software/type" };
		const char *val[] = { "316\n", "318\n", "1\n" };
		char *p = xasprintf("%s/%s", dir, rel[i]);
		FILE *f = fopen(p, "w");

		ASSERT_TRUE(f);
		fputs(val[i], f);
		fclose(f);
		free(p);
	}
	{
		char *t = xasprintf("%s/t", dir), *p = xasprintf("%s/p", dir);

		setenv("SONDE_TRACEFS", t, 1);
		setenv("SONDE_PMU_DIR", p, 1);
		free(t);
		free(p);
	}
}

TEST(events_option_appends_and_marks_boundaries)
{
	struct evlist *evlist = NULL;
	struct opt_spec opt = SPEC_FN("event", 'e', &evlist, "event", "", parse_events_option);

	EXPECT_EQ(parse_events_option(&opt, "cs,faults", 0), 0);
	ASSERT_TRUE(evlist);
	EXPECT_EQ(parse_events_option(&opt, "cpu-clock", 0), 0);
	EXPECT_EQ(evlist->nr_entries, 3);
	EXPECT_EQ(evlist_first(evlist)->event_option_nr, 1);
	EXPECT_EQ(evlist_last(evlist)->event_option_nr, 2);
	EXPECT_TRUE(!evsel_from_newest_event_option(evlist, evlist_first(evlist)));
	EXPECT_TRUE(evsel_from_newest_event_option(evlist, evlist_last(evlist)));
	/* a bad string prints perf's error and asks for the usage */
	prog_name = "perf";
	EXPECT_EQ(parse_events_option(&opt, "bogus", 0), -1);
	EXPECT_EQ(evlist->nr_entries, 3);
	EXPECT_EQ(parse_events_option_stat(&opt, "cpu-clock/freq=1/", 0), -1);
	EXPECT_EQ(parse_events_option(&opt, "cpu-clock/freq=1/", 0), 0);
	evlist_free(evlist);
}

TEST(filter_option_binds_to_last_event_option)
{
	struct evlist *evlist = NULL;
	struct opt_spec e = SPEC_FN("event", 'e', &evlist, "event", "", parse_events_option);
	struct opt_spec f = SPEC_FN("filter", 0, &evlist, "filter", "", parse_filter_option);
	struct evsel *evsel;

	fake_tracefs();
	EXPECT_EQ(parse_filter_option(&f, "x", 0), -1); /* no -e yet */
	EXPECT_EQ(parse_events_option(&e, "sched:sched_switch", 0), 0);
	EXPECT_EQ(parse_events_option(&e, "sched:sched_*", 0), 0);
	EXPECT_EQ(parse_filter_option(&f, "prev_pid > 0", 0), 0);
	EXPECT_EQ(parse_filter_option(&f, "next_pid > 0", 0), 0);
	EXPECT_EQ(evlist->nr_entries, 3);
	evsel = evlist_first(evlist);
	EXPECT_TRUE(evsel->filter == NULL);
	evlist_for_each_entry(evlist, evsel)
		if (evsel->idx > 0)
			EXPECT_STREQ(evsel->filter, "(prev_pid > 0) && (next_pid > 0)");
	/* a software event in the last -e cannot take a filter */
	EXPECT_EQ(parse_events_option(&e, "sched:sched_switch,cs", 0), 0);
	EXPECT_EQ(parse_filter_option(&f, "x", 0), -1);
	evlist_free(evlist);
}
