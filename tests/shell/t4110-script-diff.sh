#!/bin/bash
# SPDX-License-Identifier: MIT
# perf script vs sonde script, byte for byte, on files perf 6.1 records during the test:
# callchains, system-wide, tracepoints (sched_switch, syscalls) with and without -g,
# context switches, and the option combinations users script against.
. "$(dirname "$0")/lib.sh"

burn=$SONDE_WORKLOADS/cpuburn
ln -s "$SONDE" perf

# both PERF and ./perf (sonde) print the same thing for this file and these args
same() {
	local f=$1
	shift
	rc1=0 rc2=0
	"$PERF" script -i "$f" "$@" >expect 2>expect.err </dev/null || rc1=$?
	./perf script -i "$f" "$@" >actual 2>actual.err </dev/null || rc2=$?
	test "$rc1" = "$rc2" || { echo "exit status: perf $rc1, sonde $rc2 for $*"; cat actual.err; return 1; }
	# explicit returns: set -e is off inside a function called before the
	# last && of a chain, so a bare failing test_cmp here would not count
	test_cmp expect actual || return 1
	test_cmp expect.err actual.err || return 1
}

record() { # record FILE ARGS...
	local f=$1
	shift
	"$PERF" record -q -o "$f" "$@" >/dev/null 2>&1
}

test_expect_success PERF,ROOT 'record: -g user workload' '
	record "$TRASH/g.data" -g -F 2000 -- "$burn" 200 &&
	test -s "$TRASH/g.data"
'

for args in "" "-G" "--ns" "--reltime" "--deltatime" "--max-stack 1" "--max-stack 3" \
	"-F comm,tid,time,ip,sym,dso" "-F ip,sym,symoff,dso" "-F comm,pid,tid,period,event" \
	"-F +pid" "-F -time,-period" "--show-task-events --show-mmap-events" "--comm cpuburn" \
	"-S leaf" "--dsos cpuburn"; do
	test_expect_success PERF,ROOT "-g user workload: ${args:-default}" "
		test -s \"$TRASH/g.data\" && same \"$TRASH/g.data\" $args
	"
done

test_expect_success PERF,ROOT 'system-wide -a -g with kernel frames' '
	record "$TRASH/a.data" -a -g -F 999 -- sleep 0.3 &&
	# symbols only for the tasks this test owns: others (rebuilt or deleted
	# binaries of concurrent jobs) are not a stable comparison
	same "$TRASH/a.data" --comm sleep,swapper &&
	same "$TRASH/a.data" --cpu 0 --show-task-events -F comm,tid,cpu,time,period,event,ip &&
	same "$TRASH/a.data" -F comm,tid,cpu,time,event,ip,sym --ns --comm sleep,swapper
'

test_expect_success PERF,ROOT '--symfs: kernel symbols never from the host (its kallsyms, its build-id cache)' '
	test -s "$TRASH/a.data" &&
	mkdir -p root/proc root/sys/kernel &&
	cp /proc/kallsyms root/proc/kallsyms && cp /sys/kernel/notes root/sys/kernel/notes &&
	# every task: another root has none of the binaries either, so user
	# frames are [unknown] both ways and the comparison is stable
	same "$TRASH/a.data" --symfs "$PWD/root" -F comm,tid,ip,sym &&
	{ grep -Eq "[[:space:]]ffffffff[0-9a-f]+ \[unknown\]$" actual ||
	  { echo "no unresolved kernel frame with --symfs root"; exit 1; }; } &&
	same "$TRASH/a.data" --symfs / -F comm,tid,ip,sym --comm sleep,swapper &&
	# a loaded machine may leave these two tasks no kernel sample to resolve
	if grep -Eq "[[:space:]]ffffffff[0-9a-f]+ " actual; then
		grep -Eq "[[:space:]]ffffffff[0-9a-f]+ [A-Za-z_]" actual ||
			{ echo "kernel frames unresolved with --symfs /"; exit 1; }
	fi
'

test_expect_success PERF,ROOT,TRACEFS 'tracepoints: sched_switch and syscalls payloads' '
	record "$TRASH/tp.data" -a -e sched:sched_switch -e syscalls:sys_enter_openat \
		-e syscalls:sys_exit_openat -e sched:sched_process_exec -- sh -c "cat /dev/null; sleep 0.05" &&
	same "$TRASH/tp.data" &&
	same "$TRASH/tp.data" -F comm,tid,event,trace &&
	same "$TRASH/tp.data" -F trace:comm,tid,cpu,trace --show-task-events &&
	same "$TRASH/tp.data" --tid 0
'

