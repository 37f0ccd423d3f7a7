#!/bin/bash
# SPDX-License-Identifier: MIT
# sonde top: symbol tables load in the background; frames keep their -d pace, addresses become symbols.
. "$(dirname "$0")/lib.sh"

BURN=$SONDE_WORKLOADS/cpuburn
# every (non-kernel) symbol table takes this long to load: a slow disk or a
# huge binary, as far as the refresh is concerned (machine.c's test hook)
DELAY_MS=1500

start_burn() {
	"$BURN" 30000 >/dev/null 2>&1 &
	echo $! >burn.pid
}
stop_burn() {
	kill "$(cat burn.pid)" 2>/dev/null || true
	wait "$(cat burn.pid)" 2>/dev/null || true
}

# stamp: copy stdin to stdout, a "T <seconds>" line before each frame's header
stamp() {
	local l
	while IFS= read -r l; do
		case $l in *PerfTop:*) echo "T $EPOCHREALTIME" ;; esac
		printf '%s\n' "$l"
	done
}

# lazy_run SECS OPTS...: sonde top --stdio -d 1 -p BURN with slow symbol
# loads for SECS seconds into top.out (frames time-stamped); status in top.rc
lazy_run() {
	local secs=$1 pid spid rc=0
	shift
	rm -f top.fifo && mkfifo top.fifo
	stamp <top.fifo >top.out &
	spid=$!
	SONDE_TEST_SYMBOL_DELAY_MS=$DELAY_MS "$SONDE" top --stdio -d 1 -p "$(cat burn.pid)" "$@" \
		>top.fifo 2>top.err </dev/null &
	pid=$!
	sleep "$secs"
	interrupt $pid
	wait $pid || rc=$?
	wait $spid
	echo $rc >top.rc
}

# frame N FILE: the lines of frame N (1: the first header)
frame() {
	awk -v n="$1" '/PerfTop:/ { f++ } f == n' "$2"
}

# gaps_ok MAX FILE: at least 5 frames, none later than MAX s after the one before
gaps_ok() {
	awk -v max="$1" '/^T / { if (n++ && $2 - last > max) { printf "frame %d came %.2f s after the one before\n", n, $2 - last; bad = 1 } last = $2 }
		END { if (n < 5) { print "only " n " frames"; bad = 1 } exit bad }' "$2"
}

dump() {
	echo "--- status $(cat top.rc 2>/dev/null), stderr:"
	cat top.err
	echo "--- frames:"
	grep -E "^T |%  " top.out | cut -c1-100 | head -60
	return 1
}

test_expect_success ROOT 'top: a slow symbol table does not hold the refresh; addresses first, then the symbol' '
	start_burn
	lazy_run 8 -E 8
	stop_burn
	{ test "$(cat top.rc)" = 0 &&
	# a load in the sample path would hold a frame for the whole load (2.5 s apart)
	gaps_ok 2.0 top.out &&
	# frame 2 (1 s in): the workload sampled, its table not there yet
	frame 2 top.out >early &&
	test_grep "^ +[0-9.]+%  cpuburn +\[\.\] 0x[0-9a-f]{16}$" early &&
	! grep -q "\] leaf$" early &&
	# the last frame: the address rows became the symbol, none is left
	frame "$(grep -c PerfTop: top.out)" top.out >last &&
	test_grep "^ +[0-9.]+%  cpuburn +\[\.\] leaf$" last &&
	! grep -E "cpuburn +\[\.\] 0x" last; } || dump
'

test_expect_success ROOT 'top -g: children entries of the addresses merge into the symbol, counted once' '
	start_burn
	lazy_run 8 -g -E 12
	stop_burn
	{ test "$(cat top.rc)" = 0 &&
	gaps_ok 2.0 top.out &&
	frame 2 top.out >early &&
	test_grep "cpuburn +\[\.\] 0x[0-9a-f]{16}$" early &&
	frame "$(grep -c PerfTop: top.out)" top.out >last &&
	grep -E "^ +[0-9.]+% +[0-9.]+%  cpuburn +\[\.\] leaf$" last >leaf &&
	test -s leaf &&
	# children of leaf: the samples in it, at most all of them (not self and chain twice)
	awk "{ if (\$1 + 0 > 100.0) { print \"leaf over 100%: \" \$0; exit 1 } }" leaf &&
	! grep -E "^ +[0-9.]+% .*cpuburn +\[\.\] 0x" last; } || dump
'

test_done
