/* SPDX-License-Identifier: MIT */
/*
 * Unit tests for the -e grammar with literal expected attrs: no perf and
 * no real sysfs/tracefs needed (a fake PMU tree and a fake tracefs are
 * made in the test's scratch directory).
 */
#include "test.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "core/evlist.h"
#include "core/parse-events-names.h"
#include "core/parse-events.h"
#include "lib/strbuf.h"
#include "lib/strvec.h"
#include "lib/xalloc.h"
#include "trace/tracefs.h"

static void write_file(const char *dir, const char *rel, const char *text)
{
	char *path = xasprintf("%s/%s", dir, rel);
	char *slash = path;
	FILE *f;

	/* mkdir -p the parents */
	while ((slash = strchr(slash + 1, '/')))
		if (slash >= path + strlen(dir)) {
			*slash = 0;
			mkdir(path, 0755);
			*slash = '/';
		}
	f = fopen(path, "w");
	ASSERT_TRUE(f);
	fputs(text, f);
	fclose(f);
	free(path);
}

/* a fake sysfs PMU tree and tracefs, selected through the environment */
static void fake_system(void)
{
	const char *dir = test_tmpdir();
	char *pmu = xasprintf("%s/pmu", dir), *tfs = xasprintf("%s/tracing", dir);

	write_file(pmu, "msr/type", "10\n");
	write_file(pmu, "msr/format/event", "config:0-63\n");
	write_file(pmu, "msr/events/tsc", "event=0x00\n");
	write_file(pmu, "msr/events/smi", "event=0x04\n");
	write_file(pmu, "cpu/type", "4\n");
	write_file(pmu, "cpu/format/event", "config:0-7\n");
	write_file(pmu, "cpu/format/umask", "config:8-15\n");
	write_file(pmu, "cpu/format/inv", "config:23\n");
	write_file(pmu, "cpu/format/cmask", "config:24-31\n");
	write_file(pmu, "cpu/format/ldlat", "config1:0-15\n");
	write_file(pmu, "cpu/format/split", "config2:0-3,8-11\n");
	write_file(pmu, "cpu/events/mem-loads", "event=0xcd,umask=0x1,ldlat=3\n");
	write_file(pmu, "power/type", "9\n");
	write_file(pmu, "power/format/event", "config:0-7\n");
	write_file(pmu, "power/events/energy-psys", "event=0x05\n");
	write_file(pmu, "power/events/energy-psys.scale", "2.3283064365386962890625e-10\n");
	write_file(pmu, "power/events/energy-psys.unit", "Joules\n");
	write_file(tfs, "events/sched/sched_switch/id", "316\n");
	write_file(tfs, "events/sched/sched_wakeup/id", "318\n");
	write_file(tfs, "events/sched/sched_wakeup_new/id", "317\n");
	write_file(tfs, "events/sched/enable", "0\n");
	write_file(tfs, "events/syscalls/sys_enter_read/id", "700\n");
	write_file(tfs, "events/syscalls/sys_exit_read/id", "699\n");
	write_file(tfs, "events/probe_t/work/id", "2000\n");
	setenv("SONDE_PMU_DIR", pmu, 1);
	setenv("SONDE_TRACEFS", tfs, 1);
	free(pmu);
	free(tfs);
}

/* the newest report's parts (NULL / -100 when nothing was reported) */
static const char *err_reason(const struct parse_events_error *err)
{
	const struct parse_events_report *r = parse_events_error_latest(err);

	return r ? r->reason : NULL;
}

static const char *err_help(const struct parse_events_error *err)
{
	const struct parse_events_report *r = parse_events_error_latest(err);

	return r ? r->help : NULL;
}

static int err_at(const struct parse_events_error *err)
{
	const struct parse_events_report *r = parse_events_error_latest(err);

	return r ? r->at : -100;
}

/* parse @str, expecting success and @n events */
static struct evlist *parse_ok(const char *str, int n)
{
	struct evlist *evlist = evlist_new();
	struct parse_events_error err = PARSE_EVENTS_ERROR_INIT;
	int ret = parse_events(evlist, str, &err);

	if (ret)
		test_fail_at(__FILE__, __LINE__, "parse_events(\"%s\") = %d: %s", str, ret,
			     err_reason(&err) ? err_reason(&err) : "(no reason)");
	EXPECT_EQ(evlist->nr_entries, n);
	parse_events_error_release(&err);
	return evlist;
}

