#!/bin/bash
# SPDX-License-Identifier: MIT
# sonde bench vs perf bench: the same output layout (numbers measure the machine, so
# every number is masked before the comparison), listings, -f simple, bad names.
. "$(dirname "$0")/lib.sh"

# same ARGS...: perf bench and sonde bench print the same text, numbers aside
same() {
	local rc1=0 rc2=0
	"$PERF" bench "$@" 2>&1 </dev/null | sed -E 's/ *(inf|[0-9][0-9.]*)/ N/g' >expect || rc1=$?
	"$SONDE" bench "$@" 2>&1 </dev/null | sed -E 's/ *(inf|[0-9][0-9.]*)/ N/g' >actual || rc2=$?
	test_cmp expect actual || { echo "differs: bench $*"; return 1; }
}

test_expect_success PERF 'sched pipe and messaging: layout' '
	same sched pipe -l 2000 &&
	same sched pipe -l 2000 -T &&
	test_grep "usecs/op" actual &&
	same sched messaging -g 1 -l 5 &&
	same sched messaging -g 1 -l 5 -p -t
'

test_expect_success PERF 'mem memcpy and memset: layout, functions, -f simple' '
	same mem memcpy -s 64KB -l 2 &&
	same mem memset -s 4KB -f default &&
	same mem memcpy -f help &&
	same -f simple mem memcpy -s 4KB &&
	same -f simple sched pipe -l 1000 &&
	test_grep "GB/sec|^ ?N$" actual
'

test_expect_success PERF 'listings and unknown names' '
	same &&
	same sched &&
	same mem foo &&
	same foo &&
	test_exit_code 1 "$SONDE" bench foo >/dev/null &&
	test_exit_code 1 "$SONDE" bench sched foo >/dev/null
'

test_done
