#!/bin/bash
# SPDX-License-Identifier: MIT
# check: parallel (recordings of its own workloads, nothing timed, no system-wide recording)
# sonde's built-in scripts (scripts/python, ours) against perf's same-named
# scripts on files perf records here: script -l, record NAME, report NAME.
# Where perf's (Perl) script prints a table in hash order, the rows are compared sorted;
# wakeup-latency is checked against latencies computed from perf script's own text.
. "$(dirname "$0")/lib.sh"

ln -s "$SONDE" perf
wl=$SONDE_ROOT/tests/shell/python/workload.py

# report NAME [ARGS]: same stdout as perf's report script; "sorted" compares rows sorted
report_same() {
	local how=$1 name=$2
	shift 2
	rc1=0 rc2=0
	rm -f /dev/shm/perf.db
	"$PERF" script report "$name" "$@" -i all.data >expect 2>expect.err </dev/null || rc1=$?
	rm -f /dev/shm/perf.db
	./perf script report "$name" "$@" -i all.data >actual 2>actual.err </dev/null || rc2=$?
	test "$rc1" = "$rc2" || { echo "exit status: perf $rc1, sonde $rc2"; cat actual.err; return 1; }
	if [ "$how" = sorted ]; then
		sort expect >expect.sorted && sort actual >actual.sorted &&
		test_cmp expect.sorted actual.sorted || return 1
	else
		test_cmp expect actual || return 1
	fi
}

test_expect_success PERF,ROOT,TRACEFS 'record: syscalls, reads/writes, futexes, scheduling' '
	"$PERF" record -q -o all.data -e raw_syscalls:sys_enter -e raw_syscalls:sys_exit \
		-e syscalls:sys_enter_read -e syscalls:sys_exit_read \
		-e syscalls:sys_enter_write -e syscalls:sys_exit_write \
		-e sched:sched_switch -e sched:sched_wakeup \
		-e syscalls:sys_enter_futex -e syscalls:sys_exit_futex \
		-- /usr/bin/python3 "$wl" >/dev/null 2>&1 &&
	"$PERF" record -q -o cg.data -g -e cpu-clock -c 200000 -- "$SONDE_WORKLOADS/cpuburn" 100 \
		>/dev/null 2>&1 &&
	test -s all.data && test -s cg.data
'

if ! test -s "$TRASH/all.data"; then
	test_done
	exit 0
fi

test_expect_success 'script -l lists the built-in scripts in perf'"'"'s layout' '
	./perf script -l >out &&
	test_grep "^List of available trace scripts:$" out &&
	test_grep "^  syscall-counts \[comm\]                system-wide syscall counts$" out &&
	test_grep "^  rw-by-file <comm>                    r/w activity for a program, by file$" out &&
	for n in syscall-counts-by-pid failed-syscalls failed-syscalls-by-pid rw-by-pid futex-contention \
		wakeup-latency event_analyzing_sample stackcollapse sctop export-to-sqlite flamegraph; do
		test_grep "^  $n " out || return 1
	done
'

for name in syscall-counts syscall-counts-by-pid failed-syscalls failed-syscalls-by-pid \
	futex-contention; do
	test_expect_success "report $name: as perf's" "report_same exact $name"
done
test_expect_success 'report syscall-counts COMM, failed-syscalls-by-pid PID' '
	report_same exact syscall-counts python3 &&
	pid=$("$PERF" script -i all.data -F pid 2>/dev/null | sort | uniq -c | sort -rn | awk "NR==1{print \$2}") &&
	report_same exact failed-syscalls-by-pid "$pid" &&
	report_same exact syscall-counts-by-pid "$pid"
'
# perf's rw-by-pid and rw-by-file are Perl: their unhandled-events rows come in hash order
test_expect_success 'report rw-by-pid: as perf'"'"'s (rows sorted)' 'report_same sorted rw-by-pid'
test_expect_success 'report rw-by-file python3: as perf'"'"'s (rows sorted)' \
	'report_same sorted rw-by-file python3'

test_expect_success 'report event_analyzing_sample: as perf'"'"'s, on samples and tracepoints' '
	report_same exact event_analyzing_sample &&
	mv all.data all.keep && cp cg.data all.data &&
	report_same exact event_analyzing_sample &&
	mv all.keep all.data
'

test_expect_success 'report stackcollapse: as perf'"'"'s, and its options through -s' '
	mv all.data all.keep && cp cg.data all.data &&
	report_same exact stackcollapse &&
	mv all.keep all.data &&
	for o in "" --kernel --include-pid --include-tid --no-comm; do
		"$PERF" script -i cg.data -s "$("$PERF" --exec-path)/scripts/python/stackcollapse.py" \
			-- $o >expect 2>/dev/null &&
		./perf script -i cg.data -s stackcollapse -- $o >actual &&
		test_cmp expect actual || return 1
	done
'

test_expect_success 'flamegraph -f json: perf'"'"'s tree; the HTML template message' '
	for f in all cg; do
		"$PERF" script -i $f.data -s "$("$PERF" --exec-path)/scripts/python/flamegraph.py" \
			-- -f json -o - >expect 2>/dev/null &&
		./perf script -i $f.data -s flamegraph -- -f json -o - >actual &&
		test_cmp expect actual || return 1
	done &&
	./perf script report flamegraph -i cg.data -f json -o fg.json >out &&
	test_grep "^dumping data to fg.json$" out &&
	test_cmp expect fg.json ||
	{ ./perf script report flamegraph -i cg.data -f json -o fg.json; return 1; } &&
	test_exit_code 1 ./perf script report flamegraph -i cg.data --template /nonexistent 2>err &&
	test_grep "^Flame Graph template /nonexistent does not exist" err
