#!/bin/bash
# SPDX-License-Identifier: MIT
# stat record / stat report against perf: each tool's stat file read by both
# gives the same table (task and cpu-wide files, every aggregation mode,
# intervals, a pipe), sonde's file carries perf's attrs and header, and
# the errors are perf's. Also stat -M without metric tables, as perf.
. "$(dirname "$0")/lib.sh"

if ! test_have_prereq PERF; then
	test_skip "stat record/report against perf" "$prereq_reason"
	test_done
fi

# same_report FILE OPTS...: perf stat report and sonde stat report print the
# same text (both on stderr, nothing on stdout) and exit alike
same_report() {
	local f=$1 prc=0 src=0
	shift
	"$PERF" stat report -i "$f" "$@" >perf.out 2>&1 || prc=$?
	"$SONDE" stat report -i "$f" "$@" >sonde.out 2>sonde.stdout-err || src=$?
	"$SONDE" stat report -i "$f" "$@" 2>/dev/null >sonde.stdout
	test_cmp perf.out sonde.stdout-err && test_cmp /dev/null sonde.stdout &&
	{ [ $prc = $src ] || { echo "exit $src, perf $prc: $f $*"; return 1; }; } ||
	{ echo "failed: $f $*"; return 1; }
}

test_expect_success 'stat record: a task file; the run prints its counts; both reports agree' '
	"$SONDE" stat record -e cs,task-clock -o s-task.data -- sleep 0.01 2>rec.err &&
	test_grep "Performance counter stats for .sleep 0.01.:" rec.err &&
	test_grep "msec task-clock" rec.err &&
	"$PERF" stat record -e cs,task-clock -o p-task.data -- sleep 0.01 2>/dev/null &&
	for f in s-task.data p-task.data; do
		same_report $f || return 1
		same_report $f -A || return 1
		same_report $f --per-core || return 1
	done
'

test_expect_success 'the report of a task file shows the run and its counts' '
	"$SONDE" stat report -i s-task.data 2>out &&
	test_grep "Performance counter stats for .*stat record -e cs,task-clock -o s-task.data -- sleep 0.01.:" out &&
	test_grep "^ *[0-9]*      cs " out &&
	test_grep "^ *[0-9.]* msec task-clock  *# *[0-9.]* CPUs utilized" out &&
	test_grep "seconds time elapsed" out
'

test_expect_success 'sonde writes perf'"'"'s attrs and header features' '
	for f in s-task.data p-task.data; do
		"$PERF" report --header-only -i $f >$f.h 2>/dev/null || return 1
		sed -n "s/id = { [0-9, ]* }/id/; /^# event :/p; /^# contains stat data/p; /^# missing features/p" $f.h >$f.hh
	done &&
	test_cmp p-task.data.hh s-task.data.hh &&
	test_grep "contains stat data" s-task.data.hh
'

test_expect_success 'cpu-wide files (-a, -C, -A, --per-*): every report mode agrees' '
	"$SONDE" stat record -a -e cs,task-clock,faults -o s-a.data -- sleep 0.05 2>/dev/null &&
	"$PERF" stat record -a -e cs,task-clock,faults -o p-a.data -- sleep 0.05 2>/dev/null &&
	"$SONDE" stat record -C 0 --per-core -e cs,task-clock -o s-c.data -- sleep 0.02 2>/dev/null &&
	"$PERF" stat record -C 0 --per-core -e cs,task-clock -o p-c.data -- sleep 0.02 2>/dev/null &&
	for f in s-a.data p-a.data s-c.data p-c.data; do
		for m in "" -A --per-core --per-socket --per-die --per-node; do
			same_report $f $m || return 1
		done
	done
'

test_expect_success 'events the kernel refuses: <not supported> in both reports' '
	"$SONDE" stat record -a -e cs,cycles,instructions -o s-ns.data -- sleep 0.02 2>/dev/null &&
	"$PERF" stat record -a -e cs,cycles,instructions -o p-ns.data -- sleep 0.02 2>/dev/null &&
	same_report s-ns.data && same_report p-ns.data &&
	same_report s-ns.data -A && same_report p-ns.data --per-node
