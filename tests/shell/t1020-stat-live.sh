#!/bin/bash
# SPDX-License-Identifier: MIT
# sonde stat counts for real: every event kind this machine offers
# (software, tracepoints and globs, breakpoints, msr), every target kind
# (workload, -p, -t, -a, -C), repeats, intervals, Ctrl-C and timeouts.
# Counts are checked as properties (> 0, present), never exact values.
. "$(dirname "$0")/lib.sh"

W=$SONDE_WORKLOADS/cpuburn

# csv_val EVENT FILE: the value column of EVENT in a -x, report
csv_val() {
	awk -F, -v e="$1" '$3 == e { print $1 }' "$2"
}

test_expect_success ROOT 'software events count a workload' '
	"$SONDE" stat -x, -e task-clock,page-faults,context-switches -- "$W" 2>out &&
	tc=$(csv_val task-clock out) && pf=$(csv_val page-faults out) &&
	awk -v t="$tc" -v p="$pf" "BEGIN { exit !(t > 10 && p > 10) }"
'

test_expect_success ROOT 'task-clock of a CPU-bound workload is close to its elapsed time' '
	"$SONDE" stat -e task-clock -- "$W" 2>out &&
	grep -E "msec task-clock +# +[0-9.]+ CPUs utilized" out &&
	grep -E "^ +[0-9.]+ seconds time elapsed$" out &&
	grep -E "^ +[0-9.]+ seconds user$" out && grep -E "^ +[0-9.]+ seconds sys$" out
'

test_expect_success ROOT 'default list: software counted, hardware per machine' '
	"$SONDE" stat -- true 2>out &&
	for e in task-clock context-switches cpu-migrations page-faults cycles instructions branches branch-misses; do
		grep -E " $e( |$)" out || { echo "no $e"; exit 1; }
	done &&
	if test_have_prereq HWCOUNTERS; then grep -E "^ +[0-9,.]+ +cycles" out
	else grep -E "^ +<not supported> +cycles" out; fi
'

test_expect_success ROOT,TRACEFS 'a tracepoint counts its events: one exec' '
	"$SONDE" stat -x, -e sched:sched_process_exec -- true 2>out &&
	test "$(csv_val sched:sched_process_exec out)" = 1
'

test_expect_success ROOT,TRACEFS '--filter applies to the tracepoint' '
	"$SONDE" stat -x, -e sched:sched_process_exec --filter "common_pid > 0" -- true 2>out &&
	test "$(csv_val sched:sched_process_exec out)" = 1 &&
	"$SONDE" stat -x, -e sched:sched_process_exec --filter "common_pid == 0" -- true 2>out &&
	test "$(csv_val sched:sched_process_exec out)" = 0
'

