# SPDX-License-Identifier: MIT
# futex-contention: how long threads waited in FUTEX_WAIT, per thread and lock.
# Record with: sonde script record futex-contention [cmd]

from __future__ import print_function

import os
import sys

sys.path.append(os.environ['PERF_EXEC_PATH'] +
                '/scripts/python/Perf-Trace-Util/lib/Perf/Trace')

from Core import *
from Util import *

comms = {}       # tid -> comm
waiting = {}     # tid -> (lock, start ns)
waits = {}       # (tid, lock) -> (min, max, avg, count), see Util.add_stats


def syscalls__sys_enter_futex(event_name, context, common_cpu, common_secs,
                              common_nsecs, common_pid, common_comm,
                              common_callchain, __syscall_nr, uaddr, op, val,
                              utime, uaddr2, val3):
    if op & FUTEX_CMD_MASK != FUTEX_WAIT:
        return
    comms[common_pid] = common_comm
    waiting[common_pid] = (uaddr, nsecs(common_secs, common_nsecs))


def syscalls__sys_exit_futex(event_name, context, common_cpu, common_secs,
                             common_nsecs, common_pid, common_comm,
                             common_callchain, __syscall_nr, ret):
    if common_pid not in waiting:
        return
    lock, start = waiting.pop(common_pid)
    add_stats(waits, (common_pid, lock), nsecs(common_secs, common_nsecs) - start)


def trace_begin():
    print("Press control+C to stop and show the summary")


def trace_end():
    for (tid, lock), (lo, hi, mean, n) in waits.items():
        print("%s[%d] lock %x contended %d times, %d avg ns [max: %d ns, min %d ns]" %
              (comms[tid], tid, lock, n, mean, hi, lo))
