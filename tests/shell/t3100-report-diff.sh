#!/bin/bash
# SPDX-License-Identifier: MIT
# report --stdio against perf report --stdio on files recorded by perf:
# same rows, same percentages, same callchain graphs.
. "$(dirname "$0")/lib.sh"

# norm: drop the random tip perf prints at the end
norm() {
	grep -v '^# (Tip:' "$1"
}

# The recordings of perf whose programs stay where they are (the workloads, system
# programs, the kernel) go to $PD: with SONDE_PERF_CACHE (tests/run.sh) a directory of
# the check run, where the first pass records them and the second reads them again, its
# perf report texts replayed (perf_cached); without it, $TRASH.
PD=$TRASH
if [ -n "$SONDE_PERF_CACHE" ] && [ -d "$SONDE_PERF_CACHE" ]; then
	PD=$SONDE_PERF_CACHE/t3100-data
	mkdir -p "$PD"
fi
HOME0=$HOME

# perf_rec FILE OPTS...: perf record -q -o $PD/FILE OPTS, unless this check run has it
perf_rec() {
	local f=$PD/$1
	shift
	[ -e "$f.ok" ] && return 0
	"$PERF" record -q -o "$f" "$@" >/dev/null 2>&1 && touch "$f.ok"
}

# perf_report FILE OPTS...: perf report --stdio -i FILE OPTS, replayed in the second
# pass for the run's recordings and the fixtures (read with the same HOME)
perf_report() {
	case $1 in
	"$PD"/*|"$FIXTURES"/*)
		if [ "$PD" != "$TRASH" ] && [ "$HOME" = "$HOME0" ]; then
			perf_cached report "$PERF" report --stdio -i "$@"
			return
		fi ;;
	esac
	"$PERF" report --stdio -i "$@"
}

# same FILE OPTS...: sonde and perf print the same report
same() {
	local f=$1
	shift
	perf_report "$f" "$@" >perf.out 2>/dev/null
	"$SONDE" report --stdio -i "$f" "$@" >sonde.out 2>sonde.err || { cat sonde.err; return 1; }
	norm perf.out >perf.norm
	norm sonde.out >sonde.norm
	test_cmp perf.norm sonde.norm
}

# same_zeroed FILE OPTS...: same, perf run with its heap allocations zeroed.
# perf 6.1 marks some fractal "[...]" lines " (inlined)" from uninitialised
# memory (docs/cmd/report.md); zeroed, it prints the defined output.
cat >$PD/perf-zeroed <<EOF
#!/bin/sh
GLIBC_TUNABLES=glibc.malloc.tcache_count=0 MALLOC_PERTURB_=255 exec "$PERF" "\$@"
EOF
chmod +x $PD/perf-zeroed
same_zeroed() {
	PERF=$PD/perf-zeroed same "$@"
}

# Entries perf's output comparator sees as equal (the same first column:
# Children, or Overhead without children) come in the order of its tree
# insertions; with --comm that order is not reproduced yet (docs/cmd/report.md,
# "Differences"). ties.awk sorts each run of consecutive entries whose
# first-column values print the same, every entry with its callchain as one
# block; everything else (the other columns, the rows' text, each callchain's
# tree) stays compared exactly. Used only on files recorded with a fixed
# period (-c) and fewer than 10000 samples, where equal printed percentages
# are equal periods: true ties.
cat >"$TRASH/ties.awk" <<-\EOF
	function flush(   i, j, t) {
		for (i = 2; i <= nb; i++)
			for (j = i; j > 1 && blk[j - 1] > blk[j]; j--) {
				t = blk[j]; blk[j] = blk[j - 1]; blk[j - 1] = t
			}
		for (i = 1; i <= nb; i++)
			printf "%s", blk[i]
		nb = 0
		key = ""
	}
	# the report's last entry keeps the blank line that closes its callchain
	# (the blank lines after it end the report), wherever sorting moves it
	function settle() {
		if (nb && blanks != "" && blk[nb] ~ /\n./) {
			blk[nb] = blk[nb] "\n"
			blanks = substr(blanks, 2)
		}
	}
	# blank lines go with the entry above unless the report ends there
	/^$/ { blanks = blanks "\n"; next }
	/^  (   |  | )?[0-9]+\.[0-9]+%/ {
		if (nb)
			blk[nb] = blk[nb] blanks
		else
			printf "%s", blanks
		blanks = ""
		split($0, f, " ")
		if (f[1] != key)
			flush()
		key = f[1]
		blk[++nb] = $0 "\n"
		next
	}
	/^#/ { settle(); flush(); printf "%s", blanks; blanks = ""; print; next }
	{
		if (nb)
			blk[nb] = blk[nb] blanks $0 "\n"
		else
			printf "%s%s\n", blanks, $0
		blanks = ""
	}
	END { settle(); flush(); printf "%s", blanks }
EOF

# same_ties FILE OPTS...: the same report up to the order of tied entries (above)
same_ties() {
	local f=$1
	shift
	perf_report "$f" "$@" >perf.out 2>/dev/null
	"$SONDE" report --stdio -i "$f" "$@" >sonde.out 2>sonde.err || { cat sonde.err; return 1; }
	norm perf.out | awk -f "$TRASH/ties.awk" >perf.norm
	norm sonde.out | awk -f "$TRASH/ties.awk" >sonde.norm
	test_cmp perf.norm sonde.norm
}

W=$SONDE_WORKLOADS

test_expect_success PERF,ROOT 'record the corpus with perf' '
	perf_rec nog.data -F 999 "$W/cpuburn" 200 &&
	perf_rec g.data -g -F 999 "$W/cpuburn" 200 &&
	perf_rec mix.data -g -F 1999 "$W/rptmix" 200 &&
	perf_rec multi.data -e cpu-clock -e task-clock "$W/rptmix" 100 &&
	perf_rec mixc.data -g -c 200000 "$W/rptmix" 200 &&
	test -s $PD/mix.data
'

test_expect_success PERF,ROOT 'no callchains: default report' '
	same $PD/nog.data
'

test_expect_success PERF,ROOT 'no callchains: -n, --sort variants' '
	same $PD/nog.data -n &&
	same $PD/nog.data --sort comm,dso &&
	same $PD/nog.data --sort dso,sym &&
	same $PD/nog.data --sort sym
'

test_expect_success PERF,ROOT 'callchains: children (default) on a single process' '
	same $PD/g.data
'

test_expect_success PERF,ROOT 'callchains: --no-children graph' '
	same $PD/g.data --no-children &&
	same $PD/mix.data --no-children
'

test_expect_success PERF,ROOT 'several processes and threads: --no-children variants' '
	same $PD/mix.data --no-children -n &&
	same $PD/mix.data --no-children --sort comm,dso &&
	same $PD/mix.data --no-children --sort dso,sym &&
	same $PD/mix.data --no-children --sort sym,comm &&
	same_zeroed $PD/mix.data --no-children -g fractal &&
	same $PD/mix.data --no-children -G
'

test_expect_success PERF,ROOT 'several processes and threads: children' '
	same $PD/mix.data
'

# dash has no frame pointers: garbage callchain frames (stack words, kernel
# context markers in the middle), unresolved addresses under resolved ones,
# forked subshells; perf's callchain tree keeps some equal siblings twice
test_expect_success PERF,ROOT 'garbage callchains of forked shells: children' '
	perf_rec sh.data -g -F 2999 -- sh -c \
		"for i in 1 2 3; do (i=0; while [ \$i -lt 30000 ]; do i=\$((i+1)); done) & done; wait" &&
	same $PD/sh.data &&
	same $PD/sh.data -g callee &&
	same $PD/sh.data -g graph,0
'

test_expect_success PERF,ROOT 'filters and limits' '
	same $PD/mix.data --no-children --comm rptmix &&
	same_ties $PD/mixc.data --comm rptmix &&
	same $PD/mix.data --no-children --percent-limit 5 &&
	same $PD/mix.data --no-children -q &&
	same $PD/mix.data --no-children -g none &&
	same $PD/mix.data --dsos rptmix &&
	same $PD/mix.data --dsos rptmix,libc.so.6 &&
	same $PD/mix.data --symbols hot &&
	same $PD/mix.data --no-children --comm rptmix --percentage relative &&
	same_ties $PD/mixc.data --comm rptmix --percentage relative &&
	same $PD/mix.data --no-children --symbols hot --percentage relative &&
	same $PD/mix.data -T &&
	# the tie order differs only where one --comm value elides a comm key
	# (docs/cmd/report.md): the same filter in other forms compares exactly
	same $PD/mixc.data --comm rptmix,no-such-comm &&
	same $PD/mixc.data --comm rptmix -s dso,sym &&
	same $PD/mixc.data --comm rptmix -g none &&
	same $PD/mix.data --dsos rptmix -s comm &&
	same $PD/mix.data --symbols hot -s comm,dso
'

test_expect_success PERF,ROOT '-T: per-thread counts from READ records (record -s)' '
	perf_rec rs.data -s -e cpu-clock -e task-clock "$W/rptmix" 100 &&
	same $PD/rs.data -T --no-children &&
	same $PD/rs.data -T --group --sort comm &&
	same $PD/rs.data -T --pretty raw --sort comm &&
	perf_rec rsg.data -s -g "$W/rptmix" 100 &&
	same $PD/rsg.data -T --no-children --sort comm,dso
'

test_expect_success PERF,ROOT 'several events: one section each' '
	same $PD/multi.data &&
	same $PD/multi.data -n --sort comm
'

test_expect_success PERF 'fixtures recorded by perf 6.1' '
	for f in callgraph compressed multi-event pipe pipe-tracepoint system-wide tracepoints; do
		same $FIXTURES/$f.data || return 1
		same $FIXTURES/$f.data --no-children -n || return 1
		same $FIXTURES/$f.data --sort comm,dso || return 1
	done
'

test_expect_success PERF,ROOT 'event groups: group view, --group, --no-group, sample read' '
	same $FIXTURES/group.data &&
	same $FIXTURES/group.data --no-group -n &&
	same $PD/multi.data --group &&
	same $PD/multi.data --no-group &&
	perf_rec grp.data -g -e "{cpu-clock,task-clock}" "$W/rptmix" 100 &&
	same $PD/grp.data &&
	same $PD/grp.data --no-children -n &&
	perf_rec grps.data -e "{cpu-clock,task-clock}:S" "$W/cpuburn" 100 &&
	same $PD/grps.data &&
	same $PD/grps.data --no-group --no-children
'

test_expect_success PERF,ROOT 'callchain presentations: flat, folded, fractal, caller, callee, limits' '
	same $PD/mix.data -g flat &&
	same $PD/mix.data -g folded &&
	same $PD/mix.data --no-children -g flat &&
	same $PD/mix.data --no-children -g folded &&
	same_zeroed $PD/mix.data --no-children -g fractal,1 &&
	same $PD/mix.data --no-children -g caller &&
	same $PD/mix.data -g callee &&
	same $PD/mix.data --no-children -g graph,0.5,2 &&
	same $PD/mix.data --no-children -g folded,0.5,2 &&
	same $PD/mix.data -g flat,0,1 &&
	same $PD/mix.data --max-stack 3 &&
	same $PD/mix.data --no-children --max-stack 2
'

test_expect_success PERF,ROOT 'other keys: pid, cpu, parent, fields, total period' '
	same $PD/mix.data --no-children -s pid &&
	same $PD/mix.data --no-children -s cpu &&
	same $PD/mix.data --no-children -s parent &&
	same $PD/mix.data -F overhead,sym &&
	same $PD/mix.data --no-children -n --show-total-period
'

# -v: long dso names, the address of the sample that made each entry and the
# symtab origin letter (B: build-id cache, D: its debug file, d: the path, k: kallsyms;
# without a cache perf finds no vdso symbols at all, a symbol/ difference: --dsos)
test_expect_success PERF,ROOT '-v: symbol addresses, symtab origins, long dso names' '
	same $PD/mix.data -v &&
	same $PD/mix.data -v --no-children -s dso,sym &&
	same $PD/mix.data -v --no-children -s pid,sym -g caller &&
	same $PD/mix.data -v -g callee &&
	same $PD/nog.data -v &&
	same $FIXTURES/system-wide.data -v --no-children &&
	mkdir -p nocache &&
	HOME=$TRASH/nocache same $PD/nog.data -v --sort comm,dso,sym --dsos cpuburn
'

test_expect_success PERF,ROOT 'a shared library' '
	cat >lib.c <<-\EOF &&
	double lib_spin(double x) { for (int i = 0; i < 50000000; i++) x = x * 1.0000001 + 0.1; return x; }
	EOF
	cat >main.c <<-\EOF &&
	double lib_spin(double);
	int main(void) { return lib_spin(1.0) > 0 ? 0 : 1; }
	EOF
	cc -O1 -g -fPIC -shared -o libspin.so lib.c &&
	cc -O1 -g -fno-omit-frame-pointer -o usespin main.c -L. -lspin -Wl,-rpath,$TRASH &&
	"$PERF" record -q -g -o $TRASH/lib.data ./usespin >/dev/null 2>&1 &&
	same $TRASH/lib.data &&
	same $TRASH/lib.data --no-children --sort dso,sym
'

test_expect_success PERF,ROOT 'tracepoints, system wide' '
	perf_rec tp.data -e sched:sched_switch -a sleep 0.3 &&
	same $PD/tp.data &&
	same $PD/tp.data --sort comm
'

# Whatever else runs on the machine is recorded too: compare our workload's
# comms (other processes' odd frames are listed in docs/cmd/report.md).
test_expect_success PERF,ROOT 'tracepoint-only files: the trace key' '
	perf_rec tp2.data -e sched:sched_switch -e sched:sched_wakeup -e raw_syscalls:sys_enter \
		"$W/rptmix" 50 &&
	same $PD/tp2.data &&
	same $PD/tp2.data -s comm,trace &&
	perf_rec tp1.data -e sched:sched_process_exec true &&
	same $PD/tp1.data &&
	# the dynamic loader closes fd 3 twice: one entry, met by its second
	# sample, so perf formats its payload and the column fits it
	perf_rec tpc.data -e syscalls:sys_enter_close /bin/true &&
	same $PD/tpc.data &&
	grep -q "^   100.00%  fd: 0x00000003$" sonde.out
'

test_expect_success PERF,ROOT 'piped input' '
	"$PERF" record -q -g -o - "$W/rptmix" 100 2>/dev/null >$TRASH/pipe.data &&
	cat $TRASH/pipe.data | "$PERF" report --stdio 2>/dev/null | norm /dev/stdin >perf.norm &&
	cat $TRASH/pipe.data | "$SONDE" report --stdio | norm /dev/stdin >sonde.norm &&
	test_cmp perf.norm sonde.norm &&
	cat $TRASH/pipe.data | "$PERF" report --stdio --no-children -i - 2>/dev/null | norm /dev/stdin >perf.norm &&
	cat $TRASH/pipe.data | "$SONDE" report --stdio --no-children -i - | norm /dev/stdin >sonde.norm &&
	test_cmp perf.norm sonde.norm
'

test_expect_success PERF,ROOT 'system wide with callchains' '
	perf_rec sw.data -g -a "$W/rptmix" 100 &&
	same $PD/sw.data --no-children --comm rptmix,rpt-child,rpt-worker1
'

# (--percent-limit 5 keeps the clock_gettime inlines of libc out: the ASan build of
# symbol/srcline names them differently, a symbol/ issue)
# libdw (sonde) and libunwind (Debian's perf) unwind a few rare stacks
# differently (the dynamic loader's start-up, see docs/cmd/report.md); a
# loaded machine makes such samples more likely. The outputs must be equal
# on at least one of three recordings.
test_expect_success PERF,ROOT '--call-graph dwarf: unwound user stacks with inline frames (folded, self)' '
	ok=0
	for try in 1 2 3; do
		"$PERF" record -q --call-graph dwarf -o $TRASH/dw.data -F 499 "$W/rptmix" 100 >/dev/null 2>&1 &&
		same $TRASH/dw.data --no-children -g folded --percent-limit 5 && { ok=1; break; }
		echo "attempt $try differed"
	done
	test $ok = 1
'
# KNOWN DIFFERENCE (docs/cmd/report.md): in children mode perf's total for an
# "(inlined)" entry of a dwarf stack can be lower than sonde's (17.44% against
# 20.93% for __libc_start_main_impl on rptmix), so that view is not compared yet
test_skip '--call-graph dwarf: children totals of inlined entries' \
	'known difference: perf counts an (inlined) entry of dwarf stacks lower in children mode; to fix'

# an inlined function named with 650 characters: callchain lines print it
# whole in every -g view (sonde used to cut such names at 511 characters)
test_expect_success PERF,ROOT 'inlined frames with very long names print in full' '
	long=inlined_with_a_long_name_$(printf "%0625d" 0 | tr 0 x) &&
	cat >longname.c <<-\EOF &&
	static volatile unsigned long sink;
	static inline __attribute__((always_inline)) void LONGNAME(unsigned long n)
	{
		for (unsigned long i = 0; i < n; i++)
			sink += i * i;
	}
	__attribute__((noinline)) void outer(unsigned long n) { LONGNAME(n); sink++; }
	int main(void) { for (int i = 0; i < 300; i++) outer(1000000); return 0; }
	EOF
	cc -O2 -g -fno-omit-frame-pointer -DLONGNAME=$long -o longname longname.c &&
	"$PERF" record -q --call-graph dwarf -o $TRASH/long.data ./longname >/dev/null 2>&1 &&
	for g in graph fractal flat folded caller; do
		same_zeroed $TRASH/long.data --no-children --percent-limit 5 -g $g ||
		{ echo "failed: -g $g"; return 1; }
		grep -q "$long (inlined)" sonde.out || { echo "-g $g: name cut"; return 1; }
	done
'

if [ -x "$W/jitmap" ]; then
	test_expect_success PERF,ROOT 'JIT code: /tmp/perf-PID.map symbols, [JIT] tid names' '
		"$PERF" record -q -o $TRASH/jit.data -F 2000 "$W/jitmap" 2 >jit.path 2>/dev/null &&
		same $TRASH/jit.data &&
		same $TRASH/jit.data --sort dso,sym;
		rc=$?;
		# the map the workload left in /tmp (it prints its path)
		rm -f $(grep -o "^/tmp/perf-[0-9]*\.map$" jit.path);
		return $rc
	'
	# without its map file, JIT code has no symbols: perf shows its raw
	# addresses (not map-relative ones) in rows, callchains and script. A
	# running process (-p) is what shows it: its maps are synthesized from
	# /proc/PID/maps with file offset 0, not the kernel'"'"'s page offset
	test_expect_success PERF,ROOT 'JIT code without a perf-PID.map: raw addresses' '
		# long enough to outlive a slow perf start: stopped once recorded
		"$W/jitmap" 400 >jitraw.path &
		jp=$! &&
		sleep 0.2 &&
		{ "$PERF" record -q -g -o $TRASH/jitraw.data -F 2000 -p $jp -- sleep 0.3 >/dev/null 2>jitraw.err ||
			{ echo "perf record -p failed"; cat jitraw.err; kill $jp; exit 1; }; } &&
		kill $jp && { wait $jp; :; } &&
		rm -f "/tmp/perf-$jp.map" &&
		same $TRASH/jitraw.data --sort dso,sym &&
		{ grep -q "\[JIT\] tid [0-9]* *\[\.\] 0x0000" perf.out ||
		  { echo "no unresolved JIT row in perf.out:"; head -20 perf.out; exit 1; }; } &&
		same $TRASH/jitraw.data --no-children --sort sym -g caller &&
		"$PERF" script -i $TRASH/jitraw.data -F comm,ip,sym,dso >expect 2>/dev/null &&
		"$SONDE" script -i $TRASH/jitraw.data -F comm,ip,sym,dso >actual 2>/dev/null &&
		{ grep -q "perf-[0-9]*\.map" expect || { echo "no JIT sample in script output"; exit 1; }; } &&
		test_cmp expect actual
	'
	# whatever the outcome, the map the workload wrote first thing goes
	rm -f $(grep -o "^/tmp/perf-[0-9]*\.map$" jitraw.path 2>/dev/null)
else
	test_skip 'JIT code: /tmp/perf-PID.map symbols, [JIT] tid names' 'no jitmap workload'
	test_skip 'JIT code without a perf-PID.map: raw addresses' 'no jitmap workload'
fi

test_expect_success PERF,ROOT 'files written by sonde record' '
	"$SONDE" record -q -g -o $TRASH/sr.data "$W/rptmix" 100 >/dev/null 2>&1 &&
	same $TRASH/sr.data &&
	same $TRASH/sr.data --no-children
'

test_expect_success PERF,ROOT '-g on a file without callchains: perf message and status' '
	test_exit_code 0 "$PERF" report --stdio -i $PD/nog.data -g caller >/dev/null 2>perf.err &&
	test_exit_code 0 "$SONDE" report --stdio -i $PD/nog.data -g caller >/dev/null 2>sonde.err &&
	test_cmp perf.err sonde.err
'

test_expect_success PERF,ROOT 'nothing left after the filters: perf message' '
	"$PERF" report --stdio -i $PD/mix.data --comm nosuch >perf.out 2>perf.err &&
	"$SONDE" report --stdio -i $PD/mix.data --comm nosuch >sonde.out 2>sonde.err &&
	test_cmp perf.err sonde.err &&
	norm perf.out >perf.norm && norm sonde.out >sonde.norm && test_cmp perf.norm sonde.norm &&
	"$PERF" report --stdio -i $PD/mix.data --time 1,2 >perf.out 2>perf.err &&
	"$SONDE" report --stdio -i $PD/mix.data --time 1,2 >sonde.out 2>sonde.err &&
	test_cmp perf.err sonde.err && test_cmp perf.out sonde.out
'

test_expect_success 'a missing file fails like perf' '
	test_exit_code 255 "$SONDE" report --stdio -i nosuch.data 2>err
'

test_done