test_expect_success ROOT,TRACEFS 'tracepoint globs: a whole subsystem' '
	"$SONDE" stat -x, -e "sched:*" -- true 2>out &&
	n=$(ls -d /sys/kernel/tracing/events/sched/*/ | wc -l) &&
	test "$(grep -c ",sched:" out)" = "$n"
'

if test -d /sys/kernel/tracing/events/syscalls; then
	test_expect_success ROOT,TRACEFS 'syscalls:sys_enter_* opens 300+ events, execve counted' '
		# sh runs the first /bin/true in a child and execs the last: two
		# execve calls after the counters are enabled on the first exec
		"$SONDE" stat -x, -e "syscalls:sys_enter_*" -- sh -c "/bin/true; /bin/true" 2>out &&
		test "$(grep -c ",syscalls:sys_enter_" out)" -gt 300 &&
		test "$(csv_val syscalls:sys_enter_execve out)" = 2
	'

	test_expect_success ROOT,TRACEFS 'fds run out with -a: perf'"'"'s message, exit 255' '
		(ulimit -n 64; test_exit_code 255 "$SONDE" stat -a -e "syscalls:sys_enter_*" -- true 2>err) &&
		test_grep "^Too many events are opened.$" err &&
		test_grep "^Hint: Try increasing the limit with .ulimit -n <limit>.$" err
	'
else
	test_skip 'syscalls:sys_enter_* opens 300+ events, execve counted' 'kernel has no syscalls tracepoints'
	test_skip 'fds run out with -a: perf'"'"'s message, exit 255' 'kernel has no syscalls tracepoints'
fi

test_expect_success ROOT 'breakpoint event (mem:) opens; an address never touched counts 0' '
	"$SONDE" stat -x, -e mem:0x1000:rw -- true 2>out &&
	test "$(csv_val mem:0x1000:rw out)" = 0
'

# mem:ADDR:x on cpuburn'"'"'s main, with address randomisation off (setarch -R) so
# the address is known before the run: main runs once, so perf counts 1 where
# the machine'"'"'s debug registers work (a VM may give 0: then there is nothing to compare)
main_bp_addr() {
	local base="" off i p
	off=$(nm "$W" | awk '$3 == "main" { print $1 }') && test -n "$off" || return 1
	setarch -R "$W" 3000 >/dev/null & p=$!
	for i in $(seq 50); do
		base=$(awk '$6 ~ /\/cpuburn$/ { sub(/-.*/, "", $1); print $1; exit }' /proc/$p/maps 2>/dev/null)
		test -n "$base" && break
		sleep 0.1
	done
	kill $p; wait $p 2>/dev/null
	test -n "$base" || return 1
	printf "0x%x\n" $((0x$base + 0x$off))
}
if test_have_prereq ROOT PERF && command -v setarch >/dev/null && command -v nm >/dev/null &&
	bp=$(main_bp_addr) && pv=$("$PERF" stat -x, -e "mem:$bp:x" -- setarch -R "$W" 50 2>&1 | awk -F, "NR == 1 { print \$1 }") &&
	test "$pv" != 0; then
	test_expect_success ROOT,PERF 'an execution breakpoint on main counts as perf counts it' '
		"$SONDE" stat -x, -e "mem:$bp:x" -- setarch -R "$W" 50 2>out &&
		test "$(csv_val "mem:$bp:x" out)" = "$pv"
	'
else
	test_skip 'an execution breakpoint on main counts as perf counts it' \
		"needs root, perf, setarch and nm, and breakpoints that fire (perf counted ${pv:-nothing})"
fi

if test -d /sys/bus/event_source/devices/msr; then
	test_expect_success ROOT 'msr/tsc/ counts' '
		"$SONDE" stat -x, -e msr/tsc/ -- "$W" 2>out &&
		test "$(csv_val msr/tsc/ out)" -gt 0
	'
else
	test_skip 'msr/tsc/ counts' 'no msr PMU on this machine'
fi

test_expect_success ROOT 'groups are read as a group' '
	"$SONDE" stat -x, -e "{task-clock,page-faults}" -- "$W" 2>out &&
	test "$(csv_val page-faults out)" -gt 0 && test "$(csv_val task-clock out | cut -d. -f1)" -gt 0
'

test_expect_success ROOT '-p PID counts a running process' '
	"$W" 3000 &
	pid=$! rc=0
	"$SONDE" stat -x, -p $pid -e task-clock -- sleep 0.2 2>out || rc=$?
	kill $pid 2>/dev/null || : # cleanup only: a loaded machine may have let it end
	test $rc = 0 &&
	v=$(csv_val task-clock out) && awk -v v="$v" "BEGIN { exit !(v > 10) }"
'

test_expect_success ROOT '-t TID counts one thread' '
	"$W" 3000 &
	pid=$! rc=0
	"$SONDE" stat -x, -t $pid -e task-clock -- sleep 0.2 2>out || rc=$?
	kill $pid 2>/dev/null || : # cleanup only: a loaded machine may have let it end
	test $rc = 0 &&
	v=$(csv_val task-clock out) && awk -v v="$v" "BEGIN { exit !(v > 10) }"
