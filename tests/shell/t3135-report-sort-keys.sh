#!/bin/bash
# SPDX-License-Identifier: MIT
# report --sort/-F keys of perf 6.1 (time, sizes, cgroup, weights, output fields): against perf.
. "$(dirname "$0")/lib.sh"

# same FILE OPTS...: report_same (lib.sh); every comparison here is exact:
# no row order is loosened
same() { report_same "$@"; }

W=$SONDE_WORKLOADS
# the recordings of the workloads and system programs: once per check run (lib.sh)
PD=$(perf_data_dir)

# nog: no callchains; all: callchains with the sample bits the keys read
# (cgroup ids and CGROUP records, NAMESPACES, the weight struct, code page
# sizes, transaction); kg: a workload that runs mostly in the kernel
test_expect_success PERF,ROOT 'record files with the sample bits of the keys' '
	perf_rec_once $PD/nog.data "$PERF" record -q -o $PD/nog.data -F 999 "$W/rptmix" 100 >/dev/null 2>&1 &&
	perf_rec_once $PD/all.data "$PERF" record -q -g --all-cgroups --namespaces -W --code-page-size --transaction \
		-o $PD/all.data -F 999 "$W/rptmix" 100 >/dev/null 2>&1 &&
	perf_rec_once $PD/kg.data "$PERF" record -q -g -o $PD/kg.data -F 999 -- \
		dd if=/dev/zero of=/dev/null bs=64k count=20000 >/dev/null 2>&1 &&
	test -s $PD/nog.data && test -s $PD/all.data && test -s $PD/kg.data
'

# KNOWN DIFFERENCE (docs/cmd/report.md): a graph that branches below level 32
# (a garbage frame-pointer chain of 100+ frames, which rptmix's recordings
# hold now and then) can show its bars differently from perf's, whose open
# columns alias 32 levels apart. The graphs of all.data are compared to 32
# levels; the deep test at the end compares a 127-frame recursion whole.
# every key alone and after comm, on a file without the sample bits (perf's
# N/A, 0 and empty values) and on one with them, with and without children
test_expect_success PERF,ROOT 'each key alone and with comm' '
	for k in time period sample overhead symbol_size dso_size cgroup cgroup_id weight \
		 local_weight transaction trace code_page_size ins_lat p_stage_cyc; do
		same $PD/nog.data --sort $k &&
		same $PD/all.data --sort $k -g none &&
		same $PD/all.data --sort comm,$k --no-children &&
		same $PD/all.data --sort $k,sym --max-stack 32 || return 1
	done
'

# time: cut to --time-quantum (100ms by default), printed as s.us; with
# children every frame of a chain adds the sample (perf counts no frame
# once), as for cgroup, cgroup_id and code_page_size when the sample has them
test_expect_success PERF,ROOT 'time and --time-quantum' '
	same $PD/all.data --sort time,comm --max-stack 32 &&
	same $PD/all.data --sort comm,time -g folded &&
	same $PD/all.data --sort sym,time -g none &&
	same $PD/nog.data --sort time --time-quantum 10ms &&
	same $PD/nog.data --sort time,comm --time-quantum 1s &&
	same $PD/nog.data --sort time --time-quantum 500us &&
	same $PD/nog.data --sort time --time-quantum 1000 &&
	same $PD/all.data --sort time,comm -t , --max-stack 32 &&
	same $PD/all.data -F overhead,overhead_children,time,sym -g none
'

test_expect_success PERF,ROOT '--time-quantum errors: perf messages, exit 129' '
	for q in 0 2.5ms 1x; do
		rc_p=0 rc_s=0
		"$PERF" report --stdio -i $PD/nog.data --sort time --time-quantum $q \
			>/dev/null 2>perf.err || rc_p=$?
		"$SONDE" report --stdio -i $PD/nog.data --sort time --time-quantum $q \
			>/dev/null 2>sonde.err || rc_s=$?
		[ $rc_p = 129 ] && [ $rc_s = 129 ] &&
		head -1 perf.err >perf.first && head -1 sonde.err >sonde.first &&
		test_cmp perf.first sonde.first || { echo "failed: --time-quantum $q"; return 1; }
	done
'

