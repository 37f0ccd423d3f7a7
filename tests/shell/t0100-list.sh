#!/bin/bash
# SPDX-License-Identifier: MIT
# sonde list against perf list on this machine, byte for byte: every class,
# glob and option form (hardware and cache events appear only where the
# machine can open them, for both).
. "$(dirname "$0")/lib.sh"

# Both read SDT events from $HOME/.debug: give them a private, empty one so
# that other tests filling the real build-id cache meanwhile do not matter.
mkdir -p "$TRASH/home"
export HOME=$TRASH/home

# sonde has no built-in vendor event or metric tables (docs/cmd/list.md, "not
# done"): where perf has them for this CPU it prints table events (a "topic:"
# header, "  name" lines without a [Kind], 7-space indented descriptions) and
# metrics. perf's output is cut down to the kinds sonde implements; the names
# perf printed from its tables are removed from sonde's output too (a sysfs
# alias perf describes from a table); everything left is compared byte for
# byte. On a CPU without tables both filters change nothing.
SONDE_KINDS='Hardware event|Software event|Tool event|Hardware cache event|Kernel PMU event|Raw hardware event descriptor|Hardware breakpoint|Tracepoint event|SDT event'

# table_names: the names perf lists from its tables (events, metrics, metric
# groups), one a line, into $TRASH/table.names
table_names() {
	{
		"$PERF" list 2>/dev/null | awk -v kinds="$SONDE_KINDS" '
			/^(Metrics|Metric Groups):$/ { exit }
			/^  [^ ]/ && !match($0, "\\[(" kinds ")\\]$") {
				print $1; if ($2 == "OR") print $3 }'
		"$PERF" list metric metricgroup 2>/dev/null | awk '
			/^(Metrics|Metric Groups):$/ { next }
			/^[^ ].*:$/ { sub(/:$/, ""); print; next }
			/^  [^ ]/ { print $1 }'
	} | sort -u >"$TRASH/table.names"
}

# perf_filter: perf list text output cut down to the kinds sonde implements
perf_filter() {
	awk -v kinds="$SONDE_KINDS" '
		function emit(l) { if (l == "" && dropped && last == "") return
			print l; last = l; dropped = 0 }
		BEGIN { last = "x" }
		metrics == 2 { next }
		metrics == 1 { emit($0); if ($0 == "") metrics = 2; next }
		/^(Metrics|Metric Groups):$/ { emit($0); metrics = 1; next }
		$0 == "" { emit($0); next }
		/^       / || /^[^ ].*:$/ { dropped = 1; next }
		/^  [^ ]/ && !match($0, "\\[(" kinds ")\\]$") { dropped = 1; next }
		{ emit($0) }'
}

# sonde_filter: sonde list output without the names perf took from its tables
sonde_filter() {
	awk -v names="$TRASH/table.names" '
		BEGIN { while ((getline n <names) > 0) t[n] = 1 }
		/^  [^ ]/ && ($1 in t || ($2 == "OR" && $3 in t)) { next }
		{ print }'
}

# raw_filter: --raw-dump names without those from perf's tables (as is when
# there are none)
raw_filter() {
	[ -s "$TRASH/table.names" ] || { cat; return; }
	awk -v names="$TRASH/table.names" '
		BEGIN { while ((getline n <names) > 0) t[n] = 1 }
		{ for (i = 1; i <= NF; i++) if (!($i in t)) printf "%s ", $i }'
}

# list_same ARGS...: same stdout, stderr and exit status as perf list ARGS
# (stdout through the filters above)
list_same() {
	local prc=0 src=0 filter=perf_filter sfilter=sonde_filter
	case " $* " in *" --raw-dump "*) filter=raw_filter sfilter=raw_filter ;; esac
	"$PERF" list "$@" >perf.raw 2>perf.err || prc=$?
	"$SONDE" list "$@" >sonde.raw 2>sonde.err || src=$?
	sed -i 's/\bsonde\b/perf/g' sonde.err
	test "$prc" = "$src" || { echo "exit: perf $prc, sonde $src"; return 1; }
	$filter <perf.raw >perf.out && $sfilter <sonde.raw >sonde.out &&
	test_cmp perf.out sonde.out && test_cmp perf.err sonde.err
}

