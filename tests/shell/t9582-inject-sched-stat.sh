#!/bin/bash
# SPDX-License-Identifier: MIT
# sonde inject -s vs perf inject -s on the same perf.data: each sched_stat sample becomes the
# task's last sched_switch sample (callchain and all) with the stat's time and period, the
# switches themselves go; records, dumps and reports compared with perf's output.
. "$(dirname "$0")/lib.sh"

work=$SONDE_WORKLOADS/schedfork

# dump FILE: perf's dump of FILE's records in file order, offsets left out
dump() {
	"$PERF" report -D -i "$1" 2>/dev/null |
		grep -E "^([0-9]+ ){0,2}0x[0-9a-f]+ \[0x[0-9a-f]+\]: PERF_RECORD_" |
		grep -v "PERF_RECORD_FEATURE\|PERF_RECORD_ATTR" |
		sed -E "s/^(([0-9]+ ){0,2})(0x[0-9a-f]+) /\3\t\1/" |
		while IFS=$'\t' read -r off rest; do printf "%d\t%s\n" "$off" "$rest"; done |
		sort -n | cut -f2-
}

# same_inject IN: perf inject -s and sonde inject -s of IN give the same records and reports:
# the timed records in the same order; the untimed ones (round markers, LOST_SAMPLES) the
# same, where they fall aside (that follows when the ordered queue is flushed, see
# docs/cmd/inject.md)
same_inject() {
	"$PERF" inject -s -i "$1" -o p.data 2>p.err &&
	"$SONDE" inject -s -i "$1" -o s.data 2>s.err &&
	test_cmp p.err s.err &&
	dump p.data >p.dump && dump s.data >s.dump &&
	grep -v "^[0-9]* 0 " p.dump >expect && grep -v "^[0-9]* 0 " s.dump >actual &&
	test_cmp expect actual &&
	grep "^[0-9]* 0 " p.dump | LC_ALL=C sort >expect && grep "^[0-9]* 0 " s.dump | LC_ALL=C sort >actual &&
	test_cmp expect actual &&
	"$PERF" report --stdio -i p.data -s comm,sym 2>/dev/null | grep -v "^#" >expect &&
	"$PERF" report --stdio -i s.data -s comm,sym 2>/dev/null | grep -v "^#" >actual &&
	test_cmp expect actual
}

stat_events="-e sched:sched_stat_runtime"
for e in sched_stat_sleep sched_stat_wait sched_stat_iowait sched_stat_blocked; do
	test -d "/sys/kernel/tracing/events/sched/$e" && stat_events="$stat_events -e sched:$e"
done

test_expect_success PERF,ROOT,TRACEFS 'record sched_switch with the sched_stat events (with -g too)' '
	"$PERF" record -q -a -o "$TRASH/in.data" -e sched:sched_switch $stat_events -e sched:sched_waking \
		-- "$work" 20 2 >/dev/null 2>&1 &&
	"$PERF" record -q -a -g -o "$TRASH/g.data" -e sched:sched_switch $stat_events \
		-- "$work" 10 2 >/dev/null 2>&1 &&
	test -s "$TRASH/in.data" && test -s "$TRASH/g.data"
'

test_expect_success PERF,ROOT,TRACEFS '-s: the same records as perf inject -s; stats merged, switches gone' '
	test -s "$TRASH/in.data" &&
	same_inject "$TRASH/in.data" &&
	n_in=$("$PERF" script -i "$TRASH/in.data" -F event 2>/dev/null | grep -c sched_switch) &&
	n_out=$(dump s.data | grep -c "PERF_RECORD_SAMPLE") &&
	test "$n_out" -gt 0 &&
	"$PERF" report --stdio -i s.data --sort comm 2>/dev/null | test_grep "sched:sched_switch" - &&
	! "$PERF" report --stdio -i s.data --sort comm 2>/dev/null | grep "sched_stat" &&
	echo "in: $n_in switches; out: $n_out samples"
'

test_expect_success PERF,ROOT,TRACEFS '-s with callchains: the switch callchains carried over, as perf' '
	test -s "$TRASH/g.data" &&
	same_inject "$TRASH/g.data" &&
	"$PERF" report --stdio -i s.data -G -s sym 2>/dev/null | grep -v "^#" >actual &&
	test_grep "schedule" actual
'

test_expect_success PERF '-s on a file without scheduler events: copied as perf copies it' '
	"$PERF" record -q -o "$TRASH/c.data" -F 999 -- "$SONDE_WORKLOADS/rptmix" >/dev/null 2>&1 &&
	same_inject "$TRASH/c.data"
'

test_expect_success PERF,ROOT,TRACEFS 'live: a kernel without sched_stat_sleep gives perf'"'"'s record message' '
	if test -d /sys/kernel/tracing/events/sched/sched_stat_sleep; then
		echo "# this kernel has sched_stat_sleep: the files above hold it"
	else
		test_exit_code 129 "$PERF" record -e sched:sched_stat_sleep -o x.data true >/dev/null 2>p.err &&
		test_exit_code 129 "$SONDE" record -e sched:sched_stat_sleep -o x.data true >/dev/null 2>s.err &&
		sed -i "s/^Run .perf list./Run '"'"'sonde list'"'"'/; s/ Usage: perf / Usage: sonde /; s/    or: perf /    or: sonde /" p.err &&
		test_cmp p.err s.err && test_grep "unknown tracepoint" s.err
	fi
'

test_done
