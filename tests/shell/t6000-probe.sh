#!/bin/bash
# SPDX-License-Identifier: MIT
# sonde probe against perf probe on user-space binaries: -D definitions, -F
# function lists, the uprobe_events text and --list after adding, record and
# script on the probes, --del, and the bad-input messages and exit statuses.
. "$(dirname "$0")/lib.sh"

ln -s "$SONDE" perf
UPEV=/sys/kernel/tracing/uprobe_events
LIBC=$(readlink -f /lib/x86_64-linux-gnu/libc.so.6)
# unique binary names: their groups (probe_<name>) belong to this run only
BIN=sprobe$$
NODBG=sprobend$$
G=probe_$BIN
G2=sp$$

# remove every probe of this run, even when a test failed half-way
cleanup_probes() {
	[ -w "$UPEV" ] || return 0
	local line ev
	grep -E "^[pr]:($G|probe_$NODBG|probe_$INL|$G2)/" "$UPEV" 2>/dev/null | while read -r line _; do
		ev=${line#?:}
		# an event holding several probes goes with its first line
		echo "-:$ev" >>"$UPEV" 2>/dev/null || :
	done
	return 0
}
trap 'cleanup_probes; cd /; rm -rf "$TRASH"' EXIT

cat >t.c <<'SRC'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int work(int n, const char *s) { return n + (int)strlen(s); }
__attribute__((noinline)) int helper(long x) { return (int)(x * 2); }
int main(void)
{
	int t = 0;
	for (int i = 0; i < 3; i++) {
		int r = work(i, "hello");
		printf("work n=%d ret=%d\n", i, r);
		t += r + helper(i);
		void *p = malloc(1000 + i);
		printf("malloc size=%d\n", 1000 + i);
		free(p);
	}
	return t == 0;
}
SRC
# a static function the compiler inlines twice (no symbol, two DWARF instances)
cat >inl.c <<'SRC'
#include <stdio.h>
static int sq(int x) { return x * x + 1; }
__attribute__((noinline)) int a(int v) { return sq(v) + 2; }
__attribute__((noinline)) int b(int v) { return sq(v + 1) * 3; }
int main(int argc, char **argv) { printf("%d\n", a(argc) + b(argc)); return 0; }
SRC
INL=sprobei$$
if command -v cc >/dev/null && cc -g -O0 -o $BIN t.c && cc -O2 -o $NODBG t.c && strip -g $NODBG &&
	cc -g -O2 -o $INL inl.c; then
	BUILT=1
fi

# mine: only the lines of this run's groups
my_events() {
	grep -E "^[pr]:($G|probe_$NODBG|probe_$INL|$G2)/" "$UPEV" || :
}

# same stdout, stderr and exit status for perf and sonde
same_as_perf() {
	local rc1=0 rc2=0
	"$PERF" probe "$@" >p.out 2>p.err || rc1=$?
	./perf probe "$@" >s.out 2>s.err || rc2=$?
	test_cmp p.out s.out && test_cmp p.err s.err && [ "$rc1" = "$rc2" ] ||
		{ echo "exit: perf $rc1, sonde $rc2: probe $*"; return 1; }
}

test_expect_success PERF,ROOT,UPROBES 'the test programs build' '
	[ "$BUILT" = 1 ]
'

test_expect_success PERF,ROOT,UPROBES '-D: the same uprobe definitions as perf (binary with and without -g, libc)' '
	for spec in work "work+4 %di:u32 +8(%sp):x64 foo=%ax:s16" "work%return \$retval" \
		"grp:ev=helper" "ev=work%return" "main %di:s32 %si:x64" "work+0x3" "helper \$comm"; do
		same_as_perf -x ./$BIN -D "$spec" || return 1
		same_as_perf -x ./$NODBG -D "$spec" || return 1
	done &&
	same_as_perf -x "$LIBC" -D "malloc size=%di:u64" &&
	same_as_perf -x "$LIBC" -D free -D "calloc%return \$retval" &&
	same_as_perf -x ./$BIN -D work -D work &&
	# with DWARF a plain FUNC is not a PLT entry; with arguments or %return it is
	same_as_perf -x ./$BIN -D malloc &&
	same_as_perf -x ./$BIN -D "malloc%return" &&
	same_as_perf -x ./$BIN -D "malloc+4 %di" &&
	same_as_perf -x ./$BIN -D "nosuch %di" &&
	same_as_perf -x "$LIBC" -D calloc &&
	same_as_perf -x "$LIBC" -D "calloc %di" &&
	same_as_perf -x "$LIBC" -D "__GI__IO_un_link.part.0 %di" &&
	same_as_perf -x "$LIBC" -D "__GI__IO_un_link.part.0%return" &&
	same_as_perf --max-probes 1 -x "$LIBC" -D calloc &&
	same_as_perf --max-probes 1 -x "$LIBC" -D "calloc%return"
'

test_expect_success PERF,ROOT '-D on kernel functions: the same kprobe definitions as perf (from kallsyms)' '
	grep -q " T vfs_read$" /proc/kallsyms || { echo "no vfs_read in kallsyms"; return 1; }
	same_as_perf -D vfs_read &&
	same_as_perf -D "vfs_read+4 %di %si:u64" &&
	same_as_perf -D "vfs_read%return \$retval" &&
	same_as_perf -D "myg:myev=vfs_read" &&
	same_as_perf -D "ev=vfs_read%return" &&
	same_as_perf -D nosuchfunction_xyz &&
	same_as_perf -D "vfs_read+99999" &&
	same_as_perf -D "vfs_read:3" &&
	same_as_perf -D "vfs_read count"
'

test_expect_success PERF,ROOT,UPROBES '-F: the same function lists as perf' '
	same_as_perf -x ./$BIN -F &&
	same_as_perf -x ./$NODBG -F &&
	same_as_perf -x ./$BIN -F "w* | h*" &&
	same_as_perf -x "$LIBC" -F &&
	same_as_perf -x "$LIBC" -F "*alloc*" &&
	same_as_perf -x "$LIBC" --funcs --filter "mem*" &&
	same_as_perf -x "$LIBC" --filter "mem*" --funcs &&
	same_as_perf -x ./$BIN --filter "w*" -F "m*" &&
	same_as_perf -x ./$BIN --funcs=work &&
	test_grep "^work$" s.out &&
	same_as_perf -F "vfs_*" &&
	test_grep "^vfs_read$" s.out &&
	same_as_perf -F
'

test_expect_success PERF,ROOT,UPROBES 'adding writes what perf writes to uprobe_events' '
	cleanup_probes &&
	for spec in work "work%return \$retval" "helper+4 %di:s64 v=+8(%sp):x32" "$G2:mal=malloc" \
		"$G2:calloc=calloc%return \$retval"; do
		x=./$BIN
		case $spec in $G2:*) x=$LIBC ;; esac
		"$PERF" probe -q -x $x "$spec" &&
		my_events >perf.ev && cleanup_probes &&
		./perf probe -q -x $x "$spec" &&
		my_events >sonde.ev && cleanup_probes &&
		test_cmp perf.ev sonde.ev || return 1
	done
