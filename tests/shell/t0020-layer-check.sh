#!/bin/bash
# SPDX-License-Identifier: MIT
# check: parallel (a copy of the tree of its own)
# tools/check-layers.sh itself: a copy of the tree passes, and each planted violation fails, named.
# check: normal pass only
. "$(dirname "$0")/lib.sh"

# the copy: sources, tests, the check and its allowlist, the built objects
BASE=$TRASH/base
mkdir -p "$BASE/tools" "$BASE/tests" "$BASE/build" &&
	cp -r "$SONDE_ROOT/src" "$BASE/" &&
	cp -r "$SONDE_ROOT/tests/unit" "$SONDE_ROOT/tests/fuzz" "$BASE/tests/" &&
	cp "$SONDE_ROOT/tools/check-layers.sh" "$SONDE_ROOT/tools/layers-allow.txt" "$BASE/tools/" &&
	(cd "$SONDE_BUILD" && find src -name '*.o' -exec cp --parents -t "$BASE/build/" {} +) ||
	{ echo "Bail out! could not copy the tree to $BASE"; exit 1; }

# fresh: a pristine copy of the tree in ./tree (objects hard-linked: tests only add or remove them)
fresh() {
	rm -rf tree && mkdir tree &&
	cp -a "$BASE/src" "$BASE/tests" "$BASE/tools" tree/ &&
	cp -al "$BASE/build" tree/build
}
# check: run the copy's check; its output in ./out
check() {
	O=build bash tree/tools/check-layers.sh >out 2>&1
}
# fails_with 'not ok line' 'diagnostic' : the check fails, with both lines in its output
fails_with() {
	test_must_fail check &&
	test_grep "$1" out &&
	test_grep "$2" out
}
# append FILE TEXT: add a line at the end of FILE in the copy
append() {
	printf '%s\n' "$2" >>"tree/$1"
}

test_expect_success 'the clean tree passes every rule' '
	fresh &&
	check &&
	test_grep "^1\.\.9$" out &&
	! grep "^not ok" out &&
	test "$(grep -c "^ok " out)" = 9
'

test_expect_success 'an upward include fails, named with its file and layers' '
	fresh &&
	sed -i "0,/^#include/s||#include \"session/session.h\"\n#include|" tree/src/lib/util.c &&
	fails_with "^not ok 1 - layer dependencies point one way" \
		"src/lib/util.c includes \"session/session.h\": lib may not depend on session \(upward include\)"
'

test_expect_success 'an include between peers fails (symbol -> core); core -> trace is allowed' '
	fresh &&
	append src/symbol/symtab.c "#include \"core/evsel.h\"" &&
	append src/core/evsel.c "#include \"trace/tracefs.h\"" &&
	fails_with "^not ok 1 - " "src/symbol/symtab.c includes \"core/evsel.h\": symbol may not depend on core" &&
	! grep "src/core/evsel.c" out
'

test_expect_success 'a private -internal.h header included from another directory fails' '
	fresh &&
	append src/session/session.c "#include \"data/reader-internal.h\"" &&
	fails_with "^not ok 1 - " "src/session/session.c includes \"data/reader-internal.h\": an -internal.h header is private to src/data/"
'

test_expect_success 'a bare header name fails, with the spelling from src/' '
	fresh &&
	append src/core/counts.c "#include \"evsel.h\"" &&
	fails_with "^not ok 2 - includes are spelled from src/" \
		"src/core/counts.c includes \"evsel.h\": spell it \"core/evsel.h\""
'

test_expect_success 'a ../ include fails, in src/ and in tests/' '
	fresh &&
	append src/ui/stats.c "#include \"../lib/util.h\"" &&
	append tests/unit/test-lib.c "#include \"../../src/lib/util.h\"" &&
	fails_with "^not ok 2 - " "src/ui/stats.c includes \"../lib/util.h\": no relative paths" &&
	test_grep "tests/unit/test-lib.c includes \"../../src/lib/util.h\": no relative paths" out
'

test_expect_success 'tests: a header that exists nowhere under src/ fails; test.h next to the test passes' '
	fresh &&
	append tests/unit/test-cpumap.c "#include \"cpumap.h\"" &&
	fails_with "^not ok 2 - " "tests/unit/test-cpumap.c includes \"cpumap.h\": no such header under src/" &&
	! grep "\"test.h\"" out
'