if test_have_prereq PERF; then
	table_names
	if [ -s "$TRASH/table.names" ]; then
		echo "# perf lists $(wc -l <"$TRASH/table.names") event/metric names from its built-in tables for this CPU; sonde has none (docs/cmd/list.md): compared without them"
	fi
fi

test_expect_success PERF,TRACEFS 'list (everything)' 'list_same'
for arg in hw sw cache pmu tracepoint sdt metric metricgroup 'sched:*' \
	'syscalls:sys_exit_a*' 'sched:sched_sw*' block cs tsc 'msr*' 'msr/*' \
	sched_switch nosuch Tool hardware software hwcache; do
	test_expect_success PERF,TRACEFS "list $arg" "list_same '$arg'"
done
test_expect_success PERF,TRACEFS 'list with several arguments' 'list_same hw cache sw "sched:sched_wakeup*"'
test_expect_success PERF,TRACEFS 'list --raw-dump' 'list_same --raw-dump'
test_expect_success PERF,TRACEFS 'list --raw-dump sw and pmu' 'list_same --raw-dump sw pmu'
test_expect_success PERF,TRACEFS 'list -d and --details' 'list_same -d sw && list_same --details pmu'
test_expect_success PERF 'list -h: usage, exit 129' 'list_same -h'
test_expect_success PERF 'list --bogus: usage error, exit 129' 'list_same --bogus'

# cache_binary BIN 'probes text': a build-id cache entry as "buildid-cache --add" makes it
cache_binary() {
	local bid
	bid=$(readelf -n "$1" | awk '/Build ID/ { print $3 }')
	mkdir -p "$HOME/.debug/.build-id/${bid:0:2}" "$HOME/.debug$1/$bid"
	ln -s "../..$1/$bid" "$HOME/.debug/.build-id/${bid:0:2}/${bid:2}"
	cp "$1" "$HOME/.debug$1/$bid/elf"
	printf "$2" >"$HOME/.debug$1/$bid/probes"
}

if command -v readelf >/dev/null; then
	test_expect_success PERF,TRACEFS 'SDT events from the build-id cache' '
		cache_binary /usr/bin/true "%%sdt_prov:start=start\np:sdt_prov/start /usr/bin/true:0x10\n%%sdt_prov:only=only\np:sdt_prov/only /usr/bin/true:0x20\n" &&
		cache_binary /usr/bin/false "%%sdt_prov:start=start\np:sdt_prov/start /usr/bin/false:0x10\n%%sdt_zz:aa=aa\np:sdt_zz/aa /usr/bin/false:0x30\n" &&
		list_same sdt && test_grep "sdt_prov:start@/usr/bin/true\(" sonde.out &&
		list_same "sdt_prov:st*" && list_same only && list_same --raw-dump sdt &&
		list_same && rm -rf "$HOME/.debug"
	'
else
	test_skip 'SDT events from the build-id cache' 'readelf (binutils) not installed'
fi

test_expect_success TRACEFS 'list format: two spaces, name padded to 50, kind' '
	"$SONDE" list sw >out &&
	test_grep "^  context-switches OR cs                             \[Software event\]$" out &&
	test_grep "^  duration_time                                      \[Tool event\]$" out &&
	"$SONDE" list "sched:sched_switch" >out &&
	test_grep "^  sched:sched_switch                                 \[Tracepoint event\]$" out
'

test_expect_success 'list sw needs no perf and no tracefs' '
	"$SONDE" list sw >out && test "$(wc -l <out)" -ge 15
'

test_done
