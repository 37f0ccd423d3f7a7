# SPDX-License-Identifier: MIT
# Golden cases: "fixture golden-name command-args" (perf/sonde prepended).
# Sourced by tools/gen-golden.sh and tests/shell/t4000-perf-data-golden.sh.
golden_cases() {
	local f b
	for f in callgraph group multi-event compressed tracepoints system-wide pipe; do
		b=$f.data
		echo "$b $f.header-only report -i $b --header-only"
		echo "$b $f.header-only-I report -i $b --header-only -I"
		echo "$b $f.stats report -i $b --stats"
		echo "$b $f.evlist evlist -i $b"
		echo "$b $f.evlist-v evlist -i $b -v"
		echo "$b $f.evlist-F evlist -i $b -F"
		echo "$b $f.evlist-g evlist -i $b -g"
		echo "$b $f.evlist-trace-fields evlist -i $b --trace-fields"
		echo "$b $f.buildid-list buildid-list -i $b"
		echo "$b $f.buildid-list-H buildid-list -i $b -H"
	done
	for f in callgraph group multi-event compressed pipe; do
		echo "$f.data $f.dump report -i $f.data -D"
	done
	# written by sonde's writer in the other byte order (see tools/gen-fixtures.sh)
	b=swapped-callgraph.data
	echo "$b swapped.header-only report -i $b --header-only"
	echo "$b swapped.stats report -i $b --stats"
	echo "$b swapped.evlist-v evlist -i $b -v"
	echo "$b swapped.buildid-list buildid-list -i $b"
	echo "$b swapped.buildid-list-H buildid-list -i $b -H"
}
