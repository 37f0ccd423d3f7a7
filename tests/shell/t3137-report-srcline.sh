#!/bin/bash
# SPDX-License-Identifier: MIT
# check: parallel (its own files and workloads, nothing timed, no system-wide recording)
# The srcline and srcfile keys as perf prints them: perf looks a source line
# up lazily, when it compares two entries equal on the keys before it (or a
# sample meets its entry again), and only those lines size the column; the
# others are cut to it. A binary without DWARF is "??:0" in report and has
# no srcline line in script.
. "$(dirname "$0")/lib.sh"

if ! command -v gcc >/dev/null; then
	test_skip 'srcline against perf' 'gcc not installed'
	test_done
	exit 0
fi

# a function run about one sample's worth (-c 1000000: 1 ms) whose file
# name is longer than the column title
cat >a_source_file_with_a_name_longer_than_the_title.c <<'C'
static volatile double q;
__attribute__((noinline)) void long_once(void)
{
	for (long i = 0; i < 250000; i++)
		q += i;
}
C
cat >lm.c <<'C'
void long_once(void);
static volatile double s;
int main(void)
{
	long_once();
	for (long i = 0; i < 100000000; i++)
		s += i;
	return 0;
}
C
gcc -O0 -g -o lm lm.c a_source_file_with_a_name_longer_than_the_title.c
gcc -O2 -o nodbg lm.c a_source_file_with_a_name_longer_than_the_title.c

test_expect_success ROOT 'record the workloads' '
	"$SONDE" record -q -e cpu-clock -c 1000000 -o lm.data ./lm &&
	"$SONDE" record -q -e cpu-clock -c 1000000 -o nodbg.data ./nodbg &&
	test -s lm.data && test -s nodbg.data
'

for keys in sym,srcfile sym,srcline srcline,sym dso,srcline,sym comm,srcline srcline sym,srcline,srcfile; do
	test_expect_success ROOT,PERF "-s $keys: the column perf sizes and cuts" '
		report_same lm.data -s $keys
	'
done

test_expect_success ROOT,PERF 'a binary without DWARF: ??:0 in report, as perf' '
	report_same nodbg.data -s srcline --dsos nodbg &&
	test_grep "??:0" perf.out &&
	report_same nodbg.data -s dso,sym,srcline
'

test_expect_success ROOT,PERF 'a binary without DWARF: no srcline line in script, as perf' '
	"$PERF" script -i nodbg.data -F ip,sym,dso,srcline >perf.out 2>/dev/null &&
	"$SONDE" script -i nodbg.data -F ip,sym,dso,srcline >sonde.out 2>sonde.err &&
	test_grep "(.*nodbg)" perf.out &&
	test_cmp perf.out sonde.out
'

test_done
