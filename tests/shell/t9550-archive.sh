#!/bin/bash
# SPDX-License-Identifier: MIT
# check: parallel (its own HOME and workload, nothing timed, no system-wide recording)
# sonde archive vs perf archive: the same build-id cache entries in the tarball and the
# same message; the tarball unpacked in a scratch HOME serves a report there.
. "$(dirname "$0")/lib.sh"

work=$SONDE_WORKLOADS/rptmix

test_expect_success PERF 'archive: the entries and the message of perf archive' '
	{ "$PERF" record -q -o "$TRASH/d.data" -F 999 -- "$work" >rec.out 2>&1 || { cat rec.out; false; }; } &&
	cp "$TRASH/d.data" p.data && cp "$TRASH/d.data" s.data &&
	{ "$PERF" archive p.data >p.out 2>p.err || { echo "perf archive failed:"; cat p.err; false; }; } &&
	{ "$SONDE" archive s.data >s.out 2>s.err || { echo "sonde archive failed:"; cat s.err; false; }; } &&
	tar tjf p.data.tar.bz2 | sort >p.list &&
	tar tjf s.data.tar.bz2 | sort >s.list &&
	test_cmp p.list s.list &&
	test_grep "^\.build-id/" s.list &&
	sed s/p.data/s.data/ p.out >expect &&
	test_cmp expect s.out &&
	test_grep "tar xvf s.data.tar.bz2 -C ~/.debug" s.out
'

test_expect_success PERF 'the tarball unpacked in a scratch HOME: report works there' '
	test -s s.data.tar.bz2 &&
	mkdir -p home/.debug &&
	tar xjf s.data.tar.bz2 -C home/.debug &&
	HOME=$PWD/home "$SONDE" report --stdio -i s.data -s dso,sym 2>/dev/null | grep -v "^#" | grep . >s.rep &&
	HOME=$PWD/home "$PERF" report --stdio -i s.data -s dso,sym 2>/dev/null | grep -v "^#" | grep . >p.rep &&
	test_cmp p.rep s.rep &&
	test_grep "rptmix +\[\.\] hot" s.rep
'

test_expect_success 'archive: a missing file' '
	test_exit_code 255 "$SONDE" archive none.data 2>err &&
	test_grep "failed to open none.data" err
'

test_done
