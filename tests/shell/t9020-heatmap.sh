#!/bin/bash
# SPDX-License-Identifier: MIT
# sonde heatmap: latency heat maps from syscall and block request pairs and
# sub-second offset maps, their cells (CSV) checked against pairs and offsets
# computed with awk from perf script's output of the same file; the SVG's
# legend, axes and tooltips; errors.
. "$(dirname "$0")/lib.sh"

# lat_rows FILE: "row_start_ns,count" from perf script --ns: enter/exit paired by tid, 10 us rows
lat_rows_syscalls() {
	"$PERF" script -i "$1" --ns -F tid,time,event 2>/dev/null | awk '
		{ t = $2; sub(/:$/, "", t); split(t, p, "."); ns = p[1] * 1000000000 + p[2] }
		$3 ~ /sys_enter/ { start[$1] = ns; next }
		$3 ~ /sys_exit/ && ($1 in start) { lat = ns - start[$1]; delete start[$1]; c[int(lat / 10000)]++ }
		END { for (r in c) print r * 10000 "," c[r] }' | sort -t, -k1,1n
}

# offset_rows FILE EVENT: "second,row_start_ms,count" of EVENT's samples, 100 ms rows
offset_rows() {
	"$PERF" script -i "$1" --ns -F time,event 2>/dev/null | awk -v ev="$2:" '
		$2 != ev { next }
		{ t = $1; sub(/:$/, "", t); split(t, p, "."); if (first == "") first = p[1]
		  c[(p[1] - first) "," int(p[2] / 100000000) * 100]++ }
		END { for (k in c) print k "," c[k] }' | sort -t, -k1,1n -k2,2n
}

test_expect_success PERF,ROOT,TRACEFS 'record: syscall enter/exit of dd' '
	"$PERF" record -q -o "$TRASH/sc.data" -e raw_syscalls:sys_enter -e raw_syscalls:sys_exit -- \
		dd if=/dev/zero of=/dev/null bs=4k count=3000 >/dev/null 2>&1 &&
	test -s "$TRASH/sc.data"
'

test_expect_success PERF,ROOT,TRACEFS '--latency: syscall pairs by tid, cells as perf script says' '
	test -s "$TRASH/sc.data" &&
	lat_rows_syscalls "$TRASH/sc.data" >expect &&
	test -s expect &&
	"$SONDE" heatmap --latency -i "$TRASH/sc.data" --csv --unit ns --lat-bucket 10000 \
		--time-bucket 1000 >cells.csv &&
	test_grep "^time_s,ns,count$" cells.csv &&
	sed 1d cells.csv | cut -d, -f2,3 | sort -t, -k1,1n >actual &&
	test_cmp expect actual
'

test_expect_success PERF,ROOT,TRACEFS '--latency SVG: cells with tooltips, legend, axis labels' '
	"$SONDE" heatmap --latency -i "$TRASH/sc.data" -o lat.svg &&
	python3 -c "import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])" lat.svg &&
	test_grep "id=\"hm-title\" class=\"t\" x=\"600\" y=\"22\">Latency Heat Map<" lat.svg &&
	test_grep "raw_syscalls:sys_enter -&gt; raw_syscalls:sys_exit by tid" lat.svg &&
	test_grep ">Time \(s\)</text>" lat.svg &&
	test_grep ">Latency \(us\)</text>" lat.svg &&
	test_grep "<g id=\"legend\"><text [^>]*>events per cell</text>" lat.svg &&
	n=$(sed 1d cells.csv | awk -F, "{ s += \$3 } END { print s }") &&
	test_grep ">$n events</text>" lat.svg &&
	cells=$(grep -c "<rect class=\"c\"" lat.svg) &&
	tips=$(grep -c "<title>time [0-9.]*-[0-9.]* s, Latency (us) [0-9.e+-]*-[0-9.e+-]*: [0-9]* events</title>" lat.svg) &&
	test "$cells" -gt 0 && test "$cells" = "$tips" &&
	! grep -E "(href|src)=\"?(https?:)?//" lat.svg
'

test_expect_success PERF,ROOT,TRACEFS '--offset: samples by second and offset inside it' '
	offset_rows "$TRASH/sc.data" raw_syscalls:sys_enter >oexpect &&
	"$SONDE" heatmap --offset -i "$TRASH/sc.data" -e raw_syscalls:sys_enter --rows 10 --csv >o.csv &&
	test_grep "^time_s,ms,count$" o.csv &&
	sed 1d o.csv | awk -F, "{ printf \"%d,%s,%s\n\", \$1, \$2, \$3 }" | sort -t, -k1,1n -k2,2n >oactual &&
	test_cmp oexpect oactual &&
	"$SONDE" heatmap --offset -i "$TRASH/sc.data" -o off.svg &&
	test_grep ">Offset in the second \(ms\)</text>" off.svg
