#!/bin/bash
# SPDX-License-Identifier: MIT
# script-bench: `sonde script` vs `perf script` on the big perf.data that
# report-bench.sh makes (several processes, -g at 20 kHz; ~3M output lines),
# default output (callchains), without callchains, tracepoint-free field
# subsets, and the flame graph pipeline's first stage.
# Usage: bench/script-bench.sh [RUNS]   (SONDE=path/to/sonde to pick a build)
set -e
. "$(dirname "$0")/lib.sh"
RUNS=${1:-3}
DATA=$BENCH_ROOT/bench/data/report-big.data

if [ ! -s "$DATA" ]; then
	# report-bench.sh knows how to make it (and with which workloads)
	bash "$BENCH_ROOT/bench/report-bench.sh" 1 >/dev/null
fi
[ -s "$DATA" ] || { echo "no $DATA" >&2; exit 1; }

# a sanity check first: same bytes as perf, else the timing means nothing
if ! cmp -s <("$SONDE" script -i "$DATA" 2>/dev/null) <("$PERF" script -i "$DATA" 2>/dev/null); then
	echo "note: sonde script output differs from perf script on $DATA" \
		"($(diff <("$SONDE" script -i "$DATA" 2>/dev/null) <("$PERF" script -i "$DATA" 2>/dev/null) | grep -c '^[<>]') lines)"
fi

bench_compare script_default "$RUNS" \
	"$SONDE script -i $DATA" "$PERF script -i $DATA"
bench_compare script_nocallchain "$RUNS" \
	"$SONDE script -i $DATA -G" "$PERF script -i $DATA -G"
bench_compare script_fields "$RUNS" \
	"$SONDE script -i $DATA -F comm,tid,time" "$PERF script -i $DATA -F comm,tid,time"
bench_compare script_ns_sym "$RUNS" \
	"$SONDE script -i $DATA --ns -F comm,pid,tid,time,event,ip,sym,dso" \
	"$PERF script -i $DATA --ns -F comm,pid,tid,time,event,ip,sym,dso"
