#!/bin/bash
# SPDX-License-Identifier: MIT
# sonde trace's file-mode beautifier (umode_t args: open's, mkdir's, chmod's,
# mknod's): perf's IRUGO|IWUSR-style names, built from the uapi S_I* bits;
# checked on sysmix's O_CREAT openat (its log) and against perf trace on
# coreutils calls (timings, fd paths and addresses masked). Also the
# socket option levels (libc's SOL_* names) and statx's flags/mask (named,
# with nothing after them, as perf 6.1 prints them).
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

test_expect_success ROOT,TRACEFS,PERF 'statx flags and mask as perf 6.1 prints them' '
	"$SONDE" trace -e statx -o sonde.out -- stat -L / >/dev/null 2>&1 &&
	"$PERF" trace -e statx -o perf.out -- stat -L / >/dev/null 2>&1 &&
	test_grep "statx\(dfd: CWD, filename: 0x[0-9a-f]+, flags: , mask: , buffer: 0x[0-9a-f]+\) += 0$" sonde.out &&
	modes() { sed -E -e "s/^.*\): [a-z]+\/[0-9]+ //" -e "s/0x[0-9a-f]+/ADDR/g" "$1"; } &&
	modes sonde.out >s && modes perf.out >p && test_cmp p s
'

if ! command -v python3 >/dev/null; then
	test_skip "setsockopt levels as perf names them" "no python3 to make the calls"
else
	test_expect_success ROOT,TRACEFS,PERF 'setsockopt levels as perf names them' '
		cat >sock.py <<-\EOP &&
		import socket
		u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
		for lvl in (0, 1, 6, 17, 41, 58, 132, 136, 255, 256, 263, 286, 287, 100):
		    try:
		        u.setsockopt(lvl, 1, 1)
		    except OSError:
		        pass
		EOP
		"$SONDE" trace -e setsockopt -o sonde.out -- python3 sock.py &&
		"$PERF" trace -e setsockopt -o perf.out -- python3 sock.py &&
		lv() { sed -nE "s/.* setsockopt\(fd: [0-9]+(<[^>]*>)?, (level: [^,]*, )?optname.*( = .*)$/\2\3/p" "$1"; } &&
		lv sonde.out >s && lv perf.out >p && test_cmp p s && [ $(wc -l <s) = 14 ] &&
		test_grep "^level: IP, " s && test_grep "^level: 1, " s && test_grep "^level: UDPLITE, " s &&
		test_grep "^level: IPX, " s
	'
fi

test_done
