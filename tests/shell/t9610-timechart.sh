#!/bin/bash
# SPDX-License-Identifier: MIT
# timechart record and timechart against perf: the recorded events and attrs
# are perf's, both tools draw the same rows (task comm:pid) from the same file,
# with about as many state boxes; the options act; the errors are perf's; and
# headless Chromium renders the SVG (the screenshot is kept in
# $SONDE_BUILD/artifacts/t9610-timechart.png).
. "$(dirname "$0")/lib.sh"

if ! test_have_prereq PERF ROOT TRACEFS; then
	test_skip "timechart against perf" "$prereq_reason"
	test_done
fi

# rows FILE: the task rows' "comm:pid" labels, sorted
rows() {
	sed -n 's/^<text x="[0-9.]*" y="[0-9.]*">\([^<]*\) ([0-9.]*ms)<\/text>$/\1/p' "$1" | sort
}

# boxes FILE CLASS: how many boxes of that class (waiting: short and long ones)
boxes() {
	if [ "$2" = waiting ]; then
		grep -ci "class=\"waiting\"" "$1"
	else
		grep -c "class=\"$2\"" "$1"
	fi
}

test_expect_success 'timechart record: perf'"'"'s events and attrs, system-wide' '
	mkdir s p &&
	(cd s && "$SONDE" timechart record -- sh -c "sleep 0.01" >log 2>&1) &&
	(cd p && "$PERF" timechart record -- sh -c "sleep 0.01" >log 2>&1) &&
	for d in s p; do
		"$PERF" evlist -v -i $d/perf.data 2>/dev/null | grep -v "^#" |
			sed "s/config: 0x[0-9a-f]*, //" >$d.attrs || return 1
	done &&
	grep "^sched:\|^power:" p.attrs >p.tp && grep "^sched:\|^power:" s.attrs >s.tp &&
	test_cmp p.tp s.tp &&
	test $(wc -l <s.tp) = 4
'

test_expect_success 'timechart record -T, -P, -I, -g: the event lists of perf' '
	for o in -T -P -I -g; do
		(cd s && rm -f perf.data && "$SONDE" timechart record $o -- true >log 2>&1) &&
		(cd p && rm -f perf.data && "$PERF" timechart record $o -- true >log 2>&1) &&
		"$PERF" evlist -i s/perf.data 2>/dev/null | grep -v "^#" >s.ev &&
		"$PERF" evlist -i p/perf.data 2>/dev/null | grep -v "^#" >p.ev &&
		test_cmp p.ev s.ev || return 1
	done
'

test_expect_success 'perf'"'"'s timechart file: the same rows, names, pids and run times as perf' '
	fx="$FIXTURES/timechart/system.data" &&
	"$PERF" timechart -i "$fx" -o perf.svg 2>perf.err &&
	"$SONDE" timechart -i "$fx" 2>sonde.err &&
	test -s output.svg &&
	sed "s/output.svg/perf.svg/" sonde.err >sonde.n &&
	test_cmp perf.err sonde.n &&
	for n in "" "-n 3" "-n 30" "-n 100"; do
		"$PERF" timechart -i "$fx" $n -o perf-n.svg 2>/dev/null &&
		"$SONDE" timechart -i "$fx" $n -o sonde-n.svg 2>/dev/null &&
		grep "([0-9.]*ms)</text>" perf-n.svg | sed "s/.*>\(.*\)<.*/\1/" | sort >perf.rows &&
		grep "([0-9.]*ms)</text>" sonde-n.svg | sed "s/.*>\(.*\)<.*/\1/" | sort >sonde.rows &&
		test_cmp perf.rows sonde.rows || return 1
	done &&
	test_grep "^dd:" sonde.rows && test_grep "^sleep:" sonde.rows
'

test_expect_success 'sonde timechart record of a sleep/dd workload' '
	mkdir live && (cd live &&
	"$SONDE" timechart record -- sh -c "sleep 0.05; dd if=/dev/zero of=io.tmp bs=64k count=16 conv=fsync 2>/dev/null; sleep 0.02; rm -f io.tmp" >log 2>&1 &&
	test -s perf.data)
'

# a slow (ASan) build on a loaded machine can overflow the system-wide rings:
# the tasks whose events were lost have no row, in either tool's picture
if "$SONDE" report --stats -i "$TRASH/live/perf.data" 2>/dev/null | grep -q "LOST events"; then
	test_skip 'a file sonde recorded: both draw the workload'"'"'s dd and sleep rows' \
		'the recording lost events (rings overflowed on a loaded machine)'
