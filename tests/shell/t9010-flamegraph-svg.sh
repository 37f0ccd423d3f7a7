#!/bin/bash
# SPDX-License-Identifier: MIT
# sonde flamegraph's pictures: well-formed self-contained SVG/HTML whose frames
# add up to the folded stacks, tooltips, kinds told apart by colour, the
# options (--weight period, --inverted, --reverse, --minwidth, --width, --title,
# --colors, -e, --diff), then headless Chromium clicks, resets and searches
# (screenshots kept in $SONDE_BUILD/test-artifacts/t9010).
. "$(dirname "$0")/lib.sh"

FIX=$SONDE_ROOT/tests/fixtures
W=$SONDE_WORKLOADS
CG=$FIX/callgraph.data
ART=$SONDE_BUILD/test-artifacts/t9010
mkdir -p "$ART"

# xml_ok FILE: parses as XML (the SVG), or as HTML with the SVG inside
xml_ok() {
	python3 - "$1" <<-\PY
	import sys, xml.etree.ElementTree as ET
	p = sys.argv[1]
	s = open(p, encoding="utf-8").read()
	if p.endswith(".html"):
	    s = s[s.index("<svg"):s.index("</svg>") + 6]
	ET.fromstring(s)
	PY
}

# frames FILE: one line per frame: depth x width fill name-and-tooltip
frames() {
	sed -n 's/^<g class="f" data-k="\([0-9]*\)" data-d="\([0-9]*\)" data-x="\([0-9]*\)" data-w="\([0-9]*\)"><title>\([^<]*\)<\/title><rect x="[^"]*" y="\([^"]*\)" width="[^"]*" height="[^"]*" fill="rgb(\([0-9,]*\))".*/\1 \2 \3 \4 \6 \7 \5/p' "$1"
}

test_expect_success 'SVG: well-formed, self-contained, frames add up to the folded stacks' '
	"$SONDE" flamegraph -q -i "$CG" -o fg.svg &&
	xml_ok fg.svg &&
	! grep -E "(href|src)=\"?(https?:)?//" fg.svg &&
	"$SONDE" flamegraph --folded -i "$CG" >folded.txt &&
	total=$(awk "{ s += \$NF } END { print s }" folded.txt) &&
	frames fg.svg >fr.txt &&
	test_grep "^0 0 0 $total .* all \\($total samples, 100.00%\\)$" fr.txt &&
	test "$(awk "\$2 == 1 { s += \$4 } END { print s }" fr.txt)" = "$total" &&
	sh=$(awk -F"[; ]" "\$1 == \"sh\" { s += \$NF } END { print s }" folded.txt) &&
	pct=$(awk "BEGIN { printf \"%.2f\", 100 * $sh / $total }") &&
	test_grep "^32 1 0 $sh .* sh \\($sh samples, $pct%\\)$" fr.txt
'

test_expect_success 'HTML: the same picture in a page with a search box' '
	"$SONDE" flamegraph -q -i "$CG" -o fg.html &&
	xml_ok fg.html &&
	test_grep "<!DOCTYPE html>" fg.html &&
	test_grep "id=\"fg-input\"" fg.html &&
	frames fg.html | cut -d" " -f1-4,7- >h.txt &&
	cut -d" " -f1-4,7- fr.txt >s.txt &&
	test_cmp s.txt h.txt
'

test_expect_success 'every frame of the folded stacks is drawn, at its depth, with its weight' '
	awk "{ n = split(\$1, f, \";\"); p = \"\"; for (i = 1; i <= n; i++) { p = p \";\" f[i]; w[p] += \$NF; d[p] = i } }
	     END { for (k in w) print d[k], w[k] }" folded.txt | sort -n >want.txt &&
	awk "\$2 > 0 { print \$2, \$4 }" fr.txt | sort -n >got.txt &&
	test_cmp want.txt got.txt
'

test_expect_success '--weight period: frames sized by period' '
	"$SONDE" flamegraph -q -i "$CG" --weight period -o p.svg &&
	sum=$("$PERF" script -i "$CG" -F period 2>/dev/null | awk "{ s += \$1 } END { print s }") &&
	frames p.svg >pf.txt &&
	commas=$(printf "%s" "$sum" | rev | sed "s/\\([0-9]\\{3\\}\\)/\\1,/g; s/,$//" | rev) &&
	test_grep "^0 0 0 $sum .* all \\($commas period, 100.00%\\)$" pf.txt
