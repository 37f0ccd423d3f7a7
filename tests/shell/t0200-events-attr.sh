#!/bin/bash
# SPDX-License-Identifier: MIT
# check: parallel (its own files and workloads, nothing timed, no system-wide recording)
# The -e parser against perf 6.1: for every string of tests/fixtures/events/
# valid.txt the attrs (type, config*, bp_*, exclude_*, precise_ip, pinned,
# exclusive, group leaders) and event names sonde makes equal the ones perf
# stat opens (its -vv dump also shows events that fail to open, like the
# hardware ones here); for errors.txt the exit status and the error text.
. "$(dirname "$0")/lib.sh"

EV=$SONDE_ROOT/tests/fixtures/events
unset COLUMNS LINES

# perf_attrs SPEC: perf's attr lines and names, in sonde's --parse-events layout
perf_attrs_run() {
	"$PERF" stat -vv -e "$1" true 2>&1 </dev/null | awk -f "$EV/perf-vv-attrs.awk"
}
perf_names_run() {
	"$PERF" stat -x';' -e "$1" true 2>&1 </dev/null | awk -F';' 'NF >= 3 { print "name: " $3 }'
}
perf_attrs() { perf_cached attrs perf_attrs_run "$1"; }
perf_names() { perf_cached names perf_names_run "$1"; }
# perf_error_run SPEC: perf stat's stderr for SPEC, and its status
perf_error_run() { "$PERF" stat -e "$1" true 2>&1 >/dev/null </dev/null; }

# same_error SPEC: perf stat and sonde end with the same exit status and error
# text for SPEC (exits and diff in d.out)
same_error() {
	local prc=0 src=0
	perf_cached error perf_error_run "$1" >perf.err || prc=$?
	"$SONDE" list --parse-events "$1" >/dev/null 2>sonde.err || src=$?
	sed -n "0,/^Run 'perf list'/p" perf.err >perf.txt
	sed "s/^Run 'sonde list'/Run 'perf list'/" sonde.err >sonde.txt
	echo "perf exit $prc, sonde exit $src" >d.out
	[ "$prc" = "$src" ] && diff -u perf.txt sonde.txt >>d.out
}

compare_valid() {
	local spec fails=0 n=0 absent=0
	while IFS= read -r spec; do
		case "$spec" in ''|'#'*) continue ;; esac
		n=$((n + 1))
		perf_attrs "$spec" >perf.attr
		if ! "$SONDE" list --parse-events "$spec" >sonde.out 2>sonde.err; then
			# a PMU or event this machine lacks (msr/smi/, power/...):
			# perf must reject it too, with the same exit and text
			if same_error "$spec"; then
				absent=$((absent + 1)); continue
			fi
			echo "sonde rejected: $spec (perf accepts it or fails otherwise)"
			cat sonde.err d.out; fails=$((fails + 1)); continue
		fi
		grep '^attr:' sonde.out >sonde.attr
		if ! diff -u perf.attr sonde.attr >d.out; then
			echo "attr mismatch for: $spec"; cat d.out; fails=$((fails + 1)); continue
		fi
		# names: only when perf stat could run the whole list
		if perf_names "$spec" >perf.names && [ -s perf.names ] &&
			[ "$(wc -l <perf.names)" = "$(wc -l <perf.attr)" ]; then
			grep '^name:' sonde.out >sonde.names
			if ! diff -u perf.names sonde.names >d.out; then
				echo "name mismatch for: $spec"; cat d.out; fails=$((fails + 1))
			fi
		fi
	done <"$EV/valid.txt"
	echo "$n valid strings, $absent rejected by both (PMU or event not on this machine), $fails mismatches"
	[ $fails = 0 ]
}

compare_errors() {
	local spec fails=0 n=0
	while IFS= read -r spec; do
		case "$spec" in '#'*) continue ;; esac
		n=$((n + 1))
		if ! same_error "$spec"; then
			echo "error mismatch for: '$spec'"
			cat d.out; fails=$((fails + 1))
		fi
	done <"$EV/errors.txt"
	echo "$n error strings, $fails mismatches"
	[ $fails = 0 ]
}

# period=/freq= terms: perf stat ignores them, so compare with the attrs
# perf record opens (PERF_TEST_ATTR files, one per CPU, in fd order; the
# tracking dummy event record adds comes last)
compare_periods() {
	local spec fails=0 ncpu
	ncpu=$(getconf _NPROCESSORS_ONLN)
	while IFS= read -r spec; do
		case "$spec" in ''|'#'*) continue ;; esac
		rm -rf attrs && mkdir attrs
		PERF_TEST_ATTR=$PWD/attrs "$PERF" record -q -o perf.data -e "$spec" true >/dev/null 2>&1 </dev/null
		for f in $(ls attrs | sort -t- -k4 -n); do
			awk -F= '/^sample_period=/ { p = $2 } /^freq=/ { q = $2 } /^type=/ { t = $2 }
				/^config=/ { c = $2 } END { print t, c, "period: sample_period=" p " freq=" q }' "attrs/$f"
		done | awk -v n="$ncpu" '(NR - 1) % n == 0' | grep -v "^1 9 " | cut -d" " -f3- >perf.period
		"$SONDE" list --all-terms --parse-events "$spec" | grep "^period:" >sonde.period
		if ! diff -u perf.period sonde.period >d.out; then
			echo "period mismatch for: $spec"; cat d.out; fails=$((fails + 1))
		fi
	done <"$EV/periods.txt"
	[ $fails = 0 ]
}

test_expect_success 'corpus has at least 150 strings' '
	n=$(grep -cv -e "^#" -e "^\$" "$EV/valid.txt" "$EV/errors.txt" | awk -F: "{ s += \$2 } END { print s }") &&
	test "$n" -ge 150
'

test_expect_success PERF,TRACEFS,ROOT 'valid strings: same attrs and names as perf' 'compare_valid'

test_expect_success PERF,TRACEFS,ROOT 'bad strings: same exit status and error text as perf' 'compare_errors'

test_expect_success PERF,ROOT 'period= and freq= terms: the attrs perf record opens' 'compare_periods'

test_done
