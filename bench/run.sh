#!/bin/bash
# SPDX-License-Identifier: MIT
# Runs every bench/*-bench.sh scenario side by side with perf; prints ratios (sonde/perf; < 1 is faster).
cd "$(dirname "$0")/.." || exit 1
make -s all workloads || exit 1
export BENCH_OUT=${BENCH_OUT:-bench/results/$(date +%Y%m%d-%H%M%S).tsv}
mkdir -p "$(dirname "$BENCH_OUT")"
for s in bench/*-bench.sh; do
	[ -e "$s" ] || continue
	[ -n "$1" ] && ! echo "$s" | grep -q "$1" && continue
	bash "$s"
done
echo "results: $BENCH_OUT"
