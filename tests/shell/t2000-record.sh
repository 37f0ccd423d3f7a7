#!/bin/bash
# SPDX-License-Identifier: MIT
# sonde record: targets, options, perf's messages and exit statuses.
. "$(dirname "$0")/lib.sh"

W=$SONDE_WORKLOADS

test_expect_success 'record -- true writes perf.data with perf status lines' '
	"$SONDE" record -- true 2>err >/dev/null &&
	test -s perf.data &&
	test_grep "^\[ perf record: Woken up [0-9]+ times to write data \]$" err &&
	test_grep "^\[ perf record: Captured and wrote [0-9]+\.[0-9]{3} MB perf.data( \([0-9]+ samples\))? \]$" err
'

test_expect_success 'an existing output is kept as FILE.old, as perf does' '
	"$SONDE" record -q -o keep.data -- true &&
	"$SONDE" record -q -o keep.data -- true &&
	test -s keep.data.old && test -s keep.data
'

test_expect_success '-o FILE and -q (no messages)' '
	"$SONDE" record -q -o out.data -- true 2>err &&
	test -s out.data && ! test -s err
'

test_expect_success 'the workload exit status is the exit status' '
	test_exit_code 3 "$SONDE" record -q -o x.data -- sh -c "exit 3"
'

test_expect_success 'a workload killed by a signal: sonde dies of it too, as perf' '
	printf "#!/bin/sh\nkill -TERM \$\$\n" >selfkill.sh && chmod +x selfkill.sh &&
	rc=0 && { "$SONDE" record -q -o k.data -- ./selfkill.sh || rc=$?; } &&
	test $rc = 143 && test -s k.data
'

# sonde names its default event as perf 6.1 does on this host's CPU vendor
# (default_event_mods in lib.sh)
test_expect_success 'a missing command: perf message, exit 255' '
	test_exit_code 255 "$SONDE" record -o x.data -- /nonexistent/cmd 2>err &&
	test_grep "^Failed to collect .cpu-clock:$(default_event_mods). for the ./nonexistent/cmd. workload: No such file or directory$" err
'

test_expect_success 'a missing pid: perf message, exit 255' '
	test_exit_code 255 "$SONDE" record -o x.data -p 999999999 2>err &&
	test_grep "^Couldn.t create thread/CPU maps: No such process$" err
'

test_expect_success 'an unknown event: syntax error and the -e usage, exit 129' '
	test_exit_code 129 "$SONDE" record -e bogus_event -o x.data -- true 2>err &&
	test_grep "event syntax error: .bogus_event." err &&
	test_grep "^    -e, --event <event>   event selector" err
'

test_expect_success 'an unknown --call-graph mode: perf message, exit 129' '
	test_exit_code 129 "$SONDE" record --call-graph foo -o x.data -- true 2>err &&
	test_grep "^callchain: Unknown --call-graph option value: foo$" err
'

test_expect_success '--call-graph lbr is passed to the kernel, which refuses it here' '
	test_exit_code 255 "$SONDE" record --call-graph lbr -o x.data -- true 2>err &&
	test_grep "^Error:$" err &&
	test_grep "branch stack sampling" err
'

test_expect_success '-F above the maximum: perf warning, then throttled' '
	max=$(cat /proc/sys/kernel/perf_event_max_sample_rate) &&
	"$SONDE" record -F $((max * 2)) -o x.data -- true 2>err &&
	test_grep "^warning: Maximum frequency rate \($max Hz\) exceeded, throttling from $((max * 2)) Hz to $max Hz\.$" err &&
	"$SONDE" record -F max -o x.data -- true 2>err &&
	test_grep "^info: Using a maximum frequency rate of $max Hz$" err
'

test_expect_success '-c with -F: perf'"'"'s error and status' '
	test_exit_code 234 "$SONDE" record -c 1000 -F 100 -o x.data -- true 2>err &&
	test_grep "^cannot set frequency and period at the same time$" err
'

test_expect_success '-F 0, -m rounding, dwarf stack size: perf'"'"'s texts' '
	test_exit_code 234 "$SONDE" record -F 0 -o x.data -- true 2>err &&
	test_grep "^frequency and count are zero, aborting$" err &&
	"$SONDE" record -q -m 3 -o x.data -- true 2>err &&
	test_grep "^rounding mmap pages size to 16K \(4 pages\)$" err &&
	test_exit_code 129 "$SONDE" record --call-graph dwarf,100000 -o x.data -- true 2>err &&
	test_grep "^callchain: Incorrect stack dump size \(max 65528\): 100000$" err