static struct evsel *nth(struct evlist *evlist, int n)
{
	struct evsel *evsel;

	evlist_for_each_entry(evlist, evsel)
		if (evsel->idx == n)
			return evsel;
	ASSERT_TRUE(0);
	return NULL;
}

TEST(parse_events_hardware_names)
{
	static const struct { const char *name; u64 config; } tab[] = {
		{ "cycles", 0 }, { "cpu-cycles", 0 }, { "instructions", 1 },
		{ "cache-references", 2 }, { "cache-misses", 3 }, { "branches", 4 },
		{ "branch-instructions", 4 }, { "branch-misses", 5 }, { "bus-cycles", 6 },
		{ "stalled-cycles-frontend", 7 }, { "idle-cycles-frontend", 7 },
		{ "stalled-cycles-backend", 8 }, { "idle-cycles-backend", 8 }, { "ref-cycles", 9 },
	};

	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		struct evlist *evlist = parse_ok(tab[i].name, 1);
		struct evsel *e = nth(evlist, 0);

		EXPECT_EQ(e->attr.type, PERF_TYPE_HARDWARE);
		EXPECT_UEQ(e->attr.config, tab[i].config);
		EXPECT_EQ(e->attr.exclude_guest, 1);
		EXPECT_TRUE(e->guest_off_implicit);
		EXPECT_STREQ(e->name, tab[i].name);
		EXPECT_EQ(e->attr.size, sizeof(struct perf_event_attr));
		evlist_free(evlist);
	}
}

TEST(parse_events_software_and_tool_names)
{
	static const struct { const char *name; u64 config; } tab[] = {
		{ "cpu-clock", 0 }, { "task-clock", 1 }, { "page-faults", 2 }, { "faults", 2 },
		{ "context-switches", 3 }, { "cs", 3 }, { "cpu-migrations", 4 },
		{ "migrations", 4 }, { "minor-faults", 5 }, { "major-faults", 6 },
		{ "alignment-faults", 7 }, { "emulation-faults", 8 }, { "dummy", 9 },
		{ "bpf-output", 10 }, { "cgroup-switches", 11 },
	};
	struct evlist *evlist;

	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		evlist = parse_ok(tab[i].name, 1);
		EXPECT_EQ(nth(evlist, 0)->attr.type, PERF_TYPE_SOFTWARE);
		EXPECT_UEQ(nth(evlist, 0)->attr.config, tab[i].config);
		evlist_free(evlist);
	}
	evlist = parse_ok("duration_time,user_time,system_time", 3);
	for (int i = 0; i < 3; i++) {
		EXPECT_TRUE(nth(evlist, i)->is_tool_event);
		EXPECT_UEQ(nth(evlist, i)->attr.config, PERF_COUNT_SW_DUMMY);
	}
	EXPECT_STREQ(nth(evlist, 1)->name, "user_time");
	evlist_free(evlist);
}

TEST(parse_events_cache_spellings)
{
	static const struct { const char *name; u64 config; } tab[] = {
		{ "L1-dcache-loads", 0x0 }, { "L1-dcache-load-misses", 0x10000 },
		{ "l1d-stores", 0x100 }, { "L1-data-write-miss", 0x10100 },
		{ "l1-d-prefetches", 0x200 }, { "L1-dcache-speculative-load-misses", 0x10200 },
		{ "L1-icache-loads", 0x1 }, { "l1i-prefetch-misses", 0x10201 },
		{ "LLC-loads", 0x2 }, { "L2-store-misses", 0x10102 }, { "LLC", 0x2 },
		{ "dTLB-store-misses", 0x10103 }, { "d-tlb-loads", 0x3 },
		{ "Data-TLB-prefetch-miss", 0x10203 }, { "iTLB-load-misses", 0x10004 },
		{ "i-tlb-refs", 0x4 }, { "Instruction-TLB-access", 0x4 },
		{ "branch-loads", 0x5 }, { "bpu-load-misses", 0x10005 }, { "btb-misses", 0x10005 },
		{ "bpc-read", 0x5 }, { "node-loads", 0x6 }, { "node-prefetch-misses", 0x10206 },
		{ "L1-dcache-misses", 0x10000 }, { "L1-dcache-ops", 0x0 },
		{ "L1-dcache-Reference", 0x0 }, { "L1-dcache-miss-load", 0x10000 },
	};

	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		struct evlist *evlist = parse_ok(tab[i].name, 1);

		EXPECT_EQ(nth(evlist, 0)->attr.type, PERF_TYPE_HW_CACHE);
		if (nth(evlist, 0)->attr.config != tab[i].config)
			test_fail_at(__FILE__, __LINE__, "%s: config %#llx, want %#llx", tab[i].name,
				     (unsigned long long)nth(evlist, 0)->attr.config,
				     (unsigned long long)tab[i].config);
		/* perf names cache events by their text, modifiers dropped */
		EXPECT_STREQ(nth(evlist, 0)->name, tab[i].name);
		evlist_free(evlist);
	}
}

