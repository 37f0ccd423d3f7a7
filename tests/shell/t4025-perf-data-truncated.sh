#!/bin/bash
# SPDX-License-Identifier: MIT
# Truncated perf.data (crash, full disk, partial copy, SIGKILLed record): every
# complete record is read, one warning names the damaged offset, exit 0; only a
# file cut inside its header or attrs fails.
. "$(dirname "$0")/lib.sh"

u64_at() { od -An -t u8 -j "$2" -N 8 "$1" | tr -d ' '; }

# walk FILE END: walk the record headers of the data section up to byte END
# (or the data section's end when smaller; data size 0: the end of the file).
# Prints "samples N" and "torn OFF" (0 when the walk ends on a record boundary).
walk() {
	local f=$1 end=$2 doff dsize pos type size n=0 torn=0 w
	doff=$(u64_at "$f" 40) dsize=$(u64_at "$f" 48)
	[ "$dsize" = 0 ] && dsize=$(($(stat -c %s "$f") - doff))
	[ $((doff + dsize)) -lt "$end" ] && end=$((doff + dsize))
	# the data section as 16-bit words, one a line (records are 8-byte multiples)
	mapfile -t w < <(od -An -v -t u2 -w2 -j "$doff" -N $((end - doff)) "$f")
	pos=$doff
	while [ $((pos + 8)) -le "$end" ]; do
		type=$((w[(pos - doff) / 2])) size=$((w[(pos - doff) / 2 + 3]))
		if [ $((pos + size)) -gt "$end" ]; then
			torn=$pos
			break
		fi
		[ "$type" = 9 ] && n=$((n + 1))
		pos=$((pos + size))
	done
	[ "$torn" = 0 ] && [ "$pos" -lt "$end" ] && torn=$pos
	echo "samples $n"
	echo "torn $torn"
}

# samples_of STATS_OUTPUT: the SAMPLE count of report --stats (0 when absent)
samples_of() {
	local n
	n=$(sed -n 's/^ *SAMPLE events: *\([0-9]*\).*/\1/p' "$1" | head -1)
	echo "${n:-0}"
}

F=$FIXTURES/callgraph.data
M=$FIXTURES/multi-event.data

test_expect_success 'cut inside the header or the attrs: clear error, exit 255' '
	for n in 16 50 103 104 150 200 263; do
		head -c $n "$F" >h.data &&
		test_exit_code 255 "$SONDE" report -i h.data --stats 2>err &&
		test_grep "corrupt perf.data at offset 0x" err &&
		test_grep "incompatible file format" err || return 1
	done
'

# check_cut FILE N: cut FILE at N bytes, report --stats reads every complete record,
# one warning, naming the torn record when there is one
check_cut() {
	head -c "$2" "$1" >t.data &&
	walk t.data "$2" >expect &&
	"$SONDE" report -i t.data --stats >out 2>err &&
	test "$(grep -c "damaged perf.data at offset 0x" err)" = 1 &&
	test "$(samples_of out)" = "$(sed -n "s/samples //p" expect)" || {
		echo "cut at $2 of $1:"; cat expect err; return 1
	}
	torn=$(sed -n "s/torn //p" expect)
	if [ "$torn" != 0 ]; then
		test_grep "WARNING: t.data: damaged perf.data at offset $(printf "0x%x" $torn): truncated file" err
	fi
}

test_expect_success 'cut in the data section (record boundaries and mid-record): every complete record' '
	doff=$(u64_at "$F" 40) dsize=$(u64_at "$F" 48) &&
	for n in $doff $((doff + 4)) $((doff + 8)) 300 1000 1040 2000 3000 4444 $((doff + dsize - 1)); do
		check_cut "$F" $n || return 1
	done &&
	doff=$(u64_at "$M" 40) dsize=$(u64_at "$M" 48) &&
	for n in $((doff + 1)) 2000 5001 7777 $((doff + dsize - 3)); do
		check_cut "$M" $n || return 1
	done
'

test_expect_success 'cut in the feature sections: all the records, the features that fit' '
	doff=$(u64_at "$F" 40) dsize=$(u64_at "$F" 48) fsize=$(stat -c %s "$F") &&
	for n in $((doff + dsize)) $((doff + dsize + 100)) 8000 $((fsize - 1)); do
		check_cut "$F" $n || return 1
	done &&
	head -c 8000 "$F" >t.data &&
	"$SONDE" report -i t.data --header-only >out 2>err &&
	test_grep "^# hostname : " out &&
	test_grep "feature CPU_TOPOLOGY section .* past the end of the file" err &&
	test_must_fail grep "CPU_TOPOLOGY info available" out &&
	test_must_fail grep "^# missing features: .*CPU_TOPOLOGY" out
