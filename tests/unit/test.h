/* SPDX-License-Identifier: MIT */
/*
 * Unit-test harness: TEST(name) registers a test; each runs in a forked
 * child so a crash fails only that test. Results are printed as TAP.
 */
#ifndef SONDE_TEST_H
#define SONDE_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void unit_test_register(const char *name, void (*fn)(void), const char *file);
/* test_fail_at - record a failed expectation (the test goes on, then fails). */
void test_fail_at(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* test_skip - end the current test as skipped, with a reason. */
void test_skip(const char *reason) __attribute__((noreturn));
/* test_tmpdir - a per-test scratch directory (removed afterwards). */
const char *test_tmpdir(void);

#define TEST(name)                                                                 \
	static void test_##name(void);                                             \
	__attribute__((constructor)) static void register_##name(void)             \
	{                                                                          \
		unit_test_register(#name, test_##name, __FILE__);                   \
	}                                                                          \
	static void test_##name(void)

#define EXPECT_TRUE(c)                                                             \
	do {                                                                       \
		if (!(c))                                                          \
			test_fail_at(__FILE__, __LINE__, "expected true: %s", #c);   \
	} while (0)

#define EXPECT_EQ(a, b)                                                            \
	do {                                                                       \
		long long a_ = (long long)(a), b_ = (long long)(b);                \
		if (a_ != b_)                                                      \
			test_fail_at(__FILE__, __LINE__, "%s == %s: %lld != %lld", #a, \
				     #b, a_, b_);                                  \
	} while (0)

#define EXPECT_UEQ(a, b)                                                           \
	do {                                                                       \
		unsigned long long a_ = (unsigned long long)(a),                    \
				   b_ = (unsigned long long)(b);                    \
		if (a_ != b_)                                                      \
			test_fail_at(__FILE__, __LINE__, "%s == %s: %#llx != %#llx",   \
				     #a, #b, a_, b_);                              \
	} while (0)

#define EXPECT_STREQ(a, b)                                                         \
	do {                                                                       \
		const char *a_ = (a), *b_ = (b);                                   \
		if (!a_ || !b_ || strcmp(a_, b_))                                  \
			test_fail_at(__FILE__, __LINE__, "%s == %s: \"%s\" != \"%s\"", \
				     #a, #b, a_ ? a_ : "(null)", b_ ? b_ : "(null)"); \
	} while (0)

#define EXPECT_MEMEQ(a, b, n)                                                      \
	do {                                                                       \
		if (memcmp((a), (b), (n)))                                         \
			test_fail_at(__FILE__, __LINE__, "memory %s != %s (%zu bytes)", \
				     #a, #b, (size_t)(n));                         \
	} while (0)

/* ASSERT_TRUE - like EXPECT_TRUE but stops the test at once. */
#define ASSERT_TRUE(c)                                                             \
	do {                                                                       \
		if (!(c)) {                                                        \
			test_fail_at(__FILE__, __LINE__, "assertion failed: %s", #c); \
			exit(1);                                                   \
		}                                                                  \
	} while (0)

#endif
