#!/bin/bash
# SPDX-License-Identifier: MIT
# Probe and tracepoint payloads in stat, record, script (-F trace) and report
# --sort trace, on files recorded by sonde and by perf; --filter as perf.
. "$(dirname "$0")/lib.sh"

ln -s "$SONDE" perf
UPEV=/sys/kernel/tracing/uprobe_events
LIBC=$(readlink -f /lib/x86_64-linux-gnu/libc.so.6)
# this run's own groups: nothing another probe user could hold
G=plp$$
GL=plpc$$
BIN=plprog$$

cleanup_probes() {
	[ -w "$UPEV" ] || return 0
	local line
	grep -E "^[pr]:($G|$GL)/" "$UPEV" 2>/dev/null | while read -r line _; do
		echo "-:${line#?:}" >>"$UPEV" 2>/dev/null || :
	done
	return 0
}
trap 'cleanup_probes; cd /; rm -rf "$TRASH"' EXIT

# prints every call it makes, for comparison with the decoded payloads
cat >t.c <<'SRC'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
__attribute__((noinline)) int work(int n, const char *s) { return n * 100 + (int)strlen(s); }
int main(int argc, char **argv)
{
	int nr = argc > 1 ? atoi(argv[1]) : 3;
	for (int i = 0; i < nr; i++) {
		const char *s = i & 1 ? "odd one" : "even";
		int r = work(i, s);
		printf("work n=%d s=\"%s\" ret=%d\n", i, s, r);
		void *p = malloc(64 + i);
		printf("malloc size=0x%x\n", 64 + i);
		free(p);
	}
	return 0;
}
SRC
cc -g -O0 -o $BIN t.c && BUILT=1

E="-e $G:work -e $G:work__return -e $GL:mal -e sched:sched_process_exec -e syscalls:sys_exit_openat"

test_expect_success PERF,ROOT,UPROBES 'probes with DWARF, string, return and typed arguments are added' '
	[ "$BUILT" = 1 ] &&
	./perf probe -q -x ./$BIN "$G:work=work n s:string" &&
	./perf probe -q -x ./$BIN "$G:work=work%return \$retval:s32" &&
	./perf probe -q -x "$LIBC" "$GL:mal=malloc size=%di:x64" &&
	[ $(grep -cE "^[pr]:($G|$GL)/" "$UPEV") = 3 ]
'

test_expect_success PERF,ROOT,UPROBES 'script of a sonde-recorded file: values the program passed, as perf prints them' '
	./perf record -q -o s.data $E ./$BIN 5 >prog.out &&
	./perf script -i s.data >s.script &&
	"$PERF" script -i s.data >p.script &&
	test_cmp p.script s.script &&
	sed -n "s/^work \(n=[0-9]* s=\"[^\"]*\"\) ret=.*/\1/p" prog.out >want.work &&
	[ $(wc -l <want.work) = 5 ] &&
	sed -n "s/.* $G:work: ([0-9a-f]*) n=\([0-9]*\) s_string=/n=\1 s=/p" s.script >got.work &&
	test_cmp want.work got.work &&
	sed -n "s/^work .* ret=\([0-9]*\)$/arg1=\1/p" prog.out >want.ret &&
	sed -n "s/.* $G:work__return: ([0-9a-f]* <- [0-9a-f]*) //p" s.script >got.ret &&
	test_cmp want.ret got.ret &&
	sed -n "s/^malloc //p" prog.out >want.mal &&
	grep -o "$GL:mal: ([0-9a-f]*) size=0x4[0-9a-f]$" s.script | sed "s/.* //" >got.mal &&
	test_cmp want.mal got.mal &&
	test_grep "sched:sched_process_exec: filename=./$BIN pid=[0-9]* old_pid=[0-9]*$" s.script
'

