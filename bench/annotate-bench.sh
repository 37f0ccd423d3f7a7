#!/bin/bash
# SPDX-License-Identifier: MIT
# annotate-bench: `sonde annotate --stdio SYM` vs `perf annotate --stdio SYM`
# over the 20 hottest user-space symbols of the report bench's big file
# (kernel symbols are left out: neither annotates them without a vmlinux).
# perf runs objdump for each symbol; sonde disassembles in-process. A second
# row annotates every symbol with samples in one run.
# Usage: bench/annotate-bench.sh [RUNS]   (SONDE=path/to/sonde to pick a build)
set -e
. "$(dirname "$0")/lib.sh"
RUNS=${1:-3}
DATA=$BENCH_ROOT/bench/data/report-big.data

if [ ! -s "$DATA" ]; then
	# made by the report bench (same file)
	"$BENCH_ROOT/bench/report-bench.sh" 1 >/dev/null
fi

syms=$(mktemp)
trap 'rm -f "$syms"' EXIT
"$PERF" report --stdio -i "$DATA" --no-children --sort sym -g none 2>/dev/null |
	sed -n 's/^ *[0-9.]*% *\[\.\] //p' | grep -v '^0x' | head -20 >"$syms"
echo "symbols: $(wc -l <"$syms") ($(head -3 "$syms" | tr '\n' ' ')...)"

loop() {
	local cmd=$1 s out=""
	while IFS= read -r s; do
		out+="$cmd annotate --stdio -i $DATA $(printf %q "$s") >/dev/null 2>&1; "
	done <"$syms"
	echo "$out"
}

# one run per symbol, as a user would: each run reads the whole file again
bench_compare annotate_top20 "$RUNS" "$(loop "$SONDE")" "$(loop "$PERF")"
# one run for every symbol with samples (hundreds): the disassembly dominates
bench_compare annotate_all 1 "$SONDE annotate --stdio -i $DATA" "$PERF annotate --stdio -i $DATA"
