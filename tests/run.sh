#!/bin/bash
# SPDX-License-Identifier: MIT
# Runs every test layer (unit, layer check, shell/live, differential) for the
# normal build and, unless SONDE_NO_ASAN=1, again under ASan+UBSan.
# Prints TAP from each part, the slowest parts, and ends with one line:
# "N passed, N failed, N skipped". A part whose TAP plan (1..N) is missing or
# does not match the results it printed failed (it died halfway).
cd "$(dirname "$0")/.." || exit 2
ROOT=$PWD
LOG=$(mktemp -d /tmp/sonde-check.XXXXXX)
trap 'rm -rf "$LOG"' EXIT

# Live tests use tracefs: mount it when this machine has it unmounted.
if [ "$(id -u)" = 0 ] && [ -d /sys/kernel/tracing ] && [ ! -e /sys/kernel/tracing/events ]; then
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
fi

# perf's answers that depend on their arguments alone, computed in the first
# pass and replayed in the second (lib.sh perf_cached)
export SONDE_PERF_CACHE=$LOG/perf-cache
mkdir -p "$SONDE_PERF_CACHE"

passed=0 failed=0 skipped=0
failures=()
: >"$LOG/times"

# exec_part LABEL OUT CMD...: run one part, its output into OUT, its
# status into OUT.rc and its time (ms) into OUT.ms
exec_part() {
	local label=$1 out=$2 t0 t1 rc
	shift 2
	t0=$EPOCHREALTIME
	"$@" >"$out" 2>&1
	rc=$?
	t1=$EPOCHREALTIME
	echo "$rc" >"$out.rc"
	# elapsed time in ms, from the microsecond clock
	echo "$(( (${t1/./} - ${t0/./}) / 1000 ))" >"$out.ms"
}

# tally_part LABEL OUT: count the TAP lines of a finished part
tally_part() {
	local label=$1 out=$2 line rc
	rc=$(cat "$out.rc")
	echo "$(cat "$out.ms") $label" >>"$LOG/times"
	local seen=0 results=0 plan=""
	while IFS= read -r line; do
		case "$line" in
		"ok "*"# SKIP"*)
			skipped=$((skipped + 1)); seen=1; results=$((results + 1))
			echo "[$label] $line" ;;
		"ok "*)
			passed=$((passed + 1)); seen=1; results=$((results + 1))
			[ -n "$VERBOSE" ] && echo "[$label] $line" ;;
		"not ok "*)
			failed=$((failed + 1)); seen=1; results=$((results + 1))
			failures+=("[$label] $line")
			echo "[$label] $line" ;;
		1..[0-9]*)
			plan=${line#1..}
			[ -n "$VERBOSE" ] && echo "[$label] $line" ;;
		"#"*)
			[ -n "$VERBOSE" ] && echo "[$label] $line" ;;
		*)
			[ -n "$VERBOSE" ] && echo "[$label]   $line" ;;
		esac
	done <"$out"
	# a part that crashed before reporting anything counts as one failure
	if [ "$rc" -ne 0 ] && [ $seen = 0 ]; then
		failed=$((failed + 1))
		failures+=("[$label] exited $rc without results")
		sed "s/^/[$label]   /" "$out" | tail -20
	elif [ -z "$plan" ] || [ "$plan" != "$results" ]; then
		# died halfway (or never reached test_done): the plan is missing or wrong
		failed=$((failed + 1))
		failures+=("[$label] TAP plan ${plan:-missing}: ${results} results, exit $rc")
		echo "[$label] not ok - TAP plan ${plan:-missing}, but $results results (exit $rc)"
		tail -5 "$out" | sed "s/^/[$label]   /"
	fi
	# show the diagnostics of failing tests, and keep a short form for the end
	if grep -q '^not ok' "$out"; then
		grep -B8 '^not ok' "$out" | grep -v '^ok ' | sed "s/^/[$label]   /" | tail -60
		grep -B6 '^not ok' "$out" | grep -v '^ok ' | grep -v '^--$' | cut -c1-160 |
			sed "s/^/  [$label] /" | tail -14 >>"$LOG/diag"
	fi
}

# run_part LABEL CMD...: run one part now and count it
run_part() {
	local label=$1
	shift
	exec_part "$label" "$LOG/part.out" "$@"
	tally_part "$label" "$LOG/part.out"
}

# Tests marked "# check: parallel" read files and workloads of their own and
# time nothing: they run SONDE_CHECK_LANES at a time (default: the CPUs, at
# most 2), before the others, which run alone so that live and timing tests
# see a quiet machine. Results are counted in name order either way.
lanes=${SONDE_CHECK_LANES:-$(nproc 2>/dev/null || echo 1)}
[ "$lanes" -gt 2 ] && lanes=2
[ "$lanes" -lt 1 ] && lanes=1

O=${O:-build}
AO=${AO:-$O-asan}
variants="$O"
asan_note=""
if [ -n "$SONDE_NO_ASAN" ]; then
	asan_note="WARNING: the ASan+UBSan pass was SKIPPED (SONDE_NO_ASAN=$SONDE_NO_ASAN): run 'make check' for it"
