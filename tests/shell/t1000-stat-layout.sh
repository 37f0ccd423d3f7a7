#!/bin/bash
# SPDX-License-Identifier: MIT
# sonde stat prints perf stat's layouts: the same lines, columns and line
# lengths as /usr/bin/perf stat for the same options, numbers normalised
# (each number becomes N, "K/sec"/"M/sec" become "/sec"; line lengths are
# compared too so that column alignment is checked, except for CSV).
. "$(dirname "$0")/lib.sh"

# norm FILE: the text with numbers replaced, and "LEN:" prefixes
norm() {
	awk -v csv="$CSV" '{ n = csv ? "csv" : length($0);
	       if ($0 ~ / \+- [0-9.]+ seconds time elapsed/) n = "var"; gsub(/[KMG]\/sec/, "/sec"); gsub(/[0-9][0-9.,]*/, "N");
	       gsub(/ +N/, " N"); gsub(/\/sec +/, "/sec "); print n ": " $0 }' "$1"
}

# layout_cmp ARGS...: stat output (stderr) of both tools, normalised, equal
layout_cmp() {
	local a CSV=""
	for a in "$@"; do case "$a" in -x*|-j) CSV=1 ;; esac; done
	"$PERF" stat "$@" >/dev/null 2>perf.out </dev/null
	"$SONDE" stat "$@" >/dev/null 2>sonde.out </dev/null
	norm perf.out >perf.norm
	norm sonde.out >sonde.norm
	if ! diff -u perf.norm sonde.norm; then
		echo "--- perf:"; cat perf.out; echo "--- sonde:"; cat sonde.out
		return 1
	fi
}

W=$SONDE_WORKLOADS/cpuburn

test_expect_success PERF 'default events and footer' 'layout_cmp -- true'
test_expect_success PERF 'software events' 'layout_cmp -e task-clock,context-switches,cpu-migrations,page-faults -- true'
test_expect_success PERF 'CSV (-x,)' 'layout_cmp -x, -- true'
test_expect_success PERF 'CSV with another separator (-x\;)' 'layout_cmp "-x;" -e task-clock,faults -- true'
test_expect_success PERF '-r 3: mean, noise, elapsed with stddev' 'layout_cmp -r 3 -e task-clock -- "$W"'
test_expect_success PERF '-r 3 CSV: noise column' 'layout_cmp -x, -r 3 -e task-clock -- "$W"'
test_expect_success PERF '-n (null run)' 'layout_cmp -n -- true'
test_expect_success PERF '-d / -dd / -ddd lists' 'layout_cmp -d -- true && layout_cmp -dd -- true && layout_cmp -ddd -- true'
test_expect_success PERF,TRACEFS 'tracepoint, hardware <not supported>' 'layout_cmp -e sched:sched_process_exec,task-clock,cycles -- true'
test_expect_success PERF 'without task-clock: no /sec metric' 'layout_cmp -e page-faults -- true'
test_expect_success PERF '-B and --no-big-num' 'layout_cmp -B -e page-faults -- "$W" && layout_cmp --no-big-num -e page-faults -- "$W"'
test_expect_success PERF 'groups' "layout_cmp -e '{task-clock,page-faults}' -- true"
test_expect_success PERF 'tool event duration_time: ns unit' 'layout_cmp -e page-faults,duration_time -- true'
test_expect_success PERF 'msr PMU event' 'layout_cmp -e msr/tsc/ -- true'
test_expect_success PERF '-a system wide header, no user/sys' 'layout_cmp -a -e task-clock,cs -- sleep 0.05'
test_expect_success PERF '-C 0' 'layout_cmp -C 0 -e task-clock -- sleep 0.05'
test_expect_success PERF '-A per-cpu prefix' 'layout_cmp -a -A -e task-clock,cs -- sleep 0.05'
test_expect_success PERF '-A CSV' 'layout_cmp -x, -a -A -e task-clock,cs -- sleep 0.05'
test_expect_success PERF '--per-core' 'layout_cmp -a --per-core -e task-clock,cs -- sleep 0.05'
test_expect_success PERF '--per-core CSV' 'layout_cmp -x, -a --per-core -e task-clock -- sleep 0.05'
test_expect_success PERF '--per-socket' 'layout_cmp -a --per-socket -e task-clock,cs -- sleep 0.05'
test_expect_success PERF '--per-die' 'layout_cmp -a --per-die -e task-clock,cs -- sleep 0.05'
test_expect_success PERF '--per-node' 'layout_cmp -a --per-node -e task-clock,cs -- sleep 0.05'
test_expect_success PERF '-I interval lines and header' 'layout_cmp -I 100 --interval-count 2 -e task-clock,page-faults -- "$W"'
test_expect_success PERF '-I CSV' 'layout_cmp -x, -I 100 --interval-count 2 -e task-clock -- "$W"'
test_expect_success PERF '-I with -A header' 'layout_cmp -a -A -I 100 --interval-count 1 -e task-clock -- sleep 1'
test_expect_success PERF '-I with --per-socket header' 'layout_cmp -a --per-socket -I 100 --interval-count 1 -e task-clock -- sleep 1'
test_expect_success PERF '-j JSON lines' 'layout_cmp -j -e task-clock,cs,cycles -- true'
test_expect_success PERF '-j JSON with -r, -A, --per-core, -I' '
	layout_cmp -j -r 2 -e task-clock -- true &&
	layout_cmp -j -a -A -e cs -- sleep 0.05 &&
	layout_cmp -j -a --per-core -e cs -- sleep 0.05 &&
	layout_cmp -j -I 100 --interval-count 1 -e cs -- sleep 0.3