'

test_expect_success 'samples counted in the message equal the samples in the file' '
	"$SONDE" record -o s.data -- "$W/cpuburn" 100 2>err &&
	n=$(sed -n "s/.*(\([0-9]*\) samples).*/\1/p" err) &&
	m=$("$SONDE" script -i s.data -F ip | wc -l) &&
	echo "samples: $n in the message, $m in the file" &&
	test -n "$n" && test "$n" -gt 0 && test "$m" = "$n"
'

test_expect_success PERF 'sample count agrees with perf report --stats' '
	"$SONDE" record -o s.data -- "$W/cpuburn" 100 2>err &&
	n=$(sed -n "s/.*(\([0-9]*\) samples).*/\1/p" err) &&
	"$PERF" report --stats -i s.data 2>/dev/null | grep -E "^ +SAMPLE events: +$n\b"
'

test_expect_success '-B: no sample count in the message (perf does not read the file back)' '
	"$SONDE" record -B -o b.data -- "$W/cpuburn" 50 2>err &&
	test_grep "^\[ perf record: Captured and wrote [0-9.]+ MB b.data \]$" err
'

test_expect_success 'SIGINT ends a system-wide recording cleanly' '
	"$SONDE" record -a -o int.data 2>err &
	pid=$!
	sleep 0.5 && interrupt $pid && wait $pid &&
	test_grep "Captured and wrote" err &&
	"$SONDE" record -q -o /dev/null -- true
'

test_expect_success PERF 'SIGINT leaves a file perf reads without warnings' '
	"$SONDE" record -a -o int.data 2>/dev/null &
	pid=$!
	sleep 0.5 && interrupt $pid && wait $pid &&
	"$PERF" report --stdio -i int.data >/dev/null 2>err && ! test -s err
'

test_expect_success '-p PID and -t TID record a running process until SIGINT' '
	"$W/cpuburn" 3000 &
	bp=$!
	"$SONDE" record -p $bp -o p.data 2>perr &
	rp=$!
	sleep 0.5
	interrupt $rp
	wait $rp
	"$SONDE" record -t $bp --per-thread -o t.data 2>terr &
	rp=$!
	sleep 0.5
	interrupt $rp
	wait $rp
	kill $bp
	test_grep "Captured and wrote .* p.data \([1-9][0-9]* samples\)" perr &&
	test_grep "Captured and wrote .* t.data \([1-9][0-9]* samples\)" terr
'

test_expect_success '-C 0 and -a with a command' '
	"$SONDE" record -C 0 -o c.data -- sleep 0.05 2>err && test_grep "Captured" err &&
	"$SONDE" record -a -g -o a.data -- sleep 0.05 2>err && test_grep "Captured" err
'

# a fresh root may have no process of any other user: the test starts its own
test_expect_success NOBODY '-u USER records that user'"'"'s processes' '
	setpriv --reuid nobody --regid nogroup --clear-groups "$W/cpuburn" 3000 &
	bp=$!
	for i in $(seq 50); do
		test "$(cat /proc/$bp/comm 2>/dev/null)" = cpuburn && break
		sleep 0.1
	done
	test "$(stat -c %U /proc/$bp)" = nobody
	"$SONDE" record -u nobody -o u.data 2>err &
	rp=$!
	sleep 0.5
	interrupt $rp
	wait $rp
	kill $bp
	test_grep "Captured and wrote .* u.data \([1-9][0-9]* samples\)" err &&
	"$SONDE" script -i u.data -F pid | tr -d " " >pids &&
	grep -qx "$bp" pids
'

test_expect_success '--switch-output=signal writes perf.data.<timestamp> files' '
	"$SONDE" record --switch-output -a -o sw.data 2>err &
	rp=$!
	sleep 0.8 && kill -USR2 $rp && sleep 0.5 && interrupt $rp && wait $rp &&
	test $(ls sw.data.* | wc -l) -ge 2 &&
	ls sw.data.* | grep -E "^sw\.data\.[0-9]{16}$" &&
	test_grep "^\[ perf record: Dump sw\.data\.[0-9]{16} \]$" err
'

