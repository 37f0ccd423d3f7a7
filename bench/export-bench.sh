#!/bin/bash
# SPDX-License-Identifier: MIT
# export-bench: sonde data convert (--to-json, --to-chrome, --to-sqlite) on
# the big perf.data that report-bench.sh makes, side by side with
# `sonde script` on the same file (the goal: exports no slower), and
# --to-json with perf data convert --to-json.
# Usage: bench/export-bench.sh [RUNS]   (SONDE=path/to/sonde to pick a build)
set -e
. "$(dirname "$0")/lib.sh"
RUNS=${1:-3}
DATA=$BENCH_ROOT/bench/data/report-big.data

if [ ! -s "$DATA" ]; then
	bash "$BENCH_ROOT/bench/report-bench.sh" 1 >/dev/null
fi
[ -s "$DATA" ] || { echo "no $DATA" >&2; exit 1; }
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

# data convert refuses an existing output: each run removes it first
conv() { echo "rm -f $OUT/$2; $SONDE data convert --to-$1 $OUT/$2 -i $DATA"; }

# the same bytes as perf, else the timing means nothing
"$SONDE" data convert --to-json "$OUT/s.json" -i "$DATA" 2>/dev/null
"$PERF" data convert --to-json "$OUT/p.json" -i "$DATA" 2>/dev/null
cmp -s "$OUT/s.json" "$OUT/p.json" || echo "note: sonde --to-json differs from perf's on $DATA"
rm -f "$OUT/s.json" "$OUT/p.json"

# "perf" column: sonde script (the goal), then perf's own --to-json
bench_compare export_json_vs_script "$RUNS" "$(conv json s.json)" "$SONDE script -i $DATA"
bench_compare export_chrome_vs_script "$RUNS" "$(conv chrome s.chrome)" "$SONDE script -i $DATA"
bench_compare export_sqlite_vs_script "$RUNS" "$(conv sqlite s.db)" "$SONDE script -i $DATA"
bench_compare export_json_vs_perf "$RUNS" "$(conv json s.json)" \
	"rm -f $OUT/p.json; $PERF data convert --to-json $OUT/p.json -i $DATA"