'

# perf 6.1's wakeup-latency.pl reads sched_wakeup with an older field list and counts
# no wakeup: the numbers are checked against perf script's own output instead
test_expect_success 'report wakeup-latency: latencies as computed from perf script' '
	./perf script report wakeup-latency -i all.data >actual &&
	"$PERF" script -i all.data -F cpu,time,event,trace --ns 2>/dev/null | awk "
		/sched:sched_wakeup:/ { for (i = 1; i <= NF; i++) if (\$i ~ /^target_cpu=/) {
			split(\$i, a, \"=\"); t = \$2; sub(\":\", \"\", t); w[a[2] + 0] = t } }
		/sched:sched_switch:/ { c = substr(\$1, 2, length(\$1) - 2) + 0; t = \$2; sub(\":\", \"\", t);
			if (c in w) { split(t, p, \".\"); split(w[c], q, \".\");
				l = (p[1] - q[1]) * 1000000000 + (p[2] - q[2]); n++; s += l;
				if (!n1 || l < mn) mn = l; if (l > mx) mx = l; n1 = 1; delete w[c] } }
		END { printf \"total_wakeups: %d\navg_wakeup_latency (ns): %d\nmin_wakeup_latency (ns): %d\nmax_wakeup_latency (ns): %d\n\", n, s / n, mn, mx }" >expect &&
	sed -n "3,6p" actual >actual.nums &&
	test_cmp expect actual.nums &&
	test_grep "^wakeup_latency stats:" actual
'

test_expect_success 'report sctop: its refreshing table (timing-dependent, not compared)' '
	timeout 60 ./perf script report sctop python3 1 -i all.data >actual &&
	test_grep "^syscall events for python3:" actual &&
	test_grep "^event                                          count$" actual
'

# every table of the database, rows in id order, as text
dump_db() {
	python3 -c '
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
for name, sql in db.execute("select name, sql from sqlite_master order by name"):
    print(name, sql)
    if sql and sql.startswith("CREATE TABLE"):
        for row in db.execute("select * from %s order by id" % name):
            print(" ", row)
' "$1"
}

# perf's export-to-sqlite runs in perf's embedded Python: ask that one for PySide2's QtSql
echo "import PySide2.QtSql" >"$TRASH/pyside.py"
if (cd "$TRASH" && "$PERF" script -i cg.data -s pyside.py >/dev/null 2>&1); then
	for mode in "" branches "all calls callchains"; do
		test_expect_success "report export-to-sqlite ${mode:-(default)}: perf's tables and rows" "
			for f in cg all; do
				rm -f p.db s.db &&
				\"\$PERF\" script -i \$f.data -s \"\$(\"\$PERF\" --exec-path)/scripts/python/export-to-sqlite.py\" p.db $mode >p.out 2>&1 &&
				./perf script report export-to-sqlite -i \$f.data s.db $mode >s.out &&
				dump_db p.db >expect && dump_db s.db >actual &&
				test_cmp expect actual &&
				sed 's/^[-0-9]* [0-9:.]* //' p.out >expect &&
				sed 's/^[-0-9]* [0-9:.]* //' s.out >actual &&
				test_cmp expect actual || return 1
			done
		"
	done
else
	test_skip 'report export-to-sqlite against perf'"'"'s' \
		"perf's export-to-sqlite needs PySide2's QtSql (python3-pyside2.qtsql: WITH_TEST_DEPS=1 tools/install-deps.sh)"
fi

test_expect_success 'report export-to-sqlite: SQL over it gives perf script'"'"'s sample and symbol counts' '
	rm -f s.db &&
	./perf script report export-to-sqlite -i cg.data s.db >/dev/null &&
	python3 -c "
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
for sym, n in db.execute(\"select symbol, count(*) as n from samples_view where id > 0 group by symbol order by n desc, symbol\"):
    print(n, sym)
" s.db >actual &&
	"$PERF" script -i cg.data -F ip,sym -G 2>/dev/null | awk "{ print \$2 }" | sed "s/^\[unknown\]$/unknown/" |
		sort | uniq -c | sort -k1,1nr -k2 | sed "s/^ *//" >expect &&
	test_cmp expect actual
'

test_expect_success 'script record NAME: sonde record with the script'"'"'s events' '
	./perf script record syscall-counts -o rec.data -- true >/dev/null 2>&1 &&
	./perf evlist -i rec.data | grep -v "^#" >evlist &&
	echo raw_syscalls:sys_enter >expect &&
	test_cmp expect evlist &&
	./perf script record rw-by-pid -o rec2.data -- true >/dev/null 2>&1 &&
	./perf evlist -i rec2.data | grep -v "^#" >evlist &&
	printf "%s\n" syscalls:sys_enter_read syscalls:sys_exit_read syscalls:sys_enter_write \
		syscalls:sys_exit_write >expect &&
	test_cmp expect evlist
'

test_expect_success 'report/record of an unknown script: perf'"'"'s message' '
	test_exit_code 255 ./perf script report nosuch 2>err &&
	test_grep "^Please specify a valid report script" err
'

test_done