TEST(parse_events_cache_invalid_ops)
{
	static const char *const bad[] = { "L1-icache-stores", "iTLB-stores", "branch-prefetches",
					   "L1-dcache-load-store", "L1-dcache-miss-misses" };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct evlist *evlist = evlist_new();
		struct parse_events_error err = PARSE_EVENTS_ERROR_INIT;

		EXPECT_EQ(parse_events(evlist, bad[i], &err), -EINVAL);
		EXPECT_EQ(evlist->nr_entries, 0);
		parse_events_error_release(&err);
		evlist_free(evlist);
	}
}

TEST(parse_events_modifiers)
{
	static const struct {
		const char *mod;
		int u, k, h, I, H, G, p;
	} tab[] = {
		/* mod    eu ek eh eI eH eG precise */
		{ "u", 0, 1, 1, 0, 0, 1, 0 },
		{ "k", 1, 0, 1, 0, 0, 0, 0 },
		{ "h", 1, 1, 0, 0, 0, 0, 0 },
		{ "uk", 0, 0, 1, 0, 0, 1, 0 },
		{ "H", 0, 0, 0, 0, 0, 1, 0 },
		{ "G", 0, 0, 0, 0, 1, 0, 0 },
		{ "p", 0, 0, 0, 0, 0, 1, 1 },
		{ "ppp", 0, 0, 0, 0, 0, 1, 3 },
		{ "I", 0, 0, 0, 1, 0, 0, 0 },
		{ "S", 0, 0, 0, 0, 0, 0, 0 },
		{ "uH", 0, 1, 1, 0, 0, 1, 0 },
		{ "kG", 1, 0, 1, 0, 1, 0, 0 },
		{ "Gu", 0, 1, 1, 0, 1, 0, 0 },
		{ "uG", 0, 1, 1, 0, 1, 0, 0 },
		{ "GH", 0, 0, 0, 0, 0, 0, 0 },
		{ "kp", 1, 0, 1, 0, 0, 1, 1 },
		{ "hk", 1, 0, 0, 0, 0, 0, 0 },
		{ "uppp", 0, 1, 1, 0, 0, 1, 3 },
	};

	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		char *s = xasprintf("cs:%s", tab[i].mod);
		struct evlist *evlist = parse_ok(s, 1);
		const struct perf_event_attr *a = &nth(evlist, 0)->attr;

		if (a->exclude_user != tab[i].u || a->exclude_kernel != tab[i].k ||
		    a->exclude_hv != tab[i].h || a->exclude_idle != tab[i].I ||
		    a->exclude_host != tab[i].H || a->exclude_guest != tab[i].G ||
		    a->precise_ip != tab[i].p)
			test_fail_at(__FILE__, __LINE__, "%s: u%d k%d h%d I%d H%d G%d p%d", s,
				     a->exclude_user, a->exclude_kernel, a->exclude_hv,
				     a->exclude_idle, a->exclude_host, a->exclude_guest,
				     a->precise_ip);
		EXPECT_STREQ(nth(evlist, 0)->name, s);
		free(s);
		evlist_free(evlist);
	}
}

TEST(parse_events_flag_modifiers)
{
	struct evlist *evlist = parse_ok("cs:P,cs:S,cs:D,cs:e,cs:W,cs:b", 6);

	EXPECT_TRUE(nth(evlist, 0)->precise_max);
	EXPECT_TRUE(nth(evlist, 1)->sample_read);
	EXPECT_EQ(nth(evlist, 2)->attr.pinned, 1);
	EXPECT_EQ(nth(evlist, 3)->attr.exclusive, 1);
	EXPECT_TRUE(nth(evlist, 4)->is_weak_group);
	EXPECT_TRUE(nth(evlist, 5)->terms.bpf_counter);
	evlist_free(evlist);
}

