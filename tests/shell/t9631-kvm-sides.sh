#!/bin/bash
# SPDX-License-Identifier: MIT
# perf kvm's --host/--guest on record, report, diff, buildid-list and top:
# perf's default files, the exclude_host/exclude_guest bits (PERF_TEST_ATTR),
# the side left out hidden in report/diff (a host recording shows nothing
# guest-only), top's header with perf kvm's guest fields, and the messages.
. "$(dirname "$0")/lib.sh"

W=$SONDE_WORKLOADS/cpuburn

if ! test_have_prereq PERF; then
	test_skip "kvm --host/--guest against perf" "$prereq_reason"
	test_done
fi

# norm FILE: report text without perf's random tip
norm() {
	grep -v '^# (Tip:' "$1"
}

test_expect_success 'record with the default event: perf'"'"'s files and attrs, each side' '
	for hg in "" "--host" "--guest" "--host --guest" "--host --no-guest" "--no-guest"; do
		rm -rf pd sd && mkdir pd sd &&
		(cd pd && "$PERF" kvm $hg record -- true 2>/dev/null) &&
		(cd sd && "$SONDE" kvm $hg record -- true 2>/dev/null) &&
		(cd pd && ls) >perf.ls && (cd sd && ls) >sonde.ls && test_cmp perf.ls sonde.ls &&
		"$PERF" evlist -v -i pd/$(cat perf.ls) >perf.ev &&
		"$PERF" evlist -v -i sd/$(cat sonde.ls) >sonde.ev &&
		test_cmp perf.ev sonde.ev || exit 1
	done
'

test_expect_success 'report: the side left out is hidden (its period counted), as perf kvm' '
	# a host recording: guest-only views show no entry, the host ones all
	"$PERF" kvm --host --no-guest record -o host.data -- "$W" 100 2>/dev/null &&
	for hg in "" "--guest" "--host" "--host --guest" "--host --no-guest" "--guest --no-host"; do
		"$PERF" kvm $hg report -i host.data --stdio >p.rep 2>/dev/null &&
		"$SONDE" kvm $hg report -i host.data --stdio >s.rep 2>/dev/null &&
		norm p.rep >p && norm s.rep >s && test_cmp p s || exit 1
	done &&
	"$SONDE" kvm --host report -i host.data --stdio >s.rep 2>/dev/null &&
	test_grep "cpuburn +cpuburn +\[\.\] leaf" s.rep &&
	"$SONDE" kvm report -i host.data --stdio >s.rep 2>/dev/null &&
	! grep -q "cpuburn  " s.rep && test_grep "^# Samples: " s.rep
'

test_expect_success 'report on guest samples: each side shows only its own' '
	# every third sample turned into a guest-kernel one, every third a guest-user one
	cp host.data mixed.data && python3 "$SONDE_ROOT/tests/shell/guest-samples.py" mixed.data >counts &&
	test_grep "^host [1-9][0-9]* guest-kernel [1-9][0-9]* guest-user [1-9][0-9]*$" counts &&
	"$SONDE" kvm report -i mixed.data --stdio >guest.rep 2>/dev/null &&
	"$SONDE" kvm --host --no-guest report -i mixed.data --stdio >host.rep 2>/dev/null &&
	grep -E "^ +[0-9.]+%" guest.rep >g && grep -E "^ +[0-9.]+%" host.rep >h &&
	test -s g && test -s h &&
	! grep -v -E "\[[gu]\] " g && ! grep -E "\[[gu]\] " h &&
	# both over all the samples
	grep "^# Samples" guest.rep >gs && grep "^# Samples" host.rep >hs && test_cmp gs hs
'

test_expect_success 'report and buildid-list read perf'"'"'s default file; missing: perf'"'"'s words' '
	cp host.data perf.data.host &&
	"$PERF" kvm --host --no-guest report --stdio >p.rep 2>/dev/null &&
	"$SONDE" kvm --host --no-guest report --stdio >s.rep 2>/dev/null &&
	norm p.rep >p && norm s.rep >s && test_cmp p s &&
	"$PERF" kvm --host --no-guest buildid-list >p 2>&1 &&
	"$SONDE" kvm --host --no-guest buildid-list >s 2>&1 && test_cmp p s &&
	for c in "--host report --stdio" buildid-list "report --stdio"; do
		test_exit_code 255 "$PERF" kvm $c >/dev/null 2>p &&
		test_exit_code 255 "$SONDE" kvm $c >/dev/null 2>s && test_cmp p s || exit 1
	done &&
	test_grep "^failed to open perf.data.guest: No such file or directory$" s
'

test_expect_success 'diff: perf.data.host against perf.data.guest unless files are given' '
	cp host.data perf.data.host && rm -f perf.data.guest &&
	test_exit_code 255 "$PERF" kvm diff >/dev/null 2>p &&
	test_exit_code 255 "$SONDE" kvm diff >/dev/null 2>s && test_cmp p s &&
	test_grep "^failed to open perf.data.guest" s &&
	cp host.data perf.data.guest &&
	for a in "" "--sort dso" "host.data host.data"; do
		"$PERF" kvm diff $a >p 2>/dev/null && "$SONDE" kvm diff $a >s 2>/dev/null &&
		test_cmp p s || exit 1
	done &&
	# the guest-only default hides every host entry: no row
	! grep -q "^ " s &&
	"$SONDE" kvm --host diff host.data host.data >s 2>/dev/null && test_grep "cpuburn +\[\.\] leaf" s
'

# top_run TOOL ARGS...: one 2 s --stdio run of TOOL ARGS top: the type,
# config and exclude bits of the sampling events it opened (PERF_TEST_ATTR),
# then its first PerfTop line
top_run() {
	local d f
	d=$(mktemp -d "$TRASH/attr.XXXXXX")
	chmod 777 "$d"
	PERF_TEST_ATTR=$d timeout -s INT 2 "$@" top --stdio -d 1 </dev/null 2>/dev/null >"$d/out"
	for f in "$d"/event-*; do
		[ -e "$f" ] || continue
		grep -q "^sample_period=4000$" "$f" || continue
		grep -E "^(type|config|exclude_host|exclude_guest)=" "$f" | tr '\n' ' '
		echo
	done | sort -u
	grep -a -m1 PerfTop "$d/out"
	rm -rf "$d"
}

test_expect_success ROOT 'top: perf kvm'"'"'s exclude bits and header, each side' '
	# perf stops reading rings while its --stdio prompt waits on stdin: its first
	# header (no sample yet) is the one compared
	for hg in "" "--host" "--host --no-guest"; do
		perf_cached "top $hg" top_run "$PERF" kvm $hg >p &&
		top_run "$SONDE" kvm $hg >s &&
		grep -q exclude_host p && grep -q PerfTop p && test_cmp p s || exit 1
	done &&
	top_run "$SONDE" kvm --guest >s &&
	test_grep "kernel:-nan% us:-nan% guest kernel:-nan% guest us:-nan% exact:  0.0% \[" s &&
	test_grep "exclude_host=1 exclude_guest=0" s
'

test_done
