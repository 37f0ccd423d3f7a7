#!/bin/bash
# SPDX-License-Identifier: MIT
# perf script -s x.py: the same user scripts run by perf and by sonde over files
# perf records here (sched and syscall tracepoints, cpu-clock with callchains),
# one script per handler kind; -g python against perf's skeleton; Perl refused.
. "$(dirname "$0")/lib.sh"

scripts=$SONDE_ROOT/tests/shell/python
burn=$SONDE_WORKLOADS/cpuburn
ln -s "$SONDE" perf

# both print the same on stdout and exit alike for: script -i FILE ARGS...
same() {
	local f=$1
	shift
	rc1=0 rc2=0
	"$PERF" script -i "$f" "$@" >expect 2>expect.err </dev/null || rc1=$?
	./perf script -i "$f" "$@" >actual 2>actual.err </dev/null || rc2=$?
	test "$rc1" = "$rc2" || { echo "exit status: perf $rc1, sonde $rc2 for $*"; cat actual.err; return 1; }
	test_cmp expect actual || return 1
}

python_ok() {
	./perf script -i tp.data -s "$scripts/unhandled.py" >/dev/null 2>py.err ||
		! grep -q "needs libpython3" py.err
}

test_expect_success PERF,ROOT,TRACEFS 'record: tracepoints and cpu-clock on a small workload' '
	"$PERF" record -q -o tp.data -e sched:sched_switch -e raw_syscalls:sys_enter \
		-e raw_syscalls:sys_exit -e sched:sched_wakeup -e cpu-clock -c 50000 \
		-- sh -c "cat /etc/hostname >/dev/null; ls /nonexistent-dir 2>/dev/null; true" \
		>/dev/null 2>&1 &&
	"$PERF" record -q -o cg.data -g -e cpu-clock -c 200000 -- "$burn" 100 >/dev/null 2>&1 &&
	test -s tp.data && test -s cg.data
'

if ! test -s "$TRASH/tp.data" || ! (cd "$TRASH" && python_ok); then
	test_skip 'python scripting' "no fixture or no libpython3 ($(cat "$TRASH/py.err" 2>/dev/null))"
	test_done
	exit 0
fi

test_expect_success 'tracepoint handlers, trace_begin/end, argv, Core and Util helpers' '
	same tp.data -s "$scripts/handlers.py" one two &&
	test_grep "^begin \[.one., .two.\]" actual &&
	test_grep "^sched__sched_switch " actual &&
	test_grep "^enter " actual &&
	test_grep "^end" actual
'

test_expect_success 'trace_unhandled (3 arguments) and process_event: keys and value types' '
	same tp.data -s "$scripts/unhandled.py" &&
	test_grep "^raw_syscalls__sys_enter .*args=bytearray" actual &&
	test_grep "^cpu-clock " actual
'

test_expect_success 'full sample dicts: trace_unhandled with perf_sample_dict, process_event' '
	same tp.data -s "$scripts/sampledict.py" &&
	test_grep "datasrc_decode" actual
'

test_expect_success 'process_event with callchains and symbols (-g cpu-clock)' '
	same cg.data -s "$scripts/sampledict.py" &&
	test_grep "sym_off" actual
'

test_expect_success PERF,ROOT 'context_switch() for --switch-events records, per thread and cpu-wide' '
	"$PERF" record -q -o sw.data --switch-events -e cpu-clock -c 500000 \
		-- sh -c "sleep 0.01; ls >/dev/null" >/dev/null 2>&1 &&
	"$PERF" record -q -o swa.data -a --switch-events -e cpu-clock -c 5000000 \
		-- sleep 0.05 >/dev/null 2>&1 &&
	same sw.data -s "$scripts/switches.py" &&
	test_grep "^switches [1-9]" actual &&
	same swa.data -s "$scripts/switches.py" &&
	test_grep "^switches [1-9]" actual
'