TEST(parse_events_bad_modifiers)
{
	static const char *const bad[] = { "cs:pppp", "cs:uu", "cs:z", "cs:u:k", "{cs}:pppp" };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct evlist *evlist = evlist_new();
		struct parse_events_error err = PARSE_EVENTS_ERROR_INIT;

		EXPECT_EQ(parse_events(evlist, bad[i], &err), -EINVAL);
		EXPECT_EQ(err.nr_reports, 1);
		EXPECT_STREQ(err.event, bad[i]);
		parse_events_error_release(&err);
		evlist_free(evlist);
	}
}

TEST(parse_events_groups)
{
	struct evlist *evlist = parse_ok("{cs:u,faults}:k,cpu-clock,grp{task-clock,cs}:D", 5);
	struct evsel *cs = nth(evlist, 0), *faults = nth(evlist, 1);

	EXPECT_TRUE(cs->leader == cs);
	EXPECT_TRUE(faults->leader == cs);
	EXPECT_EQ(cs->nr_members, 2);
	/* group :k on cs:u re-includes the kernel */
	EXPECT_EQ(cs->attr.exclude_user, 0);
	EXPECT_EQ(cs->attr.exclude_kernel, 0);
	EXPECT_EQ(cs->attr.exclude_hv, 1);
	EXPECT_EQ(cs->attr.exclude_guest, 1);
	EXPECT_EQ(faults->attr.exclude_user, 1);
	EXPECT_EQ(faults->attr.exclude_guest, 1);
	EXPECT_STREQ(cs->name, "cs:u");
	EXPECT_STREQ(faults->name, "faults");
	EXPECT_TRUE(nth(evlist, 2)->leader == nth(evlist, 2));
	EXPECT_STREQ(nth(evlist, 3)->group_name, "grp");
	EXPECT_EQ(nth(evlist, 3)->attr.pinned, 1);
	EXPECT_EQ(nth(evlist, 4)->attr.pinned, 0); /* only the leader is pinned */
	EXPECT_TRUE(nth(evlist, 4)->leader == nth(evlist, 3));
	EXPECT_EQ(evlist->nr_groups, 2);
	evlist_free(evlist);
}

TEST(parse_events_repeated_calls_append)
{
	struct evlist *evlist = parse_ok("cs", 1);
	struct parse_events_error err = PARSE_EVENTS_ERROR_INIT;

	EXPECT_EQ(parse_events(evlist, "faults,cpu-clock", &err), 0);
	EXPECT_EQ(evlist->nr_entries, 3);
	EXPECT_EQ(nth(evlist, 2)->idx, 2);
	EXPECT_EQ(parse_events(evlist, "cs,bogus", &err), -EINVAL);
	EXPECT_EQ(evlist->nr_entries, 3); /* nothing appended on error */
	parse_events_error_release(&err);
	evlist_free(evlist);
}

TEST(parse_events_raw)
{
	struct evlist *evlist = parse_ok("r1a8,r20000038f:u,rFF/config1=2/", 3);

	EXPECT_EQ(nth(evlist, 0)->attr.type, PERF_TYPE_RAW);
	EXPECT_UEQ(nth(evlist, 0)->attr.config, 0x1a8);
	EXPECT_UEQ(nth(evlist, 1)->attr.config, 0x20000038fULL);
	EXPECT_EQ(nth(evlist, 1)->attr.exclude_kernel, 1);
	EXPECT_STREQ(nth(evlist, 1)->name, "r20000038f:u");
	EXPECT_UEQ(nth(evlist, 2)->attr.config1, 2);
	EXPECT_STREQ(nth(evlist, 2)->name, "rFF/config1=2/");
	evlist_free(evlist);
}

