#!/bin/bash
# SPDX-License-Identifier: MIT
# report's TUI callchains folded node by node (+ e c E C, the menu's item) against perf report's, screen by screen.
. "$(dirname "$0")/lib.sh"
. "$SONDE_ROOT/tests/shell/tui.sh"

SHAPES=$SONDE_WORKLOADS/callshapes
tui_setup t8053 'report TUI callchain folding'
trap 'for s in "$SOCK".*; do tmux -S "$s" kill-server 2>/dev/null; done; cd /; rm -rf "$TRASH"' EXIT

# The keys, from the first line (the first moving key only shows the selection): the
# entries' first levels, an only child's frames and children folded apart, c on a
# chain line and on a row, e, E, C, the page keys, Enter's Collapse item on a chain line
KEYS_GRAPH="Down + Down + Down + Down + Down + Down + Up Up Up c c Down e Up Up Up Up Up c +
	Down Down Down Down Down Down Down Down Down + Enter Down Down Enter E PageDown Down c
	PageUp End Home C Down + Down + Down Down + c"
KEYS_CALLER="E Down Down Down Down + Down + PageDown Up Up c C Down Down + Down +"
KEYS_FRACTAL="E Down Down Down Down + Down c Down Down Down e C Down Down + Down Down +"
# flat and folded: no page keys (perf counts lines there it does not draw)
KEYS_FLAT="Down + Down + Down Down + Down Down + E Down + C Down Down + Down Down +"

# screens WHO ARGS KEYS: ARGS' report in a 120x40 pane, then one screen after each of KEYS
# into $SHOTS/WHO.N: the selected line marked '>' in a first column, trailing blanks, the
# scroll bar, the last line (perf's tips) and blank lines dropped, perf's menu items sonde
# does not have (map details, scripts, data files) left out
screens() {
	local s="$SOCK.$1" n=0 k i a prog=$SONDE

	case $1 in perf*) prog=$PERF ;; esac
	tmux -S "$s" new-session -d -s t -x 120 -y 40 \
		"cd $TRASH; LANG=C.UTF-8 LC_ALL= $prog report $2; sleep 120"
	for i in $(seq 100); do
		tmux -S "$s" capture-pane -p -t t | grep -q "^Samples:" && break
		sleep 0.1
	done
	sleep 0.5
	a=$(tmux -S "$s" capture-pane -p -e -t t)
	for k in $3; do
		n=$((n + 1))
		tmux -S "$s" send-keys -t t "$k"
		# until it has drawn
		a=$(tui_settle "$s" "$a")
		printf '%s\n' "$a" | sed '$d' | awk '{
			sel = index($0, "\033[103m") > 0 || index($0, "\033[7m") > 0
			gsub(/\033\[[0-9;]*m/, "")
			sub(/[ ▒◆]+$/, "")
			if ($0 ~ /^(Browse map details|Run scripts for (samples of symbol \[.*\]|all samples)|Switch to another data file in PWD)$/)
				next
			if ($0 != "")
				print (sel ? ">" : " ") $0
		}' >"$SHOTS/$1.$n"
	done
	tmux -S "$s" kill-server
	[ -z "$SONDE_TEST_ARTEFACTS" ] || cp "$SHOTS/$1".* "$SONDE_TEST_ARTEFACTS/"
}

# same NAME ARGS KEYS: perf's and sonde's screens (both run at once) alike after every key
same() {
	local n=0 bad=0 k nk

	(screens "perf-$1" "$2" "$3" &)
	screens "sonde-$1" "$2" "$3"
	nk=$(echo $3 | wc -w)
	for k in $(seq 300); do
		[ -e "$SHOTS/perf-$1.$nk" ] && ! tmux -S "$SOCK.perf-$1" has-session 2>/dev/null && break
		sleep 0.2
	done
	for k in $3; do
		n=$((n + 1))
		test -s "$SHOTS/perf-$1.$n" || { echo "perf screen $n is empty"; bad=1; }
		diff -u "$SHOTS/perf-$1.$n" "$SHOTS/sonde-$1.$n" || { echo "after key $n ($k)"; bad=1; }
	done
	return $bad
}

test_expect_success ROOT,PERF 'a recording of call trees of every shape' '
	"$SONDE" record -q -g -o rec.data "$SHAPES" 600 2>/dev/null &&
	"$PERF" report --stdio -i rec.data >perf.out 2>/dev/null &&
	grep -q -- "--bmid" perf.out
'

test_expect_success ROOT,PERF 'graph (children): + e c E C and the menu on chain lines fold as perf'"'"'s do' '
	same graph "-i rec.data" "$KEYS_GRAPH" &&
	# what the keys went through: a row opened, an only child'"'"'s two markers, the menu item
	grep -q "^>-  *[0-9.]*% " "$SHOTS/perf-graph.2" &&
	cat "$SHOTS"/perf-graph.* | grep -Eq "^ *- ([0-9.]+% )?bmid$" &&
	cat "$SHOTS"/perf-graph.* | grep -q "^ *[-+] cmid$" &&
	cat "$SHOTS"/perf-graph.* | grep -q "^.Collapse \[.*\] callchain (one level"
'

test_expect_success ROOT,PERF 'graph, --no-children -g caller: perf'"'"'s screens' '
	same caller "--no-children -g caller -i rec.data" "$KEYS_CALLER"
'

test_expect_success ROOT,PERF 'fractal: percents of the parent, perf'"'"'s screens' '
	same fractal "-g fractal -i rec.data" "$KEYS_FRACTAL"
'

test_expect_success ROOT,PERF 'flat and folded: a path a line, its frames folded under it, as perf'"'"'s' '
	same flat "-g flat -i rec.data" "$KEYS_FLAT" &&
	same folded "-g folded -i rec.data" "$KEYS_FLAT" &&
	cat "$SHOTS"/perf-folded.* | grep -q "^ *[-+] [0-9.]*% [^ ]*;[^ ]*$"
'

test_done
