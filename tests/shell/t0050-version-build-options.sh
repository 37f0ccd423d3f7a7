#!/bin/bash
# SPDX-License-Identifier: MIT
# sonde version --build-options: perf's layout, the libraries sonde links,
# the ones it loads on first use (on only when they load here), and the
# kernel features probed on this machine at run time.
. "$(dirname "$0")/lib.sh"

feature_re='^ {0,22}[A-Za-z0-9_-]+: \[ (on |OFF|[0-9 -]+) \]  # .+$'

test_expect_success 'first line is the version, then only feature lines' '
	"$SONDE" version --build-options >out &&
	head -1 out | grep -E "^sonde version [0-9]+\.[0-9]+" &&
	tail -n +2 out >features &&
	! grep -v -E "$feature_re" features
'

test_expect_success 'names are right-aligned to 22 columns, as perf' '
	"$SONDE" version --build-options | grep -E "^                libelf: \[ on  \]  # HAVE_LIBELF_SUPPORT$"
'

test_expect_success 'the linked libraries are on' '
	"$SONDE" version --build-options >out &&
	for f in dwarf libelf lzma zstd libtraceevent ncursesw libdw-dwarf-unwind; do
		grep -E "^ *$f: \[ on  \]" out || { echo "missing $f"; exit 1; }
	done
'

test_expect_success 'what sonde does not implement is OFF' '
	"$SONDE" version --build-options >out &&
	for f in dwarf_getlocations syscall_table libbfd libunwind libpython bpf aio zlib; do
		grep -E "^ *$f: \[ OFF \]" out || { echo "$f should be OFF"; exit 1; }
	done
'

# the libraries loaded on first use, as the dynamic loader's cache lists them
ldcache() {
	PATH=$PATH:/sbin:/usr/sbin ldconfig -p
}

test_expect_success 'libraries loaded on first use are on when this machine has them' '
	ldcache >cache &&
	"$SONDE" version --build-options >out &&
	for l in "debuginfod libdebuginfod.so.1" "libcapstone libcapstone.so.4" \
		"cxa_demangle libstdc++.so.6"; do
		set -- $l
		if awk "{print \$1}" cache | grep -qxF "$2"; then
			grep -E "^ *$1: \[ on  \]" out || { echo "$1 should be on"; exit 1; }
		else
			grep -E "^ *$1: \[ OFF \]" out || { echo "$1 should be OFF"; exit 1; }
		fi
	done
'

test_expect_success 'a library that does not load is OFF (debuginfod, capstone)' '
	mkdir lib && : >lib/libdebuginfod.so.1 && echo junk >lib/libcapstone.so.4 &&
	LD_LIBRARY_PATH=$PWD/lib "$SONDE" version --build-options >out &&
	grep -E "^ *debuginfod: \[ OFF \]  # HAVE_DEBUGINFOD_SUPPORT$" out &&
	grep -E "^ *libcapstone: \[ OFF \]  # HAVE_LIBCAPSTONE_SUPPORT$" out &&
	grep -E "^ *libelf: \[ on  \]" out
'

test_expect_success PERF 'every feature name perf lists is listed too' '
	"$PERF" version --build-options | tail -n +2 | sed -E "s/^ *([^:]*):.*/\1/" | sort >perf.names &&
	"$SONDE" version --build-options | tail -n +2 | sed -E "s/^ *([^:]*):.*/\1/" | sort >sonde.names &&
	comm -23 perf.names sonde.names >missing && test_cmp /dev/null missing
'

test_expect_success 'kernel features match what the machine offers' '
	"$SONDE" version --build-options >out &&
	if [ -e /sys/kernel/tracing/uprobe_events ] || [ -e /sys/kernel/debug/tracing/uprobe_events ]; then
		grep -E "^ *uprobes: \[ on  \]" out
	else
		grep -E "^ *uprobes: \[ OFF \]" out
	fi &&
	if [ -e /sys/kernel/tracing/kprobe_events ] || [ -e /sys/kernel/debug/tracing/kprobe_events ]; then
		grep -E "^ *kprobes: \[ on  \]" out
	else
		grep -E "^ *kprobes: \[ OFF \]" out
	fi &&
	p=$(cat /proc/sys/kernel/perf_event_paranoid) &&
	grep -E "^ *perf_event_paranoid: \[ $p +\]" out
'

test_expect_success PERF 'hardware counters line agrees with perf' '
	"$SONDE" version --build-options >out &&
	if "$PERF" stat -x, -e instructions:u true 2>&1 | grep -q "^[0-9]"; then
		grep -E "^ *hw_counters: \[ on  \]" out
	else
		grep -E "^ *hw_counters: \[ OFF \]" out
	fi
'

test_expect_success 'as perf: "perf version" and the same option' '
	ln -s "$SONDE" perf && ./perf version --build-options | head -1 | grep -E "^perf version "
'

test_done
