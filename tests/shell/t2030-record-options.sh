#!/bin/bash
# SPDX-License-Identifier: MIT
# sonde record: options that perf 6.1 accepts here either work or fail as
# perf fails (texts, exit statuses); --synth, --control, --exclude-perf,
# --namespaces and --all-cgroups files read by perf.
. "$(dirname "$0")/lib.sh"

# same stderr (first line) and exit status as perf for one command line
same_failure() {
	local prc=0 src=0
	"$PERF" record -o p.data "$@" -- true 2>perf.err >/dev/null || prc=$?
	"$SONDE" record -o s.data "$@" -- true 2>sonde.err >/dev/null || src=$?
	echo "perf $prc sonde $src" &&
	test "$prc" = "$src" && test "$prc" != 0 &&
	head -1 perf.err >perf.first && head -1 sonde.err >sonde.first &&
	test_cmp perf.first sonde.first
}

test_expect_success PERF '-S / --aux-sample without an AUX event: perf error and status' '
	same_failure -S &&
	same_failure --aux-sample &&
	same_failure --threads -S
'

test_expect_success PERF '--vmlinux of a missing file: perf error and status' '
	same_failure --vmlinux=/nonexistent/vmlinux &&
	"$SONDE" record -q -o s.data --vmlinux=/etc/hostname -- true
'

test_expect_success PERF '--synth with a bad word: perf message, usage, exit 129' '
	same_failure --synth=bogus
'

test_expect_success PERF '--control fifo that does not exist: perf message, exit 129' '
	same_failure --control=fifo:/nonexistent/ctl
'

test_expect_success PERF '--exclude-perf without a tracepoint before it: perf message, exit 129' '
	same_failure --exclude-perf &&
	same_failure -e cpu-clock --exclude-perf
'

test_expect_success PERF '--kcore: perf refuses it when /proc/kcore cannot be read' '
	if test -r /proc/kcore; then
		test_exit_code 255 "$SONDE" record -o s.data --kcore -- true 2>err &&
		test_grep "not supported" err
	else
		same_failure --kcore
	fi
'

test_expect_success '--threads and --switch-output-event are refused, not ignored' '
	test_exit_code 255 "$SONDE" record -o s.data --threads -- true 2>err &&
	test_grep "not supported" err &&
	test_exit_code 255 "$SONDE" record -o s.data --switch-output-event=dummy -- true 2>err &&
	test_grep "not supported" err
'

test_expect_success PERF '--off-cpu and --debuginfod: perf warnings, recording goes on' '
	"$PERF" record -q -o p.data --off-cpu --debuginfod -- true 2>perf.err >/dev/null &&
	"$SONDE" record -q -o s.data --off-cpu --debuginfod -- true 2>sonde.err >/dev/null &&
	test_cmp perf.err sonde.err && test -s s.data
'

count_types() {
	"$PERF" report -D -i "$1" 2>/dev/null | grep -o "PERF_RECORD_$2\b" | wc -l
}

test_expect_success PERF '--synth=no|task|mmap: which task records are synthesized (-a)' '
	"$SONDE" record -q -a -o all.data -- true &&
	"$SONDE" record -q -a -o no.data --synth=no -- true &&
	"$SONDE" record -q -a -o task.data --synth=task -- true &&
	"$SONDE" record -q -a -o mmap.data --synth=mmap -- true &&
	all=$(count_types all.data FORK) && no=$(count_types no.data FORK) &&
	task=$(count_types task.data FORK) && echo "FORK: all $all no $no task $task" &&
	tm=$(count_types task.data MMAP2) && mm=$(count_types mmap.data MMAP2) &&
	echo "MMAP2: task $tm mmap $mm" &&
	test $all -gt 20 && test $((no * 2)) -lt $all && test $((task * 2)) -gt $all &&
	test $((tm * 2)) -lt $mm &&
	test $(count_types no.data MMAP) -ge 1 &&
	"$PERF" script -i no.data >/dev/null 2>err && ! test -s err
'

