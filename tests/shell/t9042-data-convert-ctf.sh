#!/bin/bash
# SPDX-License-Identifier: MIT
# sonde data convert --to-ctf: the trace read back by babeltrace (the CLI)
# prints the same text as perf's own --to-ctf output of the same file (fields,
# names, clock, per-CPU packet context), with the same metadata apart from
# the uuids; perf's messages; tracepoint payloads become the format's fields;
# what is not converted yet is refused.
. "$(dirname "$0")/lib.sh"

FIX=$SONDE_ROOT/tests/fixtures

# why the CTF tests cannot run here, or nothing
ctf_missing() {
	command -v babeltrace >/dev/null 2>&1 || { echo "babeltrace (Debian: babeltrace) not installed"; return; }
	/sbin/ldconfig -p 2>/dev/null | grep -q "libbabeltrace-ctf.so.1 " ||
		{ echo "libbabeltrace-ctf.so.1 (Debian: libbabeltrace1) not installed"; return; }
	"$PERF" data convert --to-ctf "$TRASH/perfcheck" -i "$FIX/callgraph.data" >/dev/null 2>&1 ||
		echo "$PERF was built without CTF support"
}
MISSING=$(ctf_missing)

# ctf_same FILE [OPTION...]: babeltrace prints the same for perf's trace and sonde's; same
# metadata but uuids
ctf_same() {
	local f=$1
	shift
	rm -rf p.ctf s.ctf
	"$PERF" data convert "$@" --to-ctf p.ctf -i "$f" 2>p.err || return 1
	"$SONDE" data convert "$@" --to-ctf s.ctf -i "$f" 2>s.err || { cat s.err; return 1; }
	babeltrace p.ctf >p.txt && babeltrace s.ctf >s.txt && test -s p.txt &&
	test_cmp p.txt s.txt || return 1
	babeltrace -f all -n all p.ctf | sed "s/trace = p.ctf, //" >p.all &&
	babeltrace -f all -n all s.ctf | sed "s/trace = s.ctf, //" >s.all &&
	test_cmp p.all s.all || return 1
	grep -v uuid p.ctf/metadata >p.meta && grep -v uuid s.ctf/metadata >s.meta &&
	test_cmp p.meta s.meta || return 1
	(cd p.ctf && ls) >p.files && (cd s.ctf && ls) >s.files && test_cmp p.files s.files || return 1
	sed "s/p\.ctf/X/" p.err >p.msg && sed "s/s\.ctf/X/" s.err >s.msg && test_cmp p.msg s.msg
}

if [ -n "$MISSING" ]; then
	test_skip '--to-ctf: traces read back by babeltrace as perf'"'"'s' "$MISSING"
else
test_expect_success PERF '--to-ctf: fixtures read back as perf'"'"'s traces are' '
	for f in callgraph system-wide multi-event group compressed tracepoints kvm-stat; do
		ctf_same "$FIX/$f.data" || { echo "differs: $f"; return 1; }
	done
'

test_expect_success PERF,ROOT '--to-ctf: a live -a -g recording, one stream per CPU' '
	"$PERF" record -q -o "$TRASH/a.data" -a -g -F 2000 -- \
		sh -c "for i in 1 2; do (i=0; while [ \$i -lt 20000 ]; do i=\$((i + 1)); done) & done; wait" \
		>/dev/null 2>&1 &&
	ctf_same "$TRASH/a.data" &&
	test "$(ls s.ctf | grep -c "^perf_stream_")" -ge 1 &&
	babeltrace s.ctf | grep -o "{ cpu_id = [0-9]* }" | sort -u >cpus &&
	test "$(wc -l <cpus)" = "$(ls s.ctf | grep -c "^perf_stream_")"
'

test_expect_success PERF,ROOT,TRACEFS '--to-ctf: tracepoint fields (numbers, strings, arrays, common_*)' '
	"$PERF" record -q -o "$TRASH/sw.data" -e sched:sched_switch -e sched:sched_wakeup -a -- \
		sleep 0.2 >/dev/null 2>&1 &&
	ctf_same "$TRASH/sw.data" &&
	grep -q "string { encoding = UTF8; } prev_comm;" s.ctf/metadata &&
	grep -q "signed = true; .* common_pid;" s.ctf/metadata &&
	babeltrace s.ctf | grep -q "sched:sched_switch: .* prev_comm = \"" &&
	"$PERF" record -q -o "$TRASH/sys.data" -e raw_syscalls:sys_enter -e syscalls:sys_enter_openat \
		-e sched:sched_process_exec -e kmem:kmalloc -e timer:hrtimer_start -a -- \
		sh -c "cat /etc/hostname; sleep 0.05" >/dev/null 2>&1 &&
	ctf_same "$TRASH/sys.data" &&
	grep -q "base = hexadecimal; .* args\[6\];" s.ctf/metadata &&
	babeltrace s.ctf | grep -q "args = \[ \[0\] = 0x" &&
	babeltrace s.ctf | grep -q "sched_process_exec: .* filename = \"/" &&
	"$PERF" record -q -o "$TRASH/og.data" -g -e syscalls:sys_enter_openat -- \
		cat /etc/hostname >/dev/null 2>&1 &&
	ctf_same "$TRASH/og.data" &&
	"$PERF" record -q -o "$TRASH/all.data" -e "sched:*" -a -- sleep 0.1 >/dev/null 2>&1 &&
	ctf_same "$TRASH/all.data"