'
test_expect_success PERF '--metric-only' 'layout_cmp --metric-only -e task-clock,cs,faults -- true && layout_cmp --metric-only -x, -e task-clock -- true'
test_expect_success PERF '--table with -r: per-run table, then the final result' '
	"$SONDE" stat -r 3 --table -e task-clock -- true 2>out &&
	test_grep "^ +# Table of individual measurements:$" out &&
	test "$(grep -cE "^ +[0-9.]+ \([-+][0-9.]+\) #+$" out)" = 3 &&
	test_grep "^ +# Final result:$" out &&
	test_grep "^ +[0-9.]+ \+- [0-9.]+ seconds time elapsed" out
'
test_expect_success PERF '-I --summary: totals after the intervals (CSV: "summary" prefix)' '
	layout_cmp -I 100 --summary -e task-clock,cs -- "$W" 250 &&
	layout_cmp -x, -I 100 --summary -e cs -- "$W" 250 &&
	layout_cmp -x, -I 100 --summary --no-csv-summary -e cs -- "$W" 250
'
test_expect_success PERF '-p PID header' '
	sleep 3 & pid=$! &&
	layout_cmp -p $pid -e task-clock,cs -- sleep 0.05; rc=$?; kill $pid; return $rc
'
test_expect_success PERF '--per-thread lines (comm-pid prefix)' '
	sleep 3 & pid=$! &&
	layout_cmp --per-thread -p $pid -e cs -- sleep 0.05; rc=$?; kill $pid; return $rc
'
test_expect_success PERF 'workload exit status is forwarded' '
	test_exit_code 3 "$SONDE" stat -e cs -- sh -c "exit 3" 2>/dev/null
'
test_expect_success PERF '-o FILE: "# started on" line, then the report' '
	"$SONDE" stat -o out.txt -e task-clock -- true &&
	head -1 out.txt | grep -E "^# started on [A-Z][a-z]{2} [A-Z][a-z]{2} [ 0-9][0-9] [0-9:]{8} [0-9]{4}$" &&
	grep -E "task-clock +#" out.txt &&
	"$SONDE" stat -o out.txt --append -e page-faults -- true &&
	test $(grep -c "started on" out.txt) = 2 && grep task-clock out.txt && grep page-faults out.txt
'
test_expect_success PERF '-h lists the same options as perf stat -h' '
	test_exit_code 129 "$PERF" stat -h 2>perf.h; test_exit_code 129 "$SONDE" stat -h 2>sonde.h &&
	sed "s/sonde stat/perf stat/" sonde.h >sonde.h2 && test_cmp perf.h sonde.h2
'

test_done
