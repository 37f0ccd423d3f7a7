#!/bin/bash
# SPDX-License-Identifier: MIT
# check: parallel (its own files and workloads, nothing timed, no system-wide recording)
# report: C++ names demangled by default, kept mangled with --no-demangle, as perf 6.1.
. "$(dirname "$0")/lib.sh"

if ! command -v g++ >/dev/null; then
	test_skip 'C++ demangling in report' 'g++ not installed'
	test_done
	exit 0
fi

cat >cx.cpp <<'CPP'
namespace ns {
template <typename T> struct W {
	__attribute__((noinline)) static T spin(T x)
	{
		for (long i = 0; i < 60000000; i++)
			x = x * 3 + 1;
		return x;
	}
};
}
int main() { volatile long r = ns::W<long>::spin(1); return (int)(r & 1) * 0; }
CPP
g++ -O1 -g -fno-omit-frame-pointer -o cx cx.cpp

test_expect_success ROOT 'record the C++ workload with sonde' '
	"$SONDE" record -q -o cx.data ./cx 2>err &&
	test -s cx.data
'

test_expect_success ROOT 'demangled by default' '
	"$SONDE" report --stdio -i cx.data >out 2>err &&
	test_grep "\[\.\] ns::W<long>::spin$" out
'

test_expect_success ROOT '--no-demangle keeps the mangled name' '
	"$SONDE" report --stdio --no-demangle -i cx.data >out 2>err &&
	test_grep "\[\.\] _ZN2ns1WIlE4spinEl$" out
'

# whole output compared, header lines included; only perf's closing tip line
# ("# (Tip: ...)", picked at random, or the note that tips.txt is missing) is
# dropped from both
for opt in "" "--no-demangle"; do
	test_expect_success ROOT,PERF "output equals perf report ${opt:-(default)}" '
		"$SONDE" report --stdio $opt -i cx.data 2>/dev/null | grep -v "^# (" >sonde.out &&
		"$PERF" report --stdio $opt -i cx.data 2>/dev/null | grep -v "^# (" >perf.out &&
		test_cmp perf.out sonde.out
	'
done

test_done
