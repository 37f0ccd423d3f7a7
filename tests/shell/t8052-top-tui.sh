#!/bin/bash
# SPDX-License-Identifier: MIT
# sonde top on a terminal (tmux): the report browser refreshed live, K hides kernel rows, q quits.
. "$(dirname "$0")/lib.sh"

BURN=$SONDE_WORKLOADS/cpuburn
SOCK=$TRASH/tmux.sock

if ! command -v tmux >/dev/null; then
	test_skip 'top TUI through tmux' 'tmux is not installed'
	test_done
	exit 0
fi

tm() { tmux -S "$SOCK" "$@"; }
trap 'tm kill-server 2>/dev/null; [ -f "$TRASH/burn.pid" ] && kill "$(cat "$TRASH/burn.pid")" 2>/dev/null; cd /; rm -rf "$TRASH"' EXIT

# wait_screen REGEX: until the pane shows REGEX (8 s at most)
wait_screen() {
	local i
	for i in $(seq 80); do
		tm capture-pane -p -t t | grep -Eq -- "$1" && return 0
		sleep 0.1
	done
	echo "screen never showed: $1"
	tm capture-pane -p -t t
	return 1
}

shot() {
	sleep 0.3
	tm capture-pane -p -t t | sed -E 's/[ ◆▒]+$//' >"$TRASH/$1.txt"
	[ -z "$SONDE_TEST_ARTEFACTS" ] || cp "$TRASH/$1.txt" "$SONDE_TEST_ARTEFACTS/t8052-$1.txt"
}

test_expect_success ROOT 'top on a terminal: perf top'"'"'s title and hint line, the browser'"'"'s rows, the workload'"'"'s symbol' '
	"$BURN" 15000 >/dev/null 2>&1 &
	echo $! >burn.pid
	tm new-session -d -s t -x 120 -y 30 \
		"LANG=C.UTF-8 LC_ALL= $SONDE top -d 1 -p $(cat burn.pid); echo rc=\$?; sleep 30" &&
	wait_screen "%  cpuburn +\[\.\] leaf" &&
	shot live &&
	head -1 "$TRASH/live.txt" |
		grep -qE "^Samples: [0-9]+[KMG ] of event .[a-z-]+(:[a-zA-Z]+)?., 4000 Hz, Event count \(approx.\): [0-9]+ lost: [0-9]+/[0-9]+ drop: 0/0$" &&
	sed -n 2p "$TRASH/live.txt" | grep -qE "^Overhead  Shared Object +Symbol" &&
	tail -1 "$TRASH/live.txt" | grep -qx "For a higher level overview, try: sonde top --sort comm,dso"
'

test_expect_success ROOT 'U hides the user rows at once, U again shows them' '
	tm send-keys -t t U && sleep 0.5 &&
	shot hide-user &&
	! sed -n "3,\$p" "$TRASH/hide-user.txt" | grep -F "[.] " &&
	tm send-keys -t t U &&
	wait_screen "%  cpuburn +\[\.\] leaf"
'

test_expect_success ROOT 'q quits with status 0, the terminal restored' '
	tm send-keys -t t q &&
	wait_screen "^rc=0" &&
	shot quit &&
	! grep -q PerfTop "$TRASH/quit.txt" &&
	kill "$(cat burn.pid)" 2>/dev/null || true
'

test_done
