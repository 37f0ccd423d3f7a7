#!/bin/bash
# SPDX-License-Identifier: MIT
# check: parallel (its own files and workloads, nothing timed, no system-wide recording)
# Inspection commands on perf-written fixtures: output equal to perf 6.1's
# and exit status equal to perf 6.1's (tests/golden/NAME.txt and tests/golden/status,
# made by tools/gen-golden.sh; normalised by tools/normalize.sh).
. "$(dirname "$0")/lib.sh"
. "$GOLDEN/cases.sh"

# as gen-golden.sh ran perf: no ~/.perfconfig, no build-id cache
export HOME=$TRASH/home
mkdir -p "$HOME"

while read -r fixture name args; do
	test_expect_success "golden: sonde $args" '
		cp "$FIXTURES/'"$fixture"'" . &&
		rc=0 &&
		{ "$SONDE" '"$args"' >raw 2>err || rc=$?; } &&
		cat raw err | "$SONDE_ROOT/tools/normalize.sh" >out &&
		test_cmp "$GOLDEN/'"$name"'.txt" out &&
		want=$(awk -v n='"$name"' "\$1 == n { print \$2 }" "$GOLDEN/status") &&
		test -n "$want" &&
		{ test "$rc" = "$want" || { echo "exit $rc, perf $want"; false; }; }
	'
done < <(golden_cases)

test_expect_success 'pipe input on stdin reads like the file' '
	"$SONDE" report -i - --stats <"$FIXTURES/pipe.data" >out &&
	test_cmp "$GOLDEN/pipe.stats.txt" out &&
	"$SONDE" evlist -i - <"$FIXTURES/pipe.data" >out &&
	test_cmp "$GOLDEN/pipe.evlist.txt" out
'

test_expect_success 'perf 6.1 cannot read its pipe+tracepoint file; sonde can' '
	"$SONDE" report -i "$FIXTURES/pipe-tracepoint.data" --stats >out &&
	test_grep "^          SAMPLE events: +[1-9]" out &&
	"$SONDE" evlist -i "$FIXTURES/pipe-tracepoint.data" --trace-fields >out &&
	test_grep "^sched:sched_switch: trace_fields: prev_comm,prev_pid" out
'

test_done
