#!/bin/bash
# SPDX-License-Identifier: MIT
# sonde stat vs perf stat: start-up overhead on a trivial workload (the
# target is at most a third of perf's wall time) and the overhead on a
# CPU-bound workload (should be within noise of perf's).
# Usage: bash bench/stat-bench.sh   (SONDE=path/to/sonde to pick a build)
. "$(dirname "$0")/lib.sh"

W=${SONDE_WORKLOADS:-$BENCH_ROOT/build/workloads}/cpuburn
RUNS=${RUNS:-21}

[ -x "$SONDE" ] || { echo "stat-bench: $SONDE not built (make)"; exit 1; }
[ -x "$PERF" ] || { echo "stat-bench: skipped: $PERF not installed"; exit 0; }

# what the harness itself costs (bash -c + /usr/bin/time): subtract it from
# both sides of the start-up rows before comparing them
bench_compare harness_floor_true "$RUNS" "true" "true"
bench_startup stat_startup_direct "$RUNS" \
	"$SONDE stat -e task-clock,cs,faults -- true" \
	"$PERF stat -e task-clock,cs,faults -- true"
bench_compare stat_startup "$RUNS" \
	"$SONDE stat -e task-clock,cs,faults -- true" \
	"$PERF stat -e task-clock,cs,faults -- true"
bench_compare stat_default_events "$RUNS" \
	"$SONDE stat -- true" \
	"$PERF stat -- true"
bench_compare stat_csv_repeat5 "$RUNS" \
	"$SONDE stat -x, -r 5 -e task-clock,cs,faults -- true" \
	"$PERF stat -x, -r 5 -e task-clock,cs,faults -- true"
if [ -x "$W" ]; then
	bench_compare stat_cpuburn "$(( RUNS / 3 + 1 ))" \
		"$SONDE stat -e task-clock,cs,faults -- $W 300" \
		"$PERF stat -e task-clock,cs,faults -- $W 300"
else
	echo "stat-bench: no $W (make workloads): CPU-bound case skipped"
fi
