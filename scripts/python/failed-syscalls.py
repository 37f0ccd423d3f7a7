# SPDX-License-Identifier: MIT
# failed-syscalls: how many syscalls failed, per comm (perf ships this one
# in Perl; the layout is the same). Record with: sonde script record failed-syscalls
# usage: sonde script report failed-syscalls [comm]

from __future__ import print_function

import sys

for_comm = sys.argv[1] if len(sys.argv) > 1 else None
failed = {}


def raw_syscalls__sys_exit(event_name, context, common_cpu, common_secs,
                           common_nsecs, common_pid, common_comm,
                           common_callchain, id, ret):
    if ret < 0:
        failed[common_comm] = failed.get(common_comm, 0) + 1


def trace_end():
    print("\nfailed syscalls by comm:\n")
    print("%-20s  %10s" % ("comm", "# errors"))
    print("%-20s  %6s  %10s" % ("-" * 20, "-" * 10, ""))
    for comm, n in sorted(failed.items(), key=lambda kv: kv[1], reverse=True):
        if for_comm is not None and comm != for_comm:
            continue
        print("%-20s  %10d" % (comm, n))