else
# The default rows are the busiest 15 or more tasks: on a loaded machine the
# short sleep may not be among them, in either tool, and which tasks sit at
# the threshold depends on run times sonde can differ in by 0.1 ms
# (docs/cmd/timechart.md); the default selection is compared exactly on the
# fixed file above. Here -p (repeatable, as perf's) names the workload's tasks.
test_expect_success 'a file sonde recorded: both draw the workload'"'"'s dd and sleep rows' '
	cd live &&
	"$PERF" timechart -o perf.svg 2>/dev/null && "$SONDE" timechart 2>/dev/null &&
	test -s perf.svg && test -s output.svg &&
	"$PERF" timechart -p dd -p sleep -o perf-p.svg 2>/dev/null &&
	"$SONDE" timechart -p dd -p sleep -o sonde-p.svg 2>/dev/null &&
	rows perf-p.svg >perf.rows && rows sonde-p.svg >sonde.rows &&
	test_cmp perf.rows sonde.rows &&
	test_grep "^dd:" sonde.rows && test_grep "^sleep:" sonde.rows
'
fi

# running and blocked boxes and rows match perf's within 10%; sonde's
# waiting boxes are known to differ more (up to 20%: docs/cmd/timechart.md)
test_expect_success 'about as many running, waiting and blocked boxes as perf' '
	for c in sample:10 waiting:20 blocked:10 process:0 cpu:0; do
		pct=${c#*:} c=${c%:*}
		pn=$(boxes perf.svg $c) sn=$(boxes output.svg $c) &&
		echo "$c: perf $pn sonde $sn" &&
		test $((sn * 100)) -ge $((pn * (100 - pct))) &&
		test $((sn * 100)) -le $((pn * (100 + pct))) || return 1
	done &&
	test_grep ">Running</text>" output.svg && test_grep ">Waiting for cpu</text>" output.svg &&
	test_grep ">Blocked on IO</text>" output.svg && test_grep ">Sleeping</text>" output.svg &&
	test_grep ">CPU 0</text>" output.svg
'

test_expect_success 'options: -w, -p, --highlight, -T, -P, -t' '
	cp "$FIXTURES/timechart/system.data" perf.data &&
	"$SONDE" timechart -w 2000 -o w.svg 2>/dev/null &&
	test_grep "^<svg width=\"2000\"" w.svg &&
	"$SONDE" timechart -p dd -o p.svg 2>/dev/null &&
	rows p.svg >p.rows && test -s p.rows && ! grep -v "^dd:" p.rows &&
	"$SONDE" timechart --highlight dd -o h.svg 2>/dev/null &&
	test_grep "class=\"sample_hi\"" h.svg &&
	"$SONDE" timechart --highlight 1000000000000 -o h2.svg 2>/dev/null &&
	! grep -q "class=\"sample_hi\"" h2.svg &&
	"$SONDE" timechart -T -o t.svg 2>/dev/null && ! grep -q ">CPU 0</text>" t.svg &&
	"$SONDE" timechart -P -o pw.svg 2>/dev/null && test "$(rows pw.svg)" = "" &&
	"$SONDE" timechart -t -o topo.svg 2>/dev/null && test_grep ">CPU 0</text>" topo.svg
'

test_expect_success 'errors as perf: no trace samples, missing file, a stray word' '
	"$PERF" record -e cs -o rec.data -- true >/dev/null 2>&1 &&
	for a in "-i rec.data -o x.svg" "-i /nonexistent.data" "bogus"; do
		prc=0 src=0
		"$PERF" timechart $a >perf.out 2>&1 || prc=$?
		"$SONDE" timechart $a >sonde.out 2>&1 || src=$?
		sed -i "s/Usage: perf timechart/Usage: sonde timechart/" perf.out
		test $prc = $src && test_cmp perf.out sonde.out || return 1
	done &&
	! test -e x.svg
'

chromium=$(command -v chromium || command -v chromium-browser || command -v google-chrome)
if [ -z "$chromium" ]; then
	test_skip "headless Chromium renders the SVG" "chromium is not installed (install-deps.sh WITH_TEST_DEPS=1)"
else
	test_expect_success 'headless Chromium renders the SVG; the screenshot is kept' '
		timeout 60 "$chromium" --headless --no-sandbox --disable-gpu --hide-scrollbars \
			--user-data-dir="$TRASH/chromium" --screenshot="$TRASH/shot.png" \
			--window-size=1000,1000 "file://$TRASH/output.svg" >chromium.log 2>&1 &&
		test -s shot.png &&
		test "$(head -c 8 shot.png | od -An -tx1 | tr -d " \n")" = 89504e470d0a1a0a &&
		mkdir -p "$SONDE_BUILD/artifacts" &&
		cp shot.png "$SONDE_BUILD/artifacts/t9610-timechart.png"
	'
fi

test_done