TEST(parse_events_breakpoints)
{
	struct evlist *evlist =
		parse_ok("mem:0x1000,mem:0x1000:r,mem:0x2000/8:w,mem:4096:x,mem:0x1000:rw:u", 5);

	EXPECT_EQ(nth(evlist, 0)->attr.type, PERF_TYPE_BREAKPOINT);
	EXPECT_UEQ(nth(evlist, 0)->attr.bp_addr, 0x1000);
	EXPECT_EQ(nth(evlist, 0)->attr.bp_type, 3);
	EXPECT_UEQ(nth(evlist, 0)->attr.bp_len, 4);
	EXPECT_UEQ(nth(evlist, 0)->attr.sample_period, 1);
	EXPECT_EQ(nth(evlist, 1)->attr.bp_type, 1);
	EXPECT_EQ(nth(evlist, 2)->attr.bp_type, 2);
	EXPECT_UEQ(nth(evlist, 2)->attr.bp_len, 8);
	EXPECT_STREQ(nth(evlist, 2)->name, "mem:0x2000"); /* perf's name stops at the '/' */
	EXPECT_EQ(nth(evlist, 3)->attr.bp_type, 4);
	EXPECT_UEQ(nth(evlist, 3)->attr.bp_len, sizeof(long));
	EXPECT_EQ(nth(evlist, 4)->attr.exclude_kernel, 1);
	EXPECT_STREQ(nth(evlist, 4)->name, "mem:0x1000:rw:u");
	evlist_free(evlist);
}

TEST(parse_events_builtin_terms)
{
	struct evlist *evlist = parse_ok(
		"cpu-clock/period=1000,name=foo/,task-clock/freq=99,call-graph=dwarf,stack-size=4096/,"
		"cs/no-inherit,overwrite,time=0,max-stack=5,config1=3,config2=0x10/,"
		"cpu-clock/name='a,b',metric-id=m,percore=1/",
		4);
	struct evsel *e0 = nth(evlist, 0), *e1 = nth(evlist, 1), *e2 = nth(evlist, 2);

	EXPECT_UEQ(e0->attr.sample_period, 1000);
	EXPECT_TRUE(e0->terms.has_period);
	EXPECT_STREQ(e0->name, "foo");
	EXPECT_UEQ(e1->attr.sample_freq, 99);
	EXPECT_EQ(e1->attr.freq, 1);
	EXPECT_TRUE(e1->terms.has_freq);
	EXPECT_STREQ(e1->terms.callgraph, "dwarf");
	EXPECT_EQ(e1->terms.stack_size, 4096);
	EXPECT_TRUE(e2->terms.has_inherit && !e2->terms.inherit);
	EXPECT_TRUE(e2->terms.has_overwrite && e2->terms.overwrite);
	EXPECT_TRUE(e2->terms.has_time && !e2->terms.time);
	EXPECT_EQ(e2->terms.max_stack, 5);
	EXPECT_UEQ(e2->attr.config1, 3);
	EXPECT_UEQ(e2->attr.config2, 0x10);
	EXPECT_STREQ(e2->name, "cs/no-inherit,overwrite,time=0,max-stack=5,config1=3,config2=0x10/");
	EXPECT_STREQ(nth(evlist, 3)->name, "a,b");
	EXPECT_STREQ(nth(evlist, 3)->terms.metric_id, "m");
	EXPECT_TRUE(nth(evlist, 3)->terms.percore);
	evlist_free(evlist);
}

TEST(parse_events_stat_terms_restricted)
{
	struct evlist *evlist = evlist_new();
	struct parse_events_error err = PARSE_EVENTS_ERROR_INIT;

	EXPECT_EQ(parse_events_flags(evlist, "cpu-clock/freq=10/", &err, PARSE_EVENTS_STAT_TERMS),
		  -EINVAL);
	EXPECT_STREQ(err_reason(&err), "'freq' is not usable in 'perf stat'");
	EXPECT_EQ(err_at(&err), -1);
	parse_events_error_release(&err);
	EXPECT_EQ(parse_events_flags(evlist, "cpu-clock/bogus/", &err, PARSE_EVENTS_STAT_TERMS),
		  -EINVAL);
	EXPECT_STREQ(err_reason(&err), "unknown term");
	EXPECT_STREQ(err_help(&err), "valid terms: config,config1,config2,name,period,percore,metric-id");
	EXPECT_EQ(err_at(&err), 10);
	parse_events_error_release(&err);
	EXPECT_STREQ(parse_events_valid_terms(0),
		     "config,config1,config2,name,period,freq,branch_type,time,call-graph,"
		     "stack-size,no-inherit,inherit,max-stack,nr,no-overwrite,overwrite,"
		     "driver-config,percore,aux-output,aux-sample-size,metric-id");
	evlist_free(evlist);
}

