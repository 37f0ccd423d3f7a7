#!/bin/bash
# SPDX-License-Identifier: MIT
# sonde probe vs perf probe: -F on libc (ELF symbols of the debug file), -D
# of a libc uprobe, -V on a generated binary with big DWARF and on libc, and
# --list with a few libc events (symbols + DWARF names).
# Usage: bash bench/probe-bench.sh   (root: --list needs tracefs; SONDE=... picks a build)
. "$(dirname "$0")/lib.sh"

RUNS=${RUNS:-11}
LIBC=$(readlink -f /lib/x86_64-linux-gnu/libc.so.6)

[ -x "$SONDE" ] || { echo "probe-bench: $SONDE not built (make)"; exit 1; }
[ -x "$PERF" ] || { echo "probe-bench: skipped: $PERF not installed"; exit 0; }

bench_startup probe_funcs_libc "$RUNS" "$SONDE probe -x $LIBC -F" "$PERF probe -x $LIBC -F"
bench_startup probe_define_malloc "$RUNS" "$SONDE probe -x $LIBC -D 'malloc size=%di:u64'" \
	"$PERF probe -x $LIBC -D 'malloc size=%di:u64'"
# -V on a binary with big DWARF: 40 generated units of 150 functions each
# (structs, loops, inlined helpers) at -O2 -g, built once into $BIGDW_DIR
BIGDW_DIR=${BIGDW_DIR:-${TMPDIR:-/tmp}/sonde-bench-bigdw-v1}
if [ ! -x "$BIGDW_DIR/bigdw" ] && command -v cc >/dev/null; then
	mkdir -p "$BIGDW_DIR" && (
		cd "$BIGDW_DIR" &&
		for f in $(seq 0 39); do
			{
				echo "#include <stdio.h>"
				echo "#include <string.h>"
				for i in $(seq 0 149); do
					echo "struct s${f}_$i { int a; long b; char name[8]; struct s${f}_$i *next; };"
					echo "static inline int h${f}_$i(int v) { return v * $((i + 1)) + $f; }"
					printf '__attribute__((noinline)) long fn%s_%s(struct s%s_%s *p, int n, const char *t) {\n' $f $i $f $i
					printf '\tlong sum = 0;\n\tfor (int k = 0; k < n; k++) {\n\t\tint q = h%s_%s(k + p->a);\n' $f $i
					printf '\t\tsum += q + (long)strlen(t);\n\t}\n\treturn sum + p->b;\n}\n'
				done
			} >u$f.c
		done &&
		echo "int main(void) { return 0; }" >main.c &&
		ls u*.c main.c | xargs -P2 -I{} cc -g -O2 -c {} &&
		cc -o bigdw u*.o main.o
	) || echo "probe-bench: could not build the big-DWARF binary"
fi
if [ -x "$BIGDW_DIR/bigdw" ]; then
	bench_compare probe_vars_bigdwarf "$RUNS" "$SONDE probe -x $BIGDW_DIR/bigdw -V fn20_75" \
		"$PERF probe -x $BIGDW_DIR/bigdw -V fn20_75"
	bench_compare probe_vars_bigdwarf_line "$RUNS" "$SONDE probe -x $BIGDW_DIR/bigdw -V fn20_75:3" \
		"$PERF probe -x $BIGDW_DIR/bigdw -V fn20_75:3"
	bench_compare probe_vars_libc_malloc "$RUNS" "$SONDE probe -x $LIBC -V malloc" \
		"$PERF probe -x $LIBC -V malloc"
fi
UPEV=/sys/kernel/tracing/uprobe_events
if [ "$(id -u)" = 0 ] && [ -w "$UPEV" ]; then
	G=sbench$$
	trap '"$SONDE" probe -q -d "$G:*"' EXIT
	"$SONDE" probe -q -x "$LIBC" -a "$G:m=malloc" -a "$G:f=free" -a "$G:c=calloc%return" -a "$G:r=realloc"
	bench_compare probe_list_libc4 "$RUNS" "$SONDE probe -l '$G:*'" "$PERF probe -l '$G:*'"
else
	echo "probe-bench: --list skipped: needs root and a writable $UPEV"
fi
