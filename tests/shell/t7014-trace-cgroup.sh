#!/bin/bash
# SPDX-License-Identifier: MIT
# sonde trace -G/--cgroup: only the tasks of a cgroup, for the events given
# before it (or, before any event, for all of them), on a cgroup made for the
# test; perf trace's messages, exit codes and lines on the same setup.
. "$(dirname "$0")/lib.sh"

W=$SONDE_WORKLOADS/sysmix

# the hierarchy perf_event cgroups live in: a v1 one with that controller, else cgroup2
cg_mount=$(awk '$3 == "cgroup" && $4 ~ /(^|,)perf_event(,|$)/ { print $2; exit }' /proc/mounts)
[ -n "$cg_mount" ] || cg_mount=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
CG=sonde-test-$$
cg_reason=""
if [ "$(id -u)" != 0 ]; then
	cg_reason="needs root"
elif [ -z "$cg_mount" ]; then
	cg_reason="no cgroup2 (nor v1 perf_event) hierarchy mounted"
elif ! mkdir "$cg_mount/$CG" 2>/dev/null; then
	cg_reason="cannot create a cgroup under $cg_mount"
fi
cleanup_cgroup() {
	[ -d "$cg_mount/$CG" ] || return 0
	# tasks left inside go back to the root first
	for p in $(cat "$cg_mount/$CG/cgroup.procs" 2>/dev/null); do
		echo "$p" >"$cg_mount/cgroup.procs" 2>/dev/null
	done
	rmdir "$cg_mount/$CG"
}
trap 'cleanup_cgroup; cd /; rm -rf "$TRASH"' EXIT

# run_cg TOOL OUT ARGS...: TOOL trace -a ARGS while sysmix runs once in the
# cgroup and then once outside it; OUT gets the sysmix lines, each pid (after
# "/" or "pid: ") named by its order of appearance (P1, P2...), times dropped
run_cg() {
	local tool=$1 out=$2 tpid rc=0
	shift 2
	"$tool" trace -a "$@" -o raw.$out 2>err.$out &
	tpid=$!
	{ wait_events_open $tpid || { cat err.$out; interrupt $tpid; return 1; }; } &&
	sh -c "echo \$\$ >$cg_mount/$CG/cgroup.procs && exec $W" </dev/null 2>/dev/null &&
	"$W" </dev/null 2>/dev/null || rc=$?
	sleep 0.3
	interrupt $tpid
	wait $tpid || { echo "$tool trace exited $?"; cat err.$out; return 1; }
	[ $rc = 0 ] || { echo "a workload failed: $rc"; return 1; }
	grep "sysmix/" raw.$out | sed -E "s/^ *[0-9.]+ \( *[0-9.]* *(ms)?\): //" |
		awk '{ line = $0; s = ""
		       while (match(line, /(\/|pid: )[0-9]+/)) {
			       head = substr(line, RSTART, RLENGTH); sub(/[0-9]+$/, "", head)
			       n = substr(line, RSTART + length(head), RLENGTH - length(head))
			       if (n != 999999 && !(n in id)) id[n] = "P" (++nr)
			       s = s substr(line, 1, RSTART - 1) head (n == 999999 ? n : id[n])
			       line = substr(line, RSTART + RLENGTH)
		       }
		       print s line }' | sed -E "s/ +=/ =/" >$out
}

if [ -n "$cg_reason" ]; then
	test_skip 'trace -a -G: only the cgroup'"'"'s tasks, perf'"'"'s lines' "$cg_reason"
	test_skip 'trace -a -e EVENT -G: only that event in the cgroup' "$cg_reason"
