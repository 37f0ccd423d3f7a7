#!/bin/bash
# SPDX-License-Identifier: MIT
# check: parallel (its own files and workloads, nothing timed, no system-wide recording)
# annotate --stdio: the same text as perf annotate --stdio (whose objdump
# output sonde reproduces with capstone and libdw in-process) for C and C++
# programs at -O0 and -O2, with the option variants that change the text.
# No normalisation: every line is compared as perf prints it. perf 6.1's
# --percent-type global-hits prints 0.00 on every line (it does not count
# the event's hits in annotate); sonde prints the real share, checked here
# against the sample counts (-n) instead.
. "$(dirname "$0")/lib.sh"

if ! command -v gcc >/dev/null || ! command -v g++ >/dev/null; then
	test_skip 'annotate against perf' 'gcc/g++ not installed'
	test_done
	exit 0
fi

cat >hot.c <<'C'
#include <stdio.h>
static volatile double sink;
static inline double step(double x, int i)
{
	if (i & 1)
		return x * 1.0000001 + 0.25;
	return x / 1.0000003;
}
__attribute__((noinline)) double hot(double x, int n)
{
	for (int i = 0; i < n; i++)
		x = step(x, i);
	return x;
}
int main(void)
{
	double s = 0;
	for (int k = 0; k < 300; k++)
		s += hot(k, 100000);
	sink = s;
	printf("%d\n", (int)(s > 0));
	return 0;
}
C
cat >cx.cpp <<'CPP'
#include <vector>
namespace ns {
template <typename T> struct W {
	__attribute__((noinline)) static T spin(std::vector<T> &v)
	{
		T x = 0;
		for (long k = 0; k < 3000; k++)
			for (auto &e : v)
				x = x * 3 + e;
		return x;
	}
};
}
int main() { std::vector<long> v(5000, 1); volatile long r = ns::W<long>::spin(v); return (int)(r & 1) * 0; }
CPP

for o in O0 O2; do
	gcc -$o -g -o "c$o" hot.c
	g++ -$o -g -o "cxx$o" cx.cpp
done

for p in cO0 cO2 cxxO0 cxxO2; do
	test_expect_success ROOT "record $p with sonde" '
		"$SONDE" record -q -o $p.data ./$p >/dev/null 2>err &&
		test -s $p.data
	'
	# every symbol of the program with samples once; the variants on the hot one.
	# The program's dso only: which libc/loader functions get a sample or two
	# varies between runs, and a few of their objdump names are not reproduced
	# (docs/cmd/annotate.md); kernel symbols are t8030's.
	dsos="-d $p"
	test_expect_success ROOT,PERF "$p: same text as perf annotate --stdio $dsos" '
		"$PERF" annotate --stdio -i $p.data $dsos >perf.out 2>/dev/null &&
		"$SONDE" annotate --stdio -i $p.data $dsos >sonde.out 2>sonde.err &&
		test -s perf.out &&
		test_cmp perf.out sonde.out
	'
	case $p in c*O?) sym=hot ;; esac
	case $p in cxx*) sym="ns::W<long>::spin" ;; esac
	for opt in "--asm-raw" "--no-source" "-n" "-l" "--show-total-period" "--percent-type local-hits" "-M intel" \
		"--percent-type global-period"; do
		test_expect_success ROOT,PERF "$p: same text as perf annotate --stdio $opt $sym" '
			"$PERF" annotate --stdio -i $p.data $opt "$sym" >perf.out 2>/dev/null &&
			"$SONDE" annotate --stdio -i $p.data $opt "$sym" >sonde.out 2>sonde.err &&
			test -s perf.out &&
			test_cmp perf.out sonde.out
		'
	done
done

# A unit whose first code comes from a header: gcc's DWARF 5 line table
# gives that header file entry 1, and binutils (objdump -S, addr2line:
# perf's source) names the rows of a sequence that never set the file
# after entry 0, the .c file. perf shows m.c's lines for the header's
# function; so does sonde.
cat >h.h <<'H'
__attribute__((noinline)) double first(double x, int n)
{
	for (int i = 0; i < n; i++)
		x = x * 1.0000001 + 0.25;
	return x;
}
H
cat >m.c <<'M'
#include "h.h"
int main(void)
{
	volatile double r = first(1.0, 30000000);
	return r < 0;
}
M
gcc -O0 -g -o hdr m.c
test_expect_success ROOT,PERF 'a header first in its unit: the source and srcline objdump and addr2line give' '
	"$SONDE" record -q -o hdr.data ./hdr >/dev/null 2>err &&
	"$PERF" annotate --stdio -i hdr.data -d hdr >perf.out 2>/dev/null &&
	"$SONDE" annotate --stdio -i hdr.data -d hdr >sonde.out 2>sonde.err &&
	test_grep "volatile double r" perf.out &&
	test_cmp perf.out sonde.out &&
	"$PERF" report --stdio -i hdr.data -s srcline --dsos hdr >perf.out 2>/dev/null &&
	"$SONDE" report --stdio -i hdr.data -s srcline --dsos hdr >sonde.out 2>/dev/null &&
	test_grep "m.c:4" perf.out &&
	grep -v "^# (Tip" perf.out >perf.cmp && grep -v "^# (Tip" sonde.out >sonde.cmp &&
	test_cmp perf.cmp sonde.cmp
