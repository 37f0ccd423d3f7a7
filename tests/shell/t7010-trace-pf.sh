#!/bin/bash
# SPDX-License-Identifier: MIT
# sonde trace --pf and --sched on the sysmix workload, whose page faults are
# known (with a FILE argument it touches two pages of its anonymous mapping
# and reads a dropped file page through a mapping, and logs the addresses):
# the fault lines, their symbol/dso resolution, -s counts, and perf trace's
# lines for the same faults (timing and addresses masked).
. "$(dirname "$0")/lib.sh"

W=$SONDE_WORKLOADS/sysmix

# the file sysmix drops from the page cache: on a disk-backed filesystem
# (tmpfs pages are never dropped, so no major fault could happen there)
PF_FILE=
for d in "$PWD" /var/tmp; do
	case $(stat -f -c %T "$d" 2>/dev/null) in
	tmpfs | ramfs | "") ;;
	*) PF_FILE=$d/pf.file.$$ && break ;;
	esac
done
if [ -z "$PF_FILE" ]; then
	test_skip "trace --pf on sysmix's known faults" "no disk-backed directory for a major fault"
	test_done
	exit 0
fi

# the faults of main() before its fork (after it, parent and child race
# for copy-on-write faults), times, pids and process addresses masked
main_faults() {
	grep -E " majfault \[main\+| minfault \[main\+0x[0-9a-f]+\] => //anon@" "$1" |
		sed -E -e 's/^ *[0-9]+\.[0-9]+ \( *0\.000 ms\): sysmix\/[0-9]+ /T (D): sysmix\/P /' \
			-e 's/(\/\/anon|@)0x[0-9a-f]+ \(/\1ADDR (/' | sort
}

test_expect_success ROOT,TRACEFS '--pf all: the faults sysmix made, resolved to main and their mappings' '
	"$SONDE" trace --pf all -o out -- "$W" 0 "$PF_FILE" </dev/null 2>log &&
	t1=$(sed -n "1s/^touch //p" <(grep ^touch log)) && t2=$(grep ^touch log | sed -n "2s/^touch //p") &&
	mj=$(sed -n "s/^majfault //p" log) && [ -n "$t1" ] && [ -n "$t2" ] && [ -n "$mj" ] &&
	test_grep "^ +[0-9]+\.[0-9]{3} \( 0\.000 ms\): sysmix/[0-9]+ minfault \[main\+0x[0-9a-f]+\] => //anon@0x$t1 \(d\.\)$" out &&
	test_grep "sysmix/[0-9]+ minfault \[main\+0x[0-9a-f]+\] => //anon@0x$t2 \(d\.\)$" out &&
	test_grep "sysmix/[0-9]+ majfault \[main\+0x[0-9a-f]+\] => $PF_FILE@0x0 \(d\.\)$" out &&
	# kernel-mode faults on user memory: the kernel symbol, the address unresolved
	test_grep "minfault \[[a-z_]+[a-z_0-9.]*\+0x[0-9a-f]+\] => 0x[0-9a-f]+ \(\?k\)$" out &&
	# --pf alone: faults only, as perf
	! grep -vE " (maj|min)fault \[" out
'

test_expect_success ROOT,TRACEFS '--pf maj / min select; syscalls with -e are interleaved' '
	"$SONDE" trace --pf maj -o out -- "$W" 0 "$PF_FILE" </dev/null 2>log &&
	test_grep "majfault \[main\+0x[0-9a-f]+\] => $PF_FILE@0x0 \(d\.\)$" out &&
	! grep minfault out &&
	"$SONDE" trace -F min -e munmap -o out -- "$W" 0 "$PF_FILE" </dev/null 2>log &&
	t1=$(grep ^touch log | sed -n "1s/^touch //p") &&
	test_grep "minfault \[main\+0x[0-9a-f]+\] => //anon@0x$t1 \(d\.\)$" out &&
	test_grep "sysmix/[0-9]+ munmap\(addr: 0x$t1, len: 8192\) += 0$" out &&
	! grep majfault out && ! grep -vE "minfault|munmap" out
'

