#!/bin/bash
# SPDX-License-Identifier: MIT
# check: parallel (its own files and workloads, nothing timed, no system-wide recording)
# report --stdio against perf report: same-named dsos merge, --percent-limit and callchains, -F order, --dsos relative counts.
. "$(dirname "$0")/lib.sh"

norm() {
	grep -v '^# (Tip:' "$1"
}

# same FILE OPTS...: sonde and perf print the same report
same() {
	local f=$1
	shift
	"$PERF" report --stdio -i "$f" "$@" >perf.out 2>/dev/null
	"$SONDE" report --stdio -i "$f" "$@" >sonde.out 2>sonde.err || { cat sonde.err; return 1; }
	norm perf.out >perf.norm
	norm sonde.out >sonde.norm
	test_cmp perf.norm sonde.norm
}

W=$SONDE_WORKLOADS

# perf tells dsos apart by their short names (long ones with -v): two copies
# of one binary, or a chroot's libc and the system's, make one row
test_expect_success PERF,ROOT 'same-named dsos in two directories are one dso' '
	cat >prog.c <<-\EOF &&
	double spin(double x) { for (int i = 0; i < 30000000; i++) x = x * 1.0000001 + 0.1; return x; }
	int main(void) { return spin(1.0) > 0 ? 0 : 1; }
	EOF
	cat >prog2.c <<-\EOF &&
	int pad(int x) { return x * 3 + 1; }
	double spin(double x) { for (int i = 0; i < 30000000; i++) x = x * 1.0000001 + 0.1; return x; }
	int main(int argc, char **argv) { (void)argv; return spin(pad(argc)) > 0 ? 0 : 1; }
	EOF
	mkdir a b c &&
	cc -O1 -fno-omit-frame-pointer -o a/prog prog.c &&
	cp a/prog b/prog &&
	cc -O1 -fno-omit-frame-pointer -o c/prog prog2.c &&
	"$PERF" record -q -o dup.data -- sh -c "./a/prog; ./b/prog" >/dev/null 2>&1 &&
	same dup.data --sort dso,sym &&
	same dup.data &&
	same dup.data --sort dso &&
	same dup.data --sort sym &&
	same dup.data -v --sort dso,sym &&
	"$SONDE" report --stdio -i dup.data --sort dso,sym >out &&
	test $(grep -c "prog  *\[\.\] spin\$" out) = 1 &&
	# With children, the chains come from static copies run by a static
	# launcher: a dynamic start-up (ld.so, sh) leaves return addresses no
	# map covers in a few chains, and perf 6.1 then sometimes prints one
	# such address on two rows (its entry order is not transitive between
	# resolved and unresolved entries; docs/cmd/report.md). sonde prints one.
	mkdir sa sb &&
	cc -O1 -static -fno-omit-frame-pointer -o sa/prog prog.c &&
	cp sa/prog sb/prog &&
	cat >run2.c <<-\EOF &&
	#include <sys/wait.h>
	#include <unistd.h>
	int main(int argc, char **argv)
	{
		for (int i = 1; i < argc; i++) {
			pid_t p = fork();
			if (p == 0) {
				execl(argv[i], argv[i], (char *)0);
				_exit(127);
			}
			waitpid(p, 0, 0);
		}
		return 0;
	}
	EOF
	cc -O1 -static -o run2 run2.c &&
	"$PERF" record -q -g -o dupg.data -- ./run2 ./sa/prog ./sb/prog >/dev/null 2>&1 &&
	same dupg.data --sort dso,sym &&
	same dupg.data &&
	same dupg.data --no-children --sort dso &&
	same dupg.data -g caller --sort sym &&
	same dupg.data -g folded --no-children &&
	"$PERF" record -q -g -o dup2.data -- sh -c "./a/prog; ./c/prog" >/dev/null 2>&1 &&
	same dup2.data --sort dso,sym &&
	same dup2.data --no-children --sort dso &&
	same dup2.data --no-children --sort sym &&
	same dup2.data -v --no-children --sort dso,sym
'

test_done