'

test_expect_success PERF,ROOT,UPROBES 'add: perf messages, clash names _1, --list as perf' '
	cleanup_probes &&
	./perf probe -x ./$BIN work 2>add.err &&
	cat >add.expect <<-MSG &&
	Added new event:
	  $(printf "%-20s" $G:work) (on work in $PWD/$BIN)

	You can now use it in all perf tools, such as:

	$(printf "\tperf record -e $G:work -aR sleep 1")

	MSG
	test_cmp add.expect add.err &&
	./perf probe -x ./$BIN -f work 2>add.err &&
	test_grep "^  $G:work_1 +\(on work in $PWD/$BIN\)$" add.err &&
	./perf probe -x ./$BIN -a "work%return ret=\$retval:s32" -a "helper %di:s64" 2>add.err &&
	test_grep "^Added new events:$" add.err &&
	test_grep "^  $G:work__return \(on work%return in $PWD/$BIN with ret=\\\$retval:s32\)$" add.err &&
	test_grep "^  $G:helper +\(on helper in $PWD/$BIN with %di:s64\)$" add.err &&
	./perf probe -q -x "$LIBC" "$G2:malloc=malloc size=%di:u64" &&
	./perf probe -q -x ./$NODBG "work+3 x=%si" &&
	for f in "$G:*" "probe_$NODBG:*" "$G:work*" "helper" "$G2:*"; do
		same_as_perf -l "$f" || return 1
	done &&
	test_grep "^  $G2:malloc +\(on __GI___libc_malloc@.*malloc.c in $LIBC with size\)$" s.out &&
	./perf probe -q -x "$LIBC" "$G2:calloc=calloc%return" &&
	./perf probe -q -x "$LIBC" "$G2:aa=free" &&
	same_as_perf -l "$G2:*" &&
	test_grep "Failed to find debug information for address" s.err &&
	cleanup_probes
