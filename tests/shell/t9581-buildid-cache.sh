#!/bin/bash
# SPDX-License-Identifier: MIT
# perf buildid-cache vs sonde buildid-cache, each with its own scratch HOME: add, list,
# remove, purge, purge-all, update, missing (-M) and kcore (-k); the messages (-v too),
# exit statuses and the cache trees they leave must be the same.
. "$(dirname "$0")/lib.sh"

unset PERF_BUILDID_DIR
W=$SONDE_WORKLOADS

# both ARGS...: run perf buildid-cache in HOME=hp and sonde's in HOME=hs; same stdout,
# stderr (the HOME masked), exit status and cache tree
both() {
	local t prog rc
	for t in p s; do
		prog=$PERF && [ $t = s ] && prog=$SONDE
		rc=0
		HOME="$TRASH/h$t" "$prog" buildid-cache "$@" >"out.$t" 2>"err.$t" </dev/null || rc=$?
		echo "$rc" >"rc.$t"
		sed -i -e "s|$TRASH/h$t|HOME|g" -e "s/^ Usage: perf / Usage: sonde /" "out.$t" "err.$t"
		(cd "$TRASH/h$t" && find .debug 2>/dev/null | LC_ALL=C sort) >"tree.$t"
	done
	test_cmp rc.p rc.s && test_cmp out.p out.s && test_cmp err.p err.s && test_cmp tree.p tree.s ||
		{ echo "differs: buildid-cache $*"; return 1; }
}

fresh() {
	rm -rf "$TRASH/hp" "$TRASH/hs" && mkdir -p "$TRASH/hp" "$TRASH/hs"
}

test_expect_success PERF 'add, list, remove; lists sorted, the last -a wins' '
	fresh && cp /bin/true bin1 && cp "$W/rptmix" bin2 &&
	both -v -a bin1,"$W/rptmix" && test_grep "^Adding [0-9a-f]{40} bin1: Ok" err.s &&
	both -l && test "$(wc -l <out.s)" = 2 &&
	both -v -a bin1,bin2,bin1 &&
	both -v -a bin2 -a bin1 &&
	both -v -r bin1 && test_grep "^Removing [0-9a-f]{40} bin1: Ok" err.s &&
	both -v -r bin1 && test_grep "bin1 wasn.t in the cache" err.s &&
	both -l -a bin1 && test "$(cat rc.s)" = 129 && test_grep "Error: -l is exclusive" err.s
'

test_expect_success PERF 'purge: every build-id cached for a path, stale ones too; -l shows the valid only' '
	fresh && cp /bin/true bin1 &&
	both -a bin1 && cp /bin/false bin1 && both -a bin1 &&
	both -l && test "$(wc -l <out.s)" = 1 &&
	both -v -p bin1 && test "$(grep -c "^Removing" err.s)" = 2 && test_grep "^Purging bin1: Ok" err.s &&
	both -v -p bin1 &&
	both -v -p /nonexistent && test_grep "^Purging /nonexistent: FAIL" err.s &&
	both -p /nonexistent
'

test_expect_success PERF 'update: the entry made anew, or added; an unreadable file' '
	fresh && cp /bin/true bin1 &&
	both -v -u bin1 && test_grep "^Updating [0-9a-f]{40} bin1: Ok" err.s &&
	both -v -u bin1 && cp /bin/false bin1 && both -v -u bin1 && both -l &&
	both -v -u /nonexistent && test_grep "Couldn.t read a build-id in /nonexistent" err.s &&
	both -v -a bin1 -r bin1 -p bin1 -u bin1
'

test_expect_success PERF 'missing: build-ids of a perf.data without a cached file; purge-all' '
	fresh &&
	HOME="$TRASH/hp" "$PERF" record -q -o r.data -- "$W/rptmix" >/dev/null 2>&1 &&
	"$PERF" record -q -N -o n.data -- "$W/rptmix" >/dev/null 2>&1 &&
	rm -rf "$TRASH/hs" && cp -a "$TRASH/hp" "$TRASH/hs" &&
	both -M n.data && both -l &&
	both -v -p "$W/rptmix" && both -M n.data && test_grep "rptmix$" out.s &&
	both -v -P && test_grep "^Purged all: Ok" err.s && test_grep "^Removing \[kernel.kallsyms\] \(" err.s &&
	both -M n.data && test "$(wc -l <out.s)" -ge 2 &&
	both -M "$TRASH/nonexistent.data" -a /bin/true && test "$(cat rc.s)" = 255
'

# record's own cache step: the vdso image goes in as perf's record puts it,
# so that perf report on a fresh machine names the vdso's functions
test_expect_success PERF 'record in a fresh HOME: the [vdso] entry is perf record'"'"'s; perf report resolves it' '
	rm -rf "$TRASH/hr" "$TRASH/hq" && mkdir "$TRASH/hr" "$TRASH/hq" &&
	HOME="$TRASH/hr" "$SONDE" record -q -c 100000 -o v.data -- "$W/rptmix" 200 >/dev/null 2>&1 &&
	HOME="$TRASH/hq" "$PERF" record -q -c 100000 -o pv.data -- "$W/rptmix" 200 >/dev/null 2>&1 &&
	(cd "$TRASH/hr/.debug" && find "[vdso]" -printf "%p %s %m\n" | sort) >tree.s &&
	(cd "$TRASH/hq/.debug" && find "[vdso]" -printf "%p %s %m\n" | sort) >tree.p &&
	test_grep "/vdso [0-9]+ 600$" tree.p &&
	test_cmp tree.p tree.s &&
	bid=$(ls "$TRASH/hr/.debug/[vdso]") &&
	test "$(readlink "$TRASH/hr/.debug/.build-id/${bid:0:2}/${bid:2}")" = "../../[vdso]/$bid" &&
	HOME="$TRASH/hr" "$PERF" report -i v.data --stdio --sort dso,sym --dsos "[vdso]" >rep.out 2>/dev/null &&
	test_grep "\[\.\] __vdso_clock_gettime" rep.out
'

test_expect_success PERF 'kcore: perf'"'"'s message where it cannot be added' '
	fresh &&
	both -k /nonexistent && test_grep "^Couldn.t add /nonexistent" err.s &&
	both -k relative/kcore && test_grep "^Couldn.t add relative/kcore" err.s &&
	both -k /kcore && both -k "$TRASH/root/proc/notkcore" &&
	# a root of our own: the kernel notes, kallsyms and modules, no kcore: perf makes the cache
	# directory, then fails on the missing kcore
	mkdir -p root/proc root/sys/kernel && cp /sys/kernel/notes root/sys/kernel/notes &&
	head -100 /proc/kallsyms >root/proc/kallsyms && : >root/proc/modules &&
	both -v -k "$TRASH/root/proc/kcore" && test_grep "^\.debug$" tree.s &&
	if ! test -r /proc/kcore || ! test -e /proc/modules; then
		both -v -k /proc/kcore && test_grep "^Couldn.t add /proc/kcore" err.s
	else
		echo "# this kernel has /proc/kcore and /proc/modules: perf copies kcore, sonde does not yet"
	fi
'

test_done