test_expect_success 'stdout and stderr writes below ui/ fail; pr_debug passes' '
	fresh &&
	append src/session/report.c "static void planted(void) { fprintf(stderr, \"x\"); perror(\"y\"); }" &&
	append src/data/writer.c "static void planted(void) { pr_err(\"x\"); pr_debug(\"y\"); }" &&
	append src/trace/tep.c "static void planted(void) { fputs(\"x\", stdout); }" &&
	fails_with "^not ok 4 - only cmd/ and ui/ write to stderr" \
		"src/session/report.c: 1 stderr writes below ui/ \(rule .stderr.\)" &&
	test_grep "src/data/writer.c: 1 stderr writes below ui/" out &&
	test_grep "^not ok 3 - only cmd/ and ui/ write to stdout" out &&
	test_grep "src/trace/tep.c: 1 stdout writes below ui/" out
'

test_expect_success 'the sanctioned writers (lib/debug.c, die()) pass' '
	fresh &&
	append src/lib/debug.c "static void planted(void) { fprintf(stderr, \"x\"); }" &&
	check
'

test_expect_success 'exit() and exit codes below cmd/ fail' '
	fresh &&
	append src/session/machine.c "static void planted(void) { exit(1); }" &&
	append src/ui/list.c "static int planted(void) { return 129; }" &&
	fails_with "^not ok 5 - only cmd/ exits" "src/session/machine.c: 1 exits or exit codes below cmd/" &&
	test_grep "src/ui/list.c: 1 exits or exit codes below cmd/" out
'

test_expect_success 'an allowlisted file fails on one more violation, and asks to lower a stale count' '
	fresh &&
	echo "exit       src/session/machine.c         1" >>tree/tools/layers-allow.txt &&
	append src/session/machine.c "static void planted(void) { exit(1); }" &&
	check &&
	append src/session/machine.c "static void planted2(void) { exit(2); }" &&
	fails_with "^not ok 5 - " "src/session/machine.c: 2 exits or exit codes below cmd/, only 1 allowed by tools/layers-allow.txt" &&
	sed -i "s/^exit       src\/session\/machine.c         1/exit src\/session\/machine.c 3/" tree/tools/layers-allow.txt &&
	grep -q "machine.c 3" tree/tools/layers-allow.txt &&
	fails_with "^not ok 5 - " "src/session/machine.c: 2 exits or exit codes below cmd/, but tools/layers-allow.txt allows 3 .*: lower it"
'

test_expect_success 'an option table below cmd/ fails' '
	fresh &&
	append src/ui/stats.c "static const struct opt_spec planted[] = { SPEC_END() };" &&
	fails_with "^not ok 6 - option tables live in cmd/" "src/ui/stats.c: 1 option table entries outside cmd/"
'

# the symbol rule: planted objects reference upper-layer symbols with no include
if ! command -v nm >/dev/null || ! command -v cc >/dev/null; then
	test_skip 'the symbol rule' 'nm or cc is not installed'
	test_done
	exit 0
fi
plant_object() { # plant_object src/LAYER/NAME.c 'C text'
	printf '%s\n' "/* SPDX-License-Identifier: MIT */" "/* planted by t0020 */" "$2" >"tree/$1" &&
	cc -c -o "tree/build/${1%.c}.o" "tree/$1"
}

test_expect_success 'an upward symbol reference fails, whatever the headers say' '
	fresh &&
	plant_object src/data/zz-planted.c "int cmd_report(int argc, const char **argv); int planted(void) { return cmd_report(0, 0); }" &&
	fails_with "^not ok 7 - objects reference symbols of their own layer or below" \
		"src/data/zz-planted.c references cmd_report, defined in src/cmd/report.c: data may not depend on cmd \(upward symbol\)" &&
	test_grep "^ok 1 - layer dependencies point one way \(includes\)" out
'

test_expect_success 'a symbol reference between peers fails (symbol -> core)' '
	fresh &&
	plant_object src/symbol/zz-planted.c "struct evsel *evsel_new(const void *attr); void *planted(void) { return evsel_new(0); }" &&
	fails_with "^not ok 7 - " "src/symbol/zz-planted.c references evsel_new, defined in src/core/evsel.c: symbol may not depend on core"
'

test_expect_success 'a weak reference counts too (the old #pragma weak hack)' '
	fresh &&
	plant_object src/lib/zz-planted.c "#pragma weak session_free
void session_free(void *s); void planted(void) { if (session_free) session_free(0); }" &&
	fails_with "^not ok 7 - " "src/lib/zz-planted.c references session_free, defined in src/session/session.c: lib may not depend on session"
'

test_expect_success 'a source without its object fails (the symbol check needs the whole build)' '
	fresh &&
	rm tree/build/src/ui/list.o &&
	fails_with "^not ok 7 - " "src/ui/list.c: no object build/src/ui/list.o \(incomplete build\)"
'

test_done