'

test_expect_success PERF,ROOT,UPROBES '--list order and text of events written by other tools' '
	cleanup_probes &&
	off=$("$PERF" probe -x ./$NODBG -D work | sed "s/.*://") &&
	echo "r:$G2/a $PWD/$NODBG:$off" >>"$UPEV" &&
	echo "p:$G2/b $PWD/$NODBG:$off x=%si:u32" >>"$UPEV" &&
	echo "p:$G2/c $PWD/$NODBG:$((off + 3)) %di" >>"$UPEV" &&
	same_as_perf -l "$G2:*" &&
	printf "%s\n" "  $G2:b (on work in $PWD/$NODBG with x)" "  $G2:c (on work+3 in $PWD/$NODBG with arg1)" \
		"  $G2:a (on work%return in $PWD/$NODBG)" | sed "s/^  \([^ ]*\) /  \1                /" |
		sed -E "s/^(  .{20}) +/\1 /" >order.expect &&
	test_cmp order.expect s.out &&
	cleanup_probes
'

test_expect_success PERF,ROOT,UPROBES 'inlined static functions and --list lines and offsets as perf' '
	cleanup_probes &&
	same_as_perf -x ./$INL -D sq &&
	same_as_perf -x ./$INL -D "sq %di" &&
	same_as_perf -x ./$INL -D "e=sq" &&
	"$PERF" probe -q -x ./$INL sq && my_events >perf.ev && cleanup_probes &&
	./perf probe -q -x ./$INL sq && my_events >sonde.ev &&
	test_cmp perf.ev sonde.ev &&
	for o in 4 8 12 20 40 60; do
		./perf probe -q -x ./$BIN "m$o=main+$o" || return 1
	done &&
	./perf probe -q -x ./$NODBG "work+3" &&
	./perf probe -q -x ./$BIN helper &&
	same_as_perf -l &&
	cleanup_probes
'

test_expect_success PERF,ROOT,UPROBES 'record and script show the values the program really passed' '
	cleanup_probes &&
	./perf probe -q -x ./$BIN "work n=%di:s32" &&
	./perf probe -q -x ./$BIN "work%return ret=\$retval:s32" &&
	./perf probe -q -x "$LIBC" "$G2:malloc=malloc size=%di:u64" &&
	./perf record -q -o p.data -e $G:work -e $G:work__return -e $G2:malloc ./$BIN >prog.out &&
	./perf script -i p.data >script.out &&
	sed -n "s/^work n=\([0-9]*\) ret=\([0-9]*\)$/n=\1 ret=\2/p" prog.out >want.work &&
	[ $(wc -l <want.work) = 3 ] &&
	grep -o " n=[0-9]*$" script.out | sed "s/^ //" >got.n &&
	grep -o " ret=[0-9]*$" script.out | sed "s/^ //" >got.ret &&
	paste -d" " got.n got.ret >got.work &&
	test_cmp want.work got.work &&
	grep -o "size=100[0-9]$" script.out >got.malloc &&
	sed -n "s/^malloc //p" prog.out >want.malloc &&
	test_cmp want.malloc got.malloc &&
	"$PERF" script -i p.data >perf-script.out &&
	test_cmp perf-script.out script.out &&
	./perf stat -x, -e $G:work -e $G2:malloc ./$BIN >/dev/null 2>stat.out &&
	test_grep "^3,,$G:work," stat.out &&
	grep "$G2:malloc" stat.out | cut -d, -f1 >malloc.count &&
	[ "$(cat malloc.count)" -ge 3 ] &&
	cleanup_probes
'

test_expect_success PERF,ROOT,UPROBES '--del leaves uprobe_events exactly as before; messages as perf' '
	cleanup_probes &&
	cat "$UPEV" >before &&
	./perf probe -q -x ./$BIN -a work -a main -a "helper%return" &&
	./perf probe -d "$G:*" 2>del.err &&
	printf "Removed event: %s\n" $G:helper__return $G:main $G:work >del.expect &&
	test_cmp del.expect del.err &&
	cat "$UPEV" >after &&
	test_cmp before after &&
	./perf probe -q -x "$LIBC" "$G2:calloc=calloc%return" &&
	[ $(my_events | wc -l) = 2 ] &&
	./perf probe -d "$G2:*" 2>del.err &&
	echo "Removed event: $G2:calloc__return" >del.expect &&
	test_cmp del.expect del.err &&
	cat "$UPEV" >after &&
	test_cmp before after &&
	same_as_perf -d "$G:nothing" &&
	test_grep "does not hit any event" s.err
