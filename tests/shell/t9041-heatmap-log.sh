#!/bin/bash
# SPDX-License-Identifier: MIT
# check: parallel (its own files and workloads, nothing timed, no system-wide recording)
# sonde heatmap --latency --log: rows on a log scale from the power of ten
# below the smallest latency to the largest, every interval on the grid, the
# cells against latencies computed with awk from perf script's text; the SVG's
# log ticks; refusals.
. "$(dirname "$0")/lib.sh"

F=$SONDE_ROOT/tests/fixtures/script/syscalls.data
PAIR="--begin syscalls:sys_enter_openat --end syscalls:sys_exit_openat --key tid"

# openat latencies in ns, one a line, paired by tid from perf script
latencies() {
	"$PERF" script -i "$F" --ns -F tid,time,event 2>/dev/null | awk '
		{ t = $2; sub(/:$/, "", t); split(t, p, "."); ns = p[1] * 1000000000 + p[2] }
		$3 ~ /sys_enter_openat/ { start[$1] = ns; next }
		$3 ~ /sys_exit_openat/ && ($1 in start) { print ns - start[$1]; delete start[$1] }'
}

# lo, the power of ten at or below the smallest positive latency, and f, the row factor
# for N rows up to the largest: "lo f" from the latencies on stdin
scale() {
	awk -v n="$1" '$1 > 0 && (!mn || $1 < mn) { mn = $1 } $1 > mx { mx = $1 }
		END { lo = 1; while (lo * 10 <= mn) lo *= 10; printf "%.17g %.17g\n", lo, exp(log(mx / lo) / n) * (1 + 1e-9) }'
}

test_expect_success PERF '--log --csv: cells as computed from perf script'"'"'s latencies' '
	latencies >lat &&
	test "$(wc -l <lat)" -gt 10 &&
	read -r lo f < <(scale 10 <lat) &&
	awk -v lo="$lo" -v f="$f" "{ r = \$1 <= lo ? 0 : int(log(\$1 / lo) / log(f)); c[r]++ }
		END { for (r = 0; r < 10; r++) if (c[r]) printf \"%d,%d\n\", r, c[r] }" lat >expect &&
	"$SONDE" heatmap --latency -i "$F" $PAIR --log --rows 10 --unit ns --time-bucket 1000 \
		--csv >cells.csv &&
	test_grep "^time_s,ns,count$" cells.csv &&
	sed 1d cells.csv | awk -F, -v lo="$lo" -v f="$f" \
		"{ printf \"%d,%d\n\", int(log(\$2 / lo) / log(f) + 0.5), \$3 }" >actual &&
	test_cmp expect actual
'

test_expect_success '--log: every interval on the grid, none clipped; rows a constant factor apart' '
	"$SONDE" heatmap --latency -i "$F" $PAIR --lat-bucket 1000 --unit ns --csv >lin.csv &&
	"$SONDE" heatmap --latency -i "$F" $PAIR --log --unit ns --csv >log.csv &&
	test "$(sed 1d lin.csv | awk -F, "{ s += \$3 } END { print s }")" = \
		"$(sed 1d log.csv | awk -F, "{ s += \$3 } END { print s }")" &&
	"$SONDE" heatmap --latency -i "$F" $PAIR --log --rows 20 -o log.svg &&
	test_grep "Latency \\(us, log scale\\)" log.svg &&
	! grep -q " above</text>" log.svg &&
	grep -o "<title>[^<]*</title>" log.svg | sed -n "s/.*log scale) \([0-9.e+-]*\)-\([0-9.e+-]*\):.*/\1 \2/p" >edges &&
	test -s edges &&
	awk "{ r = \$2 / \$1; if (NR > 1 && (r / f > 1.001 || f / r > 1.001)) bad = 1; f = r } END { exit bad }" edges
'

test_expect_success '--log: ticks at powers of ten (with 2x and 5x over few decades)' '
	"$SONDE" heatmap --latency -i "$F" $PAIR --log --unit ns -o ns.svg &&
	grep -o "class=\"e\" x=\"[0-9]*\" y=\"[0-9.]*\">[0-9e+.]*<" ns.svg | sed "s/.*>\([^<]*\)</\1/" >ticks &&
	test_grep "^1000$" ticks &&
	test_grep "^2000$" ticks &&
	test_grep "^10000$" ticks
'

test_expect_success '--log refusals: with --offset, with --lat-bucket' '
	test_exit_code 129 "$SONDE" heatmap --offset --log -i "$F" 2>err &&
	test_grep "log is for --latency" err &&
	test_exit_code 129 "$SONDE" heatmap --latency --log --lat-bucket 5 -i "$F" $PAIR 2>err &&
	test_grep "don.t go together" err
'

test_done
