#!/bin/bash
# SPDX-License-Identifier: MIT
# sonde stat on bad input and refused opens: perf's texts and exit codes,
# never a crash or a hang. The permission tests run as 'nobody' with
# perf_event_paranoid set to 2 for the test and restored afterwards.
. "$(dirname "$0")/lib.sh"

# same_err ARGS...: stderr (prog name and times normalised) and status equal perf's
same_err() {
	local prc=0 src=0
	"$PERF" stat "$@" >/dev/null 2>perf.err </dev/null || prc=$?
	"$SONDE" stat "$@" >/dev/null 2>sonde.err </dev/null || src=$?
	sed -E "s/sonde/perf/g; s/[0-9]+\.[0-9]+ seconds/N seconds/" sonde.err >sonde.n || return 1
	sed -E "s/[0-9]+\.[0-9]+ seconds/N seconds/" perf.err >perf.n || return 1
	if [ "$prc" != "$src" ]; then echo "exit: perf $prc, sonde $src"; cat sonde.err; return 1; fi
	test_cmp perf.n sonde.n
}

test_expect_success 'unknown option: 129 and usage' '
	test_exit_code 129 "$SONDE" stat --bogus 2>err &&
	test_grep "^  Error: unknown option .bogus.$" err && test_grep "^ Usage: sonde stat" err
'
test_expect_success 'unknown event: the parser error, 129' '
	test_exit_code 129 "$SONDE" stat -e bogus -- true 2>err &&
	test_grep "^event syntax error: .bogus.$" err &&
	test_grep "^Run .sonde list. for a list of valid events$" err &&
	test_grep "^    -e, --event <event>   event selector" err
'
test_expect_success 'nonexistent command: perf text, 255' '
	test_exit_code 255 "$SONDE" stat -e cs -- /nonexistent/cmd 2>err &&
	test_cmp - err <<-\EOT
	Workload failed: No such file or directory
	EOT
'
test_expect_success 'a command that is not executable: EACCES text, 255' '
	echo "echo hi" >script.sh && chmod -x script.sh &&
	test_exit_code 255 "$SONDE" stat -e cs -- ./script.sh 2>err &&
	test_grep "^Workload failed: Permission denied$" err
'
test_expect_success PERF 'nonexistent PID' 'same_err -p 999999 -e cs true'
test_expect_success PERF '--no-event, --no-cgroup, --no-metrics: perf refuses them' '
	same_err --no-event true && same_err --no-cg true && same_err --no-metrics -e cs true
'
test_expect_success PERF 'malformed PID list' 'same_err -p abc -e cs true'
test_expect_success PERF 'nonexistent TID: the open error' 'same_err -t 999999 -e task-clock'
test_expect_success PERF '-B with -x' 'same_err -x, -B -e cs true'
test_expect_success PERF '-A without -a' 'same_err -A -e cs true'
test_expect_success PERF '--per-thread without a target' 'same_err --per-thread -e cs true'
test_expect_success PERF '--per-core / --per-socket without -a' 'same_err --per-core -e cs true && same_err --per-socket -e cs true'
test_expect_success PERF '--interval-count without -I' 'same_err --interval-count 2 -e cs true'
test_expect_success PERF 'negative -r' 'same_err -r -1 -e cs true'
test_expect_success PERF 'a malformed -C list' 'same_err -C abc -e cs true'
test_expect_success PERF '--topdown and --smi-cost where the machine has neither' '
	same_err --topdown true && same_err --topdown -a true && same_err --smi-cost true
'
if test -e /sys/bus/event_source/devices/cpu/events/tx-start; then
	test_skip '-T without transaction events: perf'"'"'s text, 234' 'this machine has transaction events (cpu/tx-start/)'
else
	test_expect_success PERF '-T without transaction events: perf'"'"'s text, 234' '
		test_exit_code 234 "$SONDE" stat -T true 2>err &&
		head -1 err | grep -x "Cannot set up transaction events" &&
		same_err -T true
	'
