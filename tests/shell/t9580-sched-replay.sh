#!/bin/bash
# SPDX-License-Identifier: MIT
# perf sched replay vs sonde sched replay on files perf records during the test (the
# fork/sleep/pipe workload): the same events, tasks and line layout (measured times masked),
# -r repeats with perf's running averages, perf's messages for a missing or trace-less file.
. "$(dirname "$0")/lib.sh"

work=$SONDE_WORKLOADS/schedfork

# mask FILE: the measured numbers of the calibration and replay lines as N; the rest as is
mask() {
	sed -E -e 's/^(run measurement overhead: |sleep measurement overhead: |the run test took |the sleep test took )[0-9]+ nsecs$/\1N nsecs/' \
		-e 's/^#([0-9]+) *: [0-9]+\.[0-9]{3}, ravg: [0-9]+\.[0-9]{2}, cpu: [0-9]+\.[0-9]{2} \/ [0-9]+\.[0-9]{2}$/#\1 : N, ravg: N, cpu: N \/ N/' "$1"
}

# same FILE ARGS...: perf and sonde replay print the same lines, masked, and exit alike
same() {
	local f=$1 rc1=0 rc2=0
	shift
	"$PERF" sched replay -i "$f" "$@" >expect.raw 2>expect.err </dev/null || rc1=$?
	"$SONDE" sched replay -i "$f" "$@" >actual.raw 2>actual.err </dev/null || rc2=$?
	test "$rc1" = "$rc2" || { echo "exit status: perf $rc1, sonde $rc2 for replay $*"; cat actual.err; return 1; }
	mask expect.raw >expect && mask actual.raw >actual &&
	test_cmp expect actual || { echo "stdout differs (masked): replay $*"; return 1; }
	test_cmp expect.err actual.err || { echo "stderr differs: replay $*"; return 1; }
}

test_expect_success PERF,ROOT,TRACEFS 'record: perf sched record, and sched_wakeup explicitly' '
	"$PERF" sched record -q -o "$TRASH/p.data" -- "$work" 20 2 >/dev/null 2>&1 &&
	"$PERF" record -q -a -o "$TRASH/w.data" -e sched:sched_switch -e sched:sched_wakeup \
		-e sched:sched_wakeup_new -e sched:sched_process_fork -- "$work" 20 2 >/dev/null 2>&1 &&
	test -s "$TRASH/p.data" && test -s "$TRASH/w.data"
'

test_expect_success PERF,ROOT,TRACEFS 'replay -r 1: the same event counts, task list and lines as perf' '
	test -s "$TRASH/p.data" &&
	same "$TRASH/p.data" -r 1 &&
	test_grep "^nr_run_events: +[1-9]" actual &&
	test_grep "^task +[0-9]+ \( +schedfork: +[0-9]+\), nr_events: [1-9]" actual &&
	test "$(grep -c "^#" actual)" = 1 &&
	same "$TRASH/w.data" -r 1 &&
	test_grep "^nr_wakeup_events: +[1-9]" actual
'

# ravg_ok FILE N: the running averages of FILE's replay lines are perf's: each the past
# average weighted N-1 (N: the repeat count, at most 10) to the new replay's 1
ravg_ok() {
	grep "^#" "$1" | sed -E "s/[:,\/]/ /g" |
	awk -v n="$2" "NR==1 { r=\$2; c=\$6 } NR>1 { r=(r*(n-1)+\$2)/n; c=(c*(n-1)+\$6)/n }
		{ if ((r-\$4)^2 > 0.0001 || (c-\$7)^2 > 0.0001) bad=1 } END { exit bad }"
}

test_expect_success PERF,ROOT,TRACEFS '-r 3 / --repeat 2: a line per replay, perf'"'"'s running averages' '
	test -s "$TRASH/w.data" &&
	same "$TRASH/w.data" -r 3 &&
	test "$(grep -c "^#" actual)" = 3 &&
	ravg_ok expect.raw 3 && ravg_ok actual.raw 3 &&
	same "$TRASH/w.data" --repeat 2 &&
	ravg_ok expect.raw 2 && ravg_ok actual.raw 2
'

test_expect_success PERF 'no trace data, missing file, bad option: as perf' '
	"$PERF" record -q -o "$TRASH/n.data" -- true >/dev/null 2>&1 &&
	same "$TRASH/n.data" -r 1 &&
	same "$TRASH/n.data" -r 0 &&
	test_grep "No trace sample to read" actual.err &&
	same "$TRASH/missing.data" -r 1 &&
	test_grep "failed to open" actual.err &&
	test_exit_code 129 "$SONDE" sched replay --bogus >/dev/null 2>&1 &&
	test_exit_code 129 "$SONDE" sched replay -r -1 >/dev/null 2>err &&
	test_grep "^ Error: switch .r. expects an unsigned numerical value" err &&
	test_exit_code 129 "$SONDE" sched replay -h >help 2>&1 && test_grep "repeat the workload replay N times" help
'

test_expect_success PERF,ROOT,TRACEFS 'replay time beside perf (reported, not compared)' '
	test -s "$TRASH/p.data" &&
	t0=$(date +%s%N) && "$PERF" sched replay -i "$TRASH/p.data" -r 2 >/dev/null 2>&1 &&
	t1=$(date +%s%N) && "$SONDE" sched replay -i "$TRASH/p.data" -r 2 >/dev/null 2>&1 &&
	t2=$(date +%s%N) &&
	echo "# replay -r 2 wall time: perf $(((t1 - t0) / 1000000)) ms, sonde $(((t2 - t1) / 1000000)) ms" >times
'
test -f "$TRASH/times" && cat "$TRASH/times"

test_done