'

test_expect_success '--inverted puts the root on top, --width and --title and --subtitle are honoured' '
	"$SONDE" flamegraph -q -i "$CG" --inverted --width 600 --title "My <title>" --subtitle sub -o inv.svg &&
	xml_ok inv.svg &&
	test_grep "<svg version=\"1.1\" id=\"fg\" width=\"600\"" inv.svg &&
	test_grep ">My &lt;title&gt;</text>" inv.svg &&
	test_grep ">sub</text>" inv.svg &&
	frames inv.svg >inv.txt &&
	root_y=$(awk "\$2 == 0 { print \$5 }" inv.txt) &&
	test "$(awk "{ print \$5 }" inv.txt | sort -n | head -1)" = "$root_y"
'

test_expect_success '--reverse: each stack leaf first' '
	"$SONDE" flamegraph --folded --reverse -i "$CG" >rev.txt &&
	awk "{ n = split(\$1, f, \";\"); s = f[n]; for (i = n - 1; i >= 1; i--) s = s \";\" f[i]; c[s] += \$2 }
	     END { for (k in c) print k, c[k] }" folded.txt | LC_ALL=C sort >rev.want &&
	test_cmp rev.want rev.txt
'

test_expect_success '--minwidth: narrower frames are not drawn' '
	"$SONDE" flamegraph -q -i "$CG" --minwidth 40 -o mw.svg &&
	n_all=$(grep -c "<g class=\"f\"" fg.svg) &&
	n_mw=$(grep -c "<g class=\"f\"" mw.svg) &&
	test "$n_mw" -lt "$n_all" &&
	! grep -o "<rect x=\"[^\"]*\" y=\"[^\"]*\" width=\"[^\"]*\"" mw.svg | sed "s/.*width=\"//; s/\"//" |
		awk "\$1 < 40 { bad = 1 } END { exit !bad }"
'

test_expect_success '--colors: palettes, and an unknown one refused' '
	"$SONDE" flamegraph -q -i "$CG" --colors mem -o mem.svg &&
	frames mem.svg | awk "\$2 > 0 { split(\$6, c, \",\"); if (c[2] < 200) bad = 1 } END { exit bad }" &&
	test_exit_code 129 "$SONDE" flamegraph -i "$CG" --colors nosuch -o x.svg
'

test_expect_success PERF,ROOT 'kernel and user frames told apart by colour' '
	"$PERF" record -q -o "$TRASH/k.data" -g -F 2000 -- "$W/cpuburn" 100 >/dev/null 2>&1 &&
	"$PERF" record -q -o "$TRASH/k2.data" -g -F 4000 -- dd if=/dev/zero of=/dev/null bs=64k count=30000 >/dev/null 2>&1 &&
	"$SONDE" flamegraph -q -i "$TRASH/k2.data" -o k.svg &&
	frames k.svg >k.txt &&
	# kind bits: 1 kernel, 2 user; kernel frames orange (no blue), user frames red
	awk "\$1 == 1 { split(\$6, c, \",\"); if (c[3] != 0) bad = 1; n++ } END { exit bad || !n }" k.txt &&
	awk "\$1 == 2 || \$1 == 18 { split(\$6, c, \",\"); if (c[3] < 50 || c[3] != c[2]) bad = 1; n++ } END { exit bad || !n }" k.txt
'

test_expect_success PERF,ROOT '--diff: both files folded, frames coloured by growth' '
	test -s "$TRASH/k.data" &&
	"$SONDE" flamegraph --folded --diff "$CG" "$TRASH/k.data" >d.txt &&
	"$SONDE" flamegraph --folded -i "$TRASH/k.data" >after.txt &&
	awk "NR == FNR { b[\$1] = \$2; next } { a[\$1] = \$2 }
	     END { for (k in b) print k, b[k], a[k] + 0; for (k in a) if (!(k in b)) print k, 0, a[k] }" \
		folded.txt after.txt | LC_ALL=C sort >d.want &&
	test_cmp d.want d.txt &&
	"$SONDE" flamegraph -q --diff "$CG" "$TRASH/k.data" -o d.svg &&
	xml_ok d.svg &&
	test_grep "Differential Flame Graph" d.svg &&
	frames d.svg >dfr.txt &&
	grep -q " 255,[0-9]*,[0-9]* cpuburn (.*; +[0-9]* from 0)" dfr.txt &&
	"$SONDE" flamegraph -q --diff "$TRASH/k.data" "$CG" -o d2.svg &&
	frames d2.svg >dfr2.txt &&
	nk=$(awk "{ s += \$NF } END { print s }" after.txt) &&
	if [ "$nk" -gt 63 ]; then
		grep -q "^0 0 0 63 [0-9.]* [0-9]*,[0-9]*,255 all (63 samples, 100.00%; -[0-9]* from $nk" dfr2.txt
	elif [ "$nk" -lt 63 ]; then
		grep -q "^0 0 0 63 [0-9.]* 255,[0-9]*,[0-9]* all (63 samples, 100.00%; +[0-9]* from $nk" dfr2.txt
	else
		grep -q "^0 0 0 63 [0-9.]* 250,250,250 all (63 samples, 100.00%; +0 from $nk" dfr2.txt
	fi &&
	! grep -q cpuburn dfr2.txt
