#!/bin/bash
# SPDX-License-Identifier: MIT
# Files written by sonde record are read by perf 6.1 without a warning and
# with the same samples: file mode, pipe mode, -z, tracepoints, call chains.
. "$(dirname "$0")/lib.sh"

W=$SONDE_WORKLOADS

# perf_reads FILE: report, script and header-only succeed with an empty stderr
perf_reads() {
	local c
	for c in "report --stdio" "script" "report --header-only"; do
		"$PERF" $c -i "$1" >/dev/null 2>perf.err || { echo "perf $c failed"; cat perf.err; return 1; }
		if test -s perf.err; then echo "perf $c warned:"; cat perf.err; return 1; fi
	done
}

# samples FILE: SAMPLE count from perf report --stats
samples() {
	"$PERF" report --stats -i "$1" 2>/dev/null | sed -n "s/^ *SAMPLE events: *\([0-9]*\).*/\1/p"  | head -1
}

test_expect_success PERF 'a workload profile: perf reads it, same sample count as reported' '
	"$SONDE" record -g -o w.data -- "$W/cpuburn" 200 2>err &&
	perf_reads w.data &&
	n=$(sed -n "s/.*(\([0-9]*\) samples).*/\1/p" err) &&
	test "$(samples w.data)" = "$n" &&
	"$PERF" script -i w.data 2>/dev/null | grep -q leaf &&
	"$PERF" report --stdio --no-children -i w.data 2>/dev/null | grep -E "cpuburn +\[\.\] leaf"
'

test_expect_success PERF 'perf script shows the same samples as the file holds (script vs --stats)' '
	"$SONDE" record -q -o s.data -- "$W/cpuburn" 100 &&
	test "$("$PERF" script -i s.data 2>/dev/null | wc -l)" = "$(samples s.data)"
'

test_expect_success PERF 'header: event, cmdline and build-ids of the hit DSOs' '
	"$SONDE" record -q -o h.data -- "$W/cpuburn" 100 &&
	"$PERF" report --header-only -i h.data >hdr 2>/dev/null &&
	# the name sonde stored (perf shows the header as is)
	test_grep "^# event : name = cpu-clock:$(default_event_mods), " hdr &&
	test_grep "^# cmdline : .* record -q -o h.data -- " hdr &&
	"$PERF" buildid-list -i h.data >bids 2>/dev/null &&
	test_grep "^[0-9a-f]{40} .*/cpuburn$" bids &&
	test_grep "^[0-9a-f]{40} \[vdso\]$" bids
'

test_expect_success PERF 'pipe mode: sonde record -o - | perf report -i -' '
	"$SONDE" record -o - -- "$W/cpuburn" 100 2>err | "$PERF" report -i - --stdio >rep 2>perr &&
	! test -s perr &&
	test_grep "cpuburn +\[\.\] leaf" rep &&
	test_grep "^\[ perf record: Captured and wrote 0.000 MB - \]$" err
'

test_expect_success PERF 'pipe mode: the workload'"'"'s stdout goes to stderr, the stream stays valid' '
	"$SONDE" record -q -o - -- sh -c "echo hello-from-workload; \"$W/cpuburn\" 50" 2>err |
		"$PERF" report -i - --stdio >rep 2>perr &&
	! test -s perr && test_grep "hello-from-workload" err &&
	test_grep "cpuburn" rep
'

test_expect_success PERF 'the corked workload is named perf-exec until its exec' '
	"$SONDE" record -q -o pe.data -- true &&
	"$PERF" report -D -i pe.data 2>/dev/null | grep -E "PERF_RECORD_COMM: perf-exec:[0-9]+/[0-9]+"
'

test_expect_success PERF '-z: compressed file read by perf, same samples' '
	"$SONDE" record -z -g -o z.data -- "$W/cpuburn" 100 2>err &&
	perf_reads z.data &&
	test_grep "compressed \(original [0-9.]+ MB, ratio is [0-9.]+\) \]$" err &&
	"$PERF" report --header-only -i z.data 2>/dev/null | grep -q "compressed" &&
	test "$(samples z.data)" -gt 0
