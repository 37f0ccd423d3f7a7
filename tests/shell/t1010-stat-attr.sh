#!/bin/bash
# SPDX-License-Identifier: MIT
# check: parallel (attrs only: system-wide runs record no samples that are compared)
# perf stat and sonde stat open the same perf_event_attrs for the same
# options and -e strings: the PERF_TEST_ATTR dumps (one file per opened fd)
# are compared as multisets, without the fields that legitimately differ
# (fd, pid, cpu numbers; group_fd only as "leader or member").
. "$(dirname "$0")/lib.sh"

EV=$SONDE_ROOT/tests/fixtures/events

# canon DIR: one sorted line per opened fd
canon() {
	local f
	for f in "$1"/event-*; do
		[ -e "$f" ] || continue
		awk -F= '
			/^\[/ { next }
			$1 == "fd" || $1 == "pid" || $1 == "cpu" { next }
			$1 == "group_fd" { printf "group=%s ", ($2 == "-1" ? "leader" : "member"); next }
			{ printf "%s=%s ", $1, $2 }
			END { print "" }' "$f"
	done | sort
}

# attr_diff "STAT OPTIONS..." : 0 when both tools opened the same attrs
# perf_canon STAT OPTIONS...: canon of what perf stat opens for them
perf_canon() {
	rm -rf p && mkdir p
	PERF_TEST_ATTR=$PWD/p "$PERF" stat "$@" >/dev/null 2>&1 </dev/null
	canon p
}

attr_diff() {
	rm -rf s && mkdir s
	perf_cached canon perf_canon "$@" >p.canon
	PERF_TEST_ATTR=$PWD/s "$SONDE" stat "$@" >/dev/null 2>&1 </dev/null
	canon s >s.canon
	# an empty dump on both sides would compare equal: perf must have opened
	# something, unless ATTR_EMPTY_OK (corpus strings this machine has no PMU for)
	if ! test -s p.canon; then
		test -n "$ATTR_EMPTY_OK" || { echo "perf opened no event for: stat $*"; return 1; }
		test -s s.canon || return 0
		echo "sonde opened events perf did not for: stat $*"; cat s.canon; return 1
	fi
	if ! diff -u p.canon s.canon >attr.diff; then
		echo "attrs differ for: stat $*"
		cat attr.diff
		return 1
	fi
}

test_expect_success PERF 'the dump has perf layout (keys, order, file name)' '
	rm -rf s && mkdir s &&
	PERF_TEST_ATTR=$PWD/s "$SONDE" stat -e task-clock true 2>/dev/null &&
	f=$(ls s/event-1-1-*) && test -n "$f" &&
	rm -rf p && mkdir p &&
	PERF_TEST_ATTR=$PWD/p "$PERF" stat -e task-clock true 2>/dev/null &&
	g=$(ls p/event-1-1-*) &&
	sed "s/=.*//" "$f" >keys.s && sed "s/=.*//" "$g" >keys.p &&
	test_cmp keys.p keys.s
'

test_expect_success PERF 'default event list' 'attr_diff true'
test_expect_success PERF 'software events with a workload' 'attr_diff -e task-clock,cs,faults,migrations true'
test_expect_success PERF 'groups: leader and members' "attr_diff -e '{task-clock,cs},faults' true"
test_expect_success PERF '-g puts everything in one group' 'attr_diff -g -e task-clock,cs,faults true'
test_expect_success PERF '-i (no inherit)' 'attr_diff -i -e task-clock true'
test_expect_success PERF '--all-user / --all-kernel' 'attr_diff --all-user -e task-clock,cs true && attr_diff --all-kernel -e cs true'
test_expect_success PERF 'modifiers' 'attr_diff -e task-clock:u,cs:k,faults:uk true'
test_expect_success PERF '-a (cpu-wide, no enable_on_exec)' 'attr_diff -a -e task-clock,cs sleep 0.01'
test_expect_success PERF '-C 0' 'attr_diff -C 0 -e cs sleep 0.01'
test_expect_success PERF '-p PID' '
	sleep 5 &
	pid=$! rc=0
	attr_diff -p $pid -e task-clock,cs -- sleep 0.01 || rc=$?
	kill $pid
	test $rc = 0
'
test_expect_success PERF '--per-thread -p PID' '
	sleep 5 &
	pid=$! rc=0
	attr_diff --per-thread -p $pid -e cs -- sleep 0.01 || rc=$?
	kill $pid
	test $rc = 0
'
test_expect_success PERF '-D delay: no enable_on_exec' 'attr_diff -D 10 -e cs true'
test_expect_success PERF,TRACEFS 'tracepoints' 'attr_diff -e sched:sched_switch,sched:sched_process_exec true'
test_expect_success PERF 'breakpoint and msr' 'attr_diff -e mem:0x1000:rw,msr/tsc/ true'
test_expect_success PERF '-G cgroup (cgroup fd as pid, PID_CGROUP flag)' 'attr_diff -a -e cs,faults -G / sleep 0.01'
test_expect_success PERF 'tool events' 'attr_diff -e duration_time,cs true'
test_expect_success PERF '--no-scale' 'attr_diff --no-scale -e cs true'

# every -e string of the events corpus, in one test
test_expect_success PERF 'stat attrs over the events corpus' '
	fails=0 n=0 empty=0 ATTR_EMPTY_OK=1
	while IFS= read -r spec; do
		case "$spec" in ""|"#"*) continue ;; esac
		n=$((n + 1))
		# once more before calling it a difference: tests running in parallel
		# add and remove tracepoints (probes) that globs pick up
		attr_diff -e "$spec" true >out 2>&1 || attr_diff -e "$spec" true >out 2>&1 ||
			{ cat out; fails=$((fails + 1)); }
		test -s p.canon || empty=$((empty + 1))
	done <"$EV/valid.txt"
	echo "$n strings, $empty opened by neither tool here, $fails differ"
	test $fails = 0 && test $((n - empty)) -gt 0
'

test_done
