#!/bin/bash
# SPDX-License-Identifier: MIT
# perf lock contention vs sonde lock contention (the table perf 6.1 prints on stderr, and
# the exit status) on a file perf lock record makes of a messaging benchmark; sonde lock
# record read back by perf; the messages for files without the lock tracepoints.
. "$(dirname "$0")/lib.sh"

# same ARGS...: perf lock and sonde lock print the same
same() {
	local rc1=0 rc2=0
	"$PERF" lock "$@" >expect 2>expect.err </dev/null || rc1=$?
	"$SONDE" lock "$@" >actual 2>actual.err </dev/null || rc2=$?
	test "$rc1" = "$rc2" || { echo "exit status: perf $rc1, sonde $rc2 for $*"; cat actual.err; return 1; }
	test_cmp expect actual || return 1
	test_cmp expect.err actual.err || { echo "stderr differs: lock $*"; return 1; }
}

# same_rows ARGS...: as same, but the rows of a table compared as a set: perf orders rows with
# equal sort keys by its lock hash table's buckets, which behaviour does not tell (docs/cmd/lock.md);
# sonde keeps them in first-seen order, so each side's rows are sorted before comparing
same_rows() {
	local rc1=0 rc2=0
	"$PERF" lock "$@" >expect 2>expect.err </dev/null || rc1=$?
	"$SONDE" lock "$@" >actual 2>actual.err </dev/null || rc2=$?
	test "$rc1" = "$rc2" || { echo "exit status: perf $rc1, sonde $rc2 for $*"; cat actual.err; return 1; }
	test_cmp expect actual || return 1
	head -2 expect.err >expect.head && head -2 actual.err >actual.head && test_cmp expect.head actual.head &&
	tail -n +3 expect.err | sort >expect.rows && tail -n +3 actual.err | sort >actual.rows &&
	test_cmp expect.rows actual.rows || { echo "rows differ: lock $*"; return 1; }
}

# same_ties ARGS...: as same, for contention tables: perf orders rows whose
# sort key ties (total wait by default, max wait with -k wait_max; e.g. two
# threads with five waits of 14.52 us in all, but different maxima) by its hash
# buckets, which behaviour does not tell. The header lines and the sequence of
# the sort key's values are compared exactly, and the rows of each run of equal
# values as a set. (A key printed equal but different in its nanoseconds is
# ordered by both tools alike, and is compared as a tie here.)
same_ties() {
	local rc1=0 rc2=0 key='$2 " " $3'
	case " $* " in *" wait_max "*) key='$4 " " $5' ;; esac
	"$PERF" lock "$@" >expect 2>expect.err </dev/null || rc1=$?
	"$SONDE" lock "$@" >actual 2>actual.err </dev/null || rc2=$?
	test "$rc1" = "$rc2" || { echo "exit status: perf $rc1, sonde $rc2 for $*"; cat actual.err; return 1; }
	test_cmp expect actual || return 1
	cmp -s expect.err actual.err && return 0
	head -2 expect.err >expect.head && head -2 actual.err >actual.head && test_cmp expect.head actual.head &&
	# each row after the number of its run of equal keys, then sorted: runs in order, sets within
	tail -n +3 expect.err | awk "{ k = $key; if (NR == 1 || k != prev) n++; prev = k; printf \"%05d %s\\n\", n, \$0 }" |
		sort >expect.rows &&
	tail -n +3 actual.err | awk "{ k = $key; if (NR == 1 || k != prev) n++; prev = k; printf \"%05d %s\\n\", n, \$0 }" |
		sort >actual.rows &&
	test_cmp expect.rows actual.rows || { echo "rows differ: lock $*"; return 1; }
}

test_expect_success PERF,ROOT,TRACEFS,LOCKTP 'perf lock record of a messaging benchmark' '
	"$PERF" lock record -o "$TRASH/l.data" -- "$PERF" bench sched messaging -g 2 -l 50 \
		>/dev/null 2>&1 &&
	test -s "$TRASH/l.data"
'

test_expect_success PERF,ROOT,TRACEFS,LOCKTP 'contention: by call stack and thread, -E, --stack-skip, --max-stack' '
	for args in "" "-t" "-E 5" "--stack-skip 2" "--stack-skip 1" "--max-stack 4" "-k wait_max -E 3"; do
		same_ties contention -i "$TRASH/l.data" $args || return 1
	done &&
	test_grep "^ contended   total wait" actual.err
'

# this kernel offers lock:contention_* and not lockdep's lock_acquire family: perf lock report
# then tables the contention waits per lock address, info lists threads and lock addresses (stderr)
test_expect_success PERF,ROOT,TRACEFS,LOCKTP 'report (-k, -F, -c, -t) and info (-t, -m) on the contention file' '
	test -s "$TRASH/l.data" &&
	for args in "" "-k wait_max" "-k avg_wait -c" "-F acquired,contended" "-F wait_total" \
		"-F contended -k wait_max" "-F wait_min,acquired,wait_min" "-c -F contended" "-t" \
		"-F contended,bogus" "-k bogus"; do
		same_rows report -i "$TRASH/l.data" $args || return 1
	done &&
	same_rows report -i "$TRASH/l.data" && test_grep "[0-9] +[0-9]+ +[0-9.]+ [mun]?s " actual.err &&
	same info -i "$TRASH/l.data" -t && same info -i "$TRASH/l.data" -t -m &&
	same info -i "$TRASH/l.data" && test_grep "Unknown type of information" actual.err &&
	# (-m: the set of addresses can differ from perf by a lock or two, see docs/cmd/lock.md)
	"$SONDE" lock info -i "$TRASH/l.data" -m 2>actual.err && test_grep "^Address of instance: name of class$" actual.err &&
	test_grep "^ 0x[0-9a-f]+: [^ ]+$" actual.err &&
	same_rows report -i "$TRASH/l.data" -F wait_total && test_grep "Name   total wait   acquired" actual.err &&
	same report -i "$TRASH/none.data" && test_grep "failed to open" actual.err
'

test_expect_success ROOT,TRACEFS,LOCKTP 'sonde lock record: perf reads it alike' '
	"$SONDE" lock record -q -o "$TRASH/s.data" -- "$SONDE_WORKLOADS/schedfork" 10 2 >/dev/null 2>&1 &&
	"$SONDE" evlist -i "$TRASH/s.data" >ev &&
	test_grep "^lock:contention_begin$" ev &&
	if test_have_prereq PERF; then
		same contention -i "$TRASH/s.data"
	fi
'

test_expect_success PERF 'files without the lock tracepoints: perf messages, exit 234' '
	"$PERF" record -q -o "$TRASH/n.data" -e cpu-clock -- true >/dev/null 2>&1 &&
	same contention -i "$TRASH/n.data" &&
	test_grep "Did you call .perf lock record" actual.err &&
	same report -i "$TRASH/n.data" && same info -t -i "$TRASH/n.data" &&
	if test_have_prereq ROOT,TRACEFS; then
		"$PERF" record -q -o "$TRASH/t.data" -e sched:sched_switch -a -- sleep 0.1 >/dev/null 2>&1 &&
		same contention -i "$TRASH/t.data" &&
		test_grep "evsel not found" actual.err
	fi
'

test_done