else
	test_expect_success TRACEFS 'trace -a -G: only the cgroup'"'"'s tasks, perf'"'"'s lines' '
		run_cg "$SONDE" sonde -G $CG -e kill,dup,close &&
		# the first sysmix (P1, in the cgroup) and its child: every call; the second: none
		# (a path after an fd is read from /proc when printed: it may be gone;
		# the padding before "=" is one space, as pids of other lengths move it)
		test_grep "^sysmix/P1 dup\(fildes: 3(</dev/zero>)?\) += 4$" sonde &&
		test_grep "^sysmix/P1 kill\(pid: P1 \(sysmix\)\) += 0$" sonde &&
		test_grep "^sysmix/P1 kill\(pid: 999999, sig: CONT\) += -1 ESRCH" sonde &&
		test_grep "^sysmix/P2 close\(fd: 4321\) += -1 EBADF" sonde &&
		[ $(grep -c "^sysmix/P1 kill" sonde) = 2 ] && [ $(grep -c "^sysmix/P1 dup" sonde) = 1 ] &&
		! grep -q "^sysmix/P3" sonde &&
		if test_have_prereq PERF; then
			run_cg "$PERF" perf -G $CG -e kill,dup,close &&
			grep -E "^sysmix/P[0-9]+ kill\(" perf >p &&
			grep -E "^sysmix/P[0-9]+ kill\(" sonde >s && test_cmp p s
		fi
	'

	test_expect_success TRACEFS 'trace -a -e EVENT -G: only that event in the cgroup' '
		# the syscalls (kill) from every task, sched_process_exit from the cgroup only
		run_cg "$SONDE" sonde -e kill,sched:sched_process_exit -G $CG &&
		[ $(grep -c "^sysmix/P1 kill" sonde) = 2 ] && [ $(grep -c "^sysmix/P3 kill" sonde) = 2 ] &&
		test_grep "^sysmix/P1 sched:sched_process_exit\(comm: \"sysmix\", pid: P1 " sonde &&
		test_grep "^sysmix/P2 sched:sched_process_exit\(comm: \"sysmix\", pid: P2 " sonde &&
		[ $(grep -c "sched_process_exit" sonde) = 2 ] &&
		if test_have_prereq PERF; then
			run_cg "$PERF" perf -e kill,sched:sched_process_exit -G $CG &&
			test_cmp perf sonde
		fi
	'
fi

test_expect_success ROOT,PERF 'without -a: perf'"'"'s error and usage, 129' '
	for a in "-G /" "-e sched:sched_switch -G /" "-G / -e sched:sched_switch" "-C 0 -G /"; do
		test_exit_code 129 "$SONDE" trace $a -- true 2>sonde.err &&
		test_exit_code 129 "$PERF" trace $a -- true 2>perf.err &&
		sed "s/^\( Usage:\|    or:\) perf /\1 sonde /" perf.err >perf.norm &&
		sed "s/^\( Usage:\|    or:\) [a-z]* /\1 sonde /" sonde.err >sonde.norm &&
		test_cmp perf.norm sonde.norm &&
		test_grep "^  Error: cgroup monitoring only available in system-wide mode$" sonde.err || exit 1
	done
'

test_expect_success ROOT,PERF 'a cgroup that does not exist: perf'"'"'s message and exit code' '
	# after an event: the message, the usage of -G, 129 (also for a name no event takes)
	for a in "-e sched:sched_switch -G sonde-nosuch" "-e sched:sched_switch -G /,sonde-nosuch" \
		 "-e sched:sched_switch -G / -G sonde-nosuch"; do
		test_exit_code 129 "$SONDE" trace -a $a -- true 2>sonde.err &&
		test_exit_code 129 "$PERF" trace -a $a -- true 2>perf.err &&
		sed "s/^\( Usage:\|    or:\) perf /\1 sonde /" perf.err >perf.norm &&
		sed "s/^\( Usage:\|    or:\) [a-z]* /\1 sonde /" sonde.err >sonde.norm &&
		test_cmp perf.norm sonde.norm &&
		test_grep "^no access to cgroup .*/sonde-nosuch$" sonde.err || exit 1
	done &&
	# before any event: perf says so and traces without a cgroup (exit 0)
	"$SONDE" trace -G sonde-nosuch -e getppid -o out -- "$W" </dev/null 2>sonde.err &&
	"$PERF" trace -G sonde-nosuch -e getppid -o out.perf -- "$W" </dev/null 2>perf.err &&
	head -1 perf.err >perf.first && head -1 sonde.err >sonde.first && test_cmp perf.first sonde.first &&
	test_grep "^no access to cgroup .*/sonde-nosuch$" sonde.err &&
	test_grep "getppid\(\) += [0-9]+" out
'

test_done
