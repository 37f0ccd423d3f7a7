#!/bin/bash
# SPDX-License-Identifier: MIT
# check: parallel (its own files and workloads, nothing timed, no system-wide recording)
# perf script goldens: outputs of perf 6.1 on fixture files (tests/golden/script/cases),
# stdout, stderr and exit status, kernel symbol names masked (tests/golden/script/norm.sh).
# DSOs are read only from the tree (--symfs=tests/fixtures/script/symfs, an empty
# HOME), as gen.sh ran perf: never this machine's libraries or build-id cache.
. "$(dirname "$0")/lib.sh"

G=$GOLDEN/script
SYMFS=$FIXTURES/script/symfs
export HOME=$TRASH/home
mkdir -p "$HOME"
# run as "perf" so that usage texts name the program as perf's do
ln -s "$SONDE" perf

while IFS=$'\t' read -r name fixture args; do
	case "$name" in '#'* | '') continue ;; esac
	f=$FIXTURES/${fixture#<}
	if [ ! -f "$f" ]; then
		test_skip "script golden $name" "fixture ${fixture#<} not present"
		continue
	fi
	if [ "${fixture#<}" != "$fixture" ]; then
		run="./perf script --symfs=\"$SYMFS\" -i - $args <\"$f\""
	else
		run="./perf script --symfs=\"$SYMFS\" -i \"$f\" $args </dev/null"
	fi
	test_expect_success "script golden $name: $args" "
		rc=0
		eval '$run' >out 2>err || rc=\$?
		test \"\$rc\" = \"\$(cat $G/$name.rc)\" || { echo \"exit \$rc, perf \$(cat $G/$name.rc)\"; false; }
		$G/norm.sh <out >out.norm
		test_cmp $G/$name.out out.norm
		test_cmp $G/$name.err err
	"
done <"$G/cases"

# the goldens name symbols only in DSOs the tree ships: no line depends on a
# file of the machine that made them
test_expect_success 'golden symbols come from files in the tree' '
	cat "$G"/*.out | grep -oE "[^ ]+ \(/[^)]+\)\$" | grep -v "^\[unknown\]" |
		sed -E "s/.* \((.*)\)\$/\1/" | sort -u >named &&
	test -s named &&
	while read -r p; do
		test -f "$SYMFS$p" || { echo "golden names a symbol of $p, not in $SYMFS"; exit 1; }
	done <named
'

test_done
