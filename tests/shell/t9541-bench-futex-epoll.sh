#!/bin/bash
# SPDX-License-Identifier: MIT
# sonde bench futex/epoll/internals vs perf bench: the same text with only the measured
# values masked (pids, addresses, rates, times, spreads, event counts), the same exit codes.
. "$(dirname "$0")/lib.sh"

# the measured values of these benchmarks, and nothing else, become N
mask() {
	sed -E -e 's/\[PID [0-9]+\]/[PID N]/' \
		-e 's/0x[0-9a-f]+/0xN/g' \
		-e 's/\[ [0-9]+ ops\/sec \]/[ N ops\/sec ]/' \
		-e 's/(add|mod|del): [0-9]+ ops/\1: N ops/g' \
		-e 's/^Averaged [0-9]+ /Averaged N /' \
		-e 's/ in [0-9]+\.[0-9]{4} ms/ in N ms/' \
		-e 's/\(\+-( ?)[0-9]+\.[0-9]{2}%\)/(+-\1N%)/' \
		-e 's/(full-loops: )[0-9]+/\1N/' \
		-e 's/(took:|events:|per event)( +)[0-9]+\.[0-9]{3}/\1\2N/' \
		-e 's/\(\+- [0-9]+\.[0-9]{3}( usec| ms)?\)/(+- N\1)/' \
		-e 's/^Usage: perf /Usage: sonde /; s/^ Usage: perf / Usage: sonde /' \
		-e 's/^perf: /sonde: /' \
		-e 's/^[0-9]+\.[0-9]+$/N/' \
		-e 's/^( +Total time: )[0-9]+\.[0-9]{3}/\1N/' \
		-e 's/^ +[0-9]+(\.[0-9]+)? (usecs\/op|usecs\/op\/cpu|ops\/sec)$/N \2/'
}

# perf_bench ARGS...: perf bench's text (stdout and stderr) and status
perf_bench() { "$PERF" bench "$@" 2>&1 </dev/null; }

# same ARGS...: perf bench and sonde bench print the same text (measured values masked), same exit code
same() {
	local rc1=0 rc2=0
	perf_cached bench perf_bench "$@" >perf.raw || rc1=$?
	"$SONDE" bench "$@" >sonde.raw 2>&1 </dev/null || rc2=$?
	mask <perf.raw >expect
	mask <sonde.raw >actual
	test_cmp expect actual || { echo "differs: bench $*"; return 1; }
	[ "$rc1" = "$rc2" ] || { echo "exit $rc2, perf $rc1: bench $*"; return 1; }
}

test_expect_success PERF 'futex hash and lock-pi: layout, -t, -s, -S, -f, -M' '
	same futex hash -r 1 -t 2 &&
	test_grep "^\[thread  1\] futexes:" actual &&
	test $(grep -c "^\[thread" actual) = 2 &&
	same futex hash -r 1 -t 1 -s -S -f 16 &&
	test_grep "operating on 16 \[shared\] futexes for 1 secs" actual &&
	same futex lock-pi -r 1 -t 2 &&
	test_grep "^\[thread   1\] futex:" actual &&
	same futex lock-pi -r 1 -t 2 -M -s
'

test_expect_success PERF 'futex wake, wake-parallel, requeue: runs, --repeat, -w, -q, -B, -p' '
	same futex wake -t 2 &&
	test $(grep -c "^\[Run" actual) = 10 &&
	same --repeat 3 futex wake -t 2 -w 2 -S &&
	test $(grep -c "^\[Run" actual) = 3 &&
	same -r 2 futex wake-parallel -t 4 -w 2 &&
	test_grep "2 threads waking up 2 at a time" actual &&
	same -r 2 futex wake-parallel -t 2 -w 3 -s &&
	same -r 3 futex requeue -t 3 &&
	same -r 2 futex requeue -t 3 -q 2 -s &&
	same -r 2 futex requeue -t 2 -B -s &&
	same -r 2 futex requeue -t 3 -p -s &&
	test_grep "to PI 0xN" actual
