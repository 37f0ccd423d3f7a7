#!/bin/bash
# SPDX-License-Identifier: MIT
# sonde top --stdio: live frames on a cpu-burning workload (header, rows, options, quitting).
. "$(dirname "$0")/lib.sh"

BURN=$SONDE_WORKLOADS/cpuburn
HEAD_RE='^   PerfTop: +[0-9]+ irqs/sec  kernel: *[0-9.]+%  exact: +[0-9.]+% lost: [0-9]+/[0-9]+ drop: [0-9]+/[0-9]+ \['

# top_run SECS OPTS...: sonde top --stdio for SECS seconds (then Ctrl-C) into top.out; status in top.rc
top_run() {
	local secs=$1 pid rc=0
	shift
	"$SONDE" top --stdio "$@" >top.out 2>top.err &
	pid=$!
	sleep "$secs"
	interrupt $pid
	wait $pid || rc=$?
	echo $rc >top.rc
}

# last_frame FILE: the rows of the last complete frame (header line first)
last_frame() {
	awk '/PerfTop:/{n++} {print n "\t" $0}' "$1" >frames.tmp
	local last=$(cut -f1 frames.tmp | sort -n | tail -1)
	awk -F'\t' -v n=$((last)) '$1 == n { sub(/^[^\t]*\t/, ""); print }' frames.tmp
}

# dump: what the last run printed (on a failed check)
dump() {
	echo "--- status $(cat top.rc 2>/dev/null), stderr:"
	cat top.err 2>/dev/null
	echo "--- last frame:"
	last_frame top.out | cut -c1-100
	return 1
}

start_burn() {
	"$BURN" 30000 >/dev/null 2>&1 &
	echo $! >burn.pid
}
stop_burn() {
	kill "$(cat burn.pid)" 2>/dev/null || true
	wait "$(cat burn.pid)" 2>/dev/null || true
}

# check_default_frames FILE: the checks of the default run
check_default_frames() {
	local clear rule
	clear=$(printf '\033[H\033[2J')
	rule=$(printf "%079d" 0 | tr 0 -)
	test_grep "$HEAD_RE"'4000Hz [a-z-]+(:[a-zA-Z]+)?\],  \(all, [0-9]+ CPUs?\)$' "$1" &&
	test "$(grep -c "PerfTop:" "$1")" -ge 2 &&
	test "$(grep -cxF "$clear" "$1")" -ge 2 &&
	grep -qxF -- "$rule" "$1" &&
	last_frame "$1" >frame &&
	test_grep "^ +[0-9]+\.[0-9]+%  cpuburn +\[\.\] leaf$" frame &&
	test "$(grep -cE "^ +[0-9.]+%  " frame)" -le 10 &&
	! grep -v PerfTop "$1" | awk 'length($0) > 79' | grep .
}

test_expect_success ROOT 'top --stdio: perf'"'"'s header, the workload'"'"'s symbol, frames cut to 80 columns' '
	start_burn
	top_run 3.5 -d 1 -E 10
	stop_burn
	{ test "$(cat top.rc)" = 0 && check_default_frames top.out; } || dump
'

test_expect_success ROOT 'top -p PID -ns comm,dso: the task target, sample counts, comm and dso columns' '
	start_burn
	top_run 2.5 -d 1 -p "$(cat burn.pid)" -ns comm,dso
	stop_burn
	test "$(cat top.rc)" = 0 &&
	test_grep "\],  \(target_pid: $(cat burn.pid)\)$" top.out &&
	last_frame top.out >frame &&
	test_grep "^ +[0-9.]+% +[0-9]+  cpuburn +cpuburn *$" frame &&
	! grep -E "^ +[0-9.]+% " frame | grep -v cpuburn
'

test_expect_success ROOT 'top -c PERIOD -e cpu-clock -K: the period in the header, kernel rows hidden' '
	start_burn
	top_run 2.5 -d 1 -c 100000 -e cpu-clock -K
	stop_burn
	{ test "$(cat top.rc)" = 0 &&
	test_grep "\[100000 cpu-clock\],  \(all" top.out &&
	! grep -F "[k]" top.out &&
	test_grep "\[\.\] " top.out; } || dump
'

test_expect_success ROOT 'top -U: only kernel rows' '
	top_run 2.5 -d 1 -U -a
	test "$(cat top.rc)" = 0 &&
	! grep -F "[.]" top.out &&
	test_grep "\[k\] " top.out
'

test_expect_success ROOT,TRACEFS 'top -e sched:sched_switch -ns comm: tracepoint samples by command' '
	start_burn
	top_run 2.5 -d 1 -e sched:sched_switch -ns comm
	stop_burn
	test "$(cat top.rc)" = 0 &&
	test_grep "\[1Hz sched:sched_switch\],  \(all" top.out &&
	last_frame top.out >frame &&
	test_grep "^ +[0-9.]+% +[0-9]+  [^ ]" frame
'

test_expect_success ROOT 'top: q on stdin quits with status 0' '
	{ sleep 2; echo q; sleep 20; } | timeout 15 "$SONDE" top --stdio -d 1 >q.out 2>q.err &&
	test_grep PerfTop q.out
'

test_expect_success ROOT 'top --percent-limit and -z: rows under the limit left out' '
	start_burn
	top_run 2.5 -d 1 -z --percent-limit 5
	stop_burn
	{ test "$(cat top.rc)" = 0 &&
	last_frame top.out >frame &&
	grep -E "^ +[0-9.]+%  " frame >rows &&
	test -s rows &&
	! awk "\$1 + 0 < 5" rows | grep .; } || dump
'

test_expect_success ROOT,PERF 'top: the header line is perf'"'"'s (numbers aside)' '
	norm() { grep -a PerfTop "$1" | tail -1 | sed -E "s/[0-9]+(\.[0-9]+)?/N/g; s/ +/ /g; s/: N/:N/g"; }
	"$PERF" top --stdio -d 1 -E 3 >perf.out 2>/dev/null &
	p=$!; sleep 2.5; interrupt $p; wait $p || echo "perf top: status $?"
	top_run 2.5 -d 1 -E 3
	norm perf.out >perf.head && norm top.out >sonde.head &&
	test -s perf.head &&
	test_cmp perf.head sonde.head
'

test_expect_success ROOT,PERF 'top -p of a process that is gone: perf'"'"'s message and status' '
	rc_p=0 rc_s=0
	"$PERF" top --stdio -p 999999 >perf.out 2>perf.err || rc_p=$?
	"$SONDE" top --stdio -p 999999 >sonde.out 2>sonde.err || rc_s=$?
	test_cmp perf.err sonde.err &&
	test "$rc_p" = "$rc_s"
'

test_expect_success 'top: an unknown event is refused as perf refuses it (129)' '
	test_exit_code 129 "$SONDE" top --stdio -e no_such_event_xyz
'

test_done
