#!/bin/bash
# SPDX-License-Identifier: MIT
# Short libFuzzer run of the perf.data reader (make fuzz).
# Usage: tools/fuzz.sh [seconds]   (default 60; FUZZ_JOBS for parallel jobs)
# Builds every library source with clang -fsanitize=fuzzer,address into
# build-fuzz/fuzz-reader, seeds from tests/fixtures and tests/fuzz/regressions,
# and leaves crash inputs in build-fuzz/crashes (copy fixed ones to
# tests/fuzz/regressions: make check replays them).
set -e
cd "$(dirname "$0")/.."
secs=${1:-60}
out=${FUZZ_OUT:-build-fuzz}
CC=${FUZZ_CC:-clang}
mkdir -p "$out/obj" "$out/corpus" "$out/crashes"
pkgs="libelf libdw libtraceevent capstone libzstd liblzma ncursesw"
cflags="-std=c11 -D_GNU_SOURCE -DSONDE_VERSION=\"fuzz\" -Isrc $(pkg-config --cflags $pkgs) -g -O1 -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined"
objs=()
newest_h=$(ls -t src/*/*.h | head -1)
for src in $(ls src/*/*.c | grep -v "^src/main.c$"); do
	o="$out/obj/$(echo "$src" | tr / _).o"
	# any header change rebuilds everything (no dependency files here)
	if [ ! -e "$o" ] || [ "$src" -nt "$o" ] || [ "$newest_h" -nt "$o" ]; then
		$CC $cflags -w -c -o "$o" "$src"
	fi
	objs+=("$o")
done
$CC $cflags -fsanitize=fuzzer -o "$out/fuzz-reader" tests/fuzz/fuzz-reader.c "${objs[@]}" \
	$(pkg-config --libs $pkgs) -ldebuginfod -lstdc++ -lm -lpthread
# seeds: the fixtures (all of them, small) and the regression inputs
cp tests/fixtures/*.data tests/fuzz/regressions/* "$out/corpus/" 2>/dev/null || true
cd "$out"
./fuzz-reader -max_total_time="$secs" -max_len=65536 -rss_limit_mb=1024 -timeout=10 \
	-artifact_prefix=crashes/ ${FUZZ_JOBS:+-jobs=$FUZZ_JOBS} corpus