TEST(parse_events_pmu_terms_and_aliases)
{
	struct evlist *evlist;
	struct evsel *e;

	fake_system();
	evlist = parse_ok("cpu/event=0x3c,umask=0x1,inv,cmask=2/,cpu/mem-loads/pp,msr/tsc/,"
			  "smi,power/energy-psys/,cpu/ldlat=0x7,split=0xff/",
			  6);
	e = nth(evlist, 0);
	EXPECT_EQ(e->attr.type, 4);
	EXPECT_UEQ(e->attr.config, 0x3c | (1 << 8) | (1 << 23) | (2 << 24));
	EXPECT_STREQ(e->pmu_name, "cpu");
	EXPECT_STREQ(e->name, "cpu/event=0x3c,umask=0x1,inv,cmask=2/");
	e = nth(evlist, 1);
	EXPECT_UEQ(e->attr.config, 0x1cd);
	EXPECT_UEQ(e->attr.config1, 3);
	EXPECT_EQ(e->attr.precise_ip, 2);
	EXPECT_STREQ(e->name, "cpu/mem-loads/pp");
	EXPECT_EQ(nth(evlist, 2)->attr.type, 10);
	EXPECT_UEQ(nth(evlist, 3)->attr.config, 4);
	EXPECT_STREQ(nth(evlist, 3)->name, "smi");
	e = nth(evlist, 4);
	EXPECT_UEQ(e->attr.config, 5);
	EXPECT_STREQ(e->terms.unit, "Joules");
	EXPECT_TRUE(e->terms.scale > 2.32e-10 && e->terms.scale < 2.33e-10);
	/* split format: value bits 0-3 -> config2 bits 0-3, bits 4-7 -> 8-11 */
	EXPECT_UEQ(nth(evlist, 5)->attr.config1, 7);
	EXPECT_UEQ(nth(evlist, 5)->attr.config2, 0xf0f);
	evlist_free(evlist);
}

TEST(parse_events_pmu_errors)
{
	struct evlist *evlist = evlist_new();
	struct parse_events_error err = PARSE_EVENTS_ERROR_INIT;

	fake_system();
	EXPECT_EQ(parse_events(evlist, "nopmu/event=1/", &err), -ENOENT);
	EXPECT_STREQ(err_reason(&err), "Cannot find PMU `nopmu'. Missing kernel support?");
	parse_events_error_release(&err);
	EXPECT_EQ(parse_events(evlist, "msr/bogus/", &err), -EINVAL);
	EXPECT_EQ(err.nr_reports, 2); /* perf shows it twice ("Initial error:") */
	EXPECT_STREQ(err_reason(&err), "unknown term 'bogus' for pmu 'msr'");
	EXPECT_EQ(err_at(&err), 4);
	parse_events_error_release(&err);
	EXPECT_EQ(parse_events(evlist, "cpu/event=0x1ff/", &err), -EINVAL);
	EXPECT_STREQ(err_reason(&err), "value too big for format, maximum is 255");
	parse_events_error_release(&err);
	evlist_free(evlist);
}

TEST(parse_events_tracepoints)
{
	struct evlist *evlist;
	struct parse_events_error err = PARSE_EVENTS_ERROR_INIT;

	fake_system();
	evlist = parse_ok("sched:sched_switch:u,sched:sched_wakeup*,sys*:sys_e*_read,probe_t:work", 6);
	EXPECT_EQ(nth(evlist, 0)->attr.type, PERF_TYPE_TRACEPOINT);
	EXPECT_UEQ(nth(evlist, 0)->attr.config, 316);
	EXPECT_EQ(nth(evlist, 0)->tp_id, 316);
	EXPECT_UEQ(nth(evlist, 0)->attr.sample_period, 1);
	EXPECT_EQ(nth(evlist, 0)->attr.exclude_kernel, 1);
	EXPECT_STREQ(nth(evlist, 0)->name, "sched:sched_switch");
	EXPECT_TRUE(!strcmp(nth(evlist, 1)->name, "sched:sched_wakeup") ||
		    !strcmp(nth(evlist, 1)->name, "sched:sched_wakeup_new"));
	EXPECT_STREQ(nth(evlist, 5)->name, "probe_t:work");
	evlist_free(evlist);

	evlist = evlist_new();
	EXPECT_EQ(parse_events(evlist, "sched:nosuch", &err), -ENOENT);
	EXPECT_STREQ(err_reason(&err), "unknown tracepoint");
	EXPECT_TRUE(err_help(&err) && strstr(err_help(&err), "/events/sched/nosuch not found."));
	parse_events_error_release(&err);
	EXPECT_EQ(parse_events(evlist, "sched:nos*", &err), -ENOENT);
	parse_events_error_release(&err);
	EXPECT_EQ(parse_events(evlist, "sched:sched_switch/period=3/", &err), -EINVAL);
	EXPECT_STREQ(err_help(&err), "valid terms: call-graph,stack-size\n");
	parse_events_error_release(&err);
	evlist_free(evlist);
}

