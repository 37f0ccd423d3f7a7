#!/bin/bash
# SPDX-License-Identifier: MIT
# timechart's IO mode against perf: on tests/fixtures/timechart/io.data
# (record -I's syscall events with known calls: merges, errors, EAGAIN,
# polls, syncs, threads, exits) and on a record -I of a small IO workload,
# both draw the same rows (label, bar, every box with its title, place and
# size) and print the same messages, with --io-skip-eagain, --io-min-time,
# --io-merge-dist and -n.
. "$(dirname "$0")/lib.sh"

if ! test_have_prereq PERF; then
	test_skip "timechart IO against perf" "$prereq_reason"
	test_done
fi

# rows SVG: each task row's lines (bar, boxes) after its label, y relative
# to the row, rows sorted by label (perf orders them by its internal lists)
rows() {
	awk '
	/class="process3"/ { n = 0; match($0, /y="[0-9.]+"/); base = substr($0, RSTART + 3, RLENGTH - 4) }
	/class="process3"/ || /<title>/ || /<rect / && !/class="process3"/ && base != "" {
		line = $0
		if (match(line, /y="[0-9.]+"/)) {
			y = substr(line, RSTART + 3, RLENGTH - 4)
			line = substr(line, 1, RSTART - 1) sprintf("y=\"+%.1f\"", y - base) substr(line, RSTART + RLENGTH)
		}
		buf[n++] = line
		next
	}
	/^<text x="[0-9.-]+" y="[0-9.]+">/ && base != "" {
		label = $0; sub(/^<text x="[0-9.-]+" y="[0-9.]+">/, "", label); sub(/<\/text>$/, "", label)
		x = $0; sub(/^<text x="/, "", x); sub(/".*/, "", x)
		for (i = 0; i < n; i++)
			printf "%s\t%04d\t%s\n", label, i, buf[i]
		printf "%s\t9999\tlabel at %s\n", label, x
		n = 0; base = ""
	}' "$1" | sort -t "	" -k1,1 -k2,2n
}

# same_io FILE OPTS...: both tools draw the same rows and print the same
# messages; with $ONLY (an ERE) only the rows whose label matches
same_io() {
	local f=$1 prc=0 src=0
	shift
	"$PERF" timechart -i "$f" -o perf.svg "$@" >perf.err 2>&1 || prc=$?
	"$SONDE" timechart -i "$f" -o sonde.svg "$@" >sonde.err 2>&1 || src=$?
	[ $prc = $src ] || { echo "exit $src, perf $prc: $*"; return 1; }
	sed -i "s/sonde.svg/perf.svg/" sonde.err
	if [ -n "$ONLY" ]; then
		grep -v "^Skip invalid" perf.err >perf.err2 && grep -v "^Skip invalid" sonde.err >sonde.err2 &&
		test_cmp perf.err2 sonde.err2 || return 1
	else
		test_cmp perf.err sonde.err || return 1
	fi
	[ $prc = 0 ] || return 0
	rows perf.svg | grep -E "^(${ONLY:-.*})" >perf.rows && rows sonde.svg | grep -E "^(${ONLY:-.*})" >sonde.rows &&
	test -s perf.rows && test_cmp perf.rows sonde.rows
}

IO=$FIXTURES/timechart/io.data

test_expect_success 'IO rows of the fixture as perf' '
	same_io "$IO" &&
	test_grep "^reader:5001 \\(79.0 Kbytes\\)" perf.rows &&
	test_grep "^:5005 \\(16.0 Kbytes\\)" sonde.rows &&
	test_grep "fd=3 error=0 merges=5" sonde.rows &&
	test_grep "error=-11" sonde.rows &&
	test_grep "Skip invalid start event" sonde.err
'

test_expect_success '--io-skip-eagain, --io-min-time, --io-merge-dist, -n as perf' '
	same_io "$IO" --io-skip-eagain && ! grep -q "error=-11" sonde.rows &&
	same_io "$IO" --io-min-time=100us &&
	same_io "$IO" --io-min-time 2000 &&
	same_io "$IO" --io-min-time=5ms --io-merge-dist 3ms &&
	same_io "$IO" --io-merge-dist=0 &&
	same_io "$IO" --io-min-time=0 --io-skip-eagain &&
	same_io "$IO" -n 3 && same_io "$IO" -p 5005 && same_io "$IO" -w 2000
'

test_expect_success 'bad --io-min-time and --io-merge-dist: the usage lines, 129' '
	same_io "$IO" --io-min-time=2.5ms &&
	same_io "$IO" --io-merge-dist=1s &&
	test_grep "Usage: perf timechart" sonde.err
'

if ! test_have_prereq ROOT TRACEFS; then
	test_skip "a record -I of an IO workload" "$prereq_reason"
	test_done
fi

# the recording is system-wide: other processes' IO is in it too (a
# concurrent build's calls in flight make perf and sonde part ways, see
# docs/cmd/timechart.md), so the workload's own rows are compared
test_expect_success 'perf timechart record -I of dd and cat: the workload rows as perf' '
	mkdir live && (cd live &&
	"$PERF" timechart record -I -- sh -c "dd if=/dev/zero of=io.tmp bs=4k count=64 status=none; sleep 0.02; cat io.tmp >/dev/null; rm -f io.tmp" >log 2>&1) &&
	ONLY="(dd|cat|sleep|rm):" same_io live/perf.data -n 1000 &&
	test_grep "^dd:" sonde.rows && test_grep "^cat:" sonde.rows &&
	ONLY="(dd|cat|sleep|rm):" same_io live/perf.data -n 1000 --io-skip-eagain --io-merge-dist=10us
'

test_done
