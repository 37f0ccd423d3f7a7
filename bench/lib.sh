#!/bin/bash
# SPDX-License-Identifier: MIT
# Side-by-side timing helpers for bench/*.sh: alternate sonde and perf runs,
# report medians (wall ms, CPU ms, peak RSS KiB) and the sonde/perf ratio.
# Usage in a scenario script:
#   . bench/lib.sh
#   bench_compare NAME RUNS 'sonde command' 'perf command'
# Results go to stdout as a table row and to $BENCH_OUT (TSV) when set.
BENCH_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SONDE=${SONDE:-$BENCH_ROOT/build/sonde}
PERF=${PERF:-/usr/bin/perf}

# run_once CMD: prints "wall_ms cpu_ms rss_kb"
run_once() {
	local tf
	tf=$(mktemp)
	local t0 t1
	t0=$(date +%s%N)
	/usr/bin/time -f '%U %S %M' -o "$tf" bash -c "$1" >/dev/null 2>&1
	t1=$(date +%s%N)
	read -r u s m <"$tf"
	rm -f "$tf"
	awk -v w=$(((t1 - t0) / 1000)) -v u="$u" -v s="$s" -v m="$m" \
		'BEGIN { printf "%.2f %.1f %d\n", w / 1000.0, (u + s) * 1000, m }'
}

median() {
	sort -g | awk '{ a[NR] = $1 } END { if (NR % 2) print a[(NR + 1) / 2]; else printf "%.2f\n", (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}

# bench_compare NAME RUNS SONDE_CMD PERF_CMD
bench_compare() {
	local name=$1 runs=$2 scmd=$3 pcmd=$4 i
	local sw=() sc=() sr=() pw=() pc=() pr=()
	for ((i = 0; i < runs; i++)); do
		# alternate the order so that neither side always runs on a warm cache
		if ((i % 2)); then
			read -r a b c < <(run_once "$pcmd"); pw+=("$a"); pc+=("$b"); pr+=("$c")
			read -r a b c < <(run_once "$scmd"); sw+=("$a"); sc+=("$b"); sr+=("$c")
		else
			read -r a b c < <(run_once "$scmd"); sw+=("$a"); sc+=("$b"); sr+=("$c")
			read -r a b c < <(run_once "$pcmd"); pw+=("$a"); pc+=("$b"); pr+=("$c")
		fi
	done
	local msw mpw msc mpc msr mpr
	msw=$(printf '%s\n' "${sw[@]}" | median); mpw=$(printf '%s\n' "${pw[@]}" | median)
	msc=$(printf '%s\n' "${sc[@]}" | median); mpc=$(printf '%s\n' "${pc[@]}" | median)
	msr=$(printf '%s\n' "${sr[@]}" | median); mpr=$(printf '%s\n' "${pr[@]}" | median)
	awk -v n="$name" -v sw="$msw" -v pw="$mpw" -v sc="$msc" -v pc="$mpc" -v sr="$msr" -v pr="$mpr" -v r="$runs" 'BEGIN {
		printf "%-28s runs=%-3d wall sonde %9.2f ms  perf %9.2f ms  ratio %.3f | cpu %.3f | rss %.3f (%d/%d KiB)\n",
			n, r, sw, pw, (pw > 0 ? sw / pw : 0), (pc > 0 ? sc / pc : 0), (pr > 0 ? sr / pr : 0), sr, pr }'
	[ -n "$BENCH_OUT" ] && printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$msw" "$mpw" "$msc" "$mpc" "$msr" "$mpr" >>"$BENCH_OUT"
	return 0
}

# bench_startup NAME RUNS SONDE_CMD PERF_CMD: for millisecond-scale commands,
# where the bash -c + /usr/bin/time harness of bench_compare would dominate:
# hyperfine runs each command directly (no shell, -N) with warm-up, and the
# row gives median wall times and their ratio. Falls back to bench_compare.
bench_startup() {
	local name=$1 runs=$2 scmd=$3 pcmd=$4 json
	if ! command -v hyperfine >/dev/null; then
		bench_compare "$@"
		return
	fi
	json=$(mktemp)
	hyperfine -N -w 5 -r "$runs" --export-json "$json" "$scmd" "$pcmd" >/dev/null 2>&1 || {
		rm -f "$json"
		bench_compare "$@"
		return
	}
	python3 - "$json" "$name" "$runs" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))["results"]
s, p = d[0]["median"] * 1000, d[1]["median"] * 1000
print("%-28s runs=%-3s wall sonde %9.2f ms  perf %9.2f ms  ratio %.3f (hyperfine -N, medians)"
      % (sys.argv[2], sys.argv[3], s, p, s / p if p else 0))
PY
	rm -f "$json"
}
