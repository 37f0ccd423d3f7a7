#!/bin/bash
# SPDX-License-Identifier: MIT
# annotate on kernel symbols, against perf 6.1 on the same perf.data: the code
# from perf.data's kcore_dir (perf record --kcore), from a vmlinux (-k, ./vmlinux,
# the build-id cache), and perf's messages and statuses where there is none
# (-k's file missing or of another kernel, --ignore-vmlinux, a kcore_dir
# perf does not take), in --stdio, --stdio2, -l and the TUIs.
#
# Where /proc/kcore is not readable (no kcore, no CAP_SYS_RAWIO) perf record
# --kcore refuses, and without a vmlinux nobody has the kernel's code: the
# test then gives the recording a kcore_dir of its own, as record --kcore
# lays it out (kallsyms and modules copied, kcore an ELF core file with a
# PT_LOAD over the kernel text), whose code is a fixed pattern of whole
# instructions (tests/shell/kcore-fixture.py), and a vmlinux of the same
# bytes with the kernel's text symbols, linked with the recorded build-id.
# The samples fall where the real kernel's code ran, so inside these
# instructions too: perf counts them at the instruction that holds them.
# Nothing is normalised: every text is compared as perf prints it.
. "$(dirname "$0")/lib.sh"
. "$SONDE_ROOT/tests/shell/tui.sh"

FIX=$SONDE_ROOT/tests/shell/kcore-fixture.py
for tool in python3 as ld readelf; do
	if ! command -v $tool >/dev/null; then
		test_skip 'annotate of kernel symbols' "$tool is not installed (the kcore and vmlinux fixtures need it)"
		test_done
		exit 0
	fi
done
SOCK=$TRASH/tmux.sock
SHOTS=$TRASH/screens
mkdir -p "$SHOTS"
trap 'for s in "$SOCK".*; do [ -e "$s" ] && tmux -S "$s" kill-server 2>/dev/null; done; cd /; rm -rf "$TRASH"' EXIT

# same_as_perf ARGS...: perf annotate and sonde annotate print the same (stdout, then
# stderr) and exit alike
same_as_perf() {
	local rp=0 rs=0
	"$PERF" annotate "$@" >perf.out 2>perf.err || rp=$?
	"$SONDE" annotate "$@" >sonde.out 2>sonde.err || rs=$?
	test_cmp perf.out sonde.out && test_cmp perf.err sonde.err &&
	{ [ $rp = $rs ] || { echo "exit $rs, perf $rp: $*"; return 1; }; }
}

# screens WHO CMD KEYS [W H]: CMD in a tmux pane, one screen after each of KEYS into
# $SHOTS/WHO.N (trailing blanks and perf's scroll bar dropped), once the pane has drawn the
# key (tui_settle; a, report's annotate, until the annotate screen shows)
screens() {
	local s="$SOCK.$1" n=0 k i a
	tmux -S "$s" new-session -d -s t -x "${4:-120}" -y "${5:-40}" "cd $TRASH; LANG=C.UTF-8 LC_ALL= $2; sleep 60"
	for i in $(seq 100); do
		tmux -S "$s" capture-pane -p -t t | grep -Eq "^(Percent|Samples)|Error" && break
		sleep 0.1
	done
	sleep 0.8
	tmux -S "$s" capture-pane -p -t t | sed -E 's/[ ▒◆]+$//' >"$SHOTS/$1.0"
	a=$(tmux -S "$s" capture-pane -p -e -t t)
	for k in $3; do
		n=$((n + 1))
		tmux -S "$s" send-keys -t t "$k"
		if [ "$k" = a ]; then
			for i in $(seq 100); do
				tmux -S "$s" capture-pane -p -t t | grep -q "^Percent" && break
				sleep 0.1
			done
		fi
		a=$(tui_settle "$s" "$a")
		tmux -S "$s" capture-pane -p -t t | sed -E 's/[ ▒◆]+$//' >"$SHOTS/$1.$n"
	done
	tmux -S "$s" kill-server
	[ -z "$SONDE_TEST_ARTEFACTS" ] || cp "$SHOTS/$1".* "$SONDE_TEST_ARTEFACTS/"
}

