#!/bin/bash
# SPDX-License-Identifier: MIT
# report's and annotate's TUI script menus (r), report's Enter menu (map details, script runs, data file switch) against perf's.
. "$(dirname "$0")/lib.sh"

BURN=$SONDE_WORKLOADS/cpuburn
. "$SONDE_ROOT/tests/shell/tui.sh"
TUI_STRIP=' ◆▒'	# and the scroll bar
TUI_READY='Samples:|Available samples|rc='
TUI_ENV=NO_COLOR=1
tui_setup t8023 'report/annotate TUI scripts'
trap 'tui_kill; cd /; [ -n "$KEEP" ] || rm -rf "$TRASH"' EXIT

# menu_items SHOT: the menu's items (rows 2.. up to the first empty one)
menu_items() { sed -n '2,$p' "$SHOTS/$1.txt" | sed '/^$/,$d'; }

# pick ITEM: Down to the menu line ITEM of the current screen, Enter
pick() {
	local n i
	tm capture-pane -p -t t | sed -E "s/[$TUI_STRIP]+\$//" >"$TRASH/cur.txt"
	n=$(grep -nxF -- "$1" "$TRASH/cur.txt" | head -1 | cut -d: -f1)
	[ -n "$n" ] || { echo "no menu item: $1"; cat "$TRASH/cur.txt"; return 1; }
	for i in $(seq 3 "$n"); do tm send-keys -t t Down; sleep 0.05; done
	keys Enter
}

# wrapped FILE: FILE as a 120-column pager shows its first screen (29 lines)
wrapped() { fold -w 120 "$1" | head -29 | sed -E 's/ +$//'; }

test_expect_success ROOT 'a recording of cpuburn, its scripts and the builtins sonde has' '
	"$SONDE" record -q -e cpu-clock -o rec.data "$BURN" 300 2>/dev/null &&
	"$SONDE" script -l | sed -nE "s/^  ([^ ]+).*/\1/p" >builtins &&
	grep -qx flamegraph builtins &&
	"$SONDE" script -F +metric --inline -i rec.data >all.out 2>&1 &&
	"$SONDE" script -F +metric --inline -S leaf -i rec.data >leaf.out 2>&1 &&
	"$SONDE" script -F comm,tid -i rec.data >custom.out 2>&1 &&
	test -s leaf.out
'

# the r menu of WHO (perf or sonde) on rec.data: its items into WHO-r; for perf only the
# scripts sonde ships (perf lists those of its install, export-to-postgresql too)
r_menu() {
	tui_start 120 30 "$2 report -i rec.data" &&
	keys r &&
	shot "$1-r" &&
	menu_items "$1-r" >"$1-r.all" &&
	head -4 "$1-r.all" >"$1-r.items" &&
	sed 1,4d "$1-r.all" | grep -xFf builtins >>"$1-r.items"
	tail -1 "$SHOTS/$1-r.txt" >"$1-r.hint"
}

test_expect_success ROOT 'r: perf'"'"'s menu (the Show entries, the scripts that apply, its hint)' '
	r_menu perf "$PERF" &&
	r_menu sonde "$SONDE" &&
	cat >expect.head <<-\EOF &&
	Show individual samples
	Show individual samples with assembler
	Show individual samples with source
	Show samples with custom perf script arguments
	EOF
	head -4 sonde-r.items >actual.head &&
	test_cmp expect.head actual.head &&
	test_cmp perf-r.items sonde-r.items &&
	test_cmp sonde-r.items sonde-r.all &&
	grep -qx flamegraph sonde-r.items &&
	echo "ESC: exit, ENTER|->: Select option" >expect.hint &&
	test_cmp expect.hint sonde-r.hint &&
	test_cmp perf-r.hint sonde-r.hint
'

test_expect_success ROOT 'Show individual samples: sonde script'"'"'s output in a pager, q back to the histogram' '
	keys Enter &&
	wait_screen "cpu-clock" &&
	shot samples &&
	head -29 "$SHOTS/samples.txt" >shown &&
	wrapped all.out >expect.shown &&
	test_cmp expect.shown shown &&
	sed -n 30p "$SHOTS/samples.txt" | grep -qx ":" &&
	keys q &&
	shot back &&
	head -1 "$SHOTS/back.txt" | grep -q "^Samples: " &&
	tail -1 "$SHOTS/back.txt" | grep -q "Press .?. for help on key bindings"