elif [ -x "$AO/sonde" ] && [ -x "$AO/unit-tests" ] && [ -x "$AO/fuzz-replay" ]; then
	variants="$O $AO"
else
	asan_note="WARNING: the ASan+UBSan pass was SKIPPED: no ASan build in $AO/ (run 'make check', or set SONDE_NO_ASAN=1)"
	failed=$((failed + 1))
	failures+=("[asan] no ASan build in $AO/")
fi
[ -n "$asan_note" ] && echo "$asan_note"

run_part layers tools/check-layers.sh

for v in $variants; do
	export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:exitcode=223:log_path=$LOG/asan"
	export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:log_path=$LOG/asan"
	run_part "$v:unit" "$v/unit-tests"
	# the fuzz target's replay of every regression input (script, report, tracing data)
	run_part "$v:fuzz-replay" "$v/fuzz-replay" tests/fuzz/regressions/*
	normal_only=()
	par=() ser=()
	for t in tests/shell/t[0-9]*.sh; do
		[ -n "$SONDE_TESTS" ] && ! echo "$t" | grep -Eq "$SONDE_TESTS" && continue
		name=$(basename "$t" .sh)
		# a test of the tooling alone (no sonde code runs in it) gains nothing under ASan
		if [ "$v" != "$O" ] && grep -q '^# check: normal pass only' "$t"; then
			normal_only+=("$name")
			continue
		fi
		if [ "$lanes" -gt 1 ] && grep -q '^# check: parallel' "$t"; then
			par+=("$t")
		else
			ser+=("$t")
		fi
	done
	export SONDE="$ROOT/$v/sonde" SONDE_BUILD="$ROOT/$v" SONDE_ROOT="$ROOT" \
		SONDE_WORKLOADS="$ROOT/$O/workloads"
	mkdir -p "$LOG/$v"
	pass_t0=$EPOCHREALTIME
	running=0
	for t in "${par[@]}"; do
		name=$(basename "$t" .sh)
		# its own HOME: two perf records at once never share a build-id cache
		mkdir -p "$LOG/$v/home.$name"
		HOME="$LOG/$v/home.$name" exec_part "$v:$name" "$LOG/$v/$name" bash "$t" &
		running=$((running + 1))
		if [ $running -ge "$lanes" ]; then
			wait -n
			running=$((running - 1))
		fi
	done
	wait
	for t in "${par[@]}"; do
		name=$(basename "$t" .sh)
		tally_part "$v:$name" "$LOG/$v/$name"
	done
	for t in "${ser[@]}"; do
		name=$(basename "$t" .sh)
		run_part "$v:$name" bash "$t"
	done
	pass_t1=$EPOCHREALTIME
	echo "$(( (${pass_t1/./} - ${pass_t0/./}) / 1000 )) $v" >>"$LOG/walls"
	unset SONDE SONDE_BUILD SONDE_ROOT SONDE_WORKLOADS
	[ ${#normal_only[@]} -gt 0 ] &&
		echo "[$v] run in the normal pass only (no sonde code runs in them): ${normal_only[*]}"
	if ls "$LOG"/asan* >/dev/null 2>&1; then
		failed=$((failed + 1))
		failures+=("[$v] sanitizer reports")
		echo "[$v] sanitizer reports:"
		cat "$LOG"/asan* | head -80
		rm -f "$LOG"/asan*
	fi
	unset ASAN_OPTIONS UBSAN_OPTIONS
done

echo
echo "time per pass, its parts summed (seconds):"
awk '{ split($2, a, ":"); t[a[1]] += $1 } END { for (v in t) printf "  %4d.%03d  %s\n", t[v] / 1000, t[v] % 1000, v }' \
	"$LOG/times" | sort -k2
cp "$LOG/times" "$O/check-times.txt" 2>/dev/null # every part's time (ms), for a look afterwards
if [ -s "$LOG/walls" ]; then
	echo "shell tests, wall time per pass ($lanes lanes for the parallel ones; seconds):"
	while read -r ms label; do
		printf '  %4d.%03d  %s\n' $((ms / 1000)) $((ms % 1000)) "$label"
	done <"$LOG/walls"
fi
echo "slowest parts (seconds):"
sort -rn "$LOG/times" | head -10 | while read -r ms label; do
	printf '  %4d.%03d  %s\n' $((ms / 1000)) $((ms % 1000)) "$label"
done
# last, so that a log cut to its tail still says what failed and why
if [ ${#failures[@]} -gt 0 ]; then
	if [ -s "$LOG/diag" ]; then
		echo
		echo "what the failing tests printed (short):"
		tail -60 "$LOG/diag"
	fi
	echo
	echo "failures:"
	printf '  %s\n' "${failures[@]}"
fi
if [ -n "$asan_note" ]; then
	echo
	echo "$asan_note"
fi
echo
echo "$passed passed, $failed failed, $skipped skipped"
[ $failed = 0 ]
