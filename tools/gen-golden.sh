#!/bin/bash
# Regenerate tests/golden/*.txt: perf 6.1's outputs of the inspection
# commands on tests/fixtures/*.data, normalised with tools/normalize.sh.
# The commands run in a scratch directory on a copy named like the fixture,
# exactly as tests/shell/t4000-perf-data-golden.sh runs sonde.
set -e
PERF=${PERF:-/usr/bin/perf}
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/tests/golden/cases.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
golden_cases | while read -r fixture name args; do
	cp "$root/tests/fixtures/$fixture" .
	eval "$PERF $args" 2>&1 | "$root/tools/normalize.sh" >"$root/tests/golden/$name.txt" || true
done
ls "$root/tests/golden" | wc -l