'

# Time in PLT stubs: perf gives the samples to _init, whose size-less
# symbol runs up to main, and objdump prints that range across .init,
# .plt and .plt.got, labelling each stub with its demangled "f@plt" name
# and the GOT slots with their versions ("@GLIBCXX_3.4", "@Base"); main
# calls the demangled stubs. -l names _init from the symbol table (crti has
# no DWARF unit).
cat >plt.cpp <<'CPP'
#include <cstring>
char *volatile keep;
int main(int argc, char **argv)
{
	long s = 0;
	for (long k = 0; k < 20000000; k++) {
		char *p = new char[16 + (k & 7)];
		keep = p;
		s += strlen(keep);
		delete[] keep;
	}
	return (int)(s & 1) * 0 + (argc > 5);
}
CPP
g++ -O2 -g -o pltO2 plt.cpp
test_expect_success ROOT,PERF 'samples in PLT stubs: _init across .init, .plt and .plt.got, as perf' '
	"$SONDE" record -q -o plt.data ./pltO2 >/dev/null 2>err &&
	"$PERF" annotate --stdio -i plt.data -d pltO2 >perf.out 2>/dev/null &&
	"$SONDE" annotate --stdio -i plt.data -d pltO2 >sonde.out 2>sonde.err &&
	test_grep "Disassembly of section .plt:" perf.out &&
	test_grep "<operator new\[\]\(unsigned long\)@plt>:" perf.out &&
	test_cmp perf.out sonde.out &&
	"$PERF" annotate --stdio -M intel -i plt.data -d pltO2 >perf.out 2>/dev/null &&
	"$SONDE" annotate --stdio -M intel -i plt.data -d pltO2 >sonde.out 2>sonde.err &&
	test_grep "QWORD PTR \[rip\+0x" perf.out &&
	test_cmp perf.out sonde.out
'

# A program without DWARF: objdump -l still names each function ("main():")
gcc -O2 -o nodw hot.c
test_expect_success ROOT,PERF 'a program without DWARF: the function lines come from the symbol table' '
	"$SONDE" record -q -o nodw.data ./nodw >/dev/null 2>err &&
	"$PERF" annotate --stdio -i nodw.data -d nodw >perf.out 2>/dev/null &&
	"$SONDE" annotate --stdio -i nodw.data -d nodw >sonde.out 2>sonde.err &&
	test_grep "^ *: [0-9]+ +hot\(\):" perf.out &&
	test_cmp perf.out sonde.out
'

test_expect_success ROOT,PERF 'a symbol named: -s and the argument, same as perf' '
	"$PERF" annotate --stdio -i cO2.data hot >perf.out 2>/dev/null &&
	"$SONDE" annotate --stdio -i cO2.data hot >sonde.out 2>/dev/null &&
	test_cmp perf.out sonde.out &&
	"$SONDE" annotate --stdio -i cO2.data -s hot >sonde2.out 2>/dev/null &&
	test_cmp perf.out sonde2.out &&
	"$SONDE" annotate --stdio -i cO2.data --dso cO2 hot >sonde3.out 2>/dev/null &&
	test_cmp perf.out sonde3.out
'

test_expect_success ROOT 'the hottest instruction of hot at -O0 is in its loop, as -n counts' '
	"$SONDE" annotate --stdio -n -i cO0.data hot >n.out 2>/dev/null &&
	total=$(sed -n "1s/.*(\([0-9]*\) samples.*/\1/p" n.out) &&
	sum=$(awk "/^ *[0-9]+ :   [0-9a-f]+:/ { s += \$1 } END { print s }" n.out) &&
	test "$total" = "$sum"
'

# without a symbol named (a name filters the samples, and so the total, as in perf)
test_expect_success ROOT 'global-hits: each line is its hits over all samples of the event' '
	"$SONDE" annotate --stdio -n -i cO0.data 2>/dev/null | awk "/ \|\t/ && NR > 1 { exit } { print }" >n.out &&
	"$SONDE" annotate --stdio --percent-type global-hits -i cO0.data 2>/dev/null |
		awk "/ \|\t/ && NR > 1 { exit } { print }" >g.out &&
	test_grep "Disassembly of section" g.out &&
	all=$("$SONDE" report --stdio -i cO0.data --stats 2>/dev/null |
		awk "/SAMPLE events/ { print \$3; exit }") &&
	test -n "$all" &&
	paste -d" " <(grep -E "^ *[0-9]+ :   " n.out | awk "{ print \$1 }") \
		<(grep -E "^ *[0-9.]+ :   " g.out | awk "{ print \$1 }") >pairs &&
	awk -v all="$all" "{ want = sprintf(\"%.2f\", 100 * \$1 / all); if (want != \$2) { print \"line \" NR \": \" \$0 \" want \" want; bad = 1 } } END { exit bad }" pairs
'

test_done
