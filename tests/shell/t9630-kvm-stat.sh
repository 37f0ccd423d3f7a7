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

test_expect_success 'stat live: a clear not-implemented message, exit 1' '
	test_exit_code 1 "$SONDE" kvm stat live -d 1 2>err &&
	test_grep "^sonde: .kvm stat live. is not implemented yet" err
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

test_done
