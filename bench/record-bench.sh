#!/bin/bash
# SPDX-License-Identifier: MIT
# sonde record vs perf record: start-up cost (`record -o F -- true`; perf pays
# ~1.1 s here for its BPF side-band poll, kallsyms and the build-id pass),
# wall/CPU overhead at -F 4999 -g on a CPU-bound workload, and the fidelity
# of what was recorded: samples, lost samples and bytes per sample.
# Usage: bash bench/record-bench.sh   (SONDE=path/to/sonde, RUNS=n)
. "$(dirname "$0")/lib.sh"

W=${SONDE_WORKLOADS:-$BENCH_ROOT/build/workloads}/cpuburn
RUNS=${RUNS:-9}
TMP=$(mktemp -d /tmp/record-bench.XXXXXX)
trap 'rm -rf "$TMP"' EXIT

[ -x "$SONDE" ] || { echo "record-bench: $SONDE not built (make)"; exit 1; }
[ -x "$PERF" ] || { echo "record-bench: skipped: $PERF not installed"; exit 0; }

bench_compare record_startup "$RUNS" \
	"$SONDE record -q -o $TMP/s.data -- true" \
	"$PERF record -q -o $TMP/p.data -- true"
bench_compare record_startup_nobpf "$RUNS" \
	"$SONDE record -q --no-bpf-event -o $TMP/s.data -- true" \
	"$PERF record -q --no-bpf-event -o $TMP/p.data -- true"

[ -x "$W" ] || { echo "record-bench: no $W (make workloads): overhead cases skipped"; exit 0; }

bench_compare record_overhead "$RUNS" \
	"$SONDE record -q -F 4999 -g -o $TMP/s.data -- $W 1500" \
	"$PERF record -q -F 4999 -g -o $TMP/p.data -- $W 1500"
bench_compare record_overhead_nobpf "$RUNS" \
	"$SONDE record -q --no-bpf-event -F 4999 -g -o $TMP/s.data -- $W 1500" \
	"$PERF record -q --no-bpf-event -F 4999 -g -o $TMP/p.data -- $W 1500"

# fidelity: the same recording, several times each, counted by perf report --stats
stat_of() { # FILE KEY
	"$PERF" report --stats -i "$1" 2>/dev/null | sed -n "s/^ *$2 events: *\([0-9]*\).*/\1/p" | head -1
}
# Note: the sample count follows the CPU share the workload got (4999 per
# CPU second in frequency mode): on a loaded machine it varies by +-20%
# between runs of the same tool; compare medians of several runs.
fidelity() { # TOOL OUT -> "samples lost bytes"
	local tool=$1 out=$2 s l b
	"$tool" record -q -F 4999 -g -o "$out" -- "$W" 1500 >/dev/null 2>&1
	s=$(stat_of "$out" SAMPLE); l=$(stat_of "$out" LOST_SAMPLES); b=$(stat -c %s "$out")
	echo "${s:-0} ${l:-0} $b"
}
ss=(); sl=(); sb=(); ps=(); pl=(); pb=()
for ((i = 0; i < RUNS; i++)); do
	read -r a b c < <(fidelity "$SONDE" "$TMP/fs.data"); ss+=("$a"); sl+=("$b"); sb+=("$(awk -v b="$c" -v s="$a" 'BEGIN { printf "%.1f", s ? b / s : 0 }')")
	read -r a b c < <(fidelity "$PERF" "$TMP/fp.data"); ps+=("$a"); pl+=("$b"); pb+=("$(awk -v b="$c" -v s="$a" 'BEGIN { printf "%.1f", s ? b / s : 0 }')")
done
m() { printf '%s\n' "$@" | median; }
awk -v ss="$(m "${ss[@]}")" -v ps="$(m "${ps[@]}")" -v sl="$(m "${sl[@]}")" -v pl="$(m "${pl[@]}")" \
	-v sb="$(m "${sb[@]}")" -v pb="$(m "${pb[@]}")" 'BEGIN {
	printf "%-28s samples sonde %d perf %d ratio %.3f | lost sonde %d perf %d | bytes/sample sonde %.1f perf %.1f ratio %.3f\n",
		"record_fidelity", ss, ps, (ps ? ss / ps : 0), sl, pl, sb, pb, (pb ? sb / pb : 0) }'
[ -n "$BENCH_OUT" ] && printf 'record_fidelity\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(m "${ss[@]}")" "$(m "${ps[@]}")" \
	"$(m "${sl[@]}")" "$(m "${pl[@]}")" "$(m "${sb[@]}")" "$(m "${pb[@]}")" >>"$BENCH_OUT"
exit 0