'

test_expect_success ROOT 'custom arguments: perf'"'"'s input box, the run with those arguments' '
	keys r &&
	pick "Show samples with custom perf script arguments" &&
	tm send-keys -t t -l -- "-F comm,tid" &&
	shot sonde-box &&
	tui_start 120 30 "$PERF report -i rec.data" &&
	keys r &&
	pick "Show samples with custom perf script arguments" &&
	tm send-keys -t t -l -- "-F comm,tid" &&
	shot perf-box &&
	sed -n "11,19p" "$SHOTS/perf-box.txt" >perf.box &&
	sed -n "11,19p" "$SHOTS/sonde-box.txt" >sonde.box &&
	grep -q "perf script command" sonde.box &&
	grep -q "Enter perf script command line (without perf script prefix)" sonde.box &&
	grep -q "│ │-F comm,tid  *│ │" sonde.box &&
	test_cmp perf.box sonde.box &&
	tui_start 120 30 "$SONDE report -i rec.data" &&
	keys r &&
	pick "Show samples with custom perf script arguments" &&
	tm send-keys -t t -l -- "-F comm,tid" &&
	keys Enter &&
	shot custom &&
	head -29 "$SHOTS/custom.txt" >shown &&
	wrapped custom.out >expect.shown &&
	test_cmp expect.shown shown &&
	keys q
'

# enter_menu WHO CMD: the Enter menu on leaf'"'"'s row (after / leaf) into WHO-enter
enter_menu() {
	tui_start 120 30 "$2 report -i rec.data" &&
	keys / && keys l e a f Enter &&
	keys Enter &&
	shot "$1-enter" &&
	menu_items "$1-enter" >"$1-enter.items"
}

test_expect_success ROOT 'Enter: perf'"'"'s menu, in its order' '
	enter_menu perf "$PERF" &&
	enter_menu sonde "$SONDE" &&
	grep -qx "Annotate leaf" sonde-enter.items &&
	grep -qx "Browse map details" sonde-enter.items &&
	grep -qx "Run scripts for samples of symbol \[leaf\]" sonde-enter.items &&
	grep -qx "Run scripts for all samples" sonde-enter.items &&
	grep -qx "Switch to another data file in PWD" sonde-enter.items &&
	test_cmp perf-enter.items sonde-enter.items
'

test_expect_success ROOT 'Run scripts for samples of symbol: only leaf'"'"'s samples (script -S leaf)' '
	pick "Run scripts for samples of symbol [leaf]" &&
	shot sym-r &&
	menu_items sym-r | head -1 | grep -qx "Show individual samples" &&
	keys Enter &&
	wait_screen "cpu-clock" &&
	shot sym-samples &&
	head -29 "$SHOTS/sym-samples.txt" >shown &&
	wrapped leaf.out >expect.shown &&
	test_cmp expect.shown shown &&
	! grep -v " leaf+0x" leaf.out &&
	keys q &&
	shot sym-back &&
	head -1 "$SHOTS/sym-back.txt" | grep -q "^Samples: "
'

test_expect_success ROOT '-s pid,dso,sym: the thread items; the thread'"'"'s samples (script -c COMM)' '
	"$SONDE" script -F +metric --inline -c cpuburn -i rec.data >thread.out 2>&1 &&
	for who in perf sonde; do
		cmd=$SONDE; [ $who = perf ] && cmd=$PERF
		tui_start 120 30 "$cmd report -s pid,dso,sym -i rec.data" &&
		keys Enter &&
		shot $who-pid-enter &&
		menu_items $who-pid-enter >$who-pid.items || return 1
	done &&
	grep -qx "Run scripts for samples of thread \[cpuburn\]" sonde-pid.items &&
	grep -Eqx "Zoom into cpuburn\([0-9]+\) thread" sonde-pid.items &&
	test_cmp perf-pid.items sonde-pid.items &&
	pick "Run scripts for samples of thread [cpuburn]" &&
	keys Enter &&
	wait_screen "cpu-clock" &&
	shot thread-samples &&
	head -29 "$SHOTS/thread-samples.txt" >shown &&
	wrapped thread.out >expect.shown &&
	test_cmp expect.shown shown &&
	keys q