test_expect_success ROOT,TRACEFS '-S counts the faults shown per thread, --sched sums the runtime' '
	"$SONDE" trace -S --pf all -e close -o out -- "$W" 0 "$PF_FILE" </dev/null 2>/dev/null &&
	pid=$(grep -m1 -oE "sysmix/[0-9]+ " out | sed -E "s/sysmix\/([0-9]+) /\1/") &&
	min=$(grep -cE "sysmix/$pid minfault" out) && maj=$(grep -cE "sysmix/$pid majfault" out) &&
	[ "$maj" -ge 1 ] && [ "$min" -ge 3 ] &&
	test_grep "^ sysmix \($pid\), [0-9]+ events, [0-9.]+%, $maj majfaults, $min minfaults$" out &&
	test_grep "^   close +[0-9]+ +1 " out &&
	"$SONDE" trace -s --sched -e close -o out -- "$W" 20 </dev/null 2>/dev/null &&
	test_grep "^ sysmix \([0-9]+\), [0-9]+ events, [0-9.]+%, [0-9]+\.[0-9]{3} msec$" out &&
	! grep -E "sched_stat_runtime|fault" out
'

test_expect_success ROOT,TRACEFS 'a bad --pf value: usage, exit 129, nothing started' '
	test_exit_code 129 "$SONDE" trace --pf sometimes -- touch started 2>err &&
	[ ! -e started ] && test_grep "^    -F, --pf <all\|maj\|min>$" err
'

test_expect_success ROOT,TRACEFS,PERF 'the same fault lines as perf trace --pf (main, -s header, bad value)' '
	"$SONDE" trace --pf all -o sonde.out -- "$W" 0 "$PF_FILE" </dev/null 2>/dev/null &&
	"$PERF" trace --pf all -o perf.out -- "$W" 0 "$PF_FILE" </dev/null 2>/dev/null &&
	main_faults sonde.out >s && main_faults perf.out >p && test_cmp p s &&
	[ $(wc -l <s) = 3 ] &&
	"$SONDE" trace -s --pf min -o sonde.out -- "$W" 0 "$PF_FILE" </dev/null 2>/dev/null &&
	"$PERF" trace -s --pf min -o perf.out -- "$W" 0 "$PF_FILE" </dev/null 2>/dev/null &&
	for f in sonde.out perf.out; do
		sed -E "s/\([0-9]+\), [0-9]+ events, [0-9.]+%, [0-9]+ minfaults/(P), N events, P%, N minfaults/" $f >$f.m
	done && test_cmp perf.out.m sonde.out.m &&
	test_exit_code 129 "$SONDE" trace --pf foo true 2>sonde.err &&
	test_exit_code 129 "$PERF" trace --pf foo true 2>perf.err &&
	sed -i "s/sonde trace/perf trace/" sonde.err && test_cmp perf.err sonde.err
'

test_expect_success ROOT,TRACEFS '--failure and --duration do not hide faults (as perf)' '
	"$SONDE" trace --failure --pf maj -e close -o out -- "$W" 0 "$PF_FILE" </dev/null 2>/dev/null &&
	test_grep "majfault \[main\+0x[0-9a-f]+\] => $PF_FILE@0x0 \(d\.\)$" out &&
	test_grep "close\(fd: 1234\)" out && ! grep "= 0$" out
'

test_expect_success ROOT,TRACEFS,PERF 'faults recorded in a file: -i prints them as perf trace -i' '
	"$PERF" record -q -R -c 1 -d -e raw_syscalls:sys_enter,raw_syscalls:sys_exit,major-faults,minor-faults \
		-o pf.data -- "$W" 0 "$PF_FILE" </dev/null >/dev/null 2>&1 &&
	for o in "" "-s" "-S --errno-summary" "--failure"; do
		"$SONDE" trace $o -i pf.data >sonde.out 2>&1 &&
		"$PERF" trace $o -i pf.data >perf.out 2>&1 &&
		test_cmp perf.out sonde.out || exit 1
	done &&
	test_grep "majfault \[main\+0x[0-9a-f]+\] => $PF_FILE@0x0 \(d\.\)$" sonde.out
'

rm -f "$PF_FILE"
test_done
