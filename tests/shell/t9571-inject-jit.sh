#!/bin/bash
# SPDX-License-Identifier: MIT
# sonde inject --jit vs perf inject --jit: a pretend JIT writes a jitdump (tests/workloads/jitdump.c,
# perf record -k mono); both inject the same file: the same records (the marker mmap replaced by
# one MMAP2 per code load, at the same offsets) and perf report resolves the JIT symbols alike.
. "$(dirname "$0")/lib.sh"

work=$SONDE_WORKLOADS/jitdump

# records FILE - every record of FILE as perf -D lists them (time, offset, size, text)
records() {
	"$PERF" report -D -i "$1" 2>/dev/null | grep -E "^(0x[0-9a-f]+|[0-9]+ 0x[0-9a-f]+) \["
}

if [ "$(uname -m)" != x86_64 ]; then
	test_skip 'inject --jit' 'the jitdump workload writes x86_64 code'
	test_done
	exit 0
fi

test_expect_success PERF 'record the jitdump workload with the monotonic clock' '
	mkdir -p "$TRASH/jd" &&
	{ "$PERF" record -q -k mono -o "$TRASH/j.data" -- "$work" "$TRASH/jd" 8 >/dev/null 2>rec.err ||
		{ cat rec.err; false; }; } &&
	ls "$TRASH"/jd/jit-*.dump
'

test_expect_success PERF '--jit: the records of perf inject --jit, and perf report resolves the JIT symbols alike' '
	test -s "$TRASH/j.data" &&
	"$PERF" inject --jit -i "$TRASH/j.data" -o p.data &&
	"$PERF" report --stdio -i p.data -s comm,dso,sym 2>/dev/null | grep -v "^#" | grep . >expect &&
	records p.data >expect.rec &&
	rm -f "$TRASH"/jd/jitted-*.so &&
	"$SONDE" inject --jit -i "$TRASH/j.data" -o s.data &&
	ls "$TRASH"/jd/jitted-*-1.so "$TRASH"/jd/jitted-*-2.so &&
	"$PERF" report --stdio -i s.data -s comm,dso,sym 2>/dev/null | grep -v "^#" | grep . >actual &&
	test_cmp expect actual &&
	test_grep "jitted-[0-9]+-1\.so +\[\.\] jit_hot" actual &&
	test_grep "jitted-[0-9]+-2\.so +\[\.\] jit_cold" actual &&
	records s.data >actual.rec &&
	sed -E "s/ fe:00 [0-9]+ 1\]/ INODE]/; s/ [0-9a-f]+:[0-9a-f]+ [0-9]+ 1\]/ INODE]/" expect.rec >expect &&
	sed -E "s/ fe:00 [0-9]+ 1\]/ INODE]/; s/ [0-9a-f]+:[0-9a-f]+ [0-9]+ 1\]/ INODE]/" actual.rec >actual &&
	test_cmp expect actual && ! grep -q "jit-[0-9]*\.dump" actual
'

test_expect_success PERF '--jit: the jitted ELF files carry the symbol and a build-id perf lists' '
	test -s s.data &&
	"$PERF" buildid-list -i s.data >bids &&
	test_grep "^[0-9a-f]{40} .*/jd/jitted-[0-9]+-1\.so$" bids &&
	test_grep "^[0-9a-f]{40} .*/jd/jitted-[0-9]+-2\.so$" bids
'

test_done
