#!/bin/bash
# SPDX-License-Identifier: MIT
# check: parallel (its own files and workloads, nothing timed, no system-wide recording)
# Untrusted perf.data: truncated, corrupt and hostile files give a clear error
# naming the offset (exit 255), never a crash, hang or huge allocation.
# Also replays the fuzzer's regression inputs (tests/fuzz/regressions).
. "$(dirname "$0")/lib.sh"

F=$FIXTURES/callgraph.data

# no_crash CMD...: exit status is 0 or 255 (not a signal, not an abort)
no_crash() {
	local rc=0
	timeout 20 "$@" >/dev/null 2>err || rc=$?
	if [ "$rc" != 0 ] && [ "$rc" != 255 ]; then
		echo "exit $rc from: $*"
		cat err
		return 1
	fi
}

# put_u64 FILE OFFSET VALUE: overwrite 8 bytes little-endian
put_u64() {
	printf "$(printf '%016x' "$3" | sed -E 's/(..)(..)(..)(..)(..)(..)(..)(..)/\\x\8\\x\7\\x\6\\x\5\\x\4\\x\3\\x\2\\x\1/')" |
		dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

# salvage of truncated files is t4025's; here only that the cut is named
test_expect_success 'truncated inside the data section: warning with the offset, records read' '
	size=$(stat -c %s "$F") &&
	head -c $((size / 2)) "$F" >t.data &&
	"$SONDE" report -i t.data --stats >out 2>err &&
	test_grep "WARNING: t.data: damaged perf.data at offset 0x[0-9a-f]+: truncated file" err &&
	test_grep "SAMPLE events:" out
'

test_expect_success 'truncated header and attrs' '
	head -c 50 "$F" >h.data &&
	test_exit_code 255 "$SONDE" report -i h.data --header-only 2>err &&
	test_grep "offset 0x[0-9a-f]+: file is too short for a perf.data header" err &&
	test_grep "incompatible file format" err &&
	head -c 200 "$F" >a.data &&
	test_exit_code 255 "$SONDE" evlist -i a.data 2>err &&
	test_grep "offset 0x" err
'

test_expect_success 'not a perf.data file' '
	echo "hello, this is not perf data at all" >junk.data &&
	test_exit_code 255 "$SONDE" report -i junk.data --stats 2>err &&
	test_grep "offset 0x0: not a perf.data file \(bad magic" err
'

test_expect_success 'hostile sizes: attr_size, data size, feature sections' '
	cp "$F" s1.data && put_u64 s1.data 16 1099511627776 &&
	test_exit_code 255 "$SONDE" evlist -i s1.data 2>err && test_grep "attr_size .* invalid" err &&
	cp "$F" s2.data && put_u64 s2.data 48 1099511627776 &&
	test_exit_code 255 "$SONDE" report -i s2.data --stats 2>err && test_grep "past the end" err &&
	cp "$F" s3.data && put_u64 s3.data 24 9999999 &&
	test_exit_code 255 "$SONDE" evlist -i s3.data 2>err && test_grep "offset 0x" err
'

test_expect_success 'a record with size 0 in the data section' '
	cp "$F" z.data &&
	off=$(od -An -t u8 -j 40 -N 8 z.data | tr -d " ") &&
	printf "\x01\x00\x00\x00\x00\x00\x00\x00" | dd of=z.data bs=1 seek=$off conv=notrunc status=none &&
	test_exit_code 255 "$SONDE" report -i z.data -D 2>err >/dev/null &&
	test_grep "offset 0x[0-9a-f]+: record of type 1 has invalid size 0" err
'

test_expect_success 'killed record (data size 0 in the header): warning, records still read' '
	doff=$(od -An -t u8 -j 40 -N 8 "$F" | tr -d " ") &&
	dsize=$(od -An -t u8 -j 48 -N 8 "$F" | tr -d " ") &&
	head -c $((doff + dsize)) "$F" >k.data && put_u64 k.data 48 0 &&
	"$SONDE" report -i k.data --stats >out 2>err &&
	test_grep "data size field is 0 which is unexpected" err &&
	test_grep "SAMPLE events:" out
'

test_expect_success NOBODY 'a file owned by another user: perf message unless -f' '
	cp "$F" o.data && chown nobody o.data &&
	test_exit_code 255 "$SONDE" report -i o.data --stats 2>err &&
	test_grep "^File o.data not owned by current user or root \(use -f to override\)" err &&
	"$SONDE" report -f -i o.data --stats >out && test_grep "SAMPLE events" out &&
	"$SONDE" evlist -f -i o.data >out && test_grep "cpu-clock" out
'

test_expect_success 'byte flips all over the fixtures never crash' '
	for f in "$FIXTURES"/*.data; do
		size=$(stat -c %s "$f")
		for i in $(seq 1 12); do
			cp "$f" x.data
			off=$(( (i * 7919 * 13 + size / 3 * i) % size ))
			printf "\xff\x7f\x00\x80" | dd of=x.data bs=1 seek=$off conv=notrunc status=none
			no_crash "$SONDE" report -i x.data -D
			no_crash "$SONDE" report -i x.data --header-only -I
			no_crash "$SONDE" evlist -i x.data -v
			no_crash "$SONDE" buildid-list -i x.data -H
		done
	done
'

test_expect_success 'every truncation length of a small file never crashes' '
	f="$FIXTURES/compressed.data" size=$(stat -c %s "$FIXTURES/compressed.data") &&
	for n in $(seq 0 97 $size) 104 105 263 264 265; do
		head -c $n "$f" >tr.data
		no_crash "$SONDE" report -i tr.data -D
		no_crash "$SONDE" report -i tr.data --header-only -I
	done
'

test_expect_success 'fuzzer regression inputs (tests/fuzz/regressions)' '
	for f in "$SONDE_ROOT"/tests/fuzz/regressions/*; do
		[ -e "$f" ] || continue
		cp "$f" r.data
		no_crash "$SONDE" report -i r.data -D
		no_crash "$SONDE" report -i r.data --stats
		no_crash "$SONDE" report -i r.data --header-only -I
		no_crash "$SONDE" evlist -i r.data -v --trace-fields
		no_crash "$SONDE" buildid-list -i r.data -H
	done
'

test_done
