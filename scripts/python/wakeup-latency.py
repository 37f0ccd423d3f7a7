# SPDX-License-Identifier: MIT
# wakeup-latency: time from a wakeup aimed at a cpu to that cpu's next
# context switch: count, average, min and max (perf ships this one in Perl;
# the layout is the same). Record with: sonde script record wakeup-latency [cmd]

from __future__ import print_function

import os
import sys

sys.path.append(os.environ['PERF_EXEC_PATH'] +
                '/scripts/python/Perf-Trace-Util/lib/Perf/Trace')

from Unhandled import trace_unhandled, print_unhandled

last_wakeup = {}  # cpu -> time of the wakeup still waiting for a switch
total = 0
wakeups = 0
min_latency = 1000000000
max_latency = 0


def sched__sched_wakeup(event_name, context, common_cpu, common_secs,
                        common_nsecs, common_pid, common_comm,
                        common_callchain, comm, pid, prio, target_cpu):
    last_wakeup[target_cpu] = common_secs * 1000000000 + common_nsecs


def sched__sched_switch(event_name, context, common_cpu, common_secs,
                        common_nsecs, common_pid, common_comm,
                        common_callchain, prev_comm, prev_pid, prev_prio,
                        prev_state, next_comm, next_pid, next_prio):
    global total, wakeups, min_latency, max_latency
    start = last_wakeup.pop(common_cpu, None)
    if start is None:
        return
    latency = common_secs * 1000000000 + common_nsecs - start
    total += latency
    wakeups += 1
    min_latency = min(min_latency, latency)
    max_latency = max(max_latency, latency)


def trace_end():
    print("wakeup_latency stats:\n")
    print("total_wakeups: %d" % wakeups)
    if wakeups:
        print("avg_wakeup_latency (ns): %d" % (total // wakeups))
    else:
        print("avg_wakeup_latency (ns): N/A")
    print("min_wakeup_latency (ns): %d" % min_latency)
    print("max_wakeup_latency (ns): %d" % max_latency)
    print_unhandled()
