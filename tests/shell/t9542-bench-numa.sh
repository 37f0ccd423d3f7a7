#!/bin/bash
# SPDX-License-Identifier: MIT
# sonde bench numa mem vs perf bench: one test's layout (task summary, startup line,
# per-second progress, the nine result rows, -q's human rows) with only the measured
# values masked, -h and bad options, and the same exit codes. The progress fragments
# (one a second) become one: whether the last second's shows races the run's end in perf.
. "$(dirname "$0")/lib.sh"

mask() {
	sed -E -e 's/initialized in [0-9]+\.[0-9]+ seconds/initialized in N seconds/' \
		-e 's/(\r #  +[0-9]+\.[0-9]%  \[[0-9]+\.[0-9] mins\])+/ # N% [N mins]/' \
		-e 's/^ main, +[0-9]+\.[0-9]{3},/ main, N,/' \
		-e 's/^ +[0-9]+\.[0-9]{3} (secs|%|GB|nsecs)/ N \1/' \
		-e 's/^ Usage: perf / Usage: sonde /'
}

same() {
	local rc1=0 rc2=0
	"$PERF" bench "$@" >perf.raw 2>&1 </dev/null || rc1=$?
	"$SONDE" bench "$@" >sonde.raw 2>&1 </dev/null || rc2=$?
	mask <perf.raw >expect
	mask <sonde.raw >actual
	test_cmp expect actual || { echo "differs: bench $*"; return 1; }
	[ "$rc1" = "$rc2" ] || { echo "exit $rc2, perf $rc1: bench $*"; return 1; }
}

test_expect_success PERF 'numa mem: one timed test, its summary, progress and rows' '
	same numa mem -p 2 -t 1 -P 4 -s 2 &&
	test_grep "# 2 tasks will execute" actual &&
	test_grep "4MB process shared mem operations" actual &&
	test_grep "N% \[N mins\]" actual
'

test_expect_success PERF 'numa mem: -l loops, -T, -G, -q human rows' '
	same numa mem -p 1 -t 1 -P 4 -T 2 -G 0 -l 3 &&
	test_grep "^ #          3x     2MB thread  local  mem operations" actual &&
	same numa mem -p 1 -t 2 -P 0 -T 4 -G 0 -s 1 -q &&
	test_grep "GB/sec total speed" actual
'

test_expect_success PERF 'numa mem: -h and a bad option' '
	same numa mem -h &&
	same numa mem -p 1 -Q &&
	test_exit_code 129 "$SONDE" bench numa mem -h >/dev/null 2>&1
'

test_done
