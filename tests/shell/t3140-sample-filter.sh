#!/bin/bash
# SPDX-License-Identifier: MIT
# check: parallel (its own files and workloads, nothing timed, no system-wide recording)
# --time, --cpu, --pid/--tid of report and script against perf's: the same
# samples for every time syntax (ranges, several ranges, percentages), the
# same messages and exit statuses for values perf refuses.
. "$(dirname "$0")/lib.sh"

W=$SONDE_WORKLOADS

# both CMD OPTS...: perf and sonde print the same (report's random tip aside),
# say the same on stderr and exit alike
both() {
	local prc=0 src=0
	"$PERF" "$@" >perf.out 2>perf.err || prc=$?
	"$SONDE" "$@" >sonde.out 2>sonde.err || src=$?
	sed '/^# (Tip:/d' perf.out >perf.norm
	sed '/^# (Tip:/d' sonde.out >sonde.norm
	test_cmp perf.norm sonde.norm && test_cmp perf.err sonde.err || return 1
	[ "$prc" = "$src" ] || { echo "exit status: perf $prc, sonde $src ($*)"; return 1; }
}

# report_and_script OPT VALUE: both commands with that option value
report_and_script() {
	both report --stdio -n --sort comm,dso -i f.data "$1" "$2" &&
	both script -F comm,tid,cpu,time,period -i f.data "$1" "$2"
}

test_expect_success PERF,ROOT 'record a file with cpu numbers in its samples' '
	"$PERF" record -q --sample-cpu -e cpu-clock -c 100000 -o f.data "$W/cpuburn" 200 \
		>/dev/null 2>&1 &&
	"$PERF" script -i f.data -F time | tr -d " :" >times &&
	test "$(wc -l <times)" -gt 100
'

test_expect_success PERF,ROOT '--time: ranges, open ends, several ranges' '
	n=$(wc -l <times) &&
	t1=$(sed -n "$((n / 4))p" times) && t2=$(sed -n "$((n / 2))p" times) &&
	t3=$(sed -n "$((n * 3 / 4))p" times) &&
	for t in "$t1,$t2" "$t2," ",$t1" "$t1,$t2 $t3," " $t1,$t2" "$t1,$t2  $t3," ","; do
		report_and_script --time "$t" || return 1
	done
'

test_expect_success PERF,ROOT '--time: percentages' '
	for t in 10%/2 0%-30% 10%/1,10%/2 0%-10%,30%-40% 50% 100% 10%-5% 0%-0% \
		 20%/1,10%/2 10.5%/2 5%-10%/2; do
		report_and_script --time "$t" || return 1
	done
'

test_expect_success PERF,ROOT '--time: what perf refuses, with its message and status' '
	n=$(wc -l <times) &&
	t1=$(sed -n "$((n / 4))p" times) && t2=$(sed -n "$((n / 2))p" times) &&
	for t in "" abc "$t1" "$t2,$t1" "$t1,$t2 " "$t1,$t2,$t2" "$t2, $t1,$t2" "$t1,$t2 $t1,$t2" \
		 "$t1.1234567891," 0% 110% 10%/0 10%/20 10%,20% 10%/1,0%-10% 50%,10%/7 -10% 5-10%; do
		report_and_script --time "$t" || return 1
	done
'

test_expect_success PERF,ROOT '--cpu: lists in perf grammar, and the ones it refuses' '
	for c in 0 0-1 1,0 0- 0,,1 0x1 "" 1-0 abc " 1" 1, 0-1,1 1,1 5000 2000 3-2000; do
		report_and_script --cpu "$c" || return 1
	done
'

test_expect_success PERF,ROOT '--cpu on a file without cpu numbers' '
	"$PERF" record -q -e cpu-clock -c 100000 -o nocpu.data "$W/cpuburn" 50 >/dev/null 2>&1 &&
	both report --stdio -i nocpu.data --cpu 0 &&
	both script -i nocpu.data --cpu 5000
'

test_expect_success PERF,ROOT '--pid/--tid lists' '
	pid=$("$PERF" script -i f.data -F pid | head -1 | tr -d " ") &&
	for p in "$pid" "$pid," ",$pid" "-1,$pid" "+$pid" abc "$pid 1" 0x10 "$pid.0"; do
		report_and_script --pid "$p" && report_and_script --tid "$p" || return 1
	done
'

test_done