# symbol_size keeps one row per symbol ("unknown" when unresolved) and,
# like dso_size (the map size), never widens its column; a --sort list
# naming "symbol" gets perf's IPC column
test_expect_success PERF,ROOT 'symbol_size, dso_size and the IPC column' '
	for f in all.data kg.data; do
		same $PD/$f --sort symbol_size,dso &&
		same $PD/$f --sort dso,symbol_size --no-children &&
		same $PD/$f --sort dso_size,sym &&
		same $PD/$f --sort dso,dso_size -g caller &&
		same $PD/$f --sort symbol &&
		same $PD/$f --sort dso,symbol --no-children &&
		same $PD/$f -F overhead,sym --sort symbol &&
		same $PD/$f -F symbol_size,dso_size,sym || return 1
	done
'

# unresolved symbols (a stripped binary; HOME, so the build-id cache, is the test's own): with
# -F and --sort symbol perf orders them by the printed address (self rows'
# map offsets, then the children-only rows' raw addresses); elsewhere they
# tie on the key and overhead orders them
test_expect_success PERF,ROOT 'unresolved symbols of a stripped binary' '
	mkdir -p $TRASH/strip $TRASH/h1 &&
	strip -o $TRASH/strip/burn "$W/cpuburn" &&
	HOME=$TRASH/h1 "$PERF" record -q -g -e cpu-clock:u -F 999 \
		-o $TRASH/st.data $TRASH/strip/burn 300 >/dev/null 2>&1 &&
	for o in "-F overhead,sym --sort symbol" "-F sym,overhead --sort symbol" \
		 "-F overhead,sym --sort dso,symbol" "-F overhead,sym --sort symbol --no-children" \
		 "--sort symbol" "--sort dso,symbol --no-children" "--sort sym,dso -g none"; do
		HOME=$TRASH/h1 same $TRASH/st.data $o || return 1
	done &&
	grep -q "\[\.\] 0x0000" sonde.out
'

# the same binary, stripped after an unstripped copy (same build-id) went
# into the cache: perf takes the cached copy's .symtab
test_expect_success PERF,ROOT 'a stripped binary resolved from the build-id cache' '
	mkdir -p $TRASH/full $TRASH/h2 &&
	cp "$W/cpuburn" $TRASH/full/burn &&
	HOME=$TRASH/h2 "$PERF" record -q -e cpu-clock:u \
		-o $TRASH/full.data $TRASH/full/burn 50 >/dev/null 2>&1 &&
	HOME=$TRASH/h2 "$PERF" record -q -g -e cpu-clock:u -F 999 \
		-o $TRASH/st2.data $TRASH/strip/burn 200 >/dev/null 2>&1 &&
	HOME=$TRASH/h2 same $TRASH/st2.data --sort sym -g none &&
	grep -q "\[\.\] leaf" sonde.out &&
	HOME=$TRASH/h2 same $TRASH/st2.data -F overhead,sym --sort symbol
'

test_expect_success PERF,ROOT 'cgroup, cgroup_id, weights, code page size' '
	same $PD/all.data --sort cgroup,cgroup_id,comm -n --max-stack 32 &&
	same $PD/all.data --sort cgroup,sym -g none &&
	same $PD/all.data --sort code_page_size,sym -g none &&
	same $PD/all.data --sort sym,cgroup_id --no-children &&
	same $PD/all.data -F overhead,weight,local_weight,ins_lat,transaction,code_page_size,comm &&
	same $PD/all.data -F overhead,p_stage_cyc
'

# output fields in --sort: the list orders the rows (overhead first unless it
# names an overhead field), each shown once
test_expect_success PERF,ROOT 'overhead, period, sample as sort keys' '
	for ch in --children --no-children; do
		for o in "--sort comm,period" "--sort period,comm" "--sort sample,comm -n" \
			 "--sort comm,overhead" "--sort overhead,comm" "--sort period,sample,overhead" \
			 "--sort overhead_children,comm" "--sort comm,sample -q" \
			 "--sort period,sym --percent-limit 5" "--sort sample,comm -n --show-total-period" \
			 "--sort comm,period -p hot"; do
			same $PD/all.data $ch $o || return 1
		done
	done
'