test_expect_success '-G needs events first and a system-wide target' '
	test_exit_code 129 "$SONDE" record -G / -o g.data -- true 2>err &&
	test_grep "^must define events before cgroups$" err &&
	test_exit_code 129 "$SONDE" record -e cpu-clock -G / -o g.data -- true 2>err &&
	test_grep "^  Error: cgroup monitoring only available in system-wide mode$" err &&
	"$SONDE" record -a -e cpu-clock -G / -o g.data -- sleep 0.05 2>err &&
	test_grep "Captured and wrote" err
'

test_expect_success PERF,NOBODY 'unprivileged: user-only sampling named as perf names it' '
	d=$(mktemp -d /tmp/sonde-nobody.XXXXXX) && chmod 777 "$d" &&
	setpriv --reuid nobody --regid nogroup --clear-groups "$SONDE" record -q -o "$d/n.data" -- true &&
	# perf evlist prints the name sonde stored in the header
	test "$("$PERF" evlist -f -i "$d/n.data")" = "cpu-clock:uh$(default_event_mods)" &&
	setpriv --reuid nobody --regid nogroup --clear-groups "$SONDE" record -q -e cpu-clock -o "$d/n.data" -- true &&
	test "$("$PERF" evlist -f -i "$d/n.data")" = "cpu-clock:u" &&
	rm -rf "$d"
'

test_expect_success '--switch-output=1s: one file per second, perf'"'"'s closing lines' '
	"$SONDE" record --switch-output=1s -a -o st.data -- sleep 2.3 2>err &&
	test $(ls st.data.* | wc -l) -ge 2 &&
	test_grep "^\[ perf record: dump data: Woken up [0-9]+ times \]$" err &&
	test_grep "^\[ perf record: Captured and wrote [0-9.]+ MB st\.data\.<timestamp> \]$" err
'

test_expect_success 'EMFILE: perf'"'"'s hints; a low soft limit is raised' '
	evs="-e cpu-clock,task-clock,cs,faults,cpu-migrations -e minor-faults,major-faults,alignment-faults" &&
	(ulimit -n 20; test_exit_code 255 "$SONDE" record $evs -a -o e.data -- true 2>err) &&
	test_grep "^Too many events are opened\.$" err &&
	test_grep "^Hint: Try increasing the limit with .ulimit -n <limit>.$" err &&
	(ulimit -S -n 20; "$SONDE" record -q $evs -a -o e.data -- true)
'

test_expect_success '-D delays the events with perf'"'"'s messages; --max-size stops the session' '
	"$SONDE" record -D 50 -o d.data -- "$W/cpuburn" 150 2>err &&
	test_grep "^Events disabled$" err && test_grep "^Events enabled$" err &&
	"$SONDE" record -D -1 -o d.data -- true 2>err &&
	test_grep "^Events disabled$" err && ! grep -q "^Events enabled$" err &&
	"$SONDE" record -q --max-size=20K -o m.data -- "$W/cpuburn" 1000 2>err &&
	test_grep "^\[ perf record: perf size limit reached \([0-9]+ KB\), stopping session \]$" err
'

test_expect_success '--timestamp-filename renames the output as perf' '
	"$SONDE" record --timestamp-filename -o tsf.data -- true 2>err &&
	ls tsf.data.* | grep -E "^tsf\.data\.[0-9]{16}$" &&
	test_grep "^\[ perf record: Captured and wrote [0-9.]+ MB tsf\.data\.<timestamp> \([0-9]+ samples\) \]$" err
'

test_expect_success '--switch-max-files keeps only the newest dumps' '
	"$SONDE" record -q --switch-output --switch-max-files=1 -a -o mx.data &
	rp=$!
	sleep 0.8 && kill -USR2 $rp && sleep 0.3 && kill -USR2 $rp && sleep 0.3 && interrupt $rp && wait $rp &&
	test $(ls mx.data.* | wc -l) = 1
'

test_expect_success 'record -h lists perf record options' '
	test_exit_code 129 "$SONDE" record -h 2>err &&
	test_grep "^    -F, --freq <freq or .max.>$" err &&
	test_grep "^        --call-graph <record_mode\[,record_size\]>$" err &&
	test_grep "^    -z, --compression-level\[=<n>\]$" err
'

test_expect_success PERF 'record -h matches perf record -h' '
	test_exit_code 129 "$SONDE" record -h 2>sonde.txt &&
	test_exit_code 129 "$PERF" record -h 2>perf.txt &&
	sed "s/sonde record/perf record/" sonde.txt >sonde-n.txt &&
	test_cmp perf.txt sonde-n.txt
'

test_done
