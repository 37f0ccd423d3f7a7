#!/bin/bash
# perf script goldens: outputs of perf 6.1 on fixture files (tests/golden/script/cases),
# stdout, stderr and exit status, kernel symbol names masked (tests/golden/script/norm.sh).
. "$(dirname "$0")/lib.sh"

G=$GOLDEN/script
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
		run="./perf script -i - $args <\"$f\""
	else
		run="./perf script -i \"$f\" $args </dev/null"
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

test_done
