# SPDX-License-Identifier: MIT
# Test script: per-tracepoint handlers (with and without perf_sample_dict),
# trace_begin/trace_end, sys.argv, Core's flag_str and Util's helpers.
from __future__ import print_function

import os
import sys

sys.path.append(os.environ['PERF_EXEC_PATH'] +
                '/scripts/python/Perf-Trace-Util/lib/Perf/Trace')

from perf_trace_context import *
from Core import *
from Util import *

nr = autodict()


def trace_begin():
    print("begin", sys.argv[1:])


def sched__sched_switch(event_name, context, common_cpu, common_secs, common_nsecs,
                        common_pid, common_comm, common_callchain, prev_comm, prev_pid,
                        prev_prio, prev_state, next_comm, next_pid, next_prio):
    print("%s %u %u.%09u %d %s %s/%d/%d %s -> %s/%d/%d pc=%d flags=%d ld=%d" % (
        event_name, common_cpu, common_secs, common_nsecs, common_pid, common_comm,
        prev_comm, prev_pid, prev_prio,
        flag_str("sched__sched_switch", "prev_state", prev_state),
        next_comm, next_pid, next_prio, common_pc(context), common_flags(context),
        common_lock_depth(context)))


def raw_syscalls__sys_enter(event_name, context, common_cpu, common_secs, common_nsecs,
                            common_pid, common_comm, common_callchain, id, args,
                            perf_sample_dict):
    s = perf_sample_dict['sample']
    print("enter", common_pid, common_comm, id, type(args).__name__, len(args),
          perf_sample_dict['ev_name'], s['pid'], s['tid'], s['cpu'], s['time'],
          s['period'], perf_sample_dict.get('symbol'), perf_sample_dict['raw_buf'].hex())


def raw_syscalls__sys_exit(event_name, context, common_cpu, common_secs, common_nsecs,
                           common_pid, common_comm, common_callchain, id, ret):
    key = (common_comm, id, ret < 0)
    if key in nr:
        nr[key] += 1
    else:
        nr[key] = 1


def trace_end():
    for k in sorted(nr):
        print("exit", k, nr[k], strerror(-1 if k[2] else 0))
    print(nsecs(1, 2), nsecs_secs(3000000001), nsecs_nsecs(3000000001),
          nsecs_str(3000000001), avg(10, 4))
    d = {}
    for v in (10, 4, 30):
        add_stats(d, 'k', v)
    print(d, taskState(2), trace_flag_str(3))
    print("end")
