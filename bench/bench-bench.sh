#!/bin/bash
# SPDX-License-Identifier: MIT
# bench-bench: `sonde bench` vs `perf bench`: each benchmark run by perf and sonde in turn,
# RUNS times; prints the median of the number each reports and sonde/perf (the measurement
# itself, not the tool's speed: both should measure the same machine within noise).
# Usage: bench/bench-bench.sh [RUNS]   (SONDE=path/to/sonde to pick a build; ONLY=REGEX of row names)
set -e
. "$(dirname "$0")/lib.sh"
RUNS=${1:-5}

# value ARGS PATTERN: the first number after PATTERN in `bench ARGS` output, for $tool
# (a PATTERN with a group is used as it is: the group is the number)
value() {
	local re=".*$2 *([0-9.]+).*"
	case $2 in *"("*) re=$2 ;; esac
	"$tool" bench $1 2>/dev/null | sed -nE "s/$re/\1/p" | head -1
}

# row NAME 'ARGS' PATTERN UNIT
row() {
	local name=$1 args=$2 pat=$3 unit=$4 i s=() p=() ms mp
	[ -z "$ONLY" ] || [[ $name =~ $ONLY ]] || return 0
	for ((i = 0; i < RUNS; i++)); do
		if ((i % 2)); then
			tool=$PERF; p+=("$(value "$args" "$pat")")
			tool=$SONDE; s+=("$(value "$args" "$pat")")
		else
			tool=$SONDE; s+=("$(value "$args" "$pat")")
			tool=$PERF; p+=("$(value "$args" "$pat")")
		fi
	done
	ms=$(printf '%s\n' "${s[@]}" | median)
	mp=$(printf '%s\n' "${p[@]}" | median)
	awk -v n="$name" -v s="$ms" -v p="$mp" -v u="$unit" -v r="$RUNS" 'BEGIN {
		printf "%-22s runs=%-3d sonde %14.4f  perf %14.4f %-10s ratio %.3f\n", n, r, s, p, u, (p > 0 ? s / p : 0) }'
}

row sched_pipe "sched pipe -l 100000" "Total time:" "sec"
row sched_messaging "sched messaging -g 5 -l 50" "Total time:" "sec"
row mem_memcpy "mem memcpy -s 4MB -l 50 -f default" "^" "GB/sec"
row mem_memset "mem memset -s 4MB -l 50 -f default" "^" "GB/sec"
row futex_hash "futex hash -r 2 -t 2 -s" "Averaged" "ops/sec"
row futex_wake "futex wake -t 2 -s" "threads in" "ms"
row futex_wake_parallel "futex wake-parallel -t 2 -s" "threads\) in" "ms"
row futex_requeue "futex requeue -t 2 -s" "threads in" "ms"
row futex_lock_pi "futex lock-pi -r 2 -t 2 -s" "Averaged" "ops/sec"
row futex_lock_pi_M "futex lock-pi -r 2 -t 2 -M -s" "Averaged" "ops/sec"
row epoll_wait "epoll wait -r 2 -t 2" "Averaged" "ops/sec"
row epoll_wait_f2 "epoll wait -r 2 -t 1 -f 2" "Averaged" "ops/sec"
row epoll_ctl "epoll ctl -r 2 -t 2" "Averaged" "ADD ops"
row numa_mem "numa mem -p 1 -t 2 -P 64 -s 2 -q" "^ *([0-9.]+) GB\/sec total speed" "GB/sec"
row syscall_basic "syscall basic -l 2000000" "^ *([0-9.]+) usecs\/op" "usecs/op"
row breakpoint_enable "breakpoint enable" "^ *([0-9.]+) usecs\/op" "usecs/op"
row kallsyms_parse "internals kallsyms-parse -i 20" "took:" "ms"
row evlist_open_close "internals evlist-open-close -i 50" "took:" "usec"
row synthesize "internals synthesize -i 2000" "synthesis took:" "usec"
