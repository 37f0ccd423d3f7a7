/* SPDX-License-Identifier: MIT */
/* Unit tests for core/mem-events: the events and attrs of c2c record on Intel (plain, with mem-loads-aux, hybrid) and AMD. */
#include "test.h"
#include "core/evlist.h"
#include "core/evsel.h"
#include "core/mem-events.h"
#include "core/parse-events.h"
#include "core/record-config.h"
#include "lib/strvec.h"
#include "lib/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void write_file(const char *dir, const char *rel, const char *text)
{
	char *path = xasprintf("%s/%s", dir, rel);
	FILE *f;

	for (char *slash = path + strlen(dir); (slash = strchr(slash + 1, '/'));) {
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

/* an Intel core PMU @name with the PEBS aliases (Skylake's), @aux: mem-loads-aux too */
static void intel_pmu(const char *root, const char *name, const char *type, bool aux)
{
	char rel[128];

	snprintf(rel, sizeof(rel), "%s/type", name);
	write_file(root, rel, type);
	snprintf(rel, sizeof(rel), "%s/format/event", name);
	write_file(root, rel, "config:0-7\n");
	snprintf(rel, sizeof(rel), "%s/format/umask", name);
	write_file(root, rel, "config:8-15\n");
	snprintf(rel, sizeof(rel), "%s/format/ldlat", name);
	write_file(root, rel, "config1:0-15\n");
	snprintf(rel, sizeof(rel), "%s/events/mem-loads", name);
	write_file(root, rel, "event=0xcd,umask=0x1,ldlat=3\n");
	snprintf(rel, sizeof(rel), "%s/events/mem-stores", name);
	write_file(root, rel, "event=0xd0,umask=0x82\n");
	if (aux) {
		snprintf(rel, sizeof(rel), "%s/events/mem-loads-aux", name);
		write_file(root, rel, "event=0x03,umask=0x82\n");
	}
}

/* a fresh PMU tree under the test's directory, selected through the environment */
static char *fake_root(const char *tag)
{
	char *root = xasprintf("%s/pmu-%s", test_tmpdir(), tag);

	mkdir(root, 0755);
	setenv("SONDE_PMU_DIR", root, 1);
	return root;
}

/* the words joined by spaces */
static char *joined(const struct strvec *sv)
{
	size_t len = 1;
	char *s;

	for (size_t i = 0; i < sv->nr; i++)
		len += strlen(sv->v[i]) + 1;
	s = xcalloc(1, len);
	for (size_t i = 0; i < sv->nr; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, sv->v[i]);
	}
	return s;
}

static char *record_words(const struct c2c_record_opts *o, int nr_rest, const char *const *rest)
{
	struct strvec sv;
	char *s;

	strvec_init(&sv);
	c2c_record_argv(o, nr_rest, rest, &sv);
	s = joined(&sv);
	strvec_clear(&sv);
	return s;
}

/* the events of @words ("-e X" pairs) parsed and configured as record does with c2c's options */
static struct evlist *configured(const char *const *events, int n)
{
	struct evlist *evlist = evlist_new();
	struct record_opts o;

	for (int i = 0; i < n; i++) {
		struct parse_events_error err = PARSE_EVENTS_ERROR_INIT;

		EXPECT_EQ(parse_events(evlist, events[i], &err), 0);
		parse_events_error_release(&err);
	}
	record_opts_init(&o);
	o.sample_weight = o.sample_address = o.sample_phys_addr = o.sample_cpu = true; /* -W -d --phys-data --sample-cpu */
	record_config_evlist(evlist, &o, false, false);
	return evlist;
}

#define C2C_SAMPLE_TYPE                                                                        \
	(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | \
	 PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_WEIGHT_STRUCT | PERF_SAMPLE_DATA_SRC |  \
	 PERF_SAMPLE_PHYS_ADDR)

TEST(mem_events_intel)
{
	struct c2c_record_opts o = { 0 };
	const char *rest[] = { "-a", "sleep", "1" };
	char *root = fake_root("intel"), *s;
	const char *events[] = { "cpu/mem-loads,ldlat=30/P", "cpu/mem-stores/P" };
	struct evlist *evlist;
	struct evsel *ld, *st;

	intel_pmu(root, "cpu", "4\n", false);
	s = record_words(&o, 3, rest);
	EXPECT_STREQ(s, "record -W -d --phys-data --sample-cpu -e cpu/mem-loads,ldlat=30/P "
			"-e cpu/mem-stores/P -a sleep 1");
	free(s);
	o.ldlat = 50;
	o.kinds = MEM_EVENTS_LOAD;
	o.all_user = true;
	s = record_words(&o, 0, NULL);
	EXPECT_STREQ(s, "record -W -d --phys-data --sample-cpu -e cpu/mem-loads,ldlat=50/P --all-user");
	free(s);
	o.kinds = MEM_EVENTS_STORE;
	o.all_user = false;
	o.all_kernel = true;
	s = record_words(&o, 0, NULL);
	EXPECT_STREQ(s, "record -W -d --phys-data --sample-cpu -e cpu/mem-stores/P --all-kernel");
	free(s);

	/* the attrs perf opens: load latency in config1, the highest precise level, data addresses */
	evlist = configured(events, 2);
	ld = evlist_first(evlist);
	st = evlist_last(evlist);
	EXPECT_EQ(ld->attr.type, 4);
	EXPECT_UEQ(ld->attr.config, 0x1cd);
	EXPECT_UEQ(ld->attr.config1, 30);
	EXPECT_TRUE(ld->precise_max);
	EXPECT_UEQ(ld->attr.sample_type, C2C_SAMPLE_TYPE);
	EXPECT_EQ(ld->attr.mmap_data, 1);
	EXPECT_EQ(ld->attr.mmap, 1);
	EXPECT_EQ(ld->attr.freq, 1);
	EXPECT_UEQ(ld->attr.sample_freq, 4000);
	EXPECT_EQ(st->attr.type, 4);
	EXPECT_UEQ(st->attr.config, 0x82d0);
	EXPECT_UEQ(st->attr.config1, 0);
	EXPECT_TRUE(st->precise_max);
	EXPECT_UEQ(st->attr.sample_type, C2C_SAMPLE_TYPE);
	EXPECT_EQ(st->attr.mmap, 0);
	evlist_free(evlist);
	free(root);
}

TEST(mem_events_intel_aux_and_hybrid)
{
	struct c2c_record_opts o = { 0 };
	char *root = fake_root("spr"), *s;
	const char *events[] = { "{cpu/mem-loads-aux/,cpu/mem-loads,ldlat=30/}:P" };
	struct evlist *evlist;
	struct evsel *aux, *ld;

	/* Sapphire Rapids: the loads sample behind the aux event, in one group */
	intel_pmu(root, "cpu", "4\n", true);
	s = record_words(&o, 0, NULL);
	EXPECT_STREQ(s, "record -W -d --phys-data --sample-cpu "
			"-e {cpu/mem-loads-aux/,cpu/mem-loads,ldlat=30/}:P -e cpu/mem-stores/P");
	free(s);
	evlist = configured(events, 1);
	aux = evlist_first(evlist);
	ld = evlist_last(evlist);
	EXPECT_UEQ(aux->attr.config, 0x8203);
	EXPECT_TRUE(ld->leader == aux);
	EXPECT_UEQ(ld->attr.config, 0x1cd);
	EXPECT_UEQ(ld->attr.config1, 30);
	evlist_free(evlist);
	free(root);

	/* hybrid: each core PMU with the aliases */
	root = fake_root("hybrid");
	intel_pmu(root, "cpu_core", "8\n", true);
	intel_pmu(root, "cpu_atom", "10\n", false);
	s = record_words(&o, 0, NULL);
	EXPECT_STREQ(s, "record -W -d --phys-data --sample-cpu "
			"-e {cpu_core/mem-loads-aux/,cpu_core/mem-loads,ldlat=30/}:P -e cpu_core/mem-stores/P "
			"-e cpu_atom/mem-loads,ldlat=30/P -e cpu_atom/mem-stores/P");
	free(s);
	free(root);
}

TEST(mem_events_amd_and_none)
{
	struct c2c_record_opts o = { .ldlat = 70 };
	char *root = fake_root("amd"), *s;
	const char *events[] = { "ibs_op//" };
	struct strvec sv;
	struct evlist *evlist;

	/* IBS op: one event for loads and stores, no latency term */
	write_file(root, "ibs_op/type", "11\n");
	write_file(root, "ibs_op/format/cnt_ctl", "config:19\n");
	write_file(root, "cpu/type", "4\n");
	s = record_words(&o, 0, NULL);
	EXPECT_STREQ(s, "record -W -d --phys-data --sample-cpu -e ibs_op//");
	free(s);
	evlist = configured(events, 1);
	EXPECT_EQ(evlist_first(evlist)->attr.type, 11);
	EXPECT_UEQ(evlist_first(evlist)->attr.config, 0);
	EXPECT_UEQ(evlist_first(evlist)->attr.sample_type,
		   C2C_SAMPLE_TYPE & ~(u64)PERF_SAMPLE_ID);
	evlist_free(evlist);
	free(root);

	/* no memory events: nothing to record */
	root = fake_root("none");
	write_file(root, "cpu/type", "4\n");
	strvec_init(&sv);
	EXPECT_EQ(c2c_record_argv(&o, 0, NULL, &sv), 0);
	EXPECT_EQ((int)sv.nr, 0);
	strvec_clear(&sv);
	free(root);
}