'

# each bad input: perf message and status, and uprobe_events unchanged
bad_input() {
	cat "$UPEV" >before &&
	same_as_perf "$@" &&
	cat "$UPEV" >after &&
	test_cmp before after
}

test_expect_success PERF,ROOT,UPROBES 'bad input: perf message and status, tracefs unchanged' '
	cleanup_probes &&
	echo "not elf" >notelf &&
	bad_input -x ./$BIN nosuch &&
	bad_input -x ./$NODBG nosuch &&
	bad_input -x ./$NODBG "work n" &&
	bad_input -x ./notelf work &&
	bad_input -x ./notelf -F &&
	bad_input -x ./nosuchfile work &&
	bad_input -x ./nosuchfile -l &&
	bad_input -x ./$BIN "work%foo" &&
	bad_input -x ./$BIN "work+abc" &&
	bad_input -x ./$BIN "=work" &&
	bad_input -x ./$BIN "work:3+4" &&
	bad_input -x ./$BIN "work%return:3" &&
	bad_input -x ./$BIN "work:abc" &&
	bad_input -x ./$BIN "$G2:calloc%return" &&
	bad_input -x ./$BIN -D "a:b:c=work" &&
	bad_input -x ./$NODBG -a "work+99999" &&
	./perf probe -q -x ./$BIN work &&
	bad_input -x ./$BIN work &&
	bad_input -x ./$BIN -D work w2 &&
	cleanup_probes
'

test_expect_success PERF,ROOT,UPROBES '-q: nothing printed, the same exit status' '
	cleanup_probes &&
	same_as_perf -q -x ./$BIN nosuch && [ ! -s s.err ] &&
	./perf probe -q -x ./$BIN work && [ ! -s s.err ] &&
	same_as_perf -q -x ./$BIN work &&
	./perf probe -q -d "$G:*" 2>s.err && [ ! -s s.err ] &&
	[ -z "$(my_events)" ]
'

test_expect_success PERF,NOBODY,UPROBES 'no permission: perf messages and status, nothing written' '
	nb() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
	cat "$UPEV" >before &&
	for args in "-x $LIBC malloc" "-x $LIBC nosuch" "-d malloc" "-l"; do
		rc1=0 rc2=0
		nb "$PERF" probe $args >p.out 2>&1 || rc1=$?
		nb "$SONDE_BUILD/perf" probe $args >s.out 2>&1 || rc2=$?
		test_cmp p.out s.out && [ $rc1 = $rc2 ] || { echo "exit $rc1 / $rc2: $args"; return 1; }
	done &&
	cat "$UPEV" >after &&
	test_cmp before after
'

test_expect_success PERF,ROOT,UPROBES 'exclusive commands and the bare form: perf texts and statuses' '
	for args in "-x ./$BIN -D work -l" "-l -d work" "-x ./$BIN -F -D work" \
		"-x ./$BIN -a work -D work" "-x ./$BIN --definition=work --list" \
		"-x ./$BIN --del=x --funcs" "-x ./$BIN -F work -D x" "-x ./$BIN -D work main" \
		"-x ./$BIN" "" "-h" "--nosuchoption" "-x"; do
		same_as_perf $args || return 1
	done &&
	cleanup_probes &&
	"$PERF" probe -x ./$BIN -a work main 2>p.err && my_events >perf.ev && cleanup_probes &&
	./perf probe -x ./$BIN -a work main 2>s.err && my_events >sonde.ev && cleanup_probes &&
	test_cmp p.err s.err &&
	test_cmp perf.ev sonde.ev
'

test_expect_success PERF,ROOT,NOKPROBES 'kernel probes without kprobe_events: perf message and status' '
	same_as_perf vfs_read &&
	test_grep "kprobe_events does not exist" s.err
'

test_expect_success PERF,ROOT,UPROBES '-L and -V: perf message without debug info, listings with it' '
	same_as_perf -x ./$NODBG -L work &&
	same_as_perf -x ./$NODBG -V work &&
	same_as_perf -x ./$BIN -L work &&
	same_as_perf -x ./$BIN -V work
'

test_done
