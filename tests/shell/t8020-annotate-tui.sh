#!/bin/bash
# SPDX-License-Identifier: MIT
# sonde annotate's TUI through tmux: stdio's percentages, hot-line keys, o/J/s, jumps, and report's 'a'.
. "$(dirname "$0")/lib.sh"

BURN=$SONDE_WORKLOADS/cpuburn
. "$SONDE_ROOT/tests/shell/tui.sh"
TUI_ENV=NO_COLOR=1	# monochrome: the selection is reverse video
tui_setup t8020 'annotate TUI'
trap 'tui_kill; cd /; [ -n "$KEEP" ] || rm -rf "$TRASH"' EXIT

# pcts FILE: the percentages of the TUI rows ("NN.NN" before the bar), in order
pcts() { sed -nE 's/^ *([0-9]+\.[0-9]+) │.*/\1/p' "$1"; }

test_expect_success ROOT 'a recording of cpuburn, and annotate --stdio of leaf' '
	"$SONDE" record -q -o rec.data "$BURN" 300 2>/dev/null &&
	"$SONDE" annotate --stdio -i rec.data leaf >stdio.out 2>/dev/null &&
	sed -nE "s/^ +([0-9]+\.[0-9]+) : +[0-9a-f]+:.*/\1/p" stdio.out | grep -v "^0\.00$" >stdio.pcts &&
	test -s stdio.pcts &&
	sort -rn stdio.pcts | head -1 >hottest &&
	sort -rn stdio.pcts | sed -n 2p >second
'

test_expect_success ROOT 'open: perf'"'"'s title lines and the --stdio percentages, no selection yet' '
	tui_start 120 60 "$SONDE annotate -i rec.data leaf" &&
	shot open &&
	n=$(sed -nE "s/.*\(([0-9]+) samples, percent: local period\)$/\1/p" stdio.out) &&
	if [ "$n" -gt 1000 ]; then n="$((n / 1000))K"; else n="$n "; fi &&
	head -1 "$SHOTS/open.txt" | grep -Eq "^Samples: $n of event .cpu-clock[:a-zA-Z]*., [0-9]+ Hz, Event count \(approx.\): [0-9]+$" &&
	sed -n 2p "$SHOTS/open.txt" | grep -Eq "^leaf  /.*/cpuburn \[Percent: local period\]$" &&
	sed -n 3p "$SHOTS/open.txt" | grep -q "^Percent│" &&
	tail -1 "$SHOTS/open.txt" | grep -q "^Press .h. for help on key bindings" &&
	pcts "$SHOTS/open.txt" >tui.pcts &&
	test_cmp stdio.pcts tui.pcts &&
	test ! -s "$SHOTS/open.sel" &&
	grep -q "│ *↑ j[a-z]*  *[0-9a-f][0-9a-f]*$" "$SHOTS/open.txt" &&
	grep -q "│ *← ret" "$SHOTS/open.txt"
'

test_expect_success ROOT 'Down shows the hottest line selected; Tab the next hottest; shift-Tab and H back' '
	keys Down && shot first &&
	grep -q "^ *$(cat hottest) │" "$SHOTS/first.sel" &&
	keys Tab && shot tab &&
	grep -q "^ *$(cat second) │" "$SHOTS/tab.sel" &&
	keys BTab && shot btab &&
	grep -q "^ *$(cat hottest) │" "$SHOTS/btab.sel" &&
	keys Tab Down Down H && shot hot &&
	grep -q "^ *$(cat second) │" "$SHOTS/hot.sel"
'

