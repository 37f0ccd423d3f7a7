#!/bin/bash
# SPDX-License-Identifier: MIT
# Shell test library (sharness vocabulary): test_expect_success, test_must_fail,
# test_cmp, prerequisites, TAP output. Source it first in every tests/shell/t*.sh.
#
# Environment from tests/run.sh: SONDE (binary under test), SONDE_BUILD,
# SONDE_ROOT (source tree), SONDE_WORKLOADS (built workload programs).

SONDE=${SONDE:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/build/sonde}
SONDE_ROOT=${SONDE_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
SONDE_BUILD=${SONDE_BUILD:-$(dirname "$SONDE")}
SONDE_WORKLOADS=${SONDE_WORKLOADS:-$SONDE_ROOT/build/workloads}
PERF=${PERF:-/usr/bin/perf}
FIXTURES=$SONDE_ROOT/tests/fixtures
GOLDEN=$SONDE_ROOT/tests/golden
export LC_ALL=C

test_count=0
TRASH=$(mktemp -d /tmp/sonde-test.XXXXXX)
trap 'cd /; rm -rf "$TRASH"' EXIT
cd "$TRASH" || exit 1
# sonde's own caches (e.g. inflated debug files) stay in the test's temp dir
export XDG_CACHE_HOME=$TRASH/.cache
# and so do the temp files of the tools a test runs (Chromium leaves its dirs behind)
mkdir -p "$TRASH/.tmp" && export TMPDIR=$TRASH/.tmp

TEST_SCRIPT=$(basename "$0" .sh)

# perf_cached NAME CMD...: CMD's stdout and exit status, run once per check
# run (SONDE_PERF_CACHE, set by tests/run.sh) and replayed after: for perf's
# side of a comparison whose output depends on its arguments alone (attrs
# opened, bench layouts, error texts), so that the ASan pass does not run perf
# again for the same answer. Keyed by this script, NAME, $PERF and the
# arguments; NAME says what CMD computes. Without the cache, CMD just runs.
perf_cached() {
	local name=$1 key f rc=0
	shift
	if [ -z "$SONDE_PERF_CACHE" ] || [ ! -d "$SONDE_PERF_CACHE" ]; then
		"$@"
		return
	fi
	key=$(printf '%s\0' "$TEST_SCRIPT" "$name" "$PERF" "$@" | md5sum | cut -c1-32)
	f=$SONDE_PERF_CACHE/$key
	if [ ! -f "$f.rc" ]; then
		"$@" >"$f.tmp" || rc=$?
		mv "$f.tmp" "$f.out" && echo "$rc" >"$f.rc"
	fi
	cat "$f.out"
	return "$(cat "$f.rc")"
}

# prerequisites: ROOT TRACEFS PERF HWCOUNTERS KPROBES UPROBES NOBODY
declare -A prereq_cache
prereq_reason=""
have_prereq_one() {
	case "$1" in
	ROOT) [ "$(id -u)" = 0 ] || { prereq_reason="needs root"; return 1; } ;;
	TRACEFS) [ -r /sys/kernel/tracing/events/sched/sched_switch/id ] ||
		{ prereq_reason="tracefs not mounted or not readable"; return 1; } ;;
	PERF) [ -x "$PERF" ] && "$PERF" version >/dev/null 2>&1 ||
		{ prereq_reason="reference perf ($PERF) not installed"; return 1; } ;;
	HWCOUNTERS) "$PERF" stat -x, -e instructions true 2>&1 | grep -q '^[0-9]' ||
		{ prereq_reason="no hardware PMU counters on this machine"; return 1; } ;;
	KPROBES) [ -e /sys/kernel/tracing/kprobe_events ] ||
		{ prereq_reason="kernel has no kprobe_events (kprobes missing)"; return 1; } ;;
	NOKPROBES) [ ! -e /sys/kernel/tracing/kprobe_events ] ||
		{ prereq_reason="this kernel has kprobe_events: the no-kprobes path cannot be shown"; return 1; } ;;
	LOCKTP) [ -e /sys/kernel/tracing/events/lock/contention_begin ] ||
		{ prereq_reason="kernel has no lock:contention_begin tracepoint"; return 1; } ;;
	UPROBES) [ -e /sys/kernel/tracing/uprobe_events ] ||
		{ prereq_reason="kernel has no uprobe_events"; return 1; } ;;
	NOBODY) [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1 && command -v setpriv >/dev/null ||
		{ prereq_reason="needs root and the 'nobody' user to test unprivileged runs"; return 1; } ;;
	*) prereq_reason="unknown prerequisite $1"; return 1 ;;
	esac
}
test_have_prereq() {
	local p
	for p in "$@"; do
		have_prereq_one "$p" || return 1
	done
}

