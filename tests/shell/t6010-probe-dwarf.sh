#!/bin/bash
# SPDX-License-Identifier: MIT
# sonde probe with DWARF against perf probe: -L listings, -V variables and
# -D definitions at lines and with variable arguments, on a program built
# with -g at -O0 and -O2; record and script of a variable-argument probe.
. "$(dirname "$0")/lib.sh"

ln -s "$SONDE" perf
UPEV=/sys/kernel/tracing/uprobe_events
# unique binary names: their groups (probe_<name>) belong to this run only
B0=sdw0_$$
B2=sdw2_$$

cleanup_probes() {
	[ -w "$UPEV" ] || return 0
	local line ev
	grep -E "^[pr]:(probe_$B0|probe_$B2)/" "$UPEV" 2>/dev/null | while read -r line _; do
		ev=${line#?:}
		echo "-:$ev" >>"$UPEV" 2>/dev/null || :
	done
	return 0
}
trap 'cleanup_probes; cd /; rm -rf "$TRASH"' EXIT

cat >prog.c <<'SRC'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct point {
	int x;
	long y;
	char name[16];
	struct point *next;
};

int counter;
static long total;

static inline int square(int v)
{
	return v * v;
}

__attribute__((noinline)) long work(struct point *p, int n, const char *label)
{
	long sum = 0;
	int i;

	for (i = 0; i < n; i++) {
		int sq = square(i + p->x);
		sum += sq;
	}
	total += sum;
	counter++;
	printf("work %s n=%d x=%d sum=%ld\n", label, n, p->x, sum);
	return sum;
}

__attribute__((noinline)) int show(struct point pt, int arr[4])
{
	int r = pt.x + arr[1];
	printf("show x=%d arr1=%d\n", pt.x, arr[1]);
	return r;
}

int main(int argc, char **argv)
{
	struct point p = { 3, 7, "alpha", NULL };
	int arr[4] = { 1, 2, 3, 4 };
	int loops = argc > 1 ? atoi(argv[1]) : 3;

	for (int k = 0; k < loops; k++) {
		p.x = k + 1;
		work(&p, k + 2, k & 1 ? "odd" : "even");
	}
	show(p, arr);
	return square(loops) > 1000;
}
SRC
if command -v cc >/dev/null && cc -g -O0 -o $B0 prog.c && cc -g -O2 -o $B2 prog.c; then
	BUILT=1
fi

# same stdout, stderr and exit status for perf and sonde
same_as_perf() {
	local rc1=0 rc2=0
	"$PERF" probe "$@" >p.out 2>p.err || rc1=$?
	./perf probe "$@" >s.out 2>s.err || rc2=$?
	test_cmp p.out s.out && test_cmp p.err s.err && [ "$rc1" = "$rc2" ] ||
		{ echo "exit: perf $rc1, sonde $rc2: probe $*"; return 1; }
}

test_expect_success PERF,UPROBES 'the test program builds at -O0 and -O2' '
	[ "$BUILT" = 1 ]
'

test_expect_success PERF,UPROBES '-L: the same source listings as perf' '
	for b in $B0 $B2; do
		for r in work work:5-9 work:5+3 work:10 work@prog.c show prog.c prog.c:20-25 \
			prog.c:50 prog.c:53-60 square square:2; do
			same_as_perf -x ./$b -L $r || return 1
		done
	done &&
	same_as_perf -x ./$B2 -L main &&
	same_as_perf -x ./$B0 -L main &&
	grep -qxF "      6  	for (int k = 0; k < loops; k++) {" s.out
'

test_expect_success PERF,UPROBES '-L: unknown functions and lines, a file not in the DWARF' '
	for r in nosuch work:100 work:3-4 work@nope.c; do
		same_as_perf -x ./$B0 -L $r || return 1
	done &&
	same_as_perf -x ./$B0 -L work:3-4 &&
	test_grep "^Specified source line is not found.$" s.err
'

test_expect_success PERF,UPROBES '-V: the same variables as perf (--externs, --no-inlines, --filter)' '
	for b in $B0 $B2; do
		for p in work work:0 work:5 work:6 main show prog.c:26 main:6 main:7 square; do
			same_as_perf -x ./$b -V $p || return 1
			same_as_perf -x ./$b -V $p --externs || return 1
		done
	done &&
	same_as_perf -x ./$B0 -V work --no-inlines &&
	same_as_perf -x ./$B0 -V main --externs --filter "c*" &&
	test_grep "^		int	counter$" s.out &&
	same_as_perf -x ./$B0 -V work:5 &&
	[ $(grep -c "^	@<work+" s.out) = 4 ]
'

test_expect_success PERF,UPROBES '-V --range: [VAL]/[INV]/[EXT] and location ranges as perf' '
	for b in $B0 $B2; do
		for p in work work:5 main show main:6 square; do
			same_as_perf -x ./$b -V $p --range || return 1
			same_as_perf -x ./$b -V $p --range --externs || return 1
		done
	done &&
	same_as_perf -x ./$B2 -V work --range &&
	test_grep "^		\[VAL\]	[a-z ]+	[a-z_]+	@<[a-z_]+\+\[[0-9]+-[0-9]+" s.out &&
	same_as_perf -x ./$B2 -V main --range --externs --filter "i*" &&
	same_as_perf -x ./$B2 -V work --range --filter "*v*" &&
	same_as_perf -x ./$B0 -L work --range
'

test_expect_success PERF,UPROBES '-V: unknown points, a line without code' '
	same_as_perf -x ./$B2 -V nosuch &&
	same_as_perf -x ./$B2 -V work:100 &&
	same_as_perf -x ./$B2 -V prog.c:24 &&
	test_grep "^Debuginfo analysis failed.$" s.err
'

test_expect_success PERF,UPROBES '-D: lines and variable arguments as perf defines them' '
	for b in $B0 $B2; do
		for s in "work p n label" "work:5 i sum" "work:6 sq" \
			"work p->x p->y p->name:string p->next->x label:string" \
			"work \$params" "work \$vars" "work%return \$retval" "show pt.x arr[1] pt.name" \
			"prog.c:26 i" "square v" "work counter total" "work:0" "work:3" \
			"main argc argv[0]:string" "main:6 loops" "main:6 p.x" \
			"main:7 p.x arr[2] p.name:string" "work label:ustring %di" "ev=work:6 s=sq:u16" \
			"work:6 \$vars" "main:6 \$vars" "work;*sum* \$vars" "main \$vars" "show \$params" \
			"nosuch:3 x" "nosuch:3" "nosuch;foo" "prog.c:200 x"; do
			same_as_perf -x ./$b -D "$s" || return 1
		done
	done &&
	same_as_perf -x ./$B0 -D "work p" &&
	test_grep "Skipping prologue" s.err &&
	test_grep "^p:probe_$B0/work $PWD/$B0:0x[0-9a-f]* p=-24\(%bp\):x64$" s.out
'

test_expect_success PERF,UPROBES 'lazy patterns (FUNC;PTN, SRC;PTN) and perf messages on adding (-n)' '
	for b in $B0 $B2; do
		for s in "work;sum*" "work;*sum*" "prog.c;counter*" "prog.c;*square*" "work;nomatch" \
			"work;for* i" "show;return*" "main;*work(*" "prog.c;nomatch" "e=work;*sum* sum"; do
			same_as_perf -x ./$b -D "$s" || return 1
		done
		for s in "work;for*" "prog.c;*square*" "work:6 sq" "prog.c:26 i" "work p" \
			"work:5 s=sum:u8" "work \$vars n"; do
			rc1=0 rc2=0
			"$PERF" probe -n -x ./$b "$s" 2>p.err || rc1=$?
			./perf probe -n -x ./$b "$s" 2>s.err || rc2=$?
			[ $rc1 = $rc2 ] &&
			test_cmp p.err s.err || return 1
		done
	done
'

test_expect_success PERF,UPROBES '-D: variables that are not live, bad member access, bad casts' '
	for s in "work nosuch" "work:5 nosuch" "work p.x" "work p->nosuch" "work n:string" \
		"work:1" "prog.c:21" "prog.c:24" "nosuch:3" "work n->x" "work n[1]" "show pt->x" \
		"work p[1]" "work *p" "work%return sum" "work%return p->x" "work%return \$vars"; do
		same_as_perf -x ./$B0 -D "$s" || return 1
	done &&
	same_as_perf -x ./$B0 -D "work p.x" &&
	test_grep "must be referred by" s.err &&
	same_as_perf -x ./$B2 -D "square v" &&
	test_grep "Failed to find the location of the .v. variable" s.err &&
	same_as_perf -x ./$B2 -D "main:6 k" &&
	same_as_perf -x ./$B2 -D "show pt.x"
'

test_expect_success PERF,UPROBES 'libc through its debug file: -V and -D as perf (aliases, versioned names)' '
	LIBC=$(readlink -f /lib/x86_64-linux-gnu/libc.so.6) &&
	for a in "-V malloc" "-V __libc_malloc:3" "-V fopen" "-V printf" "-V free --externs" \
		"-L malloc"; do
		same_as_perf -x "$LIBC" $a || return 1
	done &&
	for s in "__libc_malloc bytes" "malloc bytes" "__libc_free mem" "getenv name:string" \
		"fopen filename:string" "nosuchfn x" "work%return \$vars"; do
		same_as_perf -x "$LIBC" -D "$s" || return 1
	done &&
	for a in "-V work%return" "-V work+4" "-V prog.c;*sum*"; do
		same_as_perf -x ./$B2 $a || return 1
	done
'

test_expect_success PERF,ROOT,UPROBES 'adding a line probe writes what perf writes; tracefs unchanged on errors' '
	cleanup_probes &&
	"$PERF" probe -q -x ./$B0 "work:6 sq i" && grep "^p:probe_$B0/" "$UPEV" >perf.ev &&
	cleanup_probes &&
	./perf probe -q -x ./$B0 "work:6 sq i" && grep "^p:probe_$B0/" "$UPEV" >sonde.ev &&
	cleanup_probes &&
	test_cmp perf.ev sonde.ev &&
	# --list names lines as perf: the first statement at an address
	./perf probe -q -x ./$B0 "work:6 sq i" &&
	./perf probe -q -x ./$B2 show:2 &&
	./perf probe -q -x ./$B2 main:6 &&
	./perf probe -q -x ./$B0 "prog.c;*square*" &&
	same_as_perf -l "probe_$B0:*" &&
	same_as_perf -l "probe_$B2:*" &&
	test_grep "^  probe_$B2:show_L2 +\(on show:2@$PWD/prog.c in $PWD/$B2\)$" s.out &&
	cleanup_probes &&
	cat "$UPEV" >before &&
	test_must_fail ./perf probe -x ./$B0 "work nosuch" 2>err &&
	test_must_fail ./perf probe -x ./$B0 "work:3" 2>err &&
	test_must_fail ./perf probe -x ./$B0 "work p.x" 2>err &&
	cat "$UPEV" >after &&
	test_cmp before after
'

test_expect_success PERF,ROOT,UPROBES 'record and script decode variable arguments as the program printed them' '
	cleanup_probes &&
	for b in $B0 $B2; do
		./perf probe -q -x ./$b "work n x=p->x label:string" &&
		./perf record -q -o $b.data -e probe_$b:work ./$b 4 >$b.prog &&
		./perf script -i $b.data >$b.script &&
		sed -n "s/^work \([a-z]*\) n=\([0-9]*\) x=\([0-9]*\) sum=.*/n=\2 x=\3 label_string=\"\1\"/p" \
			$b.prog >$b.want &&
		[ $(wc -l <$b.want) = 4 ] &&
		sed "s/.*: ([0-9a-f]*) //" $b.script >$b.got &&
		test_cmp $b.want $b.got &&
		"$PERF" script -i $b.data >$b.perf-script &&
		test_cmp $b.perf-script $b.script || return 1
	done &&
	cleanup_probes &&
	# a source line: sum where the program prints it
	./perf probe -q -x ./$B0 "work:11 sum" &&
	./perf record -q -o line.data -e probe_$B0:work_L11 ./$B0 4 >line.prog &&
	./perf script -i line.data | sed "s/.*: ([0-9a-f]*) //" >line.got &&
	sed -n "s/^work .* sum=\([0-9]*\)$/sum=\1/p" line.prog >line.want &&
	[ $(wc -l <line.want) = 4 ] &&
	test_cmp line.want line.got &&
	cleanup_probes
'

test_done
