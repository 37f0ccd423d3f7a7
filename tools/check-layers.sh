#!/bin/bash
# SPDX-License-Identifier: MIT
# Layer check: dependencies may only point down the layer order
#   lib -> core, trace, symbol -> data -> session -> ui -> cmd -> main.c
# core, trace and symbol are peers over lib; the one edge between them is
# core -> trace (event parsing resolves tracepoints through tracefs).
# Checked: #include lines, the spelling of includes (src/ and tests/), who
# writes to stdout and stderr, who exits, where option tables live, the
# symbols the built objects ($O/src/<layer>/*.o, O=build by default)
# reference, SPDX headers and file sizes. Prints TAP; exits 1 on a failure.
# Known violations waiting for a restructuring are listed in
# tools/layers-allow.txt (rule, file, count): a file may keep at most that
# many hits of the rule, so new violations still fail.
cd "$(dirname "$0")/.." || exit 2
O=${O:-build}
ALLOW=tools/layers-allow.txt
n=0 failed=0
shopt -s nullglob

declare -A RANK=([lib]=0 [core]=1 [trace]=1 [symbol]=1 [data]=2 [session]=3 [ui]=4 [cmd]=5 [main]=6)
# layer_of FILE: sets $layer to the layer of src/LAYER/x.c, "main" for src/x.c
layer_of() {
	case "$1" in
	src/*/*) layer=${1#src/} layer=${layer%%/*} ;;
	src/*) layer=main ;;
	*) layer=none ;;
	esac
}
# may_use LAYER DEP: true when LAYER may depend on DEP (a lower layer, itself,
# or the core -> trace edge); names that are no layer are not checked
may_use() {
	[ "$1" = "$2" ] && return 0
	[ -z "${RANK[$1]}" ] || [ -z "${RANK[$2]}" ] && return 0
	[ "${RANK[$2]}" -lt "${RANK[$1]}" ] && return 0
	[ "$1" = core ] && [ "$2" = trace ] && return 0
	return 1
}
# report RESULT-OF-TEST DESCRIPTION: TAP line; the diagnostics come before it
report() {
	n=$((n + 1))
	if [ "${1:-0}" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=1; fi
}
# allowed RULE FILE: the number of hits tools/layers-allow.txt grants FILE for RULE
allowed() {
	[ -f "$ALLOW" ] || { echo 0; return; }
	awk -v r="$1" -v f="$2" '$1 == r && $2 == f { print $3; found = 1 } END { if (!found) print 0 }' \
		"$ALLOW" | head -1
}
# check_hits RULE WHAT HITS: HITS are "file:line:text" lines; each file may have
# as many as the allowlist grants. Prints the diagnostics, returns 1 on a violation.
check_hits() {
	local rule=$1 what=$2 hits=$3 f c a bad=0
	# allowlist entries for files without hits any more are stale
	if [ -f "$ALLOW" ]; then
		while read -r f a; do
			c=$(printf '%s\n' "$hits" | grep -c "^$f:")
			if [ "$c" -lt "$a" ]; then
				echo "# $f: $c $what, but $ALLOW allows $a for rule '$rule': lower it (or drop the line) so that new ones fail"
				bad=1
			fi
		done < <(awk -v r="$rule" '$1 == r { print $2, $3 }' "$ALLOW")
	fi
	[ -z "$hits" ] && return $bad
	while read -r f; do
		c=$(printf '%s\n' "$hits" | grep -c "^$f:")
		a=$(allowed "$rule" "$f")
		[ "$c" -le "$a" ] && continue
		printf '%s\n' "$hits" | grep "^$f:" | sed "s/^/# /"
		if [ "$a" = 0 ]; then
			echo "# $f: $c $what (rule '$rule')"
		else
			echo "# $f: $c $what, only $a allowed by $ALLOW (rule '$rule'): a new one was added"
		fi
		bad=1
	done < <(printf '%s\n' "$hits" | cut -d: -f1 | sort -u)
	return $bad
}
# code_grep ERE FILES...: matching lines as file:line:text, comment lines dropped
code_grep() {
	local re=$1
	shift
	[ $# = 0 ] && return
	grep -nE "$re" "$@" /dev/null | grep -vE '^[^:]+:[0-9]+:[[:space:]]*(/?\*|//)'
}

SRC=(src/*.c src/*.h src/*/*.c src/*/*.h)
BELOW_UI=(src/lib/*.c src/core/*.c src/trace/*.c src/symbol/*.c src/data/*.c src/session/*.c)
BELOW_CMD=("${BELOW_UI[@]}" src/ui/*.c)
TESTS=(tests/*/*.c tests/*/*.h)

# every #include line of src/ and tests/, as "file:line:text", read once
INCLUDES=$(grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*["<]' "${SRC[@]}" "${TESTS[@]}" /dev/null)

# 1. includes point down the layers; a *-internal.h header stays in its directory
bad=0
while IFS=: read -r f _ text; do
	[[ $f == src/* ]] || continue
	[[ $text =~ \"([^\"]*)\" ]] || continue
	inc=${BASH_REMATCH[1]}
	dep=${inc%%/*}
	[ "$dep" = "$inc" ] && continue # spelling is rule 2's
	layer_of "$f"
	if ! may_use "$layer" "$dep"; then
		echo "# $f includes \"$inc\": $layer may not depend on $dep (upward include)"
		bad=1
	fi
	if [[ $inc == *-internal.h ]] && [ "${inc%/*}" != "$(d=${f#src/}; echo "${d%/*}")" ]; then
		echo "# $f includes \"$inc\": an -internal.h header is private to src/${inc%/*}/"
		bad=1
	fi
done <<<"$INCLUDES"
report $bad "layer dependencies point one way (includes)"

# 2. includes are spelled from src/ (the one -I of the Makefile): "lib/util.h",
#    never "../lib/util.h" or a bare "util.h"; tests may include a header next to them
bad=0
while IFS=: read -r f _ text; do
	[ -n "$f" ] || continue
	dir=${f%/*}
	if [[ $text =~ \<((lib|core|trace|symbol|data|session|ui|cmd)/[^\>]*)\> ]]; then
		echo "# $f includes <${BASH_REMATCH[1]}>: project headers take quotes, \"${BASH_REMATCH[1]}\""
		bad=1
		continue
	fi
	[[ $text =~ \"([^\"]*)\" ]] || continue
	inc=${BASH_REMATCH[1]}
	case "$inc" in
	../* | */../* | ./*)
		echo "# $f includes \"$inc\": no relative paths, spell it from src/ (-Isrc)"
		bad=1
		continue ;;
	esac
	[ -f "src/$inc" ] && continue
	[[ $f == tests/* ]] && [ -f "$dir/$inc" ] && continue
	if [ -f "$dir/$inc" ]; then
		echo "# $f includes \"$inc\": spell it \"${dir#src/}/$inc\" (includes are written from src/, -Isrc)"
	else
		echo "# $f includes \"$inc\": no such header under src/ (includes are written from src/, -Isrc)"
	fi
	bad=1
done <<<"$INCLUDES"
report $bad "includes are spelled from src/ (src/ and tests/)"

# 3. nothing below ui/ writes to stdout
hits=$(code_grep '\b(printf|vprintf|puts|putchar)\(|\bv?fprintf\(stdout\b|\b(fputs|fputc|putc|fwrite)\([^;]*\bstdout\)|\bdprintf\((1|STDOUT_FILENO),|\bwrite\((1|STDOUT_FILENO),' \
	"${BELOW_UI[@]}")
check_hits stdout "stdout writes below ui/" "$hits"
report $? "only cmd/ and ui/ write to stdout"

# 4. nothing below ui/ writes to stderr. Sanctioned: lib/debug.c (pr_debug, and
#    the pr_err/pr_warning helpers themselves) and lib/xalloc.c (die()).
#    Below ui/ only pr_debug/pr_debug2 may be called (verbose output).
hits=$(code_grep '\bv?fprintf\(stderr\b|\b(fputs|fputc|putc|fwrite)\([^;]*\bstderr\)|\b(perror|psignal|error|error_at_line|warn|warnx|vwarn|vwarnx|err|errx|verr|verrx|pr_err|pr_warning)\(|\bdprintf\((2|STDERR_FILENO),|\bwrite\((2|STDERR_FILENO),' \
	"${BELOW_UI[@]}" | grep -v '^src/lib/debug\.c:' | grep -vE '^src/lib/xalloc\.c:[0-9]+:.*(stderr)')
check_hits stderr "stderr writes below ui/" "$hits"
report $? "only cmd/ and ui/ write to stderr (below: pr_debug and die() only)"

# 5. nothing below cmd/ ends the process or picks its exit code. Sanctioned:
#    die() in lib/xalloc.c, and _exit() in the forked workload child (core/evlist-open.c).
hits=$(code_grep '\b(exit|_Exit|abort|quick_exit)\(|\breturn (129|255);' "${BELOW_CMD[@]}" |
	grep -vE '^src/lib/xalloc\.c:[0-9]+:[[:space:]]*exit\(255\);')
hits=$(printf '%s\n' "$hits" "$(code_grep '\b_exit\(' "${BELOW_CMD[@]}" | grep -v '^src/core/evlist-open\.c:')" | sed '/^$/d')
check_hits exit "exits or exit codes below cmd/" "$hits"
report $? "only cmd/ exits and picks exit codes (below: return 0 or -errno)"

# 6. option tables live in cmd/
hits=$(code_grep '\bSPEC_[A-Z_]+\(|\bstruct opt_spec [A-Za-z_0-9]+\[\]' "${BELOW_CMD[@]}" src/*/*.h |
	grep -vE '^src/(lib/optspec\.[ch]|cmd/options\.h):')