say_result() {
	test_count=$((test_count + 1))
	echo "$1 $test_count - $2"
}

# test_expect_success [PREREQS] 'description' 'commands'
test_expect_success() {
	local prereq="" desc body
	if [ $# = 3 ]; then prereq=$1; shift; fi
	desc=$1 body=$2
	if [ -n "$prereq" ] && ! test_have_prereq ${prereq//,/ }; then
		say_result ok "$desc # SKIP $prereq_reason"
		return
	fi
	local out t0=$EPOCHREALTIME
	out=$(cd "$TRASH" && eval "set -e; $body" 2>&1 </dev/null)
	local rc=$?
	# SONDE_TEST_TIMES=1: each test's seconds, to find what makes a script slow
	[ -z "$SONDE_TEST_TIMES" ] ||
		echo "# time $(( (${EPOCHREALTIME/./} - ${t0/./}) / 1000 )) ms: $desc" >&2
	if [ $rc = 0 ]; then
		say_result ok "$desc"
	else
		printf '%s\n' "$out" | tail -40 | sed 's/^/# /'
		say_result "not ok" "$desc"
	fi
}

# test_skip 'description' 'reason'
test_skip() {
	say_result ok "$1 # SKIP $2"
}

# test_must_fail CMD...: CMD exits non-zero but was not killed by a signal
test_must_fail() {
	local rc=0
	"$@" || rc=$?
	if [ $rc = 0 ]; then
		echo "test_must_fail: command succeeded: $*"
		return 1
	elif [ $rc -gt 128 ] && [ $rc != 129 ] && [ $rc -lt 192 ]; then
		echo "test_must_fail: killed by signal $((rc - 128)): $*"
		return 1
	elif [ $rc = 223 ]; then
		echo "test_must_fail: sanitizer error: $*"
		return 1
	fi
	return 0
}

# test_exit_code N CMD...: CMD exits with status N
test_exit_code() {
	local want=$1 rc=0
	shift
	"$@" || rc=$?
	if [ "$rc" != "$want" ]; then
		echo "expected exit $want, got $rc: $*"
		return 1
	fi
}

# test_cmp EXPECTED ACTUAL
test_cmp() {
	diff -u "$1" "$2"
}

# test_grep PATTERN FILE: like grep -E, but prints the file on failure
test_grep() {
	if ! grep -E -- "$1" "$2" >/dev/null; then
		echo "pattern not found: $1 in $2:"
		head -50 "$2"
		# again after the text: a log cut to its last lines still names it
		echo "(pattern not found: $1 in $2)"
		return 1
	fi
}

test_done() {
	echo "1..$test_count"
}

# interrupt PID: Ctrl-C for a background job. A job started with & in a script
# begins with SIGINT ignored until the program installs its handler, so a
# signal sent too early is lost: resend every 2 s (30 s at most, then SIGKILL)
# instead of letting the test's wait hang.
interrupt() {
	local i
	kill -INT "$1" 2>/dev/null || return 0
	for i in $(seq 150); do
		kill -0 "$1" 2>/dev/null || return 0
		sleep 0.2
		# a resend that finds the program gone means it has ended
		if [ $((i % 10)) = 0 ]; then kill -INT "$1" 2>/dev/null || return 0; fi
	done
	kill -KILL "$1" 2>/dev/null
	return 0
}

# default_event_mods: the modifier letters perf 6.1 (187 and 192 alike) gives
# its default event's cpu-clock fallback on this host: "pppH" (guest shut out)
# on Intel and others, "ppp" on AMD and Hygon, whose precise sampling cannot
# exclude guests. Checked by t2010 against the installed perf's attrs.
default_event_mods() {
	case "$(sed -n 's/^vendor_id[[:space:]]*: *//p' /proc/cpuinfo | head -1)" in
	AuthenticAMD | HygonGenuine) echo ppp ;;
	*) echo pppH ;;
	esac
}

