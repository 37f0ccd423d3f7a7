/* SPDX-License-Identifier: MIT */
/* Unit tests for core/pmu: format specs, bit scattering, loading a fake sysfs tree. */
#include "test.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "core/pmu.h"
#include "lib/strvec.h"
#include "lib/xalloc.h"

TEST(pmu_format_parse)
{
	int word;
	u64 mask;

	EXPECT_EQ(pmu_format_parse("config:0-7", &word, &mask), 0);
	EXPECT_EQ(word, 0);
	EXPECT_UEQ(mask, 0xff);
	EXPECT_EQ(pmu_format_parse("config1:0-3,32-35", &word, &mask), 0);
	EXPECT_EQ(word, 1);
	EXPECT_UEQ(mask, 0xf0000000fULL);
	EXPECT_EQ(pmu_format_parse("config2:63", &word, &mask), 0);
	EXPECT_EQ(word, 2);
	EXPECT_UEQ(mask, 1ULL << 63);
	EXPECT_EQ(pmu_format_parse("config:0-63\n", &word, &mask), 0);
	EXPECT_UEQ(mask, ~0ULL);
	EXPECT_EQ(pmu_format_parse("config3:0", &word, &mask), -EINVAL);
	EXPECT_EQ(pmu_format_parse("config:7-3", &word, &mask), -EINVAL);
	EXPECT_EQ(pmu_format_parse("config:64", &word, &mask), -EINVAL);
	EXPECT_EQ(pmu_format_parse("config:", &word, &mask), -EINVAL);
	EXPECT_EQ(pmu_format_parse("config:1,x", &word, &mask), -EINVAL);
}

TEST(pmu_format_apply)
{
	struct pmu_format f = { .name = "split", .word = 0, .mask = 0xf0fULL };
	u64 config = 0xf0000, max = 0;

	EXPECT_EQ(pmu_format_apply(&f, 0xab, &config, &max), 0);
	EXPECT_UEQ(config, 0xf0a0bULL);
	EXPECT_EQ(pmu_format_apply(&f, 0x100, &config, &max), -ERANGE);
	EXPECT_UEQ(max, 0xff);
	f.mask = ~0ULL;
	config = 0;
	EXPECT_EQ(pmu_format_apply(&f, ~0ULL, &config, &max), 0);
	EXPECT_UEQ(config, ~0ULL);
}

static void put(const char *root, const char *rel, const char *text)
{
	char *path = xasprintf("%s/%s", root, rel);
	char *p = path + strlen(root);
	FILE *f;

	while ((p = strchr(p + 1, '/'))) {
		*p = 0;
		mkdir(path, 0755);
		*p = '/';
	}
	f = fopen(path, "w");
	ASSERT_TRUE(f);
	fputs(text, f);
	fclose(f);
	free(path);
}

TEST(pmu_load_fake_tree)
{
	const char *root = test_tmpdir();
	struct strvec names = STRVEC_INIT;
	struct pmu *pmu;
	const struct pmu_alias *a;

	put(root, "uncore_imc/type", "17\n");
	put(root, "uncore_imc/format/event", "config:0-7\n");
	put(root, "uncore_imc/format/umask", "config:8-15\n");
	put(root, "uncore_imc/events/cas_count_read", "event=0x04,umask=0x03\n");
	put(root, "uncore_imc/events/cas_count_read.scale", "6.103515625e-5\n");
	put(root, "uncore_imc/events/cas_count_read.unit", "MiB\n");
	put(root, "uncore_imc/events/clockticks.per-pkg", "1\n");
	put(root, "uncore_imc/events/clockticks", "event=0x00,umask=0x00\n");
	put(root, "broken/format/event", "config:0-7\n"); /* no type file: not a PMU */

	EXPECT_EQ(pmu_list_at(root, &names), 0);
	EXPECT_EQ(names.nr, 2);
	EXPECT_STREQ(names.v[0], "broken");
	strvec_clear(&names);

	EXPECT_TRUE(pmu_load_at(root, "broken") == NULL);
	EXPECT_TRUE(pmu_load_at(root, "../x") == NULL);
	/* "imc" finds "uncore_imc", as perf's lookup does */
	pmu = pmu_load_at(root, "imc");
	ASSERT_TRUE(pmu);
	EXPECT_STREQ(pmu->name, "uncore_imc");
	EXPECT_EQ(pmu->type, 17);
	EXPECT_EQ(pmu->nr_formats, 2);
	EXPECT_STREQ(pmu->formats[0].name, "event");
	EXPECT_EQ(pmu->nr_aliases, 2);
	a = pmu_alias_find(pmu, "cas_count_read");
	ASSERT_TRUE(a);
	EXPECT_STREQ(a->terms, "event=0x04,umask=0x03");
	EXPECT_STREQ(a->unit, "MiB");
	EXPECT_TRUE(a->scale > 6.1e-5 && a->scale < 6.11e-5);
	a = pmu_alias_find(pmu, "clockticks");
	ASSERT_TRUE(a);
	EXPECT_TRUE(a->per_pkg);
	EXPECT_TRUE(pmu_format_find(pmu, "umask") != NULL);
	EXPECT_TRUE(pmu_format_find(pmu, "cmask") == NULL);
	pmu_free(pmu);
	pmu_free(NULL);
}
