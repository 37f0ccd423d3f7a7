# SPDX-License-Identifier: MIT
# rw-by-pid: read and write activity per process, with the failed calls
# (perf ships this one in Perl; the layout is the same).
# Record with: sonde script record rw-by-pid [cmd]

from __future__ import print_function

import os
import sys

sys.path.append(os.environ['PERF_EXEC_PATH'] +
                '/scripts/python/Perf-Trace-Util/lib/Perf/Trace')

from Unhandled import trace_unhandled, print_unhandled


class Rw:
    def __init__(self):
        self.comm = ""
        self.calls = 0
        self.requested = 0
        self.done = 0
        self.errors = {}  # return value -> count


reads = {}
writes = {}


def entry(table, pid):
    if pid not in table:
        table[pid] = Rw()
    return table[pid]


def syscalls__sys_enter_read(event_name, context, common_cpu, common_secs,
                             common_nsecs, common_pid, common_comm,
                             common_callchain, __syscall_nr, fd, buf, count):
    r = entry(reads, common_pid)
    r.comm = common_comm
    r.calls += 1
    r.requested += count


def syscalls__sys_exit_read(event_name, context, common_cpu, common_secs,
                            common_nsecs, common_pid, common_comm,
                            common_callchain, __syscall_nr, ret):
    r = entry(reads, common_pid)
    if ret > 0:
        r.done += ret
    else:
        r.errors[ret] = r.errors.get(ret, 0) + 1


def syscalls__sys_enter_write(event_name, context, common_cpu, common_secs,
                              common_nsecs, common_pid, common_comm,
                              common_callchain, __syscall_nr, fd, buf, count):
    w = entry(writes, common_pid)
    w.comm = common_comm
    w.calls += 1
    w.requested += count


def syscalls__sys_exit_write(event_name, context, common_cpu, common_secs,
                             common_nsecs, common_pid, common_comm,
                             common_callchain, __syscall_nr, ret):
    w = entry(writes, common_pid)
    if ret <= 0:
        w.errors[ret] = w.errors.get(ret, 0) + 1


def print_errors(title, table):
    print("\n%s\n" % title)
    print("%6s  %20s  %6s  %10s" % ("pid", "comm", "error #", "# errors"))
    print("%6s  %20s  %6s  %10s" % ("-" * 6, "-" * 20, "-" * 6, "-" * 10))
    rows = []
    for pid, e in table.items():
        for ret, n in e.errors.items():
            rows.append((n, pid, e.comm, ret))
    for n, pid, comm, ret in sorted(rows, key=lambda r: r[0], reverse=True):
        print("%6d  %-20s  %6d  %10d" % (pid, comm, ret, n))


def trace_end():
    print("read counts by pid:\n")
    print("%6s  %20s  %10s  %10s  %10s" % ("pid", "comm", "# reads",
                                         "bytes_requested", "bytes_read"))
    print("%6s  %-20s  %10s  %10s  %10s" % ("-" * 6, "-" * 20, "-" * 11,
                                          "-" * 10, "-" * 10))
    for pid, r in sorted(reads.items(), key=lambda kv: kv[1].done, reverse=True):
        print("%6d  %-20s  %10d  %10d  %10d" % (pid, r.comm, r.calls, r.requested, r.done))
    print_errors("failed reads by pid:", reads)
    print("\nwrite counts by pid:\n")
    print("%6s  %20s  %10s  %10s" % ("pid", "comm", "# writes", "bytes_written"))
    print("%6s  %-20s  %10s  %10s" % ("-" * 6, "-" * 20, "-" * 11, "-" * 10))
    for pid, w in sorted(writes.items(), key=lambda kv: kv[1].requested, reverse=True):
        print("%6d  %-20s  %10d  %10d" % (pid, w.comm, w.calls, w.requested))
    print_errors("failed writes by pid:", writes)
    print_unhandled()
