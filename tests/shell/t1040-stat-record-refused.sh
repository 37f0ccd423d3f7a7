#!/bin/bash
# SPDX-License-Identifier: MIT
# stat record / stat report (and their 3+ letter abbreviations) are refused with
# a message and exit 1, never run as a workload named "record"; shorter words
# and paths stay workloads, as in perf.
. "$(dirname "$0")/lib.sh"

for w in record rec reco report rep repor; do
	case $w in rec*) full=record ;; *) full=report ;; esac
	test_expect_success "stat $w: refused, exit 1, nothing run or written" "
		test_exit_code 1 \"\$SONDE\" stat $w -o out.data -- touch ran 2>err &&
		test_cmp - err <<-EOT &&
		sonde: 'stat $full' is not implemented: sonde does not write or read stat data files; run 'sonde stat [<options>] -- <command>' instead
		EOT
		! test -e ran && ! test -e out.data
	"
done

test_expect_success 'stat -e cs -- record: refused too (perf takes the mode after --)' '
	test_exit_code 1 "$SONDE" stat -e cs -- record -- touch ran 2>err &&
	test_grep "^sonde: .stat record. is not implemented" err &&
	! test -e ran
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
	printf "#!/bin/sh\ntouch ran\n" >record && chmod +x record &&
	"$SONDE" stat -e cs -- ./record 2>err &&
	test -e ran
'

test_done