test_expect_success PERF,ROOT,UPROBES 'script of a perf-recorded file is the same as perf script' '
	"$PERF" record -q -o p.data $E ./$BIN 4 >/dev/null &&
	for f in s.data p.data; do
		"$PERF" script -i $f >p.out 2>p.err &&
		./perf script -i $f >s.out 2>s.err &&
		test_cmp p.out s.out && test_cmp p.err s.err || return 1
	done
'

test_expect_success PERF,ROOT,UPROBES 'script -F trace and trace with other fields as perf' '
	for f in s.data p.data; do
		for F in trace comm,tid,event,trace event,trace,ip,sym; do
			"$PERF" script -F $F -i $f >p.out 2>p.err &&
			./perf script -F $F -i $f >s.out 2>s.err &&
			test_cmp p.out s.out && test_cmp p.err s.err || { echo "-F $F $f"; return 1; }
		done
	done &&
	./perf script -F trace -i s.data >s.out 2>/dev/null &&
	test_grep "^(\([0-9a-f]*\)) n=1 s_string=\"odd one\"$" s.out
'

test_expect_success PERF,ROOT,UPROBES 'report --sort trace, trace_fields as perf' '
	for f in s.data p.data; do
		for s in trace trace_fields trace,comm; do
			"$PERF" report --stdio --sort $s -i $f 2>&1 | grep -v "^# (Tip:" >p.out &&
			./perf report --stdio --sort $s -i $f 2>&1 | grep -v "^# (Tip:" >s.out &&
			test_cmp p.out s.out || { echo "--sort $s $f"; return 1; }
		done
	done &&
	./perf report --stdio --sort trace -i s.data >s.out 2>&1 &&
	test_grep "^ +20.00%  \([0-9a-f]* <- [0-9a-f]*\) arg1=107 *$" s.out
'

test_expect_success PERF,ROOT,UPROBES 'stat counts probe events as often as the program called' '
	./perf stat -x, -e $G:work -e $G:work__return ./$BIN 7 >prog.out 2>stat.out &&
	[ $(grep -c "^work " prog.out) = 7 ] &&
	test_grep "^7,,$G:work," stat.out &&
	test_grep "^7,,$G:work__return," stat.out
'

test_expect_success PERF,ROOT,UPROBES '--filter: the kernel keeps what matches (record and stat)' '
	./perf record -q -o f.data -e $G:work -e $GL:mal --filter "size > 0x42 && size < 0x100 && common_pid != 1" ./$BIN 5 >/dev/null &&
	./perf script -F event,trace -i f.data 2>/dev/null | grep "$GL:mal" | sed "s/.* //" >got &&
	printf "size=0x%x\n" 67 68 >want &&
	test_cmp want got &&
	[ $(./perf script -i f.data | grep -c " $G:work:") = 5 ] &&
	./perf stat -x, -e $G:work --filter "s_string ~ \"odd*\"" ./$BIN 6 >/dev/null 2>stat.out &&
	test_grep "^3,,$G:work," stat.out &&
	./perf stat -x, -e "$G:work__return" --filter "common_pid != 1 && arg1 > 200" ./$BIN 6 \
		>/dev/null 2>stat.out &&
	test_grep "^4,,$G:work__return," stat.out
'

# the same text and status from perf and sonde: CMD ARGS...
same_run() {
	local rc1=0 rc2=0
	"$PERF" "$@" >p.out 2>p.err || rc1=$?
	./perf "$@" >s.out 2>s.err || rc2=$?
	test_cmp p.out s.out && test_cmp p.err s.err && [ $rc1 = $rc2 ] ||
		{ echo "exit: perf $rc1, sonde $rc2: $*"; return 1; }
}