'

test_expect_success ROOT '-p PID without a command ends when the process exits' '
	sleep 0.5 & pid=$! &&
	timeout 5 "$SONDE" stat -p $pid -e cs 2>out &&
	test_grep "Performance counter stats for process id .$pid.:" out
'

test_expect_success ROOT '-a counts every cpu; -A lists each' '
	"$SONDE" stat -a -x, -e cs -- sleep 0.1 2>out && test "$(csv_val cs out)" -gt 0 &&
	"$SONDE" stat -a -A -x, -e cs -- sleep 0.1 2>out &&
	test "$(grep -c "^CPU[0-9]*,[0-9]*,,cs," out)" = "$(grep -c ^processor /proc/cpuinfo)"
'

test_expect_success ROOT '-C 0 counts one cpu' '
	"$SONDE" stat -C 0 -A -x, -e cs -- sleep 0.1 2>out &&
	test "$(grep -c "^CPU0,[0-9]*,,cs," out)" = 1 && test "$(wc -l <out)" = 1
'

test_expect_success ROOT '-r 3: three runs, noise shown' '
	"$SONDE" stat -r 3 -e task-clock -- "$W" 2>out &&
	test_grep "Performance counter stats for .* \(3 runs\):" out &&
	test_grep "seconds time elapsed  \( \+- +[0-9.]+% \)" out
'

test_expect_success ROOT '-I: interval lines with growing timestamps' '
	"$SONDE" stat -I 100 -x, -e task-clock -- "$W" 2>out &&
	test "$(wc -l <out)" -ge 2 &&
	awk -F, "{ if (\$1 + 0 <= prev) exit 1; prev = \$1 + 0 }" out
'

test_expect_success ROOT '--interval-count stops after N intervals' '
	"$SONDE" stat -I 100 --interval-count 2 -x, -e task-clock -- sleep 2 2>out &&
	test "$(wc -l <out)" = 2
'

test_expect_success ROOT '--timeout stops the workload and prints' '
	start=$(date +%s%N)
	"$SONDE" stat --timeout 200 -e task-clock -- sleep 5 2>out
	end=$(date +%s%N)
	test $(( (end - start) / 1000000 )) -lt 3000 && test_grep "task-clock" out
'

test_expect_success ROOT 'Ctrl-C on a system-wide run prints the counts, status 130' '
	"$SONDE" stat -a -e cs 2>out &
	pid=$! rc=0
	sleep 0.5
	interrupt $pid
	wait $pid || rc=$?
	test $rc = 130 && test_grep "^ +[0-9,]+ +cs" out && test_grep "seconds time elapsed" out
'

test_expect_success ROOT 'no command and no target: system wide until Ctrl-C' '
	"$SONDE" stat -e cs 2>out &
	pid=$! rc=0
	sleep 0.3
	interrupt $pid
	wait $pid || rc=$?
	# perf ends with 130 here too
	test $rc = 130 && test_grep "Performance counter stats for .system wide.:" out
'

test_expect_success ROOT '-G cgroup: counts in the root cgroup, its name in a column' '
	"$SONDE" stat -a -x, -e cs,task-clock -G / -- sleep 0.1 2>out &&
	grep -E "^[0-9]+,,cs,/," out && grep -E "^[0-9.]+,msec,task-clock,/," out &&
	# every task is in the root cgroup: each cpu counts all the time (running =
	# enabled), which needs the events enabled from their own cpus
	"$SONDE" stat -a -A -x, -e cs -G / -- sleep 0.1 2>out &&
	awk -F, "{ print \$1, \$4, \$5, \$7 }" out >got &&
	for c in $(awk -F: "/^processor/ { print \$2 }" /proc/cpuinfo); do
		echo "CPU$c cs / 100.00"
	done | sort >want &&
	sort got >got.sorted && test_cmp want got.sorted &&
	"$SONDE" stat -a -e cs,task-clock -G / -- sleep 0.1 2>out &&
	test_grep "^ +[0-9,]+ +cs +/ #" out