'

test_expect_success ROOT 'Browse map details: the dso'"'"'s symbols as perf lists them, Esc back' '
	for who in perf sonde; do
		cmd=$SONDE; [ $who = perf ] && cmd=$PERF
		enter_menu $who "$cmd" &&
		pick "Browse map details" &&
		shot $who-map &&
		keys End &&
		shot $who-map-end &&
		keys Escape &&
		shot $who-map-back || return 1
	done &&
	head -1 "$SHOTS/sonde-map.txt" | grep -q "/cpuburn$" &&
	grep -Eq "^ *[0-9a-f]+ +[0-9a-f]+ [gl] leaf$" "$SHOTS/sonde-map.txt" "$SHOTS/sonde-map-end.txt" &&
	tail -1 "$SHOTS/sonde-map.txt" | grep -qx "Press ESC to exit, restart with -v to use / to search" &&
	test_cmp "$SHOTS/perf-map.txt" "$SHOTS/sonde-map.txt" &&
	test_cmp "$SHOTS/perf-map-end.txt" "$SHOTS/sonde-map-end.txt" &&
	head -1 "$SHOTS/sonde-map-back.txt" | grep -q "^Samples: "
'

test_expect_success ROOT 'Switch to another data file in PWD: perf'"'"'s list, the chosen file opens' '
	cp rec.data a.data &&
	"$SONDE" record -q -e task-clock -o perf.data.two "$BURN" 100 2>/dev/null &&
	echo "not a perf.data" >perf.data.txt &&
	for who in perf sonde; do
		cmd=$SONDE; [ $who = perf ] && cmd=$PERF
		tui_start 120 30 "$cmd report -i rec.data" &&
		keys Enter &&
		pick "Switch to another data file in PWD" &&
		shot $who-files || return 1
	done &&
	menu_items sonde-files >sonde.files &&
	menu_items perf-files >perf.files &&
	grep -qx perf.data.two sonde.files &&
	! grep -qx perf.data.txt sonde.files &&
	test_cmp perf.files sonde.files &&
	pick perf.data.two &&
	wait_screen "task-clock" &&
	shot switched &&
	head -1 "$SHOTS/switched.txt" | grep -q "^Samples: .* of event .task-clock" &&
	keys q &&
	wait_screen "^rc=0"
'

test_expect_success ROOT 'annotate'"'"'s r: the same menu, its samples shown, q back to the annotation' '
	tui_start 120 30 "$SONDE annotate -i rec.data leaf" "Percent|rc=" &&
	keys r &&
	shot ann-r &&
	menu_items ann-r >ann-r.items &&
	test_cmp sonde-r.items ann-r.items &&
	keys Enter &&
	wait_screen "cpu-clock" &&
	shot ann-samples &&
	head -29 "$SHOTS/ann-samples.txt" >shown &&
	wrapped all.out >expect.shown &&
	test_cmp expect.shown shown &&
	keys q &&
	shot ann-back &&
	sed -n 2p "$SHOTS/ann-back.txt" | grep -q "^leaf  " &&
	keys q &&
	wait_screen "^rc=0"
'

test_expect_success ROOT,TRACEFS 'a file with sched tracepoints: wakeup-latency first, as perf lists it' '
	"$SONDE" record -q -e sched:sched_switch -e sched:sched_wakeup -o sched.data \
		sh -c "sleep 0.01; sleep 0.01" 2>/dev/null &&
	for who in perf sonde; do
		cmd=$SONDE; [ $who = perf ] && cmd=$PERF
		tui_start 120 30 "$cmd report -i sched.data" &&
		if tm capture-pane -p -t t | grep -q "^Available samples"; then keys Enter; fi &&
		keys r &&
		shot $who-sched-r &&
		menu_items $who-sched-r | sed 1,4d | grep -xFf builtins >$who-sched.items || return 1
	done &&
	head -1 sonde-sched.items | grep -qx wakeup-latency &&
	test_cmp perf-sched.items sonde-sched.items
'

test_done
