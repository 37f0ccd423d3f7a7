#!/bin/bash
# SPDX-License-Identifier: MIT
# sched-bench: `sonde sched` vs `perf sched` (latency, timehist, map) on a perf sched
# record of `perf bench sched messaging` (~400k sched events, made by perf on first use),
# and `sonde diff` vs `perf diff` on two system-wide 20 kHz recordings (~480k samples each).
# Usage: bench/sched-bench.sh [RUNS]   (SONDE=path/to/sonde to pick a build)
set -e
. "$(dirname "$0")/lib.sh"
RUNS=${1:-5}
DATA=$BENCH_ROOT/bench/data/sched-big.data

if [ ! -s "$DATA" ]; then
	mkdir -p "$(dirname "$DATA")"
	"$PERF" sched record -q -m 4096 -o "$DATA" -- \
		"$PERF" bench sched messaging -g 10 -l 600 >/dev/null 2>&1
fi
[ -s "$DATA" ] || { echo "no $DATA" >&2; exit 1; }
echo "sched events: $("$PERF" script -i "$DATA" 2>/dev/null | wc -l)"

# same bytes as perf first, else the timing means nothing
for args in "latency" "latency -p" "timehist" "timehist -s" "map"; do
	cmp -s <("$SONDE" sched $args -i "$DATA" 2>&1) <("$PERF" sched $args -i "$DATA" 2>&1) ||
		echo "note: sonde sched $args differs from perf on $DATA"
done

bench_compare sched_latency "$RUNS" "$SONDE sched latency -i $DATA" "$PERF sched latency -i $DATA"
bench_compare sched_latency_p "$RUNS" "$SONDE sched latency -p -i $DATA" "$PERF sched latency -p -i $DATA"
bench_compare sched_timehist "$RUNS" "$SONDE sched timehist -i $DATA" "$PERF sched timehist -i $DATA"
bench_compare sched_timehist_s "$RUNS" "$SONDE sched timehist -s -i $DATA" "$PERF sched timehist -s -i $DATA"
bench_compare sched_timehist_wMV "$RUNS" "$SONDE sched timehist -w -M -V -i $DATA" \
	"$PERF sched timehist -w -M -V -i $DATA"
bench_compare sched_map "$RUNS" "$SONDE sched map -i $DATA" "$PERF sched map -i $DATA"

D1=$BENCH_ROOT/bench/data/diff-a.data
D2=$BENCH_ROOT/bench/data/diff-b.data
for f in "$D1" "$D2"; do
	[ -s "$f" ] || "$PERF" record -q -a -F 20000 -o "$f" -- sleep 12 >/dev/null 2>&1
done
bench_compare diff "$RUNS" "$SONDE diff $D1 $D2" "$PERF diff $D1 $D2"
