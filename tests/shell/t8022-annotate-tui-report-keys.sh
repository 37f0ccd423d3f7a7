#!/bin/bash
# SPDX-License-Identifier: MIT
# report's a key: the annotate browser's t p b s keys against perf report's, screen by screen in tmux.
. "$(dirname "$0")/lib.sh"
. "$SONDE_ROOT/tests/shell/tui.sh"

BURN=$SONDE_WORKLOADS/cpuburn
# from report the event's global hits count (annotate's are all 0); p, b and s clear l's message
KEYS="t t t p b b t l p l b l s s"

TUI_STRIP=' ▒◆'
tui_setup t8022 'report annotate keys'
trap 'tui_kill; cd /; rm -rf "$TRASH"' EXIT

# report_screens WHO CMD: CMD's report, a on its top line, then a screen after each of $KEYS
report_screens() {
	local n=0 k

	tui_start 120 40 "$2" 'Samples:|rc=' || return 1
	sleep 0.5
	keys a
	wait_screen '^Percent' || return 1
	sleep 0.3
	for k in $KEYS; do
		n=$((n + 1))
		keys "$k"
		shot "$1.$n"
	done
	tm kill-server
}

test_expect_success ROOT 'a recording of cpuburn' '
	"$SONDE" record -q -o rec.data "$BURN" 300 2>/dev/null &&
	"$PERF" annotate --stdio -i rec.data leaf >/dev/null 2>&1
'

test_expect_success ROOT 'report, a, then t p b l s: every screen is perf'"'"'s' '
	report_screens perf "$PERF report -i rec.data" &&
	report_screens sonde "$SONDE report -i rec.data" &&
	n=0 bad=0 &&
	for k in $KEYS; do
		n=$((n + 1))
		grep -q "│" "$SHOTS/perf.$n.txt" || { echo "perf screen $n is empty"; bad=1; }
		diff -u "$SHOTS/perf.$n.txt" "$SHOTS/sonde.$n.txt" || { echo "after key $n ($k)"; bad=1; }
	done &&
	test "$bad" = 0 &&
	grep -q "Percent: global hits" "$SHOTS/perf.5.txt" &&
	grep -Eq "^ +[0-9]+\.[0-9]+ │" "$SHOTS/perf.5.txt"
'

test_done
