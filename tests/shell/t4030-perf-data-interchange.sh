#!/bin/bash
# SPDX-License-Identifier: MIT
# Interchange: files written by sonde (record: file, -z, pipe, tracepoints)
# are read by perf 6.1 without a warning, and perf and sonde print the same
# raw dump, stats, header and build-ids for them.
. "$(dirname "$0")/lib.sh"

busy="sh -c 'i=0; while [ \$i -lt 20000 ]; do i=\$((i+1)); done'"

srecord() { # srecord NAME ARGS...: sonde record into NAME.data
	local name=$1
	shift
	eval "\"$SONDE\" record -q -o $name.data $* >/dev/null 2>&1"
}

same() { # perf and sonde agree (stdout+stderr) on ARGS
	"$PERF" "$@" >perf.out 2>&1 || true
	"$SONDE" "$@" >sonde.out 2>&1 || true
	test_cmp perf.out sonde.out
}

# perf reads the file quietly: no warning (on stderr, where perf puts them:
# the callchains on stdout name functions such as access_error), samples shown
no_warning() {
	"$PERF" report --stdio -i "$1" --sort comm >rep.out 2>rep.err &&
	! grep -i -E "warning|error|failed" rep.err &&
	test_grep "^# Samples: [1-9]" rep.out &&
	"$PERF" script -i "$1" >script.out 2>script.err &&
	! grep -i -E "warning|error|failed" script.err &&
	test -s script.out
}

test_expect_success PERF,ROOT 'sonde record -g: perf reads it, same -D/--stats/header/build-ids' '
	srecord g -g -- "$busy" && no_warning g.data &&
	same report -i g.data -D && same report -i g.data --stats &&
	same report -i g.data --header-only -I && same buildid-list -i g.data && same evlist -i g.data -v
'

test_expect_success PERF,ROOT 'sonde record -z: perf decompresses it' '
	srecord z -z -g -- "$busy" && no_warning z.data &&
	same report -i z.data -D && same report -i z.data --stats && same report -i z.data --header-only
'

test_expect_success PERF,ROOT 'sonde record -o - (pipe): perf reads it from a file and from stdin' '
	eval "\"$SONDE\" record -q -o - -g -- $busy" >p.data 2>/dev/null &&
	same report -i p.data -D && same report -i p.data --stats &&
	"$PERF" report --stdio -i - --sort comm <p.data >rep.out 2>&1 &&
	test_grep "^# Samples: [1-9]" rep.out
'

test_expect_success PERF,ROOT,TRACEFS 'sonde record -a with tracepoints: perf reads the tracing data' '
	srecord tp -a -e sched:sched_switch -- sleep 0.05 &&
	same report -i tp.data --stats && same report -i tp.data --header-only &&
	same evlist -i tp.data --trace-fields &&
	"$PERF" script -i tp.data >script.out 2>&1 && test_grep "sched:sched_switch: prev_comm=" script.out
'

test_done
