#!/bin/bash
# SPDX-License-Identifier: MIT
# check: parallel (attrs only: system-wide runs record no samples that are compared)
# sonde record opens the same perf_event_attrs as perf record for the same
# command line (PERF_TEST_ATTR dumps compared; perf's BPF side-band dummy
# event, which only feeds its in-memory BPF info, is left out).
. "$(dirname "$0")/lib.sh"

# attrs TOOL ARGS...: the distinct attrs opened, one line each with a count
attrs() {
	local tool=$1 d f
	shift
	d=$(mktemp -d "$TRASH/attr.XXXXXX")
	chmod 777 "$d"
	PERF_TEST_ATTR=$d $RUN_PREFIX "$tool" record -q -o "$d/out.data" "$@" >/dev/null 2>&1 </dev/null
	for f in "$d"/event-*; do
		[ -e "$f" ] || continue
		# perf's side-band event: dummy, watermark, wakeup_events=1, no sampling
		if grep -q "^config=9$" "$f" && grep -q "^watermark=1$" "$f" &&
			grep -q "^wakeup_events=1$" "$f" && grep -q "^sample_period=0$" "$f"; then
			continue
		fi
		grep -v -E "^(\[event|fd=|group_fd=|cpu=|pid=)" "$f" | tr '\n' ' '
		echo
	done | sort | uniq -c
	rm -rf "$d"
}

check() {
	# --no-bpf-event spares perf's 1 s side-band poll; it only clears
	# attr.bpf_event, which the dump does not show
	perf_cached "attrs $RUN_PREFIX" attrs "$PERF" --no-bpf-event "$@" >perf.attrs &&
	attrs "$SONDE" "$@" >sonde.attrs &&
	test -s perf.attrs &&
	test_cmp perf.attrs sonde.attrs
}

while read -r args; do
	[ -n "$args" ] || continue
	test_expect_success PERF "attrs: record $args" "check $args"
done <<'LIST'
-- true
-g -- true
-F 999 -- true
-F 200000 -- true
-c 10000 -- true
-e task-clock -e cpu-clock -- true
-e {cpu-clock,task-clock} -- true
-e cpu-clock/period=1000/ -- true
-e cpu-clock/freq=300/ -- true
-e cpu-clock -c 5000 -- true
-e task-clock:u -- true
-a -- sleep 0.01
-C 0 -- sleep 0.01
-a -g -e cpu-clock -e task-clock -- sleep 0.01
-d -- true
--call-graph dwarf -- true
--call-graph dwarf,4096 -- true
--call-graph fp -- true
-o - -- true
-R -T -- true
-e sched:sched_switch -- true
-a -e sched:sched_switch -e sched:sched_wakeup -- sleep 0.01
--per-thread -- true
-s -- true
--no-inherit -- true
-W -- true
-P -- true
--sample-cpu -- true
--switch-events -- true
-k mono -- true
-n -- true
--all-user -- true
--running-time -e task-clock -- true
--overwrite -- true
-m 16 -- true
-c 0 -- true
-e sched:sched_switch -c 5 -- true
-e sched:sched_switch -F 100 -- true
-a -e cpu-clock -G / -- sleep 0.01
-I -- true
--buildid-mmap -- true
-D 100 -- true
-D -1 -g -- true
-D 50 -a -- sleep 0.1
--intr-regs=ax,sp -- true
--user-regs=ax,bx -- true
-g --user-regs=r15 -- true
-e cpu-clock -e task-clock -a -G /,/ -- sleep 0.01
--data-page-size -- true
--code-page-size -- true
--transaction -- true
-a --data-page-size -- sleep 0.01
--namespaces -- true
--all-cgroups -- true
-a --all-cgroups --namespaces -- sleep 0.01
--synth=no -- true
LIST

test_expect_success PERF,NOBODY 'attrs as an unprivileged user (paranoid fallbacks)' '
	chmod 755 "$TRASH" &&
	RUN_PREFIX="setpriv --reuid nobody --regid nogroup --clear-groups" check -- true &&
	RUN_PREFIX="setpriv --reuid nobody --regid nogroup --clear-groups" check -e cpu-clock -- true &&
	RUN_PREFIX="setpriv --reuid nobody --regid nogroup --clear-groups" check -g -e task-clock -- true
'

test_expect_success PERF 'attrs: record -p PID and -t TID' '
	sleep 30 &
	sp=$!
	RUN_PREFIX="timeout -s INT 0.3" check -p $sp &&
	RUN_PREFIX="timeout -s INT 0.3" check -t $sp &&
	RUN_PREFIX="timeout -s INT 0.3" check -p $sp --per-thread -g &&
	kill $sp
'

test_done
