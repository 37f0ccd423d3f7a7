# SPDX-License-Identifier: MIT
# syscall-counts-by-pid: syscalls entered, per comm and pid, system-wide or
# for one comm or pid. Record with: sonde script record syscall-counts-by-pid
# usage: sonde script report syscall-counts-by-pid [comm|pid]

from __future__ import print_function

import os
import sys

sys.path.append(os.environ['PERF_EXEC_PATH'] +
                '/scripts/python/Perf-Trace-Util/lib/Perf/Trace')

from perf_trace_context import *
from Core import *
from Util import syscall_name

usage = "perf script -s syscall-counts-by-pid.py [comm|pid]\n"

for_comm = None
for_pid = None
if len(sys.argv) > 2:
    sys.exit(usage)
if len(sys.argv) > 1:
    try:
        for_pid = int(sys.argv[1])
    except ValueError:
        for_comm = sys.argv[1]

# comm -> pid -> syscall id -> count, in the order first seen
counts = {}


def trace_begin():
    print("Press control+C to stop and show the summary")


def trace_end():
    show_totals()


def count(comm, pid, id):
    if (for_comm is not None and comm != for_comm) or \
       (for_pid is not None and pid != for_pid):
        return
    per_id = counts.setdefault(comm, {}).setdefault(pid, {})
    per_id[id] = per_id.get(id, 0) + 1


def raw_syscalls__sys_enter(event_name, context, common_cpu, common_secs,
                            common_nsecs, common_pid, common_comm,
                            common_callchain, id, args):
    count(common_comm, common_pid, id)


def syscalls__sys_enter(event_name, context, common_cpu, common_secs,
                        common_nsecs, common_pid, common_comm, id, args):
    count(common_comm, common_pid, id)


def show_totals():
    if for_comm is not None:
        print("\nsyscall events for %s:\n" % for_comm)
    else:
        print("\nsyscall events by comm/pid:\n")
    print("%-40s  %10s" % ("comm [pid]/syscalls", "count"))
    print("%-40s  %10s" % ("-" * 40, "-" * 10))
    for comm, pids in counts.items():
        for pid, ids in pids.items():
            print("\n%s [%d]" % (comm, pid))
            for id, n in sorted(ids.items(), key=lambda kv: (kv[1], kv[0]), reverse=True):
                print("  %-38s  %10d" % (syscall_name(id), n))
