#!/bin/bash
# SPDX-License-Identifier: MIT
# kmem stat --live against perf: with --page the order/migrate-type table
# counts only the pages still allocated at the end (the summary stays);
# on slab files and without page events --live changes nothing.
. "$(dirname "$0")/lib.sh"

work=$SONDE_WORKLOADS/schedfork

# same ARGS...: perf kmem and sonde kmem print the same, exit alike
same() {
	local rc1=0 rc2=0
	"$PERF" kmem "$@" >expect 2>expect.err </dev/null || rc1=$?
	"$SONDE" kmem "$@" >actual 2>actual.err </dev/null || rc2=$?
	test "$rc1" = "$rc2" || { echo "exit status: perf $rc1, sonde $rc2 for $*"; cat actual.err; return 1; }
	test_cmp expect actual && test_cmp expect.err actual.err
}

test_expect_success PERF,ROOT,TRACEFS 'perf kmem record: page and slab events' '
	"$PERF" kmem --page record -o "$TRASH/page.data" -- "$work" 10 2 >/dev/null 2>&1 &&
	"$PERF" kmem record -o "$TRASH/slab.data" -- "$work" 5 2 >/dev/null 2>&1 &&
	test -s "$TRASH/page.data" && test -s "$TRASH/slab.data"
'

test_expect_success PERF,ROOT,TRACEFS '--page --live: only live pages in the order table' '
	test -s "$TRASH/page.data" &&
	same -i "$TRASH/page.data" --page --live stat &&
	cp actual live &&
	same -i "$TRASH/page.data" --page stat &&
	! cmp -s live actual &&
	test_grep "^Total alloc-only requests" live
'

test_expect_success PERF,ROOT,TRACEFS '--live on slab files and without page events' '
	test -s "$TRASH/slab.data" &&
	same -i "$TRASH/slab.data" --live stat &&
	same -i "$TRASH/slab.data" --slab --page --live stat &&
	same -i "$TRASH/page.data" --live stat
'

test_done
