#!/bin/bash
# SPDX-License-Identifier: MIT
# perf script vs sonde script, byte for byte, on files perf 6.1 records during the test:
# callchains, system-wide, tracepoints (sched_switch, syscalls) with and without -g,
# context switches, and the option combinations users script against.
. "$(dirname "$0")/lib.sh"

burn=$SONDE_WORKLOADS/cpuburn
ln -s "$SONDE" perf
# the recordings of the workloads, system programs and the kernel: once per check run,
# perf's script of them replayed in the second pass (perf_data_dir, lib.sh; perf_script)
PD=$(perf_data_dir)

# perf_script FILE ARGS...: perf script -i FILE ARGS into expect and expect.err, and its
# status; for a recording under $PD, run once per check run and replayed after
perf_script() {
	local c rc=0

	if [ "$PD" = "$TRASH" ] || [ "${1#"$PD"/}" = "$1" ]; then
		"$PERF" script -i "$@" >expect 2>expect.err </dev/null
		return
	fi
	c=$PD/script.$(printf '%s\0' "$PERF" "$@" | md5sum | cut -c1-32)
	if [ ! -f "$c.rc" ]; then
		"$PERF" script -i "$@" >"$c.out" 2>"$c.err" </dev/null || rc=$?
		echo "$rc" >"$c.rc"
	fi
	cp "$c.out" expect && cp "$c.err" expect.err && return "$(cat "$c.rc")"
}

# both PERF and ./perf (sonde) print the same thing for this file and these args
same() {
	local f=$1
	shift
	rc1=0 rc2=0
	perf_script "$f" "$@" || rc1=$?
	./perf script -i "$f" "$@" >actual 2>actual.err </dev/null || rc2=$?
	test "$rc1" = "$rc2" || { echo "exit status: perf $rc1, sonde $rc2 for $*"; cat actual.err; return 1; }
	# explicit returns: set -e is off inside a function called before the
	# last && of a chain, so a bare failing test_cmp here would not count
	test_cmp expect actual || return 1
	test_cmp expect.err actual.err || return 1
}

record() { # record FILE ARGS... (once per check run under $PD)
	local f=$1
	shift
	if [ "$PD" != "$TRASH" ] && [ "${f#"$PD"/}" != "$f" ]; then
		perf_rec_once "$f" "$PERF" record -q -o "$f" "$@" >/dev/null 2>&1
		return
	fi
	"$PERF" record -q -o "$f" "$@" >/dev/null 2>&1
}

test_expect_success PERF,ROOT 'record: -g user workload' '
	record "$PD/g.data" -g -F 2000 -- "$burn" 200 &&
	test -s "$PD/g.data"
'

for args in "" "-G" "--ns" "--reltime" "--deltatime" "--max-stack 1" "--max-stack 3" \
	"-F comm,tid,time,ip,sym,dso" "-F ip,sym,symoff,dso" "-F comm,pid,tid,period,event" \
	"-F +pid" "-F -time,-period" "--show-task-events --show-mmap-events" "--comm cpuburn" \
	"-S leaf" "--dsos cpuburn"; do
	test_expect_success PERF,ROOT "-g user workload: ${args:-default}" "
		test -s \"$PD/g.data\" && same \"$PD/g.data\" $args
	"
done

test_expect_success PERF,ROOT 'system-wide -a -g with kernel frames' '
	record "$PD/a.data" -a -g -F 999 -- sleep 0.3 &&
	# symbols only for the tasks this test owns: others (rebuilt or deleted
	# binaries of concurrent jobs) are not a stable comparison
	same "$PD/a.data" --comm sleep,swapper &&
	same "$PD/a.data" --cpu 0 --show-task-events -F comm,tid,cpu,time,period,event,ip &&
	same "$PD/a.data" -F comm,tid,cpu,time,event,ip,sym --ns --comm sleep,swapper
'

test_expect_success PERF,ROOT '--symfs: kernel symbols never from the host (its kallsyms, its build-id cache)' '
	test -s "$PD/a.data" &&
	mkdir -p root/proc root/sys/kernel &&
	cp /proc/kallsyms root/proc/kallsyms && cp /sys/kernel/notes root/sys/kernel/notes &&
	# every task: another root has none of the binaries either, so user
	# frames are [unknown] both ways and the comparison is stable
	same "$PD/a.data" --symfs "$PWD/root" -F comm,tid,ip,sym &&
	{ grep -Eq "[[:space:]]ffffffff[0-9a-f]+ \[unknown\]$" actual ||
	  { echo "no unresolved kernel frame with --symfs root"; exit 1; }; } &&
	same "$PD/a.data" --symfs / -F comm,tid,ip,sym --comm sleep,swapper &&
	# a loaded machine may leave these two tasks no kernel sample to resolve
	if grep -Eq "[[:space:]]ffffffff[0-9a-f]+ " actual; then
		grep -Eq "[[:space:]]ffffffff[0-9a-f]+ [A-Za-z_]" actual ||
			{ echo "kernel frames unresolved with --symfs /"; exit 1; }
	fi
