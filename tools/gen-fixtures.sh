#!/bin/bash
# SPDX-License-Identifier: MIT
# Regenerate the perf.data fixtures in tests/fixtures with perf 6.1 (run as root).
# Usage: tools/gen-fixtures.sh [outdir]   (default: tests/fixtures)
# Each file stays small (< ~200 KB); the goldens are made by tools/gen-golden.sh.
set -e
PERF=${PERF:-/usr/bin/perf}
cd "$(dirname "$0")/.."
out=${1:-tests/fixtures}
mkdir -p "$out"
busy="sh -c 'i=0; while [ \$i -lt 30000 ]; do i=\$((i+1)); done'"
rec() { # rec NAME ARGS...: perf record into $out/NAME.data
	local name=$1
	shift
	eval "$PERF record -q -o $out/$name.data $* >/dev/null 2>&1"
}
rec callgraph -g -F 999 -- "$busy"
rec system-wide -a -F 99 -- sleep 0.05
rec tracepoints -a -e sched:sched_switch -e sched:sched_process_exec -- "$busy"
rec multi-event -F 999 -e cpu-clock -e task-clock -e page-faults -- "$busy"
rec group -F 999 -e "'{cpu-clock,task-clock}'" -- "$busy"
rec compressed -z -F 999 -g -- "$busy"
eval "$PERF record -q -F 999 -o - -- $busy" >"$out/pipe.data" 2>/dev/null
eval "$PERF record -q -e sched:sched_switch -a -o - -- sleep 0.05" >"$out/pipe-tracepoint.data" 2>/dev/null
# the byte-swapped fixture is callgraph.data converted by sonde's writer
if [ -x "${UNIT_TESTS:-build/unit-tests}" ] && [ "$out" = tests/fixtures ]; then
	SONDE_REGEN_FIXTURES=1 "${UNIT_TESTS:-build/unit-tests}" perf_data_swapped_fixture >/dev/null
fi
ls -l "$out"
