#!/bin/bash
# SPDX-License-Identifier: MIT
# check: parallel (its own files and workloads, nothing timed, no system-wide recording)
# sonde script: help text, usage errors and exit codes, input errors, and the
# text formats downstream tools parse (FlameGraph folding, Firefox Profiler, speedscope).
. "$(dirname "$0")/lib.sh"

G=$GOLDEN/script
F=$FIXTURES/script
ln -s "$SONDE" perf

test_expect_success '-h lists perf script options exactly as perf 6.1, exit 129' '
	test_exit_code 129 ./perf script -h 2>err &&
	test_cmp "$G/help.txt" err
'

test_expect_success 'missing input: perf message, exit 255' '
	test_exit_code 255 ./perf script -i nosuch.data 2>err &&
	test_grep "^failed to open nosuch.data: No such file or directory" err
'

test_expect_success 'no perf.data here: perf hint' '
	test_exit_code 255 ./perf script 2>err </dev/null &&
	test_grep "^failed to open perf.data: No such file or directory  \(try .perf record. first\)" err
'

test_expect_success 'empty and garbage files are refused' '
	: >empty.data &&
	test_exit_code 255 ./perf script -i empty.data 2>err &&
	test_grep "^zero-sized data \(empty.data\), nothing to do!" err &&
	echo garbage-garbage-garbage-garbage >junk.data &&
	test_exit_code 255 ./perf script -i junk.data 2>err &&
	test_grep "incompatible file format" err
'

# a cut file gives the complete records it holds and one warning (perf stops
# with "failed to process type: 0" and 234: docs/perf-data.md)
test_expect_success 'truncated file: the complete records, one warning, no crash' '
	head -c 3000 "$F/callgraph.data" >trunc.data &&
	./perf script -i trunc.data >out 2>err &&
	test_grep "damaged perf.data at offset 0x" err &&
	test $(grep -c "damaged perf.data" err) = 1 &&
	test -s out
'

test_expect_success '--reltime with --deltatime is refused' '
	test_exit_code 255 ./perf script -i "$F/callgraph.data" --reltime --deltatime 2>err &&
	test_grep "reltime and deltatime" err
'

test_expect_success 'bad --time and --cpu on a file without CPU' '
	test_exit_code 234 ./perf script -i "$F/callgraph.data" --time abc 2>err &&
	test_grep "Invalid time string" err &&
	test_exit_code 255 ./perf script -i "$F/callgraph.data" --cpu 0 2>err &&
	test_grep "File does not contain CPU events. Remove -C option to proceed." err
'

test_expect_success PERF '-F lists and fields the events cannot give: perf messages and statuses, same order of checks' '
	for f in cpu addr,ip symoff ip,srcline data_src weight ins_lat phys_addr tid,cpu \
		cpu,addr sym,-ip,+srcline pid trace sw:cpu,trace \
		+tid,comm sw:comm,+ip bogus:comm sw:bogus trace,+ip comm,trace sw:+cpu trace: \
		bpf-output "" -flags cpu,+bogus; do
		prc=0 src=0
		"$PERF" script -i "$F/callgraph.data" -F "$f" 2>perf.err >/dev/null || prc=$?
		./perf script -i "$F/callgraph.data" -F "$f" 2>sonde.err >/dev/null || src=$?
		echo "-F $f: perf $prc sonde $src" &&
		test "$prc" = "$src" && test_cmp perf.err sonde.err || return 1
	done
'

test_expect_success PERF '--switch-on/--switch-off gate the samples as perf does' '
	for args in "--switch-on=task-clock" "--switch-off=task-clock" \
		"--switch-on=task-clock --switch-off=page-faults" \
		"--switch-on=page-faults --switch-off=task-clock --show-on-off-events" \
		"--switch-on=cpu-clock --switch-off=task-clock" "--switch-off=cpu-clock --show-on-off-events"; do
		"$PERF" script -i "$F/multi-event.data" $args >perf.out 2>&1 &&
		./perf script -i "$F/multi-event.data" $args >sonde.out 2>&1 &&
		echo "$args: $(wc -l <perf.out) lines" &&
		test_cmp perf.out sonde.out || return 1
	done
'

test_expect_success '--time window keeps samples inside it' '
	./perf script -i "$F/callgraph.data" -F time -G >all &&
	n=$(wc -l <all) &&
	second=$(sed -n 2p all | tr -d " :") && last=$(tail -1 all | tr -d " :") &&
	./perf script -i "$F/callgraph.data" -F time -G --time "$second," >from &&
	test "$(wc -l <from)" = $((n - 1)) &&
	./perf script -i "$F/callgraph.data" -F time -G --time ",$last" >upto &&
	test "$(wc -l <upto)" = $((n - 1)) &&
	tail -n +2 all >expect && test_cmp expect from
'

test_expect_success '--pid/--tid/--comm filters' '
	./perf script -i "$F/mixed.data" -F comm,pid >all &&
	pid=$(awk "\$1 == \"sh\" { print \$2; exit }" all) &&
	./perf script -i "$F/mixed.data" -F comm,pid --pid "$pid" >p &&
	test -s p && ! awk -v p="$pid" "\$2 != p" p | grep . &&
	./perf script -i "$F/mixed.data" -F comm,pid --tid "$pid" >t &&
	test -s t &&
	./perf script -i "$F/mixed.data" -F comm,pid --comm sh >c &&
	test -s c && ! awk "\$1 != \"sh\"" c | grep .
'

test_expect_success 'output to a closed pipe ends quietly' '
	./perf script -i "$F/mixed.data" | head -1 >out &&
	test -s out
'

test_expect_success 'FlameGraph folding: sonde -g output folds like perf output' '
	./perf script -i "$F/callgraph.data" >out &&
	"$G/norm.sh" <out | "$G/fold.pl" >folded &&
	"$G/fold.pl" <"$G/callgraph.out" >expect &&
	test -s folded && test_cmp expect folded
'

test_expect_success 'every -g line is a header, a frame or a blank line (stackcollapse, Firefox, speedscope rules)' '
	./perf script -i "$F/callgraph.data" >out &&
	./perf script -i "$F/sched-g.data" >>out &&
	! grep -Ev "^(\S.*\s+[0-9]+(/[0-9]+)?\s+(\[[0-9]+\]\s+)?[0-9]+\.[0-9]+:\s*([0-9]+\s+)?\S+:.*|\s*\w+\s*.+ \(\S*\)|)$" out &&
	head -1 out | grep -Eq "^\S.*?\s+(\d+/)?[0-9]+\s+(\[[0-9]+\]\s+)?[0-9.]+:"
'

test_expect_success 'pipe input: -i - and a pipe on stdin' '
	./perf script -i - <"$F/pipe.data" >a &&
	cat "$F/pipe.data" | ./perf script >b &&
	test -s a && test_cmp a b
'

test_expect_success '-D prints the raw dump with the script line after each sample' '
	./perf script -D -i "$F/callgraph.data" >out &&
	test_grep "PERF_RECORD_SAMPLE\(IP, 0x2\)" out &&
	test_grep "raw event: size" out &&
	test_grep "^sh [0-9]+ +[0-9.]+: +[0-9]+ cpu-clock" out &&
	! grep -q "Aggregated stats" out
'

test_expect_success '--header-only prints the header block only' '
	./perf script -i "$F/callgraph.data" --header-only >out &&
	test_grep "^# ========$" out &&
	test_grep "^# event : name = " out &&
	! grep -q "^ *sh [0-9]" out
'

test_done
