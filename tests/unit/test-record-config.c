/* Unit tests for core/record-config: perf 6.1's sampling attrs for record options. */
#include "test.h"
#include "core/evlist.h"
#include "core/evsel.h"
#include "core/record-config.h"
#include "lib/xalloc.h"

#include <errno.h>

static struct evlist *one_event(u32 type, u64 config)
{
	struct perf_event_attr attr = { .type = type, .config = config, .exclude_guest = 1 };
	struct evlist *evlist = evlist_new();

	evlist_add(evlist, evsel_new(&attr));
	return evlist;
}

TEST(record_callchain_modes)
{
	struct record_opts o;

	record_opts_init(&o);
	EXPECT_EQ(record_parse_callchain(&o, "fp"), 0);
	EXPECT_EQ(o.callchain, CALLCHAIN_FP);
	EXPECT_EQ(record_parse_callchain(&o, "dwarf"), 0);
	EXPECT_EQ(o.callchain, CALLCHAIN_DWARF);
	EXPECT_EQ(o.dwarf_size, 8192);
	EXPECT_EQ(record_parse_callchain(&o, "dwarf,4093"), 0);
	EXPECT_EQ(o.dwarf_size, 4096); /* rounded up to 8 */
	EXPECT_EQ(record_parse_callchain(&o, "dwarf,65536"), -EINVAL);
	EXPECT_EQ(record_parse_callchain(&o, "lbr"), 0);
	EXPECT_EQ(o.callchain, CALLCHAIN_LBR);
	EXPECT_EQ(record_parse_callchain(&o, "fp,12"), 0); /* perf takes fp,N: at most N frames */
	EXPECT_EQ(o.callchain, CALLCHAIN_FP);
	EXPECT_EQ(o.max_stack, 12);
	EXPECT_EQ(record_parse_callchain(&o, "bogus"), -EINVAL);
}

TEST(record_default_attr_for_a_workload)
{
	struct record_opts o;
	struct evlist *evlist = one_event(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK);
	struct perf_event_attr *a = &evlist_first(evlist)->attr;

	record_opts_init(&o);
	record_config_evlist(evlist, &o, false, false);
	/* perf record -e cpu-clock -- cmd */
	EXPECT_UEQ(a->sample_type, PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
				   PERF_SAMPLE_PERIOD);
	EXPECT_UEQ(a->read_format, PERF_FORMAT_ID | PERF_FORMAT_LOST);
	EXPECT_EQ(a->freq, 1);
	EXPECT_EQ(a->sample_freq, 4000);
	EXPECT_EQ(a->disabled, 1);
	EXPECT_EQ(a->enable_on_exec, 1);
	EXPECT_EQ(a->inherit, 1);
	EXPECT_EQ(a->mmap, 1);
	EXPECT_EQ(a->mmap2, 1);
	EXPECT_EQ(a->comm, 1);
	EXPECT_EQ(a->comm_exec, 1);
	EXPECT_EQ(a->task, 1);
	EXPECT_EQ(a->sample_id_all, 1);
	EXPECT_EQ(record_id_hdr_size(evlist), 16);
	evlist_free(evlist);
}

TEST(record_cpu_wide_adds_tracking_dummy_and_identifier)
{
	struct record_opts o;
	struct evlist *evlist = one_event(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK);
	struct evsel *dummy;

	record_opts_init(&o);
	o.target.system_wide = true;
	record_config_evlist(evlist, &o, true, false);
	EXPECT_EQ(evlist->nr_entries, 2);
	dummy = evlist_last(evlist);
	EXPECT_STREQ(dummy->name, "dummy:HG");
	EXPECT_EQ(dummy->attr.config, PERF_COUNT_SW_DUMMY);
	EXPECT_EQ(dummy->attr.disabled, 0);
	EXPECT_EQ(dummy->attr.mmap, 1);
	EXPECT_EQ(evlist_first(evlist)->attr.mmap, 0);
	EXPECT_EQ(evlist_first(evlist)->attr.enable_on_exec, 0);
	/* sample types differ (PERIOD): IDENTIFIER, not ID */
	EXPECT_TRUE(evlist_first(evlist)->attr.sample_type & PERF_SAMPLE_IDENTIFIER);
	EXPECT_TRUE(!(evlist_first(evlist)->attr.sample_type & PERF_SAMPLE_ID));
	EXPECT_TRUE(evlist_first(evlist)->attr.sample_type & PERF_SAMPLE_CPU);
	EXPECT_EQ(record_id_hdr_size(evlist), 32);
	evlist_free(evlist);
}

TEST(record_period_dwarf_and_per_thread)
{
	struct record_opts o;
	struct evlist *evlist = one_event(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK);
	struct perf_event_attr *a = &evlist_first(evlist)->attr;

	record_opts_init(&o);
	o.freq = 0;
	o.default_interval = 10000;
	o.user_interval = true;
	EXPECT_EQ(record_parse_callchain(&o, "dwarf"), 0);
	o.sample_address = true;
	record_config_evlist(evlist, &o, false, true);
	EXPECT_EQ(a->freq, 0);
	EXPECT_EQ(a->sample_period, 10000);
	/* per-thread: no inheritance and no time unless asked */
	EXPECT_EQ(a->inherit, 0);
	EXPECT_TRUE(!(a->sample_type & PERF_SAMPLE_TIME));
	EXPECT_TRUE(a->sample_type & PERF_SAMPLE_REGS_USER);
	EXPECT_TRUE(a->sample_type & PERF_SAMPLE_STACK_USER);
	EXPECT_TRUE(a->sample_type & PERF_SAMPLE_ADDR);
	EXPECT_UEQ(a->sample_regs_user, PERF_REGS_MASK_X86_64);
	EXPECT_EQ(a->sample_stack_user, 8192);
	EXPECT_EQ(a->exclude_callchain_user, 1);
	EXPECT_EQ(a->mmap_data, 1);
	evlist_free(evlist);
}

TEST(record_tracepoint_keeps_its_period)
{
	struct record_opts o;
	struct evlist *evlist = one_event(PERF_TYPE_TRACEPOINT, 372);
	struct perf_event_attr *a = &evlist_first(evlist)->attr;

	/* what the -e parser gives a tracepoint */
	a->sample_period = 1;
	a->sample_type = PERF_SAMPLE_RAW | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD;
	record_opts_init(&o);
	record_config_evlist(evlist, &o, false, false);
	EXPECT_EQ(a->freq, 0);
	EXPECT_EQ(a->sample_period, 1);
	EXPECT_UEQ(a->sample_type, PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
				   PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_RAW);
	evlist_free(evlist);
}