'

test_expect_success PERF,TRACEFS 'tracepoints: perf script decodes the fields (TRACING_DATA)' '
	"$SONDE" record -q -e sched:sched_switch -a -o tp.data -- sleep 0.05 &&
	perf_reads tp.data &&
	"$PERF" script -i tp.data 2>/dev/null | grep -E "sched:sched_switch: prev_comm=.* prev_pid=[0-9]+ .*==> next_comm="
'

test_expect_success PERF,TRACEFS 'tracepoint filter is applied' '
	"$SONDE" record -q -e sched:sched_switch --filter "prev_comm == \"sleep\"" -a -o tf.data -- sleep 0.05 &&
	"$PERF" script -i tf.data 2>/dev/null >tr &&
	test -s tr && ! grep -v "prev_comm=sleep " tr
'

test_expect_success PERF 'system-wide with call chains: perf reads it' '
	"$SONDE" record -q -a -g -o a.data -- sleep 0.1 &&
	perf_reads a.data &&
	test "$(samples a.data)" -gt 0
'

test_expect_success PERF 'dwarf call chains: perf reads it' '
	"$SONDE" record -q --call-graph dwarf -o d.data -- "$W/cpuburn" 50 &&
	perf_reads d.data
'

test_expect_success PERF '--overwrite: a flight recorder read once at the end' '
	"$SONDE" record -q --overwrite -m 1 -o ow.data -- "$W/cpuburn" 300 &&
	perf_reads ow.data &&
	n=$(samples ow.data) && test "$n" -gt 0 &&
	"$SONDE" record -q -m 1 -o full.data -- "$W/cpuburn" 300 &&
	test "$n" -lt "$(samples full.data)"
'

test_expect_success PERF 'per-thread and several events' '
	"$SONDE" record -q --per-thread -e cpu-clock -e task-clock -o pt.data -- "$W/cpuburn" 50 &&
	perf_reads pt.data &&
	"$PERF" report --stdio -i pt.data 2>/dev/null | grep -q "of event .task-clock."
'

test_expect_success PERF 'perf report -D sees the synthesized records perf writes' '
	"$SONDE" record -q -o r.data -- "$W/cpuburn" 50 &&
	"$PERF" report -D -i r.data 2>/dev/null >dump &&
	test_grep "PERF_RECORD_ID_INDEX" dump &&
	test_grep "PERF_RECORD_MMAP -1/0: \[0x[0-9a-f]+\(0x[0-9a-f]+\) @ 0x[0-9a-f]+\]: x \[kernel.kallsyms\]_text" dump &&
	test_grep "PERF_RECORD_THREAD_MAP" dump &&
	test_grep "PERF_RECORD_CPU_MAP" dump &&
	test_grep "PERF_RECORD_FINISHED_INIT" dump &&
	test_grep "PERF_RECORD_FINISHED_ROUND" dump &&
	test_grep "PERF_RECORD_EXIT" dump
'

test_expect_success PERF '-p: existing process maps synthesized (MMAP2 from /proc)' '
	"$W/cpuburn" 2000 &
	bp=$!
	# attach once the forked shell child has become cpuburn (exec done)
	for i in $(seq 50); do
		test "$(cat /proc/$bp/comm 2>/dev/null)" = cpuburn && break
		sleep 0.1
	done
	test "$(cat /proc/$bp/comm)" = cpuburn
	"$SONDE" record -q -p $bp -o p.data &
	rp=$!
	sleep 0.4; interrupt $rp; wait $rp; kill $bp
	"$PERF" report -D -i p.data 2>/dev/null >dump &&
	test_grep "PERF_RECORD_COMM: cpuburn:$bp/$bp" dump &&
	test_grep "PERF_RECORD_MMAP2 $bp/$bp: .* r-xp .*/cpuburn$" dump &&
	"$PERF" report --stdio -i p.data 2>/dev/null | grep -E "cpuburn +\[\.\] leaf"
'

test_done
