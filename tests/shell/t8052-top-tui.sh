#!/bin/bash
# SPDX-License-Identifier: MIT
# sonde top on a terminal (tmux): the report browser refreshed live, K hides kernel rows, q quits.
. "$(dirname "$0")/lib.sh"

BURN=$SONDE_WORKLOADS/cpuburn
. "$SONDE_ROOT/tests/shell/tui.sh"
TUI_STRIP=' ◆▒'	# and the scroll bar
tui_setup t8052 'top TUI'
trap 'tui_kill; [ -f "$TRASH/burn.pid" ] && kill "$(cat "$TRASH/burn.pid")" 2>/dev/null; cd /; rm -rf "$TRASH"' EXIT

test_expect_success ROOT 'top on a terminal: perf top'"'"'s title and hint line, the browser'"'"'s rows, the workload'"'"'s symbol' '
	"$BURN" 15000 >/dev/null 2>&1 &
	echo $! >burn.pid
	tui_start 120 30 "$SONDE top -d 1 -p $(cat burn.pid)" &&
	wait_screen "%  cpuburn +\[\.\] leaf" 80 &&
	shot live &&
	head -1 "$SHOTS/live.txt" |
		grep -qE "^Samples: [0-9]+[KMG ] of event .[a-z-]+(:[a-zA-Z]+)?., 4000 Hz, Event count \(approx.\): [0-9]+ lost: [0-9]+/[0-9]+ drop: 0/0$" &&
	sed -n 2p "$SHOTS/live.txt" | grep -qE "^Overhead  Shared Object +Symbol" &&
	tail -1 "$SHOTS/live.txt" | grep -qx "For a higher level overview, try: sonde top --sort comm,dso"
'

test_expect_success ROOT 'U hides the user rows at once, U again shows them' '
	tm send-keys -t t U && sleep 0.5 &&
	shot hide-user &&
	! sed -n "3,\$p" "$SHOTS/hide-user.txt" | grep -F "[.] " &&
	tm send-keys -t t U &&
	wait_screen "%  cpuburn +\[\.\] leaf" 80
'

test_expect_success ROOT 'a annotates the selected symbol from the live samples; q goes back' '
	tm send-keys -t t Home && sleep 0.3 &&
	tm send-keys -t t a &&
	wait_screen "^leaf  .*/cpuburn \[Percent: local period\]" 80 &&
	shot annotate &&
	head -1 "$SHOTS/annotate.txt" |
		grep -qE "^Samples: [0-9]+[KMG ] of event .[a-z-]+(:[a-zA-Z]+)?., 4000 Hz, Event count \(approx.\): [0-9]+$" &&
	grep -q "<leaf>:" "$SHOTS/annotate.txt" &&
	grep -qE "^ +[0-9]+\.[0-9]+ │" "$SHOTS/annotate.txt" &&
	tm send-keys -t t q &&
	wait_screen "%  cpuburn +\[\.\] leaf" 80
'

test_expect_success ROOT 'q quits with status 0, the terminal restored' '
	tm send-keys -t t q &&
	wait_screen "^rc=0" &&
	shot quit &&
	! grep -q PerfTop "$SHOTS/quit.txt"
'

test_done
