#!/bin/bash
# Differential: files recorded now by perf 6.1 (-g, -a, tracepoints, several
# events, groups, -z, pipe) read by sonde's inspection commands give perf's output.
. "$(dirname "$0")/lib.sh"

busy="sh -c 'i=0; while [ \$i -lt 20000 ]; do i=\$((i+1)); done'"

record() { # record NAME ARGS...
	local name=$1
	shift
	eval "\"$PERF\" record -q -o $name.data $* >/dev/null 2>&1"
}

ln -s "$SONDE" perf # as "perf", sonde prints perf's program name in usage texts
same() { # same ARGS...: sonde and perf print the same (stdout+stderr) and exit alike
	local rp=0 rs=0
	"$PERF" "$@" >perf.out 2>&1 || rp=$?
	./perf "$@" >sonde.out 2>&1 || rs=$?
	test_cmp perf.out sonde.out && [ "$rp" = "$rs" ]
}

test_expect_success PERF,ROOT 'perf record -g: report -D/--header-only/-I/--stats, evlist, buildid-list' '
	record g -g -F 2000 -- "$busy" &&
	same report -i g.data -D && same report -i g.data --header-only &&
	same report -i g.data --header-only -I && same report -i g.data --stats &&
	same evlist -i g.data -v && same buildid-list -i g.data && same buildid-list -i g.data -H
'

test_expect_success PERF,ROOT,TRACEFS 'perf record -a with tracepoints and several events' '
	record tp -a -e sched:sched_switch -e sched:sched_wakeup -e cpu-clock -- sleep 0.05 &&
	same report -i tp.data -D && same report -i tp.data --header-only -I &&
	same report -i tp.data --stats && same evlist -i tp.data --trace-fields &&
	same evlist -i tp.data -F && same buildid-list -i tp.data
'

test_expect_success PERF,ROOT 'perf record -z (zstd COMPRESSED records)' '
	record z -z -g -F 2000 -- "$busy" &&
	same report -i z.data -D && same report -i z.data --stats &&
	same report -i z.data --header-only && same buildid-list -i z.data
'

test_expect_success PERF,ROOT 'perf record with a group and --group/-g listing' '
	record grp -F 1000 -e "\"{cpu-clock,task-clock}\"" -- "$busy" &&
	same evlist -i grp.data -g && same report -i grp.data --header-only && same report -i grp.data -D
'

test_expect_success PERF,ROOT 'perf record -o - (pipe), read from a file and from stdin' '
	eval "\"$PERF\" record -q -F 2000 -o - -- $busy" >p.data 2>/dev/null &&
	same report -i p.data -D && same report -i p.data --header-only &&
	"$PERF" report -i - --stats <p.data >perf.out 2>&1 &&
	"$SONDE" report -i - --stats <p.data >sonde.out 2>&1 &&
	test_cmp perf.out sonde.out
'

test_expect_success PERF 'errors: missing and empty files, like perf' '
	same report -i nosuch.data --stats && same evlist -i nosuch.data &&
	: >empty.data && same report -i empty.data --stats && same buildid-list -i empty.data
'

test_expect_success PERF 'usage: report -h, evlist -h, buildid-list -h' '
	same report -h && same evlist -h && same buildid-list -h
'

test_done