'

test_expect_success 'interval files (-I): one table per round, perf'"'"'s metrics' '
	"$SONDE" stat record -I 100 -a -e cs,task-clock -o s-i.data -- sleep 0.25 2>/dev/null &&
	"$PERF" stat record -I 100 -a -e cs,task-clock -o p-i.data -- sleep 0.25 2>/dev/null &&
	"$SONDE" stat record -I 100 -e cs,task-clock -o s-it.data -- sleep 0.15 2>/dev/null &&
	for f in s-i.data p-i.data s-it.data; do
		same_report $f || return 1
		same_report $f -A || return 1
	done &&
	"$SONDE" stat report -i s-i.data 2>out &&
	test_grep "^#           time             counts unit events" out &&
	test $(grep -c " cs " out) -ge 2
'

test_expect_success 'a pipe both ways (-o - | report -i -)' '
	"$SONDE" stat record -e cs,task-clock -o - -- sleep 0.01 2>/dev/null >s-pipe.data &&
	"$PERF" stat record -e cs,task-clock -o - -- sleep 0.01 2>/dev/null >p-pipe.data &&
	for f in s-pipe.data p-pipe.data; do
		"$PERF" stat report -i - <$f >perf.out 2>&1 &&
		"$SONDE" stat report -i - <$f >sonde.out 2>&1 &&
		test_cmp perf.out sonde.out &&
		test_grep "stats for .pipe.:" sonde.out || return 1
	done
'

test_expect_success 'the record word abbreviated, the default file and its .old backup' '
	mkdir dflt && (cd dflt &&
		"$SONDE" stat rec -e cs -- true 2>/dev/null &&
		"$SONDE" stat record -e cs -- true 2>/dev/null &&
		test -s perf.data && test -s perf.data.old &&
		"$SONDE" stat rep 2>out && test_grep "stats for .*stat record -e cs -- true.:" out)
'

test_expect_success 'the workload'"'"'s exit status is stat record'"'"'s' '
	test_exit_code 1 "$SONDE" stat record -e cs -o st.data -- false 2>/dev/null &&
	same_report st.data
'

test_expect_success 'errors as perf: unwritable file (before running), missing, empty, unknown option' '
	prc=0 src=0 &&
	"$PERF" stat record -e cs -o /nonexistent/x -- touch ran-p >perf.out 2>&1 || prc=$?
	"$SONDE" stat record -e cs -o /nonexistent/x -- touch ran-s >sonde.out 2>&1 || src=$?
	test $prc = 255 && test $src = 255 && test_cmp perf.out sonde.out &&
	! test -e ran-p && ! test -e ran-s &&
	: >empty.data &&
	for a in "-i /nonexistent.data" "-i empty.data" "-x"; do
		prc=0 src=0
		"$PERF" stat report $a >perf.out 2>&1 || prc=$?
		"$SONDE" stat report $a >sonde.out 2>&1 || src=$?
		sed -i "s/perf stat report/sonde stat report/" perf.out
		test $prc = $src && test_cmp perf.out sonde.out || return 1
	done
'

test_expect_success 'a file without stat records: nothing printed, as perf' '
	"$PERF" record -e cs -o rec.data -- true 2>/dev/null &&
	same_report rec.data
'

# perf 6.1 has no metric tables for some CPUs (this VM's): -M is then
# ignored without a word and the default table printed
if "$PERF" list metric 2>/dev/null | grep -q "^  [A-Za-z]"; then
	test_skip "stat -M without metric tables" "perf has metric tables for this CPU; sonde has none"
else
	test_expect_success 'stat -M with no metric tables: perf'"'"'s output, exit 0' '
		"$PERF" stat -M IPC -e cs -x, -- true 2>perf.out &&
		"$SONDE" stat -M IPC -e cs -x, -- true 2>sonde.out &&
		norm="s/^[0-9]*,\([^,]*\),\([^,]*\),[0-9]*,/N,\1,\2,T,/" &&
		sed "$norm" perf.out >perf.n && sed "$norm" sonde.out >sonde.n &&
		test_cmp perf.n sonde.n
	'
fi

test_done
