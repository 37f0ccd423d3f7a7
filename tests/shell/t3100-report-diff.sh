#!/bin/bash
# report --stdio against perf report --stdio on files recorded by perf:
# same rows, same percentages, same callchain graphs.
. "$(dirname "$0")/lib.sh"

# norm: drop the random tip perf prints at the end
norm() {
	grep -v '^# (Tip:' "$1"
}

# same FILE OPTS...: sonde and perf print the same report
same() {
	local f=$1
	shift
	"$PERF" report --stdio -i "$f" "$@" >perf.out 2>/dev/null
	"$SONDE" report --stdio -i "$f" "$@" >sonde.out 2>sonde.err || { cat sonde.err; return 1; }
	norm perf.out >perf.norm
	norm sonde.out >sonde.norm
	test_cmp perf.norm sonde.norm
}

# same_rows FILE OPTS...: the same lines, ignoring the order of entries
# whose periods tie exactly (see docs/cmd/report.md, "Differences")
same_rows() {
	local f=$1
	shift
	"$PERF" report --stdio -i "$f" "$@" >perf.out 2>/dev/null
	"$SONDE" report --stdio -i "$f" "$@" >sonde.out 2>sonde.err || { cat sonde.err; return 1; }
	norm perf.out | sort >perf.norm
	norm sonde.out | sort >sonde.norm
	test_cmp perf.norm sonde.norm
}

W=$SONDE_WORKLOADS

test_expect_success PERF,ROOT 'record the corpus with perf' '
	"$PERF" record -q -o $TRASH/nog.data -F 999 "$W/cpuburn" 200 >/dev/null 2>&1 &&
	"$PERF" record -q -g -o $TRASH/g.data -F 999 "$W/cpuburn" 200 >/dev/null 2>&1 &&
	"$PERF" record -q -g -o $TRASH/mix.data -F 1999 "$W/rptmix" 200 >/dev/null 2>&1 &&
	"$PERF" record -q -o $TRASH/multi.data -e cpu-clock -e task-clock "$W/rptmix" 100 >/dev/null 2>&1 &&
	test -s $TRASH/mix.data
'

test_expect_success PERF,ROOT 'no callchains: default report' '
	same $TRASH/nog.data
'

test_expect_success PERF,ROOT 'no callchains: -n, --sort variants' '
	same $TRASH/nog.data -n &&
	same $TRASH/nog.data --sort comm,dso &&
	same $TRASH/nog.data --sort dso,sym &&
	same $TRASH/nog.data --sort sym
'

test_expect_success PERF,ROOT 'callchains: children (default) on a single process' '
	same $TRASH/g.data
'

test_expect_success PERF,ROOT 'callchains: --no-children graph' '
	same $TRASH/g.data --no-children &&
	same $TRASH/mix.data --no-children
'

test_expect_success PERF,ROOT 'several processes and threads: --no-children variants' '
	same $TRASH/mix.data --no-children -n &&
	same $TRASH/mix.data --no-children --sort comm,dso &&
	same $TRASH/mix.data --no-children --sort dso,sym &&
	same $TRASH/mix.data --no-children --sort sym,comm &&
	same $TRASH/mix.data --no-children -g fractal &&
	same $TRASH/mix.data --no-children -G
'

test_expect_success PERF,ROOT 'several processes and threads: children' '
	same_rows $TRASH/mix.data
'

test_expect_success PERF,ROOT 'filters and limits' '
	same $TRASH/mix.data --no-children --comm rptmix &&
	same $TRASH/mix.data --no-children --percent-limit 5 &&
	same $TRASH/mix.data --no-children -q &&
	same $TRASH/mix.data --no-children -g none
'

test_expect_success PERF,ROOT 'several events: one section each' '
	same $TRASH/multi.data &&
	same $TRASH/multi.data -n --sort comm
'

test_expect_success 'a missing file fails like perf' '
	test_exit_code 255 "$SONDE" report --stdio -i nosuch.data 2>err
'

test_done
