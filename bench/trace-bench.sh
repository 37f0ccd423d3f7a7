#!/bin/bash
# SPDX-License-Identifier: MIT
# Cost of tracing: dd bs=1 count=100k (200k cheap syscalls) bare, under
# sonde trace -e accept (nothing selected fires), perf trace -e accept and
# strace -e accept; then every syscall traced to a file (-o). Prints median
# wall times, the slowdown against bare, each tracer's start-up (on `true`)
# and the marginal slowdown (start-up taken out).
# Usage: bash bench/trace-bench.sh   (root; SONDE=... picks a build, RUNS=5)
. "$(dirname "$0")/lib.sh"

RUNS=${RUNS:-5}
DD="dd if=/dev/zero of=/dev/null bs=1 count=100k"
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

[ -x "$SONDE" ] || { echo "trace-bench: $SONDE not built (make)"; exit 1; }
[ "$(id -u)" = 0 ] || { echo "trace-bench: skipped: needs root"; exit 0; }

# med CMD: median wall time in ms of RUNS runs
med() {
	local i
	for ((i = 0; i < RUNS; i++)); do
		run_once "$1" | awk '{ print $1 }'
	done | median
}

bare=$(med "$DD")
printf "%-34s %10s %8s %10s %9s\n" "run" "wall ms" "ratio" "start ms" "marginal"
printf "%-34s %10.1f %8s\n" "bare dd" "$bare" "1.00x"
row() {
	local name=$1 cmd=$2 start=$3 t
	t=$(med "$cmd")
	awk -v n="$name" -v t="$t" -v b="$bare" -v s="$start" 'BEGIN {
		printf "%-34s %10.1f %7.2fx %10.1f %8.2fx\n", n, t, t / b, s, (t - s) / b }'
}
s_start=$(med "$SONDE trace -e accept -- true")
row "sonde trace -e accept" "$SONDE trace -e accept -- $DD" "$s_start"
if [ -x "$PERF" ]; then
	p_start=$(med "$PERF trace -e accept -- true")
	row "perf trace -e accept" "$PERF trace -e accept -- $DD" "$p_start"
else
	echo "perf trace: skipped: $PERF not installed"
fi
if command -v strace >/dev/null; then
	st_start=$(med "strace -f -e trace=accept -- true")
	row "strace -f -e accept" "strace -f -e trace=accept -- $DD" "$st_start"
else
	echo "strace: skipped: not installed"
fi
row "sonde trace -o (all syscalls)" "$SONDE trace -o $OUT/s.txt -- $DD" "$s_start"
[ -x "$PERF" ] && row "perf trace -o (all syscalls)" "$PERF trace -o $OUT/p.txt -- $DD" "$p_start"
# lost events: both files should hold every read and write
for f in s p; do
	[ -f "$OUT/$f.txt" ] && echo "$f: $(grep -c ' read(' "$OUT/$f.txt") reads traced, $(grep -c LOST "$OUT/$f.txt") LOST lines"
done
