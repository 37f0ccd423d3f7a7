#!/bin/bash
# SPDX-License-Identifier: MIT
# sonde list vs perf list: the whole listing, a tracepoint glob, and the
# class filters (both read sysfs, tracefs and the build-id cache).
# Usage: bash bench/list-bench.sh   (SONDE=path/to/sonde to pick a build)
. "$(dirname "$0")/lib.sh"

RUNS=${RUNS:-21}

[ -x "$SONDE" ] || { echo "list-bench: $SONDE not built (make)"; exit 1; }
[ -x "$PERF" ] || { echo "list-bench: skipped: $PERF not installed"; exit 0; }

bench_compare list_all "$RUNS" "$SONDE list" "$PERF list"
bench_compare list_sched_glob "$RUNS" "$SONDE list 'sched:*'" "$PERF list 'sched:*'"
bench_compare list_sw "$RUNS" "$SONDE list sw" "$PERF list sw"
bench_compare list_raw_dump "$RUNS" "$SONDE list --raw-dump" "$PERF list --raw-dump"
