# SPDX-License-Identifier: MIT
# failed-syscalls-by-pid: syscalls that returned an error, per comm, pid,
# syscall and errno. Record with: sonde script record failed-syscalls-by-pid
# usage: sonde script report failed-syscalls-by-pid [comm|pid]

from __future__ import print_function

import os
import sys

sys.path.append(os.environ['PERF_EXEC_PATH'] +
                '/scripts/python/Perf-Trace-Util/lib/Perf/Trace')

from perf_trace_context import *
from Core import *
from Util import syscall_name, strerror

usage = "perf script -s failed-syscalls-by-pid.py [comm|pid]\n"

for_comm = None
for_pid = None
if len(sys.argv) > 2:
    sys.exit(usage)
if len(sys.argv) > 1:
    try:
        for_pid = int(sys.argv[1])
    except ValueError:
        for_comm = sys.argv[1]

# comm -> pid -> syscall id -> return value -> count, in the order first seen
errors = {}


def trace_begin():
    print("Press control+C to stop and show the summary")


def trace_end():
    show_errors()


def note_exit(comm, pid, id, ret):
    if (for_comm is not None and comm != for_comm) or \
       (for_pid is not None and pid != for_pid):
        return
    if ret >= 0:
        return
    per_ret = errors.setdefault(comm, {}).setdefault(pid, {}).setdefault(id, {})
    per_ret[ret] = per_ret.get(ret, 0) + 1


def raw_syscalls__sys_exit(event_name, context, common_cpu, common_secs,
                           common_nsecs, common_pid, common_comm,
                           common_callchain, id, ret):
    note_exit(common_comm, common_pid, id, ret)


def syscalls__sys_exit(event_name, context, common_cpu, common_secs,
                       common_nsecs, common_pid, common_comm, id, ret):
    note_exit(common_comm, common_pid, id, ret)


def show_errors():
    if for_comm is not None:
        print("\nsyscall errors for %s:\n" % for_comm)
    else:
        print("\nsyscall errors:\n")
    print("%-30s  %10s" % ("comm [pid]", "count"))
    print("%-30s  %10s" % ("-" * 30, "-" * 10))
    for comm, pids in errors.items():
        for pid, ids in pids.items():
            print("\n%s [%d]" % (comm, pid))
            for id, rets in ids.items():
                print("  syscall: %-16s" % syscall_name(id))
                for ret, n in sorted(rets.items(), key=lambda kv: (kv[1], kv[0]), reverse=True):
                    print("    err = %-20s  %10d" % (strerror(ret), n))
