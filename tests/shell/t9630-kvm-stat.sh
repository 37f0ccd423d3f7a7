#!/bin/bash
# SPDX-License-Identifier: MIT
# kvm stat: record asks for perf's five kvm tracepoints with perf's attrs (guest
# only), report prints perf's table byte for byte on an empty recording and on a
# fixture of kvm_exit/kvm_entry samples (tests/fixtures/kvm-stat.data, made by
# sonde's writer); kvm record's default files and guest/host exclusion are perf's.
. "$(dirname "$0")/lib.sh"

if ! test_have_prereq PERF; then
	test_skip "kvm against perf" "$prereq_reason"
	test_done
fi

# same ARGS...: perf and sonde print the same (usage names aside) and exit alike
same() {
	local prc=0 src=0
	"$PERF" "$@" >perf.out 2>perf.err || prc=$?
	"$SONDE" "$@" >sonde.out 2>sonde.err || src=$?
	sed -i "s/Usage: perf /Usage: sonde /" perf.err
	test_cmp perf.out sonde.out && test_cmp perf.err sonde.err &&
		{ [ $prc = $src ] || { echo "exit $src, perf $prc: $*"; return 1; }; }
}

KD=$FIXTURES/kvm-stat.data

test_expect_success 'stat report on vmexit samples: perf'"'"'s table, every key and filter' '
	for a in "" "-k time" "-k sample" "--vcpu 0" "--vcpu 1 -k time" "--vcpu 7" \
		"--event mmio" "--event ioport" "--event mmio -k time --vcpu 1" \
		"--event ioport --vcpu 0" "--event ioport -p 4242" "-p 4242" "-p 1,4242" "-p 1"; do
		same kvm -i "$KD" stat report $a || return 1
	done &&
	"$SONDE" kvm -i "$KD" stat report 2>table &&
	grep -q "^ *HLT  *3  *30.00%  *92.62% .*( +-  27.60% )$" table &&
	grep -qx "Total Samples:10, Total events handled time:393.00us." table &&
	"$SONDE" kvm -i "$KD" stat report --event ioport 2>table &&
	grep -q "^ *0x70:PIN  *1  *50.00%  *52.60%  *5.40us" table &&
	"$SONDE" kvm -i "$KD" stat report --event mmio 2>table &&
	grep -q "^ *0xfee00000:W  *1 " table && grep -q "^ *0xfee00000:R  *1 .* 1.37us" table
'

test_expect_success 'stat report errors: bad key, bad event, bad option, missing file' '
	same kvm -i "$KD" stat report -k foo &&
	same kvm -i "$KD" stat report --event foo &&
	same kvm -i "$KD" stat report -x &&
	same kvm -i /nonexistent.data stat report &&
	same kvm && same kvm bogus
'

if [ ! -e /sys/kernel/tracing/events/kvm/kvm_exit ] || ! test_have_prereq ROOT; then
	test_skip "kvm stat record" "no kvm tracepoints here or not root"
	test_done
fi

test_expect_success 'stat record: perf'"'"'s events and attrs; report on the empty file as perf' '
	"$PERF" kvm stat record -o perf.kvm -- true 2>/dev/null &&
	"$SONDE" kvm stat record -o sonde.kvm -- true 2>/dev/null &&
	"$PERF" evlist -v -i perf.kvm >perf.ev &&
	"$PERF" evlist -v -i sonde.kvm >sonde.ev &&
	test_cmp perf.ev sonde.ev &&
	same kvm -i sonde.kvm stat report &&
	same kvm -i perf.kvm stat report --event ioport --vcpu 0 &&
	"$PERF" kvm stat record -a -o perf.kvm -- true 2>/dev/null &&
	"$SONDE" kvm stat record -a -o sonde.kvm -- true 2>/dev/null &&
	"$PERF" evlist -v -i perf.kvm >perf.ev &&
	"$PERF" evlist -v -i sonde.kvm >sonde.ev &&
	test_cmp perf.ev sonde.ev
'

test_expect_success 'kvm record: default file and guest/host exclusion as perf' '
	for hg in "" "--host" "--host --guest" "--host --no-guest" "--guest"; do
		rm -rf p s && mkdir p s &&
		(cd p && "$PERF" kvm $hg record -e cpu-clock -- true 2>/dev/null) &&
		(cd s && "$SONDE" kvm $hg record -e cpu-clock -- true 2>/dev/null) &&
		(cd p && ls) >perf.ls && (cd s && ls) >sonde.ls && test_cmp perf.ls sonde.ls &&
		"$PERF" evlist -v -i p/$(cat perf.ls) >perf.ev &&
		"$PERF" evlist -v -i s/$(cat sonde.ls) >sonde.ev &&
		test_cmp perf.ev sonde.ev || return 1
	done
'

# live: each tool in its own process group, stopped by SIGINT after 2.5 s and
# the group killed afterwards (perf kvm stat live runs until killed)
live() {
	local rc=0
	local pg
	# SIGINT, then SIGKILL 2 s later: perf 6.1.187's live may not stop on SIGINT
	setsid timeout -k 2 -s INT 2.5 "$@" >live.out 2>live.err &
	pg=$!
	wait $pg || rc=$?
	kill -KILL -- -$pg 2>/dev/null
	# the first refresh only: a loaded machine may fit one refresh fewer in
	sed -E 's/^[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{6}$/TIME/' live.err |
		awk '$0 == "TIME" { n++ } n == 1' >live.first
	mv live.first live.err
	head -c 8 live.out >live.first
	# stdout holds nothing but screen clears
	[ -z "$(tr -d '\033[H2J\n' <live.out)" ] || echo "stdout: more than screen clears" >>live.first
	mv live.first live.out
	echo $rc >live.rc
}

# live_refreshed TOOL ARGS...: live, again (three runs at most) while the run
# showed no whole refresh: on a loaded machine a tool's start-up can take the
# whole 2.5 s, or its exit after SIGINT the 2 s before SIGKILL, which drops
# its buffered stdout; neither says anything about what it prints
live_refreshed() {
	local i
	for i in 1 2 3; do
		live "$@"
		grep -qx TIME live.err && [ "$(cat live.rc)" != 137 ] && return 0
	done
	return 0
}

test_expect_success 'stat live: perf'"'"'s refreshes (screen clear, time, table)' '
	for a in "-d 1" "-d 1 --event ioport --vcpu 2 -k time"; do
		live_refreshed "$PERF" kvm stat live $a && mv live.out perf.out && mv live.err perf.err &&
		mv live.rc perf.rc &&
		live_refreshed "$SONDE" kvm stat live $a && mv live.out sonde.out && mv live.err sonde.err &&
		mv live.rc sonde.rc &&
		test_cmp perf.out sonde.out &&
		grep -qx TIME sonde.err && test_cmp perf.err sonde.err || return 1
	done &&
	same kvm stat live -k foo
'

test_done
