#!/bin/bash
# SPDX-License-Identifier: MIT
# The README's demo: count, record and report a real workload, perf-style.
cd "$(dirname "$0")/.." || exit 1
O=${O:-build}
out=$(mktemp -d /tmp/sonde-demo.XXXXXX)
trap 'rm -rf "$out"' EXIT
set -x
"./$O/sonde" --version
"./$O/sonde" stat -- "./$O/workloads/cpuburn" 200
if [ "$(id -u)" = 0 ] || [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -le 1 ]; then
	"./$O/sonde" record -g -o "$out/perf.data" -- "./$O/workloads/cpuburn" 300
	"./$O/sonde" report --stdio --no-children -i "$out/perf.data" | head -40
	"./$O/sonde" script -i "$out/perf.data" | head -12
fi
