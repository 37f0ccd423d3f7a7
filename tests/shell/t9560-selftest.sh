#!/bin/bash
# SPDX-License-Identifier: MIT
# sonde test: perf test's layout ("N: description : Ok|FAILED!|Skip (reason)"), the list,
# picking tests by number and name fragment, -v's start/end blocks, the exit status.
. "$(dirname "$0")/lib.sh"

test_expect_success 'every test reports Ok, FAILED! or Skip (reason) in perf test layout' '
	rc=0 && "$SONDE" test >out 2>err || rc=$? &&
	test "$(wc -l <out)" -ge 7 &&
	! grep -Ev "^ *[0-9]+: .* : (Ok|FAILED!|Skip \(.+\))$" out &&
	if grep -q "FAILED!" out; then test $rc = 1; else test $rc = 0; fi
'

test_expect_success 'list, numbers and name fragments pick tests' '
	"$SONDE" test list >list &&
	test_grep "^  5: perf.data round trip" list &&
	"$SONDE" test 1 3 >out &&
	test "$(wc -l <out)" = 2 &&
	test_grep "^  3: tracefs mounted" out &&
	"$SONDE" test kallsyms >out &&
	test_grep "^  7: Kernel symbols from /proc/kallsyms +: " out &&
	"$SONDE" test -s 3 3 >out &&
	test_grep "Skip \(user override\)" out
'

test_expect_success ROOT 'the round trip and symbol tests pass as root; -v shows details' '
	"$SONDE" test -v 5 6 >out &&
	test_grep "^--- start ---" out &&
	test_grep "records read back" out &&
	test_grep "^perf.data round trip \(record and read back\): Ok" out &&
	test_grep "^Symbols of sonde.s own binary: Ok" out
'

test_done