'

test_expect_success 'usage errors: --diff needs two files, a bad --weight' '
	test_exit_code 129 "$SONDE" flamegraph --diff "$CG" &&
	test_must_fail "$SONDE" flamegraph -i "$CG" --weight bytes -o x.svg
'

CHROMIUM=$(command -v chromium || command -v chromium-browser || command -v google-chrome)
if [ -n "$CHROMIUM" ] && command -v python3 >/dev/null; then
	# expected share of a search: the samples whose stack has a matching frame
	matched() {
		awk -v re="$1" "{ n = split(\$1, f, \";\"); for (i = 1; i <= n; i++) if (f[i] ~ re) { s += \$NF; break } }
			END { print s + 0 }" folded.txt
	}
	# browser_checks KIND: open fg.KIND, click the first "[dash]", reset, search "str"
	browser_checks() {
		local kind=$1 depth
		python3 "$SONDE_ROOT/tests/shell/flame-browser.py" "$CHROMIUM" "fg.$kind" \
			"$ART/fg-$kind" "[dash]" "str" >b.txt || { cat b.txt; return 1; }
		cat b.txt
		depth=$(sed -n "s/^clicked_depth=//p" b.txt)
		test_grep "^script=object$" b.txt &&
		test_grep "^title=Flame Graph$" b.txt &&
		test_grep "^zoomed=\[dash\]$" b.txt &&
		test_grep "^zoomed_width=1180.0$" b.txt &&
		! grep -q "^hidden=0$" b.txt &&
		test_grep "^ancestors=$depth$" b.txt &&
		test_grep "^outside=0$" b.txt &&
		test_grep "^reset_visible=True$" b.txt &&
		test_grep "^after_reset_zoomed=$" b.txt &&
		test_grep "^after_reset_hidden=0$" b.txt &&
		test_grep "^matched_w=$(matched str)$" b.txt &&
		test_grep "^matched_text=Matched: [0-9.]*%$" b.txt &&
		test_grep "^hit_fill=rgb\(230,0,230\)$" b.txt &&
		test -s "$ART/fg-$kind-initial.png" && test -s "$ART/fg-$kind-search.png"
	}
	for kind in svg html; do
		test_expect_success "browser ($kind): click zooms, reset, search highlights with the matched share" "
			browser_checks $kind
		"
	done
	test_expect_success PERF,ROOT 'browser (diff): the differential graph zooms and searches too' '
		test -s d.svg &&
		python3 "$SONDE_ROOT/tests/shell/flame-browser.py" "$CHROMIUM" d.svg "$ART/diff" cpuburn leaf >bd.txt &&
		test_grep "^script=object$" bd.txt &&
		test_grep "^title=Differential Flame Graph$" bd.txt &&
		test_grep "^zoomed=cpuburn$" bd.txt &&
		test_grep "^matched_text=Matched: [0-9.]*%$" bd.txt &&
		test -s "$ART/diff-search.png"
	'
else
	test_skip 'browser (svg): click zooms, reset, search highlights with the matched share' \
		'chromium not installed (tools/install-deps.sh with WITH_TEST_DEPS=1 installs it)'
	test_skip 'browser (html): click zooms, reset, search highlights with the matched share' \
		'chromium not installed (tools/install-deps.sh with WITH_TEST_DEPS=1 installs it)'
	test_skip 'browser (diff): the differential graph zooms and searches too' \
		'chromium not installed (tools/install-deps.sh with WITH_TEST_DEPS=1 installs it)'
fi

test_done