test_expect_success PERF '--namespaces: NAMESPACES records perf shows, as in perf files' '
	"$SONDE" record -q -o ns.data --namespaces -- true &&
	"$PERF" record -q -o pns.data --namespaces -- true &&
	"$PERF" report -D -i ns.data 2>/dev/null | grep -A2 "PERF_RECORD_NAMESPACES" |
		sed -n "2,3p" >sonde.ns &&
	"$PERF" report -D -i pns.data 2>/dev/null | grep -A2 "PERF_RECORD_NAMESPACES" |
		sed -n "2,3p" >perf.ns &&
	test -s sonde.ns && test_cmp perf.ns sonde.ns &&
	"$PERF" report -D -i ns.data 2>/dev/null | grep -E "^0 0x" | grep -v FINISHED_ROUND |
		sed -E "s/^0 0x[0-9a-f]+ \[0x[0-9a-f]+\]: //; s/[0-9]+\/[0-9]+/P/g" | cut -c1-22 >sonde.order &&
	"$PERF" report -D -i pns.data 2>/dev/null | grep -E "^0 0x" | grep -v FINISHED_ROUND |
		sed -E "s/^0 0x[0-9a-f]+ \[0x[0-9a-f]+\]: //; s/[0-9]+\/[0-9]+/P/g" | cut -c1-22 >perf.order &&
	test_cmp perf.order sonde.order &&
	"$PERF" script --show-namespace-events -i ns.data 2>err >out && ! test -s err &&
	test_grep "PERF_RECORD_NAMESPACES" out
'

test_expect_success PERF '--all-cgroups: CGROUP records and cgroup samples, as perf' '
	"$SONDE" record -q -a -o cg.data --all-cgroups -- sleep 0.05 &&
	"$PERF" record -q -a -o pcg.data --all-cgroups -- sleep 0.05 &&
	"$PERF" report -D -i cg.data 2>/dev/null | grep "PERF_RECORD_CGROUP" | sed "s/^.*PERF_RECORD/PERF_RECORD/" >sonde.cg &&
	"$PERF" report -D -i pcg.data 2>/dev/null | grep "PERF_RECORD_CGROUP" | sed "s/^.*PERF_RECORD/PERF_RECORD/" >perf.cg &&
	test -s sonde.cg && test_cmp perf.cg sonde.cg &&
	"$PERF" report --stdio -s cgroup -i cg.data 2>err | grep -v "^#" | grep -v "^$" >out &&
	! test -s err && ! grep -q "N/A" out && test -s out
'

test_expect_success PERF '--control fifo: enable, disable, ping, stop with acks, as perf' '
	rm -f ctl ack; mkfifo ctl ack
	{ st=0; "$SONDE" record -o c.data --control=fifo:ctl,ack -D -1 -- sleep 20 \
		>/dev/null 2>err </dev/null || st=$?; echo $st >rc; } &
	bg=$! &&
	test -p ctl && test -p ack &&
	exec 8<>ack &&
	echo enable >ctl && read -t 5 a1 <&8 &&
	echo ping >ctl && read -t 5 a2 <&8 &&
	echo disable >ctl && read -t 5 a3 <&8 &&
	echo stop >ctl && read -t 5 a4 <&8 &&
	wait $bg && exec 8<&- &&
	test "$a1$a2$a3$a4" = ackackackack &&
	test "$(cat rc)" = 143 &&
	sed -n 1,3p err >got &&
	printf "Events disabled\nEvents enabled\nEvents disabled\n" >want &&
	test_cmp want got &&
	"$PERF" report --header-only -i c.data >/dev/null 2>err && ! test -s err
'