test_expect_success ROOT 'o: raw addresses as --stdio prints them; J: jump counts; s: source off and on' '
	keys o && shot raw &&
	addr=$(grep -E "^ +$(cat second) : " stdio.out | sed -E "s/^[^:]*: +([0-9a-f]+):.*/\1/") &&
	grep -q "│$addr: " "$SHOTS/raw.txt" &&
	grep -Eq "│ *[0-9a-f]+: (↑|↓) j[a-z]+ +[0-9a-f]+ <leaf\+0x[0-9a-f]+>$" "$SHOTS/raw.txt" &&
	keys o J && shot counts &&
	grep -Eq "│[0-9] [0-9a-f]+: " "$SHOTS/counts.txt" &&
	keys J s && shot nosource &&
	! grep -q "for (int i" "$SHOTS/nosource.txt" &&
	pcts "$SHOTS/nosource.txt" >nosrc.pcts &&
	test_cmp stdio.pcts nosrc.pcts &&
	keys s && shot source &&
	grep -q "│ *for (int i = 0; i < 1000; i++)$" "$SHOTS/source.txt"
'

test_expect_success ROOT 'Enter on the backward jump selects its target; its box is drawn' '
	keys End &&
	for i in $(seq 40); do
		shot walk
		grep -q "↑ j\|└──j" "$SHOTS/walk.sel" && break
		keys Up
	done &&
	grep -q "└──j" "$SHOTS/walk.sel" &&
	grep -q "┌─→" "$SHOTS/walk.txt" &&
	target=$(sed -nE "s/.*└──j[a-z]+ +([0-9a-f]+)$/\1/p" "$SHOTS/walk.sel") &&
	keys Enter && shot follow &&
	grep -q "│$target:" "$SHOTS/follow.sel"
'

test_expect_success ROOT 'q: the terminal back, status 0' '
	keys q &&
	wait_screen "^rc=0" &&
	shot quit &&
	! grep -q "Percent│" "$SHOTS/quit.txt"
'

test_expect_success ROOT 'report TUI: a annotates the selected symbol, q returns, Enter menu, Left returns' '
	tui_start 120 60 "$SONDE report -i rec.data" &&
	keys Down Up a && shot report-a &&
	sed -n 2p "$SHOTS/report-a.txt" | grep -q "^leaf  /.*/cpuburn \[Percent: local period\]$" &&
	pcts "$SHOTS/report-a.txt" >report.pcts &&
	test_cmp stdio.pcts report.pcts &&
	keys q && shot report-back &&
	sed -n 2p "$SHOTS/report-back.txt" | grep -q "^Overhead  Command" &&
	keys Enter && shot report-menu &&
	grep -q "^Annotate leaf$" "$SHOTS/report-menu.txt" &&
	keys Enter && shot report-menu-a &&
	sed -n 2p "$SHOTS/report-menu-a.txt" | grep -q "^leaf  " &&
	keys Left && shot report-left &&
	sed -n 2p "$SHOTS/report-left.txt" | grep -q "^Overhead  Command" &&
	keys q &&
	wait_screen "^rc=0"
'

test_expect_success ROOT 'SIGTERM in the annotate TUI: the terminal is restored' '
	tui_start 100 20 "$SONDE annotate -i rec.data leaf" &&
	pid=$(pgrep -n -f "sonde annotate -i rec.data leaf") &&
	kill -TERM "$pid" &&
	wait_screen "^rc=143" &&
	shot sigterm &&
	! grep -q "Samples:" "$SHOTS/sigterm.txt"
'

test_expect_success ROOT '--tui without a terminal prints --stdio'"'"'s text (perf'"'"'s fallback)' '
	"$SONDE" annotate --tui -i rec.data leaf </dev/null >tui.out 2>/dev/null &&
	test_cmp stdio.out tui.out
'

test_expect_success ROOT '--stdio2: the browser'"'"'s lines as text, as perf prints them' '
	"$PERF" annotate --stdio2 -i rec.data leaf >perf2.out 2>/dev/null &&
	"$SONDE" annotate --stdio2 -i rec.data leaf >sonde2.out 2>/dev/null &&
	grep -q "^leaf() /" sonde2.out &&
	test_cmp perf2.out sonde2.out
'

test_done
