#!/bin/bash
# SPDX-License-Identifier: MIT
# check: parallel (files of its own workload, nothing timed, no system-wide recording)
# sonde inject vs perf inject on the same perf.data: plain copy and -b (build-ids) from a file
# and through pipes; the records (in file order), build-id lists and reports perf makes of both.
. "$(dirname "$0")/lib.sh"

work=$SONDE_WORKLOADS/rptmix

# records FILE [nooff] - the records of FILE in file order as perf -D shows them (with
# their offsets unless nooff), without the pipe header records (perf and sonde write
# other feature sets in a pipe, so a pipe is compared with nooff)
records() {
	"$PERF" report -D -i "$1" 2>/dev/null |
		grep -E "^(0x[0-9a-f]+|[0-9]+ 0x[0-9a-f]+) \[" | grep -v "PERF_RECORD_FEATURE\|PERF_RECORD_ATTR" |
		sed -E "s/^[0-9]+ (0x)/\1/" |
		while read -r off rest; do printf "%d\t%s\n" "$off" "$rest"; done | sort -n |
		if [ "$2" = nooff ]; then cut -f2-; else cat; fi
}

test_expect_success PERF 'record the workload, to a file and to a pipe' '
	{ "$PERF" record -q -o "$TRASH/f.data" -F 999 -- "$work" >/dev/null 2>rec.err || { cat rec.err; false; }; } &&
	{ "$PERF" record -q -o - -F 999 -- "$work" >"$TRASH/p.data" 2>rec.err || { cat rec.err; false; }; } &&
	test -s "$TRASH/f.data" && test -s "$TRASH/p.data"
'

test_expect_success PERF 'file to file: the same records, offsets and build-ids as perf inject' '
	test -s "$TRASH/f.data" &&
	"$PERF" inject -i "$TRASH/f.data" -o p1.data &&
	"$SONDE" inject -i "$TRASH/f.data" -o s1.data &&
	records p1.data >expect && records s1.data >actual && test_cmp expect actual &&
	"$PERF" buildid-list -i p1.data >expect && "$PERF" buildid-list -i s1.data >actual &&
	test_cmp expect actual &&
	"$PERF" report --header-only -i s1.data >hdr && test_grep "^# cmdline : .*sonde inject -i" hdr
'

test_expect_success PERF '-b file to file: build-id records before the first sample of each dso, as perf' '
	test -s "$TRASH/f.data" &&
	"$PERF" inject -b -i "$TRASH/f.data" -o p2.data &&
	"$SONDE" inject -b -i "$TRASH/f.data" -o s2.data &&
	records p2.data >expect && records s2.data >actual && test_cmp expect actual &&
	test_grep "PERF_RECORD_BUILD_ID" actual &&
	"$PERF" buildid-list -i p2.data >expect && "$PERF" buildid-list -i s2.data >actual &&
	test_cmp expect actual && test_grep "rptmix$" actual &&
	"$PERF" report --stdio -i p2.data -s comm,dso,sym 2>/dev/null | grep -v "^#" >expect &&
	"$PERF" report --stdio -i s2.data -s comm,dso,sym 2>/dev/null | grep -v "^#" >actual &&
	test_cmp expect actual && test_grep "rptmix +\[\.\] hot" actual
'

# perf names the vdso of its own process in a pipe's build-id records (/tmp/perf-vdso.so-XXXXXX,
# a different name each run); sonde writes [vdso] with the same id: that line is left out below
test_expect_success PERF 'pipe in, pipe out (-b and plain): perf reads the stream, same records as perf inject' '
	test -s "$TRASH/p.data" &&
	for b in "" -b; do
		"$PERF" inject $b <"$TRASH/p.data" >pp.data &&
		cat "$TRASH/p.data" | "$SONDE" inject $b | cat >sp.data &&
		records pp.data nooff >expect && records sp.data nooff >actual && test_cmp expect actual &&
		"$PERF" report --stdio -i - <pp.data 2>/dev/null | grep -v "^#" >expect &&
		"$PERF" report --stdio -i - <sp.data 2>/dev/null | grep -v "^#" >actual &&
		test_cmp expect actual && test_grep "hot" actual || return 1
	done &&
	"$PERF" buildid-list -i pp.data | grep -v "perf-vdso\.so\|\[vdso\]" >expect &&
	"$PERF" buildid-list -i sp.data >actual.all && grep -v "\[vdso\]" actual.all >actual &&
	test_cmp expect actual && test_grep "rptmix$" actual &&
	{ ! grep -q "vdso" actual.all || test_grep "^[0-9a-f]{40} \[vdso\]$" actual.all; }
'

test_expect_success PERF 'pipe in, file out: perf reads the file as it reads the stream' '
	test -s "$TRASH/p.data" &&
	"$SONDE" inject -b -o s3.data <"$TRASH/p.data" &&
	"$PERF" report --stdio -i - <"$TRASH/p.data" 2>/dev/null | grep -v "^#" >expect &&
	"$PERF" report --stdio -i s3.data 2>/dev/null | grep -v "^#" >actual &&
	test_cmp expect actual &&
	"$PERF" buildid-list -i s3.data >actual && test_grep "rptmix$" actual
'

# perf starts the data of an --itrace output at 0x3000: compared without offsets
test_expect_success PERF '--itrace on a file without AUX data: the records in time order, no id index, as perf' '
	test -s "$TRASH/f.data" &&
	"$PERF" inject --itrace -i "$TRASH/f.data" -o p4.data &&
	"$SONDE" inject --itrace -i "$TRASH/f.data" -o s4.data &&
	records p4.data nooff >expect && records s4.data nooff >actual && test_cmp expect actual &&
	! grep -q ID_INDEX actual
'

test_expect_success PERF '-h: the options and help of perf inject' '
	test_exit_code 129 "$PERF" inject -h >expect 2>&1 &&
	test_exit_code 129 "$SONDE" inject -h >actual.raw 2>&1 &&
	sed "s/sonde inject/perf inject/" actual.raw >actual && test_cmp expect actual
'

test_expect_success 'a missing input, the same file in and out' '
	test_exit_code 255 "$SONDE" inject -i none.data -o out.data 2>err &&
	test_grep "failed to open none.data: No such file or directory" err &&
	echo keep >same.data &&
	test_exit_code 255 "$SONDE" inject -i same.data -o same.data 2>err &&
	test_grep "same file" err && test "$(cat same.data)" = keep
'

test_done