if test -d /sys/kernel/tracing/events/syscalls; then
	test_expect_success PERF,TRACEFS '--exclude-perf after a tracepoint: the filter drops our own pid' '
		# sonde runs in the background so that $! is its pid; without the
		# filter its own writes are seen (so the check below can fail)
		"$SONDE" record -q -o in.data -e syscalls:sys_enter_write -a -- sleep 0.05 &
		sp=$!
		wait $sp
		"$PERF" script -i in.data -F pid | tr -d " " >pids.in
		grep -qx "$sp" pids.in || { echo "no write of sonde ($sp) without the filter"; exit 1; }
		# the workload writes, so an idle machine still gives the file some
		# writes that are not sonde'"'"'s own
		"$SONDE" record -q -o ex.data -e syscalls:sys_enter_write --exclude-perf -a -- \
			dd if=/dev/zero of=/dev/null bs=1 count=200 status=none &
		sp=$!
		wait $sp
		"$PERF" script -i ex.data -F pid | tr -d " " >pids.ex
		test -s pids.ex || { echo "no writes recorded at all with --exclude-perf"; exit 1; }
		# -a events are on before the workload starts: all 200 of its writes
		n=$("$PERF" script -i ex.data -F comm | grep -c "^ *dd *$") &&
		test "$n" -ge 200 || { echo "$n writes of dd, 200 expected"; exit 1; }
		! grep -x "$sp" pids.ex
	'
else
	test_skip '--exclude-perf after a tracepoint: the filter drops our own pid' 'kernel has no syscalls tracepoints'
fi

test_expect_success PERF '-D A-B,C-D: events enabled in those ranges, perf messages' '
	"$SONDE" record -o r.data -D 10-20,30-40 -- sleep 0.1 2>err >/dev/null &&
	sed -n 1,5p err >got &&
	printf "Events disabled\nEvents enabled\nEvents disabled\nEvents enabled\nEvents disabled\n" >want &&
	test_cmp want got &&
	"$SONDE" record -q -o r.data -D 30-60 -- "$SONDE_WORKLOADS/cpuburn" 150 &&
	n=$("$PERF" report --stdio -i r.data 2>/dev/null | sed -n "s/^# Samples: \([0-9]*\).*/\1/p") &&
	test "$n" -gt 20 && test "$n" -lt 300
'

test_expect_success PERF '-D with bad ranges: perf usage, exit 129' '
	same_failure -D 20-10 &&
	same_failure -D 10-20,15-30 &&
	same_failure -D 10-20, &&
	same_failure -D abc
'

if command -v cc >/dev/null; then
test_expect_success PERF 'the build-id cache gets the hit DSOs (not with -N); report of a rebuilt binary goes through it' '
	printf "%s\n" "volatile unsigned long x;" \
		"__attribute__((noinline)) void burn_first(void) { for (unsigned long i = 0; i < 300000000UL; i++) x += i; }" \
		"int main(void) { burn_first(); return 0; }" >prog.c &&
	cc -O1 -g -o prog prog.c &&
	HOME=$PWD/nocache "$SONDE" record -N -q -o n.data -- ./prog &&
	! test -e nocache/.debug &&
	HOME=$PWD/home "$SONDE" record -q -o b.data -- ./prog &&
	bid=$("$PERF" buildid-list -i b.data 2>/dev/null | grep "/prog$" | cut -d" " -f1) &&
	test -n "$bid" &&
	test -f "home/.debug/$PWD/prog/$bid/elf" &&
	test -L "home/.debug/.build-id/$(echo $bid | cut -c1-2)/$(echo $bid | cut -c3-)" &&
	# the kernel is cached only when it got a sample, which a short user-space loop may not give
	{ ! "$PERF" buildid-list -i b.data 2>/dev/null | grep -q "kernel.kallsyms" ||
	  test -n "$(find home/.debug -path "*kernel.kallsyms*" -name kallsyms)"; } &&
	sed -i s/burn_first/burn_second/ prog.c && rm -f prog && cc -O1 -g -o prog prog.c &&
	HOME=$PWD/home "$PERF" report --stdio -s sym -i b.data 2>err >out &&
	test_grep "burn_first" out && ! grep -q burn_second out
'
else
	test_skip 'the build-id cache gets the hit DSOs (not with -N); report of a rebuilt binary goes through it' 'no C compiler (cc)'
fi

test_done