# both P S PCMD SCMD KEYS [W H]: screens P of PCMD and S of SCMD, the two at once
both() {
	local i nk

	(screens "$1" "$3" "$5" "$6" "$7" &)
	screens "$2" "$4" "$5" "$6" "$7"
	nk=$(echo $5 | wc -w)
	for i in $(seq 300); do
		[ -e "$SHOTS/$1.$nk" ] && ! tmux -S "$SOCK.$1" has-session 2>/dev/null && return 0
		sleep 0.2
	done
	echo "the screens of $1 never ended"
	return 1
}

# same_screens A B KEYS: the screens of runs A and B after each key are the same
same_screens() {
	local n=0 k bad=0
	test_cmp "$SHOTS/$1.0" "$SHOTS/$2.0" || bad=1
	for k in $3; do
		n=$((n + 1))
		diff -u "$SHOTS/$1.$n" "$SHOTS/$2.$n" || { echo "after key $n ($k)"; bad=1; }
	done
	test $bad = 0
}

# vml_o: vml.o, the kernel's text symbols as the fixture's instructions, assembled; made
# once per check run (SONDE_PERF_CACHE, keyed by /proc/kallsyms and the fixture script)
# and copied after: neither depends on the build under test
vml_o() {
	local c

	if [ -z "$SONDE_PERF_CACHE" ] || [ ! -d "$SONDE_PERF_CACHE" ]; then
		python3 "$FIX" asm /proc/kallsyms vml.s && as -o vml.o vml.s
		return
	fi
	c=$SONDE_PERF_CACHE/t8030-vml-$(cat /proc/kallsyms "$FIX" | md5sum | cut -c1-32).o
	if [ ! -f "$c" ]; then
		python3 "$FIX" asm /proc/kallsyms vml.s && as -o vml.o vml.s &&
			cp vml.o "$c.tmp" && mv "$c.tmp" "$c" || return 1
	fi
	cp "$c" vml.o
}

DD="dd if=/dev/zero of=/dev/null bs=1 count=1000000"

test_expect_success ROOT,PERF 'recordings of dd: a perf.data directory (--threads) and a file' '
	"$PERF" record --threads -e cpu-clock -F 5000 -o k.data -- $DD 2>/dev/null &&
	test -d k.data &&
	"$PERF" record -e cpu-clock -F 5000 -o plain.data -- $DD 2>/dev/null &&
	test -f plain.data
'

if ! test_have_prereq ROOT PERF; then
	test_skip 'annotate of kernel symbols' "$prereq_reason"
	test_done
	exit 0
fi
# the hottest kernel symbols that start on 16 bytes (the pattern's blocks), up to four
"$SONDE" report --stdio -i plain.data --sort sym 2>/dev/null | sed -n "s/.*\[k\] //p" >ksyms.all
: >ksyms
while read -r s; do
	a=$(grep -m1 " [tT] $s\$" /proc/kallsyms | cut -d" " -f1)
	case $a in *0) echo "$s" >>ksyms ;; esac
done <ksyms.all
sed -i 4q ksyms
HOT=$(head -1 ksyms)
if [ -z "$HOT" ]; then
	test_skip 'annotate of kernel symbols' 'the recordings have no kernel samples (or /proc/kallsyms hides the addresses)'
	test_done
	exit 0
fi
BID=$("$PERF" buildid-list -i plain.data 2>/dev/null | sed -n "s/ \[kernel.kallsyms\]$//p")
STEXT=$(grep -m1 " T _stext$" /proc/kallsyms | cut -d" " -f1)
# does this machine have the kernel's code for perf (a readable /proc/kcore, a vmlinux)?
NOCODE=1
R=$(uname -r)
for f in /proc/kcore vmlinux /boot/vmlinux /boot/vmlinux-$R /usr/lib/debug/boot/vmlinux-$R \
	/lib/modules/$R/build/vmlinux /usr/lib/debug/lib/modules/$R/vmlinux /usr/lib/debug/boot/vmlinux-$R.debug; do
	[ -r "$f" ] && NOCODE=
done

if [ -n "$NOCODE" ]; then
	test_expect_success ROOT,PERF 'no vmlinux, no kcore: perf'"'"'s "Couldn'"'"'t annotate" text, status 0' '
		same_as_perf --stdio -i plain.data "$HOT" &&
		test ! -s sonde.out &&
		test_grep "^No vmlinux file with build id $BID\$" sonde.err
	'