'

CHROMIUM=$(command -v chromium || command -v chromium-browser || command -v google-chrome)
if [ -n "$CHROMIUM" ]; then
	test_expect_success PERF,ROOT,TRACEFS 'browser: the SVG renders, cells and tooltips in the DOM, screenshot kept' '
		test -s lat.svg &&
		ART=$SONDE_BUILD/test-artifacts/t9020 && mkdir -p "$ART" &&
		timeout 60 "$CHROMIUM" --headless --no-sandbox --disable-gpu --user-data-dir="$TRASH/chr" \
			--dump-dom "file://$PWD/lat.svg" >dom.html 2>/dev/null &&
		test "$(grep -c "<rect class=\"c\"" dom.html)" = "$(grep -c "<rect class=\"c\"" lat.svg)" &&
		test_grep "events per cell" dom.html &&
		timeout 60 "$CHROMIUM" --headless --no-sandbox --disable-gpu --hide-scrollbars \
			--user-data-dir="$TRASH/chr" --window-size=1200,700 \
			--screenshot="$ART/latency.png" "file://$PWD/lat.svg" >/dev/null 2>&1 &&
		timeout 60 "$CHROMIUM" --headless --no-sandbox --disable-gpu --hide-scrollbars \
			--user-data-dir="$TRASH/chr" --window-size=1200,700 \
			--screenshot="$ART/offset.png" "file://$PWD/off.svg" >/dev/null 2>&1 &&
		test -s "$ART/latency.png" && test -s "$ART/offset.png"
	'
else
	test_skip 'browser: the SVG renders, cells and tooltips in the DOM, screenshot kept' \
		'chromium not installed (tools/install-deps.sh with WITH_TEST_DEPS=1 installs it)'
fi

test_expect_success PERF,ROOT,TRACEFS '--latency: block requests paired by dev and sector' '
	dd if=/dev/zero of=blk.bin bs=64k count=64 2>/dev/null &&
	"$PERF" record -q -o "$TRASH/blk.data" -e block:block_rq_issue -e block:block_rq_complete -a -- \
		dd if=/dev/zero of=blk.bin bs=64k count=64 oflag=direct conv=fsync >/dev/null 2>&1 &&
	"$PERF" script -i "$TRASH/blk.data" --ns 2>/dev/null | awk "
		{ for (i = 1; i <= NF; i++) if (\$i ~ /^[0-9]+\.[0-9]+:\$/) t = \$i
		  sub(/:\$/, \"\", t); split(t, p, \".\"); ns = p[1] * 1000000000 + p[2]
		  for (i = 1; i <= NF; i++) if (\$i == \"+\") sec = \$(i - 1)
		  for (i = 1; i <= NF; i++) if (\$i ~ /^block:/) dev = \$(i + 1) }
		/block:block_rq_issue:/ { start[dev, sec] = ns; next }
		/block:block_rq_complete:/ && ((dev, sec) in start) { c[int((ns - start[dev, sec]) / 10000)]++; delete start[dev, sec] }
		END { for (r in c) print r * 10000 \",\" c[r] }" | sort -t, -k1,1n >bexpect &&
	if [ -s bexpect ]; then
		"$SONDE" heatmap --latency -i "$TRASH/blk.data" --csv --unit ns --lat-bucket 10000 \
			--time-bucket 1000 >b.csv &&
		sed 1d b.csv | cut -d, -f2,3 | sort -t, -k1,1n >bactual &&
		test_cmp bexpect bactual
	else
		echo "# no block requests completed on this filesystem: pairing not exercised"
	fi
'

test_expect_success 'errors: no pair, both or neither mode' '
	test_exit_code 255 "$SONDE" heatmap --latency -i "$SONDE_ROOT/tests/fixtures/callgraph.data" -o x.svg 2>err &&
	test_grep "has no begin/end pair" err &&
	test_exit_code 129 "$SONDE" heatmap -i "$SONDE_ROOT/tests/fixtures/callgraph.data" &&
	test_exit_code 129 "$SONDE" heatmap --latency --offset -i "$SONDE_ROOT/tests/fixtures/callgraph.data" &&
	test_exit_code 255 "$SONDE" heatmap --offset --unit weeks -i "$SONDE_ROOT/tests/fixtures/callgraph.data" -o x.svg
'

test_done