test_expect_success PERF,ROOT,TRACEFS 'tracepoint print formats: flags, symbolic values, %ps/%pS kernel functions' '
	record "$TRASH/many.data" -a -e "timer:*" -e kmem:kmalloc -e kmem:kfree -e "irq:*" \
		-e "signal:*" -e "workqueue:*" -e raw_syscalls:sys_enter -- \
		sh -c "ls /usr >/dev/null; sleep 0.05; kill -0 \$\$" &&
	same "$TRASH/many.data"
'

test_expect_success PERF,ROOT,TRACEFS 'tracepoints with callchains' '
	record "$TRASH/tpg.data" -g -e sched:sched_switch -e syscalls:sys_enter_openat \
		-- sh -c "cat /dev/null; sleep 0.02" &&
	same "$TRASH/tpg.data" &&
	same "$TRASH/tpg.data" -G &&
	same "$TRASH/tpg.data" -F trace:comm,tid,event,trace
'

test_expect_success PERF,ROOT 'context switch records, system-wide' '
	record "$TRASH/sw.data" -a --switch-events -e cpu-clock -c 1000000 -- sleep 0.1 &&
	same "$TRASH/sw.data" --show-switch-events -F comm,tid,cpu,time,period,event,ip &&
	same "$TRASH/sw.data" --show-switch-events --show-task-events -F comm,tid,cpu,time,event
'

test_expect_success PERF,ROOT 'several software events, fixed periods' '
	record "$TRASH/m.data" -e cpu-clock -c 500000 -e task-clock -c 700000 -e page-faults -c 1 \
		-- "$burn" 100 &&
	same "$TRASH/m.data" &&
	same "$TRASH/m.data" -F sw:comm,tid,event,period
'

test_expect_success PERF,ROOT 'data addresses of kernel-context samples resolve in user maps (-d)' '
	record "$TRASH/d.data" -e page-faults -d -- dd if=/dev/zero of="$TRASH/dd.out" bs=1M count=4 &&
	"$PERF" script -i "$TRASH/d.data" -F ip | grep -q "^ *ffff" &&
	same "$TRASH/d.data" -F comm,event,addr,ip,sym,dso
'

test_expect_success PERF,ROOT '--per-event-dump files and messages' '
	test -s "$TRASH/m.data" &&
	mkdir p s && cp "$TRASH/m.data" p/m.data && cp "$TRASH/m.data" s/m.data &&
	(cd p && "$PERF" script -i m.data --per-event-dump >out) &&
	(cd s && ../perf script -i m.data --per-event-dump >out) &&
	test_cmp p/out s/out &&
	for f in p/m.data.*.dump; do test_cmp "$f" "s/${f#p/}" || return 1; done
'

test_expect_success PERF,ROOT '--stop-bt ends callchains at the first listed symbol' '
	test -s "$TRASH/g.data" &&
	same "$TRASH/g.data" --stop-bt outer,main &&
	same "$TRASH/g.data" --stop-bt leaf
'

test_expect_success PERF,ROOT 'lost records, dropped samples, rounds in file order' '
	record "$TRASH/lost.data" -a -g -m 1 -c 20000 -e cpu-clock -- sleep 0.4 &&
	same "$TRASH/lost.data" -F comm,tid,cpu,time,event,ip &&
	same "$TRASH/lost.data" --show-lost-events -F comm,tid,cpu,time,event &&
	same "$TRASH/lost.data" --show-round-events -F comm,tid,time
'

test_expect_success PERF,ROOT '--call-graph dwarf: user stacks unwound from the stack copy' '
	record "$TRASH/dw.data" --call-graph dwarf -F 1000 -- "$burn" 150 &&
	"$PERF" script -i "$TRASH/dw.data" -F comm,tid,time,event,ip,sym,dso --comm cpuburn >expect 2>/dev/null &&
	./perf script -i "$TRASH/dw.data" -F comm,tid,time,event,ip,sym,dso --comm cpuburn >actual &&
	test $(grep -c . expect) -gt 0 &&
	test_cmp expect actual &&
	"$PERF" script -i "$TRASH/dw.data" 2>/dev/null | grep "cpuburn)" | sort | uniq -c >expect &&
	./perf script -i "$TRASH/dw.data" | grep "cpuburn)" | sort | uniq -c >actual &&
	test_grep " outer\+0x" actual &&
	test_cmp expect actual
'

test_expect_success PERF,ROOT 'pipe mode: perf record -o - | script' '
	"$PERF" record -q -g -o - -- "$burn" 100 2>/dev/null >p.data &&
	"$PERF" script -i - <p.data >expect &&
	./perf script -i - <p.data >actual &&
	test_cmp expect actual &&
	cat p.data | ./perf script >actual2 &&
	test_cmp expect actual2
'

test_done