test_expect_success PERF,ROOT 'read counters in the sample dict: group, single, --stat' '
	"$PERF" record -q -o rg.data -e "{cpu-clock,task-clock}:S" -c 500000 -- "$burn" 30 >/dev/null 2>&1 &&
	"$PERF" record -q -o r1.data -e "{cpu-clock}:S" -c 500000 -- "$burn" 30 >/dev/null 2>&1 &&
	"$PERF" record -q -o rs.data -e cpu-clock -s -c 500000 -- "$burn" 30 >/dev/null 2>&1 &&
	for f in rg r1 rs; do
		same $f.data -s "$scripts/readvalues.py" || return 1
	done &&
	test_grep "time_enabled" actual
'

test_expect_success 'lang: prefix and script filters (--comm, --time)' '
	same tp.data -s "python:$scripts/unhandled.py" &&
	same tp.data --comm ls -s "$scripts/unhandled.py" &&
	same cg.data --comm cpuburn -s "$scripts/unhandled.py"
'

test_expect_success 'script filters -S/--symbols and --dsos select the samples a script sees' '
	hot=$("$PERF" report -i cg.data --stdio --no-children -g none --sort sym 2>/dev/null | sed -n "s/^ *[0-9.]*% *\[\.\] //p" | head -1) &&
	test -n "$hot" &&
	same cg.data -S "$hot" -s "$scripts/unhandled.py" &&
	test_grep "$hot" actual &&
	same cg.data -S "$hot,main" -s "$scripts/unhandled.py" &&
	same cg.data --dsos cpuburn -s "$scripts/unhandled.py" &&
	same cg.data --dsos "[kernel.kallsyms]" -s "$scripts/unhandled.py"
'

test_expect_success '-g python writes the same skeleton as perf, and it runs the same' '
	mkdir -p p s &&
	(cd p && "$PERF" script -i ../tp.data -g python >/dev/null 2>../p.err) &&
	(cd s && ../perf script -i ../tp.data -g python >/dev/null 2>../s.err) &&
	test_cmp p/perf-script.py s/perf-script.py &&
	test_cmp p.err s.err &&
	same tp.data -s p/perf-script.py
'

test_expect_success 'an exception in a handler: the traceback, and a failing exit' '
	test_must_fail ./perf script -i cg.data -s "$scripts/raises.py" >out 2>err &&
	test_grep "ValueError: boom from the handler" err &&
	test_grep "Fatal Python error: handler_call_die" err
'

test_expect_success 'sys.exit() while loading and in trace_end: the status perf exits with' '
	printf "import sys\nsys.exit(3)\n" >exit3.py &&
	printf "import sys\ndef trace_end():\n    sys.exit(4)\n" >exit4.py &&
	printf "import sys\nsys.exit(\"a message\")\n" >exitmsg.py &&
	for s in exit3 exit4 exitmsg; do
		rc1=0 rc2=0
		"$PERF" script -i cg.data -s $s.py >expect 2>expect.err || rc1=$?
		./perf script -i cg.data -s $s.py >actual 2>actual.err || rc2=$?
		test "$rc1" = "$rc2" || { echo "$s: perf $rc1, sonde $rc2"; return 1; }
		test_cmp expect.err actual.err || return 1
	done
'

test_expect_success 'errors: missing script, unknown extension, unknown -g language' '
	test_exit_code 255 ./perf script -i tp.data -s nosuch.py 2>err &&
	test_grep "^Can.t open python script \"nosuch.py\": No such file or directory" err &&
	echo "print(1)" >x.foo &&
	test_exit_code 129 ./perf script -i tp.data -s x.foo 2>err &&
	test_grep "invalid script extension" err &&
	test_exit_code 254 ./perf script -i tp.data -g foo 2>err &&
	test_grep "invalid language specifier" err
'

test_expect_success 'Perl scripts and -g perl are refused with a clear message' '
	echo "print 1;" >x.pl &&
	test_exit_code 255 ./perf script -i tp.data -s x.pl >out 2>err &&
	test_grep "Perl scripting is not supported" err &&
	test_exit_code 255 ./perf script -i tp.data -s perl:x.pl 2>err &&
	test_exit_code 255 ./perf script -i tp.data -g perl 2>err &&
	test_grep "Perl scripting is not supported" err &&
	! test -s out
'

test_done
