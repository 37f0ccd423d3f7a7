#!/bin/bash
# SPDX-License-Identifier: MIT
# Layer check: includes may only point down the layer order
#   lib -> core, trace, symbol -> data -> session -> ui -> cmd
# core, trace and symbol are peers over lib; the one edge between them is
# core -> trace (event parsing resolves tracepoints through tracefs). Prints TAP.
cd "$(dirname "$0")/.." || exit 2
rank() {
	case "$1" in
	lib) echo 0 ;; core | trace | symbol) echo 1 ;; data) echo 2 ;;
	session) echo 3 ;; ui) echo 4 ;; cmd) echo 5 ;; main) echo 6 ;; *) echo 9 ;;
	esac
}
n=0 bad=0
for f in src/*/*.c src/*/*.h; do
	[ -e "$f" ] || continue
	layer=$(basename "$(dirname "$f")")
	r=$(rank "$layer")
	while IFS= read -r inc; do
		dep=${inc%%/*}
		[ "$dep" = "$inc" ] && continue # same-directory include
		dr=$(rank "$dep")
		[ "$dr" = 9 ] && continue
		# peers: only core -> trace
		if [ "$dr" -gt "$r" ] || { [ "$dr" = "$r" ] && [ "$dep" != "$layer" ] &&
			! { [ "$layer" = core ] && [ "$dep" = trace ]; }; }; then
			echo "# $f includes $inc: $layer may not depend on $dep"
			bad=$((bad + 1))
		fi
	done < <(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f")
done
# builtin.h and main.c sit at the top
n=$((n + 1))
if [ $bad = 0 ]; then echo "ok $n - layer dependencies point one way"; else echo "not ok $n - layer dependencies point one way ($bad violations)"; fi
# nothing below cmd/ and ui/ writes to stdout
n=$((n + 1))
hits=$(grep -nE '\b(printf|puts|putchar)\(|fprintf\(stdout|fputs\([^;]*stdout' src/lib/*.c src/core/*.c src/trace/*.c src/symbol/*.c src/data/*.c src/session/*.c 2>/dev/null | grep -v 'snprintf\|asprintf' )
if [ -z "$hits" ]; then echo "ok $n - only cmd/ and ui/ write to stdout"; else echo "$hits" | sed 's/^/# /'; echo "not ok $n - only cmd/ and ui/ write to stdout"; fi
# every source file opens with the SPDX licence line, then a one-line purpose comment
n=$((n + 1))
missing=$(for f in src/*.c src/*.h src/*/*.c src/*/*.h; do
	head -1 "$f" | grep -qx '/\* SPDX-License-Identifier: MIT \*/' || echo "$f: no SPDX line first"
	sed -n 2p "$f" | grep -q '^/\*' || echo "$f: no purpose comment on line 2"
done)
if [ -z "$missing" ]; then echo "ok $n - every source file opens with its SPDX line and a purpose comment"; else echo "$missing" | sed 's/^/# /'; echo "not ok $n - every source file opens with its SPDX line and a purpose comment"; fi
# file size limits: ~1500 lines for modules, ~600 for commands (hard stop at 1.3x)
n=$((n + 1))
big=$(for f in src/*/*.c; do l=$(wc -l <"$f"); case "$f" in src/cmd/*) max=800 ;; *) max=1950 ;; esac; [ "$l" -gt $max ] && echo "$f: $l lines"; done)
if [ -z "$big" ]; then echo "ok $n - files stay within size limits"; else echo "$big" | sed 's/^/# /'; echo "not ok $n - files stay within size limits"; fi
echo "1..$n"