'

test_expect_success PERF 'cut in the feature sections: perf reads the same records' '
	head -c 8000 "$F" >t.data &&
	"$PERF" report -i t.data --stats >perf.out 2>/dev/null &&
	"$SONDE" report -i t.data --stats >out 2>err &&
	test "$(samples_of out)" = "$(samples_of perf.out)" &&
	"$PERF" script -i t.data >perf.script 2>/dev/null &&
	"$SONDE" script -i t.data >script 2>/dev/null &&
	test "$(wc -l <script)" = "$(wc -l <perf.script)" &&
	"$PERF" evlist -i t.data >perf.ev &&
	"$SONDE" evlist -i t.data >ev 2>/dev/null &&
	test_cmp perf.ev ev
'

test_expect_success 'every reading command salvages a cut file, warning once' '
	head -c 3000 "$F" >t.data &&
	for cmd in "report --stdio" "report --stats" "report -D" "report --header-only" \
		   "script" "evlist" "buildid-list" "report --stdio --header"; do
		$SONDE $cmd -i t.data >out 2>err &&
		test "$(grep -c "damaged perf.data at offset 0xbb0" err)" = 1 || {
			echo "$cmd:"; cat err; return 1
		}
	done &&
	"$SONDE" script -i t.data >out 2>/dev/null &&
	test -s out
'

test_expect_success 'data size 0 (killed record) and a torn last record' '
	head -c 3000 "$F" >k.data &&
	printf "\0\0\0\0\0\0\0\0" | dd of=k.data bs=1 seek=48 conv=notrunc status=none &&
	walk k.data 3000 >expect &&
	"$SONDE" report -i k.data --stats >out 2>err &&
	test_grep "data size field is 0 which is unexpected" err &&
	test "$(grep -c "damaged perf.data at offset 0xbb0: truncated file: the SAMPLE record" err)" = 1 &&
	test "$(samples_of out)" = "$(sed -n "s/samples //p" expect)"
'

# killed RECORDER: record a workload with a small ring, SIGKILL the recorder
killed() {
	"$@" record -m 2 -F 499 -o k.data -- "$SONDE_WORKLOADS/cpuburn" 1200 >/dev/null 2>&1 &
	pid=$!
	sleep 0.8
	kill -9 $pid
	wait $pid
	sleep 0.6 # the workload ends on its own
	test "$(u64_at k.data 48)" = 0
}

test_expect_success 'SIGKILLed sonde record: the complete records, exit 0' '
	killed "$SONDE" &&
	walk k.data $(stat -c %s k.data) >expect &&
	"$SONDE" report -i k.data --stats >out 2>err &&
	test_grep "data size field is 0" err &&
	test "$(samples_of out)" = "$(sed -n "s/samples //p" expect)" &&
	test "$(samples_of out)" -gt 0 &&
	"$SONDE" script -i k.data >out 2>/dev/null &&
	test "$(wc -l <out)" -gt 0
'

test_expect_success PERF 'SIGKILLed perf record: the complete records, exit 0' '
	killed "$PERF" &&
	walk k.data $(stat -c %s k.data) >expect &&
	"$SONDE" report -i k.data --stats >out 2>err &&
	test_grep "data size field is 0" err &&
	test "$(samples_of out)" = "$(sed -n "s/samples //p" expect)" &&
	"$SONDE" evlist -i k.data >out &&
	test -s out
'

test_expect_success 'pipe-format file cut mid-record: the records before it, one warning' '
	P=$FIXTURES/pipe.data &&
	head -c 3000 "$P" >p.data &&
	"$SONDE" report -i p.data --stats >out 2>err &&
	test "$(grep -c "damaged perf.data at offset 0x[0-9a-f]*: truncated file" err)" = 1 &&
	"$SONDE" report -i - --stats <p.data >out2 2>err &&
	test "$(grep -c "damaged perf.data at offset 0x[0-9a-f]*: truncated file" err)" = 1 &&
	test_cmp out out2
'

test_done
