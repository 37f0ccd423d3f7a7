# SPDX-License-Identifier: MIT
# Test script: process_event's dict in full (callchains with symbols,
# the sample sub-dict) and trace_unhandled with perf_sample_dict (4 arguments).
from __future__ import print_function

from perf_trace_context import *


def clean(d):
    # the kernel map's end is perf's guess from kallsyms; sonde's ends at the top
    if d.get('dso') == '[kernel.kallsyms]':
        d.pop('dso_map_end', None)
    return d


def process_event(param_dict):
    print(sorted(clean(param_dict).items()))
    c = perf_script_context
    # source lines only for the test's own program: for glibc's files, which of
    # a function's nested source files perf names varies
    if 'cpuburn' in param_dict.get('dso', ''):
        print(perf_sample_srcline(c), common_pc(c))


def trace_unhandled(event_name, context, event_fields_dict, perf_sample_dict):
    print(event_name, sorted(event_fields_dict.items()))
    print(sorted(clean(perf_sample_dict).items()))
