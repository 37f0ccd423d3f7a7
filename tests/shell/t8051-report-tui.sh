#!/bin/bash
# SPDX-License-Identifier: MIT
# sonde report's TUI driven through tmux: open, expand a chain, filter, zoom, print, chooser, quit.
. "$(dirname "$0")/lib.sh"

BURN=$SONDE_WORKLOADS/cpuburn
. "$SONDE_ROOT/tests/shell/tui.sh"
TUI_STRIP=' ◆▒'	# and the scroll bar
TUI_READY='Samples:|Available samples|rc='
tui_setup t8051 'report TUI'
trap 'tui_kill; cd /; rm -rf "$TRASH"' EXIT

test_expect_success ROOT 'a small recording with callchains, and its --stdio report' '
	"$SONDE" record -q -g -o rec.data "$BURN" 300 2>/dev/null &&
	"$SONDE" record -q -e cpu-clock -e task-clock -o two.data "$BURN" 200 2>/dev/null &&
	"$SONDE" report --stdio -i rec.data >stdio.out 2>/dev/null &&
	grep -E "^ +[0-9]+\.[0-9]+%  " stdio.out | cut -c3- >stdio.rows &&
	"$SONDE" report --stdio -i rec.data --symbol-filter leaf 2>/dev/null |
		grep -E "^ +[0-9]+\.[0-9]+%  " | cut -c3- >stdio.leaf &&
	test -s stdio.rows
'

test_expect_success ROOT 'open: the header and the first screen of rows are stdio'"'"'s' '
	tui_start 120 30 "$SONDE report -i rec.data" &&
	shot open &&
	n=$(sed -nE "s/^# Samples: ([0-9]+[KMG ]) of event .*/\1/p" stdio.out) &&
	ev=$(sed -nE "s/^# Samples: [0-9]+[KMG ] of event (.*)/\1/p" stdio.out) &&
	cnt=$(sed -nE "s/^# Event count \(approx.\): //p" stdio.out) &&
	echo "Samples: $n of event $ev, Event count (approx.): $cnt" >expect.head &&
	head -1 "$SHOTS/open.txt" >actual.head &&
	test_cmp expect.head actual.head &&
	sed -n 2p "$SHOTS/open.txt" | grep -q "^  Children      Self  Command  Shared Object" &&
	sed -n "3,29p" "$SHOTS/open.txt" | grep -E "^[+ -] " | cut -c3- >tui.rows &&
	head -n "$(wc -l <tui.rows)" stdio.rows >expect.rows &&
	test -s tui.rows &&
	test_cmp expect.rows tui.rows &&
	tail -1 "$SHOTS/open.txt" | grep -q "Press .?. for help on key bindings"
'

test_expect_success ROOT 'Down Down, Enter: perf'"'"'s menu for the second entry; its Expand item unfolds one level' '
	# the first moving key only shows the selection (perf'"'"'s), the second moves it
	keys Down Down Enter &&
	shot menu &&
	sed -n 1p "$SHOTS/menu.txt" | grep -qx "" &&
	grep -qE "^Zoom into cpuburn thread$" "$SHOTS/menu.txt" &&
	grep -qE "^Zoom into .* DSO \(use the .k. hotkey to zoom directly into the kernel\)$" "$SHOTS/menu.txt" &&
	grep -q "^Expand \[.*\] callchain (one level, same as .+. hotkey" "$SHOTS/menu.txt" &&
	grep -qx "Exit" "$SHOTS/menu.txt" &&
	tail -1 "$SHOTS/menu.txt" | grep -qx "ESC: exit, ENTER|->: Select option" &&
	n=$(grep -n "^Expand" "$SHOTS/menu.txt" | cut -d: -f1) &&
	for i in $(seq 3 "$n"); do keys Down; done &&
	keys Enter &&
	shot expand &&
	sed -n 4p "$SHOTS/expand.txt" | grep -q "^- " &&
	sed -n 3p "$SHOTS/expand.txt" | grep -q "^+ " &&
	sed -n "5,\$p" "$SHOTS/expand.txt" | sed "/^[+ -]  *[0-9.]*%  /,\$d" >chain &&
	test -s chain &&
	# one level unfolded: its first frame in column 5 (a marker in column 3), nothing open below
	head -1 chain | grep -q "^   [+ ] [^ ]" &&
	! grep -q "^ *- " chain &&
	keys c &&
	shot collapse &&
	sed -n 4p "$SHOTS/collapse.txt" | grep -q "^+ "
'

test_expect_success ROOT '/ leaf: only entries whose symbol has leaf in it (perf: a substring; the kernel may have one)' '
	keys / &&
	shot filter-box &&
	grep -q "Symbol to show" "$SHOTS/filter-box.txt" &&
	grep -q "Please enter the name of symbol you want to see." "$SHOTS/filter-box.txt" &&
	keys l e a f Enter &&
	shot filtered &&
	sed -n "3,\$p" "$SHOTS/filtered.txt" | grep -E "^[+ -] .*%" >rows &&
	test -s rows &&
	grep -q "\[\.\] leaf\$" rows &&
	! grep -v "\] [^ ]*leaf[^ ]*\$" rows &&
	cut -c3- rows >tui.leaf &&
	test_cmp stdio.leaf tui.leaf
