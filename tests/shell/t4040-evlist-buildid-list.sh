#!/bin/bash
# SPDX-License-Identifier: MIT
# evlist and buildid-list edge cases against perf: evlist -g with -F/-v is
# perf's usage error; a build-id table that lists a DSO twice prints it once.
. "$(dirname "$0")/lib.sh"

test_expect_success PERF 'a small perf.data written by perf' '
	"$PERF" record -q -o base.data -e cpu-clock -- "$SONDE_WORKLOADS/cpuburn" 20 >/dev/null 2>&1
'

for a in "-g -F" "-F -g" "-g -v" "-g -F -v" "-g -F -i /nonexistent"; do
	test_expect_success PERF "evlist $a: perf's incompatibility error and 129" "
		prc=0 && src=0 &&
		{ \"\$PERF\" evlist -i base.data $a >perf.out 2>&1 || prc=\$?; } &&
		{ \"\$SONDE\" evlist -i base.data $a >sonde.out 2>&1 || src=\$?; } &&
		test \$prc = 129 && test \$src = 129 &&
		sed s/sonde/perf/ sonde.out >sonde.n && test_cmp perf.out sonde.n
	"
done
for a in "-g" "-g -f" "-g --trace-fields" "-F" "-v"; do
	test_expect_success PERF "evlist $a: accepted, as perf" "
		\"\$PERF\" evlist -i base.data $a >perf.out 2>&1 &&
		\"\$SONDE\" evlist -i base.data $a >sonde.out 2>&1 &&
		test_cmp perf.out sonde.out
	"
done

# dup SRC DST BYTE XOR: append a copy of the first build-id entry (BYTE of it
# xored with XOR, 0 for an exact copy) to the HEADER_BUILD_ID section, written
# anew at the end of the file with its feature-table entry updated
dup() {
	python3 - "$@" <<-\PY
	import struct, sys
	src, dst, at, xor = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4], 0)
	b = bytearray(open(src, "rb").read())
	data_off, data_size = struct.unpack_from("<QQ", b, 40)
	feat = int.from_bytes(b[72:104], "little")
	bits = [i for i in range(256) if feat >> i & 1]
	tab = data_off + data_size + 16 * bits.index(2)
	off, size = struct.unpack_from("<QQ", b, tab)
	sec = bytes(b[off:off + size])
	esz = struct.unpack_from("<H", sec, 6)[0]
	first = bytearray(sec[:esz])
	first[at] ^= xor
	struct.pack_into("<QQ", b, tab, len(b), size + esz)
	b += sec + bytes(first)
	open(dst, "wb").write(b)
	PY
}

if ! command -v python3 >/dev/null; then
	test_skip "buildid-list of a table listing a DSO twice" "python3 not installed (it writes the file)"
else
	# exact copy; other build-id (byte 12 = first build-id byte); other cpumode
	# (byte 4 = misc: kernel -> user): perf keeps one line each, where the DSO
	# first appears, with the last entry's build-id
	for c in "0 0" "12 0xff" "4 0x03"; do
		test_expect_success PERF "buildid-list, DSO listed twice ($c): as perf" "
			dup base.data dup.data $c &&
			test \$(\"\$PERF\" buildid-list -i dup.data | wc -l) = \$(\"\$PERF\" buildid-list -i base.data | wc -l) &&
			\"\$PERF\" buildid-list -i dup.data >perf.out &&
			\"\$SONDE\" buildid-list -i dup.data >sonde.out &&
			test_cmp perf.out sonde.out &&
			\"\$PERF\" buildid-list -H -i dup.data >perf.out 2>/dev/null &&
			\"\$SONDE\" buildid-list -H -i dup.data >sonde.out 2>/dev/null &&
			test_cmp perf.out sonde.out
		"
	done
fi

test_done
