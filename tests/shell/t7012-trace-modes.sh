#!/bin/bash
# SPDX-License-Identifier: MIT
# sonde trace's file-mode beautifier (umode_t args: open's, mkdir's, chmod's,
# mknod's): perf's IRUGO|IWUSR-style names, built from the uapi S_I* bits;
# checked on sysmix's O_CREAT openat (its log) and against perf trace on
# coreutils calls (timings, fd paths and addresses masked).
. "$(dirname "$0")/lib.sh"

W=$SONDE_WORKLOADS/sysmix

modes() {
	grep "mode: " "$1" | sed -E -e 's/^.*\): [a-z0-9]+\/[0-9]+ //' -e 's/<[^>]*>//g' \
		-e 's/0x[0-9a-f]+/ADDR/g' -e 's/ +/ /g' | sort
}

test_expect_success ROOT,TRACEFS 'openat(O_CREAT, 0644) shows mode: IRUGO|IWUSR' '
	"$SONDE" trace -e openat -o out -- "$W" 0 "$PWD/m.file" </dev/null 2>log &&
	fd=$(grep ^openat log | sed -n "3s/^openat //p") && [ -n "$fd" ] &&
	test_grep "sysmix/[0-9]+ openat\(dfd: CWD, filename: 0x[0-9a-f]+, flags: RDWR\|CREAT\|TRUNC, mode: IRUGO\|IWUSR\) += $fd$" out
'

run_modes() {
	rm -rf md && mkdir md &&
	"$1" trace -e mkdir,mkdirat,chmod,fchmodat,fchmod,mknodat,openat -o "$2" -- sh -c \
		"mkdir -m 750 md/a && mkdir md/b && chmod 4711 md/a && chmod 1777 md/b &&
		 chmod 7777 md/a && chmod 0 md/b && chmod 2070 md/a && mknod -m 640 md/p p &&
		 : >md/f && chmod 444 md/f && chmod 333 md/f && chmod 6555 md/f" </dev/null 2>/dev/null
}

test_expect_success ROOT,TRACEFS,PERF 'the same mode names as perf trace' '
	run_modes "$SONDE" sonde.out && run_modes "$PERF" perf.out &&
	modes sonde.out >s && modes perf.out >p && test_cmp p s &&
	test_grep "mode: IRWXU\|IRGRP\|IXGRP\)" s && test_grep "mode: IALLUGO\)" s &&
	test_grep "mode: IRWXUGO\|ISVTX\)" s && test_grep "mode: IRUGO\|IXUGO\|ISUID\|ISGID\)" s &&
	test_grep "IFIFO" s
'

test_done
