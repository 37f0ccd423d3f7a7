#!/bin/bash
# SPDX-License-Identifier: MIT
# Regenerate tests/golden/*.txt: perf 6.1's outputs of the inspection
# commands on tests/fixtures/*.data (stdout, then stderr), normalised with
# tools/normalize.sh,
# and tests/golden/status: "NAME EXIT-STATUS" of each case.
# The commands run in a scratch directory on a copy named like the fixture,
# with an empty HOME, exactly as tests/shell/t4000-perf-data-golden.sh runs sonde.
set -e
PERF=${PERF:-/usr/bin/perf}
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/tests/golden/cases.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/home"
export HOME=$tmp/home
cd "$tmp"
golden_cases | while read -r fixture name args; do
	cp "$root/tests/fixtures/$fixture" .
	rc=0
	eval "$PERF $args" >out 2>err || rc=$?
	cat out err | "$root/tools/normalize.sh" >"$root/tests/golden/$name.txt"
	echo "$name $rc"
done >"$root/tests/golden/status"
ls "$root/tests/golden" | wc -l
