#!/bin/bash
# Installs sonde's build and test dependencies from Debian when missing.
# As root it runs apt-get; otherwise it prints the exact command to run.
PKGS="gcc make pkg-config libelf-dev libdw-dev libtraceevent-dev libcapstone-dev
libzstd-dev liblzma-dev libncurses-dev libdebuginfod-dev libbsd-dev"
# the test suite also compares against perf 6.1 and uses these tools
TEST_PKGS="linux-perf clang libclang-rt-14-dev util-linux procps python3 g++ debuginfod"
want=""
for p in $PKGS ${WITH_TEST_DEPS:+$TEST_PKGS}; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || want="$want $p"
done
[ -z "$want" ] && exit 0
if [ "$(id -u)" != 0 ]; then
	echo "missing packages:$want"
	echo "install them with: sudo apt-get install -y$want"
	exit 1
fi
echo "installing:$want"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null && apt-get install -y -q $want >/dev/null || {
	echo "apt-get install failed for:$want"
	exit 1
}
