#!/bin/bash
# SPDX-License-Identifier: MIT
# SDT (USDT) probes against perf: buildid-cache --add/--list/--remove and its
# probes file, list sdt, probe sdt_PROV:NAME (-D, uprobe_events, semaphores
# through ref_ctr_offset), stat counts and record/script values equal to
# what the test program did, and the hint for an event not probed yet.
. "$(dirname "$0")/lib.sh"

ln -s "$SONDE" perf
UPEV=/sys/kernel/tracing/uprobe_events
# unique providers: their groups (sdt_<provider>) belong to this run only
P=sdtt$$
Q=sdts$$
SDT_H=
for h in /usr/include/sys/sdt.h /usr/include/x86_64-linux-gnu/sys/sdt.h; do
	[ -f "$h" ] && SDT_H=$h
done

cleanup_probes() {
	[ -w "$UPEV" ] || return 0
	local line ev
	grep -E "^[pr]:(sdt_$P|sdt_$Q)/" "$UPEV" 2>/dev/null | while read -r line _; do
		ev=${line#?:}
		echo "-:$ev" >>"$UPEV" 2>/dev/null || :
	done
	return 0
}
trap 'cleanup_probes; cd /; rm -rf "$TRASH"' EXIT

cat >sdtprog.c <<SRC
#include <stdio.h>
#include <sys/sdt.h>
int main(int argc, char **argv)
{
	int loops = argc > 1 ? 5 : 3;
	for (int i = 0; i < loops; i++) {
		DTRACE_PROBE2($P, tick, i, i * 10);
		printf("tick %d %d\n", i, i * 10);
	}
	DTRACE_PROBE($P, done);
	return 0;
}
SRC
cat >semprog.c <<SRC
#define _SDT_HAS_SEMAPHORES 1
#include <stdio.h>
#include <sys/sdt.h>
unsigned short ${Q}_hit_semaphore __attribute__((unused, section(".probes")));
int main(void)
{
	long total = 0;
	for (int i = 0; i < 4; i++) {
		if (${Q}_hit_semaphore) {
			printf("hit enabled %d %ld\n", i, total);
			DTRACE_PROBE2($Q, hit, i, total);
		}
		total += i;
	}
	return 0;
}
SRC
if [ -z "$SDT_H" ]; then
	echo "# no <sys/sdt.h> (Debian systemtap-sdt-dev): SDT tests skipped"
elif command -v cc >/dev/null && cc -g -O1 -o sdtprog sdtprog.c && cc -g -O2 -o semprog semprog.c &&
	cc -g -O0 -o sdtprog0 sdtprog.c; then
	BUILT=1
fi
mkdir -p home.perf home.sonde

# same stdout, stderr and exit status for perf and sonde, each with its own cache
same_as_perf() {
	local rc1=0 rc2=0
	HOME=$PWD/home.perf "$PERF" "$@" >p.out 2>p.err || rc1=$?
	HOME=$PWD/home.sonde ./perf "$@" >s.out 2>s.err || rc2=$?
	test_cmp p.out s.out && test_cmp p.err s.err && [ "$rc1" = "$rc2" ] ||
		{ echo "exit: perf $rc1, sonde $rc2: $*"; return 1; }
}

if [ -z "$SDT_H" ]; then
	test_skip 'SDT tests' 'no <sys/sdt.h> (install systemtap-sdt-dev)'
	test_done
fi

test_expect_success PERF 'the SDT test programs build' '
	[ "$BUILT" = 1 ]
'

test_expect_success PERF 'buildid-cache --add: the same cache files and probes file as perf' '
	same_as_perf buildid-cache --add ./sdtprog,./semprog &&
	same_as_perf buildid-cache -a /etc/passwd &&
	same_as_perf buildid-cache -a ./nosuchfile &&
	test_grep "^Couldn.t add ./nosuchfile: No such file or directory$" s.err &&
	(cd home.perf && find . | sort && find . -name probes | sort | xargs cat) >perf.tree &&
	(cd home.sonde && find . | sort && find . -name probes | sort | xargs cat) >sonde.tree &&
	test_cmp perf.tree sonde.tree &&
	test_grep "^p:sdt_$Q/hit $PWD/semprog:0x[0-9a-f]*\(0x[0-9a-f]*\) arg1=" sonde.tree &&
	same_as_perf buildid-cache --list &&
	test_grep "$PWD/sdtprog$" s.out &&
	# -O0: arguments in stack slots
	mkdir home0.perf home0.sonde &&
	HOME=$PWD/home0.perf "$PERF" buildid-cache -a ./sdtprog0 &&
	HOME=$PWD/home0.sonde ./perf buildid-cache -a ./sdtprog0 &&
	find home0.perf -name probes | xargs cat >perf.probes0 &&
	find home0.sonde -name probes | xargs cat >sonde.probes0 &&
	test_cmp perf.probes0 sonde.probes0 &&
	test_grep "arg1=-?[0-9]+\(%bp\):s32" sonde.probes0
'

test_expect_success PERF 'list sdt and -D sdt_PROV:NAME as perf' '
	same_as_perf list sdt &&
	test_grep "^  sdt_$P:tick +\[SDT event\]$" s.out &&
	for spec in sdt_$P:tick %sdt_$P:done "sdt_$P:*" sdt_$Q:hit sdt_nosuch:x "%$P:*"; do
		same_as_perf probe -D "$spec" || return 1
	done
'

test_expect_success PERF,ROOT,UPROBES 'adding SDT events writes what perf writes; messages as perf' '
	cleanup_probes &&
	for spec in "sdt_$P:*" sdt_$Q:hit; do
		HOME=$PWD/home.perf "$PERF" probe -q "$spec" || return 1
	done &&
	grep -E "^p:sdt_($P|$Q)/" "$UPEV" >perf.ev && cleanup_probes &&
	HOME=$PWD/home.sonde ./perf probe "sdt_$P:*" 2>add.err &&
	HOME=$PWD/home.sonde ./perf probe -q sdt_$Q:hit &&
	grep -E "^p:sdt_($P|$Q)/" "$UPEV" >sonde.ev &&
	test_cmp perf.ev sonde.ev &&
	test_grep "^  sdt_$P:tick +\(on %\* in $PWD/sdtprog\)$" add.err &&
	cleanup_probes
'

test_expect_success PERF,ROOT,UPROBES 'stat counts and record/script values are what the program did (semaphore set)' '
	cleanup_probes &&
	HOME=$PWD/home.sonde ./perf probe -q sdt_$P:tick &&
	HOME=$PWD/home.sonde ./perf probe -q sdt_$Q:hit &&
	./perf stat -x, -e sdt_$P:tick ./sdtprog 1 >/dev/null 2>stat.out &&
	test_grep "^5,,sdt_$P:tick," stat.out &&
	./perf stat -x, -e sdt_$Q:hit ./semprog >sem.out 2>stat2.out &&
	[ $(grep -c "^hit enabled" sem.out) = 4 ] &&
	test_grep "^4,,sdt_$Q:hit," stat2.out &&
	./semprog >sem0.out &&
	! grep -q "^hit enabled" sem0.out &&
	./perf record -q -o t.data -e sdt_$P:tick ./sdtprog >prog.out &&
	./perf script -i t.data | sed "s/.*: ([0-9a-f]*) //" >got &&
	sed -n "s/^tick \([0-9]*\) \([0-9]*\)$/arg1=\1 arg2=\2/p" prog.out >want &&
	test_cmp want got &&
	./perf record -q -o s.data -e sdt_$Q:hit ./semprog >prog2.out &&
	./perf script -i s.data | sed "s/.*: ([0-9a-f]*) //" >got2 &&
	sed -n "s/^hit enabled \([0-9]*\) \([0-9]*\)$/arg1=\1 arg2=\2/p" prog2.out >want2 &&
	test_cmp want2 got2 &&
	cleanup_probes
'

test_expect_success PERF,ROOT 'an SDT event not probed yet: perf hint in stat and record' '
	cleanup_probes &&
	same_as_perf stat -e sdt_$P:tick true &&
	test_grep "SDT event cannot be directly recorded on" s.err &&
	same_as_perf record -o x.data -e sdt_$P:tick true
'

test_expect_success PERF 'buildid-cache --remove and --list as perf' '
	same_as_perf buildid-cache -v --remove ./sdtprog &&
	same_as_perf buildid-cache -v --remove ./sdtprog &&
	test_grep "wasn.t in the cache" s.err &&
	same_as_perf buildid-cache --list &&
	(cd home.perf && find . | sort) >perf.tree &&
	(cd home.sonde && find . | sort) >sonde.tree &&
	test_cmp perf.tree sonde.tree
'

test_done
