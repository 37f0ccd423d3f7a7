#!/bin/bash
# Regenerate the perf script goldens from the cases file with perf 6.1:
# NAME.out (stdout), NAME.err (stderr) and NAME.rc (exit status) per case.
# Kernel symbols are masked by norm.sh at compare time, so goldens survive
# a reboot (KASLR) of the machine that checks them.
set -e
PERF=${PERF:-/usr/bin/perf}
here=$(cd "$(dirname "$0")" && pwd)
fixtures=$here/../../fixtures
cd "$here"
while IFS=$'\t' read -r name fixture args; do
	case "$name" in '#'* | '') continue ;; esac
	rc=0
	if [ "${fixture#<}" != "$fixture" ]; then
		eval "\"$PERF\" script -i - $args" <"$fixtures/${fixture#<}" >"$name.out" 2>"$name.err" || rc=$?
	else
		eval "\"$PERF\" script -i \"$fixtures/$fixture\" $args" >"$name.out" 2>"$name.err" </dev/null || rc=$?
	fi
	echo "$rc" >"$name.rc"
	"$here/norm.sh" <"$name.out" >"$name.out.tmp" && mv "$name.out.tmp" "$name.out"
done <cases
