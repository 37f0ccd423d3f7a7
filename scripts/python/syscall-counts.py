# SPDX-License-Identifier: MIT
# syscall-counts: how many times each syscall was entered, system-wide or
# for one comm. Record with: sonde script record syscall-counts [cmd]
# usage: sonde script report syscall-counts [comm]

from __future__ import print_function

import os
import sys

sys.path.append(os.environ['PERF_EXEC_PATH'] +
                '/scripts/python/Perf-Trace-Util/lib/Perf/Trace')

from perf_trace_context import *
from Core import *
from Util import syscall_name

usage = "perf script -s syscall-counts.py [comm]\n"

for_comm = None
if len(sys.argv) > 2:
    sys.exit(usage)
if len(sys.argv) > 1:
    for_comm = sys.argv[1]

counts = {}


def trace_begin():
    print("Press control+C to stop and show the summary")


def trace_end():
    show_totals()


def count(comm, id):
    if for_comm is not None and comm != for_comm:
        return
    counts[id] = counts.get(id, 0) + 1


def raw_syscalls__sys_enter(event_name, context, common_cpu, common_secs,
                            common_nsecs, common_pid, common_comm,
                            common_callchain, id, args):
    count(common_comm, id)


def syscalls__sys_enter(event_name, context, common_cpu, common_secs,
                        common_nsecs, common_pid, common_comm, id, args):
    count(common_comm, id)


def show_totals():
    if for_comm is not None:
        print("\nsyscall events for %s:\n" % for_comm)
    else:
        print("\nsyscall events:\n")
    print("%-40s  %10s" % ("event", "count"))
    print("%-40s  %10s" % ("-" * 40, "-" * 11))
    for id, n in sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True):
        print("%-40s  %10d" % (syscall_name(id), n))
