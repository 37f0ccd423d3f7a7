#!/bin/bash
# The README's demo: count a real workload with sonde stat, perf-style.
cd "$(dirname "$0")/.." || exit 1
set -x
./build/sonde --version
./build/sonde stat -- ./build/workloads/cpuburn 200
