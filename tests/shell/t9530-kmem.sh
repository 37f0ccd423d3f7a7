#!/bin/bash
# SPDX-License-Identifier: MIT
# perf kmem stat vs sonde kmem stat (stdout, stderr, exit status) on slab and page
# allocator files perf kmem record makes of a forking workload; sonde kmem record read by
# perf; the messages for files without the allocator events.
. "$(dirname "$0")/lib.sh"

work=$SONDE_WORKLOADS/schedfork

# same ARGS...: perf kmem and sonde kmem print the same
same() {
	local rc1=0 rc2=0
	"$PERF" kmem "$@" >expect 2>expect.err </dev/null || rc1=$?
	"$SONDE" kmem "$@" >actual 2>actual.err </dev/null || rc2=$?
	test "$rc1" = "$rc2" || { echo "exit status: perf $rc1, sonde $rc2 for $*"; cat actual.err; return 1; }
	test_cmp expect actual || return 1
	test_cmp expect.err actual.err || { echo "stderr differs: kmem $*"; return 1; }
}

test_expect_success PERF,ROOT,TRACEFS 'perf kmem record: slab and page events' '
	"$PERF" kmem record -o "$TRASH/slab.data" -- "$work" 10 2 >/dev/null 2>&1 &&
	"$PERF" kmem --page record -o "$TRASH/page.data" -- "$work" 10 2 >/dev/null 2>&1 &&
	test -s "$TRASH/slab.data" && test -s "$TRASH/page.data"
'

test_expect_success PERF,ROOT,TRACEFS 'stat: slab summary, page summary and order table' '
	test -s "$TRASH/page.data" &&
	same -i "$TRASH/slab.data" stat &&
	test_grep "^Total bytes requested: [1-9]" actual &&
	same -i "$TRASH/slab.data" stat --caller &&
	same -i "$TRASH/slab.data" --slab stat &&
	same -i "$TRASH/page.data" --page stat &&
	test_grep "^Order     Unmovable" actual &&
	same -i "$TRASH/page.data" stat &&
	same -i "$TRASH/slab.data" --page stat &&
	test_grep "No page allocation events found" actual.err
'

test_expect_success ROOT,TRACEFS 'sonde kmem record: perf reads it alike' '
	"$SONDE" kmem record -q -o "$TRASH/s.data" -- "$work" 5 2 >/dev/null 2>&1 &&
	"$SONDE" evlist -i "$TRASH/s.data" >ev &&
	test_grep "^kmem:kmalloc$" ev &&
	test_grep "^kmem:kfree$" ev &&
	if test_have_prereq PERF; then
		same -i "$TRASH/s.data" stat
	fi
'

test_done
