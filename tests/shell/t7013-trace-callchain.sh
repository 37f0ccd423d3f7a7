#!/bin/bash
# SPDX-License-Identifier: MIT
# sonde trace --call-graph fp|dwarf, --max-stack, --min-stack and
# --kernel-syscall-graph: the sys_exit sample's callchain under each syscall
# line, compared with perf trace on sysmix (timings, pids and addresses in
# the syscall lines masked, frames exact); trace record -g then trace -i.
. "$(dirname "$0")/lib.sh"

W=$SONDE_WORKLOADS/sysmix

# norm FILE - the syscall lines masked: time, duration, fd paths (read from
# /proc at print time: racy), addresses, numbers of three digits or more,
# the padding before " = ". Frame lines (39 spaces) are kept as printed; the
# kernel frames of the tracing path (__traceiter_*: there when another
# tracer shares the tracepoint) dropped.
norm() {
	sed -E -e '/^                                       __traceiter_/d' \
		-e '/^                                       /!{s/^ *[0-9.?]+ \( *[0-9.]* *(ms)?\)://; s/<[^>]*>//g; s/0x[0-9a-f]+/X/g; s/[0-9]{3,}/N/g; s/ +(=|\.\.\.)/ \1/}' "$1"
}

# both NAME OPTS... - sonde and perf trace with OPTS on sysmix, normalized
# and compared. --no-inherit: sysmix's child is left out, as perf at times
# meets its samples before its FORK record (":pid" comm, no maps)
both() {
	local name=$1
	shift
	"$SONDE" trace --no-inherit "$@" -o "$name.sonde" -- "$W" </dev/null >/dev/null 2>&1 &&
	"$PERF" trace --no-inherit "$@" -o "$name.perf" -- "$W" </dev/null >/dev/null 2>&1 &&
	norm "$name.sonde" >"$name.s" && norm "$name.perf" >"$name.p" &&
	test_cmp "$name.p" "$name.s"
}

test_expect_success ROOT,TRACEFS,PERF '--call-graph fp: the same frames as perf trace' '
	both fp --call-graph fp &&
	test_grep "^                                       syscall \(/.*libc.so.6\)$" fp.s &&
	test_grep "^                                       __libc_start_call_main \(/.*libc.so.6\)$" fp.s &&
	test_grep "^                                       \[0\] \(\[unknown\]\)$" fp.s &&
	! grep -q "kernel.kallsyms" fp.s &&
	both fpeq --call-graph=fp -e getppid,kill
'

test_expect_success ROOT,TRACEFS,PERF '--max-stack, fp,N and --min-stack as perf trace' '
	both max2 --call-graph fp --max-stack 2 &&
	both fp1 --call-graph fp,1 &&
	both max0 --call-graph fp --max-stack 0 -e getppid,kill,exit_group &&
	test_grep "getppid\(\)" max0.s && ! grep -q "^        " max0.s &&
	both min3 --call-graph fp --min-stack 3 &&
	# exit_group has no sys_exit, so no chain: --min-stack hides it
	! grep -q exit_group min3.s && test_grep "exit_group" fp.s
'

test_expect_success ROOT,TRACEFS,PERF '--kernel-syscall-graph: the kernel frames of the exit path first' '
	both kgraph --call-graph fp --kernel-syscall-graph -e getppid,kill,dup &&
	test_grep "^                                       entry_SYSCALL_64[a-z_]* \(\[kernel.kallsyms\]\)$" kgraph.s &&
	grep -A1 "entry_SYSCALL_64" kgraph.s >after &&
	test_grep "^                                       syscall \(/" after &&
	# another event'"'"'s line: its whole chain, kernel frames first
	both evchain --call-graph fp -e getppid,sched:sched_process_exit &&
	grep -A1 "sched:sched_process_exit(" evchain.s >after &&
	test_grep "^                                       [a-z_]+ \(\[kernel.kallsyms\]\)$" after &&
	# without --call-graph there is no chain to show
	both knone --kernel-syscall-graph -e getppid,kill && ! grep -q "^        " knone.s
