# SPDX-License-Identifier: MIT
# sonde's Util module for perf-style Python scripts: time helpers,
# statistics, syscall names and errno names.

from __future__ import print_function

import errno
import os

FUTEX_WAIT = 0
FUTEX_WAKE = 1
FUTEX_PRIVATE_FLAG = 128
FUTEX_CLOCK_REALTIME = 256
FUTEX_CMD_MASK = ~(FUTEX_PRIVATE_FLAG | FUTEX_CLOCK_REALTIME)

NSECS_PER_SEC = 1000000000


def avg(total, n):
    return total / n


def nsecs(secs, nsecs):
    return secs * NSECS_PER_SEC + nsecs


def nsecs_secs(nsecs):
    return nsecs / NSECS_PER_SEC


def nsecs_nsecs(nsecs):
    return nsecs % NSECS_PER_SEC


def nsecs_str(nsecs):
    # a 1-tuple, as perf's scripts have always received it
    text = "%5u.%09u" % (nsecs_secs(nsecs), nsecs_nsecs(nsecs)),
    return text


def add_stats(dict, key, value):
    """(min, max, running average, count) of the values seen for key."""
    if key not in dict:
        dict[key] = (value, value, value, 1)
    else:
        lo, hi, mean, count = dict[key]
        dict[key] = (min(lo, value), max(hi, value), (mean + value) / 2, count + 1)


def clear_term():
    print("\x1b[H\x1b[2J")


audit_package_warned = False

try:
    import audit
    _machine = audit.determine_machine_type()

    def syscall_name(id):
        name = audit.audit_syscall_to_name(id, _machine)
        return name if name else str(id)
except ImportError:
    def syscall_name(id):
        return str(id)

    if not audit_package_warned:
        audit_package_warned = True
        print("Install the audit-libs-python package to get syscall names.\n"
              "For example:\n  # apt-get install python-audit (Ubuntu)"
              "\n  # yum install audit-libs-python (Fedora)"
              "\n  etc.\n")


def strerror(nr):
    try:
        return errno.errorcode[abs(nr)]
    except KeyError:
        return "Unknown %d errno" % nr