TEST(parse_events_error_format)
{
	struct evlist *evlist = evlist_new();
	struct parse_events_error err = PARSE_EVENTS_ERROR_INIT;
	struct strbuf sb = STRBUF_INIT;

	EXPECT_EQ(parse_events(evlist, "bogus", &err), -EINVAL);
	parse_events_error_format(&err, 80, &sb);
	EXPECT_STREQ(sb.buf, "event syntax error: 'bogus'\n"
			     "                     \\___ parser error\n");
	parse_events_error_release(&err);
	strbuf_reset(&sb);

	/* the front is cut so that the caret stays near the start */
	EXPECT_EQ(parse_events(evlist, "cpu-clock/period=abc/", &err), -EINVAL);
	parse_events_error_format(&err, 80, &sb);
	EXPECT_STREQ(sb.buf, "event syntax error: '..ock/period=abc/'\n"
			     "                                  \\___ expected numeric value\n");
	parse_events_error_release(&err);
	strbuf_reset(&sb);

	/* the end is cut to the terminal width */
	EXPECT_EQ(parse_events(evlist, "x,cs,cs,cs,cs,cs,cs,cs,cs,cs,cs,cs,cs,cs,cs", &err), -EINVAL);
	parse_events_error_format(&err, 40, &sb);
	EXPECT_STREQ(sb.buf, "event syntax error: 'x,cs,cs,cs,cs,cs..'\n"
			     "                     \\___ parser error\n");
	parse_events_error_release(&err);
	strbuf_release(&sb);
	evlist_free(evlist);
}

TEST(parse_events_syntax_errors)
{
	static const struct { const char *str; int idx; } tab[] = {
		{ "", 1 }, { "cs,", 0 }, { "cs,,faults", 2 }, { ",cs", 1 }, { "cs:z", 2 },
		{ "cpu-clock,bogus", 10 }, { "foo-bar", 3 }, { "foo-bar-baz", 4 }, { "foo-", 0 },
		{ "cycles:{k,u}", 6 }, { "msr/tsc/:u", 7 }, { "mem:xyz", 0 }, { "r1zz", 0 },
		{ "cs/", 0 }, { "{cs,{faults}}", 4 },
	};

	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		struct evlist *evlist = evlist_new();
		struct parse_events_error err = PARSE_EVENTS_ERROR_INIT;

		EXPECT_TRUE(parse_events(evlist, tab[i].str, &err) < 0);
		if (err_at(&err) != tab[i].idx || !err_reason(&err) || strcmp(err_reason(&err), "parser error"))
			test_fail_at(__FILE__, __LINE__, "'%s': idx %d (%s), want %d", tab[i].str,
				     err_at(&err), err_reason(&err) ? err_reason(&err) : "-", tab[i].idx);
		parse_events_error_release(&err);
		evlist_free(evlist);
	}
}