'

test_expect_success ROOT,TRACEFS,PERF '--call-graph dwarf, and --max-stack alone (dwarf): as perf trace' '
	# every frame, ld.so'"'"'s and libc'"'"'s inlined ones included. perf names
	# them through addr2line and falls back to the ELF symbol when that is
	# slow (a cold cache: "__libc_start_main@@GLIBC_2.34"): perf runs again once
	both dwarf --call-graph dwarf || {
		"$PERF" trace --no-inherit --call-graph dwarf -o dwarf.perf -- "$W" </dev/null >/dev/null 2>&1 &&
		norm dwarf.perf >dwarf.p && test_cmp dwarf.p dwarf.s
	} &&
	test_grep "^                                       main \(/.*/sysmix\)$" dwarf.s &&
	test_grep "^                                       __GI___open64_nocancel \(/.*ld-linux-x86-64.so.2\)$" dwarf.s &&
	test_grep "^                                       [_a-z0-9]+ \(inlined\)$" dwarf.s &&
	both dwarf3 --max-stack 3 -e getppid,kill,dup &&
	test_grep "^                                       main \(/.*/sysmix\)$" dwarf3.s &&
	both dwarfmin --min-stack 5 --max-stack 3 -e getppid,kill &&
	! grep -q getppid dwarfmin.s && test_grep getppid dwarf3.s
'

test_expect_success ROOT,TRACEFS '--pf with --call-graph: each fault line with its chain' '
	"$SONDE" trace --call-graph fp -F min --no-syscalls -o out -- "$W" </dev/null >/dev/null 2>&1 &&
	grep -A1 "minfault \[" out >pairs &&
	# a kernel fault keeps its kernel frames (only sys_exit leaves them out)
	test_grep "^                                       [a-z_]+[a-z_0-9.]* \(\[kernel.kallsyms\]\)$" pairs &&
	test_grep "^                                       [_a-z0-9]+ \(/.*ld-linux-x86-64.so.2\)$" pairs
'

test_expect_success ROOT,TRACEFS,PERF 'trace record -g / --call-graph dwarf, then trace -i: as perf' '
	"$SONDE" trace record -g -o g.data -- "$W" </dev/null >/dev/null 2>&1 &&
	"$PERF" trace record -g -o pg.data -- "$W" </dev/null >/dev/null 2>&1 &&
	"$PERF" evlist -v -i g.data >s.attr && "$PERF" evlist -v -i pg.data >p.attr &&
	test_cmp p.attr s.attr &&
	"$SONDE" trace -i g.data >s.out 2>&1 && "$PERF" trace -i g.data >p.out 2>&1 &&
	test_cmp p.out s.out && test_grep "^                                       __libc_start_call_main " s.out &&
	"$PERF" trace record --call-graph dwarf -o d.data -- "$W" </dev/null >/dev/null 2>&1 &&
	"$SONDE" trace -i d.data >s.out 2>&1 && "$PERF" trace -i d.data >p.out 2>&1 &&
	test_cmp p.out s.out &&
	# the unwound frames of that file, named as perf script names them
	# (the DWARF linkage name of a C alias: __GI___fstatat64 (inlined))
	"$SONDE" script -F ip,sym,dso -i d.data >s.out 2>/dev/null &&
	"$PERF" script -F ip,sym,dso -i d.data >p.out 2>/dev/null &&
	test_grep "__GI___[a-z0-9_]+ \(inlined\)$" p.out && test_cmp p.out s.out
'

test_expect_success ROOT,TRACEFS,PERF 'bad --call-graph, --max-stack, --min-stack values: perf messages' '
	for o in --call-graph=foo --call-graph=dwarf,9999999 --max-stack=x --min-stack=-1; do
		test_exit_code 129 "$SONDE" trace $o -- true 2>s.err &&
		test_exit_code 129 "$PERF" trace $o -- true 2>p.err &&
		head -n 1 s.err >s && head -n 1 p.err >p && test_cmp p s || exit 1
	done
'

test_done
