# SPDX-License-Identifier: MIT
# sctop: syscall counts refreshed every interval (default 3 s), system-wide
# or for one comm. Record with: sonde script record sctop [cmd]
# usage: sonde script report sctop [comm] [interval]

from __future__ import print_function

import os
import sys
import threading
import time

sys.path.append(os.environ['PERF_EXEC_PATH'] +
                '/scripts/python/Perf-Trace-Util/lib/Perf/Trace')

from perf_trace_context import *
from Core import *
from Util import *

usage = "perf script -s sctop.py [comm] [interval]\n"

for_comm = None
interval = 3
if len(sys.argv) > 3:
    sys.exit(usage)
if len(sys.argv) > 2:
    for_comm = sys.argv[1]
    interval = int(sys.argv[2])
elif len(sys.argv) > 1:
    try:
        interval = int(sys.argv[1])
    except ValueError:
        for_comm = sys.argv[1]

counts = {}
lock = threading.Lock()


def show_totals():
    while True:
        with lock:
            clear_term()
            if for_comm is not None:
                print("\nsyscall events for %s:\n" % for_comm)
            else:
                print("\nsyscall events:\n")
            print("%-40s  %10s" % ("event", "count"))
            print("%-40s  %10s" % ("-" * 40, "-" * 10))
            for id, n in sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True):
                print("%-40s  %10d" % (syscall_name(id), n))
            counts.clear()
        time.sleep(interval)


def trace_begin():
    t = threading.Thread(target=show_totals)
    t.daemon = True
    t.start()


def raw_syscalls__sys_enter(event_name, context, common_cpu, common_secs,
                            common_nsecs, common_pid, common_comm,
                            common_callchain, id, args):
    if for_comm is not None and common_comm != for_comm:
        return
    with lock:
        counts[id] = counts.get(id, 0) + 1


def syscalls__sys_enter(event_name, context, common_cpu, common_secs,
                        common_nsecs, common_pid, common_comm, id, args):
    raw_syscalls__sys_enter(event_name, context, common_cpu, common_secs,
                            common_nsecs, common_pid, common_comm, None, id, args)
