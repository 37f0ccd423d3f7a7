#!/bin/bash
# SPDX-License-Identifier: MIT
# annotate on bad input: a missing file, a symbol without samples, a binary
# rebuilt since recording (build-id mismatch) or gone, a kernel symbol
# without a vmlinux, a bad --percent-type, -n with --show-total-period. perf's messages; unlike perf 6.1 (status 0)
# nothing annotated exits 1 (issue 12: a clear message and a non-zero exit).
. "$(dirname "$0")/lib.sh"

cat >w.c <<'C'
static volatile long sink;
__attribute__((noinline)) long spin(long n)
{
	long x = 0;
	for (long i = 0; i < n; i++)
		x += i ^ (x >> 3);
	return x;
}
#include <fcntl.h>
#include <unistd.h>
int main(void)
{
	int fd = open("/dev/null", O_WRONLY);

	for (int i = 0; i < 300000; i++)	/* kernel samples */
		write(fd, &fd, 1);
	sink = spin(40000000);
	return 0;
}
C
if ! command -v gcc >/dev/null; then
	test_skip 'annotate errors' 'gcc not installed'
	test_expect_success PERF '-n with --show-total-period: perf refuses both, status 129' '
	test_exit_code 129 "$PERF" annotate --stdio -i nosuch.data -n --show-total-period 2>perf.err &&
	test_exit_code 129 "$SONDE_BUILD/perf" annotate --stdio -i nosuch.data -n --show-total-period 2>sonde.err &&
	test_cmp perf.err sonde.err
'

test_done
	exit 0
fi
mkdir bin && gcc -O1 -g -o bin/w w.c

test_expect_success 'a missing file: perf message, status 255' '
	test_exit_code 255 "$SONDE" annotate --stdio -i nosuch.data 2>err &&
	test_grep "failed to open nosuch.data: No such file or directory" err
'

test_expect_success ROOT 'record without the build-id cache' '
	"$SONDE" record -N -q -o w.data ./bin/w 2>err && test -s w.data
'

test_expect_success ROOT 'a symbol without samples: perf message, status 1' '
	test_exit_code 1 "$SONDE" annotate --stdio -i w.data no_such_symbol >out 2>err &&
	test_must_fail test -s out &&
	printf "Error:\nThe w.data data has no samples!\n" >expect &&
	test_cmp expect err
'

test_expect_success ROOT 'the symbol annotates before the binary changes' '
	"$SONDE" annotate --stdio -i w.data spin >out 2>err &&
	test_grep "<spin>:" out
'

test_expect_success ROOT 'a binary rebuilt since recording: build-id mismatch named, status 1' '
	sed -i "s/40000000/40000001/" w.c && gcc -O1 -g -o bin/w w.c &&
	test_exit_code 1 "$SONDE" annotate --stdio -i w.data spin >out 2>err &&
	test_grep "bin/w has a different build-id than at record time" err &&
	test_grep "has no samples" err
'

test_expect_success ROOT 'a binary gone since recording: named, status 1' '
	mv bin/w bin/w.moved &&
	test_exit_code 1 "$SONDE" annotate --stdio -i w.data spin >out 2>err &&
	mv bin/w.moved bin/w &&
	test_grep "bin/w was not found, nor in the build-id cache" err &&
	test_grep "has no samples" err
'

k=$("$SONDE" report --stdio -i w.data --sort sym 2>/dev/null | sed -n "s/.*\[k\] //p" | head -1)
if [ -r /proc/kcore ] && [ "$(id -u)" = 0 ]; then
	test_skip 'a kernel symbol without vmlinux' '/proc/kcore is readable here: annotate reads the kernel'"'"'s code from it (t8030)'
elif [ -z "$k" ]; then
	test_skip 'a kernel symbol without vmlinux' 'the recording has no kernel samples'
else
	test_expect_success ROOT 'a kernel symbol without vmlinux or /proc/kcore: perf text' '
		"$SONDE" annotate --stdio -i w.data "$k" >out 2>err &&
		test_grep "^Couldn.t annotate $k:" err &&
		test_grep "No vmlinux file with build id" err &&
		test_grep "perf buildid-cache -vu vmlinux" err
	'
fi

test_expect_success 'a bad --percent-type: the option help, status 129' '
	test_exit_code 129 "$SONDE" annotate --stdio -i nosuch.data --percent-type nope 2>err &&
	test_grep "Set percent type local/global-period/hits" err
'

test_expect_success PERF '-n with --show-total-period: perf refuses both, status 129' '
	test_exit_code 129 "$PERF" annotate --stdio -i nosuch.data -n --show-total-period 2>perf.err &&
	test_exit_code 129 "$SONDE_BUILD/perf" annotate --stdio -i nosuch.data -n --show-total-period 2>sonde.err &&
	test_cmp perf.err sonde.err
'

test_done
