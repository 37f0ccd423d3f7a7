#!/bin/bash
# SPDX-License-Identifier: MIT
# Differential: files recorded now by perf 6.1 (-g, -a, tracepoints, several
# events, groups, -z, pipe) read by sonde's inspection commands give perf's output.
. "$(dirname "$0")/lib.sh"

busy="sh -c 'i=0; while [ \$i -lt 20000 ]; do i=\$((i+1)); done'"

# The recordings record makes (of sh, sleep and perf bench: programs that stay where
# they are) are made once per check run under $PD (perf_data_dir, lib.sh), NAME.data a
# link to them; perf's outputs on them are replayed in the second pass (same)
PD=$(perf_data_dir)

record() { # record NAME ARGS...
	local name=$1
	shift
	if [ "$PD" = "$TRASH" ]; then
		eval "\"$PERF\" record -q -o $name.data $* >/dev/null 2>&1"
		return
	fi
	perf_rec_once "$PD/$name.data" eval "\"$PERF\" record -q -o $PD/$name.data $* >/dev/null 2>&1" &&
		rm -rf "$name.data" && ln -s "$PD/$name.data" "$name.data"
}

# perf_out ARGS...: perf ARGS into perf.out (stdout and stderr) and its status; run once
# per check run and replayed after when ARGS read (-i) a link to a recording under $PD
perf_out() {
	local a prev= in= c rc=0

	for a; do
		[ "$prev" = -i ] && in=$a
		prev=$a
	done
	if [ -z "$in" ] || [ ! -L "$in" ] || [ "$(dirname "$(readlink "$in")")" != "$PD" ]; then
		"$PERF" "$@" >perf.out 2>&1
		return
	fi
	c=$PD/out.$(printf '%s\0' "$PERF" "$(readlink "$in")" "$@" | md5sum | cut -c1-32)
	if [ ! -f "$c.rc" ]; then
		"$PERF" "$@" >"$c.out" 2>&1 || rc=$?
		echo "$rc" >"$c.rc"
	fi
	cp "$c.out" perf.out && return "$(cat "$c.rc")"
}

ln -s "$SONDE" perf # as "perf", sonde prints perf's program name in usage texts
same() { # same ARGS...: sonde and perf print the same (stdout+stderr) and exit alike
	local rp=0 rs=0
	perf_out "$@" || rp=$?
	./perf "$@" >sonde.out 2>&1 || rs=$?
	test_cmp perf.out sonde.out && [ "$rp" = "$rs" ]
}

test_expect_success PERF,ROOT 'perf record -g: report -D/--header-only/-I/--stats, evlist, buildid-list' '
	record g -g -F 2000 -- "$busy" &&
	same report -i g.data -D && same report -i g.data --header-only && same report -i g.data -D --stats &&
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
	same evlist -i grp.data -g && same report -i grp.data --header-only && same report -i grp.data -D &&
	same report -i grp.data -D --stats
'

test_expect_success PERF,ROOT 'perf record -o - (pipe), read from a file and from stdin' '
	eval "\"$PERF\" record -q -F 2000 -o - -- $busy" >p.data 2>/dev/null &&
	same report -i p.data -D && same report -i p.data --header-only && same report -i p.data -D --stats &&
	"$PERF" report -i - --stats <p.data >perf.out 2>&1 &&
	"$SONDE" report -i - --stats <p.data >sonde.out 2>&1 &&
	test_cmp perf.out sonde.out
'

test_expect_success PERF,ROOT 'record variants: switch, namespaces, cgroups, clockid, dwarf, page sizes, regs, stat record' '
	n=0 &&
	for args in "--switch-events -a" "--namespaces" "--all-cgroups -a" "-k mono" \
		"--call-graph dwarf" "-d --sample-cpu -R" "--data-page-size --code-page-size" \
		"--user-regs=AX,BX -W --transaction" "-e cpu-clock:u -e cpu-clock:k -s"; do
		n=$((n + 1))
		record v$n "$args" -- "$busy" || { echo "perf record $args failed"; return 1; }
		same report -i v$n.data -D || { echo "with $args"; return 1; }
		same report -i v$n.data --header-only -I || { echo "with $args"; return 1; }
		same report -i v$n.data --stats || { echo "with $args"; return 1; }
		same report -i v$n.data -D --stats || { echo "with $args"; return 1; }
	done &&
	# small rings and many switches: lost records, whose warnings (stderr) land
	# among the dump lines (stdout) where perf writes them in a 2>&1 file
	"$PERF" record -q -m 1 --switch-events -a -o lost.data -- "$PERF" bench sched pipe -l 20000 \
		>/dev/null 2>&1 &&
	same report -i lost.data -D && same report -i lost.data -D --stats &&
	"$PERF" stat record -o st.data -- true >/dev/null 2>&1 &&
	same report -i st.data -D && same report -i st.data --header-only -I
'

test_expect_success PERF,ROOT 'perf record --threads (directory data: dir/data + dir/data.N)' '
	record thr --threads -- "$busy" && test -d thr.data &&
	same report -i thr.data -D && same report -i thr.data --stats &&
	same report -i thr.data --header-only && same evlist -i thr.data && same buildid-list -i thr.data
'

test_expect_success PERF 'perf inject -b output (HEADER_BUILD_ID records in pipe data, and file mode)' '
	"$PERF" inject -b -o inj.data <"$FIXTURES/pipe.data" 2>/dev/null &&
	same buildid-list -i inj.data && same report -i inj.data -D && same report -i inj.data --stats &&
	"$PERF" inject -b -i "$FIXTURES/callgraph.data" -o inj2.data 2>/dev/null &&
	same buildid-list -i inj2.data && same report -i inj2.data --header-only
'

lostload="sh -c 'for i in 1 2; do (i=0; while [ \$i -lt 60000 ]; do i=\$((i+1)); done) & done; wait'"

test_expect_success PERF,ROOT 'lost events and samples (-m 1 at 30 kHz): stats, dump and warnings' '
	record lost -m 1 -F 30000 -g -a -- "$lostload" &&
	bad=0 &&
	for m in "--stats" "-D" "-D --stats"; do
		"$PERF" report -i lost.data $m >perf.out 2>perf.err || true
		./perf report -i lost.data $m >sonde.out 2>sonde.err || true
		test_cmp perf.out sonde.out >/dev/null || { echo "stdout differs: $m"; bad=1; }
		test_cmp perf.err sonde.err || { echo "stderr differs: $m"; bad=1; }
	done &&
	test $bad = 0
'

test_expect_success PERF 'errors: missing and empty files, like perf' '
	same report -i nosuch.data --stats && same evlist -i nosuch.data &&
	: >empty.data && same report -i empty.data --stats && same buildid-list -i empty.data
'

test_expect_success PERF 'usage: report -h, evlist -h, buildid-list -h' '
	same report -h && same evlist -h && same buildid-list -h
'

test_done