# report_same FILE OPTS...: perf report --stdio and sonde report --stdio print
# the same report (the random "# (Tip: ...)" line dropped) and exit alike;
# perf's stderr warnings are not compared. Leaves perf.out, sonde.out and
# sonde.err for further checks.
report_same() {
	local f=$1 rc_p=0 rc_s=0
	shift
	report_same_perf "$f" "$@" >perf.out 2>/dev/null || rc_p=$?
	"$SONDE" report --stdio -i "$f" "$@" >sonde.out 2>sonde.err || rc_s=$?
	grep -v '^# (Tip:' perf.out >perf.norm
	grep -v '^# (Tip:' sonde.out >sonde.norm
	test_cmp perf.norm sonde.norm &&
	{ [ $rc_p = $rc_s ] || { echo "exit $rc_s, perf $rc_p: $*"; cat sonde.err; return 1; }; } ||
	{ echo "failed: $f $*"; return 1; }
}

# wait_events_open PID: until PID holds perf_event fds (its events are open; 10 s at
# most), then a moment for it to enable them; for tests whose workload must not
# start before a tracer is ready on a loaded machine
wait_events_open() {
	local i
	for i in $(seq 100); do
		if ls -l "/proc/$1/fd" 2>/dev/null | grep -q "anon_inode:\[perf_event\]"; then
			sleep 0.3
			return 0
		fi
		sleep 0.1
	done
	echo "pid $1 opened no perf events in 10 s"
	return 1
}

# perf_data_dir: where a script keeps perf's recordings of programs that stay where
# they are (the workloads, system programs, the kernel): with SONDE_PERF_CACHE a
# directory of the check run, recorded in by the first pass and read again by the
# second (perf_rec_once; report_same then replays perf's reports of them); else $TRASH
perf_data_dir() {
	if [ -n "$SONDE_PERF_CACHE" ] && [ -d "$SONDE_PERF_CACHE" ]; then
		mkdir -p "$SONDE_PERF_CACHE/data.$TEST_SCRIPT" &&
			echo "$SONDE_PERF_CACHE/data.$TEST_SCRIPT"
	else
		echo "$TRASH"
	fi
}

# perf_rec_once FILE CMD...: CMD (a perf record writing FILE, under perf_data_dir)
# unless this check run has run it already
perf_rec_once() {
	local f=$1
	shift
	[ -e "$f.ok" ] && return 0
	"$@" && touch "$f.ok"
}

# report_same's perf report, replayed (perf_cached) for files under perf_data_dir
# when that is the check run's and HOME is the script's own
PERF_DATA_HOME=$HOME
report_same_perf() {
	local d

	d=$SONDE_PERF_CACHE/data.$TEST_SCRIPT
	case $1 in
	"$d"/*)
		if [ -n "$SONDE_PERF_CACHE" ] && [ "$HOME" = "$PERF_DATA_HOME" ]; then
			perf_cached report_same "$PERF" report --stdio -i "$@"
			return
		fi ;;
	esac
	"$PERF" report --stdio -i "$@"
}