else
	test_skip 'no vmlinux, no kcore: perf'"'"'s text' 'this machine has a readable /proc/kcore or a vmlinux'
fi

if [ -r /proc/kcore ] && [ "$(id -u)" = 0 ]; then
	test_expect_success PERF 'perf record --kcore: the same --stdio and --stdio2 on its kcore_dir' '
		"$PERF" record --kcore -e cpu-clock -F 5000 -o real.data -- $DD 2>/dev/null &&
		test -s real.data/kcore_dir/kcore &&
		same_as_perf --stdio -i real.data "$HOT" &&
		test_grep "Disassembly of kcore for" sonde.out &&
		same_as_perf --stdio2 -i real.data "$HOT"
	'
else
	test_skip 'perf record --kcore on this kernel' '/proc/kcore is not readable here (perf: "ERROR: kcore is not readable."); the kcore_dir below is the test'"'"'s'
fi

if [ -r /proc/kcore ]; then
	test_skip 'record --kcore where kcore is not readable' '/proc/kcore is readable here'
else
	test_expect_success ROOT,PERF 'record --kcore where kcore is not readable: perf'"'"'s message and status' '
		test_exit_code 255 "$PERF" record --kcore -o p.data -- true 2>perf.err &&
		test_exit_code 255 "$SONDE" record --kcore -o s.data -- true 2>sonde.err &&
		test_cmp perf.err sonde.err && test ! -e s.data
	'
fi

test_expect_success ROOT,PERF 'a kcore_dir as record --kcore leaves it, kcore from the fixture' '
	mkdir k.data/kcore_dir &&
	cp /proc/kallsyms k.data/kcore_dir/kallsyms &&
	if [ -r /proc/modules ]; then cp /proc/modules k.data/kcore_dir/modules; else : >k.data/kcore_dir/modules; fi &&
	python3 "$FIX" kcore k.data/kcore_dir/kallsyms k.data/kcore_dir/kcore &&
	"$PERF" annotate --stdio -i k.data "$HOT" >perf.out 2>perf.err &&
	test_grep "Source code & Disassembly of kcore for cpu-clock" perf.out &&
	test_grep "<load0>:$" perf.out
'

for s in $(cat ksyms); do
	test_expect_success ROOT,PERF "kcore: --stdio and --stdio2 of $s are perf's" '
		same_as_perf --stdio -i k.data "$s" &&
		same_as_perf --stdio2 -i k.data "$s"
	'
done

for opt in "--asm-raw" "-n" "--show-total-period" "-M intel" "--percent-type global-period" "--no-source"; do
	test_expect_success ROOT,PERF "kcore: $opt on $HOT is perf's" '
		same_as_perf --stdio $opt -i k.data "$HOT"
	'
done

test_expect_success ROOT,PERF 'kcore: every sampled kernel symbol of the recording with -d [kernel.kallsyms]' '
	# the symbols that do not start on 16 bytes decode from inside the pattern: all the same
	same_as_perf --stdio -d "[kernel.kallsyms]" -i k.data
'

# sonde's own record --kcore, with SONDE_KCORE_SOURCE standing in for /proc
# (this machine's kallsyms and modules, the fixture's kcore): the directory
# perf's tools read, and an older one kept as .old
test_expect_success ROOT,PERF 'sonde record --kcore: perf.data/data and kcore_dir, annotated alike by perf' '
	mkdir fakeproc &&
	cp k.data/kcore_dir/kallsyms k.data/kcore_dir/kcore fakeproc/ &&
	if [ -r /proc/modules ]; then cp /proc/modules fakeproc/modules; fi &&
	SONDE_KCORE_SOURCE=$TRASH/fakeproc "$SONDE" record --kcore -e cpu-clock -F 5000 -o rk.data -- $DD 2>rec.err &&
	test_grep "Captured and wrote .* rk.data [(]" rec.err &&
	test -s rk.data/data && test -f rk.data/kcore_dir/modules &&
	cmp fakeproc/kallsyms rk.data/kcore_dir/kallsyms &&
	readelf -lW rk.data/kcore_dir/kcore >ph && test_grep "LOAD .* R E " ph &&
	same_as_perf --stdio -d "[kernel.kallsyms]" -i rk.data &&
	test_grep "Disassembly of kcore for" sonde.out &&
	SONDE_KCORE_SOURCE=$TRASH/fakeproc "$SONDE" record -q --kcore -e cpu-clock -o rk.data -- true &&
	test -s rk.data.old/data && test -s rk.data/data && test -s rk.data/kcore_dir/kcore