'

# (the connection to port 1 is refused: bash and perf record exit 1)
# a u8 address array is text with its unprintable bytes as \xHH; "event" and
# "callsite" are CTF keywords, written _event and _callsite
test_expect_success PERF,ROOT,TRACEFS '--to-ctf: escaped bytes, fields named as CTF keywords' '
	test_exit_code 1 "$PERF" record -q -o "$TRASH/sock.data" -e sock:inet_sock_set_state -a -- \
		bash -c "echo >/dev/tcp/127.0.0.1/1" >/dev/null 2>&1 &&
	ctf_same "$TRASH/sock.data" &&
	babeltrace s.ctf | grep -q "saddr = \"\\\\x7f\"" &&
	"$PERF" record -q -o "$TRASH/kw.data" -e syscalls:sys_enter_epoll_ctl -a -- \
		python3 -c "import select, os; e = select.epoll(); r, w = os.pipe(); e.register(r)" \
		>/dev/null 2>&1 &&
	ctf_same "$TRASH/kw.data" &&
	grep -q "} _event;" s.ctf/metadata &&
	babeltrace s.ctf | grep -q "epoll_ctl: .* event = 0x"
'

# --all: COMM, EXIT, FORK, MMAP and MMAP2 as perf_comm... events (time 0 for the
# synthesized ones), in cpu 0's stream, counted as non-samples
test_expect_success PERF '--to-ctf --all: the side-band records as perf writes them' '
	for f in callgraph system-wide multi-event compressed tracepoints; do
		ctf_same "$FIX/$f.data" --all || { echo "differs: $f"; return 1; }
	done &&
	grep -q "name = \"perf_mmap2\";" s.ctf/metadata &&
	babeltrace s.ctf | grep -q "perf_comm: { cpu_id = 0 }, { pid = [0-9]*, tid = [0-9]*, comm = \"" &&
	test_grep "MB .[0-9]+ samples, [1-9][0-9]* non-samples. ]" s.err
'

test_expect_success PERF,ROOT,TRACEFS '--to-ctf --all: a live tracepoint recording' '
	"$PERF" record -q -o "$TRASH/swa.data" -e sched:sched_switch -a -- sleep 0.1 >/dev/null 2>&1 &&
	ctf_same "$TRASH/swa.data" --all &&
	babeltrace s.ctf | grep -q "perf_fork: "
'

# --tod: the clock named after the clockid, offset to the wall time of CLOCK_DATA
test_expect_success PERF '--to-ctf --tod: a -k monotonic recording; none without clock data' '
	"$PERF" record -q -k monotonic -o "$TRASH/k.data" -e cpu-clock -F 5000 -- \
		sh -c "i=0; while [ \$i -lt 20000 ]; do i=\$((i + 1)); done" >/dev/null 2>&1 &&
	ctf_same "$TRASH/k.data" --tod &&
	grep -q "description = \"monotonic\";" s.ctf/metadata &&
	grep -q "offset = [1-9][0-9]*;" s.ctf/metadata &&
	ctf_same "$TRASH/k.data" --tod --all &&
	rm -rf p.ctf s.ctf &&
	test_exit_code 255 "$PERF" data convert --tod --to-ctf p.ctf -i "$FIX/callgraph.data" 2>p.err &&
	test_exit_code 255 "$SONDE" data convert --tod --to-ctf s.ctf -i "$FIX/callgraph.data" 2>s.err &&
	test_cmp p.err s.err &&
	test_grep "missing clock data" s.err &&
	grep -v uuid p.ctf/metadata >p.meta && grep -v uuid s.ctf/metadata >s.meta &&
	test_cmp p.meta s.meta
'

# -d: perf_data_src after perf_period (ADDR not written); a dwarf callchain's
# registers and stack, a group read with :S, cgroups: nothing written, as perf
test_expect_success PERF '--to-ctf: other sample fields (perf_data_src; ADDR, READ, registers: none)' '
	"$PERF" record -q -o "$TRASH/d.data" -d -W --data-page-size -e cpu-clock -- \
		sh -c "i=0; while [ \$i -lt 3000 ]; do i=\$((i + 1)); done" >/dev/null 2>&1 &&
	ctf_same "$TRASH/d.data" &&
	grep -q "} perf_data_src;" s.ctf/metadata &&
	! grep -q "perf_addr" s.ctf/metadata &&
	"$PERF" record -q -o "$TRASH/r.data" --call-graph dwarf,1024 --intr-regs=ax -e cpu-clock -- \
		true >/dev/null 2>&1 &&
	ctf_same "$TRASH/r.data" --all &&
	"$PERF" record -q -o "$TRASH/g.data" -e "{cpu-clock,task-clock}:S" -- \
		sh -c "i=0; while [ \$i -lt 3000 ]; do i=\$((i + 1)); done" >/dev/null 2>&1 &&
	ctf_same "$TRASH/g.data" &&
	babeltrace s.ctf | grep -q "task-clock: " &&
	"$PERF" record -q -o "$TRASH/cg.data" --all-cgroups -e cpu-clock -- true >/dev/null 2>&1 &&
	ctf_same "$TRASH/cg.data"
'
fi

test_done
