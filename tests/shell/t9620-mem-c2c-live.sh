#!/bin/bash
# SPDX-License-Identifier: MIT
# mem and c2c: without memory sampling events (no PEBS/IBS, as on this VM)
# record fails with perf's message and exit status before running anything;
# usage and missing-file errors are perf's. mem report: t9650; c2c report:
# t9621.
. "$(dirname "$0")/lib.sh"

have_mem() {
	ls /sys/bus/event_source/devices/cpu*/events/mem-loads \
		/sys/bus/event_source/devices/ibs_op >/dev/null 2>&1
}

if ! test_have_prereq PERF; then
	test_skip "mem/c2c against perf" "$prereq_reason"
	test_done
fi

# same CMD...: perf and sonde print the same (usage names aside) and exit alike
same() {
	local prc=0 src=0
	"$PERF" "$@" >perf.out 2>&1 || prc=$?
	"$SONDE" "$@" >sonde.out 2>&1 || src=$?
	sed -i "s/Usage: perf /Usage: sonde /" perf.out
	test_cmp perf.out sonde.out && { [ $prc = $src ] || { echo "exit $src, perf $prc: $*"; return 1; }; }
}

if have_mem; then
	test_skip "record refused without memory events" "this cpu has memory sampling events"
else
	test_expect_success 'mem/c2c record without memory events: perf'"'"'s message, 255, nothing run' '
		for a in "mem record" "mem record -t load" "mem -t store record" "c2c record" "c2c record -h"; do
			same $a -- touch ran || return 1
			grep -qx "failed: memory events not supported" sonde.out || return 1
		done &&
		! test -e ran
	'
fi

test_expect_success 'usage and missing files as perf' '
	same mem && same c2c && same mem bogus &&
	same mem report -i /nonexistent.data && same c2c report -i /nonexistent.data
'

test_done