test_expect_success PERF,ROOT,UPROBES '--filter errors: perf texts and statuses, the workload never runs' '
	same_run record -o f.data -e $GL:mal --filter "bogus > 100" ./$BIN 2 &&
	test_grep "^failed to set filter \"bogus > 100\" on event $GL:mal with 22 \\(Invalid argument\\)$" s.err &&
	[ ! -s s.out ] &&
	same_run record -q -o f.data -e $GL:mal --filter "size >" ./$BIN 2 &&
	same_run stat -e $G:work --filter "n == (1" ./$BIN 2 &&
	same_run stat -x, -e "$G:work,$G:work__return" --filter "arg1 > 200" ./$BIN 2 &&
	same_run stat -e sched:sched_switch --filter "prev_pid == (1" true &&
	same_run record -o f.data -e cycles --filter "x > 1" true &&
	same_run record -o f.data --filter "x > 1" -e $G:work true &&
	same_run stat --filter "x > 1" -e $G:work true
'

# tracefs read-only in a private mount namespace of the command only
ro_tracefs() {
	unshare -m --propagation private sh -c \
		'mount -o remount,bind,ro /sys/kernel/tracing && exec "$@"' ro "$@"
}
if unshare -m --propagation private true 2>/dev/null; then
	test_expect_success PERF,ROOT,UPROBES 'read-only tracefs: perf messages and statuses, nothing written' '
		cat "$UPEV" >before &&
		for args in "-x ./$BIN ${G}ro=work" "-d $G:*" "-d nosuch" "-l $G:*"; do
			rc1=0 rc2=0
			ro_tracefs "$PERF" probe $args >p.out 2>&1 || rc1=$?
			ro_tracefs ./perf probe $args >s.out 2>&1 || rc2=$?
			test_cmp p.out s.out && [ $rc1 = $rc2 ] || { echo "exit $rc1 / $rc2: $args"; return 1; }
		done &&
		rc2=0 &&
		{ ro_tracefs ./perf probe -x ./$BIN ${G}ro=work 2>s.err || rc2=$?; } &&
		[ $rc2 = 226 ] &&
		test_grep "^Failed to open .*/uprobe_events: Read-only file system$" s.err &&
		test_cmp before "$UPEV"
	'
else
	test_skip "read-only tracefs" "unshare -m is not permitted here"
fi

test_expect_success PERF,ROOT,UPROBES '--list: offsets in the first row of a CU, carried over return probes' '
	for sp in "$G:off=work+4" "$G:m1=main+1" "$G:w1=work+1"; do
		./perf probe -q -x ./$BIN "$sp" || return 1
	done &&
	"$PERF" probe -l "$G:*" >p.out 2>&1 &&
	./perf probe -l "$G:*" >s.out 2>&1 &&
	test_cmp p.out s.out &&
	test_grep "^  $G:work__return +\(on work\+1@" s.out
'

# at -O2 a loop's body lines share addresses with the lines before them
cat >r.c <<'SRC'
#include <stdio.h>
#include <string.h>
static long total;
__attribute__((noinline)) int work(int n, const char *s)
{
	int len = (int)strlen(s);
	for (int i = 0; i < n; i++) {
		int sq = i * i;
		total += sq + len;
	}
	return n + len;
}
int main(int argc, char **argv)
{
	int t = 0;
	for (int i = 0; i < argc + 2; i++)
		t += work(i, argv[0]);
	printf("%d\n", t);
	return 0;
}
SRC

test_expect_success PERF,UPROBES 'lines that share every address with earlier lines: perf hint in -D and -V' '
	cc -g -O2 -o r2 r.c &&
	for p in work:1 work:2 work:3 work:4 work:5 work:6 main:1 main:2 main:3 main:4; do
		for c in -D -V; do
			rc1=0 rc2=0
			"$PERF" probe -x ./r2 $c $p >p.out 2>&1 || rc1=$?
			./perf probe -x ./r2 $c $p >s.out 2>&1 || rc2=$?
			test_cmp p.out s.out && [ $rc1 = $rc2 ] || { echo "$c $p: $rc1 / $rc2"; return 1; }
		done
	done
'

test_expect_success PERF,ROOT,UPROBES '--del puts uprobe_events back as it was' '
	sed -E "/^[pr]:($G|$GL)\//d" "$UPEV" >before &&
	./perf probe -q -d "$G:*" -d "$GL:*" &&
	test_cmp before "$UPEV"
'

test_done
