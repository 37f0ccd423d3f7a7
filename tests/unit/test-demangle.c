/* SPDX-License-Identifier: MIT */
/* Unit tests: C++ and Rust demangling in perf's default and -v forms. */
#include "test.h"

#include "symbol/demangle.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void check(const char *mangled, int flags, const char *want)
{
	char *got = demangle(mangled, flags);

	if (!want) {
		if (got)
			test_fail_at(__FILE__, __LINE__, "%s: expected no result, got \"%s\"", mangled,
				     got);
	} else if (!got || strcmp(got, want)) {
		test_fail_at(__FILE__, __LINE__, "%s: \"%s\" != \"%s\"", mangled,
			     got ? got : "(null)", want);
	}
	free(got);
}

TEST(demangle_cxx_default_form)
{
	/* perf report's default: no parameters, no return type, no clone suffix */
	check("_ZN2ns1K1fEi", 0, "ns::K::f");
	check("_ZN2ns1K1gIiEET_S2_", 0, "ns::K::g<int>");
	check("_Z1fv.cold", 0, "f");
	check("_ZNKSt6vectorIiSaIiEE4sizeEv", 0, "std::vector<int, std::allocator<int> >::size");
	check("_ZStlsISt11char_traitsIcEERSt13basic_ostreamIcT_ES5_PKc", 0,
	      "std::operator<< <std::char_traits<char> >");
	check("_ZN12_GLOBAL__N_13fooEv", 0, "(anonymous namespace)::foo");
	check("_ZZ4mainENKUliE_clEi", 0, "main::{lambda(int)#1}::operator()");
	check("_ZN1AclEv", 0, "A::operator()");
	check("_ZN1AnwEm", 0, "A::operator new");
	check("_ZTV1A", 0, "vtable for A");
	check("_ZThn16_N1BD1Ev", 0, "non-virtual thunk to B::~B()");
}

TEST(demangle_cxx_params_form)
{
	check("_ZN2ns1K1fEi", DEMANGLE_PARAMS, "ns::K::f(int)");
	check("_ZN2ns1K1gIiEET_S2_", DEMANGLE_PARAMS, "int ns::K::g<int>(int)");
	check("_Z1fv.cold", DEMANGLE_PARAMS, "f() [clone .cold]");
	check("_ZNKSt6vectorIiSaIiEE4sizeEv", DEMANGLE_PARAMS,
	      "std::vector<int, std::allocator<int> >::size() const");
}

TEST(demangle_not_mangled)
{
	check("main", 0, NULL);
	check("_start", 0, NULL);
	check("_Zgarbage!", 0, NULL);
	check("", 0, NULL);
	EXPECT_TRUE(demangle_is_mangled("_ZN1a1bEv"));
	EXPECT_TRUE(demangle_is_mangled("_RNvC1a1b"));
	EXPECT_TRUE(!demangle_is_mangled("malloc"));
}

TEST(demangle_rust_legacy)
{
	check("_ZN4core3fmt5write17h0123456789abcdefE", 0, "core::fmt::write");
	check("_ZN3std2rt10lang_start17h1f2e3d4c5b6a7988E", DEMANGLE_PARAMS, "std::rt::lang_start");
	check("_ZN9hashbrown3raw21RawTable$LT$T$C$A$GT$14reserve_rehash17h0011223344556677E.llvm.42",
	      0, "hashbrown::raw::RawTable<T,A>::reserve_rehash");
	check("_ZN4test4main28_$u7b$$u7b$closure$u7d$$u7d$17h0011223344556677E", 0,
	      "test::main::{{closure}}");
	check("_ZN36_$LT$T$u20$as$u20$core..any..Any$GT$7type_id17h0011223344556677E", 0,
	      "<T as core::any::Any>::type_id");
}

TEST(demangle_rust_v0)
{
	check("_RNvCs1234_7mycrate3foo", 0, "mycrate::foo");
	check("_RNvNtCs1234_7mycrate3bar3baz", 0, "mycrate::bar::baz");
	/* generic args in value paths use the turbofish */
	check("_RINvNtCs1234_3std2rt10lang_startuEB4_", 0, "std::rt::lang_start::<()>");
	/* closures */
	check("_RNCNvCs1234_7mycrate4main0B3_", 0, "mycrate::main::{closure#0}");
	/* inherent impl and trait impl */
	check("_RNvMCs1234_7mycrateNtB2_1S3new", 0, "<mycrate::S>::new");
	check("_RNvXCs1234_7mycrateNtB2_1SNtB2_2Tr2go", 0, "<mycrate::S as mycrate::Tr>::go");
	/* types: references, slices, tuples, arrays with consts */
	check("_RINvCs1234_1a1fRShEB2_", 0, "a::f::<&[u8]>");
	check("_RINvCs1234_1a1fTlmEEB2_", 0, "a::f::<(i32, u32)>");
	check("_RINvCs1234_1a1fAmj3_EB2_", 0, "a::f::<[u32; 3]>");
	check("_RNvCs1234_7mycrate3foo.llvm.123", 0, "mycrate::foo");
	/* malformed: bad backrefs, truncation, loops */
	check("_RNvB0_3foo", 0, NULL);
	check("_RNvCs1234_7mycrate", 0, NULL);
	check("_RIB0_E", 0, NULL);
	check("_R", 0, NULL);
}

/* every C++ name of libstdc++ against binutils' c++filt (libiberty, what perf 6.1 links) */
static int diff_with_cxxfilt(const char *lib, const char *filt_opts, int flags, int *total)
{
	char cmd[1024], path[512], line[16384], ref[16384];
	FILE *names, *refs;
	int bad = 0;

	snprintf(path, sizeof(path), "%s/names", test_tmpdir());
	snprintf(cmd, sizeof(cmd),
		 "nm -D --defined-only %s | awk '{print $3}' | sed 's/@.*//' | grep '^_Z' | "
		 "sort -u > %s",
		 lib, path);
	if (system(cmd))
		return -1;
	snprintf(cmd, sizeof(cmd), "c++filt %s < %s", filt_opts, path);
	names = fopen(path, "r");
	refs = popen(cmd, "r");
	if (!names || !refs)
		return -1;
	*total = 0;
	while (fgets(line, sizeof(line), names) && fgets(ref, sizeof(ref), refs)) {
		char *got;

		line[strcspn(line, "\n")] = 0;
		ref[strcspn(ref, "\n")] = 0;
		got = demangle(line, flags);
		(*total)++;
		if (strcmp(got ? got : line, ref)) {
			if (bad++ < 5)
				test_fail_at(__FILE__, __LINE__, "%s: \"%s\" != c++filt \"%s\"", line,
					     got ? got : line, ref);
		}
		free(got);
	}
	fclose(names);
	pclose(refs);
	return bad;
}

TEST(demangle_matches_cxxfilt_on_libstdcxx)
{
	const char *lib = "/usr/lib/x86_64-linux-gnu/libstdc++.so.6";
	int total = 0, bad;

	if (access(lib, R_OK))
		test_skip("libstdc++.so.6 not found");
	if (system("c++filt --version >/dev/null 2>&1 && nm --version >/dev/null 2>&1"))
		test_skip("binutils (c++filt, nm) not installed");
	bad = diff_with_cxxfilt(lib, "-p -i", 0, &total);
	EXPECT_EQ(bad, 0);
	EXPECT_TRUE(total > 1000);
	bad = diff_with_cxxfilt(lib, "-i", DEMANGLE_PARAMS, &total);
	EXPECT_EQ(bad, 0);
}
