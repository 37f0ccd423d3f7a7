#!/bin/bash
# SPDX-License-Identifier: MIT
# report --mem-mode and the memory sort keys (mem, snoop, tlb, locked,
# blocked, symbol_daddr, dso_daddr, local_ins_lat), and mem report (its sort
# orders, -D dump), against perf on a crafted file of well-formed data_src
# values (tests/fixtures/script/mem.data: this VM has no PEBS/IBS).
. "$(dirname "$0")/lib.sh"

if ! test_have_prereq PERF; then
	test_skip "report --mem-mode against perf" "$prereq_reason"
	test_done
fi

F="$FIXTURES/script/mem.data"
P="$FIXTURES/script/memphys.data"

test_expect_success 'perf and sonde script decode the fixture alike' '
	"$PERF" script -i "$F" -F data_src,weight,addr >perf.out 2>/dev/null &&
	"$SONDE" script -i "$F" -F data_src,weight,addr >sonde.out 2>/dev/null &&
	test_cmp perf.out sonde.out &&
	test_grep "LVL Remote Remote Cache .1 hop. hit" sonde.out &&
	test_grep "SNP N/A or Fwd" sonde.out
'

test_expect_success 'each memory key alone, with -n, as perf' '
	for k in mem snoop tlb locked blocked symbol_daddr dso_daddr local_ins_lat; do
		report_same "$F" --mem-mode --sort $k || return 1
		report_same "$F" --mem-mode --sort $k -n || return 1
	done &&
	test_grep "^# Total weight : 357893" sonde.out
'

test_expect_success 'memory keys combined with the others, as perf' '
	report_same "$F" --mem-mode --sort mem,snoop,tlb,locked,blocked &&
	report_same "$F" --mem-mode --sort locked,mem -n --show-total-period &&
	report_same "$F" --mem-mode --sort tlb,blocked,snoop &&
	report_same "$F" --mem-mode --sort mem,sym &&
	report_same "$F" --mem-mode --sort snoop,comm,dso &&
	report_same "$F" --mem-mode --sort dso_daddr,symbol_daddr &&
	report_same "$F" --mem-mode --sort local_weight,mem &&
	report_same "$F" --mem-mode --sort mem,snoop,locked,blocked,symbol_daddr,dso_daddr -t ,
'

test_expect_success 'dcacheline, phys_daddr, data_page_size, as perf' '
	for k in dcacheline phys_daddr data_page_size mem,data_page_size,phys_daddr dcacheline,snoop; do
		report_same "$P" --mem-mode --sort $k -n || return 1
	done &&
	report_same "$P" --mem-mode --sort data_page_size -n &&
	test_grep "^ +25.70% +34  2M" sonde.out
'

test_expect_success 'the mem-mode default sort order, as perf' '
	report_same "$F" --mem-mode &&
	report_same "$F" --mem-mode -n &&
	test_grep "^# Sort order   : local_weight,mem,sym,dso,symbol_daddr" sonde.out &&
	test_grep "Remote Remote Cache .1 hop. hit" sonde.out
'

test_expect_success 'memory keys without --mem-mode: perf'"'"'s error' '
	# (perf then prints the usage and exits 0; sonde exits 129: docs/cmd/report.md)
	prc=0 src=0
	"$PERF" report --stdio -i "$F" --sort mem >/dev/null 2>perf.err || prc=$?
	"$SONDE" report --stdio -i "$F" --sort mem >/dev/null 2>sonde.err || src=$?
	echo "exit: perf $prc, sonde $src" &&
	head -2 perf.err >perf.norm && head -2 sonde.err >sonde.norm &&
	test_cmp perf.norm sonde.norm &&
	test_grep "Invalid --sort key: .mem" sonde.err
'

test_expect_success 'report --mem-mode on a file without data addresses: perf'"'"'s error' '
	report_same "$FIXTURES/script/callgraph.data" --mem-mode &&
	test_grep "^Selected --mem-mode but no mem data. Did you call perf record without -d" sonde.err &&
	report_same "$FIXTURES/script/faults.data" --mem-mode --sort mem,snoop
'

# mem_same ARGS...: perf mem and sonde mem print the same (tips dropped), exit alike
mem_same() {
	local prc=0 src=0
	"$PERF" mem "$@" >perf.out 2>/dev/null || prc=$?
	"$SONDE" mem "$@" >sonde.out 2>sonde.err || src=$?
	grep -v '^# (Tip:' perf.out >perf.norm
	grep -v '^# (Tip:' sonde.out >sonde.norm
	test_cmp perf.norm sonde.norm &&
	{ [ $prc = $src ] || { echo "exit $src, perf $prc: $*"; cat sonde.err; return 1; }; }
}

test_expect_success 'mem report: default and store sort orders, options before or after the word' '
	mem_same report -i "$F" --stdio &&
	test_grep "Local Weight  Memory access" sonde.out &&
	mem_same -t store report -i "$F" --stdio &&
	test_grep "^# Sort order   : mem,sym,dso,symbol_daddr,dso_daddr,tlb,locked,ipc_null" sonde.out &&
	mem_same report -i "$F" --stdio -t store &&
	mem_same -t load report -i "$F" --stdio &&
	mem_same report -i "$F" --stdio --sort mem &&
	mem_same -U report -i "$F" --stdio &&
	mem_same -x , report -i "$F" --stdio &&
	mem_same -p report -i "$P" --stdio &&
	mem_same --data-page-size report -i "$P" --stdio &&
	mem_same -t store -p --data-page-size report -i "$P" --stdio
'

test_expect_success 'mem report -D: perf'"'"'s dump lines' '
	mem_same -D report -i "$F" &&
	test_grep "^# PID, TID, IP, ADDR, LOCAL WEIGHT, DSRC, SYMBOL" sonde.out &&
	mem_same report -D -i "$F" &&
	mem_same -D -x , report -i "$F" &&
	mem_same -D report -i "$FIXTURES/script/faults.data" &&
	mem_same -D -U report -i "$FIXTURES/script/faults.data" &&
	mem_same -D -p --data-page-size report -i "$P" &&
	test_grep "^# PID, TID, IP, ADDR, PHYS ADDR, DATA PAGE SIZE, LOCAL WEIGHT" sonde.out &&
	mem_same -D -x , -p --data-page-size report -i "$P"
'

test_expect_success 'mem report -D -C on a file without sample cpus: perf'"'"'s refusal' '
	test_exit_code 255 "$PERF" mem -D -C 0 report -i "$F" >perf.out 2>perf.err &&
	test_exit_code 255 "$SONDE" mem -D -C 0 report -i "$F" >sonde.out 2>sonde.err &&
	test_cmp perf.out sonde.out &&
	test_cmp perf.err sonde.err &&
	test_grep "^File does not contain CPU events" sonde.err
'

test_done
