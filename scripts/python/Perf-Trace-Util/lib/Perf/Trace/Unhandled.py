# SPDX-License-Identifier: MIT
# Counting the events a script has no handler for, and the "unhandled
# events" table the rw-by-*, wakeup-latency scripts print at the end.

from __future__ import print_function

unhandled = {}


def trace_unhandled(event_name, context, event_fields_dict):
    name = event_name.replace("__", "::", 1)
    unhandled[name] = unhandled.get(name, 0) + 1


def print_unhandled():
    if not unhandled:
        return
    print("\nunhandled events:\n")
    print("%-40s  %10s" % ("event", "count"))
    print("%-40s  %10s" % ("-" * 40, "-" * 11))
    for name, n in unhandled.items():
        print("%-40s  %10d" % (name, n))