'

test_expect_success ROOT 'Esc zooms out, t zooms into the thread (header names it), d into the DSO' '
	keys Escape &&
	shot unfiltered &&
	test "$(sed -n "3,\$p" "$SHOTS/unfiltered.txt" | grep -cE "^[+ -] .*%")" = "$(head -n 27 stdio.rows | wc -l)" &&
	keys t &&
	shot thread &&
	head -1 "$SHOTS/thread.txt" | grep -q ", Thread: cpuburn$" &&
	! sed -n "3,\$p" "$SHOTS/thread.txt" | grep -E "^[+ -] .*%" | grep -v "  cpuburn  " &&
	keys d &&
	shot dso &&
	head -1 "$SHOTS/dso.txt" | grep -q ", Thread: cpuburn, DSO: " &&
	! sed -n 2p "$SHOTS/dso.txt" | grep -q "Shared Object" &&
	keys Escape
'

test_expect_success ROOT 'h shows the help window, a key closes it' '
	keys h &&
	shot help &&
	grep -q "Print histograms to perf.hist.N" "$SHOTS/help.txt" &&
	grep -q "Zoom into current Thread" "$SHOTS/help.txt" &&
	keys x &&
	shot after-help &&
	! grep -q "Print histograms" "$SHOTS/after-help.txt"
'

test_expect_success ROOT 'P prints the browser'"'"'s lines to perf.hist.0' '
	rm -f perf.hist.* &&
	keys P &&
	test -f perf.hist.0 &&
	grep -E "^[+ -] .*%" perf.hist.0 | cut -c3- >hist.rows &&
	test_cmp stdio.rows hist.rows
'

test_expect_success ROOT 'q quits with status 0 and the terminal back as it was' '
	keys q &&
	wait_screen "^rc=0" &&
	shot quit &&
	! grep -q "Samples:" "$SHOTS/quit.txt"
'

test_expect_success ROOT 'several events: the Available samples chooser, Enter browses one, q goes back' '
	tui_start 100 20 "$SONDE report -i two.data" &&
	shot chooser &&
	head -1 "$SHOTS/chooser.txt" | grep -qx "Available samples" &&
	sed -n 2p "$SHOTS/chooser.txt" | grep -qE "^[0-9]+ cpu-clock$" &&
	sed -n 3p "$SHOTS/chooser.txt" | grep -qE "^[0-9]+ task-clock$" &&
	tail -1 "$SHOTS/chooser.txt" | grep -qx "ESC: exit, ENTER|->: Browse histograms" &&
	keys Down Enter &&
	shot second-event &&
	head -1 "$SHOTS/second-event.txt" | grep -q "of event .task-clock." &&
	keys q &&
	shot back &&
	head -1 "$SHOTS/back.txt" | grep -qx "Available samples" &&
	keys q &&
	wait_screen "^rc=0"
'

test_expect_success ROOT 'a terminal too small: a clear message and status 255' '
	tui_start 30 4 "$SONDE report -i rec.data" &&
	wait_screen "^rc=" &&
	shot too-small &&
	grep -q "rc=255" "$SHOTS/too-small.txt" &&
	tm capture-pane -p -t t -J -S -20 | tr -d "\n" | grep -q "terminal is too small"
'

test_expect_success ROOT 'SIGTERM: the terminal is restored before the process ends' '
	tui_start 100 20 "$SONDE report -i rec.data" &&
	pid=$(pgrep -n -f "sonde report -i rec.data") &&
	kill -TERM "$pid" &&
	wait_screen "^rc=143" &&
	shot sigterm &&
	! grep -q "Samples:" "$SHOTS/sigterm.txt"
'

test_expect_success ROOT 'colours: perf'"'"'s red from 5%; TERM=vt100 falls back to monochrome' '
	tui_start 100 20 "$SONDE report -i rec.data" &&
	tm capture-pane -p -e -t t >"$SHOTS/colour.raw" &&
	grep -q "$(printf "\033\\[31m")" "$SHOTS/colour.raw" &&
	keys q &&
	tui_start 100 20 "TERM=vt100 $SONDE report -i rec.data" &&
	tm capture-pane -p -e -t t >"$SHOTS/mono.raw" &&
	! grep -q "$(printf "\033\\[3[0-7]m")" "$SHOTS/mono.raw" &&
	grep -q "$(printf "\033\\[7m")" "$SHOTS/mono.raw" &&
	grep -q "Samples:" "$SHOTS/mono.raw" &&
	keys q &&
	wait_screen "^rc=0"
'

test_expect_success ROOT '--stdio on a terminal prints text; --tui without a terminal prints it too (perf'"'"'s fallback)' '
	tui_start 100 20 "$SONDE report --stdio -i rec.data | head -3" &&
	wait_screen "^rc=" &&
	shot forced-stdio &&
	grep -q "^# To display the perf.data header info" "$SHOTS/forced-stdio.txt" &&
	"$SONDE" report --tui -i rec.data >tui.out 2>/dev/null &&
	grep -v "^# (Tip:" tui.out >tui.norm &&
	grep -v "^# (Tip:" stdio.out >stdio.norm &&
	test_cmp stdio.norm tui.norm
'

test_done
