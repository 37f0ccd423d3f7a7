#!/bin/bash
# SPDX-License-Identifier: MIT
# c2c report --stdio against perf on tests/fixtures/c2c/c2c.data (loads and
# stores with data_src, weight, addr and phys_addr, as c2c record keeps them):
# every table, each -d display, -N levels, -c keys, --full-symbols,
# --show-all and --stats print exactly as perf's.
. "$(dirname "$0")/lib.sh"

if ! test_have_prereq PERF; then
	test_skip "c2c report against perf" "$prereq_reason"
	test_done
fi

DATA=$FIXTURES/c2c/c2c.data
# the second process's code is anonymous: its symbols come from a perf map
MAP=/tmp/perf-3101.map
trap 'rm -f "$MAP"' EXIT
printf '401100 80 c2c_peer_spin\n401400 100 c2c_peer_update_shared_counter_with_a_long_name\n401500 40 peer_read\n' >"$MAP"

# same_c2c OPTS...: perf and sonde print the same report on $DATA (perf
# --no-source: its Source:Line column runs addr2line on the fixture's
# missing binaries)
same_c2c() {
	"$PERF" c2c report --stdio --no-source -i "$DATA" "$@" >perf.out 2>perf.err || return 1
	"$SONDE" c2c report --stdio --no-source -i "$DATA" "$@" >sonde.out 2>sonde.err || return 1
	test_cmp perf.out sonde.out
}

test_expect_success 'default tables as perf' '
	same_c2c &&
	test_grep "Shared Data Cache Line Table" sonde.out &&
	test_grep "c2c_peer_update_shared_cou " sonde.out
'

test_expect_success '--stats and --show-all as perf' '
	same_c2c --stats && ! grep -q "Pareto" sonde.out &&
	same_c2c --show-all
'

test_expect_success '-d lcl, rmt, peer as perf' '
	same_c2c -d lcl && test_grep "Local HITMs" sonde.out &&
	same_c2c -d rmt &&
	same_c2c -d peer && test_grep "Peer Snoop" sonde.out
'

test_expect_success '-N, -NN, --full-symbols as perf' '
	same_c2c -N && same_c2c -N -N && same_c2c --full-symbols &&
	same_c2c -d peer --full-symbols
'

test_expect_success '-c keys as perf' '
	same_c2c -c tid && same_c2c -c pid && same_c2c -c tid,pid,iaddr,dso &&
	same_c2c -c iaddr,pid && same_c2c -d lcl -c tid
'

test_expect_success 'two NUMA nodes: Node columns, -N slots, -NN cpu lists as perf' '
	DATA=$FIXTURES/c2c/c2c-2node.data &&
	same_c2c && same_c2c -N && same_c2c -NN && same_c2c -c pid &&
	test_grep " 0  1$" sonde.out &&
	same_c2c -c pid -N && same_c2c -d peer -N && same_c2c -c tid,pid -NN &&
	DATA=$FIXTURES/c2c/c2c.data
'

test_expect_success 'bad -c and -d words: perf message, 255' '
	for a in "-c bogus" "-d bogus"; do
		prc=0 src=0
		"$PERF" c2c report --stdio -i "$DATA" $a >perf.out 2>&1 || prc=$?
		"$SONDE" c2c report --stdio -i "$DATA" $a >sonde.out 2>&1 || src=$?
		test_cmp perf.out sonde.out && [ $prc = $src ] || return 1
	done
'

test_done
