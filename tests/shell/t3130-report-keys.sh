#!/bin/bash
# SPDX-License-Identifier: MIT
# check: parallel (its own files and workloads, nothing timed, no system-wide recording)
# report --percent-limit as the callchain threshold, -F row order, sort keys: against perf.
. "$(dirname "$0")/lib.sh"

# same FILE OPTS...: report_same (lib.sh)
same() { report_same "$@"; }

W=$SONDE_WORKLOADS


test_expect_success ROOT 'record a file with callchains' '
	"$SONDE" record -q -g -c 200000 -o $TRASH/cc.data "$W/rptmix" 200 >/dev/null 2>&1 &&
	test -s $TRASH/cc.data
'

# perf takes --percent-limit as the callchain threshold, lower or higher than
# the default 0.5, unless -g with a threshold comes after it (the last wins)
test_expect_success PERF,ROOT '--percent-limit is the callchain threshold' '
	for pl in 0 0.1 0.3 0.7; do
		for ch in --children --no-children; do
			for g in graph flat folded graph,0.2 graph,0.5; do
				same $TRASH/cc.data $ch --percent-limit $pl -g $g ||
				{ echo "failed: $ch --percent-limit $pl -g $g"; return 1; }
				same $TRASH/cc.data $ch -g $g --percent-limit $pl ||
				{ echo "failed: $ch -g $g --percent-limit $pl"; return 1; }
			done
			same $TRASH/cc.data $ch --percent-limit $pl ||
			{ echo "failed: $ch --percent-limit $pl"; return 1; }
		done
	done
'

# fractal: perf 6.1 ends some "[...]" remainder lines with " (inlined)", a
# flag it reads from uninitialised heap memory (the same file prints it or not
# under valgrind or MALLOC_PERTURB_; docs/cmd/report.md). perf runs here with
# every allocation zeroed (glibc: no tcache, perturb byte 255 fills them with
# 0), where it prints the defined output sonde prints, and all of it is compared.
cat >$TRASH/perf-zeroed <<EOF
#!/bin/sh
GLIBC_TUNABLES=glibc.malloc.tcache_count=0 MALLOC_PERTURB_=255 exec "$PERF" "\$@"
EOF
chmod +x $TRASH/perf-zeroed
fractal_cases() {
	local pl ch g
	for pl in 0 0.1 0.3 0.7; do
		for ch in --children --no-children; do
			for g in fractal fractal,0.05; do
				"$1" $ch --percent-limit $pl -g $g || return 1
				"$1" $ch -g $g --percent-limit $pl || return 1
			done
		done
	done
}
perf_marks_inlined_remainder() {
	$TRASH/perf-zeroed report --stdio -i $TRASH/cc.data "$@" 2>/dev/null |
		grep -q -- '--\[\.\.\.\] (inlined)$' && return 1
	return 0
}
same_cc() {
	PERF=$TRASH/perf-zeroed same $TRASH/cc.data "$@" || { echo "failed: $*"; return 1; }
}
if test_have_prereq PERF ROOT && [ -s $TRASH/cc.data ] && ! fractal_cases perf_marks_inlined_remainder; then
	test_skip '--percent-limit with fractal call graphs' \
		'perf marks a fractal "[...]" remainder "(inlined)" even with zeroed allocations (another allocator?)'
else
	test_expect_success PERF,ROOT '--percent-limit with fractal call graphs' '
		fractal_cases same_cc
	'
fi

# with -F and --sort, the --sort keys order the rows (then the fields), and
# those missing from -F are shown after the fields
test_expect_success PERF,ROOT '-F with --sort: rows in the sort keys order' '
	for ch in --children --no-children; do
		for o in "-F overhead,sym --sort sym" "-F overhead,sym --sort dso" \
			 "-F sym,overhead --sort dso,sym" "-F overhead,sym --sort sym -n"; do
			same $TRASH/cc.data $ch $o || { echo "failed: $ch $o"; return 1; }
		done
	done
'

# --percentage relative: the header counts the samples of the entries the
# filters let through, as their event count does. Only the header lines are
# compared: the order of tied rows differs (docs/cmd/report.md, "Differences").
test_expect_success PERF,ROOT '--percentage relative: samples and event count agree' '
	for ch in --children --no-children; do
		for o in "--dsos rptmix" "--comms rptmix" "--dsos [kernel.kallsyms]" \
			 "--symbols hot" "--comms rptmix,rpt-child"; do
			"$PERF" report --stdio -i $TRASH/cc.data $ch $o --percentage relative \
				2>/dev/null | grep "^# Samples\|^# Event count" >perf.h &&
			"$SONDE" report --stdio -i $TRASH/cc.data $ch $o --percentage relative \
				>sonde.out 2>&1 &&
			grep "^# Samples\|^# Event count" sonde.out >sonde.h &&
			test -s perf.h && test_cmp perf.h sonde.h ||
			{ echo "failed: $ch $o"; return 1; }
		done
	done
'

test_done