'

# perf 6.1's -l asks addr2line about the kcore, which gives up: perf relays its
# complaint and at times dies of SIGPIPE writing to it (status 141); its answer
# is taken from the first run that ends well
rm -f l.ok
for i in 1 2 3 4 5 6 7 8; do
	if "$PERF" annotate --stdio -l -i k.data "$HOT" >l.perf.out 2>l.perf.err; then
		touch l.ok
		break
	fi
done
if [ -e l.ok ]; then
	test_expect_success ROOT,PERF 'kcore: -l: perf'"'"'s summary ("[kernel.kallsyms][addr]") and its addr2line lines' '
		"$SONDE" annotate --stdio -l -i k.data "$HOT" >sonde.out 2>sonde.err &&
		test_cmp l.perf.out sonde.out &&
		test_cmp l.perf.err sonde.err &&
		test_grep "^Sorted summary for file k.data/kcore_dir/kcore$" sonde.out &&
		test_grep "^addr2line k.data/kcore_dir/kcore: could not read first record$" sonde.err
	'
else
	test_skip 'kcore: -l' 'perf 6.1 died of SIGPIPE in eight runs of annotate -l on the kcore (its addr2line gone)'
fi

test_expect_success ROOT,PERF 'kcore_dir without a modules file: perf does not take the kcore' '
	mkdir -p m.data && cp k.data/data* m.data/ && mkdir m.data/kcore_dir &&
	cp k.data/kcore_dir/kallsyms k.data/kcore_dir/kcore m.data/kcore_dir/ &&
	same_as_perf --stdio -i m.data "$HOT" &&
	test_grep "^Couldn.t annotate $HOT:" sonde.err
'

test_expect_success ROOT,PERF 'kcore_dir with a kcore that is no ELF core file: the same' '
	mkdir -p j.data && cp k.data/data* j.data/ && mkdir j.data/kcore_dir &&
	cp k.data/kcore_dir/kallsyms k.data/kcore_dir/modules j.data/kcore_dir/ &&
	echo junk >j.data/kcore_dir/kcore &&
	same_as_perf --stdio -i j.data "$HOT" &&
	test_grep "^Couldn.t annotate $HOT:" sonde.err
'

if command -v tmux >/dev/null; then
	KEYS="o Down Tab Tab o J O O O s Tab k t p b"
	test_expect_success ROOT,PERF 'kcore: the TUI'"'"'s screens after each key are perf'"'"'s' '
		both perf sonde "$PERF annotate -i k.data $HOT" "$SONDE annotate -i k.data $HOT" "$KEYS" &&
		sed -n 2p "$SHOTS/perf.0" | grep -q "^$HOT  k.data/kcore_dir/kcore \[Percent: local period\]$" &&
		same_screens perf sonde "$KEYS"
	'
	test_expect_success ROOT,PERF 'report'"'"'s a on a kernel row: the annotate screen is perf'"'"'s' '
		both rperf rsonde "$PERF report -d \"[kernel.kallsyms]\" -i k.data" \
			"$SONDE report -d \"[kernel.kallsyms]\" -i k.data" "a o" &&
		grep -q "kcore_dir/kcore \[Percent: local period\]" "$SHOTS/rperf.1" &&
		diff -u "$SHOTS/rperf.1" "$SHOTS/rsonde.1" &&
		diff -u "$SHOTS/rperf.2" "$SHOTS/rsonde.2"
	'
	if [ -n "$NOCODE" ]; then
		test_expect_success ROOT,PERF 'no kcore: the TUI shows perf'"'"'s error box, then ends with status 0' '
			both pbox sbox "$PERF annotate -i plain.data $HOT; echo rc=\$?" \
				"$SONDE annotate -i plain.data $HOT; echo rc=\$?" "x" 120 30 &&
			grep -q "│Couldn.t annotate $HOT: *│" "$SHOTS/pbox.0" &&
			same_screens pbox sbox "x" &&
			grep -q "^rc=0" "$SHOTS/sbox.1"
		'
	else
		test_skip 'no kcore: the TUI'"'"'s error box' 'this machine has a readable /proc/kcore or a vmlinux'
	fi
