#!/bin/bash
# SPDX-License-Identifier: MIT
# sonde trace's target and stop options: -u USER, --filter-pids,
# --max-events, --proc-map-timeout, and the options still refused; checked
# on sysmix (whose calls are known) and against perf trace's messages.
. "$(dirname "$0")/lib.sh"

W=$SONDE_WORKLOADS/sysmix

test_expect_success ROOT,TRACEFS,NOBODY '-u traces the processes of a user (and their children)' '
	# nobody runs a copy in the test'"'"'s own directory, opened to it (the tree
	# may sit below a directory only root can enter, as a mktemp -d clone does)
	chmod 755 "$TRASH" && cp "$W" "$TRASH/sysmix" && chmod 755 "$TRASH/sysmix"
	# the workload waits 5 s: the trace must be ready before it runs (checked)
	setpriv --reuid=nobody --regid=nogroup --clear-groups sh -c "sleep 5; exec $TRASH/sysmix" </dev/null 2>log &
	wpid=$!
	sleep 0.3
	# (not "sleep && trace &": that backgrounds a subshell, and $! is not the trace)
	"$SONDE" trace -u nobody -e close,getppid -o out 2>err &
	tpid=$!
	{ wait_events_open $tpid || { cat err; false; }; } &&
	{ test "$(cat /proc/$wpid/comm)" != sysmix || { echo "the workload ran before the trace was ready"; false; }; } &&
	{ wait $wpid || { echo "the workload failed: $?"; cat log; false; }; } &&
	sleep 0.5 && interrupt $tpid &&
	test_grep "sysmix/$wpid close\(fd: 1234\) += -1 EBADF \(Bad file descriptor\)$" out &&
	test_grep "sysmix/[0-9]+ getppid\(\) += $wpid \(sysmix\)$" out &&
	test_grep "sysmix/[0-9]+ close\(fd: 4321\) += -1 EBADF" out
'

test_expect_success ROOT,TRACEFS,PERF '-u with an unknown user: perf message and exit codes' '
	test_exit_code 250 "$SONDE" trace -u nosuchuser-t7011 2>sonde.err &&
	test_exit_code 250 "$PERF" trace -u nosuchuser-t7011 2>perf.err &&
	test_cmp perf.err sonde.err &&
	test_exit_code 251 "$SONDE" trace -u 987654 -- true 2>sonde.err &&
	test_exit_code 251 "$PERF" trace -u 987654 -- true 2>perf.err &&
	test_cmp perf.err sonde.err
'

test_expect_success ROOT,TRACEFS '--filter-pids: the kernel leaves those pids out' '
	sh -c "while :; do sleep 0.05; done" >/dev/null 2>&1 &
	p1=$!
	sh -c "while :; do sleep 0.05; done" >/dev/null 2>&1 &
	p2=$!
	"$SONDE" trace -a -e wait4 --filter-pids $p1,1 -o out 2>err &
	tpid=$!
	sleep 1 && interrupt $tpid
	kill $p1 $p2 &&
	test_grep "sh/$p2 wait4\(" out && ! grep "/$p1 " out
'

test_expect_success ROOT,TRACEFS '--max-events: that many lines, the command runs to its end' '
	"$SONDE" trace --max-events 2 -e getppid,kill -o out -- "$W" </dev/null 2>log &&
	[ $(wc -l <out) = 2 ] && test_grep "getppid\(\)" out && test_grep "kill\(pid: [0-9]+ \(sysmix\)\)" out &&
	! grep 999999 out && test_grep "^kill -1 3$" log &&
	"$SONDE" trace --max-events 1 --proc-map-timeout 100 -e kill -o out -- "$W" </dev/null 2>/dev/null &&
	[ $(wc -l <out) = 1 ] && test_grep "kill\(pid: [0-9]+ \(sysmix\)\)" out
'

test_expect_success ROOT,TRACEFS,PERF '--max-events: the same lines as perf trace' '
	"$SONDE" trace --max-events 4 -e close,kill,getppid -o sonde.out -- "$W" </dev/null 2>/dev/null &&
	"$PERF" trace --max-events 4 -e close,kill,getppid -o perf.out -- "$W" </dev/null 2>/dev/null &&
	# with close selected and open not, both tools read an fd'"'"'s path from /proc
	# when they print: a slow run (ASan) meets the number already reused by the
	# next open. The path (and the padding it moves) is dropped from close lines;
	# the rest compared exactly
	sed -E "s/^ *[0-9.]+ \( *[0-9.]+ ms\)//; s/close\(fd: ([0-9]+)<[^>]*>\) +=/close(fd: \1) =/; s/^(: [^ ]+ close\(fd: [0-9]+\)) +=/\1 =/; s/[0-9]{3,}/N/g" sonde.out >s &&
	sed -E "s/^ *[0-9.]+ \( *[0-9.]+ ms\)//; s/close\(fd: ([0-9]+)<[^>]*>\) +=/close(fd: \1) =/; s/^(: [^ ]+ close\(fd: [0-9]+\)) +=/\1 =/; s/[0-9]{3,}/N/g" perf.out >p && test_cmp p s
'

test_expect_success ROOT,TRACEFS 'options still refused say so' '
	# (--call-graph, --max-stack, --min-stack, --kernel-syscall-graph: t7013)
	for o in --call-graph=lbr; do
		test_exit_code 129 "$SONDE" trace $o -- true 2>err &&
		test_grep "is not supported by sonde" err || exit 1
	done &&
	test_exit_code 129 "$SONDE" trace --proc-map-timeout x -- true 2>err &&
	test_grep "option .proc-map-timeout. expects a numerical value" err
'

test_done
