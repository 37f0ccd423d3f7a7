#!/bin/bash
# SPDX-License-Identifier: MIT
# sonde probe -m/--module and --target-ns against perf: a module that is not
# loaded (this machine has none) gets perf's messages and statuses; the
# namespace option leaves definitions in one's own namespace unchanged.
. "$(dirname "$0")/lib.sh"

ln -s "$SONDE" perf

cat >t.c <<'SRC'
int work(int n) { return n * 2; }
int main(void) { return work(3) != 6; }
SRC
cc -g -O0 -o tns t.c && BUILT=1

same_as_perf() {
	local rc1=0 rc2=0
	"$PERF" probe "$@" >p.out 2>p.err || rc1=$?
	./perf probe "$@" >s.out 2>s.err || rc2=$?
	test_cmp p.out s.out && test_cmp p.err s.err && [ "$rc1" = "$rc2" ] ||
		{ echo "exit: perf $rc1, sonde $rc2: probe $*"; return 1; }
}

test_expect_success PERF 'the test program builds' '
	[ "$BUILT" = 1 ]
'

test_expect_success PERF '-m: a module that is not loaded, as perf' '
	if [ -e /proc/modules ] && grep -q "^sondenomod " /proc/modules; then
		echo "# unexpected module sondenomod"; return 1
	fi
	same_as_perf -m sondenomod -D some_func &&
	same_as_perf -m sondenomod some_func &&
	same_as_perf -m sondenomod -D "some_func%return" &&
	same_as_perf -m sondenomod -D some_func:3 &&
	test_grep "^Module sondenomod is not loaded, please specify its full path name.$" s.err &&
	same_as_perf -m sondenomod -F &&
	test_grep "^Failed to get a map for sondenomod$" s.err &&
	same_as_perf -m /nonexistent/dir/mod.ko -D some_func &&
	test_grep "^Failed to get the absolute path of /nonexistent/dir/mod.ko" s.err
'

test_expect_success PERF '--target-ns: the same definitions as perf' '
	same_as_perf --target-ns $$ -x ./tns -D work &&
	same_as_perf --target-ns $$ -x ./tns -D "work n" &&
	same_as_perf --target-ns 1 -x ./tns -D "work%return \$retval" &&
	test_grep "^r:probe_tns/work__return " s.out
'

test_done
