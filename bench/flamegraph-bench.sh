#!/bin/bash
# SPDX-License-Identifier: MIT
# flamegraph-bench: `sonde flamegraph` (perf.data to finished SVG, and to
# folded text) against the classic pipeline `perf script | stackcollapse-perf.pl
# | flamegraph.pl` when those scripts are installed (STACKCOLLAPSE/FLAMEGRAPH_PL
# or on PATH), else against `perf script > /dev/null` alone, on report-bench's big file.
# Usage: bench/flamegraph-bench.sh [RUNS]   (SONDE=path/to/sonde to pick a build)
set -e
. "$(dirname "$0")/lib.sh"
RUNS=${1:-3}
DATA=$BENCH_ROOT/bench/data/report-big.data
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

if [ ! -s "$DATA" ]; then
	bash "$BENCH_ROOT/bench/report-bench.sh" 1 >/dev/null
fi
[ -s "$DATA" ] || { echo "no $DATA" >&2; exit 1; }

SC=${STACKCOLLAPSE:-$(command -v stackcollapse-perf.pl || true)}
FG=${FLAMEGRAPH_PL:-$(command -v flamegraph.pl || true)}
if [ -n "$SC" ] && [ -n "$FG" ]; then
	bench_compare flamegraph_svg "$RUNS" \
		"$SONDE flamegraph -q -i $DATA -o $OUT/s.svg" \
		"$PERF script -i $DATA | $SC | $FG > $OUT/p.svg"
	bench_compare flamegraph_folded "$RUNS" \
		"$SONDE script --folded -i $DATA > $OUT/s.txt" \
		"$PERF script -i $DATA | $SC > $OUT/p.txt"
else
	echo "note: stackcollapse-perf.pl/flamegraph.pl not found: comparing with perf script alone"
	bench_compare flamegraph_svg_vs_perf_script "$RUNS" \
		"$SONDE flamegraph -q -i $DATA -o $OUT/s.svg" \
		"$PERF script -i $DATA > /dev/null"
	bench_compare flamegraph_folded_vs_perf_script "$RUNS" \
		"$SONDE script --folded -i $DATA > $OUT/s.txt" \
		"$PERF script -i $DATA > /dev/null"
fi