'

test_expect_success PERF,ROOT,TRACEFS 'tracepoints: sched_switch and syscalls payloads' '
	record "$PD/tp.data" -a -e sched:sched_switch -e syscalls:sys_enter_openat \
		-e syscalls:sys_exit_openat -e sched:sched_process_exec -- sh -c "cat /dev/null; sleep 0.05" &&
	same "$PD/tp.data" &&
	same "$PD/tp.data" -F comm,tid,event,trace &&
	same "$PD/tp.data" -F trace:comm,tid,cpu,trace --show-task-events &&
	same "$PD/tp.data" --tid 0
'

test_expect_success PERF,ROOT,TRACEFS 'tracepoint print formats: flags, symbolic values, %ps/%pS kernel functions' '
	record "$PD/many.data" -a -e "timer:*" -e kmem:kmalloc -e kmem:kfree -e "irq:*" \
		-e "signal:*" -e "workqueue:*" -e raw_syscalls:sys_enter -- \
		sh -c "ls /usr >/dev/null; sleep 0.05; kill -0 \$\$" &&
	same "$PD/many.data"
'

test_expect_success PERF,ROOT,TRACEFS 'tracepoints with callchains' '
	record "$PD/tpg.data" -g -e sched:sched_switch -e syscalls:sys_enter_openat \
		-- sh -c "cat /dev/null; sleep 0.02" &&
	same "$PD/tpg.data" &&
	same "$PD/tpg.data" -G &&
	same "$PD/tpg.data" -F trace:comm,tid,event,trace
'

test_expect_success PERF,ROOT 'context switch records, system-wide' '
	record "$PD/sw.data" -a --switch-events -e cpu-clock -c 1000000 -- sleep 0.1 &&
	same "$PD/sw.data" --show-switch-events -F comm,tid,cpu,time,period,event,ip &&
	same "$PD/sw.data" --show-switch-events --show-task-events -F comm,tid,cpu,time,event
'

test_expect_success PERF,ROOT 'several software events, fixed periods' '
	record "$PD/m.data" -e cpu-clock -c 500000 -e task-clock -c 700000 -e page-faults -c 1 \
		-- "$burn" 100 &&
	same "$PD/m.data" &&
	same "$PD/m.data" -F sw:comm,tid,event,period
'

test_expect_success PERF,ROOT 'data addresses of kernel-context samples resolve in user maps (-d)' '
	record "$TRASH/d.data" -e page-faults -d -- dd if=/dev/zero of="$TRASH/dd.out" bs=1M count=4 &&
	"$PERF" script -i "$TRASH/d.data" -F ip | grep -q "^ *ffff" &&
	same "$TRASH/d.data" -F comm,event,addr,ip,sym,dso
'

test_expect_success PERF,ROOT '--per-event-dump files and messages' '
	test -s "$PD/m.data" &&
	mkdir p s && cp "$PD/m.data" p/m.data && cp "$PD/m.data" s/m.data &&
	(cd p && "$PERF" script -i m.data --per-event-dump >out) &&
	(cd s && ../perf script -i m.data --per-event-dump >out) &&
	test_cmp p/out s/out &&
	for f in p/m.data.*.dump; do test_cmp "$f" "s/${f#p/}" || return 1; done
'

test_expect_success PERF,ROOT '--stop-bt ends callchains at the first listed symbol' '
	test -s "$PD/g.data" &&
	same "$PD/g.data" --stop-bt outer,main &&
	same "$PD/g.data" --stop-bt leaf
'

test_expect_success PERF,ROOT 'lost records, dropped samples, rounds in file order' '
	record "$PD/lost.data" -a -g -m 1 -c 20000 -e cpu-clock -- sleep 0.4 &&
	same "$PD/lost.data" -F comm,tid,cpu,time,event,ip &&
	same "$PD/lost.data" --show-lost-events -F comm,tid,cpu,time,event &&
	same "$PD/lost.data" --show-round-events -F comm,tid,time
'

test_expect_success PERF,ROOT '--call-graph dwarf: user stacks unwound from the stack copy' '
	record "$PD/dw.data" --call-graph dwarf -F 1000 -- "$burn" 150 &&
	"$PERF" script -i "$PD/dw.data" -F comm,tid,time,event,ip,sym,dso --comm cpuburn >expect 2>/dev/null &&
	./perf script -i "$PD/dw.data" -F comm,tid,time,event,ip,sym,dso --comm cpuburn >actual &&
	test $(grep -c . expect) -gt 0 &&
	test_cmp expect actual &&
	"$PERF" script -i "$PD/dw.data" 2>/dev/null | grep "cpuburn)" | sort | uniq -c >expect &&
	./perf script -i "$PD/dw.data" | grep "cpuburn)" | sort | uniq -c >actual &&
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
