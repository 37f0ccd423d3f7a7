# SPDX-License-Identifier: MIT
# sonde's Core module for perf-style Python scripts: flag and symbolic
# field tables (filled by the engine from the events' print formats),
# flag_str/symbol_str, autodict and the event header helper.

from collections import defaultdict


def autodict():
    """A dictionary whose missing keys come into being as nested autodicts."""
    return defaultdict(autodict)


# event name -> field name -> {'delim': str, 'values': {value: name}}
flag_fields = autodict()
# event name -> field name -> {'values': {value: name}}
symbolic_fields = autodict()


def define_flag_field(event_name, field_name, delim):
    flag_fields[event_name][field_name]['delim'] = delim


def define_flag_value(event_name, field_name, value, field_str):
    flag_fields[event_name][field_name]['values'][value] = field_str


def define_symbolic_field(event_name, field_name):
    # the values arrive with define_symbolic_value()
    pass


def define_symbolic_value(event_name, field_name, value, field_str):
    symbolic_fields[event_name][field_name]['values'][value] = field_str


def flag_str(event_name, field_name, value):
    """The names of the flags set in value, joined by the field's delimiter."""
    if event_name not in flag_fields or field_name not in flag_fields[event_name]:
        return ""
    field = flag_fields[event_name][field_name]
    names = field['values']
    sep = " %s " % field['delim']
    parts = []
    for bit in sorted(names):
        if bit == 0:
            if value == 0:
                return names[bit]
            continue
        if value & bit == bit:
            parts.append(names[bit])
            value &= ~bit
    return sep.join(parts)


def symbol_str(event_name, field_name, value):
    """The name the event's print format gives value, or ''."""
    if event_name not in symbolic_fields or field_name not in symbolic_fields[event_name]:
        return ""
    return symbolic_fields[event_name][field_name]['values'].get(value, "")


# the common_flags bits of trace events
trace_flags = {0x00: "NONE", 0x01: "IRQS_OFF", 0x02: "IRQS_NOSUPPORT",
               0x04: "NEED_RESCHED", 0x08: "HARDIRQ", 0x10: "SOFTIRQ"}


def trace_flag_str(value):
    if value == 0:
        return trace_flags[0]
    parts = []
    for bit in sorted(trace_flags):
        if bit and value & bit:
            parts.append(trace_flags[bit])
            value &= ~bit
    return " | ".join(parts)


def taskState(state):
    states = {0: "R", 1: "S", 2: "D", 64: "DEAD"}
    return states.get(state, "Unknown")


class EventHeaders:
    """The common arguments of a tracepoint handler, kept together."""

    def __init__(self, common_cpu, common_secs, common_nsecs, common_pid,
                 common_comm, common_callchain):
        self.cpu = common_cpu
        self.secs = common_secs
        self.nsecs = common_nsecs
        self.pid = common_pid
        self.comm = common_comm
        self.callchain = common_callchain

    def ts(self):
        return self.secs * 1000000000 + self.nsecs

    def ts_format(self):
        return "%d.%d" % (self.secs, int(self.nsecs / 1000))