'

test_expect_success PERF 'futex wake-parallel: threads not divisible by wakers is an error' '
	same -r 1 futex wake-parallel -t 3 -w 2 &&
	test_grep "Must be perfectly divisible" actual &&
	test_exit_code 1 "$SONDE" bench -r 1 futex wake-parallel -t 3 -w 2 >/dev/null 2>&1
'

test_expect_success PERF 'epoll wait and ctl: layout, -t, -f, -v, -m, -S, -R' '
	same epoll wait -r 1 -t 2 -f 4 &&
	test $(grep -c "^\[thread" actual) = 2 &&
	same epoll wait -r 1 -t 1 -f 2 -v -m -S -R &&
	test_grep "Setting RLIMIT_NOFILE rlimit from [0-9]+ to: 54" actual &&
	same epoll ctl -r 1 -t 2 -f 4 &&
	same epoll ctl -r 1 -t 1 -f 2 -v -R
'

test_expect_success PERF 'internals synthesize, kallsyms-parse, evlist-open-close: layouts' '
	same internals synthesize -i 20 &&
	same internals synthesize -s -t -i 5 -I 2 -m 1 -M 2 &&
	test_grep "Number of synthesis threads: 2" actual &&
	same internals kallsyms-parse -i 3 &&
	same -f simple internals kallsyms-parse -i 2 &&
	same internals kallsyms-parse -h &&
	same internals evlist-open-close -i 5 &&
	same internals evlist-open-close -i 3 -n 2 &&
	test_grep "Number of events:.2 \(4 fds\)" actual &&
	same internals evlist-open-close -i 3 -C 1 -e dummy,dummy &&
	same internals evlist-open-close -i 2 -e cycles --per-thread -t $$ &&
	same internals evlist-open-close -h
'

# inject-build-id maps the loaded objects that have a build-id: perf's and
# sonde's are not the same libraries, so their count is masked too, and
# the memory the child used
inject_mask() {
	sed -E -e 's/(took:) [0-9]+\.[0-9]{3} msec \(\+- [0-9]+\.[0-9]{3} msec\)/\1 N msec (+- N msec)/' \
		-e 's/(per event:) [0-9]+\.[0-9]{3} usec \(\+- [0-9]+\.[0-9]{3} usec\)/\1 N usec (+- N usec)/' \
		-e 's/(memory usage:) [0-9]+ KB \(\+- [0-9]+ KB\)/\1 N KB (+- N KB)/' \
		-e 's/Child [0-9]+ exited/Child N exited/' -e 's/Collected [0-9]+ DSOs/Collected N DSOs/' | mask
}

# same_inject ARGS...: same as same(), with inject_mask
same_inject() {
	local rc1=0 rc2=0
	perf_cached bench perf_bench internals inject-build-id "$@" >perf.raw || rc1=$?
	"$SONDE" bench internals inject-build-id "$@" >sonde.raw 2>&1 </dev/null || rc2=$?
	inject_mask <perf.raw >expect
	inject_mask <sonde.raw >actual
	test_cmp expect actual || { echo "differs: bench internals inject-build-id $*"; return 1; }
	[ "$rc1" = "$rc2" ] || { echo "exit $rc2, perf $rc1: inject-build-id $*"; return 1; }
}

test_expect_success PERF 'internals inject-build-id: layout, -v, -i/-m/-n, -h' '
	same_inject -i 3 -m 5 -n 4 &&
	test_grep "^  Average build-id-all injection took: N msec \\(\\+- N msec\\)$" actual &&
	test_grep "^  Average time per event: N usec" actual &&
	same_inject -v -i 2 -m 3 -n 2 &&
	test_grep "^   Child N exited with 0$" actual &&
	same_inject -h
'

test_expect_success PERF 'mem find_bit: every bitmap size and set-bit count, -i, -j' '
	same mem find_bit -i 2 -j 10 &&
	test_grep "^10 operations 2048 bits set of 2048 bits" actual &&
	same mem find_bit -h
'

