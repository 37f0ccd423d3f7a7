# SPDX-License-Identifier: MIT
# rw-by-file: one program's reads and writes per file descriptor (perf
# ships this one in Perl; the layout is the same).
# Record with: sonde script record rw-by-file [cmd]
# usage: sonde script report rw-by-file <comm>

from __future__ import print_function

import os
import sys

sys.path.append(os.environ['PERF_EXEC_PATH'] +
                '/scripts/python/Perf-Trace-Util/lib/Perf/Trace')

from Unhandled import trace_unhandled, print_unhandled

if len(sys.argv) < 2:
    sys.exit("usage: rw-by-file <comm>\n")
for_comm = sys.argv[1]

reads = {}   # fd -> [calls, bytes requested]
writes = {}  # fd -> [calls, bytes written]


def note(table, fd, count):
    e = table.setdefault(fd, [0, 0])
    e[0] += 1
    e[1] += count


def syscalls__sys_enter_read(event_name, context, common_cpu, common_secs,
                             common_nsecs, common_pid, common_comm,
                             common_callchain, __syscall_nr, fd, buf, count):
    if common_comm == for_comm:
        note(reads, fd, count)


def syscalls__sys_enter_write(event_name, context, common_cpu, common_secs,
                              common_nsecs, common_pid, common_comm,
                              common_callchain, __syscall_nr, fd, buf, count):
    if common_comm == for_comm:
        note(writes, fd, count)


def trace_end():
    print("file read counts for %s:\n" % for_comm)
    print("%6s  %10s  %10s" % ("fd", "# reads", "bytes_requested"))
    print("%6s  %10s  %10s" % ("-" * 6, "-" * 10, "-" * 11))
    for fd, (n, nbytes) in sorted(reads.items(), key=lambda kv: kv[1][1], reverse=True):
        print("%6d  %10d  %10d" % (fd, n, nbytes))
    print("\nfile write counts for %s:\n" % for_comm)
    print("%6s  %10s  %10s" % ("fd", "# writes", "bytes_written"))
    print("%6s  %10s  %10s" % ("-" * 6, "-" * 10, "-" * 11))
    for fd, (n, nbytes) in sorted(writes.items(), key=lambda kv: kv[1][1], reverse=True):
        print("%6d  %10d  %10d" % (fd, n, nbytes))
    print_unhandled()