test_expect_success PERF,ROOT 'overhead_sys, overhead_us (and guest) fields' '
	for f in all.data kg.data; do
		same $TRASH/$f --sort comm,overhead_sys,overhead_us &&
		same $TRASH/$f -F overhead_sys,overhead_us,comm &&
		same $TRASH/$f -F overhead_sys,overhead_us,sym -t ";" &&
		same $TRASH/$f -F overhead,overhead_sys,overhead_us,overhead_guest_sys,overhead_guest_us,dso &&
		same $TRASH/$f --sort comm,overhead_guest_sys,overhead_guest_us --no-children &&
		same $TRASH/$f --sort overhead_us,sym || return 1
	done &&
	# the group view: one value per member, as for overhead
	same "$FIXTURES/group.data" -F overhead_sys,overhead_us,comm &&
	same "$FIXTURES/group.data" -F overhead,overhead_us,comm &&
	same "$FIXTURES/group.data" --sort comm,overhead_sys,period &&
	same "$FIXTURES/multi-event.data" -F overhead_sys,overhead_us,comm
'

# trace_fields: a column per tracepoint field. Values are read from the
# payload text ("name=value" words; a field no word names shows its raw
# value, one whose word is "name:" is empty), /raw prints them raw; rows
# tie-break on the fields' bytes; a __data_loc column is as wide as the
# values perf compared while inserting (see docs/cmd/report.md)
test_expect_success PERF,ROOT 'trace_fields: tracepoint files' '
	perf_rec_once $PD/sw.data "$PERF" record -q -a -e sched:sched_switch -e sched:sched_wakeup \
		-o $PD/sw.data -- sleep 0.2 >/dev/null 2>&1 &&
	perf_rec_once $PD/oa.data "$PERF" record -q -a -e syscalls:sys_enter_openat -o $PD/oa.data -- sleep 0.2 >/dev/null 2>&1 &&
	perf_rec_once $PD/tpm.data "$PERF" record -q -e timer:hrtimer_start -e kmem:kmalloc -e sched:sched_stat_runtime \
		-e raw_syscalls:sys_enter -o $PD/tpm.data "$W/rptmix" 50 >/dev/null 2>&1 &&
	perf_rec_once $PD/ex.data "$PERF" record -q -e cpu-clock -e sched:sched_process_exec -o $PD/ex.data -- \
		sh -c "/bin/true; /usr/bin/env true; /bin/ls >/dev/null; exec /usr/bin/true" \
		>/dev/null 2>&1 &&
	perf_rec_once $PD/ex1.data "$PERF" record -q -e sched:sched_process_exec -o $PD/ex1.data /bin/true >/dev/null 2>&1 &&
	for f in sw oa tpm ex ex1; do
		for o in "-s trace_fields" "-s trace_fields/raw" "-s comm,trace_fields" \
			 "-s trace_fields,comm" "-s pid,trace_fields/raw" "-n -s trace_fields" \
			 "-s trace_fields -t ,"; do
			same $TRASH/$f.data $o || return 1
		done
	done &&
	same $PD/sw.data -s cpu,trace_fields --percent-limit 1
'

# chains of 127 frames (a recursion deeper than perf_event_max_stack), with the
# keys that count every frame: perf keeps its graph's open columns in a 32-bit
# mask, so levels 32 apart share a column's bar; the graphs are compared whole.
# (Fractal graphs that deep are not compared: see docs/cmd/report.md.)
test_expect_success PERF,ROOT 'graphs deeper than 32 levels, as perf draws them' '
	cat >deep.c <<-\EOF &&
	#include <stdlib.h>
	static volatile unsigned long sink;
	__attribute__((noinline)) void rec(int n)
	{
		if (n) {
			rec(n - 1);
			sink++;
		} else {
			for (long i = 0; i < 100000000; i++)
				sink += i;
		}
	}
	int main(void) { rec(200); return 0; }
	EOF
	cc -O1 -g -fno-omit-frame-pointer -fno-optimize-sibling-calls -o deep deep.c &&
	"$PERF" record -q -g -o $TRASH/deep.data ./deep >/dev/null 2>&1 &&
	for o in "" "--sort time,sym" "--sort time,comm" "--sort cgroup,cgroup_id,comm -n" \
		 "-g graph,0.5,callee --sort time,sym"; do
		same $TRASH/deep.data $o || return 1
	done
'

test_done
