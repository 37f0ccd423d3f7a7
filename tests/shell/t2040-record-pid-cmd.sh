#!/bin/bash
# SPDX-License-Identifier: MIT
# record -p PID -- CMD: PID is recorded for as long as CMD runs; CMD's own samples are not.
. "$(dirname "$0")/lib.sh"

test_expect_success 'record -p PID -- CMD records PID while CMD runs' '
	"$SONDE_WORKLOADS/cpuburn" 4000 &
	bp=$! rc=0 &&
	"$SONDE" record -o pc.data -p $bp -- "$SONDE_WORKLOADS/cpuburn" 400 2>err || rc=$?
	kill $bp 2>/dev/null || :
	wait $bp || :
	test "$rc" = 0 || { cat err; return 1; }
	"$SONDE" script -i pc.data -F pid >pids 2>/dev/null &&
	test -s pids &&
	sort -u pids | tr -d " " >got &&
	echo $bp >expect &&
	test_cmp expect got
'

test_expect_success PERF 'record -p PID -- CMD: the target is named and mapped as in perf files' '
	"$SONDE_WORKLOADS/cpuburn" 4000 &
	bp=$! &&
	sleep 0.1 &&
	"$PERF" record -q -o p.data -p $bp -- sleep 0.2 2>/dev/null &&
	"$SONDE" record -q -o s.data -p $bp -- sleep 0.2 &&
	{ kill $bp 2>/dev/null; wait $bp; :; } &&
	# the synthesized COMMs: the target'"'"'s, then the corked workload'"'"'s "perf-exec"
	for f in p s; do
		"$PERF" script -i $f.data --show-task-events -F comm,event 2>/dev/null |
			grep PERF_RECORD_COMM | head -2 | sed "s/:[0-9]*\/[0-9]*$//" >$f.comms || return 1
	done &&
	test_cmp p.comms s.comms &&
	test_grep "cpuburn.*PERF_RECORD_COMM: cpuburn$" s.comms &&
	# its samples resolve in its maps (synthesized from /proc/PID/maps)
	"$PERF" report --stdio -i s.data --sort comm,dso 2>/dev/null >rep &&
	test_grep "^ +[0-9.]+% +cpuburn +cpuburn *$" rep
'

test_expect_success 'record -p with a pid that does not exist: a message, not a silent exit' '
	test_must_fail "$SONDE" record -o x.data -p 999999999 -- true >out 2>err &&
	test -s err
'

test_done
