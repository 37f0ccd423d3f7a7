#!/bin/bash
# SPDX-License-Identifier: MIT
# The Makefile on a fresh machine: `make demo` installs the packages, then builds
# with their pkg-config flags (one command), and a build without them stops early.
# pkg-config, the installer, the compiler and the demo are stand-ins in the temp
# dir, so the test needs no package changes and compiles nothing (about a second).
# check: normal pass only
. "$(dirname "$0")/lib.sh"

# fake pkg-config: finds nothing until the fake installer has run
cat >pkg-config <<'EOS'
#!/bin/bash
dir=$(dirname "$0")
if [ ! -e "$dir/installed" ]; then
	echo "Package libelf was not found in the pkg-config search path." >&2
	exit 1
fi
case " $* " in
*" --cflags "*) echo "-DFAKE_PKG_CFLAGS" ;;
*" --libs "*) echo "-lfake_pkg_libs" ;;
esac
EOS
# fake installer and demo: log that they ran
printf '#!/bin/bash\necho deps >>"%s/log"\ntouch "%s/installed"\n' "$TRASH" "$TRASH" >install-deps
printf '#!/bin/bash\necho "demo O=$O" >>"%s/log"\n' "$TRASH" >demo
# fake compiler: log its arguments, create what -o names
cat >cc <<'EOS'
#!/bin/bash
echo "cc $*" >>"$(dirname "$0")/log"
while [ $# -gt 0 ]; do
	[ "$1" = -o ] && { mkdir -p "$(dirname "$2")" && : >"$2"; }
	shift
done
EOS
chmod +x pkg-config install-deps demo cc

fake_make() {
	make -C "$SONDE_ROOT" --no-print-directory O="$TRASH/b" CC="$TRASH/cc" \
		PKG_CONFIG="$TRASH/pkg-config" INSTALL_DEPS="$TRASH/install-deps" DEMO="$TRASH/demo" "$@"
}

test_expect_success 'without the packages, make stops before compiling, with a clear message' '
	rm -f installed log &&
	test_must_fail fake_make all >out 2>err &&
	test_grep "does not find the libraries sonde builds with" err &&
	test_grep "Package libelf was not found" err &&
	test_grep "make deps" err &&
	test ! -e log
'

test_expect_success 'one make demo: deps first, then every object compiled with the new flags' '
	rm -rf installed log b &&
	fake_make -j2 demo >out 2>err &&
	head -1 log | grep -x deps &&
	tail -1 log | grep -x "demo O=$TRASH/b" &&
	grep " -c -o $TRASH/b/src/" log >compiles &&
	n=$(ls "$SONDE_ROOT"/src/*.c "$SONDE_ROOT"/src/*/*.c | wc -l) &&
	test "$(wc -l <compiles)" = "$n" &&
	! grep -v -e "-DFAKE_PKG_CFLAGS" compiles &&
	grep -E " -o $TRASH/b/sonde .*-lfake_pkg_libs" log &&
	ls b/workloads/* >/dev/null
'

test_done
