#!/bin/bash
# SPDX-License-Identifier: MIT
# Fill tests/fixtures/script/symfs (the --symfs tree of the script goldens) from this machine.
# For every DSO in which perf script names a symbol in a fixture of tests/golden/script/cases,
# a compact copy (tools/elf-compact.py: symbols, PLT, notes; no code) of the file
# and of its debug file (/usr/lib/debug/.build-id/xx/yyyy.debug). Run it right
# after tests/fixtures/script/gen.sh, on the machine that recorded the fixtures:
# a file whose build-id differs from the recorded one is left out (a warning
# says so), and perf then prints [unknown] for it on every machine.
set -e
PERF=${PERF:-/usr/bin/perf}
root=$(cd "$(dirname "$0")/.." && pwd)
fx=$root/tests/fixtures
out=$fx/script/symfs
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp
rm -rf "$out"
mkdir -p "$out"
buildid() { readelf -n "$1" 2>/dev/null | sed -n 's/^ *Build ID: //p' | head -1; }
grep -v '^#' "$root/tests/golden/script/cases" | cut -f2 | sort -u | while read -r f; do
	[ -n "$f" ] || continue
	if [ "${f#<}" != "$f" ]; then
		"$PERF" script -i - <"$fx/${f#<}" 2>/dev/null || true
	else
		"$PERF" script -i "$fx/$f" 2>/dev/null
		"$PERF" buildid-list -i "$fx/$f" 2>/dev/null | grep '^[0-9a-f]\{40\} /' >>"$tmp/recorded" || true
	fi
done | grep -oE '[^ ]+ \(/[^)]+\)$' | grep -v '^\[unknown\]' | sed -E 's/.* \((.*)\)$/\1/' | sort -u >"$tmp/dsos"
touch "$tmp/recorded"
while read -r p; do
	if [ ! -f "$p" ]; then
		echo "gen-symfs: $p is not on this machine: left out" >&2
		continue
	fi
	bid=$(buildid "$p")
	want=$(awk -v p="$p" '$2 == p { print $1 }' "$tmp/recorded" | sort -u)
	for w in $want; do
		if [ "$w" != "$bid" ]; then
			echo "gen-symfs: $p has build-id $bid, a fixture recorded $w: left out" >&2
			continue 2
		fi
	done
	mkdir -p "$out$(dirname "$p")"
	"$root/tools/elf-compact.py" "$p" "$out$p"
	dbg=/usr/lib/debug/.build-id/${bid:0:2}/${bid:2}.debug
	if [ -n "$bid" ] && [ -f "$dbg" ]; then
		mkdir -p "$out$(dirname "$dbg")"
		"$root/tools/elf-compact.py" "$dbg" "$out$dbg"
	fi
done <"$tmp/dsos"
du -sh "$out"
