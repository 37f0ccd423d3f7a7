#!/bin/bash
# SPDX-License-Identifier: MIT
# The -e and --filter options as stat and record use them: errors, exit
# status 129 and the usage lines, byte for byte against perf.
. "$(dirname "$0")/lib.sh"
unset COLUMNS LINES

# same_as_perf ARGS...: same stderr and exit status as perf ARGS (stdout ignored)
same_as_perf() {
	local prc=0 src=0
	"$PERF" "$@" >/dev/null 2>perf.err </dev/null || prc=$?
	"$SONDE" "$@" >/dev/null 2>sonde.err </dev/null || src=$?
	sed -i 's/\bsonde\b/perf/g' sonde.err
	test "$prc" = "$src" || { echo "exit: perf $prc, sonde $src: $*"; cat sonde.err; return 1; }
	test_cmp perf.err sonde.err
}

for cmd in stat "record -o /dev/null"; do
	for ev in bogus 'cpu-clock/bogus/' 'msr/tsc,bogus/' 'cycles:pppp' 'cs,' \
		'sched:sched_switch/period=3/' 'nosuch*:foo'; do
		test_expect_success PERF "$cmd -e '$ev': perf's error and usage, exit 129" \
			"same_as_perf $cmd -e '$ev' true"
	done
	test_expect_success PERF,TRACEFS "$cmd -e 'sched:nosuch': tracefs hint" \
		"same_as_perf $cmd -e sched:nosuch true"
	test_expect_success PERF "$cmd --filter before any -e" \
		"same_as_perf $cmd --filter x -e cs true"
	test_expect_success PERF,TRACEFS "$cmd --filter on a software event of the last -e" \
		"same_as_perf $cmd -e sched:sched_switch,cs --filter x true"
done

test_expect_success PERF "stat: a term perf stat refuses" '
	same_as_perf stat -e cpu-clock/freq=10/ true &&
	test_grep "'"'"'freq'"'"' is not usable in '"'"'perf stat'"'"'" sonde.err
'

# as_nobody ARGS...: same stderr/exit as perf when run by an unprivileged user
as_nobody() {
	local prc=0 src=0
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$PERF" "$@" >/dev/null 2>perf.err </dev/null || prc=$?
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$SONDE" "$@" >/dev/null 2>sonde.err </dev/null || src=$?
	sed -i 's/\bsonde\b/perf/g' sonde.err
	test "$prc" = "$src" || { echo "exit: perf $prc, sonde $src: $*"; cat sonde.err; return 1; }
	test_cmp perf.err sonde.err
}

if [ -d /sys/kernel/tracing ] && [ "$(stat -c %a /sys/kernel/tracing 2>/dev/null)" = 700 ]; then
	for ev in sched:sched_switch 'sched:sched_sw*' 'sch*:x'; do
		test_expect_success PERF,NOBODY "stat -e '$ev' without access to tracefs" \
			"as_nobody stat -e '$ev' true"
	done
else
	test_skip 'tracepoints without access to tracefs' 'tracefs is readable by everyone here'
fi

# without tracefs at all (unmounted in a private mount namespace, and a user
# who cannot mount it): perf's "Unable to find debugfs/tracefs" hints
no_tracefs_same() {
	unshare -m sh -c 'cd /; umount /sys/kernel/tracing 2>/dev/null;
		setpriv --reuid=nobody --regid=nogroup --clear-groups "$1" stat -e "$2" true >/dev/null 2>"$3"
		echo "exit $?" >>"$3"' sh "$PERF" "$1" perf.err &&
	unshare -m sh -c 'cd /; umount /sys/kernel/tracing 2>/dev/null;
		setpriv --reuid=nobody --regid=nogroup --clear-groups "$1" stat -e "$2" true >/dev/null 2>"$3"
		echo "exit $?" >>"$3"' sh "$SONDE" "$1" sonde.err &&
	sed -i "s/\bsonde\b/perf/g" sonde.err &&
	test_cmp perf.err sonde.err
}
if command -v unshare >/dev/null; then
	for ev in sched:sched_switch 'sched:*' 'sch*:x'; do
		test_expect_success PERF,NOBODY "stat -e '$ev' without any tracefs" \
			"no_tracefs_same '$ev'"
	done
else
	test_skip 'tracepoints without any tracefs' 'unshare (util-linux) not installed'
fi

test_expect_success 'repeated -e append, in order (stat)' '
	"$SONDE" stat -x, -e cs -e faults,cpu-clock:u true 2>out &&
	cut -d, -f3 out >names &&
	printf "cs\nfaults\ncpu-clock:u\n" >expect &&
	test_cmp expect names
'

test_done
