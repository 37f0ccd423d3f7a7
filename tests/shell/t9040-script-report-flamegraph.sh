#!/bin/bash
# SPDX-License-Identifier: MIT
# check: parallel (its own files and workloads, nothing timed, no system-wide recording)
# sonde script report flamegraph (perf's spelling): the HTML page is sonde's
# own flame graph (as sonde flamegraph --fold-pid draws it), -f json stays
# perf's flamegraph.py tree; both hold the samples perf's script counts.
. "$(dirname "$0")/lib.sh"

ln -s "$SONDE" perf
FIX=$SONDE_ROOT/tests/fixtures

# per-process sample totals of a d3 JSON tree ("comm (pid)" roots) as "comm-pid N" lines
tree_totals() {
	python3 -c '
import json, re, sys
def total(n):
    return n["v"] + sum(total(c) for c in n["c"])
for c in json.load(sys.stdin)["c"]:
    m = re.match(r"^(.*) \((\d+)\)$", c["n"])
    print("%s-%s %d" % (m.group(1), m.group(2), total(c)))' | sort
}

# per-process totals of folded text ("comm-pid;..." roots)
folded_totals() {
	awk '{ n = $NF; k = $0; sub(/;.*/, "", k); sub(/ [0-9]+$/, "", k); t[k] += n }
		END { for (k in t) print k, t[k] }' | sort
}

test_expect_success 'report flamegraph: sonde'"'"'s HTML page, said on stdout as perf says it' '
	./perf script report flamegraph -i "$FIX/callgraph.data" >out 2>err &&
	echo "dumping data to flamegraph.html" >expect &&
	test_cmp expect out &&
	! test -s err &&
	./perf flamegraph -q --fold-pid -i "$FIX/callgraph.data" -o ref.html &&
	test_cmp ref.html flamegraph.html &&
	test_grep "<svg" flamegraph.html &&
	test_grep "<html" flamegraph.html
'

test_expect_success 'report flamegraph -o, --output=, -o -, --colorscheme orange' '
	./perf script report flamegraph -i "$FIX/callgraph.data" -o fg1.html >out &&
	test_grep "^dumping data to fg1.html$" out &&
	./perf script report flamegraph -i "$FIX/callgraph.data" --output=fg2.html >/dev/null &&
	test_cmp fg1.html fg2.html &&
	./perf script report flamegraph -i "$FIX/callgraph.data" -o - >fg3.html &&
	test_cmp fg1.html fg3.html &&
	./perf script report flamegraph -i "$FIX/callgraph.data" --colorscheme orange -o o.html >/dev/null &&
	./perf flamegraph -q --fold-pid --colors orange -i "$FIX/callgraph.data" -o oref.html &&
	test_cmp oref.html o.html &&
	! cmp -s o.html fg1.html
'

test_expect_success PERF 'report flamegraph: same samples per process as perf'"'"'s JSON tree' '
	"$PERF" script -i "$FIX/callgraph.data" -s "$("$PERF" --exec-path)/scripts/python/flamegraph.py" \
		-- -f json -o - 2>/dev/null | tree_totals >expect &&
	test -s expect &&
	./perf flamegraph --folded --fold-pid -i "$FIX/callgraph.data" | folded_totals >actual &&
	test_cmp expect actual
'

test_expect_success PERF '-f json: still perf'"'"'s flamegraph.py tree, byte for byte' '
	"$PERF" script -i "$FIX/callgraph.data" -s "$("$PERF" --exec-path)/scripts/python/flamegraph.py" \
		-- -f json -o - >expect 2>/dev/null &&
	./perf script report flamegraph -i "$FIX/callgraph.data" -f json -o - >actual &&
	test_cmp expect actual &&
	./perf script report flamegraph -i "$FIX/callgraph.data" --format=json -o t.json >out &&
	test_grep "^dumping data to t.json$" out &&
	test_cmp expect t.json
'

test_expect_success 'a named --template must exist (perf'"'"'s message, exit 1); unknown options: argparse' '
	test_exit_code 1 ./perf script report flamegraph -i "$FIX/callgraph.data" \
		--template /nonexistent 2>err &&
	test_grep "^Flame Graph template /nonexistent does not exist" err &&
	test_exit_code 2 ./perf script report flamegraph -i "$FIX/callgraph.data" --bogus 2>err &&
	test_grep "unrecognized arguments: --bogus" err
'

test_expect_success 'a missing input: perf'"'"'s message, exit 255, no page' '
	rm -f flamegraph.html &&
	test_exit_code 255 ./perf script report flamegraph -i nosuch.data 2>err &&
	test_grep "nosuch.data" err &&
	! test -e flamegraph.html
'

test_done
