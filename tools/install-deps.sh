#!/bin/bash
# SPDX-License-Identifier: MIT
# Installs sonde's build and test dependencies from Debian when missing.
# As root it runs apt-get; otherwise it prints the exact command to run.
# WITH_TEST_DEPS=1 adds the test tools and upgrades linux-perf (the reference
# perf) to the newest version Debian serves, as users get it.
PKGS="gcc make pkg-config libelf-dev libdw-dev libtraceevent-dev libcapstone-dev
libzstd-dev liblzma-dev libncurses-dev libdebuginfod-dev libbsd-dev libpython3-dev zlib1g-dev
libsqlite3-dev linux-libc-dev"
# the test suite also compares against perf 6.1 and uses these tools
TEST_PKGS="linux-perf clang libclang-rt-14-dev util-linux procps python3 g++ debuginfod python3-pyside2.qtsql libqt5sql5-sqlite"
# flame graph browser tests (t9010), pprof export decoding (t903x)
TEST_PKGS="$TEST_PKGS chromium protobuf-compiler"
# the TUI tests (report, top) drive the terminal through tmux
TEST_PKGS="$TEST_PKGS tmux"
# USDT test programs (t6020) include <sys/sdt.h>
TEST_PKGS="$TEST_PKGS systemtap-sdt-dev"
# data convert --to-ctf loads libbabeltrace-ctf.so.1 (libbabeltrace1); t9042 reads traces back with babeltrace
PKGS="$PKGS libbabeltrace-dev"
TEST_PKGS="$TEST_PKGS babeltrace"
want=""
for p in $PKGS ${WITH_TEST_DEPS:+$TEST_PKGS}; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || want="$want $p"
done
[ -z "$want" ] && [ -z "$WITH_TEST_DEPS" ] && exit 0
if [ "$(id -u)" != 0 ]; then
	[ -z "$want" ] && { echo "run as root to upgrade linux-perf"; exit 1; }
	echo "missing packages:$want"
	echo "install them with: sudo apt-get install -y$want"
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null || { echo "apt-get update failed"; exit 1; }
if [ -n "$want" ]; then
	echo "installing:$want"
	apt-get install -y -q $want >/dev/null || {
		echo "apt-get install failed for:$want"
		exit 1
	}
fi
if [ -n "$WITH_TEST_DEPS" ]; then
	have=$(dpkg-query -W -f='${Version}' linux-perf)
	cand=$(apt-cache policy linux-perf | sed -n 's/^ *Candidate: *//p')
	if [ -n "$cand" ] && [ "$cand" != "(none)" ] && [ "$cand" != "$have" ]; then
		echo "upgrading linux-perf $have -> $cand"
		apt-get install -y -q "linux-perf=$cand" >/dev/null || {
			echo "apt-get install failed for linux-perf=$cand"
			exit 1
		}
	fi
	echo "reference perf: $(perf version 2>&1) (linux-perf $(dpkg-query -W -f='${Version}' linux-perf))"
fi
exit 0