test_expect_success PERF 'syscall basic: layout, -l, -f simple, -h' '
	same syscall basic -l 100000 &&
	test_grep "^# Executed 100000 getppid\(\) calls" actual &&
	same -f simple syscall basic -l 1000 &&
	same syscall basic -h
'

test_expect_success PERF 'breakpoint thread and enable: layout, options, too many breakpoints' '
	same breakpoint thread &&
	same breakpoint thread -p 2 -t 3 -b 2 &&
	test_grep "with 2 breakpoints and 2 parallelism" actual &&
	same breakpoint enable -p 2 -a 1 &&
	same -f simple breakpoint enable &&
	same breakpoint thread -b 9 &&
	same breakpoint thread -h &&
	same breakpoint enable -h
'

test_expect_success PERF '-f simple drops the header; bad --repeat and -f as perf (exit 0)' '
	same -f simple futex hash -r 1 -t 1 -s &&
	! grep -q "^# Running" actual &&
	same --format=simple -r 1 futex requeue -t 1 &&
	same --repeat 0 futex wake &&
	same -r -1 futex wake &&
	same -f bad futex hash
'

test_expect_success PERF 'listings, -h, bad options and unknown benchmarks' '
	for c in futex epoll internals numa syscall breakpoint mem; do
		same $c || return 1
	done &&
	for b in "futex hash" "futex wake" "futex wake-parallel" "futex requeue" "futex lock-pi" \
		 "epoll wait" "epoll ctl" "internals synthesize"; do
		same $b -h || return 1
	done &&
	same -h &&
	same futex hash -x &&
	same futex hash -t abc &&
	same epoll wait -s &&
	same futex foo &&
	same internals foo &&
	test_exit_code 1 "$SONDE" bench epoll foo >/dev/null &&
	test_exit_code 129 "$SONDE" bench futex wake -h >/dev/null 2>&1
'

# "bench all" and "<collection> all" run every benchmark at its default size (futex hash
# and lock-pi 10 s each, epoll 8 s each, sched pipe 10 s, perf's numa suite many
# minutes): far over this script's budget, so "all" is checked with the quick
# breakpoint collection only (t9540 has the layout of "bench all").
test_expect_success PERF 'breakpoint all: perf headers between benchmarks' '
	same -f simple breakpoint all &&
	test_grep "^# Running breakpoint/enable benchmark" actual &&
	same breakpoint all
'

# waiter_pins TOOL ARGS...: each sched_setaffinity of the run as "parent CPU"
# (a thread pinning another: perf's main thread pins each waiter as it
# creates it) or "self CPU" (a thread pinning itself)
waiter_pins() {
	# (LeakSanitizer cannot run under ptrace: off for an ASan build here)
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		strace -f -qq -e trace=sched_setaffinity "$@" 2>&1 >/dev/null </dev/null |
		sed -n -E "s/^(\[pid +([0-9]+)\] )?sched_setaffinity\(([0-9]+), [0-9]+, \[([0-9]+)\].*/x\2 \3 \4/p" |
		awk '{ caller = substr($1, 2); print (caller == $2 || $2 == 0 ? "self" : "parent"), $3 }'
}

if command -v strace >/dev/null; then
	test_expect_success PERF 'futex wake: waiters born on their cpu, pinned by the main thread as perf' '
		# a waiter that started elsewhere and moved itself made the 2-thread wake time an
		# outlier (0.26x perf'"'"'s): the woken thread then rarely shared the waker'"'"'s cpu
		waiter_pins "$PERF" bench -r 1 futex wake -t 2 >p &&
		waiter_pins "$SONDE" bench -r 1 futex wake -t 2 >s &&
		test -s p && test_cmp p s &&
		waiter_pins "$SONDE" bench -r 1 futex requeue -t 2 >s &&
		waiter_pins "$PERF" bench -r 1 futex requeue -t 2 >p && test_cmp p s
	'
else
	test_skip 'futex wake: waiters born on their cpu, pinned by the main thread as perf' "strace not installed"
fi

test_done