fi
test_expect_success PERF 'an unknown PMU after other events: perf points at the string start' '
	same_err -e "cs,nosuchpmu/config=1/" true &&
	same_err -e "{cs,nosuchpmu/config=1/}:u" true
'
test_expect_success PERF 'a too short --timeout' 'same_err --timeout 5 -e cs true'
test_expect_success PERF '-o into a missing directory, --log-fd on a closed fd' '
	same_err -o /nonexistent/dir/f -e cs true && same_err --log-fd 99 -e cs true
'
test_expect_success PERF,TRACEFS 'a tracepoint filter the kernel rejects' 'same_err -x, -e sched:sched_process_exec --filter "bogus_field > 0" -- true'
if test -d /sys/bus/event_source/devices/msr; then
	test_expect_success PERF 'a PMU rejecting the attr: <not supported>, status 0' '
		"$SONDE" stat -e msr/event=0x99/ -- true 2>err &&
		test_grep "^ +<not supported> +msr/event=0x99/" err &&
		same_err -e msr/event=0x99/ -- true
	'
else
	test_skip 'a PMU rejecting the attr: <not supported>, status 0' 'no msr PMU on this machine'
fi
test_expect_success PERF 'out-of-range cpu (-C 99): perf'"'"'s text and status' '
	test "$(getconf _NPROCESSORS_CONF)" -lt 99 &&
	same_err -C 99 -e cs -- true
'

# run_nobody CMD...: as the nobody user, with perf_event_paranoid=2
paranoid_saved=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null)
run_nobody() {
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"
}
if test_have_prereq NOBODY; then
	echo 2 >/proc/sys/kernel/perf_event_paranoid
	chmod 755 "$TRASH"
fi

test_expect_success NOBODY 'unprivileged, paranoid 2: -a is refused with the paranoid hint, 255' '
	rc=0; run_nobody "$SONDE" stat -a -e cs -- true 2>err || rc=$?
	test $rc = 255 &&
	test_grep "^Error:$" err &&
	test_grep "^Access to performance monitoring and observability operations is limited.$" err &&
	test_grep "^perf_event_paranoid setting is 2:$" err &&
	test_grep "^>= 2: Disallow kernel profiling$" err
'
test_expect_success NOBODY,PERF 'unprivileged, paranoid 2: the same text as perf' '
	prc=0 src=0
	run_nobody "$PERF" stat -a -e cs -- true 2>perf.err || prc=$?
	run_nobody "$SONDE" stat -a -e cs -- true 2>sonde.err || src=$?
	echo "exit: perf $prc, sonde $src" &&
	test $prc = $src && test_cmp perf.err sonde.err
'
test_expect_success NOBODY 'unprivileged, paranoid 2: own process counted user-only (":u")' '
	run_nobody "$SONDE" stat -e task-clock,cs -- true 2>err &&
	test_grep "msec task-clock:u +#" err && test_grep " cs:u +#" err
'
test_expect_success NOBODY 'unprivileged -v: perf'"'"'s fallback note' '
	run_nobody "$SONDE" stat -v -e cs -- true 2>err &&
	test_grep "^kernel.perf_event_paranoid=2, trying to fall back to excluding kernel and hypervisor  samples$" err
'
test_expect_success NOBODY 'unprivileged: another user'"'"'s process is refused, 255' '
	rc=0; run_nobody "$SONDE" stat -p 1 -e cs -- sleep 0.1 2>err || rc=$?
	test $rc = 255 && test_grep "perf_event_paranoid" err
'

if test_have_prereq NOBODY && [ -n "$paranoid_saved" ]; then
	echo "$paranoid_saved" >/proc/sys/kernel/perf_event_paranoid
fi

test_expect_success 'paranoid level restored' '
	test -z "$paranoid_saved" || test "$(cat /proc/sys/kernel/perf_event_paranoid)" = "$paranoid_saved"
'

test_done
