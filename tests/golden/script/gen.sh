#!/bin/bash
# SPDX-License-Identifier: MIT
# Regenerate the perf script goldens from the cases file with perf 6.1:
# NAME.out (stdout), NAME.err (stderr) and NAME.rc (exit status) per case.
# Kernel symbols are masked by norm.sh at compare time, so goldens survive
# a reboot (KASLR) of the machine that checks them.
# User symbols come only from the tree: perf reads the DSOs through
# --symfs=tests/fixtures/script/symfs (tools/gen-symfs.sh) with an empty HOME
# (no build-id cache), never this machine's own libraries or debug files.
set -e
PERF=${PERF:-/usr/bin/perf}
here=$(cd "$(dirname "$0")" && pwd)
fixtures=$(cd "$here/../../fixtures" && pwd)
symfs=$fixtures/script/symfs
HOME=$(mktemp -d)
export HOME
trap 'rm -rf "$HOME"' EXIT
cd "$here"
while IFS=$'\t' read -r name fixture args; do
	case "$name" in '#'* | '') continue ;; esac
	rc=0
	if [ "${fixture#<}" != "$fixture" ]; then
		eval "\"$PERF\" script --symfs=\"$symfs\" -i - $args" <"$fixtures/${fixture#<}" >"$name.out" 2>"$name.err" || rc=$?
	else
		eval "\"$PERF\" script --symfs=\"$symfs\" -i \"$fixtures/$fixture\" $args" >"$name.out" 2>"$name.err" </dev/null || rc=$?
	fi
	echo "$rc" >"$name.rc"
	"$here/norm.sh" <"$name.out" >"$name.out.tmp" && mv "$name.out.tmp" "$name.out"
done <cases
