#!/bin/bash
# SPDX-License-Identifier: MIT
# perf-data-bench: the perf.data reader through the inspection commands,
# sonde vs perf on a big file (>= 500k samples with callchains):
# report --stats, report -D (every record decoded), buildid-list -H, evlist -v.
# Usage: bench/perf-data-bench.sh [RUNS]   (SONDE=path/to/sonde to pick a build)
# Uses bench/data/report-big.data (made by bench/report-bench.sh) when present,
# else records bench/data/perf-data-big.data with /usr/bin/perf.
set -e
. "$(dirname "$0")/lib.sh"
RUNS=${1:-3}
DATA=$BENCH_ROOT/bench/data/report-big.data
if [ ! -s "$DATA" ]; then
	DATA=$BENCH_ROOT/bench/data/perf-data-big.data
	if [ ! -s "$DATA" ]; then
		mkdir -p "$(dirname "$DATA")"
		"$PERF" record -q -a -g -e cpu-clock -c 10000 -o "$DATA" -- \
			sh -c 'for i in 1 2; do (i=0; while [ $i -lt 400000 ]; do i=$((i+1)); done) & done; wait' \
			>/dev/null 2>&1
	fi
fi
bench_compare "report --stats" "$RUNS" "$SONDE report -i $DATA --stats" "$PERF report -i $DATA --stats"
bench_compare "report -D" "$RUNS" "$SONDE report -i $DATA -D" "$PERF report -i $DATA -D"
bench_compare "buildid-list -H" "$RUNS" "$SONDE buildid-list -i $DATA -H" "$PERF buildid-list -i $DATA -H"
bench_compare "evlist -v" "$RUNS" "$SONDE evlist -i $DATA -v" "$PERF evlist -i $DATA -v"
