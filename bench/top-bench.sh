#!/bin/bash
# SPDX-License-Identifier: MIT
# sonde top vs perf top: CPU time each uses itself while sampling the whole
# machine at 999 Hz for $DUR seconds (default 20) in --stdio, with a
# cpu-burning workload running so that there are samples to resolve. Both run
# over the same window (side by side, each sampling the other too): on a
# shared machine what the others run decides how many DSOs each must load.
# Usage: bash bench/top-bench.sh   (SONDE=..., PERF=..., DUR=20, RUNS=1)
#        MODE=mem bash bench/top-bench.sh   (RSS under a forking load, MEM_DUR=60)
. "$(dirname "$0")/lib.sh"

W=${SONDE_WORKLOADS:-$BENCH_ROOT/build/workloads}/cpuburn
DUR=${DUR:-20}
RUNS=${RUNS:-1}

[ -x "$SONDE" ] || { echo "top-bench: $SONDE not built (make)"; exit 1; }
[ -x "$PERF" ] || { echo "top-bench: skipped: $PERF not installed"; exit 0; }
[ "$(id -u)" = 0 ] || { echo "top-bench: skipped: needs root for -a"; exit 0; }

# top_cpu CMD...: CPU milliseconds (user + system) CMD used over $DUR s
top_cpu() {
	local tf
	tf=$(mktemp)
	# stdin stays open (perf reads keys from it), Ctrl-C ends the run
	sleep $((DUR + 5)) | /usr/bin/time -f '%U %S %M' -o "$tf" \
		timeout -s INT "$DUR" "$@" >/dev/null 2>&1
	read -r u s m < <(tail -1 "$tf")
	rm -f "$tf"
	awk -v u="$u" -v s="$s" -v m="$m" 'BEGIN { printf "%.0f %d\n", (u + s) * 1000, m }'
}

# MODE=mem: RSS of each over $DUR s (default 60) while a shell loop forks
# and execs /bin/true as fast as it can (processes come and go by thousands):
# one line per 5 s, sonde and perf side by side, then the last ratio
if [ "${MODE:-cpu}" = mem ]; then
	DUR=${MEM_DUR:-60}
	# rss_curve CMD...: "T:MiB" every 5 s of CMD, which runs $DUR s (stdin open: perf reads keys)
	rss_curve() {
		local p t
		sleep $((DUR + 10)) | "$@" >/dev/null 2>&1 &
		p=$! # the pipeline's last command: top itself
		for ((t = 5; t <= DUR; t += 5)); do
			sleep 5
			printf '%d:%s ' $t "$(awk '/VmRSS/ { printf "%.0f", $2 / 1024 }' /proc/$p/status 2>/dev/null)"
		done
		echo
		kill -INT $p 2>/dev/null
		wait $p
	}
	(while :; do /bin/true; done) &
	fork_pid=$!
	trap 'kill $fork_pid 2>/dev/null' EXIT
	rss_curve "$SONDE" top -a -d 1 --stdio >sonde.rss.$$ &
	s_job=$!
	rss_curve "$PERF" top -a -d 1 --stdio >perf.rss.$$
	wait $s_job
	echo "top -a -d 1 --stdio with a forking loop, RSS in MiB every 5 s:"
	echo "  sonde: $(cat sonde.rss.$$)"
	echo "  perf:  $(cat perf.rss.$$)"
	awk -v s="$(awk '{ print $NF }' sonde.rss.$$)" -v p="$(awk '{ print $NF }' perf.rss.$$)" 'BEGIN {
		split(s, a, ":"); split(p, b, ":")
		printf "top_rss_forking_%ds              rss sonde %4d MiB  perf %4d MiB  ratio %.3f\n",
			a[1], a[2], b[2], (b[2] > 0 ? a[2] / b[2] : 0) }'
	rm -f sonde.rss.$$ perf.rss.$$
	exit 0
fi

burn_pid=
if [ -x "$W" ]; then
	"$W" $(((DUR * RUNS + 10) * 1000)) >/dev/null 2>&1 &
	burn_pid=$!
fi
trap '[ -n "$burn_pid" ] && kill $burn_pid 2>/dev/null' EXIT

for ((i = 0; i < RUNS; i++)); do
	top_cpu "$SONDE" top -F 999 -a --stdio >sonde.cpu.$$ &
	s_job=$!
	top_cpu "$PERF" top -F 999 -a --stdio >perf.cpu.$$
	wait $s_job
	read -r sc sr <sonde.cpu.$$
	read -r pc pr <perf.cpu.$$
	rm -f sonde.cpu.$$ perf.cpu.$$
	awk -v n="top_F999_a_stdio_${DUR}s" -v sc="$sc" -v pc="$pc" -v sr="$sr" -v pr="$pr" 'BEGIN {
		printf "%-28s cpu sonde %8d ms  perf %8d ms  ratio %.3f | rss %.3f (%d/%d KiB)\n",
			n, sc, pc, (pc > 0 ? sc / pc : 0), (pr > 0 ? sr / pr : 0), sr, pr }'
	[ -n "$BENCH_OUT" ] && printf 'top_F999_a_stdio\t%s\t%s\t%s\t%s\t%s\t%s\n' \
		"$DUR" "$DUR" "$sc" "$pc" "$sr" "$pr" >>"$BENCH_OUT"
done
exit 0
