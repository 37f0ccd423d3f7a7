#!/bin/bash
# SPDX-License-Identifier: MIT
# perf sched vs sonde sched, byte for byte (stdout, stderr, exit status), on files perf
# records during the test with a forking, sleeping, pipe ping-pong workload: latency,
# timehist and map with their options; sonde sched record read back by both; bad input.
. "$(dirname "$0")/lib.sh"

work=$SONDE_WORKLOADS/schedfork

# same SUBCMD FILE ARGS...: perf sched and sonde sched print the same for this file
same() {
	local sub=$1 f=$2 rc1=0 rc2=0
	shift 2
	"$PERF" sched $sub -i "$f" "$@" >expect 2>expect.err </dev/null || rc1=$?
	"$SONDE" sched $sub -i "$f" "$@" >actual 2>actual.err </dev/null || rc2=$?
	test "$rc1" = "$rc2" || { echo "exit status: perf $rc1, sonde $rc2 for $sub $*"; cat actual.err; return 1; }
	test_cmp expect actual || { echo "stdout differs: sched $sub $*"; return 1; }
	test_cmp expect.err actual.err || { echo "stderr differs: sched $sub $*"; return 1; }
}

test_expect_success PERF,ROOT,TRACEFS 'perf sched record of the fork/sleep workload' '
	"$PERF" sched record -q -o "$TRASH/p.data" -- "$work" 30 3 >/dev/null 2>&1 &&
	test -s "$TRASH/p.data"
'

test_expect_success PERF,ROOT,TRACEFS 'latency: default, -p, --sort, -C' '
	test -s "$TRASH/p.data" &&
	for args in "" "-p" "-s max" "-s runtime,switch" "-p -s switch,avg" "-s avg,max,switch,runtime" \
		"-C 0" "-p -C 1"; do
		same latency "$TRASH/p.data" $args || return 1
	done &&
	# the workload is there, by comm and per pid (the tables are perf'"'"'s, compared
	# above; how many of its tasks depends on what a loaded machine lost)
	"$SONDE" sched latency -i "$TRASH/p.data" -p | grep -c "^  schedfork:" >n &&
	test "$(cat n)" -ge 1 &&
	"$SONDE" sched latency -i "$TRASH/p.data" | test_grep "^  schedfork:\([0-9]+\) " -
'

test_expect_success PERF,ROOT,TRACEFS 'timehist: events, -w -M -V -n --state, -I, filters' '
	test -s "$TRASH/p.data" &&
	for args in "" "-w" "-M" "-V" "-n" "--state" "-w -M -V -n --state" "-I" "-C 1" "-V -M"; do
		same timehist "$TRASH/p.data" $args || return 1
	done &&
	test_grep "schedfork\[[0-9]+\]" actual
'

test_expect_success PERF,ROOT,TRACEFS 'timehist: summaries -s, -S, -S -M' '
	test -s "$TRASH/p.data" &&
	same timehist "$TRASH/p.data" -s &&
	test_grep "^Runtime summary" actual &&
	test_grep "Total number of context switches: [1-9]" actual &&
	same timehist "$TRASH/p.data" -S &&
	same timehist "$TRASH/p.data" -s -M
'

test_expect_success PERF,ROOT,TRACEFS 'timehist -g: kernel callchains, --max-stack, --no-call-graph' '
	"$PERF" sched record -q -g -o "$TRASH/g.data" -- "$work" 10 2 >/dev/null 2>&1 &&
	for args in "" "--max-stack 2" "-n -w" "--no-call-graph" "-S --max-stack 1"; do
		same timehist "$TRASH/g.data" $args || return 1
	done &&
	same timehist "$TRASH/g.data" &&
	test_grep " <- " actual
'

test_expect_success PERF,ROOT,TRACEFS 'map: default, --compact, --cpus' '
	test -s "$TRASH/p.data" &&
	for args in "" "--compact" "--cpus 0" "--cpus 1 --compact" "--cpus 0,1"; do
		same map "$TRASH/p.data" $args || return 1
	done &&
	test_grep "=> schedfork:" actual
'

test_expect_success PERF,ROOT,TRACEFS 'script: perf sched script' '
	test -s "$TRASH/p.data" &&
	same script "$TRASH/p.data"
'

test_expect_success ROOT,TRACEFS 'sonde sched record: the sched events, read alike by perf and sonde' '
	"$SONDE" sched record -q -o "$TRASH/s.data" -- "$work" 20 2 >/dev/null 2>&1 &&
	"$SONDE" evlist -i "$TRASH/s.data" >ev &&
	test_grep "^sched:sched_switch$" ev &&
	test_grep "^sched:sched_process_fork$" ev &&
	test_grep "^sched:sched_wakeup_new$" ev &&
	if test_have_prereq PERF; then
		same latency "$TRASH/s.data" &&
		same timehist "$TRASH/s.data" -w &&
		same map "$TRASH/s.data"
	fi
'

test_expect_success PERF,ROOT 'a file without sched events: perf messages and exit status' '
	"$PERF" record -q -o "$TRASH/n.data" -e cpu-clock -- true >/dev/null 2>&1 &&
	same timehist "$TRASH/n.data" &&
	grep -qx "No sched_switch events found. Have you run '"'"'perf sched record'"'"'?" actual.err &&
	same latency "$TRASH/n.data" &&
	same map "$TRASH/n.data"
'

test_expect_success 'bad input: missing file, unknown sort key, unknown subcommand' '
	test_exit_code 255 "$SONDE" sched latency -i "$TRASH/none.data" 2>err &&
	test_grep "failed to open" err &&
	test_exit_code 129 "$SONDE" sched latency -s bogus -i "$TRASH/none.data" 2>err &&
	test_grep "Unknown --sort key: .bogus" err &&
	test_exit_code 129 "$SONDE" sched frob 2>err &&
	test_grep "Usage: [a-z]+ sched" err
'

test_done
