#!/bin/bash
# SPDX-License-Identifier: MIT
# sonde probe vs perf probe: -F on libc (ELF symbols of the debug file), -D
# of a libc uprobe, and --list with a few libc events (symbols + DWARF names).
# Usage: bash bench/probe-bench.sh   (root: --list needs tracefs; SONDE=... picks a build)
. "$(dirname "$0")/lib.sh"

RUNS=${RUNS:-11}
LIBC=$(readlink -f /lib/x86_64-linux-gnu/libc.so.6)

[ -x "$SONDE" ] || { echo "probe-bench: $SONDE not built (make)"; exit 1; }
[ -x "$PERF" ] || { echo "probe-bench: skipped: $PERF not installed"; exit 0; }

bench_startup probe_funcs_libc "$RUNS" "$SONDE probe -x $LIBC -F" "$PERF probe -x $LIBC -F"
bench_startup probe_define_malloc "$RUNS" "$SONDE probe -x $LIBC -D 'malloc size=%di:u64'" \
	"$PERF probe -x $LIBC -D 'malloc size=%di:u64'"
UPEV=/sys/kernel/tracing/uprobe_events
if [ "$(id -u)" = 0 ] && [ -w "$UPEV" ]; then
	G=sbench$$
	trap '"$SONDE" probe -q -d "$G:*"' EXIT
	"$SONDE" probe -q -x "$LIBC" -a "$G:m=malloc" -a "$G:f=free" -a "$G:c=calloc%return" -a "$G:r=realloc"
	bench_compare probe_list_libc4 "$RUNS" "$SONDE probe -l '$G:*'" "$PERF probe -l '$G:*'"
else
	echo "probe-bench: --list skipped: needs root and a writable $UPEV"
fi