'

test_expect_success ROOT '-G before any -e, and a missing cgroup: perf texts, 129' '
	test_exit_code 129 "$SONDE" stat -a -G / -- true 2>err &&
	test_grep "^must define events before cgroups$" err &&
	test_exit_code 129 "$SONDE" stat -a -e cs -G no-such-group -- true 2>err &&
	test_grep "^no access to cgroup .*/no-such-group$" err
'

test_expect_success ROOT '--per-thread -a: busy threads of the whole system, comm-pid prefix' '
	# counting starts after a scan of every thread of the machine (over a
	# second when loaded): the workload outlives it, has its name, is stopped after
	"$W" 5000 &
	pid=$! rc=0
	for i in $(seq 50); do
		test "$(cat /proc/$pid/comm)" = cpuburn && break
		sleep 0.1
	done
	"$SONDE" stat --per-thread -a -x, -e task-clock -- sleep 0.3 2>out || rc=$?
	kill $pid
	test $rc = 0 &&
	grep -E "^cpuburn-$pid,[0-9.]+,msec,task-clock," out &&
	! grep -E ",<not counted>," out
'

test_expect_success ROOT '-D delay: perf'"'"'s messages, counting after the delay' '
	"$SONDE" stat -D 100 -x, -e task-clock -- "$W" 200 2>out &&
	head -2 out >msgs && printf "Events disabled\nEvents enabled\n" >exp && test_cmp exp msgs &&
	v=$(csv_val task-clock out) && awk -v v="$v" "BEGIN { exit !(v > 10) }"
'

test_expect_success ROOT '--interval-clear clears the terminal on stdout before each interval' '
	"$SONDE" stat --interval-clear -I 100 --interval-count 1 -e cs -- sleep 0.3 >clear 2>/dev/null &&
	printf "\033[H\033[2J\n" >exp && cmp exp clear
'

test_expect_success ROOT '-n null run: no counters, times only' '
	"$SONDE" stat -n -- true 2>out &&
	! grep -E "task-clock|cycles" out && test_grep "seconds time elapsed" out
'

test_expect_success ROOT '-v prints raw val/ena/run lines' '
	"$SONDE" stat -v -e task-clock -- true 2>out &&
	test_grep "^task-clock: [0-9]+ [0-9]+ [0-9]+$" out
'

test_expect_success ROOT '--no-inherit: children are not counted' '
	"$SONDE" stat -x, -e task-clock -- sh -c "\"$W\"" 2>inh &&
	"$SONDE" stat -i -x, -e task-clock -- sh -c "\"$W\"" 2>noinh &&
	a=$(csv_val task-clock inh) && b=$(csv_val task-clock noinh) &&
	awk -v a="$a" -v b="$b" "BEGIN { exit !(b < a / 2) }"
'

test_expect_success ROOT '--all-user: names unchanged, kernel excluded' '
	"$SONDE" stat -x, --all-user -e task-clock -- true 2>out && test "$(csv_val task-clock out)" != ""
'

test_expect_success ROOT '--pre/--post run around the workload' '
	"$SONDE" stat --pre "echo pre >>log" --post "echo post >>log" -e cs -- true 2>/dev/null &&
	printf "pre\npost\n" >exp && test_cmp exp log
'

test_expect_success ROOT '--log-fd writes the report to that fd' '
	"$SONDE" stat --log-fd 3 -e cs -- true 3>log.txt 2>err &&
	test_grep "Performance counter stats" log.txt && ! grep -q "Performance counter" err
'

test_expect_success ROOT '--quiet prints nothing, status kept' '
	test_exit_code 4 "$SONDE" stat --quiet -e cs -- sh -c "exit 4" 2>out &&
	test_cmp /dev/null out
'

test_done
