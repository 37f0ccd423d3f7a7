#!/bin/bash
# SPDX-License-Identifier: MIT
# sonde annotate's TUI against perf's, screen by screen, through tmux on the same recording and keys.
. "$(dirname "$0")/lib.sh"
. "$SONDE_ROOT/tests/shell/tui.sh"

BURN=$SONDE_WORKLOADS/cpuburn
SHOTS=$TRASH/screens
mkdir -p "$SHOTS"
SOCK=$TRASH/tmux.sock
KEYS="Down Tab Tab BTab H s s o o J J Up Up Up End Home PPage NPage Down Down O O O o f f o f"
# t p b (p clears l's message), k, P (with t, k and o on), l on each kind of line, the search
# box (/ ? n, not found), c, help
KEYS2="l t t p b t p b t k o P k o Up Up Up Up Up l Down l Home l / x m m Enter n n ? i n t Enter n ? Enter c h Escape"

if ! command -v tmux >/dev/null; then
	test_skip 'annotate TUI against perf' 'tmux is not installed'
	test_done
	exit 0
fi
trap 'for s in "$SOCK".*; do tmux -S "$s" kill-server 2>/dev/null; done; cd /; rm -rf "$TRASH"' EXIT

# screens WHO CMD [KEYS [DIR]]: CMD in a 120x40 pane (in DIR, $TRASH), then one screen after
# each of KEYS ($KEYS) into $SHOTS/WHO.N (trailing blanks and perf's scroll bar dropped; the first screen is not
# kept: perf draws it twice), once the pane has drawn the key (tui_settle)
screens() {
	local s="$SOCK.$1" n=0 k i a
	tmux -S "$s" new-session -d -s t -x 120 -y 40 "cd ${4:-$TRASH}; LANG=C.UTF-8 LC_ALL= $2; sleep 60"
	for i in $(seq 50); do
		tmux -S "$s" capture-pane -p -t t | grep -q "^Percent" && break
		sleep 0.1
	done
	sleep 0.5
	a=$(tmux -S "$s" capture-pane -p -e -t t)
	for k in ${3:-$KEYS}; do
		n=$((n + 1))
		tmux -S "$s" send-keys -t t "$k"
		a=$(tui_settle "$s" "$a")
		tmux -S "$s" capture-pane -p -t t | sed -E 's/[ ▒◆]+$//' >"$SHOTS/$1.$n"
	done
	tmux -S "$s" kill-server
	[ -z "$SONDE_TEST_ARTEFACTS" ] || cp "$SHOTS/$1".* "$SONDE_TEST_ARTEFACTS/"
}

# both WHO ARGS [KEYS [PDIR SDIR]]: screens of perf (perfWHO, in PDIR) and sonde (sondeWHO,
# in SDIR) on "annotate ARGS", the two at once; back when both are done
both() {
	local i nk

	(screens "perf$1" "$PERF annotate $2" "$3" "$4" &)
	screens "sonde$1" "$SONDE annotate $2" "$3" "$5"
	nk=$(echo ${3:-$KEYS} | wc -w)
	for i in $(seq 300); do
		[ -e "$SHOTS/perf$1.$nk" ] && ! tmux -S "$SOCK.perf$1" has-session 2>/dev/null && return 0
		sleep 0.2
	done
	echo "perf's screens never ended"
	return 1
}

# enough samples that every line the keys visit has some, even on a busy machine
# (30 samples once left the line a key looks at empty)
test_expect_success ROOT 'a recording of cpuburn' '
	"$SONDE" record -q -F 10000 -o rec.data "$BURN" 600 2>/dev/null &&
	test "$("$SONDE" report --stats -i rec.data 2>/dev/null | awk "/SAMPLE events/ { print \$3; exit }")" -gt 200 &&
	"$PERF" annotate --stdio -i rec.data leaf >/dev/null 2>&1
'

test_expect_success ROOT 'every screen after each key is perf'"'"'s' '
	both "" "-i rec.data leaf" &&
	n=0 bad=0 &&
	for k in $KEYS; do
		n=$((n + 1))
		grep -q "│" "$SHOTS/perf.$n" || { echo "perf screen $n is empty"; bad=1; }
		diff -u "$SHOTS/perf.$n" "$SHOTS/sonde.$n" || { echo "after key $n ($k)"; bad=1; }
	done &&
	test "$bad" = 0
'

test_expect_success ROOT 'the keys t p b k l / ? n c h P: every screen is perf'"'"'s' '
	mkdir -p p2 s2 &&
	both 2 "-i ../rec.data leaf" "$KEYS2" "$TRASH/p2" "$TRASH/s2" &&
	n=0 bad=0 &&
	for k in $KEYS2; do
		n=$((n + 1))
		grep -q "│" "$SHOTS/perf2.$n" || { echo "perf screen $n is empty"; bad=1; }
		diff -u "$SHOTS/perf2.$n" "$SHOTS/sonde2.$n" || { echo "after key $n ($k)"; bad=1; }
	done &&
	test "$bad" = 0 &&
	grep -q "^Period  *│" "$SHOTS/perf2.2" &&
	grep -q "Source file location: .*cpuburn.c:" "$SHOTS/perf2.20" &&
	grep -q "No source file location." "$SHOTS/perf2.24" &&
	grep -q "Search" "$SHOTS/perf2.26" &&
	grep -q "String not found!" "$SHOTS/perf2.38" &&
	test_cmp p2/leaf.annotation s2/leaf.annotation
'

# a non-PIE program: the raw view shows its link-time addresses, f the
# file offsets perf shows for an ET_EXEC file; source rows line up with those
test_expect_success ROOT 'a non-PIE program: o and f, every screen is perf'"'"'s' '
	mkdir -p np && cd np &&
	cat >np.c <<-\EOF &&
	static volatile long s;
	__attribute__((noinline)) void inner(long n) { for (long i = 0; i < n; i++) s += i; }
	int main(void) { for (int k = 0; k < 20; k++) inner(2000000); return 0; }
	EOF
	cc -O1 -g -no-pie -o np np.c &&
	"$SONDE" record -q -o np.data ./np 2>/dev/null &&
	both 3 "-i np.data inner" "o f f o f" "$TRASH/np" "$TRASH/np" &&
	bad=0 &&
	for n in 1 2 3 4 5; do
		grep -q "│" "$SHOTS/perf3.$n" || { echo "perf screen $n is empty"; bad=1; }
		diff -u "$SHOTS/perf3.$n" "$SHOTS/sonde3.$n" || { echo "after key $n"; bad=1; }
	done &&
	test "$bad" = 0 &&
	grep -q "│40[0-9a-f]*:.*test" "$SHOTS/perf3.1" &&
	grep -q "│[0-9a-f]\{4\}:.*test" "$SHOTS/perf3.2"
'

test_done
