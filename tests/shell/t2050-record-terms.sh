#!/bin/bash
# SPDX-License-Identifier: MIT
# check: parallel (attrs and files of its own workloads, nothing timed, no system-wide recording)
# record: per-event terms (call-graph, stack-size, max-stack, time, inherit,
# overwrite, period over -F) and ":S" leader sampling give perf's attrs, files
# and errors.
. "$(dirname "$0")/lib.sh"

# attrs TOOL ARGS...: the distinct attrs opened (as in t2010), then the exit status
attrs() {
	local tool=$1 d f rc=0
	shift
	d=$(mktemp -d "$TRASH/attr.XXXXXX")
	PERF_TEST_ATTR=$d "$tool" record -q -o "$d/out.data" "$@" >/dev/null 2>&1 </dev/null || rc=$?
	for f in "$d"/event-*; do
		[ -e "$f" ] || continue
		# perf's BPF side-band dummy event
		if grep -q "^config=9$" "$f" && grep -q "^watermark=1$" "$f" &&
			grep -q "^wakeup_events=1$" "$f" && grep -q "^sample_period=0$" "$f"; then
			continue
		fi
		grep -v -E "^(\[event|fd=|group_fd=|cpu=|pid=)" "$f" | tr '\n' ' '
		echo
	done | sort | uniq -c
	echo "exit $rc"
	rm -rf "$d"
}

check() {
	attrs "$PERF" --no-bpf-event "$@" >perf.attrs &&
	attrs "$SONDE" "$@" >sonde.attrs &&
	test_cmp perf.attrs sonde.attrs
}

while read -r args; do
	[ -n "$args" ] || continue
	test_expect_success PERF "attrs: record $args" "check $args"
done <<'LIST'
-e cpu-clock/max-stack=4/ -g -- true
-e cpu-clock/max-stack=4/ -- true
-e cpu-clock/max-stack=4/ --call-graph dwarf -- true
-e cpu-clock/call-graph=fp/ -- true
-e cpu-clock/call-graph=fp/ --call-graph dwarf -- true
-e cpu-clock/call-graph=dwarf/ -- true
-e cpu-clock/call-graph=dwarf/ --call-graph dwarf,1024 -- true
-e cpu-clock/call-graph=no/ -g -- true
-e cpu-clock/stack-size=4096/ --call-graph dwarf -- true
-e cpu-clock/call-graph=dwarf,stack-size=4096/ -- true
-e cpu-clock -e task-clock/call-graph=dwarf/ -- true
-e cpu-clock/no-inherit/ -- true
-e cpu-clock/inherit/ --no-inherit -- true
-e cpu-clock/time=0/ -- true
-e cpu-clock/time=1/ --no-inherit --per-thread -- true
-e cpu-clock/period=1000/ -F 99 -- true
-e cpu-clock/freq=300/ -c 5000 -- true
-e cpu-clock/overwrite/ -- true
-e cpu-clock/aux-output/ -- true
-e cpu-clock:S -- true
-e {cpu-clock,task-clock}:S -- true
-e {cpu-clock,task-clock}:S -g -- true
-e {cpu-clock,task-clock,page-faults}:S -- true
-e {cpu-clock,task-clock}:S -e page-faults -- true
-e {cpu-clock:S,task-clock} -- true
-e {cpu-clock,task-clock/inherit/}:S -- true
LIST

# sample_max_stack is not in the attr dump: compare what perf evlist -v reads from both files
test_expect_success PERF 'max-stack= reaches the file (evlist -v)' '
	for a in "cpu-clock/max-stack=4/ -g" "cpu-clock/max-stack=4/" "cpu-clock/stack-size=4096/ -g"; do
		"$PERF" record -q -o p.data -e $a -- true &&
		"$SONDE" record -q -o s.data -e $a -- true &&
		"$PERF" evlist -v -i p.data >p.ev &&
		"$PERF" evlist -v -i s.data >s.ev &&
		test_cmp p.ev s.ev || return 1
	done
'

test_expect_success PERF 'errors of the terms and groups perf refuses, as perf' '
	for e in "{cpu-clock:S,task-clock}" "{cpu-clock,task-clock:S}" cpu-clock/aux-output/ \
		"mem:0x10:rwx"; do
		rp=0 && rs=0 &&
		"$PERF" record -q -o p.data -e "$e" -- true 2>p.err || rp=$?
		"$SONDE" record -q -o s.data -e "$e" -- true 2>s.err || rs=$?
		echo "$e: $rp" >p.rc && echo "$e: $rs" >s.rc &&
		test_cmp p.rc s.rc && test_cmp p.err s.err || return 1
	done
'

# leader sampling: only the leader samples, each sample carries the group;
# perf shows one sample per member. The same file must read the same in both.
test_expect_success PERF 'leader sampling: script and report read as perf reads them' '
	"$SONDE" record -q -o s.data -e "{cpu-clock,task-clock}:S" -- "$SONDE_WORKLOADS/cpuburn" 50 &&
	"$PERF" script -i s.data >p.script 2>&1 &&
	"$SONDE" script -i s.data >s.script 2>&1 &&
	test_cmp p.script s.script &&
	test_grep " task-clock: " s.script &&
	for o in "" "--group" "-n --sort sym"; do
		"$PERF" report -i s.data --stdio $o 2>&1 | grep -v "^# (Tip:" >p.rep &&
		"$SONDE" report -i s.data --stdio $o 2>&1 | grep -v "^# (Tip:" >s.rep &&
		test_cmp p.rep s.rep || return 1
	done
'

test_done