TEST(parse_events_names_from_attr)
{
	static const struct {
		u32 type;
		u64 config;
		int eu, ek, eh, eG, eH, p;
		const char *name;
	} tab[] = {
		{ PERF_TYPE_HARDWARE, 0, 0, 0, 0, 1, 0, 0, "cycles" },
		/* expectations from perf evlist on pipe-mode data (names from attrs) */
		{ PERF_TYPE_HARDWARE, 1, 0, 1, 1, 1, 0, 0, "instructions:uH" },
		{ PERF_TYPE_HARDWARE, 0, 0, 1, 1, 1, 0, 3, "cycles:upppH" },
		{ PERF_TYPE_HARDWARE, 4, 0, 0, 0, 1, 0, 0, "branches" },
		{ PERF_TYPE_SOFTWARE, 3, 0, 0, 0, 1, 0, 3, "context-switches:pppH" },
		{ PERF_TYPE_SOFTWARE, 3, 1, 0, 1, 1, 0, 0, "context-switches:kH" },
		{ PERF_TYPE_SOFTWARE, 1, 0, 0, 0, 0, 1, 0, "task-clock:G" },
		{ PERF_TYPE_SOFTWARE, 10, 0, 0, 0, 1, 0, 0, "unknown-software" },
		{ PERF_TYPE_SOFTWARE, 3, 0, 0, 0, 0, 0, 0, "context-switches:HG" },
		{ PERF_TYPE_SOFTWARE, 0, 1, 0, 1, 0, 0, 0, "cpu-clock:k" },
		{ PERF_TYPE_SOFTWARE, 0, 0, 0, 0, 0, 1, 0, "cpu-clock:G" },
		{ PERF_TYPE_HW_CACHE, 0x10000, 0, 0, 0, 1, 0, 0, "L1-dcache-load-misses" },
		{ PERF_TYPE_HW_CACHE, 0x103, 0, 0, 0, 1, 0, 0, "dTLB-stores" },
		{ PERF_TYPE_RAW, 0x1a8, 0, 0, 0, 1, 0, 0, "raw 0x1a8" },
	};

	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		struct perf_event_attr attr = { 0 };
		struct evsel *evsel;

		attr.type = tab[i].type;
		attr.config = tab[i].config;
		attr.exclude_user = tab[i].eu;
		attr.exclude_kernel = tab[i].ek;
		attr.exclude_hv = tab[i].eh;
		attr.exclude_guest = tab[i].eG;
		attr.exclude_host = tab[i].eH;
		attr.precise_ip = tab[i].p;
		evsel = evsel_new(&attr);
		evsel_set_name_from_attr(evsel);
		EXPECT_STREQ(evsel->name, tab[i].name);
		evsel_free(evsel);
	}
}

TEST(parse_events_breakpoint_name_from_attr)
{
	struct perf_event_attr attr = { 0 };
	struct evsel *evsel;

	attr.type = PERF_TYPE_BREAKPOINT;
	attr.bp_addr = 0x1000;
	attr.bp_type = 3;
	attr.exclude_guest = 1;
	evsel = evsel_new(&attr);
	evsel_set_name_from_attr(evsel);
	EXPECT_STREQ(evsel->name, "mem:0x1000:rw");
	evsel_free(evsel);
}

TEST(parse_events_blanks)
{
	struct evlist *evlist = parse_ok("cs, faults:u ,{ cpu-clock , task-clock }:k", 4);
	struct parse_events_error err = PARSE_EVENTS_ERROR_INIT;

	/* perf skips blanks but keeps them in the names it cuts from the text */
	EXPECT_STREQ(nth(evlist, 0)->name, "cs");
	EXPECT_STREQ(nth(evlist, 1)->name, " faults:u ");
	EXPECT_EQ(nth(evlist, 1)->attr.exclude_kernel, 1);
	EXPECT_STREQ(nth(evlist, 2)->name, " cpu-clock ");
	EXPECT_EQ(nth(evlist, 3)->attr.exclude_user, 1);
	EXPECT_TRUE(nth(evlist, 3)->leader == nth(evlist, 2));
	/* error positions point into the string as given */
	EXPECT_EQ(parse_events(evlist, "cs ,  cs:pppp", &err), -EINVAL);
	EXPECT_EQ(err_at(&err), 9);
	EXPECT_STREQ(err.event, "cs ,  cs:pppp");
	parse_events_error_release(&err);
	evlist_free(evlist);
}

TEST(parse_events_tracefs_lookups)
{
	struct strvec v = STRVEC_INIT;
	char *name;

	fake_system();
	EXPECT_EQ(tracefs_event_id("sched", "sched_switch"), 316);
	EXPECT_EQ(tracefs_event_id("sched", "nosuch"), -ENOENT);
	EXPECT_EQ(tracefs_event_id("..", "sched"), -ENOENT);
	EXPECT_EQ(tracefs_list_systems(&v, true), 0);
	ASSERT_TRUE(v.nr == 3);
	EXPECT_STREQ(v.v[0], "probe_t");
	EXPECT_STREQ(v.v[2], "syscalls");
	strvec_clear(&v);
	/* "enable" is a file, not an event */
	EXPECT_EQ(tracefs_list_events("sched", &v, true), 0);
	ASSERT_TRUE(v.nr == 3);
	EXPECT_STREQ(v.v[0], "sched_switch");
	strvec_clear(&v);
	name = tracefs_id_to_name(699);
	EXPECT_STREQ(name, "syscalls:sys_exit_read");
	free(name);
	EXPECT_TRUE(tracefs_id_to_name(12345) == NULL);
	EXPECT_TRUE(tracefs_is_glob("sched_*") && !tracefs_is_glob("sched"));
}
