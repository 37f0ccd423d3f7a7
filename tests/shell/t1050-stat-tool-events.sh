#!/bin/bash
# SPDX-License-Identifier: MIT
# stat's tool events user_time/system_time: perf gives them their value as
# enabled/running time, so a zero value is "<not counted>" (run field 0 in CSV)
# and so is every interval line (the rusage is only known at the end).
. "$(dirname "$0")/lib.sh"

# check_csv FILE: every user_time/system_time line is either
# "<not counted>,ns,NAME,0,100.00,," or "V,ns,NAME,V,100.00,," with V > 0
check_csv() {
	local n
	n=$(grep -c -E "^[^,]*,ns,(user|system)_time," "$1") && test "$n" = 2 &&
	awk -F, '$3 ~ /^(user|system)_time$/ {
		if ($1 == "<not counted>") ok = ($4 == "0")
		else ok = ($1 ~ /^[0-9]+$/ && $1 > 0 && $4 == $1)
		if (!ok || $5 != "100.00" || NF != 7) { print "bad line: " $0; bad = 1 }
	} END { exit bad }' "$1"
}

# 'true' often runs in less than one tick of user or system time: repeat so
# that a zero value is seen with high likelihood, and check each run's lines
test_expect_success 'CSV: zero is <not counted> with run 0, else run = value' '
	for i in 1 2 3 4 5 6 7 8; do
		"$SONDE" stat -x, -e user_time,system_time -- true 2>out.csv &&
		check_csv out.csv || return 1
		cat out.csv >>all.csv
	done &&
	grep -q "^<not counted>,ns,\(user\|system\)_time,0,100.00,,$" all.csv
'

test_expect_success PERF 'perf follows the same rule (the reference for the test above)' '
	for i in 1 2 3 4 5 6 7 8; do
		"$PERF" stat -x, -e user_time,system_time -- true 2>out.csv &&
		check_csv out.csv || return 1
	done
'

test_expect_success 'table: a zero tool time prints <not counted> in the name column' '
	for i in 1 2 3 4 5 6 7 8; do
		"$SONDE" stat -e user_time,system_time -- true 2>>all.txt || return 1
	done &&
	# perf pads the name to 25 columns plus its 26-column empty metric field
	grep -q -E "^     <not counted> ns   (user_time {51}|system_time {49})$" all.txt &&
	! grep -q -E "^ +0 ns   (user|system)_time" all.txt
'

# interval lines of user_time/system_time: perf prints "<not counted>" for each
interval_lines() {
	"$1" stat -I 40 -e duration_time,user_time,system_time -- "$SONDE_WORKLOADS/cpuburn" 130 2>&1 |
		grep -E "(user|system)_time" | sed -E "s/^ +[0-9]+\.[0-9]+ +//"
}
test_expect_success PERF 'interval mode: every user_time/system_time line is <not counted>, as perf' '
	interval_lines "$PERF" >perf.out && interval_lines "$SONDE" >sonde.out &&
	sort -u perf.out >perf.u && sort -u sonde.out >sonde.u &&
	test_cmp perf.u sonde.u &&
	test $(wc -l <perf.u) = 2 && grep -q "^<not counted> ns   user_time" sonde.u
'

test_done
