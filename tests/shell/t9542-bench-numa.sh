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

test_expect_success PERF 'numa mem: a test naming cpus or nodes the machine lacks: perf message, usage, 129' '
	cpus=$(getconf _NPROCESSORS_ONLN) &&
	nodes=$(ls -d /sys/devices/system/node/node[0-9]* 2>/dev/null | wc -l) &&
	[ "$nodes" -gt 0 ] || nodes=1 &&
	same numa mem -p 1 -t 1 -P 4 -C $cpus -s 1 -zZq &&
	test_grep "^Test not applicable, system has only $cpus CPUs.$" actual &&
	same numa mem -p 1 -t 1 -P 4 -M $nodes -s 1 -zZq &&
	test_grep "^Test not applicable, system has only $nodes nodes.$" actual &&
	test_exit_code 129 "$SONDE" bench numa mem -p 1 -P 4 -C $cpus -s 1 -q >/dev/null 2>&1
'

test_expect_success PERF 'numa mem -m: the convergence latency row, human and machine forms' '
	same numa mem -p 1 -t 2 -P 4 -s 1 -zZq -m &&
	test_grep "^ N secs latency to NUMA-converge$" actual &&
	"$SONDE" bench numa mem -p 1 -t 2 -P 4 -s 1 -zZ -m >m.out 2>&1 &&
	test_grep "^ main, +[0-9.]+, secs, +NUMA-convergence-latency$" m.out
'

# perf's suite takes a quarter of an hour: its text, numbers masked, was
# recorded once on a 2-cpu, 1-node machine (tests/golden/bench/); sonde's
# suite runs its tests cut to 0.1 s and 1/64 of the memory here
suite_mask() {
	sed -E 's/^ +-?[0-9]+\.[0-9]+ / N /; s/^ # Running test on: .*/ # Running test on: UNAME/'
}

test_expect_success 'numa mem -a: perf suite, every test named as perf names it, not-applicable lines' '
	SONDE_BENCH_NUMA_QUICK=1 "$SONDE" bench numa mem -a >suite.raw 2>&1 &&
	suite_mask <suite.raw >actual &&
	grep "# Running" "$GOLDEN/bench/numa-suite-2cpu-1node.txt" >expect.heads &&
	grep "# Running" actual >actual.heads &&
	test_cmp expect.heads actual.heads &&
	test_grep "^ N secs latency to NUMA-converge$" actual &&
	test_grep "^ # Running test on: UNAME$" actual
'

cpus=$(getconf _NPROCESSORS_ONLN)
nodes=$(ls -d /sys/devices/system/node/node[0-9]* 2>/dev/null | wc -l)
if [ "$cpus" = 2 ] && [ "$nodes" -le 1 ]; then
	test_expect_success 'numa mem -a: the whole text as perf printed it on a 2-cpu, 1-node machine' '
		SONDE_BENCH_NUMA_QUICK=1 "$SONDE" bench numa mem >suite2.raw 2>&1 &&
		suite_mask <suite2.raw | sed "s/numa-mem\"$/numa-mem -a\"/" >actual &&
		test_cmp "$GOLDEN/bench/numa-suite-2cpu-1node.txt" actual
	'
else
	test_skip 'numa mem -a: the whole text as perf printed it on a 2-cpu, 1-node machine' \
		"this machine has $cpus cpus and $nodes nodes: which tests apply differs"
fi

test_done
