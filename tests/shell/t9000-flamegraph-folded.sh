#!/bin/bash
# SPDX-License-Identifier: MIT
# Folded stacks: sonde script --folded and sonde flamegraph --folded against
# perf script piped through stackcollapse-perf.pl's default folding (restated
# in fold-perf-script.awk; the Perl script itself when one is installed),
# byte for byte, on fixtures and on files perf records here, with report's filters.
. "$(dirname "$0")/lib.sh"

FOLD=$SONDE_ROOT/tests/shell/fold-perf-script.awk
W=$SONDE_WORKLOADS
FIX=$SONDE_ROOT/tests/fixtures

# folded_same FILE [SELECTION...]: perf script | fold == sonde script --folded == flamegraph --folded
folded_same() {
	local f=$1
	shift
	"$PERF" script -i "$f" "$@" 2>/dev/null </dev/null | awk -f "$FOLD" | LC_ALL=C sort >expect ||
		return 1
	test -s expect || { echo "perf script printed no stacks for $f $*"; return 1; }
	"$SONDE" script --folded -i "$f" "$@" >actual </dev/null || return 1
	test_cmp expect actual || return 1
	"$SONDE" flamegraph --folded -i "$f" "$@" >actual2 </dev/null || return 1
	test_cmp expect actual2 || return 1
}

test_expect_success PERF 'fixtures recorded with -g: same folded stacks' '
	folded_same "$FIX/callgraph.data" &&
	folded_same "$FIX/compressed.data" &&
	folded_same "$FIX/swapped-callgraph.data"
'

test_expect_success PERF 'folded lines: root is the comm, sorted bytewise, counts add up to the samples' '
	"$SONDE" script --folded -i "$FIX/callgraph.data" >f.txt &&
	LC_ALL=C sort -c f.txt &&
	n=$("$PERF" script -i "$FIX/callgraph.data" -F comm 2>/dev/null | grep -c .) &&
	test "$(awk "{ s += \$NF } END { print s }" f.txt)" = "$n" &&
	! grep -v "^sh[; ]" f.txt
'

test_expect_success PERF,ROOT 'record: -g user workload, two events' '
	"$PERF" record -q -o "$TRASH/g.data" -g -F 2000 -- "$W/rptmix" 150 >/dev/null 2>&1 &&
	"$PERF" record -q -o "$TRASH/two.data" -e cpu-clock -e task-clock -g -F 1000 -- "$W/cpuburn" 100 >/dev/null 2>&1 &&
	test -s "$TRASH/g.data" && test -s "$TRASH/two.data"
'

test_expect_success PERF,ROOT 'forked and threaded workload: same stacks, with each filter' '
	test -s "$TRASH/g.data" &&
	folded_same "$TRASH/g.data" &&
	pid=$("$PERF" script -i "$TRASH/g.data" -F pid 2>/dev/null | sort -n | head -1 | tr -d " ") &&
	tid=$("$PERF" script -i "$TRASH/g.data" -F tid 2>/dev/null | sort -n | tail -1 | tr -d " ") &&
	folded_same "$TRASH/g.data" --pid "$pid" &&
	folded_same "$TRASH/g.data" --tid "$tid" &&
	folded_same "$TRASH/g.data" --comm rpt-worker1 &&
	folded_same "$TRASH/g.data" --time 10%-60% &&
	test_exit_code 255 "$SONDE" script --folded -i "$TRASH/g.data" --cpu 0 2>err &&
	test_grep "File does not contain CPU events" err &&
	folded_same "$TRASH/g.data" --max-stack 3
'

test_expect_success PERF,ROOT 'two events: only the first event seen is folded, as stackcollapse does' '
	test -s "$TRASH/two.data" &&
	folded_same "$TRASH/two.data" &&
	"$SONDE" flamegraph --folded -i "$TRASH/two.data" -e task-clock >tc.txt &&
	"$PERF" script -i "$TRASH/two.data" 2>/dev/null | awk "/^[^ \t]/ { keep = /task-clock/ } keep" |
		awk -f "$FOLD" | LC_ALL=C sort >tc.expect &&
	test_cmp tc.expect tc.txt
'

test_expect_success PERF,ROOT 'system-wide with kernel frames' '
	# dd makes sure of system calls (kernel frames) whatever else the machine runs
	"$PERF" record -q -o "$TRASH/a.data" -a -g -F 499 -- sh -c \
		"\"$W/cpuburn\" 200; dd if=/dev/zero of=/dev/null bs=1 count=300000 2>/dev/null" \
		>/dev/null 2>&1 &&
	# only our own task: the others'"'"' binaries may be rebuilt or gone by now
	folded_same "$TRASH/a.data" --comm cpuburn &&
	cpu=$("$PERF" script -i "$TRASH/a.data" --comm cpuburn -F cpu 2>/dev/null | head -1 | tr -dc 0-9) &&
	folded_same "$TRASH/a.data" --comm cpuburn --cpu "$cpu" &&
	"$SONDE" flamegraph --folded -i "$TRASH/a.data" >all.txt &&
	# the syscall entry, as the leaf or with the frames it called
	grep -q "^dd;.*;do_syscall_64[; ]" all.txt
'

if [ -x "$W/jitmap" ]; then
	test_expect_success PERF,ROOT 'JIT frames named from /tmp/perf-PID.map' '
		"$PERF" record -q -o "$TRASH/jit.data" -g -F 2000 "$W/jitmap" 2 >jit.path 2>/dev/null &&
		folded_same "$TRASH/jit.data" --comm jitmap;
		rc=$?;
		# the map the workload left in /tmp (it prints its path)
		rm -f $(grep -o "^/tmp/perf-[0-9]*\.map$" jit.path);
		return $rc
	'
else
	test_skip 'JIT frames named from /tmp/perf-PID.map' 'no jitmap workload'
fi

test_expect_success 'naming rules: offsets gone, unknown symbols named by their module' '
	"$SONDE" flamegraph --folded -i "$FIX/callgraph.data" >n.txt &&
	! grep -q "+0x" n.txt &&
	grep -q "\[dash\]" n.txt
'

SC=${STACKCOLLAPSE_PERF:-$(command -v stackcollapse-perf.pl 2>/dev/null)}
if [ -n "$SC" ] && [ -x "$SC" ]; then
	test_expect_success PERF 'the real stackcollapse-perf.pl agrees' '
		"$PERF" script -i "$FIX/callgraph.data" 2>/dev/null | "$SC" >sc.txt 2>/dev/null &&
		"$SONDE" script --folded -i "$FIX/callgraph.data" >mine.txt &&
		test_cmp sc.txt mine.txt
	'
else
	test_skip 'the real stackcollapse-perf.pl agrees' \
		'stackcollapse-perf.pl not installed (set STACKCOLLAPSE_PERF; it is not vendored: CDDL, and the tests never download)'
fi

test_done
