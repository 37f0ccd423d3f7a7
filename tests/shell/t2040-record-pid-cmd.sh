#!/bin/bash
# SPDX-License-Identifier: MIT
# record -p PID -- CMD: PID is recorded for as long as CMD runs; CMD's own samples are not.
. "$(dirname "$0")/lib.sh"

test_expect_success 'record -p PID -- CMD records PID while CMD runs' '
	"$SONDE_WORKLOADS/cpuburn" 4000 &
	bp=$! rc=0 &&
	"$SONDE" record -o pc.data -p $bp -- "$SONDE_WORKLOADS/cpuburn" 400 2>err || rc=$?
	kill $bp 2>/dev/null || :
	wait $bp || :
	test "$rc" = 0 || { cat err; return 1; }
	"$SONDE" script -i pc.data -F pid >pids 2>/dev/null &&
	test -s pids &&
	sort -u pids | tr -d " " >got &&
	echo $bp >expect &&
	test_cmp expect got
'

test_expect_success 'record -p with a pid that does not exist: a message, not a silent exit' '
	test_must_fail "$SONDE" record -o x.data -p 999999999 -- true >out 2>err &&
	test -s err
'

test_done