else
	test_skip 'the annotate and report TUIs on kernel symbols' 'tmux is not installed'
fi

test_expect_success ROOT,PERF 'a vmlinux of the same bytes, linked with the recorded build-id' '
	test -n "$BID" &&
	vml_o &&
	ld -o vmlinux.img -Ttext=0x$STEXT -e 0 --build-id=0x$BID vml.o &&
	readelf -n vmlinux.img | grep -q "Build ID: $BID"
'

test_expect_success ROOT,PERF '-k vmlinux: --stdio, --stdio2 and -l as perf'"'"'s' '
	same_as_perf --stdio -k vmlinux.img -i plain.data "$HOT" &&
	test_grep "Disassembly of vmlinux.img for" sonde.out &&
	test_grep "<$HOT>:$" sonde.out &&
	same_as_perf --stdio2 -k vmlinux.img -i plain.data "$HOT" &&
	same_as_perf --stdio -l -k vmlinux.img -i plain.data "$HOT"
'

test_expect_success ROOT,PERF 'a vmlinux in the current directory, and in the build-id cache' '
	mkdir -p cwd && cp vmlinux.img cwd/vmlinux &&
	(cd cwd && same_as_perf --stdio -i ../plain.data "$HOT" && test_grep "Disassembly of vmlinux for" sonde.out) &&
	mkdir -p home/.debug/.build-id/${BID:0:2}/${BID:2} &&
	cp vmlinux.img home/.debug/.build-id/${BID:0:2}/${BID:2}/elf &&
	HOME=$TRASH/home same_as_perf --stdio2 -i plain.data "$HOT" &&
	test_grep "^$HOT\(\) $TRASH/home/.debug/.build-id/${BID:0:2}/${BID:2}/elf\$" sonde.out
'

test_expect_success ROOT,PERF '-k beats the kcore_dir; --ignore-vmlinux drops -k, and with -k the kcore too' '
	same_as_perf --stdio -k vmlinux.img -i k.data "$HOT" &&
	test_grep "Disassembly of vmlinux.img for" sonde.out &&
	same_as_perf --stdio --ignore-vmlinux -i k.data "$HOT" &&
	test_grep "Disassembly of kcore for" sonde.out &&
	same_as_perf --stdio --ignore-vmlinux -k vmlinux.img -i k.data "$HOT" &&
	test_grep "^Couldn.t annotate $HOT:" sonde.err &&
	same_as_perf --stdio --ignore-vmlinux -k vmlinux.img -i plain.data "$HOT" &&
	{ [ -z "$NOCODE" ] || test_grep "^No vmlinux file with build id" sonde.err; }
'

test_expect_success ROOT,PERF '-k a missing file: perf'"'"'s "Invalid file", status 234, before the data is read' '
	same_as_perf --stdio -k nosuch.img -i plain.data "$HOT" &&
	test_exit_code 234 "$SONDE" annotate --stdio -k nosuch.img -i nosuch.data 2>err &&
	test_cmp sonde.err err &&
	printf "Invalid file: nosuch.img\n" >expect && test_cmp expect err
'

# perf 6.1 exits 0 when nothing was annotated; sonde 1 (docs/cmd/annotate.md)
test_expect_success ROOT,PERF '-k a vmlinux of another kernel: no kernel symbols, perf'"'"'s text' '
	ld -o other.img -Ttext=0x$STEXT -e 0 --build-id=0x0123456789abcdef0123456789abcdef01234567 vml.o &&
	"$PERF" annotate --stdio -k other.img -i plain.data "$HOT" >perf.out 2>perf.err &&
	test_exit_code 1 "$SONDE" annotate --stdio -k other.img -i plain.data "$HOT" >sonde.out 2>sonde.err &&
	test_cmp perf.out sonde.out && test_cmp perf.err sonde.err &&
	test_grep "^The plain.data data has no samples!$" sonde.err
'

test_done
