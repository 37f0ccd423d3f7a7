#!/bin/bash
# SPDX-License-Identifier: MIT
# stat record / stat report are taken from their 3+ letter abbreviations, also
# after the stat options and after "--", never run as a workload named
# "record"; shorter words and paths stay workloads, as in perf.
. "$(dirname "$0")/lib.sh"

for w in record rec reco; do
	test_expect_success "stat $w: the record mode, the workload runs, the file is written" "
		\"\$SONDE\" stat $w -e cs -o out-$w.data -- touch ran-$w 2>err &&
		test -e ran-$w && test -s out-$w.data &&
		test_grep 'stats for .touch ran-$w.:' err
	"
done

for w in report rep repor; do
	test_expect_success "stat $w: the report mode reads the file" "
		\"\$SONDE\" stat $w -i out-record.data 2>err &&
		test_grep 'stats for .*stat record -e cs -o out-record.data -- touch ran-record.:' err
	"
done

test_expect_success 'stat -e cs -- record: the mode after -- too (as perf)' '
	"$SONDE" stat -e cs -- record -o after.data -- touch ran 2>err &&
	test -e ran && test -s after.data
'

# "re" is too short to be a mode: perf and sonde both try to run it
test_expect_success PERF 'stat re: a workload, as in perf (255, Workload failed)' '
	prc=0 && src=0 &&
	PATH=/nonexistent "$PERF" stat -e cs re 2>perf.err >/dev/null || prc=$?
	PATH=/nonexistent "$SONDE" stat -e cs re 2>sonde.err >/dev/null || src=$?
	test "$prc" = 255 && test "$src" = 255 &&
	test_cmp perf.err sonde.err
'

test_expect_success 'a program called record runs when given as a path' '
	printf "#!/bin/sh\ntouch ran-path\n" >record && chmod +x record &&
	"$SONDE" stat -e cs -- ./record 2>err &&
	test -e ran-path && ! test -e perf.data
'

test_done