check_hits options "option table entries outside cmd/" "$hits"
report $? "option tables live in cmd/"

# 7. no object references a symbol defined in an upper layer (whatever the headers say)
objs=()
for f in src/*.c src/*/*.c; do
	[ -f "$O/${f%.c}.o" ] && objs+=("$O/${f%.c}.o")
done
nsrc=$(printf '%s\n' src/*.c src/*/*.c | wc -l)
skip=""
command -v nm >/dev/null || skip="nm is not installed"
[ ${#objs[@]} = 0 ] && skip="no objects in $O/src (build first)"
if [ -n "$skip" ]; then
	n=$((n + 1))
	echo "ok $n - objects reference symbols of their own layer or below # SKIP $skip"
else
	bad=0
	if [ ${#objs[@]} != "$nsrc" ]; then
		for f in src/*.c src/*/*.c; do
			[ -f "$O/${f%.c}.o" ] || echo "# $f: no object $O/${f%.c}.o (incomplete build)"
		done
		bad=1
	fi
	declare -A def
	# "obj:addr T sym" -> def[sym]=source file
	while IFS=: read -r o rest; do
		sym=${rest##* }
		[ -n "${def[$sym]}" ] || def[$sym]=${o#"$O"/}
	done < <(nm -A -g --defined-only "${objs[@]}" 2>/dev/null)
	while IFS=: read -r o rest; do
		sym=${rest##* }
		d=${def[$sym]}
		[ -n "$d" ] || continue
		f=${o#"$O"/}
		f=${f%.o}.c d=${d%.o}.c
		layer_of "$d"
		dl=$layer
		layer_of "$f"
		if ! may_use "$layer" "$dl"; then
			echo "# $f references $sym, defined in $d: $layer may not depend on $dl (upward symbol)"
			bad=1
		fi
	done < <(nm -A -u "${objs[@]}" 2>/dev/null)
	report $bad "objects reference symbols of their own layer or below"
fi

# 8. every source file opens with the SPDX licence line, then a one-line purpose comment
#    (read by the shell: a process or two per file made this the check's slowest part)
missing=$(for f in src/*.c src/*.h src/*/*.c src/*/*.h; do
	l1='' l2=''
	{ IFS= read -r l1; IFS= read -r l2; } <"$f"
	[ "$l1" = '/* SPDX-License-Identifier: MIT */' ] || echo "$f: no SPDX line first"
	[[ $l2 == '/*'* ]] || echo "$f: no purpose comment on line 2"
done)
[ -n "$missing" ] && echo "$missing" | sed 's/^/# /'
report "${missing:+1}" "every source file opens with its SPDX line and a purpose comment"

# 9. file size limits: ~1500 lines for modules, ~600 for commands (hard stop at 1.3x)
big=$(wc -l src/*/*.c | while read -r l f; do case "$f" in src/*/*.c) ;; *) continue ;; esac
	case "$f" in src/cmd/*) max=800 ;; *) max=1950 ;; esac; [ "$l" -gt $max ] && echo "$f: $l lines"; done)
[ -n "$big" ] && echo "$big" | sed 's/^/# /'
report "${big:+1}" "files stay within size limits"
echo "1..$n"
exit $failed
