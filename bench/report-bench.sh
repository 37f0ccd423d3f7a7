#!/bin/bash
# SPDX-License-Identifier: MIT
# report-bench: `sonde report --stdio` vs `perf report --stdio` on a big
# perf.data (>= 500k samples with callchains from several processes).
# Usage: bench/report-bench.sh [RUNS]   (SONDE=path/to/sonde to pick a build)
# The data file is made once with /usr/bin/perf under bench/data/ (git-ignored).
set -e
. "$(dirname "$0")/lib.sh"
RUNS=${1:-3}
DATA=$BENCH_ROOT/bench/data/report-big.data
WL=${SONDE_WORKLOADS:-$(dirname "$SONDE")/workloads}

# mixload SECONDS: several processes and threads at once, some short-lived
mixload() {
	local end=$((SECONDS + $1))
	"$WL/rptmix" $(($1 * 1000)) &
	"$WL/cpuburn" $(($1 * 1000)) &
	while ((SECONDS < end)); do
		find /usr/lib /usr/share/perl5 -name '*.so*' 2>/dev/null | sort | gzip -c >/dev/null
		seq 1 200000 | awk '{ s += $1 * 3 } END { print s }' >/dev/null
		perl -e 'my %h; $h{$_ % 977} .= "x" for 1 .. 300000' 2>/dev/null || true
	done
	wait
}

nr_samples() {
	"$PERF" report --stats -i "$1" 2>/dev/null | awk '/SAMPLE events/ { print $3; exit }'
}

if [ ! -s "$DATA" ]; then
	mkdir -p "$(dirname "$DATA")"
	[ -x "$WL/rptmix" ] || { echo "build the workloads first: make workloads" >&2; exit 1; }
	export -f mixload
	export WL
	# the sample count depends on how much CPU the machine gives us: record
	# longer until the file has at least 500k samples
	for secs in 14 24 40 60; do
		"$PERF" record -q -F 25000 -g -o "$DATA" -- bash -c "mixload $secs" >/dev/null 2>&1
		n=$(nr_samples "$DATA")
		echo "made $DATA: $n samples in ${secs}s"
		[ "${n:-0}" -ge 500000 ] && break
	done
fi

bench_compare report_children "$RUNS" \
	"$SONDE report --stdio -i $DATA" "$PERF report --stdio -i $DATA"
bench_compare report_nochildren "$RUNS" \
	"$SONDE report --stdio -i $DATA --no-children --sort comm,dso,sym" \
	"$PERF report --stdio -i $DATA --no-children --sort comm,dso,sym"
